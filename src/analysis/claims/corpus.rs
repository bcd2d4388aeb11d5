//! Many claims against a few long texts (the notes of live memory): whether each text
//! states each claim, with exactly the answer of [`super::occurs_in`] on the whole text, in
//! time linear in the texts and the claims instead of their product.
//!
//! `occurs_in(claim, note)` costs a pass over the whole note (lowercasing it, searching it
//! for the needles, then the exact test: finding every date, number or word in it). Asked
//! for every claim of a dream against every note, that is claims × note bytes: 50,000
//! changed lines of one 400,000-line note took hours. Here:
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
//!   separators: those two strings are looked for) and its unit mentioned *anywhere*: the
//!   lines holding the token, each with one word of the text that mentions the unit (the
//!   unit test reads words — alphabetic runs —, a `%` sign, or a CJK counter);
//! - a port with a host: its bindings (`host:port`), including that no binding names
//!   another host, all on lines holding the port's digits, and the host named anywhere:
//!   all those lines at once, with the first line naming the host;
//! - a date: a date the text writes; dates are found in the lines holding a needle. The
//!   one difference: a date written across a line break (`Nov` ending a line, `1` starting
//!   the next) is not found in live memory any more. Finding the dates of a whole note
//!   costs ~0.5 µs per byte (17 s for a 32 MB note), once per note that a date needle hits.
//!
//! `tests` checks the answers against `occurs_in` on whole texts.

use super::endpoints::{host_occurs, is_literal};
use super::matching::{Haystack, needles, product_of, starts_a_word, with_thousands};
use super::numbers::unit_occurs;
use super::text::is_cjk;
use super::{Claim, ClaimKind, ClaimValue};
use aho_corasick::AhoCorasick;
use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};

/// What a claim is looked up by: everything `occurs_in` reads of it.
type Key = (ClaimKind, String, ClaimValue);

