//! Lasting words: whether a person phrased what they said as holding beyond the moment
//! (`from now on`, `always`, `remember`, 今後, いつも, 앞으로, 항상, 以后, 总是…), and
//! whether a sentence of theirs gives a lasting instruction.
//!
//! A memory note that turns a passing remark ("use pnpm for this one") into a standing rule
//! ("Always use pnpm") changes what the agent does in every later session; a remark the
//! person phrased as lasting, or as a rule of its own (`must`, `has to`, 必ず, 반드시,
//! 必须), may become one. Markers are matched in the sentence the person wrote, never in
//! the note. English ones between word boundaries; Japanese, Korean and Chinese ones as
//! substrings (CJK writes no spaces between words).

use super::directive::{Mood, mood};
use super::text::has_phrase;

/// English markers that make a sentence lasting by themselves (lowercase).
const EN_STRONG: &[&str] = &[
    "from now on",
    "from here on",
    "from today on",
    "going forward",
    "moving forward",
    "in the future",
    "in future",
    "remember",
    "don't forget",
    "do not forget",
    "keep in mind",
    "henceforth",
    "as a rule",
    "for good",
];

/// English markers of habit: lasting, but also what a description says (`it always
/// fails`), so an instruction needs more than them.
const EN_HABIT: &[&str] = &["always", "never", "every time", "each time", "whenever", "by default", "all the time"];

/// Japanese, Korean and Chinese markers that make a sentence lasting by themselves.
const CJK_STRONG: &[&str] = &[
    "今後",
    "これから",
    "以後",
    "今度から",
    "次から",
    "次回から",
    "覚えて",
    "忘れないで",
    "앞으로",
    "이제부터",
    "지금부터",
    "다음부터",
    "기억해",
    "잊지 마",
    "잊지마",
    "以后",
    "今后",
    "从现在开始",
    "從現在開始",
    "从今以后",
    "记住",
    "記住",
    "别忘了",
    "別忘了",
    "下次",
];

/// Japanese, Korean and Chinese markers of habit (see [`EN_HABIT`]).
const CJK_HABIT: &[&str] =
    &["いつも", "常に", "毎回", "ずっと", "항상", "매번", "언제나", "总是", "總是", "每次", "始终", "始終", "永远"];

/// Words by which a person states a rule of their own (lowercase; English between word
/// boundaries, the others as substrings).
const EN_RULE: &[&str] =
    &["must", "mustn't", "should", "shouldn't", "have to", "has to", "need to", "needs to", "make sure", "be sure to"];

/// Prohibitions: `do not retry it` is as much a rule as `it must not be retried`.
const EN_PROHIBITION: &[&str] = &["do not", "don't", "dont"];

/// The same in Japanese, Korean and Chinese.
const CJK_RULE: &[&str] = &[
    "必ず",
    "絶対",
    "べき",
    "禁止",
    "なければ",
    "ならない",
    "반드시",
    "절대",
    "해야",
    "금지",
    "必须",
    "必須",
    "务必",
    "務必",
    "应该",
    "應該",
    "一定要",
    "不许",
    "不准",
];

/// Prohibitions in Japanese, Korean and Chinese.
const CJK_PROHIBITION: &[&str] =
    &["しないで", "ないでください", "하지 마", "하지마", "마세요", "不要", "别", "請勿", "请勿"];

/// Requests and obligations in Japanese, Korean and Chinese: with a marker of habit, a
/// sentence that asks for it (`いつも〜してください`) rather than describes it.
const CJK_ASK: &[&str] = &[
    "ください",
    "して",
    "てね",
    "でね",
    "ように",
    "こと",
    "ないで",
    "줘",
    "하세요",
    "해라",
    "주세요",
    "마세요",
    "하지 마",
    "해요",
    "请",
    "請",
    "不要",
    "别",
    "別",
    "要",
];

/// True when `text` says what it says as lasting: a marker of the future or of habit
/// (`from now on`, `always`, `remember`, 今後, いつも, 앞으로, 항상, 以后, 总是…).
pub fn lasting(text: &str) -> bool {
    let lower = text.to_lowercase();
    EN_STRONG.iter().chain(EN_HABIT).any(|m| has_phrase(&lower, m))
        || CJK_STRONG.iter().chain(CJK_HABIT).any(|m| lower.contains(m))
}

/// True when `text` states a rule in its own words (`must`, `has to`, `make sure`, 必ず,
/// 반드시, 必须…) or forbids (`do not`, しないで, 하지 마, 不要): a person who says so
/// means it to hold.
pub fn phrased_as_rule(text: &str) -> bool {
    let lower = text.to_lowercase();
    obliges(&lower)
        || EN_PROHIBITION.iter().any(|m| has_phrase(&lower, m))
        || CJK_PROHIBITION.iter().any(|m| lower.contains(m))
}

/// True when the lowercase `lower` states an obligation (`must`, 必ず…), prohibitions aside.
fn obliges(lower: &str) -> bool {
    EN_RULE.iter().any(|m| has_phrase(lower, m)) || CJK_RULE.iter().any(|m| lower.contains(m))
}

