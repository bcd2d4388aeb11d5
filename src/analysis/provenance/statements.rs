//! Sentences, not only their values: an added line restates a cited sentence, and must not
//! turn it around or restate a proposal the user turned down.
//!
//! Each clause of an added line that says something (two content words or more) is
//! matched to the cited clause that holds most of its content words (at least 60%, and two
//! words). When that clause
//! - asserts the opposite — one of the two is negated, or they use the two sides of an
//!   antonym pair (`required`/`optional`, `enabled`/`disabled`, 必須/任意…) — and no other
//!   cited clause as close says it the note's way, the line is `contradicted`;
//! - is in a message the user turned down (see `overruled`) and the line does not record
//!   the refusal, the line is `citation-overruled`.
//!
//! A line whose value claims already carry such a flag gets no second one. Only these
//! verdicts are reported as `statement` claims: a paraphrase is no fault, so a clause with
//! no close cited clause is left to the claims it holds.

use super::citations::Cited;
use super::cited_text::{CitedStatements, CitedText};
use super::entries::added_lines;
use super::hunk_claims::HunkClaim;
use super::sentence_verdict::{Verdict, statement_verdict};
use crate::analysis::claims::{self, Claim, ClaimKind, Statement};
use crate::analysis::findings::{ClaimReport, ClaimStatus, Findings};
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;
use crate::model::ids::{EntryId, HunkId};
use crate::model::review::Review;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The least share of a note clause's content words a cited clause must hold to be the
/// sentence it restates.
const CLOSE: f32 = 0.6;

/// A cited clause a note clause restates.
struct Match<'a> {
    text: &'a Arc<CitedText>,
    clause: &'a Statement,
    coverage: f32,
}

/// Checks every added line of every hunk its entries cite lines for; adds the flags and the
/// `statement` claims to `findings`. `hunk_claims` (with their cited verdicts) say which
/// lines already carry a value's flag.
pub(super) fn check(review: &Review, cited: &[Vec<Cited>], hunk_claims: &[HunkClaim], findings: &mut Findings) {
    let mut split = CitedStatements::default();
    let flagged = flagged_lines(hunk_claims);
    let sourced_of = sourced_claims(hunk_claims);
    for (fi, f) in review.files.iter().enumerate() {
        if !f.kind.writable() {
            continue;
        }
        for id in review.hunks_of(fi) {
            let entries: Vec<EntryId> = findings.changes(id).to_vec();
            let texts: Vec<&Arc<CitedText>> = super::citations::distinct(
                entries.iter().filter_map(|&n| cited.get(n.index())).flatten().flat_map(|c| c.texts.iter()),
            );
            let removed = super::flipped::removed_lines(f, id.hunk);
            if texts.is_empty() && removed.is_empty() {
                continue;
            }
            let statements: Vec<(Arc<CitedText>, Arc<Vec<Statement>>)> =
                texts.iter().map(|t| (Arc::clone(t), split.of(t))).collect();
            let finer: Vec<(Arc<CitedText>, Arc<Vec<Statement>>)> =
                texts.iter().map(|t| (Arc::clone(t), split.finer_of(t))).collect();
            for (_, _, line) in added_lines(f, id.hunk) {
                let text = crate::base::text::strip_terminator(&line.text);
                if text.trim_start().starts_with("---") || flagged.contains(&(id, text)) {
                    continue;
                }
                if texts.is_empty() {
                    if let Some((flag, report)) = super::flipped::judge(text, &removed, &finer) {
                        findings.add_hunk_flag(id, flag);
                        if let Some(h) = findings.of_mut(id) {
                            h.claims.push(report);
                        }
                    }
                    continue;
                }
                let sourced: &[&Claim] = sourced_of.get(&(id, text)).map_or(&[], Vec::as_slice);
                let said_on = texts.iter().find_map(|t| t.date); // the year of a date written without one
                let verdict = super::worded::judge_weekday(text, said_on)
                    .or_else(|| super::instants::judge(text, said_on.map(|d| d.year), &statements))
                    .or_else(|| judge_line(text, &finer))
                    .or_else(|| super::flipped::judge(text, &removed, &finer))
                    .or_else(|| super::planned::judge(text, &finer))
                    .or_else(|| super::leaning::judge(text, &finer))
                    .or_else(|| super::scope::judge(text, &finer))
                    .or_else(|| super::order::judge(text, &statements))
                    .or_else(|| super::assigned::judge(text, &statements))
                    .or_else(|| super::assigned::judge_state(text, sourced, &statements))
                    .or_else(|| super::worded::judge(text, &statements))
                    .or_else(|| super::reversed::judge(text, &statements))
                    .or_else(|| judge_values(text, sourced, &statements))
                    .or_else(|| judge_choice(text, sourced, &statements))
                    .or_else(|| judge_prohibition(text, &statements))
                    .or_else(|| judge_delegated(text, sourced, &statements))
                    .or_else(|| judge_undecided_claims(text, sourced, &statements))
                    .or_else(|| {
                        if !sourced.iter().any(|c| super::rebound::is_value(c) || super::rebound::is_name(c)) {
                            return None;
                        }
                        judge_rebound(text, sourced, &finer)
                    });
                if let Some((flag, report)) = verdict {
                    findings.add_hunk_flag(id, flag);
                    if let Some(h) = findings.of_mut(id) {
                        h.claims.push(report);
                    }
                }
            }
        }
    }
}

