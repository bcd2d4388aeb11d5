//! `why`: for a line of a live note, the commit that wrote it (blame through libgit2) and
//! the review it came from, with what the reviewer saw then.
//!
//! [`explain`] is the one entry point: it blames the note as it is on disk now (lines not
//! committed yet are named so), follows a line a `dreamreview revert` restored back to the
//! commit that first wrote it, and for a review commit reads its evidence note
//! ([`super::notes`]): the hunk that wrote the line, its entries, the cited transcript
//! lines as they were kept, the claims and verdicts, the flags accepted. Each cited
//! transcript is looked at again: still there, deleted since, or changed since (the line
//! rendered again and compared with the kept text). A review commit made before evidence
//! was kept falls back to the `cites` lines of its message.
//!
//! The result is plain data ([`Explanation`], serializable as `why --json` prints it);
//! nothing here prints. Every text in it went through [`crate::base::secrets`] masking.
//!
//! The answer's types are in [`types`]; the history walk in `walk`; a line as the TUI shows
//! it traced in `trace`; old review commits' `cites` lines read in `message`.

mod cites;
mod trace;
pub mod types;
mod walk;

pub use cites::{accepted_in_message, cited_source};
pub use trace::{Gone, ShownLine, Traced, explain_at, find_line, trace};
pub use types::*;
use walk::Walk;

use super::MemoryRepo;
use super::message::one_line;
use crate::inputs::transcript::SourceSet;
use anyhow::{Context, Result, anyhow, bail};
use git2::Oid;
use std::path::Path;

/// Explains line `line` of note `note` (memory-relative, as on disk now), or every line of
/// it. Errors name the note and the folder: no such note, a line out of range, a history
/// that cannot be read.
pub fn explain(repo: &MemoryRepo, note: &str, line: Option<usize>) -> Result<Explanation> {
    explain_in(repo, note, line, &mut Shared::default())
}

/// What explaining several notes of one repository shares: the transcripts findable now.
#[derive(Default)]
pub struct Shared {
    sources: Option<SourceSet>,
}

impl Shared {
    /// Whether a transcript named `source` (as a `cites` line names it) is findable now.
    pub fn transcript_exists(&mut self, repo: &MemoryRepo, source: &str) -> bool {
        transcript_exists(repo, &mut self.sources, source)
    }
}

/// Whether a transcript named `source` is findable now among the memory folder's sources
/// (found once, kept in `sources`).
fn transcript_exists(repo: &MemoryRepo, sources: &mut Option<SourceSet>, source: &str) -> bool {
    let sources = sources.get_or_insert_with(|| {
        let root = repo.memory.parent();
        SourceSet::discover(root, &[], Some(&repo.memory)).unwrap_or_default()
    });
    !sources.find(source).is_empty()
}

/// [`explain`], sharing what can be shared with the other notes explained with `shared`.
pub fn explain_in(repo: &MemoryRepo, note: &str, line: Option<usize>, shared: &mut Shared) -> Result<Explanation> {
    let note = normalise(repo, note);
    let raw = read_note(repo, &note)?;
    let texts = split_lines(&raw);
    let wanted: Vec<usize> = match line {
        Some(0) => bail!("{}: lines are numbered from 1", repo.memory.join(&note).display()),
        Some(n) if n > texts.len() => bail!(
            "{} has {} line{}; line {n} is out of range",
            repo.memory.join(&note).display(),
            texts.len(),
            plural(texts.len())
        ),
        Some(n) => vec![n],
        None => (1..=texts.len()).collect(),
    };
    let mut walk = Walk::new(repo, &note, shared.sources.take());
    let blamed = walk.blame_now(&raw, texts.len(), line)?;
    let shown = shown_lines(&texts);
    // Group the lines by the chain of commits that explains them.
    let mut groups: Vec<(Vec<Oid>, Vec<usize>)> = Vec::new();
    for n in wanted {
        let chain = walk.chain(blamed[n - 1], &texts[n - 1])?;
        match groups.iter_mut().find(|(c, _)| *c == chain) {
            Some((_, lines)) => lines.push(n),
            None => groups.push((chain, vec![n])),
        }
    }
    let mut out = Vec::with_capacity(groups.len());
    for (chain, lines) in groups {
        let masked: Vec<&str> = lines.iter().map(|&n| shown[n - 1].as_str()).collect();
        let origin = walk.origin(&chain, &masked)?;
        let lines = lines.into_iter().map(|n| NoteLine { line: n, text: shown[n - 1].clone() }).collect();
        out.push(Group { lines, origin });
    }
    shared.sources = walk.sources.take();
    Ok(Explanation { format: FORMAT, note, line_count: texts.len(), groups: out })
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `./a.md`, `proj/memory/a.md` (repository-relative) and `a.md` name the same note.
fn normalise(repo: &MemoryRepo, note: &str) -> String {
    let p = note.trim_start_matches("./").replace('\\', "/");
    if !repo.prefix.is_empty()
        && let Some(rest) = p.strip_prefix(&format!("{}/", repo.prefix))
        && repo.memory.join(rest).is_file()
    {
        return rest.to_string();
    }
    p
}

/// The note's bytes on disk; an error names it and the folder.
fn read_note(repo: &MemoryRepo, note: &str) -> Result<Vec<u8>> {
    let inside = !note.is_empty()
        && Path::new(note).components().all(|c| matches!(c, std::path::Component::Normal(_)))
        && !crate::inputs::snapshot::is_hidden(note.rsplit('/').next().unwrap_or(note));
    let path = repo.memory.join(note);
    if !inside || !path.is_file() {
        bail!(
            "no note {} in the memory folder {} (give its path relative to that folder, e.g. MEMORY.md)",
            one_line(note),
            repo.memory.display()
        );
    }
    std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))
}