/// True when the sentence `text` gives a lasting instruction or fact to keep: a marker that
/// is lasting by itself (`from now on`, `remember`, 今後, 앞으로, 以后…), or a marker of
/// habit in a sentence that asks for it — an imperative or a rule (`Always run the
/// linter`, `never push to main`, `we always squash`), or in CJK a request
/// (いつも〜してください, 항상 〜해 줘, 每次都要…). A question is none.
pub fn lasting_instruction(text: &str) -> bool {
    let lower = text.trim().to_lowercase();
    if lower.ends_with('?') || lower.ends_with('？') {
        return false;
    }
    // `I don't remember`, `do you remember`: memory, not a request to keep something.
    let remembers = |l: &str| {
        ["don't remember", "do not remember", "can't remember", "cannot remember", "you remember", "i remember"]
            .iter()
            .any(|p| l.contains(p))
    };
    let strong = EN_STRONG.iter().any(|m| has_phrase(&lower, m) && (*m != "remember" || !remembers(&lower)))
        || CJK_STRONG.iter().any(|m| lower.contains(m));
    if strong {
        return true;
    }
    let opening = lower.trim_start_matches(|c: char| !c.is_alphanumeric());
    let opening = opening.strip_prefix("please ").unwrap_or(opening);
    let en_habit = EN_HABIT.iter().any(|m| has_phrase(&lower, m));
    if en_habit {
        let asks = EN_HABIT.iter().any(|m| opening.starts_with(m))
            || mood(&lower) == Some(Mood::Imperative)
            || ["we ", "you ", "let's ", "i want", "i'd like", "i prefer"].iter().any(|p| opening.starts_with(p))
            || obliges(&lower);
        return asks;
    }
    CJK_HABIT.iter().any(|m| lower.contains(m)) && (CJK_ASK.iter().any(|m| lower.contains(m)) || obliges(&lower))
}

/// False only when no sentence of `lower` (a lowercase text) can give a lasting
/// instruction: it holds none of the markers [`lasting_instruction`] starts from. A cheap
/// test on a whole turn before its sentences are read.
pub fn may_hold_lasting_marker(lower: &str) -> bool {
    EN_STRONG.iter().chain(EN_HABIT).chain(CJK_STRONG).chain(CJK_HABIT).any(|m| lower.contains(m))
}

/// The content stems of every marker of this module (`rememb`, `must`, 覚え…): the words
/// that say an instruction lasts, not what it asks for.
pub fn marker_stems() -> &'static std::collections::BTreeSet<String> {
    static STEMS: std::sync::LazyLock<std::collections::BTreeSet<String>> = std::sync::LazyLock::new(|| {
        let tables = [EN_STRONG, EN_HABIT, EN_RULE, EN_PROHIBITION, CJK_STRONG, CJK_HABIT, CJK_RULE, CJK_PROHIBITION];
        tables.iter().flat_map(|t| t.iter()).flat_map(|m| super::polarity::content_stems(m)).collect()
    });
    &STEMS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_with_a_lasting_instruction_has_a_marker_the_cheap_test_sees() {
        for text in
            ["From now on, use pnpm", "Always squash before merging", "今後は pnpm を使って", "항상 테스트를 돌려 줘"]
        {
            assert!(lasting_instruction(text), "{text}");
            assert!(may_hold_lasting_marker(&format!("ok. {}", text.to_lowercase())), "{text}");
        }
        assert!(!may_hold_lasting_marker("use pnpm for this one"));
    }

    #[test]
    fn lasting_in_every_language() {
        for yes in [
            "From now on, use pnpm",
            "Always squash before merging",
            "remember that staging is on port 8443",
            "今後は pnpm を使って",
            "いつも英語で書いて",
            "앞으로 pnpm 써",
            "항상 테스트를 돌려",
            "以后用 pnpm",
            "总是先跑测试",
        ] {
            assert!(lasting(yes), "{yes}");
        }
        for no in
            ["use pnpm for this one", "pnpm を使って", "pnpm 써 줘", "用 pnpm", "the futures market", "nevertheless"]
        {
            assert!(!lasting(no), "{no}");
        }
    }

    #[test]
    fn lasting_instructions_ask_for_what_lasts() {
        for yes in [
            "From now on, run the suite with pytest -q -n 8",
            "Remember: the staging DB is read-only",
            "Always run the linter before pushing",
            "never push to main",
            "We always squash merge",
            "今後はコミットメッセージを英語で書いてください",
            "いつもテストを先に実行してください",
            "앞으로 커밋 메시지는 영어로 써",
            "항상 테스트를 먼저 돌려 줘",
            "以后提交信息用英文",
            "每次都要先跑测试",
        ] {
            assert!(lasting_instruction(yes), "{yes}");
        }
        for no in [
            "it always fails on CI",
            "the build never finished",
            "do you remember the port?",
            "I don't remember which port it was",
            "Can you always use pnpm?",
            "いつも失敗する",
            "항상 실패해",
            "总是失败",
            "use pnpm for this one",
        ] {
            assert!(!lasting_instruction(no), "{no}");
        }
    }

    #[test]
    fn rules_in_the_persons_own_words() {
        for yes in
            ["Coverage has to stay above 85%", "you must sign commits", "必ず署名して", "반드시 서명해", "必须签名"]
        {
            assert!(phrased_as_rule(yes), "{yes}");
        }
        for yes in ["do not retry it", "リトライしないで", "재시도하지 마", "不要重试"] {
            assert!(phrased_as_rule(yes), "a prohibition: {yes}");
        }
        for no in ["use pnpm here", "pnpm を使って", "pnpm 써", "用 pnpm"] {
            assert!(!phrased_as_rule(no), "{no}");
        }
    }
}