/// The sourced claims (none inside a credential) of each added line (hunk, text as
/// written), in the order of `hunk_claims`: looked up per line instead of read through.
fn sourced_claims(hunk_claims: &[HunkClaim]) -> HashMap<(HunkId, &str), Vec<&Claim>> {
    let mut out: HashMap<(HunkId, &str), Vec<&Claim>> = HashMap::new();
    let sourced = |hc: &&HunkClaim| hc.status.as_ref().is_some_and(|v| v.status == ClaimStatus::Sourced);
    for hc in hunk_claims.iter().filter(|hc| !hc.in_secret).filter(sourced) {
        out.entry((hc.at, hc.written.as_str())).or_default().push(&hc.claim);
    }
    out
}

/// The lines (hunk, text as written) a value claim of which already got a contradicted or
/// overruled verdict.
fn flagged_lines(hunk_claims: &[HunkClaim]) -> HashSet<(HunkId, &str)> {
    hunk_claims
        .iter()
        .filter(|hc| {
            hc.status.as_ref().is_some_and(|v| matches!(v.status, ClaimStatus::Contradicted | ClaimStatus::Overruled))
        })
        .map(|hc| (hc.at, hc.written.as_str()))
        .collect()
}

/// The flag and the `statement` claim of one added line, when a clause of it turns a cited
/// sentence around or restates an overruled proposal.
fn judge_line(line: &str, cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)]) -> Option<(Flag, ClaimReport)> {
    for note in claims::statements(line).into_iter().chain(claims::parts(line)) {
        let close: Vec<Match<'_>> = cited
            .iter()
            .flat_map(|(t, clauses)| clauses.iter().map(move |c| (t, c)))
            .filter_map(|(t, c)| {
                let coverage = note.covered_by(c);
                (coverage >= CLOSE && note.shared(c) >= 2).then_some(Match { text: t, clause: c, coverage })
            })
            .collect();
        let Some(best) = close.iter().max_by(|a, b| a.coverage.total_cmp(&b.coverage)) else { continue };
        let said = line.get(note.range.clone()).unwrap_or(line).trim();
        // A clause as close as the best one that says it the note's way: it is sourced. One
        // that says both sides of a pair the note uses (`必須で、…任意`) says neither.
        let says_both = |c: &Statement| note.pairs().any(|p| c.both_sides(p));
        let agrees = close
            .iter()
            .any(|m| m.coverage >= best.coverage - 0.01 && note.opposite(m.clause).is_none() && !says_both(m.clause));
        let overruling =
            best.text.overruled.as_ref().filter(|o| super::turned_down::turns_down(o, &best.text.text, line));
        if let Some(o) = overruling.filter(|_| !claims::negated(said) && !super::mood::keeps(said)) {
            // (Only what a refused edit would have written was refused.)
            let stands = |m: &Match<'_>| {
                let clause = m.text.text.get(m.clause.range.clone()).unwrap_or("").trim();
                let t = m.text;
                let refused =
                    t.written.iter().any(|w| w.contains(clause)) && !t.replaced.iter().any(|r| r.contains(clause));
                t.overruled.is_some() && !t.written.is_empty() && !refused
            };
            // All as close are turned down, and one is what was refused (not only what a
            // refused edit names or would have replaced).
            let as_close: Vec<&Match<'_>> = close.iter().filter(|m| m.coverage >= best.coverage - 0.01).collect();
            // A value of the line that only a refused edit writes makes it restate the refusal.
            let writes_refused = || {
                let said_values = claims::amounts(said);
                as_close.iter().filter(|m| m.text.overruled.is_some()).any(|m| {
                    let written = claims::amounts(&m.text.written.join("\n"));
                    let replaced = claims::amounts(&m.text.replaced.join("\n"));
                    said_values.iter().any(|v| written.contains(v) && !replaced.contains(v))
                })
            };
            let all_overruled = as_close.iter().all(|m| m.text.overruled.is_some())
                && (as_close.iter().any(|m| !stands(m)) || writes_refused());
            if all_overruled {
                return Some(overruled(line, said, best, o));
            }
        }
        // A note that something is not done yet (`legacy_status is not dropped yet`) says
        // nothing against the step of a plan or a request that asks for it (`Drop column
        // legacy_status`).
        let asked = || requests(best);
        // A question asserts nothing to be turned around.
        let turned = !agrees && note.opposite(best.clause).is_some();
        // Nor does a reported proposal (`someone suggested turning it off`).
        let asserts_nothing = question(best) || proposed(best);
        // Nor does one that it was stopped or failed (`the seed was stopped at 61%` against
        // `Seed the tile cache`).
        let unfinished = || super::mood::not_yet(said) || claims::undone(&said.to_lowercase(), &[]).is_some();
        // Nor one said before the session changed it, of a note that says how it is now.
        let since_changed = || super::mood::now(said) && best.text.edited_after(cited.iter().map(|(t, _)| t.as_ref()));
        let excused = || asserts_nothing || unfinished() && asked() || since_changed();
        if turned && !excused() {
            return Some(contradicted(line, said, best));
        }
        let as_close = || close.iter().filter(|m| m.coverage >= best.coverage - 0.01);
        // A question counts only when no close clause answers it (`should we use Postgres
        // 16?` … `Yes, Postgres 16 it is` is an answer, however fewer words it shares).
        let answered = || {
            cited.iter().any(|(t, clauses)| {
                clauses.iter().any(|c| {
                    let m = Match { text: t, clause: c, coverage: 0.0 };
                    note.shared(c) >= 2 && !asks(&m) && !guess(&m)
                })
            })
        };
        let only_asked = close.iter().any(asks) && close.iter().all(|m| guess(m) || asks(m)) && !answered();
        if !claims::hedged(said) && (as_close().all(guess) || only_asked) {
            return Some(speculative(line, said, best));
        }
        if claims::decided(said) && as_close().all(|m| m.text.awaiting) {
            return Some(undecided(line, said, best));
        }
    }
    None
}

