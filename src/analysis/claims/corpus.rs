//! Many claims against a few long texts (the notes of live memory): whether each text
//! states each claim, with exactly the answer of [`super::occurs_in`] on the whole text, in
//! time linear in the texts and the claims instead of their product.
//!
//! `occurs_in(claim, note)` costs a pass over the whole note (lowercasing it, searching it
//! for the needles, then the exact test: finding every date, number or word in it). Asked
//! for every claim of a dream against every note, that is claims × note bytes: 2,500
//! changed lines of one 20,000-line note took 3.5 minutes, 50,000 of 400,000 would take
//! about a day (BENCHMARKS.md, "One big note"). Here:
//!
//! 1. **One automaton** (aho-corasick) over every string a registered claim is looked for
//!    by — its [`super::needles`], and for a version of a product the version itself — is
//!    run **once** over each text, lowercased line by line once. Each text keeps, per
//!    string, where it occurs. A number (or a port) is looked up instead in an **index of
//!    the whole numbers** each line writes (`quantity_stated` finds a number nowhere else),
//!    built in the same pass for the numbers the claims ask about.
//! 2. A claim none of whose needles occurs in a text is not stated there (the needle test
//!    of `occurs_in`, unchanged). Otherwise the exact test runs, still as `occurs_in`, but
//!    only on **candidate lines**: those writing its number, or holding its version (when
//!    that is rarer than its product's name), or else its needles. Every line stating the
//!    claim is among them, so the answer is the same; its cost is the size of those lines,
//!    not of the text. [`Corpus::prepare`] may name lines to test first (where a claim is
//!    likely said): they change how soon the answer comes, not the answer.
//! 3. Each (text, claim) answer, and each line's dates, are memoized.
//!
//! So the cost is one lowercasing and one automaton pass per text (linear), the automaton
//! build (linear in the strings), and per distinct claim its candidate lines. Both cores
//! share it: a text is lowercased, searched and its numbers indexed in 1 MiB pieces of
//! whole lines (no string holds a line break, so no match crosses a piece), and
//! [`Corpus::prepare`] answers a list of claims in parallel (the memos are behind locks).
//!
//! The answer is whether some **line** of the text states the claim ([`super::occurs_in`]
//! on that line): a note line says a fact or does not, and every condition `occurs_in`
//! checks is bound to the value's clause — a number's unit and label, a version's product
//! (see `binding`) — which never crosses a line break. Dates are found in the lines
//! holding a needle, each line's once for every date claim.
//!
//! A claim one of whose strings is empty or holds a line break (none does today) is tested
//! on every line of the text, as is a claim not given to [`Corpus::new`]. `tests` checks
//! the answers against `occurs_in` on each line of the texts.

use super::dates::{FoundDate, find_dates};
use super::endpoints::is_literal;
use super::matching::{Haystack, needles};
use super::numbers::{counted_in_any_script, unit_needle, whole_numbers, with_generic_counters};
use super::{Claim, ClaimKind, ClaimValue, DateSpec, Subject};
use aho_corasick::AhoCorasick;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

/// What a claim is looked up by: everything `occurs_in` reads of it.
type Key = (ClaimKind, String, ClaimValue, Option<Subject>);

/// Texts prepared for many claims (see the module documentation).
pub struct Corpus<'a> {
    texts: Vec<Text<'a>>,
    plans: HashMap<Key, Plan>,
    /// Answers already given: (text, plan) → stated.
    known: Mutex<HashMap<(usize, usize), bool>>,
}

/// How one distinct claim is checked: the strings it needs (indexes into the automaton's
/// patterns) and the shape of its test.
struct Plan {
    id: usize,
    needles: Vec<String>,
    needle_ids: Vec<usize>,
    /// Which lines the exact test runs on.
    lines: Candidates,
    shape: Shape,
}

/// The lines of a text that may state a claim, a superset of those that do.
enum Candidates {
    /// Those holding one of its needles.
    Needles,
    /// A number as `quantity_stated` reads it (not a literal such as `0x1F40`): the lines
    /// where it is written as a whole number (the index of [`Text::numbers`]) and, for a
    /// unit a line must spell (`214 tests`, not `port 8080`), that hold its word.
    Number {
        value: String,
        /// The lowercase start every word of the unit has ([`unit_needle`]), for a plain
        /// (ASCII) unit word: a line binds the unit to a number only by writing such a
        /// word after it or as its label (`carries_unit`).
        unit_word: Option<String>,
        /// The unit is a Latin word for counted things: a line writing the number with a
        /// generic CJK counter (`12개`) binds it too.
        counted: bool,
    },
    /// A version of a product, looked for by the product's name: the lines holding the
    /// version itself (where `version_stated` finds it, held by the product or free) when
    /// it occurs less often than the name.
    Version(usize),
}

