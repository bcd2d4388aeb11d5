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
//! 1. **One automaton** (aho-corasick) over every string any registered claim may need —
//!    its [`super::needles`], and per kind the strings its other conditions need (a
//!    number's digits, a version's product, a port's digits) — is run **once** over each
//!    text, lowercased line by line once. Each text keeps, per string, where it occurs.
//! 2. A claim none of whose needles occurs in a text is not stated there (the needle test
//!    of `occurs_in`, unchanged). Otherwise the exact test runs, still as `occurs_in`, but
//!    only on the **lines where its strings occur**, each joined with a witness line for
//!    the conditions `occurs_in` checks anywhere in the text (see below). Its cost is the
//!    size of those lines, not of the text.
//! 3. Each (text, claim) answer, and each text's witnesses, are memoized.
//!
//! So the cost is one lowercasing and one automaton pass per text (linear), the automaton
//! build (linear in the strings), and per distinct claim the lines that hold its strings.
//! Both cores share it: a text is lowercased and searched in 1 MiB pieces of whole lines
//! (no string holds a line break, so no match crosses a piece), and [`Corpus::prepare`]
//! answers a list of claims in parallel (the memos are behind locks).
//!
//! Why the answer is the same: every test `occurs_in` makes is either *line-local* (what it
//! looks for holds no line break, and what it looks at around a match stops at one: a
//! break reads like the start or end of the text) or a condition that holds somewhere in
//! the text:
//! - names, code, paths, URLs, literals (`0x1F40`) and ports without a host: an
//!   occurrence of the value, which holds its needle: some line holding a needle says it;
//! - a version: its occurrence (holding its needle) and its product starting a word
//!   *anywhere*: the lines holding the needle, each with the first line where the product
//!   starts a word;
//! - a number: a whole-number token of its value (written as the value or with thousands
//!   separators: those two strings are looked for) followed by what agrees with its unit,
//!   and its unit mentioned *anywhere*: one word of the text that mentions the unit (the
//!   unit test reads words — alphabetic runs —, a `%` sign, or a CJK counter), then one
//!   line per distinct way a token of the value is followed there (found once per value:
//!   a value written 4,000 times in a note is read 4,000 times once, not once per claim);
//! - a port with a host: its bindings (`host:port`), including that no binding names
//!   another host, all on lines holding the port's digits, and the host named anywhere:
//!   all those lines at once, with the first line naming the host;
//! - a date: a date the text writes; dates are found in the lines holding a needle (each
//!   line's once, for every date claim), and compared as `occurs_in` compares them. The
//!   one difference: a date written across a line break (`Nov` ending a line, `1` starting
//!   the next) is not found in live memory any more: finding the dates of a whole note
//!   costs ~0.5 µs per byte (17 s for a 32 MB note), which is what made it quadratic.
//!
//! A claim one of whose strings is empty or holds a line break (none does today) is tested
//! on the whole text, as is a claim not given to [`Corpus::new`]. `tests` checks the
//! answers against `occurs_in` on whole texts: a change to what `occurs_in` reads of a
//! text (a new condition "anywhere in the text") must be mirrored here.

use super::dates::{FoundDate, find_dates};
use super::endpoints::{host_occurs, is_literal};
use super::matching::{Haystack, needles, product_of, starts_a_word, with_thousands};
use super::numbers::{Suffix, number_ends, read_number, suffix_unit, unit_occurs};
use super::text::is_cjk;
use super::{Claim, ClaimKind, ClaimValue, DateSpec};
use aho_corasick::AhoCorasick;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// What a claim is looked up by: everything `occurs_in` reads of it.
type Key = (ClaimKind, String, ClaimValue);

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
    shape: Shape,
}

enum Shape {
    /// Line-local: some line holding a needle states it.
    Lines,
    /// A date: some line holding a needle writes a date it contains (each line's dates
    /// found once for every date claim, as `occurs_in` finds a text's dates once).
    Date(DateSpec),
    /// A version: a needle line, with the first line where `product` starts a word.
    Version { product: Option<(String, usize)> },
    /// A number: the lines holding a whole-number token of `value` (`tokens`: the value
    /// and its thousands form), one per distinct way a token is followed, with a word
    /// mentioning `unit`.
    Number { value: String, tokens: Vec<(usize, usize)>, unit: Option<String> },
    /// A port with a host: every line holding the port as a token, with the first line
    /// naming the host.
    HostPort { tokens: Vec<(usize, usize)>, host: String },
    /// A string it needs is empty or holds a line break (never seen): the whole text is
    /// tested.
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
    /// The CJK units of registered claims that the text contains.
    cjk_units: Vec<&'a str>,
    /// What can mention a unit (see [`words`]), found when a unit is first asked for.
    words: OnceLock<Vec<&'a str>>,
    /// Unit → a word of the text mentioning it (`Some("")`: the unit needs none).
    units: Mutex<HashMap<String, Option<&'a str>>>,
    /// Product (its pattern) → the first line where it starts a word.
    products: Mutex<HashMap<usize, Option<usize>>>,
    /// Line → the dates it writes.
    dates: Mutex<HashMap<usize, Arc<Vec<FoundDate>>>>,
    /// Number value → one line per distinct way its tokens are followed.
    numbers: Mutex<HashMap<String, Arc<Vec<usize>>>>,
}

