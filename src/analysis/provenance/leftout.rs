//! What the dream left out: the user's lasting instructions and corrections in the
//! window's sessions that the resulting memory neither states nor contradicts, the
//! corrections it contradicts (`correction-lost` when an added line does), and the notes
//! it deletes with how many sessions read them.
//!
//! **The resulting memory** is the memory as the dream proposes it: every note of the
//! proposal (live notes it leaves alone included), each line split into sentences.
//!
//! **What the user said** is read from the turns they typed in every session of the window
//! (see `window`: never a tool's result, a skill's text, a sub-agent's prompt or the
//! assistant):
//! - a *lasting instruction* is a sentence that asks for something to last
//!   ([`claims::lasting_instruction`]: `remember …`, `from now on …`, `always run …`,
//!   今後…, 앞으로…, 以后…);
//! - a *correction* is a turn that corrects what came before it (the openers and phrases
//!   of `overruled`: `no`, `actually`, `instead`, いや, じゃなくて, 아니, 말고, 不是…)
//!   whose first sentence sets one thing against another: it denies a word and asserts
//!   another (`no, it's Postgres 16, not 15`, `don't add a cron job; use the queue`), or
//!   says `instead`/`rather than`/じゃなくて/말고/而是. The opener itself (`No,`) is
//!   dropped before the sentence is read, so it negates nothing.
//!
//! A memory sentence *states* one when they share two content words or more and one holds
//! 60% of the other's, with no opposite between them (`polarity`); it *contradicts* a
//! correction when, as close (and each holding 40% of the other), it says the opposite
//! (`claims::Statement::opposite`) and no memory sentence states it. A contradicting line
//! the dream added is flagged `correction-lost` (error) on its hunk. A contradicting line
//! that live memory already held and the dream left unchanged is no flag (rejecting a hunk
//! cannot fix it): the correction is listed as contradicted, naming the note line, for the
//! reviewer to edit by hand.
//!
//! **Deleted notes** are listed first, each with the number of sessions (a sub-agent's
//! transcript counts with its session) whose tools read it (`Read` of a path ending in the
//! memory folder's name and the note's path).

use super::entries::added_lines;
use super::window::{Stems, Window};
use crate::analysis::claims::{self, Statement};
use crate::analysis::findings::Findings;
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;
use crate::model::diff::FileStatus;
use crate::model::review::Review;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// The least share of one sentence's content words the other must hold.
const CLOSE: f32 = 0.6;

/// With [`CLOSE`] one way, the least share the other way for a contradiction.
const BOTH_WAYS: f32 = 0.4;

/// What kind of thing was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeftOutKind {
    /// A note the dream deletes.
    DeletedNote,
    /// A correction the user made.
    Correction,
    /// A lasting instruction the user gave.
    Instruction,
}

/// Whether the resulting memory holds a correction or instruction at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeftOutState {
    /// The memory neither states nor contradicts it.
    Missing,
    /// The memory says the opposite (`contradicted_by` names the line).
    Contradicted,
    /// The note is deleted.
    Deleted,
}

/// One thing the dream left out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeftOut {
    /// `deleted-note`, `correction` or `instruction`.
    pub kind: LeftOutKind,
    /// `missing`, `contradicted` or `deleted`.
    pub state: LeftOutState,
    /// The user's sentence (secrets masked, one line), or the deleted note's path.
    pub text: String,
    /// Where the user said it, as `file:line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// For a deleted note, how many sessions of the window read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_by: Option<usize>,
    /// For a contradicted correction, the memory line that says the opposite, as
    /// `note.md:12`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contradicted_by: Option<String>,
    /// True when that line is one the dream adds (its hunk carries `correction-lost`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flagged: bool,
}