enum Shape {
    /// Some line holding a needle states it.
    Lines,
    /// A date: some line holding a needle writes a date it contains (each line's dates
    /// found once for every date claim).
    Date(DateSpec),
    /// A string it needs is empty or holds a line break (never seen): every line is tested.
    Whole,
}

/// One text, lowercased line by line, with where each pattern occurs.
struct Text<'a> {
    text: &'a str,
    lower: String,
    /// Start of each line in `text` and in `lower` (a line ends after its `\n`).
    starts: Vec<(usize, usize)>,
    /// (pattern, offset in `lower`, line) of every occurrence, sorted.
    hits: Vec<(u32, u32, u32)>,
    /// For each number a claim asks about, the lines writing it as a whole number, in order.
    numbers: HashMap<String, Vec<u32>>,
    /// Line → the dates it writes.
    dates: Mutex<HashMap<usize, Arc<Vec<FoundDate>>>>,
}

impl<'a> Corpus<'a> {
    /// Prepares `texts` for `claims` (repeated claims are one).
    pub fn new<'c>(texts: Vec<&'a str>, claims: impl IntoIterator<Item = &'c Claim>) -> Corpus<'a> {
        let mut patterns = Patterns::default();
        let mut plans: HashMap<Key, Plan> = HashMap::new();
        // The distinct claims, in the order given, and their needles found on both cores;
        // the automaton's patterns numbered in that order.
        let claims: Vec<&Claim> = claims.into_iter().collect();
        let keys: Vec<Key> = claims.par_iter().map(|c| key_of(c)).collect();
        let mut seen: HashSet<&Key> = HashSet::new();
        let distinct: Vec<(&Key, &Claim)> = keys.iter().zip(claims).filter(|(k, _)| seen.insert(*k)).collect();
        let read: Vec<Vec<String>> = distinct.par_iter().map(|(_, c)| needles(c)).collect();
        for ((key, c), needles) in distinct.into_iter().zip(read) {
            let key = key.clone();
            let lines = candidates(c, &needles, &mut patterns);
            // A number's lines come from the index of numbers: its needles need no search.
            patterns.broken = false;
            let needle_ids = match lines {
                Candidates::Number { .. } => Vec::new(),
                // A needle no pattern can be made of is found nowhere: left out.
                _ => needles.iter().filter_map(|n| patterns.id(n)).collect(),
            };
            let shape = match &c.value {
                ClaimValue::Date(spec) => Shape::Date(*spec),
                _ => Shape::Lines,
            };
            let shape = if patterns.broken { Shape::Whole } else { shape };
            let id = plans.len();
            plans.insert(key, Plan { id, needles, needle_ids, lines, shape });
        }
        // No claim to look for (a dream whose added lines state none): nothing to prepare.
        let ac = AhoCorasick::new(&patterns.list).ok().filter(|_| !patterns.list.is_empty());
        let numbers: HashSet<&str> = plans
            .values()
            .filter_map(|p| match &p.lines {
                Candidates::Number { value, .. } => Some(value.as_str()),
                _ => None,
            })
            .collect();
        let texts = texts.into_par_iter().map(|t| Text::new(t, ac.as_ref(), &numbers)).collect();
        Corpus { texts, plans, known: Mutex::new(HashMap::new()) }
    }

    /// Answers `asks` on both cores, keeping the answers for [`Corpus::states`].
    pub fn prepare(&self, asks: &[Ask<'_>]) {
        asks.par_iter().for_each(|ask| {
            let _ = ask.texts.iter().enumerate().any(|(k, &t)| {
                let first = if k == 0 { ask.first_lines.as_slice() } else { &[] };
                self.states_trying(t, ask.claim, first)
            });
        });
    }

    /// How many texts there are (numbered in the order given).
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// True when there is no text.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// [`super::occurs_in`]`(claim, text)` for text number `t` (`false` past the last). A
    /// claim not given to [`Corpus::new`] is tested on the whole text.
    pub fn states(&self, t: usize, claim: &Claim) -> bool {
        self.states_trying(t, claim, &[])
    }

    /// [`Corpus::states`], testing lines `first` of the text before the others.
    fn states_trying(&self, t: usize, claim: &Claim, first: &[usize]) -> bool {
        let Some(text) = self.texts.get(t) else {
            return false;
        };
        let Some(plan) = self.plans.get(&key_of(claim)) else {
            return Haystack::new(text.text).states(claim);
        };
        if let Some(&known) = lock(&self.known).get(&(t, plan.id)) {
            return known;
        }
        let said = text.states(plan, claim, first);
        lock(&self.known).insert((t, plan.id), said);
        said
    }
}

/// A claim for [`Corpus::prepare`] to answer: the texts to try in order until one states
/// it, and lines of the first text to test before any other — where it is likely said (the
/// old version of the line a claim was rewritten from). The answer is the same whatever
/// lines come first; only the time to find it differs.
pub struct Ask<'c> {
    pub claim: &'c Claim,
    pub texts: Vec<usize>,
    pub first_lines: Vec<usize>,
}

