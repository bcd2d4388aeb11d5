//! Which hunks a CHANGES.md entry explains: the notes it names, narrowed by how much of its
//! text the hunk's lines share (design.md §4.1). A hunk may have several entries, an entry
//! several hunks.

use crate::changes::{Entry, reference_spans};
use crate::diff::{FileDiff, Hunk};
use std::collections::HashSet;

/// Lower-cased words of at least three letters (or any CJK character) in `text`,
/// outside the byte ranges in `skip`.
fn words(text: &str, skip: &[std::ops::Range<usize>]) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut HashSet<String>| {
        if cur.chars().count() >= 3 {
            out.insert(cur.to_lowercase());
        }
        cur.clear();
    };
    for (i, c) in text.char_indices() {
        if skip.iter().any(|r| r.contains(&i)) {
            flush(&mut cur, &mut out);
            continue;
        }
        if is_cjk(c) {
            flush(&mut cur, &mut out);
            out.insert(c.to_string());
        } else if c.is_alphanumeric() {
            cur.push(c);
        } else {
            flush(&mut cur, &mut out);
        }
    }
    flush(&mut cur, &mut out);
    out
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30ff | 0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xac00..=0xd7af | 0xf900..=0xfaff)
}

/// Words that say nothing about which hunk is meant.
const STOP: &[&str] = &[
    "the", "and", "for", "with", "from", "that", "this", "was", "were", "are", "not", "now", "has", "have", "added",
    "removed", "updated", "replaced", "recorded", "changed", "moved", "note", "notes", "memory", "line", "lines",
    "jsonl",
];

/// How many meaningful words (or CJK characters) an entry's text shares with one note
/// line: which of a hunk's entries speaks of that line.
pub(crate) fn line_overlap(entry_text: &str, line: &str) -> usize {
    let skip = reference_spans(entry_text);
    let lw = words(line, &[]);
    words(entry_text, &skip).iter().filter(|w| !STOP.contains(&w.as_str()) && lw.contains(*w)).count()
}

fn hunk_words(h: &Hunk) -> HashSet<String> {
    let text: String = h.lines.iter().filter(|l| l.op != crate::diff::Op::Context).map(|l| l.text.as_str()).collect();
    words(&text, &[])
}

/// How strongly a hunk matches an entry: each of the entry's claims (a version, a number,
/// a name…) its changed lines state counts [`CLAIM_WEIGHT`], each shared meaningful word 1.
fn overlap(entry_words: &HashSet<String>, entry_claims: &[crate::claims::Claim], h: &Hunk) -> usize {
    let hw = hunk_words(h);
    let words = entry_words.iter().filter(|w| !STOP.contains(&w.as_str()) && hw.contains(*w)).count();
    let changed: String =
        h.lines.iter().filter(|l| l.op != crate::diff::Op::Context).map(|l| l.text.as_str()).collect();
    let claims = entry_claims.iter().filter(|c| crate::claims::occurs_in(c, &changed)).count();
    words + CLAIM_WEIGHT * claims
}

/// A claim shared with a hunk says more about which hunk is meant than a shared word.
const CLAIM_WEIGHT: usize = 4;

/// True when the entry names this file (`testing.md`, `memory/testing.md`, a sub-path).
fn names(entry: &Entry, path: &str) -> bool {
    entry.notes.iter().any(|n| n == path || path.ends_with(&format!("/{n}")) || n.ends_with(&format!("/{path}")))
}

/// The (file, hunk) pairs `entry` explains. In each note it names, the hunks sharing the
/// most words with it (at least half that note's best score), or all of the note's hunks
/// when none shares a word: an entry naming two notes ("moved X from a.md to b.md")
/// explains a change in each, however much better one of them matches its text. An entry
/// that names no note goes to the hunks sharing at least two words with it, best first.
pub fn hunks_of(entry: &Entry, files: &[FileDiff]) -> Vec<(usize, usize)> {
    let skip = reference_spans(&entry.text);
    let ew = words(&entry.text, &skip);
    let claims: Vec<crate::claims::Claim> = crate::claims::extract(&entry.text)
        .into_iter()
        .filter(|c| {
            c.kind != crate::claims::ClaimKind::Link && !skip.iter().any(|r| r.start < c.end && c.start < r.end)
        })
        .collect();
    let score = |fi: usize, hi: usize| ((fi, hi), overlap(&ew, &claims, &files[fi].hunks[hi]));
    let named: Vec<usize> = (0..files.len()).filter(|&fi| names(entry, &files[fi].path)).collect();
    if named.is_empty() {
        let scored: Vec<((usize, usize), usize)> =
            files.iter().enumerate().flat_map(|(fi, f)| (0..f.hunks.len()).map(move |hi| score(fi, hi))).collect();
        let best = scored.iter().map(|(_, s)| *s).max().unwrap_or(0);
        if best < 2 {
            return Vec::new();
        }
        return scored.into_iter().filter(|(_, s)| *s * 2 >= best && *s >= 2).map(|(k, _)| k).collect();
    }
    let mut out = Vec::new();
    for fi in named {
        let scored: Vec<((usize, usize), usize)> = (0..files[fi].hunks.len()).map(|hi| score(fi, hi)).collect();
        let best = scored.iter().map(|(_, s)| *s).max().unwrap_or(0);
        out.extend(scored.into_iter().filter(|(_, s)| best == 0 || (*s * 2 >= best && *s > 0)).map(|(k, _)| k));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::Entry as E;

    fn file(path: &str, old: &str, new: &str) -> FileDiff {
        let (o, n) = (E::File(old.into()), E::File(new.into()));
        crate::diff::diff_file(path, Some(&o), Some(&o), Some(&n)).unwrap()
    }

    #[test]
    fn picks_the_hunk_the_entry_talks_about() {
        let old: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let new = old
            .replace("line 3\n", "Deploys use Buildkite now\n")
            .replace("line 25\n", "Tests need Redis on port 6379\n");
        let files = vec![file("ci.md", &old, &new)];
        assert_eq!(files[0].hunks.len(), 2);
        let e = &crate::changes::parse("- memory/ci.md: deploys moved to Buildkite (s.jsonl:1)\n")[0];
        assert_eq!(hunks_of(e, &files), vec![(0, 0)]);
        let e = &crate::changes::parse("- ci.md: tidied up (s.jsonl:1)\n")[0];
        assert_eq!(hunks_of(e, &files), vec![(0, 0), (0, 1)]);
        let e = &crate::changes::parse("- tests now need Redis on port 6379 (s.jsonl:2)\n")[0];
        assert_eq!(hunks_of(e, &files), vec![(0, 1)]);
        let e = &crate::changes::parse("- something unrelated entirely (s.jsonl:2)\n")[0];
        assert!(hunks_of(e, &files).is_empty());
    }

    #[test]
    fn an_entry_naming_two_notes_explains_both() {
        let a = file("a.md", "Old fact about the build.\n", "");
        let b = file("b.md", "", "The suite has 65 tests and runs in CI.\n");
        let files = vec![a, b];
        // b.md shares a claim and words with the entry, a.md nothing: both are named.
        let e = &crate::changes::parse("- Renamed memory/a.md to memory/b.md and recorded 65 tests (s.jsonl:1)\n")[0];
        assert_eq!(hunks_of(e, &files), vec![(0, 0), (1, 0)]);
    }
}