impl<'a> Corpus<'a> {
    /// Prepares `texts` for `claims` (repeated claims are one).
    pub fn new<'c>(texts: Vec<&'a str>, claims: impl IntoIterator<Item = &'c Claim>) -> Corpus<'a> {
        let mut patterns = Patterns::default();
        let mut plans: HashMap<Key, Plan> = HashMap::new();
        let mut cjk_units: Vec<String> = Vec::new();
        for c in claims {
            let key = key_of(c);
            if plans.contains_key(&key) {
                continue;
            }
            patterns.broken = false;
            let needles = needles(c);
            let needle_ids = needles.iter().map(|n| patterns.id(n)).collect();
            let shape = match &c.value {
                ClaimValue::Number { value, unit } if !is_literal(value) => {
                    if let Some(u) = unit.as_deref().filter(|u| u.chars().any(is_cjk)) {
                        cjk_units.push(u.to_string());
                    }
                    Shape::Number { value: value.clone(), tokens: patterns.tokens(value), unit: unit.clone() }
                }
                ClaimValue::Port { host: Some(host), port } => {
                    Shape::HostPort { tokens: patterns.tokens(port), host: host.clone() }
                }
                ClaimValue::Date(spec) => Shape::Date(*spec),
                ClaimValue::Text(value) if c.kind == ClaimKind::Version => Shape::Version {
                    product: product_of(&c.text, value).map(|p| {
                        let id = patterns.id(&p);
                        (p, id)
                    }),
                },
                _ => Shape::Lines,
            };
            let shape = if patterns.broken { Shape::Whole } else { shape };
            let id = plans.len();
            plans.insert(key, Plan { id, needles, needle_ids, shape });
        }
        cjk_units.sort_unstable();
        cjk_units.dedup();
        // No claim to look for (a dream whose added lines state none): nothing to prepare.
        let ac = AhoCorasick::new(&patterns.list).ok().filter(|_| !patterns.list.is_empty());
        let texts = texts.into_par_iter().map(|t| Text::new(t, ac.as_ref(), &cjk_units)).collect();
        Corpus { texts, plans, known: Mutex::new(HashMap::new()) }
    }