/// The memo behind `m` (a panic elsewhere leaves it usable: entries are whole answers).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn key_of(c: &Claim) -> Key {
    (c.kind, c.text.clone(), c.value.clone(), c.subject.clone())
}

/// Which lines of a text may state `c` (whose [`needles`] are `needles`): every line
/// stating a number holds it as a whole number (`quantity_stated`), every line stating a
/// version of a product holds the version (`version_stated`), and lines holding the
/// needles are the rest.
fn candidates(c: &Claim, needles: &[String], patterns: &mut Patterns) -> Candidates {
    match &c.value {
        ClaimValue::Number { value, unit } if !is_literal(value) => Candidates::Number {
            value: value.clone(),
            unit_word: unit.as_deref().and_then(unit_needle).filter(|w| w.is_ascii()),
            counted: unit.as_deref().is_some_and(counted_in_any_script),
        },
        ClaimValue::Port { host: None, port } => {
            Candidates::Number { value: port.clone(), unit_word: None, counted: false }
        }
        ClaimValue::Text(value) if c.kind == ClaimKind::Version && !needles.contains(value) => {
            patterns.narrowing_id(value).map_or(Candidates::Needles, Candidates::Version)
        }
        _ => Candidates::Needles,
    }
}

/// The automaton's patterns (distinct, lowercase).
#[derive(Default)]
struct Patterns {
    list: Vec<String>,
    ids: HashMap<String, usize>,
    /// A string of the claim being planned is empty or holds a line break.
    broken: bool,
}

impl Patterns {
    fn id(&mut self, s: &str) -> Option<usize> {
        if s.is_empty() || s.contains('\n') {
            self.broken = true;
            return None;
        }
        if let Some(&id) = self.ids.get(s) {
            return Some(id);
        }
        self.list.push(s.to_string());
        self.ids.insert(s.to_string(), self.list.len() - 1);
        Some(self.list.len() - 1)
    }

    /// [`Patterns::id`] of a string that only narrows a claim's lines: none when it is
    /// empty or holds a line break (its needles are enough then).
    fn narrowing_id(&mut self, s: &str) -> Option<usize> {
        if s.is_empty() || s.contains('\n') { None } else { self.id(s) }
    }
}

impl<'a> Text<'a> {
    /// `text` lowercased and searched with `ac`, and the lines of `numbers` found.
    fn new(text: &'a str, ac: Option<&AhoCorasick>, numbers: &HashSet<&str>) -> Text<'a> {
        if ac.is_none() && numbers.is_empty() {
            // Nothing to search for: no claim has lines to test.
            return Text::scanned(text, String::new(), Vec::new(), Vec::new(), HashMap::new());
        }
        // Pieces of whole lines, lowercased and searched on both cores (no pattern holds a
        // line break, so no match crosses a piece), then put end to end.
        let pieces = pieces(text);
        let scanned: Vec<Piece> = pieces.par_iter().map(|r| Piece::scan(&text[r.clone()], ac, numbers)).collect();
        let mut lower = String::with_capacity(text.len());
        let mut starts = Vec::new();
        let mut hits: Vec<(u32, u32, u32)> = Vec::new();
        let mut lines_of: HashMap<String, Vec<u32>> = HashMap::new();
        let fits = u32::try_from(scanned.iter().map(|p| p.lower.len()).sum::<usize>()).is_ok();
        for (r, piece) in pieces.iter().zip(scanned) {
            let (base, first) = (lower.len(), starts.len());
            starts.extend(piece.starts.iter().map(|&(t, l)| (r.start + t, base + l)));
            if fits {
                hits.extend(piece.hits.iter().map(|&(p, i, n)| (p, i + base as u32, n + first as u32)));
                for (value, lines) in piece.numbers {
                    lines_of.entry(value).or_default().extend(lines.iter().map(|n| n + first as u32));
                }
            }
            lower.push_str(&piece.lower);
        }
        hits.par_sort_unstable();
        Text::scanned(text, lower, starts, hits, lines_of)
    }

    fn scanned(
        text: &'a str,
        lower: String,
        starts: Vec<(usize, usize)>,
        hits: Vec<(u32, u32, u32)>,
        numbers: HashMap<String, Vec<u32>>,
    ) -> Text<'a> {
        Text { text, lower, starts, hits, numbers, dates: Mutex::new(HashMap::new()) }
    }

