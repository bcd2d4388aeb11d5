//! Which hunks a CHANGES.md entry explains: the notes it names, narrowed by how much of its
//! text the hunk's lines share. A hunk may have several entries, an entry
//! several hunks.

use crate::inputs::changes::{ChangeEntry, reference_spans};
use crate::model::diff::{FileDiff, Hunk};
use crate::model::ids::{HunkId, PerHunk};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};

/// Lower-cased words of at least three letters (or any CJK character) in `text`,
/// outside the byte ranges in `skip`.
fn words(text: &str, skip: &[std::ops::Range<usize>]) -> HashSet<String> {
    let skip = crate::base::ranges::Ranges::new(skip.to_vec());
    let mut out = HashSet::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut HashSet<String>| {
        if cur.chars().count() >= 3 {
            out.insert(cur.to_lowercase());
        }
        cur.clear();
    };
    for (i, c) in text.char_indices() {
        if skip.contains(i) {
            flush(&mut cur, &mut out);
            continue;
        }
        if crate::base::text::is_cjk(c) {
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

/// Words that say nothing about which hunk is meant.
const STOP: &[&str] = &[
    "the", "and", "for", "with", "from", "that", "this", "was", "were", "are", "not", "now", "has", "have", "added",
    "removed", "updated", "replaced", "recorded", "changed", "moved", "note", "notes", "memory", "line", "lines",
    "jsonl",
];

/// How many meaningful words (or CJK characters) an entry's text shares with one note
/// line: which of a hunk's entries speaks of that line.
pub(crate) fn line_overlap(entry_text: &str, line: &str) -> usize {
    EntryWords::new(entry_text, &reference_spans(entry_text)).overlap(line)
}

/// An entry's meaningful words (outside its references), found once for the many lines an
/// entry linked to many hunks is compared with ([`line_overlap`] finds them again each
/// time: an entry's references are parsed, per claim of every hunk it is linked to).
pub(crate) struct EntryWords(HashSet<String>);

impl EntryWords {
    /// The words of `entry_text` outside its references `skip` ([`reference_spans`]).
    pub(crate) fn new(entry_text: &str, skip: &[std::ops::Range<usize>]) -> EntryWords {
        EntryWords(words(entry_text, skip).into_iter().filter(|w| !STOP.contains(&w.as_str())).collect())
    }

    /// [`line_overlap`] of the entry and `line`.
    pub(crate) fn overlap(&self, line: &str) -> usize {
        let lw = words(line, &[]);
        self.0.iter().filter(|w| lw.contains(*w)).count()
    }
}

/// The changed lines of a hunk (context left out), as one text.
fn changed_text(h: &Hunk) -> String {
    h.lines.iter().filter(|l| l.op != crate::model::diff::Op::Context).map(|l| l.text.as_str()).collect()
}

/// A shared claim says more about which hunk is meant than a shared word.
const CLAIM_WEIGHT: usize = 4;

/// A word or claim found in more hunks than this (of the candidates) picks none of them
/// out, and is not followed: it keeps mapping near-linear in entries and hunks.
const COMMON: usize = 64;

/// True when the entry names this file (`testing.md`, `memory/testing.md`, a sub-path).
fn names(entry: &ChangeEntry, path: &str) -> bool {
    entry.notes.iter().any(|n| n == path || path.ends_with(&format!("/{n}")) || n.ends_with(&format!("/{path}")))
}

/// The changed words and claim needles of every hunk, indexed for [`Index::hunks_of`].
pub struct Index<'a> {
    files: &'a [FileDiff],
    /// Each hunk's changed text.
    changed: PerHunk<String>,
    /// (file, word) → hunks of that file whose changed lines have the word.
    by_file: HashMap<(usize, String), Vec<HunkId>>,
    /// word → every hunk whose changed lines have it.
    global: HashMap<String, Vec<HunkId>>,
    /// Claim needle → every hunk whose changed text contains it.
    needle_hunks: HashMap<String, Vec<HunkId>>,
    /// Every `/`-suffix of every file path (`a/b.md` → `a/b.md`, `b.md`) → files.
    suffixes: HashMap<String, Vec<usize>>,
    total: usize,
    /// The terms of each entry the index was built for, in order: found once (an entry
    /// of 160,000 citations is parsed for its references once, not per use).
    terms: Vec<Terms>,
}

/// An entry's meaningful words and claims.
struct Terms {
    words: HashSet<String>,
    claims: Vec<crate::analysis::claims::Claim>,
}

/// The [`Terms`] of an entry whose references are `spans` ([`reference_spans`]).
fn entry_terms(entry: &ChangeEntry, spans: &[std::ops::Range<usize>]) -> Terms {
    let words = words(&entry.text, spans);
    let skip = crate::base::ranges::Ranges::new(spans.to_vec());
    let text = crate::base::ranges::blanked(&entry.text, &skip);
    let words = words
        .into_iter()
        .filter(|w| !STOP.contains(&w.as_str()) && !crate::analysis::claims::closed_class(w))
        .collect();
    let claims = crate::analysis::claims::extract(&text)
        .into_iter()
        .filter(|c| c.kind != crate::analysis::claims::ClaimKind::Link && !skip.overlaps(&(c.start..c.end)))
        .collect();
    Terms { words, claims }
}

impl<'a> Index<'a> {
    /// Indexes the hunks of `files` for the claims of `entries` (one pass over each hunk's
    /// text for all the entries' claim needles).
    pub fn new(files: &'a [FileDiff], entries: &[ChangeEntry]) -> Index<'a> {
        let references: Vec<_> = entries.iter().map(|e| reference_spans(&e.text)).collect();
        Index::with_references(files, entries, &references)
    }

    /// [`Index::new`] with each entry's [`reference_spans`] already found.
    pub fn with_references(
        files: &'a [FileDiff],
        entries: &[ChangeEntry],
        references: &[Vec<std::ops::Range<usize>>],
    ) -> Index<'a> {
        let terms: Vec<Terms> = entries.iter().zip(references).map(|(e, spans)| entry_terms(e, spans)).collect();
        let mut by_file: HashMap<(usize, String), Vec<HunkId>> = HashMap::new();
        let mut global: HashMap<String, Vec<HunkId>> = HashMap::new();
        let mut suffixes: HashMap<String, Vec<usize>> = HashMap::new();
        let changed: PerHunk<String> = PerHunk::build(files, |_, h| changed_text(h));
        let total = changed.values().count();
        // Each hunk's words (and below, its needles) read on both cores, indexed in order.
        let hunks: Vec<(HunkId, &String)> = changed.iter().collect();
        let read: Vec<HashSet<String>> = hunks.par_iter().map(|(_, text)| words(text, &[])).collect();
        for (&(id, _), said) in hunks.iter().zip(read) {
            for w in said {
                by_file.entry((id.file, w.clone())).or_default().push(id);
                global.entry(w).or_default().push(id);
            }
        }
        for (fi, f) in files.iter().enumerate() {
            let mut rest = f.path.as_str();
            loop {
                suffixes.entry(rest.to_string()).or_default().push(fi);
                match rest.split_once('/') {
                    Some((_, r)) => rest = r,
                    None => break,
                }
            }
        }
        let mut needles: Vec<String> = terms
            .iter()
            .flat_map(|t| &t.claims)
            .flat_map(crate::analysis::claims::needles)
            .filter(|n| !n.is_empty())
            .collect();
        needles.sort_unstable();
        needles.dedup();
        let mut needle_hunks: HashMap<String, Vec<HunkId>> = HashMap::new();
        if let Ok(ac) = aho_corasick::AhoCorasick::new(&needles) {
            // Per hunk, the needles it holds, each once, in the order first found.
            let held: Vec<Vec<usize>> = hunks
                .par_iter()
                .map(|(_, text)| {
                    let lower = text.to_lowercase();
                    let mut seen = HashSet::new();
                    let found = ac.find_overlapping_iter(lower.as_str()).map(|m| m.pattern().as_usize());
                    found.filter(|&p| seen.insert(p)).collect()
                })
                .collect();
            for (&(id, _), patterns) in hunks.iter().zip(held) {
                for n in patterns.into_iter().filter_map(|p| needles.get(p)) {
                    needle_hunks.entry(n.clone()).or_default().push(id);
                }
            }
        }
        Index { files, changed, by_file, global, needle_hunks, suffixes, total, terms }
    }

    /// The files `entry` names: by path, or by a `/`-suffix of either path.
    fn named(&self, entry: &ChangeEntry) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for n in &entry.notes {
            let mut rest = n.as_str();
            loop {
                for &fi in self.suffixes.get(rest).into_iter().flatten() {
                    let path = &self.files[fi].path;
                    if rest == n || path == rest {
                        out.push(fi);
                    }
                }
                match rest.split_once('/') {
                    Some((_, r)) => rest = r,
                    None => break,
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out.retain(|&fi| names(entry, &self.files[fi].path));
        out
    }

    /// The hunks `entry` explains: in each note it names, the hunks sharing
    /// the most of its words and claims (at least half that note's best score), counting
    /// only what picks hunks out: a word or claim every hunk of the note has says nothing
    /// about which one is meant ("tests" in a note of test rules), so a hunk that shares
    /// the entry's own words is its own, and the others are not. When nothing picks a hunk
    /// out, all of the note's hunks: an entry naming two notes ("moved X from a.md to
    /// b.md") explains a change in each. An entry that names no note goes to the hunks
    /// sharing at least two words with it (a claim counts as [`CLAIM_WEIGHT`]), best first.
    pub fn hunks_of(&self, entry: &ChangeEntry) -> Vec<HunkId> {
        self.hunks_with(entry, &entry_terms(entry, &reference_spans(&entry.text)))
    }

    /// [`Index::hunks_of`] the `i`-th entry the index was built for, `entry`, with the
    /// terms found when it was built.
    pub fn hunks_of_nth(&self, i: usize, entry: &ChangeEntry) -> Vec<HunkId> {
        match self.terms.get(i) {
            Some(terms) => self.hunks_with(entry, terms),
            None => self.hunks_of(entry),
        }
    }

    fn hunks_with(&self, entry: &ChangeEntry, terms: &Terms) -> Vec<HunkId> {
        let (words, claims) = (&terms.words, &terms.claims);
        let named = self.named(entry);
        if named.is_empty() {
            let mut score: HashMap<HunkId, usize> = HashMap::new();
            for w in words {
                let Some(hunks) = self.global.get(w) else { continue };
                if hunks.len() > COMMON || (hunks.len() == self.total && self.total > 1) {
                    continue;
                }
                for &k in hunks {
                    *score.entry(k).or_default() += 1;
                }
            }
            for (k, n) in self.claim_hits(claims, None) {
                *score.entry(k).or_default() += CLAIM_WEIGHT * n;
            }
            let best = score.values().copied().max().unwrap_or(0);
            if best < 2 {
                return Vec::new();
            }
            let mut out: Vec<HunkId> =
                score.into_iter().filter(|&(_, s)| s * 2 >= best && s >= 2).map(|(k, _)| k).collect();
            out.sort_unstable();
            return out;
        }
        let mut out = Vec::new();
        for fi in named {
            let n = self.files[fi].hunks.len();
            let mut score: HashMap<HunkId, usize> = HashMap::new();
            for w in words {
                let Some(hunks) = self.by_file.get(&(fi, w.clone())) else { continue };
                if hunks.len() > COMMON || (hunks.len() == n && n > 1) {
                    continue;
                }
                for &id in hunks {
                    *score.entry(id).or_default() += 1;
                }
            }
            for (id, c) in self.claim_hits(claims, Some(fi)) {
                *score.entry(id).or_default() += CLAIM_WEIGHT * c;
            }
            let best = score.values().copied().max().unwrap_or(0);
            if best == 0 {
                out.extend((0..n).map(|hi| HunkId::new(fi, hi)));
                continue;
            }
            let mut picked: Vec<HunkId> = score.into_iter().filter(|&(_, s)| s * 2 >= best).map(|(id, _)| id).collect();
            picked.sort_unstable();
            out.extend(picked);
        }
        out
    }

    /// How many of `claims` each hunk's changed lines state (only in file `only`, when
    /// given), leaving out claims found in every candidate hunk or more than [`COMMON`].
    fn claim_hits(&self, claims: &[crate::analysis::claims::Claim], only: Option<usize>) -> HashMap<HunkId, usize> {
        let mut hits: HashMap<HunkId, usize> = HashMap::new();
        let candidates = match only {
            Some(fi) => self.files[fi].hunks.len(),
            None => self.total,
        };
        for c in claims {
            let mut at: Vec<HunkId> = crate::analysis::claims::needles(c)
                .iter()
                .filter_map(|n| self.needle_hunks.get(n))
                .flatten()
                .copied()
                .filter(|id| only.is_none_or(|o| o == id.file))
                .collect();
            at.sort_unstable();
            at.dedup();
            if at.len() > COMMON {
                continue;
            }
            at.retain(|&id| self.changed.get(id).is_some_and(|t| crate::analysis::claims::occurs_in(c, t)));
            if at.len() == candidates && candidates > 1 {
                continue;
            }
            for k in at {
                *hits.entry(k).or_default() += 1;
            }
        }
        hits
    }
}

/// The hunks `entry` explains (see [`Index::hunks_of`]); for many entries, build the
/// [`Index`] once.
pub fn hunks_of(entry: &ChangeEntry, files: &[FileDiff]) -> Vec<HunkId> {
    Index::new(files, std::slice::from_ref(entry)).hunks_of(entry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::snapshot::Entry as E;

    fn file(path: &str, old: &str, new: &str) -> FileDiff {
        let (o, n) = (E::File(old.into()), E::File(new.into()));
        crate::model::diff::diff_file(path, Some(&o), Some(&o), Some(&n)).unwrap()
    }

    #[test]
    fn picks_the_hunk_the_entry_talks_about() {
        let old: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let new = old
            .replace("line 3\n", "Deploys use Buildkite now\n")
            .replace("line 25\n", "Tests need Redis on port 6379\n");
        let files = vec![file("ci.md", &old, &new)];
        assert_eq!(files[0].hunks.len(), 2);
        let e = &crate::inputs::changes::parse("- memory/ci.md: deploys moved to Buildkite (s.jsonl:1)\n")[0];
        assert_eq!(hunks_of(e, &files), vec![HunkId::new(0, 0)]);
        let e = &crate::inputs::changes::parse("- ci.md: tidied up (s.jsonl:1)\n")[0];
        assert_eq!(hunks_of(e, &files), vec![HunkId::new(0, 0), HunkId::new(0, 1)]);
        let e = &crate::inputs::changes::parse("- tests now need Redis on port 6379 (s.jsonl:2)\n")[0];
        assert_eq!(hunks_of(e, &files), vec![HunkId::new(0, 1)]);
        let e = &crate::inputs::changes::parse("- something unrelated entirely (s.jsonl:2)\n")[0];
        assert!(hunks_of(e, &files).is_empty());
    }

    #[test]
    fn an_entry_naming_two_notes_explains_both() {
        let a = file("a.md", "Old fact about the build.\n", "");
        let b = file("b.md", "", "The suite has 65 tests and runs in CI.\n");
        let files = vec![a, b];
        // b.md shares a claim and words with the entry, a.md nothing: both are named.
        let e =
            &crate::inputs::changes::parse("- Renamed memory/a.md to memory/b.md and recorded 65 tests (s.jsonl:1)\n")
                [0];
        assert_eq!(hunks_of(e, &files), vec![HunkId::new(0, 0), HunkId::new(1, 0)]);
    }

    #[test]
    fn a_hunk_that_shares_the_entry_s_own_words_is_its_own() {
        // Every hunk of a testing note says "tests": only the one with Vitest is the entry's.
        let old: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let new = old.replace("line 3\n", "Tests run with Vitest\n").replace("line 25\n", "Tests need Redis\n");
        let files = vec![file("testing.md", &old, &new)];
        let e = &crate::inputs::changes::parse("- testing.md: vitest for tests (s.jsonl:1)\n")[0];
        assert_eq!(hunks_of(e, &files), vec![HunkId::new(0, 0)]);
        let e = &crate::inputs::changes::parse("- testing.md: the tests need redis (s.jsonl:1)\n")[0];
        assert_eq!(hunks_of(e, &files), vec![HunkId::new(0, 1)]);
        // Nothing but the shared word: every hunk, as before.
        let e = &crate::inputs::changes::parse("- testing.md: tests (s.jsonl:1)\n")[0];
        assert_eq!(hunks_of(e, &files), vec![HunkId::new(0, 0), HunkId::new(0, 1)]);
    }

    #[test]
    fn many_entries_and_hunks_map_in_near_linear_time() {
        // 3,000 hunks in one note, 3,000 entries each naming it and one hunk's own words.
        let old: String = (0..30_000).map(|i| format!("line {i}\n")).collect();
        let new: String = (0..30_000)
            .map(|i| match i % 10 {
                0 => format!("Topic{} uses port {}\n", i / 10, 50_000 + i / 10),
                _ => format!("line {i}\n"),
            })
            .collect();
        let files = vec![file("big.md", &old, &new)];
        assert_eq!(files[0].hunks.len(), 3000);
        let text: String =
            (0..3000).map(|k| format!("- big.md: topic{k} on port {} (s.jsonl:1)\n", 50_000 + k)).collect();
        let entries = crate::inputs::changes::parse(&text);
        let start = std::time::Instant::now();
        let index = Index::new(&files, &entries);
        for (k, e) in entries.iter().enumerate() {
            assert_eq!(index.hunks_of(e), vec![HunkId::new(0, k)]);
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(20), "took {:?}", start.elapsed());
    }
}
