//! What the user said that should last: the corrections and lasting instructions typed
//! in the window's sessions, each with the clauses and values compared with the memory.

use super::super::window::Window;
use super::report::{LeftOut, LeftOutKind, LeftOutState};
use crate::analysis::claims::{self, Statement};
use crate::base::secrets::mask;

/// A correction or lasting instruction the user typed.
pub(super) struct Item {
    pub(super) kind: LeftOutKind,
    /// The sentence, masked, one line.
    pub(super) text: String,
    pub(super) source: String,
    /// What is compared with the memory: its clauses, and their parts between commas and
    /// dashes (`run the full suite with pytest - that's how we run it from now on`).
    pub(super) clauses: Vec<Statement>,
    /// Its parts between commas and dashes, when it has more than one: each must be held
    /// in part (`Omar owns the payments app, and Dana reviews every migration`).
    pub(super) pieces: Vec<Statement>,
    /// The values it states (numbers, times, versions, code): a memory line that holds
    /// them all and shares two content words with it states it, however it is phrased.
    pub(super) values: Vec<claims::Claim>,
    /// For a correction that sets one value against another (`it's Postgres 16, not 15`),
    /// the values it denies and those it asserts, and the content words around them (its
    /// subject).
    pub(super) contrast: Option<Contrast>,
    /// It answers the assistant (the assistant spoke before it in the session). A
    /// correction that does not (the session's first prompt: `check the config — I don't
    /// want to run out of disk`) corrects nothing the memory must record; it is reported
    /// only when the memory says the opposite (`please don't squash my branches` against
    /// a note that the user prefers squash merges).
    pub(super) replying: bool,
}

/// The two sides of a correction of a value: the values each side holds (lowercase:
/// numbers and versions as written, `90s`, `16`, `3.11`, and the value claims of it).
pub(super) struct Contrast {
    pub(super) denied: Vec<String>,
    pub(super) asserted: Vec<String>,
    pub(super) subject: Vec<String>,
}

/// The values of one side of a correction: its number-like tokens (digits, with the dots
/// and letters joined to them: `16`, `3.11.4`, `90s`). A name is no value here: the
/// subject (`Postgres`) stands on both sides.
pub(super) fn side_values(text: &str) -> Vec<String> {
    // A figure with thousands separators is one value (`4,500`), not two.
    let text = ungrouped(text);
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

/// True when `text`, said without anything to answer, still sets a standing fact against
/// another: a part (between sentence marks, commas, semicolons and dashes) forbids the
/// agent something (it opens with `don't`, `do not`, `never` after `please`, `and`, `but`;
/// `しないで`, `하지 마`, `别`, `不要`), or the text says what changed (`we don't use Redis
/// anymore`, `no longer`, `switched to`, `instead`; もう…ない, 더 이상, 不再). `I don't want
/// to run out of disk` is a wish about the task, `I don't care, pick one` no preference.
pub(super) fn forbids(text: &str) -> bool {
    const CJK: &[&str] =
        &["ないで", "하지 마", "하지마", "지 마세요", "别", "不要", "請勿", "请勿", "もう", "더 이상", "不再"];
    const CHANGED: &[&str] =
        &["anymore", "any more", "no longer", "switched to", "moved to", "replaced", " instead", "rather than"];
    let lower = text.to_lowercase();
    if CJK.iter().chain(CHANGED).any(|m| lower.contains(m)) {
        return true;
    }
    text.split(['.', ',', ';', '—', '–', '!', '?', '\n']).any(|part| {
        let lower = part.trim().to_lowercase();
        let mut rest = lower.as_str();
        for lead in ["please ", "and ", "but ", "so "] {
            rest = rest.strip_prefix(lead).unwrap_or(rest);
        }
        ["don't ", "dont ", "do not ", "never "].iter().any(|m| rest.starts_with(m))
    })
}

/// `text` with the thousands separators of its figures dropped (`€4,500` → `€4500`).
fn ungrouped(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let grouped = c == ','
            && i > 0
            && b[i - 1].is_ascii_digit()
            && b.get(i + 1..i + 4).is_some_and(|g| g.iter().all(u8::is_ascii_digit))
            && b.get(i + 4).is_none_or(|n| !n.is_ascii_digit());
        if !grouped {
            out.push(c);
        }
    }
    out
}

