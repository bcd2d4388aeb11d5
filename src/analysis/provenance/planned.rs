//! Intent or a failed try written as fact: the note records as done (`the database was
//! migrated to Postgres 17`) what the cited clause about it only plans (`we plan to migrate
//! to Postgres 17 next quarter, nothing started yet`), reports failed (`the deploy failed`,
//! `デプロイは失敗しました`), stopped part way (`the backfill was interrupted`, `被中断`) or
//! denies (`it was not applied`). The line is `contradicted`, quoting that clause.
//!
//! A note clause (not negated, not hedged) whose verb is in a past form is matched to the
//! cited clauses that share two of its content words, one of them that verb (`migrate`,
//! `migration`); in CJK text, three pairs of characters and a marker of something done
//! (`移行しました`, `완료`, `已迁移`). When such a clause plans it (`plan to`, `next quarter`,
//! `not yet`, 予定, 계획, 计划…), reports it failed, stopped or not done (see
//! `claims::undone`) and none of them says it was done (a retry that succeeded), the note
//! has turned a plan or a failure into a deed.

use super::cited_text::CitedText;
use super::sentence_verdict::quoted;
use crate::analysis::claims::{self, Statement};
use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::analysis::flag::{Flag, FlagKind};
use std::sync::Arc;

/// The `contradicted` flag of a note line that records as done what the cited lines plan.
pub(super) fn judge(line: &str, cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)]) -> Option<(Flag, ClaimReport)> {
    let line_lower = line.to_lowercase();
    for note in claims::statements(line).into_iter().chain(claims::parts(line)) {
        let said = line.get(note.range.clone()).unwrap_or("").trim();
        if claims::negated(said) || claims::hedged(said) {
            continue;
        }
        let Some(verbs) = claims::done(&said.to_lowercase()) else { continue };
        let about = |c: &Statement| match verbs.is_empty() {
            // CJK: no verb to read, more of the words.
            true => note.shared(c) >= 3,
            false => note.shared(c) >= 2 && verbs.iter().any(|v| c.word(v).is_some()),
        };
        let mut undone = None;
        let mut deed = false;
        for (t, c) in cited.iter().flat_map(|(t, clauses)| clauses.iter().map(move |c| (t, c))) {
            // A question reports nothing done or undone.
            if !about(c) || t.asks_at(c.range.end) {
                continue;
            }
            let lower = t.text.get(c.range.clone()).unwrap_or("").to_lowercase();
            match claims::undone(&lower, &verbs) {
                Some(how) => {
                    undone.get_or_insert((t, c, how));
                }
                None => deed |= claims::done(&lower).is_some(),
            }
        }
        if deed {
            continue;
        }
        // A note that says it was stopped (`halted at 1 of 3`), anywhere in the line, records it.
        if undone.is_none()
            && !partial(said)
            && claims::undone(&line_lower, &[]).is_none()
            && let Some((t, c)) = interrupted(cited, said, &note)
        {
            return Some(quoted(
                (FlagKind::Contradicted, ClaimStatus::Contradicted),
                (line, said),
                (t, c),
                |shown, source, q| {
                    format!("the note records «{shown}» as done, but the user interrupted {source}: «{q}»")
                },
            ));
        }
        if let Some((t, c, how)) = undone {
            return Some(quoted(
                (FlagKind::Contradicted, ClaimStatus::Contradicted),
                (line, said),
                (t, c),
                |shown, source, q| format!("the note records «{shown}» as done, but {source} {}: «{q}»", how.phrase()),
            ));
        }
    }
    None
}

/// A cited message about the note's deed (two of `said`'s content words in it, call and
/// output alike) right after which the session records that the user interrupted it
/// (`[Request interrupted by user]` on the next line): the run it shows did not finish.
/// The clause quoted is its first that shares a word with the note.
fn interrupted<'a>(
    cited: &'a [(Arc<CitedText>, Arc<Vec<Statement>>)],
    said: &str,
    note: &Statement,
) -> Option<(&'a Arc<CitedText>, &'a Statement)> {
    let stopped = |t: &CitedText| {
        let Some((file, _)) = t.place() else { return false };
        cited.iter().any(|(u, _)| {
            u.place().is_some_and(|(f, l)| f == file && l == t.last + 1)
                && u.text.trim_start().starts_with("[Request interrupted by user")
        })
    };
    let words = claims::content_stems(said);
    // What the user typed is a request, not a run.
    let typed = |t: &CitedText| t.speaker == Some(crate::inputs::transcript::Speaker::User);
    cited.iter().filter(|(t, _)| !typed(t) && stopped(t)).find_map(|(t, clauses)| {
        let theirs = claims::content_stems(&t.text);
        let shared = words.iter().filter(|w| theirs.binary_search(w).is_ok()).count();
        let quote = clauses.iter().find(|c| note.shared(c) >= 1).or(clauses.first())?;
        (shared >= 2).then_some((t, quote))
    })
}

/// True when a note clause records a part of the work done (`5 of the 12 CSVs done`,
/// `partially`, `12件中5件`, `12개 중 5개`, `部分`): what an interrupted run did.
fn partial(said: &str) -> bool {
    static PART: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)\d+\s*(?:of|out of|/)\s*(?:the\s+)?\d+|\d+\S{0,2}\s*中\s*\d+|\d+\S{0,2}\s*중\s*\d+|\b(?:partial|partially|partly|half|some of)\b|一部|部分|일부|절반|途中")
            .expect("the part pattern is valid")
    });
    PART.is_match(said)
}
