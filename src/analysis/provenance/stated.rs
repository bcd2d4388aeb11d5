//! Whether the lines a hunk's entries cite state a claim: by its text, by the day a line
//! was said on, or by what a relative phrase of the line denotes on that day. Each
//! (message, claim) is decided once however many citations share the message.

use super::citations::{Cited, messages};
use super::cited_text::CitedText;
use super::overruled::Overruling;
use super::reading::{Reading, when_said};
use crate::analysis::claims::{self, Claim, ClaimKind, ClaimValue};
use crate::analysis::findings::ClaimStatus;
use crate::base::secrets::mask;
use crate::base::zone::{LocalDay, Zone};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// The verdict on a claim: its status, where (`file:line`), and for a contradicted or
/// overruled claim what the source says and which line overruled it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Verdict {
    pub(super) status: ClaimStatus,
    pub(super) source: Option<String>,
    pub(super) quote: Option<String>,
    pub(super) by: Option<String>,
}

impl Verdict {
    /// `status` at `source`.
    pub(super) fn at(status: ClaimStatus, source: Option<String>) -> Verdict {
        Verdict { status, source, quote: None, by: None }
    }
}

/// The verdict the cited messages give a claim of the note line `line`, if they give one:
/// **sourced** when a message states it (its text, or for a date the day of a line that
/// states the event); **overruled** when only messages the user turned down state it (and
/// the line does not record the refusal: it holds no negation); **contradicted** when a
/// message binds the claim's subject to another value. `None`: the cited lines say nothing
/// of it.
pub(super) fn judge_cited(c: &Claim, line: &str, evidence: &[&Cited], stated: &Stated) -> Option<Verdict> {
    let mut overruled: Option<(String, &Overruling)> = None;
    let mut changed: Option<(String, Overruling)> = None;
    let refused = refused_write(c, evidence, stated);
    for t in messages(evidence).into_iter().filter(|t| stated.states(t, c)) {
        match &t.overruled {
            // What a refused edit would have written, a message names only to deny it
            // (`#attendance への投稿は入れていません`): it sources nothing.
            None if refused && denied_in(c, t) => {}
            None => match changed_later(c, t, evidence, stated)
                .or_else(|| rejected_later(c, t, evidence, stated))
                .or_else(|| passed_over(c, t, evidence, stated))
                .or_else(|| edited_away(c, line, t, evidence))
            {
                None => return Some(Verdict::at(ClaimStatus::Sourced, Some(stated.line_stating(t, c)))),
                Some(o) => {
                    changed.get_or_insert((stated.line_stating(t, c), o));
                }
            },
            // Only what a refused edit would have written was refused: its path and what it
            // would have replaced stood before it and stand after. A directive after a
            // report, or a correction the note records, turns down nothing it says.
            Some(o) if !t.refuses(c) || !super::turned_down::turns_down(o, &t.text, line) => {
                return Some(Verdict::at(ClaimStatus::Sourced, Some(stated.line_stating(t, c))));
            }
            Some(o) => {
                overruled.get_or_insert((stated.line_stating(t, c), o));
            }
        }
    }
    let converted = || super::instants::converted(c, line, &messages(evidence));
    if let Some(loc) = sourced_by_day(c, line, evidence, stated).or_else(converted) {
        return Some(Verdict::at(ClaimStatus::Sourced, Some(loc)));
    }
    let overruled = overruled.or(changed.as_ref().map(|(loc, o)| (loc.clone(), o)));
    if let Some((loc, o)) = overruled {
        if claims::negated(line) {
            // The note records the refusal ("don't add a cron job"): the proposal sources it.
            return Some(Verdict::at(ClaimStatus::Sourced, Some(loc)));
        }
        let quote = mask(&o.text).into_owned();
        // A value a later edit replaced is contradicted by what the edit wrote.
        if o.how == super::overruled::How::Edited {
            return Some(Verdict {
                status: ClaimStatus::Contradicted,
                source: Some(o.loc.clone()),
                quote: Some(quote),
                by: None,
            });
        }
        return Some(Verdict {
            status: ClaimStatus::Overruled,
            source: Some(loc),
            quote: Some(quote),
            by: Some(o.loc.clone()),
        });
    }
    contradicted(c, line, evidence, stated)
}

