//! Planned, done or decided: whether a clause speaks of something as intended (`we plan to migrate
//! to Postgres 17 next quarter`, `移行する予定`, `마이그레이션할 계획`, `计划迁移`) or as
//! done (`the database was migrated`, `移行しました`, `마이그레이션했다`, `已迁移`).
//!
//! A note that records as done what its source only plans has turned intent into fact
//! (see `provenance::planned`). Latin text is read by the verb: the note's verb in a past
//! form (`migrated`, `done`, `built`) must be the one the planning clause names
//! (`migrate`, `migration`: one stem). CJK text, which writes no spaces, by its markers.
//! Not read: a plan said by `I'll` / `I will` (the assistant's next step, most often done
//! in the same turn) or by a bare future with no other marker of intent.

use super::stems::stem;
use super::text::has_phrase;
use super::text::is_cjk;

/// Words and phrases that say something is intended, not done (lowercase; Latin ones as
/// whole words).
const PLANNED: &[&str] = &[
    "plan to",
    "plans to",
    "planning to",
    "planned",
    "plan is to",
    "going to",
    "intend to",
    "intends to",
    "want to",
    "wants to",
    "would like to",
    "next quarter",
    "next week",
    "next month",
    "next sprint",
    "next year",
    "next release",
    "eventually",
    "someday",
    "not yet",
    "yet to",
    "not started",
    "nothing started",
    "todo",
    "proposed",
    "on the roadmap",
    "scheduled for",
    "we will",
    "we'll",
    "they will",
    "will be",
    "予定",
    "つもり",
    "計画",
    "来週",
    "来月",
    "来期",
    "将来",
    "예정",
    "계획",
    "나중에",
    "다음 주",
    "다음 달",
    "다음 분기",
    "하려고",
    "计划",
    "打算",
    "准备",
    "下周",
    "下个月",
    "下季度",
    "还没",
    "尚未",
    // An obligation not yet met is a plan too (`しないといけない`: "has to be done").
    "ないといけない",
    "なければならない",
    "なければいけない",
    "なくてはいけない",
    "なきゃいけない",
    "해야 한다",
    "해야 합니다",
    "않으면 안 된",
    "必须",
];

/// Past forms of common verbs that do not end in `-ed`.
const IRREGULAR_DONE: &[&str] = &[
    "done",
    "built",
    "written",
    "made",
    "begun",
    "sent",
    "gone",
    "rewritten",
    "rebuilt",
    "ran",
    "rerun",
    "won",
    "paid",
];

/// CJK markers of something done.
const CJK_DONE: &[&str] =
    &["しました", "した。", "済み", "完了", "했다", "했습니다", "완료", "됐다", "되었다", "마쳤", "已经", "已", "完成"];

/// True when the lowercase text says something is intended, not done.
pub fn planned(lower: &str) -> bool {
    PLANNED.iter().any(|m| has_phrase(lower, m))
}

/// The stems of the verbs a clause (lowercase) puts in a past form, as done: `migrated`,
/// `was upgraded`, `done`; not after `will be`/`to be` (`will be migrated`), and none in a
/// clause that plans. For CJK text, `Some(empty)` when it marks something done.
pub fn done(lower: &str) -> Option<Vec<String>> {
    if planned(lower) {
        return None;
    }
    if lower.chars().any(is_cjk) && CJK_DONE.iter().any(|m| lower.contains(m)) {
        return Some(Vec::new());
    }
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_ascii_alphabetic() || c == '\'')).filter(|w| !w.is_empty()).collect();
    let stems: Vec<String> = words
        .iter()
        .enumerate()
        .filter(|(i, w)| {
            let past = (w.len() >= 5 && w.ends_with("ed") && !PLANNED.contains(w)) || IRREGULAR_DONE.contains(w);
            let before = |k: usize| i.checked_sub(k).and_then(|j| words.get(j)).copied().unwrap_or("");
            let future = before(1) == "be" || matches!(before(2), "will" | "to" | "should" | "must");
            past && !future
        })
        .map(|(_, w)| stem(w))
        .collect();
    (!stems.is_empty()).then_some(stems)
}