impl LeftOut {
    /// One line for the reviewer: `deleted note testing.md (read in 2 sessions)`,
    /// `correction at x.jsonl:8 contradicted by notes.md:4: «…»`, `instruction at …: «…»`.
    pub fn describe(&self) -> String {
        match self.kind {
            LeftOutKind::DeletedNote => {
                let reads = match self.read_by.unwrap_or(0) {
                    0 => "read in no session of the window".to_string(),
                    1 => "read in 1 session of the window".to_string(),
                    n => format!("read in {n} sessions of the window"),
                };
                format!("deleted note {} ({reads})", self.text)
            }
            kind => {
                let what = if kind == LeftOutKind::Correction { "correction" } else { "instruction" };
                let at = self.source.as_deref().unwrap_or("?");
                match &self.contradicted_by {
                    Some(by) => format!("{what} at {at}, contradicted by {by}: «{}»", self.text),
                    None => format!("{what} at {at}, not in the memory: «{}»", self.text),
                }
            }
        }
    }
}

/// One line of the resulting memory.
struct MemoryLine {
    path: String,
    /// 1-based.
    number: usize,
    text: String,
    /// The hunk that adds it, when the dream adds it.
    added: Option<(usize, usize)>,
}

/// The resulting memory's lines and their sentences, indexed by content word.
struct Memory {
    lines: Vec<MemoryLine>,
    sentences: Vec<(usize, Statement)>,
    index: Stems<usize>,
}

/// Finds what the dream left out, and flags added lines that contradict a correction.
pub(super) fn check(review: &Review, window: &Window, findings: &mut Findings) -> Vec<LeftOut> {
    let mut out = deleted_notes(review, window);
    let items = said_items(window);
    if items.is_empty() {
        return out;
    }
    let memory = memory(review);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut rest = Vec::new();
    for item in items {
        if !seen.insert(item.text.to_lowercase()) {
            continue;
        }
        match judge(&item, &memory) {
            Judged::Stated => {}
            Judged::Missing => rest.push(item.report(LeftOutState::Missing, None, false)),
            Judged::Contradicted(li) => {
                let line = &memory.lines[li];
                let at = format!("{}:{}", line.path, line.number);
                let flagged = item.kind == LeftOutKind::Correction
                    && line.added.is_some_and(|(fi, hi)| flag_lost(findings, fi, hi, &item, line, &at));
                rest.push(item.report(LeftOutState::Contradicted, Some(at), flagged));
            }
        }
    }
    rest.sort_by_key(|l| (l.kind, l.state != LeftOutState::Contradicted));
    out.extend(rest);
    out
}

/// Adds `correction-lost` to hunk `hi` of file `fi` for `line`; false when a flag of its
/// own already says the line turns its source around.
fn flag_lost(findings: &mut Findings, fi: usize, hi: usize, item: &Item, line: &MemoryLine, at: &str) -> bool {
    let text = crate::base::text::strip_terminator(&line.text);
    let said = findings.hunk(crate::model::ids::HunkId::new(fi, hi)).iter().any(|f| {
        matches!(f.kind, FlagKind::Contradicted | FlagKind::CitationOverruled)
            && f.line.as_deref() == Some(mask(text).as_ref())
    });
    if said {
        return false;
    }
    let shown = crate::base::text::one_line_cut(&mask(text.trim()), 200);
    let message = format!("«{shown}» ({at}) still says what the user corrected at {}: «{}»", item.source, item.text);
    let flag = Flag::new(FlagKind::CorrectionLost, message)
        .with_source(item.source.clone())
        .with_claim(shown)
        .with_line(mask(text).into_owned());
    findings.add_hunk_flag(crate::model::ids::HunkId::new(fi, hi), flag);
    true
}

/// The notes the dream deletes, each with the sessions that read it.
fn deleted_notes(review: &Review, window: &Window) -> Vec<LeftOut> {
    let folder = review.inputs.memory.file_name().map(Path::new).unwrap_or(Path::new(""));
    let mut out = Vec::new();
    for f in review.files.iter().filter(|f| f.status == FileStatus::Deleted && f.kind.writable()) {
        let note = folder.join(&f.path);
        let readers: BTreeSet<&str> = window
            .sessions
            .iter()
            .filter(|s| s.reads.iter().any(|r| Path::new(&r.path).ends_with(&note)))
            .map(|s| s.key.as_str())
            .collect();
        out.push(LeftOut {
            kind: LeftOutKind::DeletedNote,
            state: LeftOutState::Deleted,
            text: mask(&f.path).into_owned(),
            source: None,
            read_by: Some(readers.len()),
            contradicted_by: None,
            flagged: false,
        });
    }
    out.sort_by(|a, b| b.read_by.cmp(&a.read_by).then_with(|| a.text.cmp(&b.text)));
    out
}