    /// Answers `asks` — each a claim and the texts to try in order until one states it —
    /// on both cores, keeping the answers for [`Corpus::states`].
    pub fn prepare(&self, asks: &[(&Claim, Vec<usize>)]) {
        asks.par_iter().for_each(|(c, texts)| {
            let _ = texts.iter().any(|&t| self.states(t, c));
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
        let Some(text) = self.texts.get(t) else {
            return false;
        };
        let Some(plan) = self.plans.get(&key_of(claim)) else {
            return Haystack::new(text.text).states(claim);
        };
        if let Some(&known) = lock(&self.known).get(&(t, plan.id)) {
            return known;
        }
        let said = text.states(plan, claim);
        lock(&self.known).insert((t, plan.id), said);
        said
    }
}

/// The memo behind `m` (a panic elsewhere leaves it usable: entries are whole answers).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn key_of(c: &Claim) -> Key {
    (c.kind, c.text.clone(), c.value.clone())
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
    fn id(&mut self, s: &str) -> usize {
        if s.is_empty() || s.contains('\n') {
            self.broken = true;
            return usize::MAX;
        }
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        self.list.push(s.to_string());
        self.ids.insert(s.to_string(), self.list.len() - 1);
        self.list.len() - 1
    }

    /// The two ways a whole-number token of `value` is written (`1200`, `1,200`), with
    /// their lengths.
    fn tokens(&mut self, value: &str) -> Vec<(usize, usize)> {
        let mut forms = vec![value.to_string(), with_thousands(value)];
        forms.dedup();
        forms.iter().map(|f| (self.id(f), f.len())).collect()
    }
}

impl<'a> Text<'a> {
    fn new(text: &'a str, ac: Option<&AhoCorasick>, cjk_units: &[String]) -> Text<'a> {
        let Some(ac) = ac else {
            // Without patterns no claim has a plan: [`Corpus::states`] reads `text` whole.
            return Text::scanned(text, String::new(), Vec::new(), Vec::new(), Vec::new());
        };
        // Pieces of whole lines, lowercased and searched on both cores (no pattern holds a
        // line break, so no match crosses a piece), then put end to end.
        let pieces = pieces(text);
        let scanned: Vec<Piece> = pieces.par_iter().map(|r| Piece::scan(&text[r.clone()], Some(ac))).collect();
        let mut lower = String::with_capacity(text.len());
        let mut starts = Vec::new();
        let mut hits: Vec<(u32, u32, u32)> = Vec::new();
        let fits = u32::try_from(scanned.iter().map(|p| p.lower.len()).sum::<usize>()).is_ok();
        for (r, piece) in pieces.iter().zip(scanned) {
            let (base, first) = (lower.len(), starts.len());
            starts.extend(piece.starts.iter().map(|&(t, l)| (r.start + t, base + l)));
            if fits {
                hits.extend(piece.hits.iter().map(|&(p, i, n)| (p, i + base as u32, n + first as u32)));
            }
            lower.push_str(&piece.lower);
        }
        hits.par_sort_unstable();
        let cjk_units = cjk_units.iter().filter_map(|u| text.find(u.as_str()).map(|i| &text[i..i + u.len()])).collect();
        Text::scanned(text, lower, starts, hits, cjk_units)
    }

    fn scanned(
        text: &'a str,
        lower: String,
        starts: Vec<(usize, usize)>,
        hits: Vec<(u32, u32, u32)>,
        cjk_units: Vec<&'a str>,
    ) -> Text<'a> {
        Text {
            text,
            lower,
            starts,
            hits,
            cjk_units,
            words: OnceLock::new(),
            units: Mutex::new(HashMap::new()),
            products: Mutex::new(HashMap::new()),
            numbers: Mutex::new(HashMap::new()),
            dates: Mutex::new(HashMap::new()),
        }
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

    /// The distinct lines where any of `patterns` occurs, in text order.
    fn lines(&self, patterns: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = patterns.iter().flat_map(|&p| self.offsets(p)).map(|(_, n)| n).collect();
        out.sort_unstable();
        out.dedup();
        out
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

    /// The distinct lines where one of `tokens` (number forms) stands as a whole number.
    fn token_lines(&self, tokens: &[(usize, usize)]) -> Vec<usize> {
        let b = self.lower.as_bytes();
        let mut out: Vec<usize> = tokens
            .iter()
            .flat_map(|&(p, len)| self.offsets(p).filter(move |&(i, _)| whole_number_at(b, i, i + len)))
            .map(|(_, n)| n)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Line `n` of the original text, without its `\n`.
    fn line(&self, n: usize) -> &'a str {
        let start = self.starts[n].0;
        let end = self.starts.get(n + 1).map_or(self.text.len(), |s| s.0);
        let line = &self.text[start..end];
        line.strip_suffix('\n').unwrap_or(line)
    }

    /// Line `n` lowercased, without its `\n`.
    fn lower_line(&self, n: usize) -> &str {
        let start = self.starts[n].1;
        let end = self.starts.get(n + 1).map_or(self.lower.len(), |s| s.1);
        let line = &self.lower[start..end];
        line.strip_suffix('\n').unwrap_or(line)
    }

    /// `occurs_in(claim, text)`, `plan` being the claim's.
    fn states(&self, plan: &Plan, claim: &Claim) -> bool {
        if matches!(plan.shape, Shape::Whole) || u32::try_from(self.lower.len()).is_err() {
            return Haystack::new(self.text).states_with(claim, &plan.needles);
        }
        if !plan.needle_ids.iter().any(|&p| self.has(p)) {
            return false;
        }
        // Some line, with `with` (a witness of what may be anywhere) after it, states it.
        let any_line = |mut lines: Box<dyn Iterator<Item = usize> + '_>, with: &str| {
            lines.any(|n| {
                let line = self.line(n);
                if with.is_empty() {
                    Haystack::new(line).states_with(claim, &plan.needles)
                } else {
                    Haystack::new(&format!("{line}\n{with}")).states_with(claim, &plan.needles)
                }
            })
        };
        match &plan.shape {
            Shape::Lines | Shape::Version { product: None } => any_line(self.lines_of(&plan.needle_ids), ""),
            Shape::Date(spec) => {
                let mut lines = self.lines_of(&plan.needle_ids);
                lines.any(|n| self.dates(n).iter().any(|f| spec.contains(&f.spec)))
            }
            Shape::Version { product: Some((product, id)) } => match self.product_line(product, *id) {
                Some(n) => any_line(self.lines_of(&plan.needle_ids), self.line(n)),
                None => false,
            },
            Shape::Number { value, tokens, unit } => {
                // The word mentioning the unit first, then a line per way a token of the
                // number is followed (what decides whether a token states the claim).
                let mut parts = match unit.as_deref().map(|u| self.unit_word(u)) {
                    Some(Some(w)) => vec![w],
                    Some(None) => return false,
                    None => Vec::new(),
                };
                parts.extend(self.number_lines(value, tokens).iter().map(|&n| self.line(n)));
                Haystack::new(&parts.join("\n")).states_with(claim, &plan.needles)
            }
            Shape::HostPort { tokens, host } => {
                // Every line binding the port (all hold it as a token), the first line
                // holding a needle (the needle test as on the text), the first naming the
                // host: tested together, since no binding may name another host.
                let mut lines = self.token_lines(tokens);
                let needle_lines = self.lines(&plan.needle_ids);
                lines.extend(needle_lines.first());
                lines.extend(needle_lines.iter().find(|&&n| host_occurs(host, self.lower_line(n))));
                lines.sort_unstable();
                lines.dedup();
                let joined: Vec<&str> = lines.iter().map(|&n| self.line(n)).collect();
                Haystack::new(&joined.join("\n")).states_with(claim, &plan.needles)
            }
            Shape::Whole => Haystack::new(self.text).states_with(claim, &plan.needles),
        }
    }

    /// The lines holding a whole-number token of `value` (found by `tokens`), one for each
    /// distinct way a token is followed (its [`suffix_unit`]: the number's unit as written
    /// there, if any), in text order. `quantity_occurs` asks of a text only whether some
    /// token is followed in a way that agrees with the claimed unit: one line per way
    /// answers it as all of them would. Found once per value.
    fn number_lines(&self, value: &str, tokens: &[(usize, usize)]) -> Arc<Vec<usize>> {
        if let Some(known) = lock(&self.numbers).get(value) {
            return Arc::clone(known);
        }
        let mut first: HashMap<Option<String>, usize> = HashMap::new();
        let mut note = |line: &str, n: usize, end: usize| {
            let way = match suffix_unit(line, end) {
                Suffix::Unit(_, unit) => Some(unit),
                Suffix::Bare | Suffix::Nothing => None,
            };
            first.entry(way).or_insert(n);
        };
        let b = self.lower.as_bytes();
        let mut read_whole = HashSet::new();
        for &(p, len) in tokens {
            for (i, n) in self.offsets(p).filter(|&(i, _)| whole_number_at(b, i, i + len)) {
                let line = self.line(n);
                if !line.is_ascii() {
                    // Lowercasing may have moved its bytes: its tokens found in it whole.
                    if read_whole.insert(n) {
                        number_ends(value, line).into_iter().for_each(|end| note(line, n, end));
                    }
                    continue;
                }
                // The token `number_ends` reads at `at` (a start it reaches: not after a
                // digit nor inside a number, as `whole_number_at` checked).
                let at = i - self.starts[n].1;
                let lb = line.as_bytes();
                if let Some((end, v)) = read_number(line, at)
                    && v == value
                    && !(matches!(lb.get(end), Some(b'.' | b',')) && lb.get(end + 1).is_some_and(u8::is_ascii_digit))
                {
                    note(line, n, end);
                }
            }
        }
        let mut lines: Vec<usize> = first.into_values().collect();
        lines.sort_unstable();
        lines.dedup();
        let lines = Arc::new(lines);
        lock(&self.numbers).insert(value.to_string(), Arc::clone(&lines));
        lines
    }

    /// The first line where `product` (pattern `id`) starts a word.
    fn product_line(&self, product: &str, id: usize) -> Option<usize> {
        if let Some(&known) = lock(&self.products).get(&id) {
            return known;
        }
        let found = self.lines(&[id]).into_iter().find(|&n| starts_a_word(product, self.lower_line(n)));
        lock(&self.products).insert(id, found);
        found
    }

    /// A word of the text that mentions `unit` (`""` when the unit needs no mention), or
    /// `None` when the text does not mention it.
    fn unit_word(&self, unit: &str) -> Option<&'a str> {
        if let Some(&known) = lock(&self.units).get(unit) {
            return known;
        }
        let found = if unit_occurs(unit, "") {
            Some("")
        } else {
            let words = self.words.get_or_init(|| words(self.text, &self.cjk_units));
            words.iter().copied().find(|w| unit_occurs(unit, w))
        };
        lock(&self.units).insert(unit.to_string(), found);
        found
    }
}

/// A piece of a text of whole lines, lowercased and searched (offsets and lines from its
/// start).
struct Piece {
    lower: String,
    starts: Vec<(usize, usize)>,
    hits: Vec<(u32, u32, u32)>,
}

impl Piece {
    fn scan(text: &str, ac: Option<&AhoCorasick>) -> Piece {
        // Lowercased line by line: the same as the whole text lowercased (a line break
        // ends the context of the one context-dependent mapping, a final sigma), with
        // each line's start in both.
        let mut lower = String::with_capacity(text.len());
        let mut starts = Vec::new();
        let mut at = 0;
        for line in text.split_inclusive('\n') {
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
        Piece { lower, starts, hits }
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

/// What in `text` can mention a unit, as `unit_occurs` reads a text: its words (maximal
/// runs of alphabetic, non-CJK characters), each once in text order; `%` when it has one;
/// `cjk`, the CJK units it contains.
fn words<'a>(text: &'a str, cjk: &[&'a str]) -> Vec<&'a str> {
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let in_word = c.is_alphabetic() && !is_cjk(c);
        match (in_word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if seen.insert(&text[s..i]) {
                    out.push(&text[s..i]);
                }
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start
        && seen.insert(&text[s..])
    {
        out.push(&text[s..]);
    }
    if let Some(i) = text.find('%') {
        out.push(&text[i..i + 1]);
    }
    out.extend(cjk);
    out
}

/// True when `lower[start..end]` (a number form) may be a whole-number token: not after a
/// digit or a digit and `.`/`,`, not before a digit. Every token `number_occurs` accepts
/// passes (its digits are ASCII, the same in the lowercased text).
fn whole_number_at(b: &[u8], start: usize, end: usize) -> bool {
    let before = start.checked_sub(1).and_then(|i| b.get(i)).copied();
    let before2 = start.checked_sub(2).and_then(|i| b.get(i)).copied();
    let after_digit = before.is_some_and(|c| c.is_ascii_digit());
    let after_separator = matches!(before, Some(b'.' | b',')) && before2.is_some_and(|c| c.is_ascii_digit());
    !after_digit && !after_separator && !b.get(end).is_some_and(|c| c.is_ascii_digit())
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
    ];

    #[test]
    fn answers_as_occurs_in_on_the_whole_text() {
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
                assert_eq!(corpus.states(t, c), occurs_in(c, text), "{c:?} in text {t}:\n{text}");
                // Asked again: the memo.
                assert_eq!(corpus.states(t, c), occurs_in(c, text));
            }
        }
        // A claim it was not prepared for is tested on the whole text.
        let other = extract("- It has 999 widgets.").remove(0);
        assert_eq!(corpus.states(0, &other), occurs_in(&other, &texts[0]));
        assert!(!corpus.states(texts.len(), &claims[0]), "no such text");
    }

    #[test]
    fn a_unit_mentioned_anywhere_and_a_product_named_anywhere_count() {
        // `occurs_in` reads the whole text: the number on one line, its unit on another.
        let text = "- 482 runs.\n- The tests are green.\n- PostgreSQL is the database.\n- It is 16.4 now.\n";
        let claims: Vec<Claim> = ["- 482 tests", "- Postgres 16.4"].iter().flat_map(|l| extract(l)).collect();
        let corpus = Corpus::new(vec![text], &claims);
        for c in &claims {
            assert!(occurs_in(c, text), "{c:?}");
            assert!(corpus.states(0, c), "{c:?}");
        }
    }

    #[test]
    fn one_line_per_way_a_number_is_followed() {
        // 1500 is followed by `ms` on many lines and by `rows` on one, late.
        let mut text = "- 1500 ms\n".repeat(200);
        text.push_str("- 1500 rows\n");
        let rows = extract("- It has 1,500 rows.").remove(0);
        let corpus = Corpus::new(vec![text.as_str()], std::slice::from_ref(&rows));
        assert!(corpus.states(0, &rows));
        assert_eq!(lock(&corpus.texts[0].numbers)["1500"].len(), 2);
    }
}
