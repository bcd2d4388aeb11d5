//! How a sentence speaks, beside what it says: it keeps something as it was, says a thing is
//! not done yet, reports a proposal, or asks about something it takes as so. The statement
//! judges (`statements`) read a note line's and a cited clause's mood with these.

use crate::analysis::claims;

/// True when a note sentence says something stays as it was (`the width stays 0.2 mm`,
/// `kept at 2`, `unchanged`; そのまま, 그대로, 不变, 保持): it records a refusal of the change,
/// as a negated one does.
pub(super) fn keeps(said: &str) -> bool {
    const KEEPS: &[&str] = &[
        "stays",
        "stay",
        "kept",
        "keeps",
        "remains",
        "unchanged",
        "as is",
        "そのまま",
        "据え置き",
        "그대로",
        "유지",
        "不变",
        "保持",
        "维持",
    ];
    let lower = said.to_lowercase();
    KEEPS.iter().any(|w| claims::has_phrase(&lower, w))
}

/// True when a note sentence says how things stand after a change (`config save now kicks
/// the watchdog`, `from now on`; 今は, 現在は, 이제, 现在, 改为): what a source said before
/// the change is the old state, not its opposite.
pub(super) fn now(said: &str) -> bool {
    const NOW: &[&str] =
        &["now", "nowadays", "今は", "現在は", "今後は", "이제", "이제는", "现在", "如今", "改为", "已改"];
    let lower = said.to_lowercase();
    NOW.iter().any(|w| claims::has_phrase(&lower, w))
}

/// True when a note sentence says something is not done yet or only planned.
pub(super) fn not_yet(said: &str) -> bool {
    let lower = said.to_lowercase();
    claims::planned(&lower) || claims::negated(said) && lower.split(|c: char| !c.is_alphanumeric()).any(|w| w == "yet")
}

/// True when a clause reports a proposal (`someone suggested turning off auto-renew`, `QA
/// proposed dropping the job`, `提案された`, `제안했`, `建议`): it asserts nothing a note can
/// turn around.
pub(super) fn reports_proposal(clause: &str) -> bool {
    const MARKERS: &[&str] = &["suggest", "propos", "recommend", "提案", "제안", "建议", "建議", "推荐"];
    let clause = clause.to_lowercase();
    MARKERS.iter().any(|w| clause.contains(w))
}

/// Words that open a question about something taken as so (`why is the test flaky?` says
/// it is flaky): such a question leaves nothing open.
const WH: &[&str] = &[
    "why",
    "how",
    "what",
    "when",
    "where",
    "which",
    "who",
    "なぜ",
    "どうして",
    "何",
    "왜",
    "어떻게",
    "무엇",
    "为什么",
    "怎么",
    "什么",
    "哪",
];

/// True when a question asks about something it takes as so (`why…`, `how…`, なぜ, 왜, 为什么).
pub(super) fn presupposes(question: &str) -> bool {
    let lower = question.trim_start().to_lowercase();
    WH.iter().any(|w| {
        lower.starts_with(w) && (!w.is_ascii() || !lower[w.len()..].starts_with(|c: char| c.is_alphanumeric()))
            || !w.is_ascii() && lower.contains(w)
    })
}