/// A correction or lasting instruction the user typed.
struct Item {
    kind: LeftOutKind,
    /// The sentence, masked, one line.
    text: String,
    source: String,
    /// What is compared with the memory: its clauses, and their parts between commas and
    /// dashes (`run the full suite with pytest - that's how we run it from now on`).
    clauses: Vec<Statement>,
    /// The values it states (numbers, times, versions, code): a memory line that holds
    /// them all and shares two content words with it states it, however it is phrased.
    values: Vec<claims::Claim>,
    /// For a correction that sets one value against another (`it's Postgres 16, not 15`),
    /// the values it denies and those it asserts, and the content words around them (its
    /// subject).
    contrast: Option<Contrast>,
}

/// The two sides of a correction of a value: the values each side holds (lowercase:
/// numbers and versions as written, `90s`, `16`, `3.11`, and the value claims of it).
struct Contrast {
    denied: Vec<String>,
    asserted: Vec<String>,
    subject: Vec<String>,
}

/// The values of one side of a correction: its number-like tokens (digits, with the dots
/// and letters joined to them: `16`, `3.11.4`, `90s`). A name is no value here: the
/// subject (`Postgres`) stands on both sides.
fn side_values(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
        .map(|t| t.trim_matches('.'))
        .filter(|t| t.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_lowercase)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// True when `value` stands in the lowercase `text` not inside a longer number or word.
fn holds(text: &str, value: &str) -> bool {
    text.match_indices(value).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + value.len()..].chars().next();
        let joined = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '.');
        let after_dot_digit =
            text[at + value.len()..].strip_prefix('.').is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
        !(joined(before) || after.is_some_and(char::is_alphanumeric) || after_dot_digit)
    })
}

/// Where the denied side of a correction is: after an English `not`, `instead of`,
/// `rather than` and Chinese `不是` (up to the next comma), before a Japanese `じゃなくて`
/// or a Korean `말고`, `아니라` (from the last comma).
const DENIED_AFTER: &[&str] = &[" not ", "instead of ", "rather than ", "不是"];
const DENIED_BEFORE: &[&str] = &["じゃなくて", "ではなく", "じゃなく", "말고", "아니라", "아니고"];

/// The value contrast of a correction's body, when one side denies a value and the other
/// asserts one.
fn contrast(body: &str) -> Option<Contrast> {
    let lower = body.to_lowercase();
    let stop = |c: char| ",，、.。;；!！?？\n".contains(c);
    let (denied, asserted) = if let Some((m, at)) = DENIED_AFTER.iter().find_map(|m| lower.find(m).map(|at| (m, at))) {
        let from = at + m.len();
        let end = lower[from..].find(stop).map_or(lower.len(), |e| from + e);
        let rest = format!("{} {}", &lower[..at], &lower[end..]);
        (lower[from..end].to_string(), rest)
    } else if let Some((m, at)) = DENIED_BEFORE.iter().find_map(|m| lower.find(m).map(|at| (m, at))) {
        let start = lower[..at].rfind(stop).map_or(0, |s| s + lower[s..].chars().next().map_or(1, char::len_utf8));
        let rest = format!("{} {}", &lower[..start], &lower[at + m.len()..]);
        (lower[start..at].to_string(), rest)
    } else {
        return None;
    };
    let denied = side_values(&denied);
    let asserted: Vec<String> = side_values(&asserted).into_iter().filter(|v| !denied.contains(v)).collect();
    if denied.is_empty() || asserted.is_empty() {
        return None;
    }
    let subject: Vec<String> =
        claims::content_stems(body).into_iter().filter(|s| !s.starts_with(|c: char| c.is_ascii_digit())).collect();
    Some(Contrast { denied, asserted, subject })
}