/// True when a cited edit the user refused would have written `c`.
fn refused_write(c: &Claim, evidence: &[&Cited], stated: &Stated) -> bool {
    messages(evidence).into_iter().any(|t| {
        t.overruled.as_ref().is_some_and(|o| o.how == super::overruled::How::Rejected)
            && !t.written.is_empty()
            && t.refuses(c)
            && stated.states(t, c)
    })
}

/// True when every sentence of `t` naming `c` denies something.
fn denied_in(c: &Claim, t: &CitedText) -> bool {
    let (lower, needle) = (t.text.to_lowercase(), c.text.to_lowercase());
    let sentences = lower.split(['。', '!', '?', '！', '？', '\n']).flat_map(|s| s.split(". "));
    let mut naming = sentences.filter(|s| s.contains(&needle)).peekable();
    naming.peek().is_some() && naming.all(claims::negated)
}

/// The user's later word on a claim message `t` states: a cited message the user typed after
/// it, in the same session, that corrects (`on second thought`, `no,`, `actually`…) and gives
/// the claim's subject another value (`set retention to 30 days` … `on second thought, 14
/// days is enough`).
fn changed_later(c: &Claim, t: &CitedText, evidence: &[&Cited], stated: &Stated) -> Option<Overruling> {
    let (file, _) = t.loc.rsplit_once(':')?;
    messages(evidence).into_iter().find_map(|u| {
        let (ufile, uline) = u.loc.rsplit_once(':')?;
        let line: usize = uline.parse().ok()?;
        let later = ufile == file && line > t.last;
        (later
            && u.speaker == Some(crate::inputs::transcript::Speaker::User)
            && super::overruled::corrects(&u.text)
            && !stated.states(u, c)
            && (claims::another_value(c, &u.text) || takes_back(c, &u.text)))
        .then(|| super::overruled::corrected(line, &u.loc, &u.text))
    })
}

/// A proposal the assistant then made as a tool call the user turned down: message `t`, the
/// assistant's, states the claim, and a later cited message of the same session, before the
/// user typed anything, is a call stating it that the user rejected or interrupted (`50m 으로
/// 올리면 해결될 것 같습니다`, then an Edit to `50m` the user refused). The refusal is of the
/// proposal, however many lines apart its two wordings stand.
fn rejected_later(c: &Claim, t: &CitedText, evidence: &[&Cited], stated: &Stated) -> Option<Overruling> {
    use crate::inputs::transcript::Speaker;
    if t.speaker != Some(Speaker::Assistant) {
        return None;
    }
    let (file, _) = t.loc.rsplit_once(':')?;
    // The line of a message of the same session after `t`.
    let after = |u: &CitedText| {
        let (f, l) = u.loc.rsplit_once(':')?;
        l.parse::<usize>().ok().filter(|&l| f == file && l > t.last)
    };
    let all = messages(evidence);
    // The call proposes the claim: what it would write states it.
    let proposes = |u: &Arc<CitedText>| match u.written.is_empty() {
        true => stated.states(u, c),
        false => u.refuses(c),
    };
    let (line, o) = all
        .iter()
        .filter_map(|u| {
            let o = u.overruled.as_ref().filter(|o| o.how == super::overruled::How::Rejected)?;
            Some((after(u)?, o)).filter(|_| proposes(u))
        })
        .min_by_key(|(line, _)| *line)?;
    let typed_between = all.iter().any(|u| u.speaker == Some(Speaker::User) && after(u).is_some_and(|l| l < line));
    (!typed_between).then(|| o.clone())
}