    /// The dates line `n` writes ([`find_dates`], as `occurs_in` reads a text said on no
    /// known day), found once.
    fn dates(&self, n: usize) -> Arc<Vec<FoundDate>> {
        if let Some(known) = lock(&self.dates).get(&n) {
            return Arc::clone(known);
        }
        let found = Arc::new(find_dates(self.line(n)));
        lock(&self.dates).insert(n, Arc::clone(&found));
        found
    }

    /// Where pattern `p` occurs: (offset in `lower`, line).
    fn offsets(&self, p: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let p = u32::try_from(p).unwrap_or(u32::MAX);
        let from = self.hits.partition_point(|&(q, ..)| q < p);
        let to = self.hits.partition_point(|&(q, ..)| q <= p);
        self.hits[from..to].iter().map(|&(_, i, n)| (i as usize, n as usize))
    }

    fn has(&self, p: usize) -> bool {
        self.offsets(p).next().is_some()
    }

    /// How many times pattern `p` occurs.
    fn count(&self, p: usize) -> usize {
        let p = u32::try_from(p).unwrap_or(u32::MAX);
        self.hits.partition_point(|&(q, ..)| q <= p) - self.hits.partition_point(|&(q, ..)| q < p)
    }

    /// The lines to run `plan`'s exact test on (a line may come more than once): none
    /// when none of its needles occurs in the text.
    fn candidates<'s>(&'s self, plan: &'s Plan) -> Box<dyn Iterator<Item = usize> + 's> {
        match &plan.lines {
            Candidates::Number { value, unit_word, counted } => {
                let lines = self.numbers.get(value).into_iter().flatten().map(|&n| n as usize);
                let spells_unit = move |&n: &usize| {
                    let line = self.lower_line(n);
                    unit_word.as_ref().is_none_or(|w| line.contains(w.as_str()))
                        || *counted && with_generic_counters(value).any(|g| line.contains(g.as_str()))
                };
                Box::new(lines.filter(spells_unit))
            }
            _ if !plan.needle_ids.iter().any(|&p| self.has(p)) => Box::new(std::iter::empty()),
            Candidates::Version(p) if self.count(*p) < plan.needle_ids.iter().map(|&q| self.count(q)).sum() => {
                self.lines_of(std::slice::from_ref(p))
            }
            _ => self.lines_of(&plan.needle_ids),
        }
    }

    /// The lines where any of `patterns` occurs, lazily (a line may come more than once).
    fn lines_of<'s>(&'s self, patterns: &'s [usize]) -> Box<dyn Iterator<Item = usize> + 's> {
        let mut last = None;
        Box::new(patterns.iter().flat_map(|&p| self.offsets(p)).map(|(_, n)| n).filter(move |&n| {
            let new = last != Some(n);
            last = Some(n);
            new
        }))
    }

    /// Line `n` of the lowercased text, without its `\n`: line `n` lowercased.
    fn lower_line(&self, n: usize) -> &str {
        let start = self.starts[n].1;
        let end = self.starts.get(n + 1).map_or(self.lower.len(), |s| s.1);
        let line = &self.lower[start..end];
        line.strip_suffix('\n').unwrap_or(line)
    }

    /// Line `n` of the original text, without its `\n`.
    fn line(&self, n: usize) -> &'a str {
        let start = self.starts[n].0;
        let end = self.starts.get(n + 1).map_or(self.text.len(), |s| s.0);
        let line = &self.text[start..end];
        line.strip_suffix('\n').unwrap_or(line)
    }

    /// Whether some line of the text states `claim` (`plan` being its), lines `first`
    /// tested before the others.
    fn states(&self, plan: &Plan, claim: &Claim, first: &[usize]) -> bool {
        if matches!(plan.shape, Shape::Whole) || u32::try_from(self.lower.len()).is_err() {
            return self.text.lines().any(|l| Haystack::new(l).states_with(claim, &plan.needles));
        }
        let first = first.iter().copied().filter(|&n| n < self.starts.len());
        let mut lines = first.chain(self.candidates(plan));
        match &plan.shape {
            Shape::Date(spec) => lines.any(|n| self.dates(n).iter().any(|f| spec.contains(&f.spec))),
            _ => lines.any(|n| Haystack::lowered(self.line(n), self.lower_line(n)).states_with(claim, &plan.needles)),
        }
    }
}