/// True when the matched clause is the assistant's own words and a guess (`probably`, `I
/// think`, a question): its message's first line is the assistant's, and the clause is on it.
fn guess(m: &Match<'_>) -> bool {
    let own = m.text.speaker == Some(crate::inputs::transcript::Speaker::Assistant)
        && m.text.parts.first().is_some_and(|(_, r)| r.contains(&m.clause.range.start));
    own && claims::hedged(m.text.text.get(m.clause.range.clone()).unwrap_or(""))
}

/// True when the matched clause is a question that leaves what it asks open, whoever asks it
/// (`should we switch from npm to bun?`, `Want me to try it on a branch?`, `移行しますか？`):
/// it asserts nothing. A `why`/`how`… question takes what it asks about as so.
fn asks(m: &Match<'_>) -> bool {
    question(m) && !super::mood::presupposes(m.text.text.get(m.clause.range.clone()).unwrap_or(""))
}

/// True when the matched clause reports a proposal (see `mood::reports_proposal`).
fn proposed(m: &Match<'_>) -> bool {
    super::mood::reports_proposal(m.text.text.get(m.clause.range.clone()).unwrap_or(""))
}

/// True when the matched clause ends in a question mark: it asserts nothing a note could
/// turn around, whatever it takes as so.
fn question(m: &Match<'_>) -> bool {
    m.text.asks_at(m.clause.range.end)
}