/// The note's lines, terminators stripped.
fn split_lines(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    crate::base::text::split_lines(&text).iter().map(|l| crate::base::text::strip_terminator(l).to_string()).collect()
}

/// Lines as shown: masked as one text (a key spanning lines leaves no piece on any line),
/// one line each, control characters visible.
fn shown_lines(texts: &[String]) -> Vec<String> {
    // Each with its line break back: lines glued together are not the note's text.
    let lines: Vec<String> = texts.iter().map(|t| format!("{t}\n")).collect();
    crate::base::secrets::mask_lines(&lines)
        .iter()
        .map(|l| crate::base::text::visible_controls(crate::base::text::strip_terminator(l)).into_owned())
        .collect()
}

/// Splits `NOTE[:LINE]` (`testing.md:3`); a name whose last `:` part is not a number is all note.
pub fn parse_target(arg: &str) -> Result<(String, Option<usize>)> {
    match arg.rsplit_once(':') {
        Some((note, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            let line = n.parse().map_err(|_| anyhow!("{}: line {n} is not a line number", one_line(note)))?;
            Ok((note.to_string(), Some(line)))
        }
        _ => Ok((arg.to_string(), None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shown_line_is_found_by_its_text_nearest_its_number() {
        let lines: Vec<String> = ["a", "x", "b", "x", "c", "x"].iter().map(|s| s.to_string()).collect();
        assert_eq!(find_line(&lines, "a", 5), Some(1));
        // Of several, the nearest; of two as near, the first.
        assert_eq!(find_line(&lines, "x", 1), Some(2));
        assert_eq!(find_line(&lines, "x", 4), Some(4));
        assert_eq!(find_line(&lines, "x", 5), Some(4));
        assert_eq!(find_line(&lines, "x", 99), Some(6));
        assert_eq!(find_line(&lines, "y", 1), None);
        // Exactly that text: no trimming, no prefix.
        assert_eq!(find_line(&lines, "a ", 1), None);
    }

    #[test]
    fn a_target_splits_at_its_line_number() {
        assert_eq!(parse_target("testing.md:3").unwrap(), ("testing.md".into(), Some(3)));
        assert_eq!(parse_target("testing.md").unwrap(), ("testing.md".into(), None));
        assert_eq!(parse_target("a:b.md").unwrap(), ("a:b.md".into(), None));
        assert!(parse_target("a.md:99999999999999999999999").is_err());
    }

    #[test]
    fn an_old_message_gives_the_cites_under_this_notes_accepted_hunks() {
        let msg = "dream review: accept 2 of 3 changes from d\n\n\
                   Accepted (2):\n\
                   - a.md#1 (+1 -0)\n  \
                   accepted with: inferred-date «x»\n  \
                   CHANGES.md #1: memory/a.md: added two\n    \
                   cites s.jsonl:3-5\n    \
                   cites gone.jsonl (whole file) (unresolved)\n\
                   - b.md#1 (+1 -0)\n  \
                   CHANGES.md #2: memory/b.md: x\n    \
                   cites t.jsonl:1\n\n\
                   Rejected (1):\n\
                   - a.md#2 (+1 -0)\n  \
                   CHANGES.md #3: memory/a.md: y\n    \
                   cites u.jsonl:9\n\n\
                   Dream-Id: x\n";
        let cite = |text: String| MessageCite { source: cited_source(&text), text, now: Now::StillThere };
        let got = accepted_in_message(msg, "a.md", cite);
        let cites = |texts: &[&str]| texts.iter().map(|t| cite(t.to_string())).collect::<Vec<_>>();
        assert_eq!(
            got,
            vec![MessageHunk {
                line: "a.md#1 (+1 -0)".into(),
                entries: vec![MessageEntry {
                    text: "CHANGES.md #1: memory/a.md: added two".into(),
                    cites: cites(&["s.jsonl:3-5", "gone.jsonl (whole file) (unresolved)"]),
                }],
            }]
        );
        assert_eq!(cited_source("s.jsonl:3-5"), "s.jsonl");
        assert_eq!(cited_source("gone.jsonl (whole file) (unresolved)"), "gone.jsonl");
        assert_eq!(cited_source("5b0e.jsonl:1 (2026-11-01 09:14 user) \"x\""), "5b0e.jsonl");
    }
}