/// A piece of a text of whole lines, lowercased and searched (offsets and lines from its
/// start).
struct Piece {
    lower: String,
    starts: Vec<(usize, usize)>,
    hits: Vec<(u32, u32, u32)>,
    /// The lines writing each number asked about as a whole number.
    numbers: HashMap<String, Vec<u32>>,
}

impl Piece {
    fn scan(text: &str, ac: Option<&AhoCorasick>, numbers: &HashSet<&str>) -> Piece {
        // Lowercased line by line: the same as the whole text lowercased (a line break
        // ends the context of the one context-dependent mapping, a final sigma), with
        // each line's start in both.
        let mut lower = String::with_capacity(text.len());
        let mut starts = Vec::new();
        let mut lines_of: HashMap<String, Vec<u32>> = HashMap::new();
        let mut at = 0;
        for (n, line) in text.split_inclusive('\n').enumerate() {
            // The numbers of the line as `quantity_stated` reads it (without its `\n`).
            if !numbers.is_empty() {
                let written = line.strip_suffix('\n').unwrap_or(line);
                for (_, value) in whole_numbers(written).filter(|(_, v)| numbers.contains(v.as_str())) {
                    let lines = lines_of.entry(value).or_default();
                    if lines.last() != Some(&(n as u32)) {
                        lines.push(n as u32);
                    }
                }
            }
            starts.push((at, lower.len()));
            if line.is_ascii() {
                let from = lower.len();
                lower.push_str(line);
                lower[from..].make_ascii_lowercase();
            } else {
                lower.push_str(&line.to_lowercase());
            }
            at += line.len();
        }
        let mut hits = Vec::new();
        if let Some(ac) = ac.filter(|_| u32::try_from(lower.len()).is_ok()) {
            // Matches come by their ends, in order, and hold no line break: the line of
            // each follows from the previous one's.
            let mut line = 0;
            for m in ac.find_overlapping_iter(lower.as_str()) {
                while starts.get(line + 1).is_some_and(|&(_, l)| l <= m.start()) {
                    line += 1;
                }
                while line > 0 && starts[line].1 > m.start() {
                    line -= 1;
                }
                hits.push((m.pattern().as_u32(), m.start() as u32, line as u32));
            }
        }
        Piece { lower, starts, hits, numbers: lines_of }
    }
}