fn undecided(line: &str, said: &str, m: &Match<'_>) -> (Flag, ClaimReport) {
    quoted(FlagKind::SpeculativeSource, ClaimStatus::Speculative, (line, said), m, |shown, source, q| {
        format!(
            "the note records «{shown}» as decided, but {source} only proposes it and asks the user, who typed \
             nothing after it: «{q}»"
        )
    })
}

fn speculative(line: &str, said: &str, m: &Match<'_>) -> (Flag, ClaimReport) {
    quoted(FlagKind::SpeculativeSource, ClaimStatus::Speculative, (line, said), m, |shown, source, q| {
        format!("the note states «{shown}» as fact, but {source} only guesses or asks it: «{q}»")
    })
}

/// The `contradicted` flag of one added line that denies a value every cited sentence
/// stating it asserts (`timeout is not 90s` where the cited sentences say `90s`), or says
/// it with the other side of an antonym pair (`after every push` for `before every push`).
/// The value anchors the two sentences to the same fact, so no share of the other words is
/// needed for a negation.
fn judge_values(
    line: &str,
    sourced: &[&Claim],
    cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<(Flag, ClaimReport)> {
    let (notes, parts) = (claims::statements(line), claims::parts(line));
    for c in sourced {
        let Some(note) = notes.iter().find(|n| n.range.contains(&c.start)) else { continue };
        // A negation denies the claim only from its own part of the sentence (`keys expire
        // after 24 h (`idempotency_ttl_hours`); user said not to change the TTL` denies no TTL).
        let part = parts.iter().find(|p| p.range.contains(&c.start)).unwrap_or(note);
        let stating: Vec<Match<'_>> = cited
            .iter()
            .flat_map(|(t, clauses)| clauses.iter().map(move |cl| (t, cl)))
            .filter(|(t, cl)| {
                t.text.get(cl.range.clone()).is_some_and(|said| claims::Haystack::dated(said, t.date).states(c))
            })
            .map(|(t, cl)| Match { text: t, clause: cl, coverage: note.covered_by(cl) })
            // A question asserts nothing a note could deny.
            .filter(|m| !question(m))
            .collect();
        // The note's words of the claim itself (`90s`; `xterm`, `js`, `issu`) that a
        // negation bears on: each cited sentence stating the claim must assert them. Only
        // this direction: a cited line is often code or output whose `NOT NULL DEFAULT
        // 'EUR'` denies nothing a note says, and a sentence the note restates closely is
        // judged as a whole above.
        // (Not into a reference in brackets: `… are exempt (src/payroll/levy.py)`.)
        let (lower, aside) = (c.text.to_lowercase(), claims::bracketed(line, c.start..c.end));
        let denied: Vec<&claims::Word> =
            part.content.iter().filter(|w| w.negated && !aside && lower.contains(w.stem.as_str())).collect();
        let asserts = |m: &Match<'_>| {
            let said = m.text.text.get(m.clause.range.clone()).unwrap_or("");
            denied.iter().any(|w| match m.clause.word(&w.stem) {
                Some(o) => !o.negated && !m.clause.part_denies(&w.stem),
                // The source words it otherwise: asserted when nothing there is denied.
                None => !claims::negated(said),
            })
        };
        // Or the note asserts the other side of an antonym pair than each of them does
        // (`after every push` where they say `before every push`), in a sentence sharing
        // more than the value with it.
        let turned = |m: &Match<'_>| {
            note.shared(m.clause) >= 2
                && note.poles.iter().any(|p| match (note.asserted_side(p.pair), m.clause.asserted_side(p.pair)) {
                    (Some(a), Some(b)) => a != b,
                    _ => false,
                })
        };
        // Or the note gives the number per another unit than each of them does (`$120 per
        // day` where they say `$120 per hour`).
        let rate = claims::rate_of(line, c);
        let per_other = |m: &Match<'_>| {
            let Some(rate) = rate.as_ref() else { return false };
            let theirs = claims::rates_in(m.text.text.get(m.clause.range.clone()).unwrap_or(""), c);
            !theirs.is_empty() && theirs.iter().all(|r| r.as_ref().is_some_and(|r| r != rate))
        };
        // Or in another currency or time zone (`€20` where they say `$20`, `11:00 CET` where
        // they say `11:00 UTC`).
        let qualifier = claims::qualifier_of(line, c);
        let in_other = |m: &Match<'_>| {
            let Some(q) = qualifier.as_ref() else { return false };
            let theirs = claims::qualifiers_in(m.text.text.get(m.clause.range.clone()).unwrap_or(""), c);
            theirs.iter().any(Option::is_some) && theirs.iter().flatten().all(|t| !t.agrees(q))
        };
        // A request (`Seed the tile cache`) asserts nothing a note that it was stopped or
        // failed turns around.
        let note_said = line.get(note.range.clone()).unwrap_or(line);
        let unfinished = claims::undone(&note_said.to_lowercase(), &[]).is_some();
        let polar = |m: &Match<'_>| {
            note.restricts_alike(m.clause)
                && (!denied.is_empty() && asserts(m) || turned(m))
                && !(unfinished && requests(m))
        };
        let against = |m: &Match<'_>| polar(m) || per_other(m) || in_other(m);
        if stating.is_empty() || !stating.iter().all(against) {
            continue;
        }
        let best = stating.iter().max_by(|a, b| a.coverage.total_cmp(&b.coverage))?;
        let said = line.get(note.range.clone()).unwrap_or(line).trim();
        return Some(contradicted(line, said, best));
    }
    None
}

