//! A scope widened: the note says of all (`every locale`, `in both light and dark themes`,
//! `所有站点`, `모든 기기`, `全ての環境`) what the cited clause about it says of some only
//! (`file it as dark-theme-only`, `只对冷链站点`, `삼성 기기에서만`, `macOS だけ`).
//!
//! A note clause that quantifies over all (and restricts nothing itself) is matched to the
//! cited clauses sharing two of its content words. When one of them restricts (`only`,
//! `except`, `unless`, だけ, のみ, 에서만, 只, 仅, 除了…) and none says it of all, the note has
//! widened what the source said: `contradicted`, quoting the restricting clause.

use super::cited_text::CitedText;
use super::sentence_verdict::quoted;
use crate::analysis::claims::{self, Statement};
use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::analysis::flag::{Flag, FlagKind};
use std::sync::Arc;

/// Words that say something of all (lowercase; Latin ones as whole words).
const ALL: &[&str] = &[
    "all",
    "every",
    "everywhere",
    "always",
    "both",
    "entire",
    "across the board",
    "所有",
    "全部",
    "一律",
    "全て",
    "すべて",
    "全体",
    "모든",
    "전체",
    "전부",
    "전반",
    "항상",
];

/// Words that restrict what a clause says to some (lowercase; Latin ones as whole words).
const SOME: &[&str] = &[
    "only",
    "except",
    "excluding",
    "unless",
    "but not",
    "other than",
    "apart from",
    "solely",
    "だけ",
    "のみ",
    "に限",
    "以外",
    "에서만",
    "에만",
    "한정",
    "제외",
    "只",
    "仅",
    "僅",
    "除了",
    "之外",
];

/// True when `lower` says one of `words`: a Latin one as a word of prose, not a piece of a
/// flag or a name (`-only-testing`, `all_tests`) nor inside code (`` `make flash-all` ``).
fn says(lower: &str, words: &[&str]) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '/' | '='));
    let in_code = |at: usize| lower[..at].matches('`').count() % 2 == 1;
    words.iter().any(|w| {
        if !w.is_ascii() {
            return lower.contains(w);
        }
        lower.match_indices(w).filter(|(at, _)| !in_code(*at)).any(|(at, _)| {
            let mut before = lower[..at].chars().rev();
            let mut after = lower[at + w.len()..].chars();
            let (b1, b2, a1, a2) = (before.next(), before.next(), after.next(), after.next());
            // `dark-theme-only` is prose; `-only-testing`, `--all` are flags.
            let flag_before = b1 == Some('-') && !b2.is_some_and(char::is_alphanumeric);
            let flag_after = a1 == Some('-') && a2.is_some_and(char::is_alphanumeric);
            !word(b1) && !flag_before && !word(a1) && !flag_after
        })
    })
}

/// The `contradicted` flag of a note line that says of all what the cited clause about it
/// restricts to some.
pub(super) fn judge(line: &str, cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)]) -> Option<(Flag, ClaimReport)> {
    for note in claims::statements(line).into_iter().chain(claims::parts(line)) {
        let said = line.get(note.range.clone()).unwrap_or("").trim();
        let lower = said.to_lowercase();
        if !says(&lower, ALL) || says(&lower, SOME) {
            continue;
        }
        let over = quantified(&lower);
        let mut narrow = None;
        let mut wide = false;
        let about = cited
            .iter()
            .flat_map(|(t, clauses)| clauses.iter().map(move |c| (t, c)))
            .filter(|(t, c)| note.shared(c) >= 2 && !t.asks_at(c.range.end));
        for (t, c) in about {
            let text = t.text.get(c.range.clone()).unwrap_or("").to_lowercase();
            // Said of all of the same things (`all sidebar links` is no `both themes`).
            // (A request asserts nothing: `run the audit on both themes`.)
            let asserts = !claims::directive(&text);
            if asserts && says(&text, ALL) && (over.is_empty() || quantified(&text).iter().any(|w| over.contains(w))) {
                wide = true;
            } else if says(&text, SOME) && beyond(&over, &text) {
                narrow.get_or_insert((t, c));
            }
        }
        if let Some((t, c)) = narrow.filter(|_| !wide) {
            return Some(quoted(
                (FlagKind::Contradicted, ClaimStatus::Contradicted),
                (line, said),
                (t, c),
                |shown, source, q| format!("the note says «{shown}» of all, but {source} says it of some only: «{q}»"),
            ));
        }
    }
    None
}

/// True when what the note says "all" of reaches beyond the restricting clause: one of its
/// words is not in it (`both light and dark themes` against `dark-theme-only`; not `every
/// merge to main` against `we only merge to main`). CJK text, read whole, always does.
fn beyond(over: &[String], restricting: &str) -> bool {
    let theirs = claims::content_stems(restricting);
    over.is_empty() || over.iter().any(|w| !theirs.contains(w))
}

/// The content stems of the few words after a Latin word that says "all" (`both light and
/// dark themes`: light, dark, theme): what it quantifies. Empty for CJK text, read whole.
fn quantified(lower: &str) -> Vec<String> {
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if w.is_ascii() && ALL.contains(w) {
            for next in words.iter().skip(i + 1).take(4) {
                out.extend(claims::content_stems(next));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::analysis::provenance::cited_text::cited_for_test as cited;

    #[test]
    fn a_scope_widened_in_each_language() {
        let flagged = |note: &str, said: &str| judge(note, &cited(said)).is_some();
        let said = "Sidebar links fail color-contrast in the dark theme only; file it as dark-theme-only.";
        assert!(flagged("- Sidebar links fail color-contrast in both light and dark themes.", said));
        assert!(!flagged("- Sidebar links fail color-contrast in the dark theme only.", said));
        // A word inside code is no quantifier: `make flash-all` names a target.
        assert!(!flagged(
            "- Never use `make flash-all` on rev-B controllers: it overwrites the calibration page at 0x0807F800.",
            "Flashed with `make flash-app` (app region at 0x08010000 only); the calibration page at 0x0807F800 is untouched."
        ));
        assert!(flagged(
            "- test_watch_fs is skipped on all CI runners.",
            "Skip test_watch_fs on the macOS runners only."
        ));
        assert!(flagged("- 時間窓制約はすべての配送先に適用。", "時間窓制約は冷蔵の配送先だけに適用する。"));
        assert!(flagged(
            "- 모든 안드로이드 14 기기에서 크래시 발생.",
            "크래시는 삼성 안드로이드 14 기기에서만 발생합니다."
        ));
        assert!(flagged("- 时间窗约束对所有站点生效。", "时间窗约束只对冷链站点生效。"));
        // `All` of other things says nothing of this.
        let other = "Run the audit on both themes. Dark theme: 9 color-contrast failures, all sidebar links. \
                     File it as dark-theme-only.";
        assert!(flagged("- Sidebar links fail color-contrast in both light and dark themes.", other));
        // The note carries the restriction itself.
        assert!(!flagged("- Staging deploys are enabled on every merge to main.", "We only merge to main now."));
        // A flag is no restriction.
        let run = "xcodebuild test -only-testing:SnapshotTests: 24 snapshot tests pass on iPhone SE.";
        assert!(!flagged("- All 24 snapshot tests pass on iPhone SE.", run));
        // The source says it of all too.
        let both = "Skip test_watch_fs on the macOS runners only. Later: skip test_watch_fs on all CI runners.";
        assert!(!flagged("- test_watch_fs is skipped on all CI runners.", both));
    }
}