/// `text` cut into pieces of whole lines of about 1 MiB.
fn pieces(text: &str) -> Vec<std::ops::Range<usize>> {
    const PIECE: usize = 1 << 20;
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let end = match text.as_bytes().get(at + PIECE..) {
            Some(rest) => memchr::memchr(b'\n', rest).map_or(text.len(), |k| at + PIECE + k + 1),
            None => text.len(),
        };
        out.push(at..end);
        at = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::claims::{extract, occurs_in};

    /// Note lines with every kind of claim, and near misses of them. None ends in a way a
    /// date could continue on the next line (the one documented difference).
    const POOL: &[&str] = &[
        "- The suite has 482 tests and runs in 12 seconds.",
        "- It took 1,500 ms; the table has 12480 rows.",
        "- 12 columns in invoices (was 14).",
        "- The invoices Columns are listed in schema.sql.",
        "- p99 is 12 ms on staging.",
        "- Coverage is 85% (target 90 percent).",
        "- Redis listens on port 6379 (`redis-server --port 6379`).",
        "- REDIS_URL=redis://cache:6379/0 in staging.",
        "- The dev server is at localhost:3000 (also 127.0.0.1:3001).",
        "- Running on localhost, port 3000, since the move.",
        "- Staging runs PostgreSQL 16.4 and Redis 7.2.",
        "- Dev DB is MySQL 16.4 now.",
        "- pinned v3.2.4; 3.2.45 broke the build.",
        "- Alice Nguyen owns billing; Priya Raman owns search.",
        "- Run `pnpm test --filter @acme/api` before pushing.",
        "- Config lives in src/config.yaml and ~/.claude/settings.json.",
        "- Dashboards at https://grafana.acme.dev/d/billing.",
        "- Deployed on 2026-03-09 and again on March 12, 2026.",
        "- The freeze lasts until late Oct 2026.",
        "- Released 1 November 2026 (Q4 2026).",
        "- The mask is 0x1F40 and the mode 0o755.",
        "- 4,310 between March and May.",
        "- テストは214件通過、ポートは 6380。",
        "- 서버는 7대, 포트 8443.",
        "- Cache 512MB, heap 2GiB, timeout 4h.",
        "- retries 3329 times before paging.",
        "- The nightly export takes 17 minutes and writes 852 MB.",
        "- ΣΟΦΟΣ wrote 12 Tests here.",
        "- Uses npm, not pnpm test.",
        "- mask = 0x00001f40 for all.",
        "- The job retries 1,500 times; Columns: 1200 and 3 retries.",
        "- Tests: 1 failed, 213 passed, 214 total; 1500 retried calls.",
        "- It took 1500 retries over 214 columns.",
    ];

    /// Lines whose claims are asked about but that are not always in the texts.
    const CLAIMS: &[&str] = &[
        "- The suite has 482 tests.",
        "- It has 12,480 rows; it took 12,480 ms.",
        "- 12 columns, 12 tests, 85%, 90 percent.",
        "- Redis on port 6379; cache is redis:6379; dev at localhost:3000.",
        "- Postgres 16.4, MySQL 16.4, Redis 7.2, v3.2.4, Python 3.11.",
        "- Alice Nguyen, Priya Raman, Marcus Webb.",
        "- `pnpm test --filter @acme/api`, `npm test`, src/config.yaml.",
        "- 2026-03-09, March 12, late Oct 2026, November 2026, 2026-11-01, in 2026.",
        "- 0x1F40, 0o755, 4,310 between.",
        "- テストは214件、ポートは 6380、서버는 7대.",
        "- 512MB, 2GiB, 4 hours, 17 minutes, 852 MB, 3329 times.",
        "- 1500 retries, 1200 columns, 214 columns, 213 passed, 214 tests, 3 retries.",
    ];

    #[test]
    fn answers_as_occurs_in_on_some_line() {
        let claims: Vec<Claim> = POOL.iter().chain(CLAIMS).flat_map(|l| extract(l)).collect();
        assert!(claims.len() > 60, "{} claims", claims.len());
        // Texts of pool lines picked by a fixed sequence, each line in several texts.
        let mut seed = 7u64;
        let mut texts: Vec<String> = Vec::new();
        for n in [0, 1, 3, 8, 15, 30] {
            let mut t = String::new();
            for _ in 0..n {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                t.push_str(POOL[(seed >> 33) as usize % POOL.len()]);
                t.push('\n');
            }
            texts.push(t);
        }
        texts.push(POOL.join("\n"));
        texts.push(POOL.join("\r\n"));
        let corpus = Corpus::new(texts.iter().map(String::as_str).collect(), &claims);
        for (t, text) in texts.iter().enumerate() {
            for c in &claims {
                let some_line = text.lines().any(|l| occurs_in(c, l));
                assert_eq!(corpus.states(t, c), some_line, "{c:?} in text {t}:\n{text}");
                // Asked again: the memo.
                assert_eq!(corpus.states(t, c), some_line);
            }
        }
        // A claim it was not prepared for is tested on the whole text.
        let other = extract("- It has 999 widgets.").remove(0);
        assert_eq!(corpus.states(0, &other), texts[0].lines().any(|l| occurs_in(&other, l)));
        assert!(!corpus.states(texts.len(), &claims[0]), "no such text");
    }

    #[test]
    fn a_unit_or_a_product_on_another_line_does_not_count() {
        // A note line states a fact or does not: the number on one line, its unit on another,
        // is no claim of the note.
        let text = "- 482 runs.\n- The tests are green.\n- PostgreSQL is the database.\n- It is 16.4 now.\n";
        let claims: Vec<Claim> = ["- 482 tests", "- Postgres 16.4"].iter().flat_map(|l| extract(l)).collect();
        let corpus = Corpus::new(vec![text], &claims);
        for c in &claims {
            assert!(!corpus.states(0, c), "{c:?}");
        }
        let said = "- 482 tests, all green.\n- PostgreSQL 16.4 is the database.\n";
        let corpus = Corpus::new(vec![said], &claims);
        for c in &claims {
            assert!(corpus.states(0, c), "{c:?}");
        }
    }
}