/// Words that record work as done (lowercase; Latin ones as whole words).
const DONE: &[&str] = &[
    "created",
    "installed",
    "added",
    "set up",
    "configured",
    "initialized",
    "initialised",
    "deployed",
    "migrated",
    "completed",
    "finished",
    "done",
    "implemented",
    "built",
    "written",
    "generated",
    "scaffolded",
    "bootstrapped",
    "in place",
    "済み",
    "完了",
    "しました",
    "した。",
    "導入した",
    "作成した",
    "완료",
    "했다",
    "했음",
    "설치됨",
    "생성됨",
    "만들었",
    "已",
    "完成",
    "好了",
];

/// True when a note sentence records work as done and denies and hedges nothing.
fn done(said: &str) -> bool {
    let lower = said.to_lowercase();
    DONE.iter().any(|w| claims::has_phrase(&lower, w)) && !claims::negated(said) && !claims::hedged(said)
}

/// The `speculative-source` flag of one added line that records as done what the cited
/// lines only hand to a sub-agent: every sourced claim of its sentence (a command, a
/// package, a path…) is stated only by cited messages whose sub-agent call nothing in the
/// session answered (`CitedText::delegated`). The note's words are not compared (the note
/// may be in another language than the prompt); its claims bind it to the prompt.
fn judge_delegated(
    line: &str,
    sourced: &[&Claim],
    cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<(Flag, ClaimReport)> {
    let (note, m) = only_from(line, sourced, cited, done, |t| t.delegated.is_some())?;
    let said = line.get(note.range.clone()).unwrap_or(line).trim();
    let tool = m.text.delegated.clone().unwrap_or_default();
    Some(quoted(FlagKind::SpeculativeSource, ClaimStatus::Speculative, (line, said), &m, |shown, source, q| {
        format!(
            "the note records «{shown}» as done, but {source} only asks a sub-agent ({tool}) to do it, and the \
             session holds no result of that call: «{q}»"
        )
    }))
}

/// The `speculative-source` flag of one added line that records as decided what only a
/// proposal nobody answered states, judged by its claims where its words are too far from
/// any one sentence of the proposal (a summary of a plan: `已决定新建 5 个目录（task-a-tracking/
/// …）` for a plan spread over a list): every sourced claim of the sentence is stated only by
/// cited messages that end by asking the user, who typed nothing after (`CitedText::awaiting`).
fn judge_undecided_claims(
    line: &str,
    sourced: &[&Claim],
    cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<(Flag, ClaimReport)> {
    let (note, m) = only_from(line, sourced, cited, claims::decided, |t| t.awaiting)?;
    let said = line.get(note.range.clone()).unwrap_or(line).trim();
    Some(undecided(line, said, &m))
}

/// The first sentence of `line` that `says` holds (records work as done, a decision…) whose
/// sourced claims (dates aside) are each stated by some cited message, its values (all but
/// names; one at least) only by messages that are `only`; with the clause of such a message
/// that states one of them.
fn only_from<'a>(
    line: &str,
    sourced: &[&Claim],
    cited: &'a [(Arc<CitedText>, Arc<Vec<Statement>>)],
    says: fn(&str) -> bool,
    only: impl Fn(&CitedText) -> bool,
) -> Option<(Statement, Match<'a>)> {
    if !cited.iter().any(|(t, _)| only(t)) {
        return None;
    }
    for note in claims::statements(line) {
        if !says(line.get(note.range.clone()).unwrap_or(line).trim()) {
            continue;
        }
        let held: Vec<&&Claim> =
            sourced.iter().filter(|c| note.range.contains(&c.start) && c.kind != ClaimKind::Date).collect();
        let stating = |c: &Claim| -> Vec<&'a (Arc<CitedText>, Arc<Vec<Statement>>)> {
            cited.iter().filter(|(t, _)| claims::Haystack::dated(&t.text, t.date).states(c)).collect()
        };
        // A name is what the sentence is about and may be said anywhere (the user's own
        // question names `subagent` too); the values — paths, commands, numbers, versions —
        // are what it records, and only the `only` messages may state them.
        let value = |c: &Claim| c.kind != ClaimKind::Name;
        let only_there = held.iter().any(|c| value(c))
            && held.iter().all(|c| {
                let by = stating(c);
                !by.is_empty() && (!value(c) || by.iter().all(|(t, _)| only(t)))
            });
        if !only_there {
            continue;
        }
        let (t, statements) = held.iter().find(|c| value(c)).and_then(|c| stating(c).into_iter().next())?;
        let states_one = |s: &&Statement| {
            t.text.get(s.range.clone()).is_some_and(|x| held.iter().any(|c| claims::Haystack::new(x).states(c)))
        };
        let clause = statements.iter().find(states_one).or(statements.first())?;
        let coverage = note.covered_by(clause);
        return Some((note, Match { text: t, clause, coverage }));
    }
    None
}