/// An option the user passed over: the assistant's message `t` offers the claim's value and
/// another of the same unit (`a 3-day lookback covers p99… a 7-day lookback would cover even
/// the max`), and the user's next typed message picks the other (`go with 3 days`, or bare in
/// a correction: `no — keep 0.2` after `widen it from 0.2 mm to 0.25 mm`) without the
/// claim's.
fn passed_over(c: &Claim, t: &CitedText, evidence: &[&Cited], stated: &Stated) -> Option<Overruling> {
    use crate::inputs::transcript::Speaker;
    if t.speaker != Some(Speaker::Assistant) || !claims::another_value(c, &t.text) {
        return None;
    }
    let (file, _) = t.loc.rsplit_once(':')?;
    let (line, u) = messages(evidence)
        .into_iter()
        .filter(|u| u.speaker == Some(Speaker::User))
        .filter_map(|u| {
            let (f, l) = u.loc.rsplit_once(':')?;
            let l = l.parse::<usize>().ok().filter(|&l| f == file && l > t.last)?;
            Some((l, u))
        })
        .min_by_key(|(l, _)| *l)?;
    let offered = claims::amounts(&t.text);
    let picked = claims::amounts(&u.text).into_iter().any(|v| offered.contains(&v));
    // The pick may be bare (`no — keep 0.2` of `from 0.2 mm to 0.25 mm`) when it corrects.
    let of_the_unit = claims::another_value(c, &u.text) || super::overruled::corrects(&u.text);
    (picked && of_the_unit && !stated.states(u, c)).then(|| super::overruled::corrected(line, &u.loc, &u.text))
}

/// A value a later edit of the same session replaced: a cited edit after message `t` whose
/// replaced text (`old_string`) states the claim and whose written text gives its subject
/// another value (`BATCH_SIZE = 500` edited to `BATCH_SIZE = 200`). A note line that names
/// another value of the subject too records the change, not the old value.
fn edited_away(c: &Claim, line: &str, t: &CitedText, evidence: &[&Cited]) -> Option<Overruling> {
    let (file, _) = t.loc.rsplit_once(':')?;
    if claims::another_value(c, line) {
        return None;
    }
    let lower = line.to_lowercase();
    // The edit may be the stating message itself, or one before it that the message only
    // echoes (an edit's result showing the edited lines): what it replaced no longer stands.
    let echoes = |u: &CitedText| u.written.iter().any(|w| w.trim().len() >= 16 && t.text.contains(w.trim()));
    messages(evidence).into_iter().find_map(|u| {
        if u.replaced.is_empty() || u.overruled.is_some() {
            return None;
        }
        let (f, l) = u.place()?;
        let l = Some(l).filter(|&l| f == file && (l > t.last || u.loc == t.loc || echoes(u)))?;
        // A message that is the edit or shows it must state the value only where it shows
        // the edit: the lines around it in a result's snippet may hold it still.
        if l <= t.last {
            let mut rest = t.text.clone();
            for w in u.written.iter().chain(&u.replaced).filter(|w| !w.trim().is_empty()) {
                rest = rest.replace(w.trim(), "");
            }
            if claims::Haystack::dated(&rest, u.date).states(c) {
                return None;
            }
        }
        let old = u.replaced.join("\n");
        let new = u.written.join("\n");
        let replaced = claims::Haystack::dated(&old, u.date).states(c) && claims::contradiction(c, &new).is_some();
        // A word the edit wrote another in place of (`"-O2 -g0"` edited to `"-O1 -g0"`).
        let pairs = || u.replaced.iter().zip(&u.written).filter(|_| u.replaced.len() == u.written.len());
        let instead: Vec<String> = pairs().filter_map(|(o, n)| claims::replaced_word(c, o, n)).collect();
        // A note that names what was written instead records the change (`2000 → 5000`).
        if instead.iter().any(|w| lower.contains(&w.to_lowercase())) {
            return None;
        }
        (replaced || !instead.is_empty()).then(|| super::overruled::edited(l, &u.loc, &u.text))
    })
}

