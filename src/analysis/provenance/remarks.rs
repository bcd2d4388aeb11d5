//! Rule or remark: how often the user said a standing rule a note line states, and
//! `one-off` for a rule built from a single passing remark.
//!
//! A note line is a standing rule when it tells the agent what to do as a rule
//! ([`claims::mood`] is [`Mood::Rule`]: `always`, `never`, `must`, `prefer`, `make sure`,
//! 必ず, 항상, 总是…). The user *said* it in a turn they typed (never a tool's result, a
//! skill's text or the assistant: see `window`) when a sentence of that turn holds most of
//! a clause of the line's content words (60%, and two words at least: the matching the
//! injected-instruction check uses) and does not say its opposite. Every session of the
//! window is read, not only the cited ones: a rule is only as standing as the times it was
//! said. The count — turns, sessions, local days — goes beside the hunk's verdicts.
//!
//! `one-off` (info): exactly one turn says it, and the sentence that says it is neither
//! lasting (`from now on`, `always`, `remember`, `every time`, いつも, 今後, 항상, 앞으로,
//! 以后, 总是…) nor a rule in the user's own words (`must`, `has to`, 必ず, 반드시, 必须):
//! a request for one task became a rule for every session. The markers are read in the
//! user's sentence, never in the note. A rule the user never typed is left to the other
//! checks (it is unsourced, the assistant's, or an injected instruction).

use super::entries::added_lines;
use super::window::{Said, Session, Stems, Window};
use crate::analysis::claims::{self, Mood, Statement};
use crate::analysis::findings::{Findings, RuleSupport};
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;
use crate::model::ids::HunkId;
use crate::model::review::Review;
use rayon::prelude::*;
use std::collections::BTreeSet;

/// The least share of a note clause's content words a sentence of the user must hold.
const CLOSE: f32 = 0.6;

/// The least share of a user's sentence's content words (three at least) a note clause
/// must hold when it says more than the sentence.
const WHOLE: f32 = 0.8;

/// How many places a support lists.
const SHOWN: usize = 5;

/// The added lines of the dream's notes that state a standing rule, with their clauses
/// ([`rule_clauses`]), in review order: read once, on both cores, for [`rule_stems`] and
/// [`check`].
pub(super) struct RuleLines<'r>(Vec<(HunkId, &'r str, Vec<Statement>)>);

/// The [`RuleLines`] of `review`.
pub(super) fn rule_lines(review: &Review) -> RuleLines<'_> {
    let mut out = Vec::new();
    for (fi, f) in review.files.iter().enumerate() {
        if !f.kind.writable() {
            continue;
        }
        let ids: Vec<HunkId> = review.hunks_of(fi).collect();
        let read: Vec<Vec<(HunkId, &str, Vec<Statement>)>> = ids
            .par_iter()
            .map(|&id| {
                added_lines(f, id.hunk)
                    .into_iter()
                    .filter_map(|(_, _, line)| {
                        let text = crate::base::text::strip_terminator(&line.text);
                        rule_clauses(text).map(|clauses| (id, text, clauses))
                    })
                    .collect()
            })
            .collect();
        out.extend(read.into_iter().flatten());
    }
    RuleLines(out)
}

/// Adds each hunk's [`RuleSupport`]s and its `one-off` flags (`rules`: the dream's rule
/// lines).
pub(super) fn check(rules: &RuleLines, window: &Window, findings: &mut Findings) {
    let mut said: Stems<(usize, usize, usize)> = Stems::default();
    for (si, s) in window.sessions.iter().enumerate() {
        for (ti, t) in s.said.iter().enumerate() {
            for (ci, c) in t.sentences.iter().enumerate() {
                said.add((si, ti, ci), c);
            }
        }
    }
    for (id, text, clauses) in &rules.0 {
        let support = support(text, clauses, window, &said);
        let flag = one_off(text, &support, window);
        if let Some(h) = findings.of_mut(*id) {
            h.rules.push(support.report);
        }
        if let Some(flag) = flag {
            findings.add_hunk_flag(*id, flag);
        }
    }
}

/// The content-word stems of every rule the dream's notes state (`rules`): a sentence of
/// the user that holds none of them supports none of those rules (see [`Stems::near`]).
pub(super) fn rule_stems(rules: &RuleLines) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    for (_, _, clauses) in &rules.0 {
        out.extend(clauses.iter().flat_map(|c| c.content.iter().map(|w| w.stem.clone())));
    }
    out
}