/// The `contradicted` flag of one added line whose rule asks for what a cited sentence
/// forbids in so many words: the note's clause, itself a rule (`should be retried once`,
/// `always retry`), asserts a Latin verb that a cited rule denies (`do not retry it`, `never
/// retry`), no cited clause asserts that verb, and the two sentences share
/// another word or antonym pair besides (`failure`). A short prohibition holds too few
/// words for the sentence match above; the verb it denies, in a rule the entry cites, is
/// what binds the two.
fn judge_prohibition(line: &str, cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)]) -> Option<(Flag, ClaimReport)> {
    let clauses = || cited.iter().flat_map(|(t, cl)| cl.iter().map(move |c| (t, c)));
    for note in claims::statements(line) {
        let said = line.get(note.range.clone()).unwrap_or(line).trim();
        // A rule that denies or forbids (`Friday deploys are forbidden`) asks for nothing.
        if claims::mood(said) != Some(claims::Mood::Rule)
            || claims::negated(said)
            || note.parts.iter().any(|p| p.denies)
        {
            continue;
        }
        // Latin verbs only: a CJK negation bears on its whole clause, so the pairs of a
        // clause that forbids one thing (`承認なしでデプロイしないで`) would all read denied.
        let verb =
            |w: &&claims::Word| !w.negated && w.stem.len() >= 4 && w.stem.chars().all(|c| c.is_ascii_alphabetic());
        for w in note.content.iter().filter(verb) {
            let asserted = clauses().any(|(_, c)| c.word(&w.stem).is_some_and(|o| !o.negated));
            if asserted {
                continue;
            }
            let forbids = clauses().find(|(t, c)| {
                let text = t.text.get(c.range.clone()).unwrap_or("");
                c.word(&w.stem).is_some_and(|o| o.negated)
                    && claims::mood(text) == Some(claims::Mood::Rule)
                    && (note.shared(c) >= 2
                        || note.poles.iter().any(|p| c.poles.iter().any(|q| q.pair == p.pair))
                        || note.content.iter().any(|x| x.stem != w.stem && c.word(&x.stem).is_some()))
            });
            if let Some((t, c)) = forbids {
                let m = Match { text: t, clause: c, coverage: note.covered_by(c) };
                return Some(contradicted(line, said, &m));
            }
        }
    }
    None
}