/// The clauses of `text` and their parts between commas, colons and dashes, each with two
/// content words or more.
fn parts(text: &str) -> Vec<Statement> {
    let mut out: Vec<Statement> = claims::clauses(text).into_iter().filter(|c| c.content.len() >= 2).collect();
    let pieces: Vec<&str> =
        text.split([',', '，', '、', ';', '；', ':', '：', '—', '–']).flat_map(|p| p.split(" - ")).collect();
    if pieces.len() > 1 {
        out.extend(pieces.into_iter().map(claims::statement_of).filter(|c| c.content.len() >= 2));
    }
    out
}

/// The values of `text` a memory line must hold to state it.
fn values(text: &str) -> Vec<claims::Claim> {
    use claims::ClaimKind;
    claims::extract(text).into_iter().filter(|c| !matches!(c.kind, ClaimKind::Link | ClaimKind::Date)).collect()
}

impl Item {
    fn report(&self, state: LeftOutState, contradicted_by: Option<String>, flagged: bool) -> LeftOut {
        LeftOut {
            kind: self.kind,
            state,
            text: self.text.clone(),
            source: Some(self.source.clone()),
            read_by: None,
            contradicted_by,
            flagged,
        }
    }
}

/// Openers of a correction that say no more than that (dropped before the sentence is
/// read, with the punctuation after them).
const INTERJECTIONS: &[&str] = &[
    "no",
    "nope",
    "nah",
    "actually",
    "wait",
    "wrong",
    "incorrect",
    "いや",
    "いいえ",
    "違う",
    "違います",
    "ちがう",
    "아니",
    "아뇨",
    "아니요",
    "아니야",
    "不是",
    "不对",
    "不對",
    "错了",
];

/// Contrast markers: the sentence sets one thing against another.
const CONTRAST: &[&str] = &[
    " instead",
    "rather than",
    "じゃなくて",
    "ではなく",
    "じゃない",
    "말고",
    "아니라",
    "而是",
    "不是",
    "换成",
    "改成",
];

/// The corrections and lasting instructions of the window, in session order.
fn said_items(window: &Window) -> Vec<Item> {
    let mut out = Vec::new();
    for (session, t) in window.said() {
        let source = session.loc(t.line);
        let one = |s: &str| crate::base::text::one_line_cut(&mask(s.trim()), 300);
        if let Some(first) = correction(&t.text) {
            let body = strip_interjection(first);
            let (clauses, values, contrast) = (parts(body), values(body), contrast(body));
            out.push(Item { kind: LeftOutKind::Correction, text: one(first), source, clauses, values, contrast });
            continue;
        }
        for s in &t.sentences {
            let sentence = t.sentence(s);
            if claims::lasting_instruction(sentence) {
                let (clauses, values) = (parts(sentence), values(sentence));
                let item = Item {
                    kind: LeftOutKind::Instruction,
                    text: one(sentence),
                    source: source.clone(),
                    clauses,
                    values,
                    contrast: None,
                };
                out.push(item);
            }
        }
    }
    out
}

/// The first sentence of a correction the user typed, when `text` corrects by setting one
/// thing against another (read without its opener).
fn correction(text: &str) -> Option<&str> {
    if !super::overruled::corrects(text) {
        return None;
    }
    let trimmed = text.trim();
    let first = &trimmed[..first_sentence_end(trimmed)];
    if claims::hedged(first) {
        return None;
    }
    let body = strip_interjection(first);
    let clauses: Vec<Statement> = claims::clauses(body).into_iter().filter(|c| c.content.len() >= 2).collect();
    let lower = body.to_lowercase();
    let denies = clauses.iter().any(|c| c.content.iter().any(|w| w.negated) || c.poles.iter().any(|p| p.negated));
    let asserts = clauses.iter().any(|c| c.content.iter().any(|w| !w.negated));
    let sets_against = CONTRAST.iter().any(|m| lower.contains(m));
    let said = !clauses.is_empty() && (sets_against || denies && asserts);
    (said || contrast(body).is_some()).then_some(first)
}