/// The clauses of a note line that states a standing rule, `None` for any other line.
fn rule_clauses(text: &str) -> Option<Vec<Statement>> {
    if text.trim_start().starts_with("---") || claims::mood(text) != Some(Mood::Rule) {
        return None;
    }
    // The clauses that state the rule (`Deploy: Vercel.` before it is a label, not a rule).
    let all = claims::statements(text);
    let ruled: Vec<Statement> =
        all.iter().filter(|c| claims::mood(text.get(c.range.clone()).unwrap_or("")).is_some()).cloned().collect();
    let mut clauses = if ruled.is_empty() { all } else { ruled };
    if clauses.is_empty() {
        let whole = claims::statement_of(text);
        if whole.content.len() < 2 {
            return None;
        }
        clauses.push(whole);
    }
    Some(clauses)
}

/// A rule's support and the sentences that give it, as (session, turn, sentence).
struct Support {
    report: RuleSupport,
    turns: Vec<(usize, usize, usize)>,
}

/// The turns of the window that say one of `clauses`.
fn support(line: &str, clauses: &[Statement], window: &Window, said: &Stems<(usize, usize, usize)>) -> Support {
    // The best sentence of each turn that says the line.
    let mut turns: Vec<(usize, usize, usize)> = Vec::new();
    for n in clauses {
        for (si, ti, ci) in said.near(n) {
            let Some(c) = window.sessions.get(si).and_then(|s| s.said.get(ti)).and_then(|t| t.sentences.get(ci)) else {
                continue;
            };
            // The note clause is in the sentence, or the whole sentence is in the note clause
            // (`run the suite with pytest -n 8` in `Run the full suite with pytest -n 8 before
            // every push (3 minutes)`).
            let within = n.covered_by(c) >= CLOSE || c.covered_by(n) >= WHOLE && n.shared(c) >= 3;
            let close = n.shared(c) >= 2 && within && n.opposite(c).is_none();
            if close && !turns.iter().any(|&(s, t, _)| (s, t) == (si, ti)) {
                turns.push((si, ti, ci));
            }
        }
    }
    turns.sort_unstable();
    let at = |&(si, ti, ci): &(usize, usize, usize)| -> Option<(&Session, &Said, &Statement)> {
        let s = window.sessions.get(si)?;
        let t = s.said.get(ti)?;
        Some((s, t, t.sentences.get(ci)?))
    };
    let found: Vec<(&Session, &Said, &Statement)> = turns.iter().filter_map(at).collect();
    let sessions: BTreeSet<&str> = found.iter().map(|(s, _, _)| s.key.as_str()).collect();
    let days: BTreeSet<crate::base::date::Date> = found.iter().filter_map(|(_, t, _)| t.day).collect();
    let lasting = found.iter().any(|(_, t, c)| {
        let sentence = t.sentence(c);
        claims::lasting(sentence) || claims::phrased_as_rule(sentence)
    });
    let report = RuleSupport {
        line: crate::base::text::one_line_cut(&mask(line.trim()), 200),
        remarks: found.len(),
        sessions: sessions.len(),
        days: days.len(),
        lasting,
        said: found.iter().take(SHOWN).map(|(s, t, _)| s.loc(t.line)).collect(),
    };
    Support { report, turns }
}

/// The `one-off` flag of a rule the user said once, as a passing remark.
fn one_off(line: &str, support: &Support, window: &Window) -> Option<Flag> {
    if support.report.remarks != 1 || support.report.lasting {
        return None;
    }
    let &(si, ti, ci) = support.turns.first()?;
    let session = window.sessions.get(si)?;
    let turn = session.said.get(ti)?;
    let sentence = turn.sentence(turn.sentences.get(ci)?);
    let shown = crate::base::text::one_line_cut(&mask(line.trim()), 200);
    let quote = crate::base::text::one_line_cut(&mask(sentence), 200);
    let loc = session.loc(turn.line);
    let message = format!(
        "«{shown}» is written as a standing rule, but the user said it once, at {loc}, as a remark for the task \
         at hand: «{quote}» (no \"from now on\", \"always\", \"remember\" or the like); keep it only if it is \
         meant to last"
    );
    Some(Flag::new(FlagKind::OneOff, message).with_source(loc).with_claim(shown).with_line(mask(line).into_owned()))
}