/// True when `value` stands in the lowercase `text` not inside a longer number or word,
/// or is one of its figures written otherwise (`4500` in `€4.5k`, `1200` in `1,200`).
pub(super) fn holds_value(text: &str, value: &str) -> bool {
    holds(text, value) || claims::amounts(text).iter().any(|a| a == value)
}

/// True when `value` stands in the lowercase `text` not inside a longer number or word.
pub(super) fn holds(text: &str, value: &str) -> bool {
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
/// content words or more: what is compared ([`Item::clauses`]), and the parts alone
/// ([`Item::pieces`], none when there is one).
fn parts(text: &str) -> (Vec<Statement>, Vec<Statement>) {
    let mut out: Vec<Statement> = claims::clauses(text).into_iter().filter(|c| c.content.len() >= 2).collect();
    let pieces: Vec<&str> =
        text.split([',', '，', '、', ';', '；', ':', '：', '—', '–']).flat_map(|p| p.split(" - ")).collect();
    if pieces.len() < 2 {
        return (out, Vec::new());
    }
    let pieces: Vec<Statement> = pieces
        .into_iter()
        .filter(|p| !marker_only(p))
        .map(claims::statement_of)
        .filter(|c| c.content.len() >= 2)
        .collect();
    out.extend(pieces.iter().cloned());
    (out, pieces)
}

/// True when `piece` only says that what follows should last: a marker and at most three
/// words (or CJK pairs: `覚えておいて`, `Remember`, `From now on`, `앞으로는`).
fn marker_only(piece: &str) -> bool {
    let markers = claims::marker_stems();
    claims::lasting(piece) && claims::content_stems(piece).iter().filter(|s| !markers.contains(*s)).count() <= 3
}

/// The values of `text` a memory line must hold to state it.
fn values(text: &str) -> Vec<claims::Claim> {
    use claims::ClaimKind;
    claims::extract(text).into_iter().filter(|c| !matches!(c.kind, ClaimKind::Link | ClaimKind::Date)).collect()
}

impl Item {
    pub(super) fn report(&self, state: LeftOutState, contradicted_by: Option<String>, flagged: bool) -> LeftOut {
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
pub(super) fn said_items(window: &Window) -> Vec<Item> {
    let mut out = Vec::new();
    for (session, t) in window.said() {
        let source = session.loc(t.line);
        let one = |s: &str| crate::base::text::one_line_cut(&mask(s.trim()), 300);
        if let Some(first) = correction(&t.text) {
            let body = strip_interjection(first);
            let ((clauses, pieces), values, contrast) = (parts(body), values(body), contrast(body));
            let text = one(first);
            let replying = t.replying;
            out.push(Item { kind: LeftOutKind::Correction, text, source, clauses, pieces, values, contrast, replying });
            continue;
        }
        for s in &t.sentences {
            let sentence = t.sentence(s);
            if claims::lasting_instruction(sentence) {
                let ((clauses, pieces), values) = (parts(sentence), values(sentence));
                let item = Item {
                    kind: LeftOutKind::Instruction,
                    text: one(sentence),
                    source: source.clone(),
                    clauses,
                    pieces,
                    values,
                    contrast: None,
                    replying: t.replying,
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
    if !super::super::overruled::corrects(text) {
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
    fn a_prohibition_is_told_from_a_wish() {
        assert!(forbids("I like rebase merges that keep every commit, please don't squash my branches."));
        assert!(forbids("Never push to main without a PR"));
        assert!(forbids("main に直接 push しないで"));
        assert!(forbids("we don't use Redis anymore, sessions moved to ETS"));
        assert!(!forbids("yarn or pnpm, I honestly don't care, pick one"));
        assert!(!forbids(
            "Before I kick off the fine-tune, check the config is sane — I don't want to run out of disk."
        ));
    }

    #[test]
    fn the_opener_negates_nothing() {
        assert_eq!(strip_interjection("No, use the queue"), "use the queue");
        assert_eq!(strip_interjection("Nothing changed"), "Nothing changed");
        assert_eq!(strip_interjection("いや、キューを使って"), "キューを使って");
        assert_eq!(strip_interjection("아니, 큐를 써"), "큐를 써");
    }
}