/// The first cited message that binds the claim's subject to another value. A proposal
/// the user turned down contradicts nothing (`pool_size: 50` in a rejected edit against a
/// note's `pool_size 20`), nor does any message when a line the user typed among the cited
/// ones gives the note's value and speaks of what the note speaks of: the user's word
/// outranks what a tool printed (`Elixir 1.15.7` in the output, `the project is on 1.17`
/// typed after it), and a message whose value the user changed to the note's in a later
/// correcting turn (`30日にして` … `やっぱり14日で十分`) no longer says it.
fn contradicted(c: &Claim, line: &str, evidence: &[&Cited], stated: &Stated) -> Option<Verdict> {
    let said_by_user = |t: &Arc<CitedText>| {
        t.speaker == Some(crate::inputs::transcript::Speaker::User)
            && bare_value(c).is_some_and(|v| has_token(&t.text, &v))
            && claims::shares_content(line, &t.text)
    };
    if messages(evidence).into_iter().any(said_by_user) {
        return None;
    }
    // A value the user gave, then changed to the note's in a later correcting turn.
    let changed_to_note = |t: &CitedText| {
        let Some((file, _)) = t.loc.rsplit_once(':') else { return false };
        messages(evidence).into_iter().any(|u| {
            u.loc.rsplit_once(':').is_some_and(|(f, l)| f == file && l.parse::<usize>().is_ok_and(|l| l > t.last))
                && u.speaker == Some(crate::inputs::transcript::Speaker::User)
                && super::overruled::corrects(&u.text)
                && bare_value(c).is_some_and(|v| has_token(&u.text, &v))
        })
    };
    for t in messages(evidence).into_iter().filter(|t| t.overruled.is_none() && !changed_to_note(t)) {
        if let Some(r) = stated.contradiction(t, c) {
            let quote = t.text.get(r.clone()).unwrap_or("").trim();
            let quote = mask(quote).into_owned();
            return Some(Verdict {
                status: ClaimStatus::Contradicted,
                source: Some(t.line_at(r.start)),
                quote: Some(quote),
                by: None,
            });
        }
    }
    None
}

/// The value of a number, port or version claim without its subject or unit (`1.17` of
/// `Elixir 1.17`, `20` of `pool size 20`).
fn bare_value(c: &Claim) -> Option<String> {
    match &c.value {
        ClaimValue::Number { value, .. } => Some(value.clone()),
        ClaimValue::Port { port, .. } => Some(port.clone()),
        ClaimValue::Text(v) if c.kind == ClaimKind::Version => Some(v.clone()),
        _ => None,
    }
}

/// True when a correction names the claim's number and gives another (`90은 너무 높다. 85로
/// 하자`, `not 30: 14`): the value is taken back, however either is written (`90%` in the
/// note, `90` in the correction).
fn takes_back(c: &Claim, text: &str) -> bool {
    let Some(ClaimValue::Number { value, .. }) = Some(&c.value) else { return false };
    let said = claims::amounts(text);
    said.iter().any(|v| v == value) && said.iter().any(|v| v != value)
}

/// True when `text` writes `token` whole: no letter, digit or dot joined to it.
fn has_token(text: &str, token: &str) -> bool {
    let joined = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.' || c == ',');
    text.match_indices(token).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + token.len()..].chars().next();
        // A sentence's full stop after it is no part of it.
        let after = after
            .filter(|&a| !(a == '.' && text[at + token.len() + 1..].chars().next().is_none_or(char::is_whitespace)));
        !joined(before) && !joined(after)
    })
}

/// A date sourced by the day a cited line was said on (or what its relative phrase
/// denotes), when that line states the event: it shares a word with the note line besides
/// the date. `file:line` of it.
fn sourced_by_day(c: &Claim, line: &str, evidence: &[&Cited], stated: &Stated) -> Option<String> {
    if c.kind != ClaimKind::Date {
        return None;
    }
    // The day rule takes the line's day as it is: with an unknown zone that is its UTC
    // day, no slack (a day of slack would let `late Oct 2026` be "stated" by any line of
    // 2026-11-01). The slack widens only what relative phrases denote.
    let by_day = |day: &LocalDay| claims::date_stated_by(c, day.day);
    // Only the line that states the event lends its day: a cited line (of a range, of a
    // whole daily note, or cited for another change of the hunk) lends it only when it
    // speaks of what the note line speaks of. The date itself is no such word.
    let event = c.start.min(line.len())..c.end.min(line.len());
    let rest = format!("{} {}", line.get(..event.start).unwrap_or(""), line.get(event.end..).unwrap_or(""));
    let states_event = |t: &CitedText| claims::shares_content(&rest, &t.text);
    // The words the date is bound to (`since the 2026-11-18 incident (INC-2211)`) name the
    // event more closely than the rest of the line: when a line states them, only such
    // lines lend their day (a sub-agent's line of another day that shares a file path with
    // the note line does not date the incident).
    let phrase = date_phrase(line, event.clone());
    let lenders: Vec<&Arc<CitedText>> = messages(evidence).into_iter().filter(|t| states_event(t)).collect();
    let closest: Vec<&Arc<CitedText>> =
        lenders.iter().copied().filter(|t| claims::shares_content(&phrase, &t.text)).collect();
    let lenders = if closest.is_empty() { lenders } else { closest };
    for t in lenders {
        // A day of the month said alone (`Thursday night (26th)`): that day of the month
        // nearest the day the line was said on.
        if let Some(day) = t.day
            && claims::ordinal_days(&t.text)
                .into_iter()
                .flat_map(|d| claims::ordinal_dates(d, day.day))
                .any(|d| claims::covers(c, (d, d)))
        {
            return Some(t.loc.clone());
        }
        let phrases = stated.phrases(t);
        if phrases.is_empty() {
            // No relative phrase: the line states the day it was said on.
            if let Some((loc, _)) = t.dates.iter().find(|(_, d)| by_day(d)) {
                return Some(loc.clone());
            }
        } else if let Some(day) = t.day
            && phrases.iter().any(|r| r.readings(day).any(|(_, denoted)| claims::covers(c, denoted)))
        {
            // A relative phrase: the days it denotes are what the line states.
            return Some(t.loc.clone());
        }
    }
    None
}

