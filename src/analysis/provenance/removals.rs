//! Removals need a source too: the dream prompt tells the model to leave alone what no
//! transcript mentions, so a note deleted or lines removed that no cited line speaks of are
//! `removal-unsourced` (a warning; an error for a whole note).
//!
//! A removed line is no removal when its content still stands in the result — moved,
//! merged or refined: its claims are stated by the result's text, or a result line holds
//! most (60%) of its content words. What is left is explained when an entry of its hunk
//! cites a line that mentions it: a claim of it, two of its content words, or, for a whole
//! note, a word of its name, title or description. Blank and structural lines (frontmatter
//! fences, index links — the audit's concern) and PERMANENT lines (`permanent-deleted`'s)
//! need nothing. A hunk that only removes and gets this flag has no `citation-missing` as
//! well: this is the more specific one.

use super::entries::Entries;
use super::evidence::CitedText;
use crate::analysis::claims;
use crate::analysis::findings::Findings;
use crate::analysis::flag::{Flag, FlagKind, Severity};
use crate::diff::{FileDiff, FileStatus, Op};
use crate::review::Review;
use crate::secrets::mask;
use std::collections::HashMap;
use std::sync::Arc;

/// The least share of a removed line's content words a result line must hold for the line
/// to count as moved there (or refined into it).
const MOVED: f32 = 0.6;

/// A stem held by more result lines than this says nothing about where a line went.
const COMMON: usize = 64;

/// The result's lines (every note as the dream proposes it), read for where a removed line
/// may have gone.
struct Result {
    /// The text of every proposed note.
    notes: Vec<String>,
    /// For each content stem, the result lines (numbered across notes) holding it.
    postings: HashMap<String, Vec<usize>>,
}

impl Result {
    fn of(review: &Review) -> Result {
        let notes: Vec<String> = review
            .files
            .iter()
            .filter_map(|f| f.proposed.as_ref().and_then(|e| e.bytes()).and_then(crate::text::as_text))
            .map(str::to_string)
            .collect();
        let mut postings: HashMap<String, Vec<usize>> = HashMap::new();
        for (n, line) in notes.iter().flat_map(|n| n.lines()).enumerate() {
            for w in claims::statement_of(line).content {
                postings.entry(w.stem).or_default().push(n);
            }
        }
        Result { notes, postings }
    }

    /// True when the content of `line` still stands in the result.
    fn holds(&self, line: &str) -> bool {
        let found = claims::extract(line);
        let values: Vec<&claims::Claim> = found.iter().filter(|c| c.kind != claims::ClaimKind::Link).collect();
        let statement = claims::statement_of(line);
        if statement.content.is_empty() {
            return !values.is_empty() && values.iter().all(|c| self.notes.iter().any(|n| claims::occurs_in(c, n)));
        }
        let mut shared: HashMap<usize, usize> = HashMap::new();
        for w in &statement.content {
            if let Some(p) = self.postings.get(&w.stem).filter(|p| p.len() <= COMMON) {
                for &l in p {
                    *shared.entry(l).or_default() += 1;
                }
            }
        }
        let best = shared.values().copied().max().unwrap_or(0);
        best as f32 / statement.content.len() as f32 >= MOVED
    }
}

/// Flags every unsourced removal of `review`.
pub(super) fn check(review: &Review, entries: &Entries, findings: &mut Findings) {
    let mut result: Option<Result> = None;
    for (fi, f) in review.files.iter().enumerate() {
        if !f.kind.writable() || f.status == FileStatus::Added {
            continue;
        }
        let live = f.live.as_ref().and_then(|e| e.bytes()).and_then(crate::text::as_text).unwrap_or("");
        if f.status == FileStatus::Deleted && crate::analysis::audit::is_permanent_note(live) {
            continue;
        }
        for (hi, h) in f.hunks.iter().enumerate() {
            let removed: Vec<&str> = h
                .lines
                .iter()
                .filter(|l| l.op == Op::Remove)
                .map(|l| crate::text::strip_terminator(&l.text))
                .filter(|l| needs_source(l))
                .collect();
            if removed.is_empty() {
                continue;
            }
            let result = result.get_or_insert_with(|| Result::of(review));
            let lost: Vec<&str> = removed.iter().copied().filter(|l| !result.holds(l)).collect();
            if lost.is_empty() {
                continue;
            }
            let cited = cited_texts(findings.changes(fi, hi), entries);
            let deleted = f.status == FileStatus::Deleted;
            let explained = if deleted {
                cited.iter().any(|t| mentions_note(f, live, &t.text))
            } else {
                lost.iter().all(|l| cited.iter().any(|t| mentions_line(l, &t.text)))
            };
            if explained {
                continue;
            }
            let flag = removal_flag(f, &lost, findings.changes(fi, hi), entries);
            findings.add_hunk_flag(fi, hi, flag);
            if h.added().next().is_none()
                && let Some(found) = findings.of_mut(fi, hi)
            {
                found.flags.retain(|x| x.kind != FlagKind::CitationMissing);
            }
        }
    }
}