/// How a clause about a deed reports it not done: only intended, tried and failed, stopped
/// part way, or denied (`was not applied`: the deed's own verb, negated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undone {
    Planned,
    Failed,
    Stopped,
    Denied,
}

impl Undone {
    /// What the source says of the deed, for a message: `only plans it`, `says it failed`…
    pub fn phrase(self) -> &'static str {
        match self {
            Undone::Planned => "only plans it",
            Undone::Failed => "says it failed",
            Undone::Stopped => "says it was stopped part way",
            Undone::Denied => "says it was not done",
        }
    }
}

/// Words that report a try that failed (lowercase; Latin ones as whole words). A CJK marker
/// counts at the end of its clause, where the predicate stands (`デプロイは失敗しました`, not
/// `失败的测试已修复`).
const FAILED: &[&str] = &[
    "failed",
    "fails",
    "failure",
    "errored",
    "timed out",
    "unsuccessful",
    "did not work",
    "didn't work",
    "did not succeed",
    "didn't succeed",
    "失敗",
    "エラー",
    "실패",
    "오류",
    "에러",
    "失败",
    "报错",
    "出错",
];

/// Words that report a deed stopped part way (lowercase; Latin ones as whole words; CJK ones
/// at the end of their clause).
const STOPPED: &[&str] = &[
    "interrupted",
    "aborted",
    "stopped",
    "cancelled",
    "canceled",
    "halted",
    "killed",
    "partially",
    "incomplete",
    "unfinished",
    "中断",
    "停止",
    "途中",
    "중단",
    "중지",
    "멈췄",
    "停了",
    "没跑完",
    "没完成",
    "未完成",
];

/// How a clause (`lower`: lowercase) about a deed reports it, when not as done: planned,
/// failed, stopped, or denied. `own`: the stems of the deed's verbs in the note (`deploy` of
/// `deployed`): a clause that puts one of them in a past form, not negated, reports the deed
/// done whatever else it says (`merged the fix for the failing test`), and a marker that is
/// the deed itself (`stopped the old worker`) reports nothing against it.
pub fn undone(lower: &str, own: &[String]) -> Option<Undone> {
    if planned(lower) {
        return Some(Undone::Planned);
    }
    let verbs = done(lower);
    // Only a word that denies outright: `stopped`, `dropped` deny a part, not the deed.
    let negated = lower
        .split(|c: char| !(c.is_ascii_alphabetic() || c == '\''))
        .any(|w| matches!(w, "not" | "never" | "nothing" | "no") || w.ends_with("n't"));
    if !negated && verbs.as_ref().is_some_and(|v| v.iter().any(|s| own.contains(s))) {
        return None;
    }
    let marks = |words: &[&str]| {
        words
            .iter()
            .any(|w| if w.is_ascii() { has_phrase(lower, w) && !own.contains(&stem(w)) } else { predicate(lower, w) })
    };
    // A failure counted zero times reports none (`0 failed`, `failures: 0`, `エラー 0 件`).
    let failed = FAILED.iter().filter(|w| !zero_counted(lower, w)).copied().collect::<Vec<_>>();
    if marks(&failed) {
        Some(Undone::Failed)
    } else if marks(STOPPED) {
        Some(Undone::Stopped)
    } else if negated && verbs.is_some_and(|v| v.iter().any(|s| own.contains(s))) {
        Some(Undone::Denied)
    } else {
        None
    }
}