/// Words that open the phrase a date is bound to (`since the 2026-11-18 incident`).
const DATE_PHRASE_OPENERS: &[&str] =
    &["since", "when", "after", "before", "until", "till", "because", "while", "during", "following", "from"];

/// The words around the date at `event` of `line` that say what it dates: the phrase from
/// the comma, colon, dash or opening word (`since`, `when`, `after`…) before it to the one
/// after it, the date left out. Empty when the date stands alone (`Released on 2026-11-18.`
/// is dated by the whole line).
fn date_phrase(line: &str, event: std::ops::Range<usize>) -> String {
    let stop = |w: &str| {
        let bare = w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
        DATE_PHRASE_OPENERS.contains(&bare.as_str())
    };
    let edge = |c: char| matches!(c, ',' | ';' | ':' | '—' | '–' | '，' | '、' | '；' | '。');
    let before = line.get(..event.start).unwrap_or("");
    let after = line.get(event.end..).unwrap_or("");
    let mut head: Vec<&str> = Vec::new();
    for w in before.rsplit(|c: char| c.is_whitespace()) {
        if w.ends_with(edge) || w == "-" {
            break;
        }
        head.push(w);
        if stop(w) {
            break;
        }
    }
    head.reverse();
    let mut tail: Vec<&str> = Vec::new();
    for w in after.split(|c: char| c.is_whitespace()) {
        if stop(w) || w == "-" {
            break;
        }
        let end = w.find(edge);
        let word = end.map_or(w, |k| &w[..k]);
        let full_stop = word.ends_with('.');
        tail.push(word.trim_end_matches('.'));
        if end.is_some() || full_stop {
            break;
        }
    }
    format!("{} {}", head.join(" "), tail.join(" "))
}

/// True when a claim names a place (a path, a URL, or backticked code that is one): what a
/// tool call reads or fetches, never the command it runs.
fn is_location(c: &Claim) -> bool {
    match c.kind {
        ClaimKind::Path | ClaimKind::Url => true,
        ClaimKind::Code => !c.text.contains(char::is_whitespace) && (c.text.contains('/') || c.text.contains('.')),
        _ => false,
    }
}

/// A (message, claim) pair: the message by its shared text, the claim by what it says and
/// what it is about (`3` retries and `3` workers are two claims).
type StateKey = (usize, ClaimKind, String, Option<claims::Subject>);

fn state_key(t: &Arc<CitedText>, c: &Claim) -> StateKey {
    (Arc::as_ptr(t) as usize, c.kind, c.text.clone(), c.subject.clone())
}

/// Memo of which shared cited message states which claim, and of each message's relative
/// phrases.
#[derive(Default)]
pub(super) struct Stated {
    states: RefCell<HashMap<StateKey, bool>>,
    lines: RefCell<HashMap<StateKey, String>>,
    phrases: RefCell<HashMap<usize, Rc<Vec<claims::Relative>>>>,
    contradictions: RefCell<HashMap<StateKey, Option<std::ops::Range<usize>>>>,
}