/// The `contradicted` flag of one added line that chose one thing over another where the
/// cited lines chose the other (see `choice`).
fn judge_choice(
    line: &str,
    sourced: &[&Claim],
    cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<(Flag, ClaimReport)> {
    let (note, text, clause) = super::choice::swapped(line, sourced, cited)?;
    let m = Match { text, clause, coverage: note.covered_by(clause) };
    let said = line.get(note.range.clone()).unwrap_or(line).trim();
    Some(quoted(FlagKind::Contradicted, ClaimStatus::Contradicted, (line, said), &m, |shown, source, q| {
        format!("the note says «{shown}», but {source} chose the other way: «{q}»")
    }))
}

/// The `contradicted` flag of one added line holding a value the cited clause about the
/// same thing gives another value (see `rebound`).
fn judge_rebound(
    line: &str,
    sourced: &[&Claim],
    cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<(Flag, ClaimReport)> {
    let r = super::rebound::rebound(line, sourced, cited)?;
    let m = Match { text: r.text, clause: r.clause, coverage: r.note.covered_by(r.clause) };
    let said = line.get(r.note.range.clone()).unwrap_or(line).trim();
    let value = mask(&r.claim.text).into_owned();
    Some(quoted(FlagKind::Contradicted, ClaimStatus::Contradicted, (line, said), &m, |shown, source, q| {
        format!("the note says «{shown}», but {source}, about the same thing, says «{q}» (not «{value}»)")
    }))
}

fn overruled(line: &str, said: &str, m: &Match<'_>, o: &super::overruled::Overruling) -> (Flag, ClaimReport) {
    let source = m.text.line_at(m.clause.range.start);
    let answer = crate::base::text::one_line_cut(&mask(&o.text), 160);
    let shown = mask(said).into_owned();
    let message = format!("«{shown}» restates {source}, a proposal the user turned down at {}: «{answer}»", o.loc);
    let verdict = Verdict { status: ClaimStatus::Overruled, source, quote: answer, by: Some(o.loc.clone()) };
    statement_verdict(FlagKind::CitationOverruled, message, line, shown, verdict)
}

/// True when the matched clause asks for something rather than reports it: a directive
/// (`Drop column legacy_status`), or what the user typed shaped as a bare verb and its
/// object (`Seed the tile cache for Oregon`, `Generate the spring schedule`).
fn requests(m: &Match<'_>) -> bool {
    let clause = m.text.text.get(m.clause.range.clone()).unwrap_or("");
    let mut words = clause.split_whitespace();
    let (first, second) = (words.next().unwrap_or(""), words.next().unwrap_or("").to_lowercase());
    let imperative = first.len() >= 3
        && first.chars().all(|c| c.is_ascii_alphabetic())
        && !claims::closed_english(&first.to_lowercase())
        && ["the", "a", "an", "all", "my", "our", "this", "these", "every", "each", "your"].contains(&second.as_str());
    claims::directive(clause)
        || m.text.speaker == Some(crate::inputs::transcript::Speaker::User)
            && imperative
            && claims::done(&clause.to_lowercase()).is_none()
}

fn contradicted(line: &str, said: &str, m: &Match<'_>) -> (Flag, ClaimReport) {
    quoted(FlagKind::Contradicted, ClaimStatus::Contradicted, (line, said), m, |shown, source, q| {
        format!("the note says «{shown}» but {source} says «{q}»")
    })
}

/// The verdict of a note sentence against the cited clause `m` it is judged by, quoting
/// that clause; `message` words it from (note sentence, source line, quote), all masked.
fn quoted(
    kind: FlagKind,
    status: ClaimStatus,
    (line, said): (&str, &str),
    m: &Match<'_>,
    message: impl Fn(&str, &str, &str) -> String,
) -> (Flag, ClaimReport) {
    super::sentence_verdict::quoted((kind, status), (line, said), (m.text, m.clause), message)
}