/// True when every `marker` of `lower` counts zero: `0` right before it or right after it
/// (past blanks, `:`, `=`), as a whole number (`0 failed`, `errors: 0`, `エラー 0 件`,
/// `실패 0건`; not `10 failed` or `failed 0.5%`).
fn zero_counted(lower: &str, marker: &str) -> bool {
    let mut found = lower.match_indices(marker).peekable();
    found.peek().is_some()
        && found.all(|(at, m)| {
            let before = lower[..at].trim_end_matches([' ', ':', '：']);
            let zero_before = before.ends_with('0')
                && !before[..before.len() - 1].ends_with(|c: char| c.is_ascii_digit() || c == '.');
            let after = lower[at + m.len()..].trim_start_matches([' ', ':', '：', '=']);
            let zero_after =
                after.starts_with('0') && !after[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.');
            zero_before || zero_after
        })
}

/// True when CJK `marker` is the predicate of the clause: it stands near the clause's end
/// (at most eight characters after it, its endings `しました`, `했습니다`, `了`) and does not
/// qualify a noun (`失败的测试`, `失敗の原因`, `실패한 테스트`, `중단된 작업`).
fn predicate(lower: &str, marker: &str) -> bool {
    let t = lower.trim_end_matches(|c: char| c.is_whitespace() || "。．.！!、，,）)」』".contains(c));
    t.rmatch_indices(marker).next().is_some_and(|(at, m)| {
        let after = &t[at + m.len()..];
        after.chars().count() <= 8 && !after.starts_with(['的', 'の', '한', '된', '던'])
    })
}

/// Words that record a decision (lowercase; Latin ones as whole words).
const DECIDED: &[&str] = &[
    "decided",
    "decision",
    "agreed",
    "settled",
    "chose",
    "chosen",
    "approved",
    "confirmed",
    "going with",
    "決定",
    "決めた",
    "決まった",
    "採用",
    "决定",
    "確定",
    "确定",
    "采用",
    "选定",
    "결정",
    "확정",
    "채택",
];

/// True when a note sentence records a decision (`Decision: …`, `已决定…`) and denies
/// nothing (`尚未决定`, `not decided yet` record that there is none).
pub fn decided(said: &str) -> bool {
    let lower = said.to_lowercase();
    DECIDED.iter().any(|w| has_phrase(&lower, w)) && !super::negated(said)
}

/// Words that leave a choice open: a leaning, a condition, a question still to settle
/// (lowercase; Latin ones as whole words). With `hedged` (`maybe`, `probably`…) they make a
/// clause tentative.
const TENTATIVE: &[&str] = &[
    "leaning toward",
    "leaning towards",
    "leaning to",
    "lean toward",
    "lean towards",
    "inclined to",
    "considering",
    "thinking about",
    "thinking of",
    "not decided",
    "undecided",
    "haven't decided",
    "not sure yet",
    "options open",
    "open question",
    "tbd",
    "to be decided",
    "to be confirmed",
    "if",
    "unless",
    "provided that",
    "assuming",
    "検討",
    "迷って",
    "迷い",
    "未定",
    "考え中",
    "もし",
    "なら",
    "場合",
    "고민",
    "검토",
    "미정",
    "생각 중",
    "만약",
    "하면",
    "如果",
    "的话",
    "考虑",
    "倾向",
    "待定",
    "还在想",
];

/// True when a clause leaves what it speaks of open: it leans, hedges, or sets a condition
/// (`I'm leaning toward withdrawing`, `maybe we should pin Node 20`, `if references pass`,
/// `検討中`, `고민 중`, `如果通过`).
pub fn tentative(said: &str) -> bool {
    let lower = said.to_lowercase();
    super::hedged(said) || TENTATIVE.iter().any(|w| has_phrase(&lower, w))
}

/// States a thing (a pull request, a test run, a pod, a rollout) is in, by family: a
/// thing is in one state of its family at a time. (family, state, words; lowercase, whole
/// words.)
const STATES: &[(&str, &str, &[&str])] = &[
    ("review", "open", &["open", "opened", "draft", "unmerged", "未マージ", "미병합", "未合并"]),
    ("review", "merged", &["merged", "landed", "マージ済み", "병합됨", "已合并"]),
    ("review", "closed", &["closed", "abandoned"]),
    ("run", "passing", &["passing", "passed", "green", "succeeded", "successful"]),
    ("run", "failing", &["failing", "failed", "red", "broken", "erroring"]),
    ("pod", "running", &["running", "healthy", "ready"]),
    ("pod", "crashing", &["crashloopbackoff", "crashing", "crash-looping", "oomkilled", "restarting", "evicted"]),
    ("pod", "waiting", &["pending", "containercreating", "queued"]),
    ("rollout", "done", &["deployed", "rolled out", "released", "shipped", "live"]),
    ("rollout", "halted", &["halted", "paused", "rolled back", "reverted", "interrupted", "aborted"]),
];

/// The states a lowercase text names, as (family, state).
pub fn states(lower: &str) -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&str, &str)> = STATES
        .iter()
        .filter(|(_, _, words)| words.iter().any(|w| has_phrase(lower, w)))
        .map(|(f, s, _)| (*f, *s))
        .collect();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_and_a_deed_in_each_language() {
        assert!(planned("we plan to migrate to postgres 17 next quarter, nothing started yet"));
        assert!(planned("the migration is scheduled for march"));
        assert!(planned("postgres 17 への移行は来期の予定です"));
        assert!(planned("다음 분기에 postgres 17로 마이그레이션할 계획입니다"));
        assert!(planned("我们计划下季度迁移到 postgres 17"));
        assert!(!planned("i'll migrate the fixtures now"));
        assert!(!planned("the database was migrated to postgres 17"));
        assert_eq!(done("the database was migrated to postgres 17"), Some(vec![stem("migrate")]));
        assert_eq!(done("the docs are done"), Some(vec![stem("done")]));
        assert_eq!(done("the database will be migrated"), None);
        assert_eq!(done("we plan to have it migrated by march"), None);
        assert_eq!(done("run the linter before every push"), None);
        assert_eq!(done("postgres 17 への移行が完了しました"), Some(Vec::new()));
        assert_eq!(done("已迁移到 postgres 17"), Some(Vec::new()));
    }

    #[test]
    fn a_deed_not_done_in_each_language() {
        let deploy = [stem("deployed")];
        assert_eq!(undone("the deploy failed: imagepullbackoff", &deploy), Some(Undone::Failed));
        assert_eq!(undone("デプロイは失敗しました", &deploy), Some(Undone::Failed));
        assert_eq!(undone("배포가 실패했습니다", &deploy), Some(Undone::Failed));
        assert_eq!(undone("部署失败了", &deploy), Some(Undone::Failed));
        assert_eq!(undone("we'll deploy it on thursday", &deploy), Some(Undone::Planned));
        assert_eq!(undone("the rollout was interrupted halfway", &deploy), Some(Undone::Stopped));
        assert_eq!(undone("回填在 10-14 被中断", &deploy), Some(Undone::Stopped));
        assert_eq!(undone("it was not deployed", &deploy), Some(Undone::Denied));
        // A negation of another deed denies nothing of this one.
        assert_eq!(undone("scroll is not working when xterm.js is embedded", &deploy), None);
        // Done, whatever else the clause says.
        assert_eq!(undone("deployed the fix for the failing job", &deploy), None);
        assert_eq!(undone("失败的测试已修复", &deploy), None);
        assert_eq!(undone("deployed to prod", &deploy), None);
        // The marker is the deed itself.
        assert_eq!(undone("stopped the old worker", &[stem("stopped")]), None);
        // A failure counted zero times reports none; ten, or a share, does.
        let import = [stem("imported")];
        for ok in ["取り込み 312 件、エラー 0 件", "1,025 passed, 0 failed", "failures: 0", "실패 0건", "失败 0 条"]
        {
            assert_eq!(undone(&ok.to_lowercase(), &import), None, "{ok}");
        }
        for bad in ["取り込み 302 件、エラー 10 件", "1,015 passed, 10 failed", "failed 0.5% of rows"] {
            assert_eq!(undone(&bad.to_lowercase(), &import), Some(Undone::Failed), "{bad}");
        }
    }

    #[test]
    fn a_choice_left_open_in_each_language() {
        assert!(tentative("I'm leaning toward withdrawing and sending it to NeurIPS instead"));
        assert!(tentative("Maybe we should pin CI to Node 20.x?"));
        assert!(tentative("offer goes out if references pass"));
        assert!(tentative("NeurIPS への投稿を検討中"));
        assert!(tentative("레퍼런스 체크 통과하면 오퍼"));
        assert!(tentative("如果评审通过就投 NeurIPS"));
        assert!(!tentative("We withdraw and resubmit to NeurIPS."));
        assert!(!tentative("Decided: pin CI to Node 20"));
    }

    #[test]
    fn states_by_family() {
        assert_eq!(states("#482  feat: csv export   feature/ledger-export  open"), [("review", "open")]);
        assert_eq!(states("pr #482 is merged"), [("review", "merged")]);
        assert_eq!(states("api-7d9f  0/1  crashloopbackoff  14"), [("pod", "crashing")]);
        assert!(states("the opening paragraph").is_empty());
    }
}
