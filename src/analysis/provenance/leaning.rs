//! A leaning written as a decision: the note records as decided (`decided to withdraw and
//! resubmit to NeurIPS`, `오퍼 발송 확정`, `已决定`) what the cited clauses about it leave
//! open — a leaning, a hedge or a condition (`I'm leaning toward withdrawing… but I want to
//! talk to Sarah first`, `maybe we should…`, `if references pass`, 検討中, 고민 중, 如果…).
//!
//! A note clause that records a decision (see `claims::decided`) is matched to the cited
//! clauses sharing two of its content words. When one of them is tentative (see
//! `claims::tentative`) and none states it plainly (a statement that is neither tentative
//! nor a question: `let's withdraw`, `we're withdrawing`), nobody decided what the note says
//! was decided: `speculative-source`, quoting the open clause.

use super::cited_text::CitedText;
use super::sentence_verdict::quoted;
use crate::analysis::claims::{self, Statement};
use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::analysis::flag::{Flag, FlagKind};
use std::sync::Arc;

/// The `speculative-source` flag of a note line that records as decided what every cited
/// clause about it leaves open.
pub(super) fn judge(line: &str, cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)]) -> Option<(Flag, ClaimReport)> {
    // Sentences, their clauses between semicolons, and their parts.
    let notes = claims::statements(line).into_iter().chain(claims::clauses(line)).chain(claims::parts(line));
    for note in notes {
        let said = line.get(note.range.clone()).unwrap_or("").trim();
        if !claims::decided(said) {
            continue;
        }
        let about = cited
            .iter()
            .flat_map(|(t, clauses)| clauses.iter().map(move |c| (t, c)))
            .filter(|(_, c)| note.shared(c) >= 2);
        let mut open = None;
        let mut settled = false;
        for (t, c) in about {
            let text = t.text.get(c.range.clone()).unwrap_or("");
            if claims::tentative(text) {
                open.get_or_insert((t, c));
            } else if !t.asks_at(c.range.end) {
                settled = true;
            }
        }
        if let Some((t, c)) = open.filter(|_| !settled) {
            return Some(quoted(
                (FlagKind::SpeculativeSource, ClaimStatus::Speculative),
                (line, said),
                (t, c),
                |shown, source, q| format!("the note records «{shown}» as decided, but {source} leaves it open: «{q}»"),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::analysis::provenance::cited_text::cited_for_test as cited;

    #[test]
    fn a_leaning_recorded_as_a_decision_in_each_language() {
        let flagged = |note: &str, said: &str| judge(note, &cited(said)).map(|(f, _)| f.kind);
        let speculative = Some(FlagKind::SpeculativeSource);
        let said = "Reviews came back rough. I'm leaning toward withdrawing and sending it to NeurIPS instead, \
                    but I want to talk to Sarah first.";
        assert_eq!(flagged("- ICML paper: decided to withdraw and resubmit to NeurIPS.", said), speculative);
        assert_eq!(flagged("- ICML paper: leaning toward withdrawing for NeurIPS.", said), None);
        // A clause of a note line that goes on about something the source settles.
        let drafted = format!("{said} Rebuttal draft saved in papers/rebuttal_draft.md.");
        let note = "- ICML paper: decided to withdraw and resubmit to NeurIPS; rebuttal drafted anyway.";
        assert_eq!(flagged(note, &drafted), speculative);
        // Stated plainly later: decided.
        let decided = format!("{said} Talked to Sarah: we withdraw and send it to NeurIPS.");
        assert_eq!(flagged("- ICML paper: decided to withdraw and resubmit to NeurIPS.", &decided), None);
        assert_eq!(
            flagged("- 오퍼 발송 확정 (김민준)", "김민준 오퍼 발송은 레퍼런스 체크 통과하면 진행."),
            speculative
        );
        assert_eq!(flagged("- 已决定迁移到 NeurIPS 投稿", "我在考虑迁移到 NeurIPS 投稿"), speculative);
    }
}