/// Where the first sentence of `text` ends (after its mark): at `.`, `!` or `?` before a
/// space or the end (not the dot of `xterm.js` or `4.0.0`), at `。！？` or a line break.
fn first_sentence_end(text: &str) -> usize {
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        let soft = matches!(c, '.' | '!' | '?') && text[end..].chars().next().is_none_or(char::is_whitespace);
        if soft || matches!(c, '。' | '！' | '？' | '\n') {
            return end;
        }
    }
    text.len()
}

/// `text` without an opening interjection (`No, `, `Actually — `, `いや、`).
fn strip_interjection(text: &str) -> &str {
    let t = text.trim_start_matches(|c: char| !c.is_alphanumeric() && !crate::base::text::is_cjk(c));
    let lower = t.to_lowercase();
    for i in INTERJECTIONS {
        // `t` and its lowercase may differ in length (`K` is three bytes, `k` one).
        if lower.starts_with(i)
            && let Some(rest) = t.get(i.len()..).filter(|_| t[..i.len()].eq_ignore_ascii_case(i) || !i.is_ascii())
        {
            let latin_word_goes_on = i.is_ascii() && rest.starts_with(|c: char| c.is_alphanumeric());
            let punct = rest.starts_with(|c: char| ",，、.。!！:：;—–- ".contains(c));
            // A CJK interjection followed by a space opens a phrase (`不是 15`), not a no.
            let phrase = !i.is_ascii() && rest.starts_with(' ');
            if !latin_word_goes_on && punct && !phrase {
                return rest.trim_start_matches(|c: char| ",，、.。!！:：;—–- ".contains(c));
            }
        }
    }
    t
}

/// The resulting memory (the proposal, with the live notes it leaves alone).
fn memory(review: &Review) -> Memory {
    let mut lines = Vec::new();
    let changed: BTreeSet<&str> = review.files.iter().map(|f| f.path.as_str()).collect();
    let note = |p: &str| p.ends_with(".md") && p.rsplit('/').next().is_none_or(|n| n != "CHANGES.md");
    let mut push = |path: &str, text: &str, added: &HashMap<usize, (usize, usize)>| {
        for (i, l) in crate::base::text::split_lines(text).into_iter().enumerate() {
            let number = i + 1;
            lines.push(MemoryLine {
                path: path.to_string(),
                number,
                text: l.to_string(),
                added: added.get(&number).copied(),
            });
        }
    };
    for (path, e) in &review.live {
        if changed.contains(path.as_str()) || !note(path) {
            continue;
        }
        if let Some(text) = e.bytes().and_then(|b| std::str::from_utf8(b).ok()) {
            push(path, text, &HashMap::new());
        }
    }
    for (fi, f) in review.files.iter().enumerate() {
        let text = f.proposed.as_ref().and_then(|e| e.bytes()).and_then(|b| std::str::from_utf8(b).ok());
        let Some(text) = text.filter(|_| f.kind.writable() && note(&f.path)) else { continue };
        let added: HashMap<usize, (usize, usize)> = (0..f.hunks.len())
            .flat_map(|hi| added_lines(f, hi).into_iter().map(move |(n, _, _)| (n, (fi, hi))))
            .collect();
        push(&f.path, text, &added);
    }
    let mut sentences = Vec::new();
    let mut index = Stems::default();
    for (li, l) in lines.iter().enumerate() {
        if l.text.trim_start().starts_with("---") {
            continue;
        }
        for s in claims::statements(&l.text) {
            index.add(sentences.len(), &s);
            sentences.push((li, s));
        }
    }
    Memory { lines, sentences, index }
}

/// What the memory does with an item.
enum Judged {
    Stated,
    Missing,
    /// The line (an index into `Memory::lines`) that says the opposite.
    Contradicted(usize),
}

