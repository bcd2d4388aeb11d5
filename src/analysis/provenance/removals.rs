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

use super::cited_text::CitedText;
use super::entries::Entries;
use crate::analysis::claims;
use crate::analysis::findings::Findings;
use crate::analysis::flag::{Flag, FlagKind, Severity};
use crate::base::fnv::Fnv;
use crate::base::secrets::mask;
use crate::model::diff::{FileDiff, FileStatus, Op};
use crate::model::ids::{EntryId, HunkId};
use crate::model::review::Review;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The least share of a removed line's content words a result line must hold for the line
/// to count as moved there (or refined into it).
const MOVED: f32 = 0.6;

/// A stem held by more result lines than this says nothing about where a line went.
const COMMON: usize = 64;

/// The result's lines (every note as the dream proposes it), read for where a removed line
/// may have gone.
struct Result<'a> {
    /// The text of every proposed note.
    notes: Vec<&'a str>,
    /// For each content stem asked about, the result lines (numbered across notes) holding it.
    postings: HashMap<&'a str, Vec<usize>>,
}

/// A removed line that needs a source, with the stems of its content words.
struct Removed<'a> {
    text: &'a str,
    stems: Vec<String>,
}

impl<'a> Result<'a> {
    /// The result of `review`, its postings kept for the stems in `wanted`.
    fn of(review: &'a Review, wanted: &HashSet<&'a str>) -> Result<'a> {
        let notes: Vec<&str> = review
            .files
            .iter()
            .filter_map(|f| f.proposed.as_ref().and_then(|e| e.bytes()).and_then(crate::base::text::as_text))
            .collect();
        let lines: Vec<&str> = notes.iter().flat_map(|n| n.lines()).collect();
        let postings = postings(&lines, wanted);
        Result { notes, postings }
    }

    /// True when the content of a removed line still stands in the result.
    fn holds(&self, removed: &Removed) -> bool {
        if removed.stems.is_empty() {
            let found = claims::extract(removed.text);
            let values: Vec<&claims::Claim> = found.iter().filter(|c| c.kind != claims::ClaimKind::Link).collect();
            return !values.is_empty() && values.iter().all(|c| self.notes.iter().any(|n| claims::occurs_in(c, n)));
        }
        let mut shared: HashMap<usize, usize> = HashMap::new();
        for stem in &removed.stems {
            if let Some(p) = self.postings.get(stem.as_str()).filter(|p| p.len() <= COMMON) {
                for &l in p {
                    *shared.entry(l).or_default() += 1;
                }
            }
        }
        let best = shared.values().copied().max().unwrap_or(0);
        best as f32 / removed.stems.len() as f32 >= MOVED
    }
}

/// Flags every unsourced removal of `review`. Each hunk is judged on its own, on both
/// cores; the flags are then added in review order.
pub(super) fn check(review: &Review, entries: &Entries, findings: &mut Findings) {
    let hunks = removing_hunks(review);
    if hunks.is_empty() {
        return;
    }
    let wanted: HashSet<&str> =
        hunks.iter().flat_map(|(.., removed)| removed).flat_map(|r| &r.stems).map(String::as_str).collect();
    let result = Result::of(review, &wanted);
    let judged: Vec<Option<Flag>> =
        hunks.par_iter().map(|(id, removed)| judge_hunk(review, *id, removed, (&result, entries, findings))).collect();
    for ((id, _), flag) in hunks.iter().zip(judged) {
        let Some(flag) = flag else { continue };
        findings.add_hunk_flag(*id, flag);
        if review.hunk(*id).is_some_and(|h| h.added().next().is_none())
            && let Some(found) = findings.of_mut(*id)
        {
            found.flags.retain(|x| x.kind != FlagKind::CitationMissing);
        }
    }
}

/// Every hunk of a note the review may write (not one it adds, nor a PERMANENT note it
/// deletes) that removes lines needing a source, with those lines, in review order.
fn removing_hunks(review: &Review) -> Vec<(HunkId, Vec<Removed<'_>>)> {
    let mut out = Vec::new();
    for (fi, f) in review.files.iter().enumerate() {
        if !f.kind.writable() || f.status == FileStatus::Added {
            continue;
        }
        if f.status == FileStatus::Deleted && crate::analysis::audit::is_permanent_note(live_text(f)) {
            continue;
        }
        let removed: Vec<Vec<Removed>> = f.hunks.par_iter().map(removed_needing_source).collect();
        out.extend(review.hunks_of(fi).zip(removed).filter(|(_, r)| !r.is_empty()));
    }
    out
}

/// The live text of a changed note ("" when it has none or it is no text).
fn live_text(f: &FileDiff) -> &str {
    f.live.as_ref().and_then(|e| e.bytes()).and_then(crate::base::text::as_text).unwrap_or("")
}

/// The lines hunk `h` removes that need a source.
fn removed_needing_source(h: &crate::model::diff::Hunk) -> Vec<Removed<'_>> {
    h.lines
        .iter()
        .filter(|l| l.op == Op::Remove)
        .map(|l| crate::base::text::strip_terminator(&l.text))
        .filter(|l| needs_source(l))
        .map(|text| Removed { text, stems: claims::content_stems(text) })
        .collect()
}