impl Stated {
    /// Where the message binds the claim's subject to another value; each (message,
    /// claim) is read once, however many entries cite the message.
    fn contradiction(&self, t: &Arc<CitedText>, c: &Claim) -> Option<std::ops::Range<usize>> {
        let key = state_key(t, c);
        if let Some(known) = self.contradictions.borrow().get(&key) {
            return known.clone();
        }
        let found = claims::contradiction(c, &t.text);
        self.contradictions.borrow_mut().insert(key, found.clone());
        found
    }

    /// True when the message says the claim; each (message, claim) is decided once.
    fn states(&self, t: &Arc<CitedText>, c: &Claim) -> bool {
        let key = state_key(t, c);
        if let Some(&known) = self.states.borrow().get(&key) {
            return known;
        }
        // A path or URL is stated by a cited result through the call that read it; a
        // version printed in a result, of the product the call fetched (`WebFetch
        // https://hex.pm/packages/opentelemetry_api` → `1.5.0`).
        let through_call = || match c.kind {
            ClaimKind::Path | ClaimKind::Url | ClaimKind::Code => {
                is_location(c) && t.inputs.iter().any(|(_, input)| claims::occurs_in(c, input))
            }
            ClaimKind::Version if c.subject.is_some() && !t.inputs.is_empty() => {
                let inputs: Vec<&str> = t.inputs.iter().map(|(_, i)| i.as_str()).collect();
                claims::occurs_in(c, &format!("{}\n{}", inputs.join("\n"), t.text))
            }
            _ => false,
        };
        let said =
            claims::Haystack::dated(&t.text, t.date).states(c) || through_call() || claims::total_stated(c, &t.text);
        self.states.borrow_mut().insert(key, said);
        said
    }

    /// `file:line` of the line of the message that states the claim, found once.
    fn line_stating(&self, t: &Arc<CitedText>, c: &Claim) -> String {
        let key = state_key(t, c);
        if let Some(known) = self.lines.borrow().get(&key) {
            return known.clone();
        }
        let line = t.line_stating(c);
        self.lines.borrow_mut().insert(key, line.clone());
        line
    }

    /// The relative phrases of a message, found once.
    fn phrases(&self, t: &Arc<CitedText>) -> Rc<Vec<claims::Relative>> {
        let key = Arc::as_ptr(t) as usize;
        if let Some(known) = self.phrases.borrow().get(&key) {
            return Rc::clone(known);
        }
        let found = Rc::new(claims::relative_phrases(&t.text));
        self.phrases.borrow_mut().insert(key, Rc::clone(&found));
        found
    }
}

/// The relative phrase of a cited message that tells most about a date claim: the first
/// whose days the claim overlaps (it was probably computed from it), else the first one said
/// (the claim lies outside what it denotes). `None` when no cited message says one.
pub(super) fn cited_reading(c: &Claim, evidence: &[&Cited], stated: &Stated, zone: &Zone) -> Option<Reading> {
    if c.kind != ClaimKind::Date {
        return None;
    }
    let mut outside: Option<Reading> = None;
    for t in messages(evidence) {
        let Some(day) = t.day else { continue };
        for r in stated.phrases(t).iter() {
            let when = when_said(zone, t.time.as_deref(), t.local_time.as_deref());
            let reading = Reading::new(c, r, day, t.loc.clone(), when);
            if reading.overlaps {
                return Some(reading);
            }
            outside.get_or_insert(reading);
        }
    }
    outside
}

#[cfg(test)]
mod tests {
    use super::date_phrase;

    fn phrase(line: &str, date: &str) -> String {
        let at = line.find(date).unwrap();
        date_phrase(line, at..at + date.len()).split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn a_date_is_bound_to_the_words_of_its_phrase() {
        let line = "`ACKS_LATE=True` is set in `base.py` since the 2026-11-18 incident (INC-2211), when receipts were sent twice.";
        assert_eq!(phrase(line, "2026-11-18"), "since the incident (INC-2211)");
        assert_eq!(phrase("Upgraded Django on 2026-11-17 after the outage", "2026-11-17"), "Upgraded Django on");
        assert_eq!(phrase("Released: 2026-11-18.", "2026-11-18"), "");
        assert_eq!(phrase("On-call swap — 2026-11-18, Omar covers", "2026-11-18"), "");
        assert_eq!(
            phrase("2026年11月18日の障害（INC-2211）以来、設定した", "2026年11月18日"),
            "の障害（INC-2211）以来"
        );
    }
}