/// True when a removed line is content that needs a source: not blank, not a frontmatter
/// fence or key, not a link to a note (an index line: the audit's concern), not PERMANENT.
fn needs_source(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() || t == "---" || crate::analysis::audit::is_permanent_line(t) {
        return false;
    }
    let links_a_note = t.contains(".md)") || t.contains("[[") || t.contains(".md`");
    let says = claims::statement_of(t).content.len() >= 2 || !claims::extract(t).is_empty();
    !links_a_note && says
}

/// The cited messages of entries `changes` (1-based).
fn cited_texts<'a>(changes: &[usize], entries: &'a Entries) -> Vec<&'a Arc<CitedText>> {
    changes
        .iter()
        .filter_map(|&n| n.checked_sub(1).and_then(|i| entries.cited.get(i)))
        .flatten()
        .flat_map(|c| c.texts.iter())
        .collect()
}

/// True when `text` speaks of the removed line: states one of its claims, or holds two of
/// its content words (one when it has only one).
fn mentions_line(line: &str, text: &str) -> bool {
    let states_a_claim =
        claims::extract(line).iter().any(|c| c.kind != claims::ClaimKind::Link && claims::occurs_in(c, text));
    if states_a_claim {
        return true;
    }
    let own = claims::statement_of(line);
    let theirs = claims::statement_of(text);
    own.shared(&theirs) >= own.content.len().clamp(1, 2)
}

/// Words of a note's name that say nothing of which note it is.
const GENERIC: &[&str] = &["note", "memori", "project", "feedback", "user", "refer", "md", "index", "general", "misc"];

/// True when `text` speaks of the deleted note `f` (live text `live`): a word of its file
/// name, its frontmatter name or description, or its first heading; or one of its claims.
fn mentions_note(f: &FileDiff, live: &str, text: &str) -> bool {
    let stem = f.path.rsplit('/').next().unwrap_or(&f.path).trim_end_matches(".md").replace(['_', '-'], " ");
    let heading = live.lines().find(|l| l.starts_with('#')).unwrap_or("");
    let meta: String = live
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with("name:") || l.starts_with("description:")
        })
        .collect::<Vec<_>>()
        .join(" ");
    let names = format!("{stem} {heading} {meta}");
    let words: Vec<String> = claims::statement_of(&names)
        .content
        .into_iter()
        .map(|w| w.stem)
        .filter(|w| w.chars().count() >= 4 && !GENERIC.contains(&w.as_str()))
        .collect();
    let theirs = claims::statement_of(text);
    if words.iter().any(|w| theirs.content.iter().any(|t| &t.stem == w)) {
        return true;
    }
    live.lines().filter(|l| needs_source(l)).any(|l| {
        claims::extract(l).iter().any(|c| {
            matches!(
                c.kind,
                claims::ClaimKind::Code | claims::ClaimKind::Path | claims::ClaimKind::Name | claims::ClaimKind::Url
            ) && claims::occurs_in(c, text)
        })
    })
}

/// The `removal-unsourced` flag of a hunk whose `lost` lines no cited line mentions.
fn removal_flag(f: &FileDiff, lost: &[&str], changes: &[usize], entries: &Entries) -> Flag {
    let first = mask(lost[0].trim()).into_owned();
    let why = match changes.first() {
        None => "no CHANGES.md entry explains it".to_string(),
        Some(&n) => {
            let label = entries.reports.get(n - 1).map_or_else(|| format!("CHANGES.md #{n}"), |r| r.label());
            let cites: Vec<String> = changes
                .iter()
                .filter_map(|&k| entries.reports.get(k - 1))
                .flat_map(|r| r.citations.iter().filter(|c| c.resolved))
                .map(|c| match c.line {
                    Some(l) => format!("{}:{l}", c.source),
                    None => c.source.clone(),
                })
                .collect();
            if cites.is_empty() {
                format!("{label} cites no transcript line")
            } else {
                format!("{label} cites {}, which says nothing of it", cites.join(", "))
            }
        }
    };
    let flag = if f.status == FileStatus::Deleted {
        Flag::new(
            FlagKind::RemovalUnsourced,
            format!("deletes {}, which no transcript line cited for it mentions: {why}; a dream leaves notes no session speaks of as they are", f.path),
        )
        .with_severity(Severity::Error)
    } else {
        let more = match lost.len() {
            1 => String::new(),
            n => format!(" and {} more line{}", n - 1, if n == 2 { "" } else { "s" }),
        };
        Flag::new(
            FlagKind::RemovalUnsourced,
            format!(
                "removes «{}»{more} from {}, and no cited line mentions it: {why}",
                crate::text::one_line_cut(&first, 120),
                f.path
            ),
        )
    };
    flag.with_claim(crate::text::one_line_cut(&first, 120)).with_line(first)
}