/// Texts prepared for many claims (see the module documentation).
pub struct Corpus<'a> {
    texts: Vec<Text<'a>>,
    plans: HashMap<Key, Plan>,
    /// Answers already given: (text, plan) → stated.
    known: RefCell<HashMap<(usize, usize), bool>>,
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
    /// A version: a needle line, with the first line where `product` starts a word.
    Version { product: Option<(String, usize)> },
    /// A number: a line holding a whole-number token of it (`tokens`: the value and its
    /// thousands form), with a word mentioning `unit`.
    Number { tokens: Vec<(usize, usize)>, unit: Option<String> },
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
    /// (pattern, offset in `lower`) of every occurrence, sorted.
    hits: Vec<(u32, u32)>,
    /// The CJK units of registered claims that the text contains.
    cjk_units: Vec<&'a str>,
    /// What can mention a unit (see [`words`]), found when a unit is first asked for.
    words: OnceCell<Vec<&'a str>>,
    /// Unit → a word of the text mentioning it (`Some("")`: the unit needs none).
    units: RefCell<HashMap<String, Option<&'a str>>>,
    /// Product (its pattern) → the first line where it starts a word.
    products: RefCell<HashMap<usize, Option<usize>>>,
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
                    Shape::Number { tokens: patterns.tokens(value), unit: unit.clone() }
                }
                ClaimValue::Port { host: Some(host), port } => {
                    Shape::HostPort { tokens: patterns.tokens(port), host: host.clone() }
                }
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
        let ac = AhoCorasick::new(&patterns.list).ok();
        let texts = texts.into_iter().map(|t| Text::new(t, ac.as_ref(), &cjk_units)).collect();
        Corpus { texts, plans, known: RefCell::new(HashMap::new()) }
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
        if let Some(&known) = self.known.borrow().get(&(t, plan.id)) {
            return known;
        }
        let said = text.states(plan, claim);
        self.known.borrow_mut().insert((t, plan.id), said);
        said
    }
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
        // Lowercased line by line: the same as the whole text lowercased (a line break
        // ends the context of the one context-dependent mapping, a final sigma), with
        // each line's start in both.
        let mut lower = String::with_capacity(text.len());
        let mut starts = Vec::new();
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            starts.push((at, lower.len()));
            lower.push_str(&line.to_lowercase());
            at += line.len();
        }
        let mut hits: Vec<(u32, u32)> = Vec::new();
        if let Some(ac) = ac.filter(|_| u32::try_from(lower.len()).is_ok()) {
            for m in ac.find_overlapping_iter(lower.as_str()) {
                hits.push((m.pattern().as_u32(), m.start() as u32));
            }
        }
        hits.sort_unstable();
        let cjk_units = cjk_units.iter().filter_map(|u| text.find(u.as_str()).map(|i| &text[i..i + u.len()])).collect();
        Text {
            text,
            lower,
            starts,
            hits,
            cjk_units,
            words: OnceCell::new(),
            units: RefCell::new(HashMap::new()),
            products: RefCell::new(HashMap::new()),
        }
    }

    /// Where pattern `p` occurs: offsets in `lower`.
    fn offsets(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        let p = u32::try_from(p).unwrap_or(u32::MAX);
        let from = self.hits.partition_point(|&(q, _)| q < p);
        let to = self.hits.partition_point(|&(q, _)| q <= p);
        self.hits[from..to].iter().map(|&(_, i)| i as usize)
    }

    fn has(&self, p: usize) -> bool {
        self.offsets(p).next().is_some()
    }

    /// The line holding offset `i` of `lower`.
    fn line_of(&self, i: usize) -> usize {
        self.starts.partition_point(|&(_, l)| l <= i).saturating_sub(1)
    }

    /// The distinct lines where any of `patterns` occurs, in text order.
    fn lines(&self, patterns: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = patterns.iter().flat_map(|&p| self.offsets(p)).map(|i| self.line_of(i)).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The distinct lines where one of `tokens` (number forms) stands as a whole number.
    fn token_lines(&self, tokens: &[(usize, usize)]) -> Vec<usize> {
        let b = self.lower.as_bytes();
        let mut out: Vec<usize> = tokens
            .iter()
            .flat_map(|&(p, len)| self.offsets(p).filter(move |&i| whole_number_at(b, i, i + len)))
            .map(|i| self.line_of(i))
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
        let any_line = |lines: Vec<usize>, with: &str| {
            lines.into_iter().any(|n| {
                let line = self.line(n);
                if with.is_empty() {
                    Haystack::new(line).states_with(claim, &plan.needles)
                } else {
                    Haystack::new(&format!("{line}\n{with}")).states_with(claim, &plan.needles)
                }
            })
        };
        match &plan.shape {
            Shape::Lines | Shape::Version { product: None } => any_line(self.lines(&plan.needle_ids), ""),
            Shape::Version { product: Some((product, id)) } => match self.product_line(product, *id) {
                Some(n) => any_line(self.lines(&plan.needle_ids), self.line(n)),
                None => false,
            },
            Shape::Number { tokens, unit } => {
                let with = match unit.as_deref().map(|u| self.unit_word(u)) {
                    Some(Some(w)) => w,
                    Some(None) => return false,
                    None => "",
                };
                any_line(self.token_lines(tokens), with)
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

    /// The first line where `product` (pattern `id`) starts a word.
    fn product_line(&self, product: &str, id: usize) -> Option<usize> {
        if let Some(&known) = self.products.borrow().get(&id) {
            return known;
        }
        let found = self.lines(&[id]).into_iter().find(|&n| starts_a_word(product, self.lower_line(n)));
        self.products.borrow_mut().insert(id, found);
        found
    }

    /// A word of the text that mentions `unit` (`""` when the unit needs no mention), or
    /// `None` when the text does not mention it.
    fn unit_word(&self, unit: &str) -> Option<&'a str> {
        if let Some(&known) = self.units.borrow().get(unit) {
            return known;
        }
        let found = if unit_occurs(unit, "") {
            Some("")
        } else {
            let words = self.words.get_or_init(|| words(self.text, &self.cjk_units));
            words.iter().copied().find(|w| unit_occurs(unit, w))
        };
        self.units.borrow_mut().insert(unit.to_string(), found);
        found
    }
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