/// The `removal-unsourced` flag hunk `id` gets for its `removed` lines, if any: none
/// when their content still stands in the `result`, or a line its entries cite mentions
/// them.
fn judge_hunk(
    review: &Review,
    id: HunkId,
    removed: &[Removed],
    (result, entries, findings): (&Result, &Entries, &Findings),
) -> Option<Flag> {
    let f = &review.files[id.file];
    let keys: HashSet<&str> =
        f.hunks[id.hunk].added().filter_map(|l| field_key(crate::base::text::strip_terminator(&l.text))).collect();
    let replaced = |r: &Removed| field_key(r.text).is_some_and(|k| keys.contains(k));
    let lost: Vec<&str> = removed.iter().filter(|r| !result.holds(r) && !replaced(r)).map(|r| r.text).collect();
    if lost.is_empty() {
        return None;
    }
    let cited = cited_texts(findings.changes(id), entries);
    let explained = if f.status == FileStatus::Deleted {
        let live = live_text(f);
        cited.iter().any(|t| mentions_note(f, live, &t.text))
    } else {
        lost.iter().all(|l| cited.iter().any(|t| mentions_line(l, &t.text)))
    };
    (!explained).then(|| removal_flag(f, &lost, findings.changes(id), entries))
}

/// The key of a `Key: value` line (`Status` in `- **Status:** draft`, `배포` in `배포: 미정`):
/// the words before its first colon, list marker and emphasis aside, when they are a short
/// label (at most four words, no URL or path). A removed field whose key an added line of
/// the hunk keeps was given a new value, not removed: the added line is what needs a source.
fn field_key(line: &str) -> Option<&str> {
    let t = line.trim_start().trim_start_matches(['-', '*', '+', '>', ' ']);
    let (key, rest) = t.split_once([':', '：'])?;
    let key = key.trim_matches(['*', '_', '`', ' ']);
    let short = !key.is_empty() && key.chars().count() <= 40 && key.split_whitespace().count() <= 4;
    let plain = !key.contains(['/', '\\', '.', '(', '[']) && !rest.starts_with("//");
    (short && plain && key.chars().any(char::is_alphanumeric)).then_some(key)
}

/// For each stem of `wanted`, the lines (by index) of `lines` whose content holds it, in
/// order: the lines read on both cores, a block at a time, and the blocks' postings put
/// end to end.
fn postings<'w>(lines: &[&str], wanted: &HashSet<&'w str>) -> HashMap<&'w str, Vec<usize>> {
    const BLOCK: usize = 4096;
    // Looked up once per word of the result: a faster hash than `wanted`'s.
    let wanted: HashSet<&'w str, Fnv> = wanted.iter().copied().collect();
    let blocks: Vec<HashMap<&str, Vec<usize>, Fnv>> = lines
        .par_chunks(BLOCK)
        .enumerate()
        .map(|(b, chunk)| {
            let mut postings: HashMap<&str, Vec<usize>, Fnv> = HashMap::default();
            for (k, line) in chunk.iter().enumerate() {
                let n = b * BLOCK + k;
                claims::each_content_stem(line, |stem| {
                    if let Some(&stem) = wanted.get(stem) {
                        let lines = postings.entry(stem).or_default();
                        // A line holds a stem once, however many of its words have it.
                        if lines.last() != Some(&n) {
                            lines.push(n);
                        }
                    }
                });
            }
            postings
        })
        .collect();
    let mut all: HashMap<&str, Vec<usize>> = HashMap::new();
    for block in blocks {
        for (stem, lines) in block {
            all.entry(stem).or_default().extend(lines);
        }
    }
    all
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
fn cited_texts<'a>(changes: &[EntryId], entries: &'a Entries) -> Vec<&'a Arc<CitedText>> {
    super::citations::distinct(
        changes.iter().filter_map(|&n| entries.cited.get(n.index())).flatten().flat_map(|c| c.texts.iter()),
    )
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
fn removal_flag(f: &FileDiff, lost: &[&str], changes: &[EntryId], entries: &Entries) -> Flag {
    let first = mask(lost[0].trim()).into_owned();
    let why = match changes.first() {
        None => "no CHANGES.md entry explains it".to_string(),
        Some(&n) => {
            let label = entries.reports.get(n.index()).map_or_else(|| format!("CHANGES.md #{n}"), |r| r.label());
            let cites: Vec<String> = changes
                .iter()
                .filter_map(|&k| entries.reports.get(k.index()))
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
                crate::base::text::one_line_cut(&first, 120),
                f.path
            ),
        )
    };
    flag.with_claim(crate::base::text::one_line_cut(&first, 120)).with_line(first)
}

#[cfg(test)]
mod tests {
    use super::field_key;

    #[test]
    fn a_field_key_is_a_short_label_before_a_colon() {
        assert_eq!(field_key("- **Status:** draft"), Some("Status"));
        assert_eq!(field_key("배포: 아직 미정."), Some("배포"));
        assert_eq!(field_key("デプロイ：未定"), Some("デプロイ"));
        assert_eq!(field_key("Deploy target: staging"), Some("Deploy target"));
        assert_eq!(field_key("See https://example.com/x for more"), None);
        assert_eq!(field_key("the build broke because the cache in CI was stale: fixed"), None);
        assert_eq!(field_key("src/main.rs: entry point"), None);
        assert_eq!(field_key("no colon here"), None);
    }
}