/// Whether the memory states, contradicts or leaves out `item`.
fn judge(item: &Item, memory: &Memory) -> Judged {
    if let Some(c) = &item.contrast {
        return judge_values(c, memory);
    }
    let mut against = None;
    for c in &item.clauses {
        for si in memory.index.near(c) {
            let Some((li, m)) = memory.sentences.get(si) else { continue };
            if m.shared(c) < 2 {
                continue;
            }
            let text = memory.lines.get(*li).map_or("", |l| l.text.as_str());
            if !item.values.is_empty() && item.values.iter().all(|v| claims::occurs_in(v, text)) {
                return Judged::Stated;
            }
            let (one, other) = (c.covered_by(m), m.covered_by(c));
            let opposite = m.opposite(c).is_some() || c.opposite(m).is_some();
            // Stated, also in other words: three words shared and 40% one way (CJK pairs
            // of a paraphrase share few: 值班交接…改成了每周一 / 值班轮换改为每周一…交接).
            let loose = m.shared(c) >= 3 && one.max(other) >= BOTH_WAYS;
            if !opposite && (one.max(other) >= CLOSE || loose) {
                return Judged::Stated;
            }
            if one.max(other) < CLOSE {
                continue;
            }
            // The line must hold the correction's whole clause, or three of its words: `Kim
            // turned the nightly cron job down` shares only `cron job` with `don't add a cron
            // job`.
            let holds_it = m.shared(c) >= 3 || one >= 1.0;
            if holds_it && one.min(other) >= BOTH_WAYS && against.is_none() {
                against = Some(*li);
            }
        }
    }
    match against {
        Some(li) if item.kind == LeftOutKind::Correction => Judged::Contradicted(li),
        // An instruction the memory turns around is left to the claim checks: listed as
        // contradicted, never flagged here.
        Some(li) => Judged::Contradicted(li),
        None => Judged::Missing,
    }
}

/// A value correction: stated by a line that holds every asserted value and speaks of its
/// subject; contradicted by one that speaks of its subject and holds a denied value but not
/// every asserted one.
fn judge_values(c: &Contrast, memory: &Memory) -> Judged {
    let mut against = None;
    for (li, l) in memory.lines.iter().enumerate() {
        if l.text.trim_start().starts_with("---") {
            continue;
        }
        let lower = l.text.to_lowercase();
        let has = |v: &String| holds(&lower, v);
        let (said, denied) = (c.asserted.iter().all(has), c.denied.iter().any(has));
        if !said && !denied {
            continue;
        }
        let stems = claims::content_stems(&l.text);
        if !c.subject.iter().any(|s| stems.binary_search(s).is_ok()) {
            continue;
        }
        if said {
            return Judged::Stated;
        }
        if against.is_none() && !claims::negated(&l.text) {
            against = Some(li);
        }
    }
    against.map_or(Judged::Missing, Judged::Contradicted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_set_one_thing_against_another() {
        for (yes, first) in [
            (
                "No, don't add a cron job; use the existing job queue instead. Thanks",
                "No, don't add a cron job; use the existing job queue instead.",
            ),
            ("no, it's Postgres 16 not 15", "no, it's Postgres 16 not 15"),
            ("No — issue #1344 in xterm.js 4.0.0, not #1343. Thanks", "No — issue #1344 in xterm.js 4.0.0, not #1343."),
            ("いや、cron じゃなくてジョブキューを使って", "いや、cron じゃなくてジョブキューを使って"),
            ("아니, cron 말고 작업 큐를 써", "아니, cron 말고 작업 큐를 써"),
            ("不是 cron，而是用任务队列", "不是 cron，而是用任务队列"),
        ] {
            assert_eq!(correction(yes), Some(first), "{yes}");
        }
        for no in
            ["no thanks, that's all", "wait, what does this do?", "great, ship it", "No.", "actually let me check"]
        {
            assert!(correction(no).is_none(), "{no}");
        }
    }

    #[test]
    fn the_opener_negates_nothing() {
        assert_eq!(strip_interjection("No, use the queue"), "use the queue");
        assert_eq!(strip_interjection("Nothing changed"), "Nothing changed");
        assert_eq!(strip_interjection("いや、キューを使って"), "キューを使って");
        assert_eq!(strip_interjection("아니, 큐를 써"), "큐를 써");
    }
}
