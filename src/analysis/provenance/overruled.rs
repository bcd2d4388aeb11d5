//! Overruled sources: a cited message that the user turned down or corrected later in the
//! same session. A note built from it records what was *not* decided.
//!
//! A message is overruled when, before the user's next typed message,
//! - one of its tool calls came back rejected or interrupted by the user (Claude Code's
//!   "The user doesn't want to proceed with this tool use", "[Request interrupted by user
//!   for tool use]", a plan the user did not approve), or
//! - the user's next typed message corrects it: it opens with a refusal or a correction
//!   (`no`, `don't`, `stop`, `actually`, `wait`, `instead`; いや, 違う, じゃなくて, やめて;
//!   아니, 말고, 하지 마; 不是, 不要, 别, 算了) or says `instead`/`rather than`/`not X but Y`
//!   in its first sentence — a closing (`no thanks`, `no, that's all`) excepted.
//!
//! A message the user wrote is overruled only by the user's own next message correcting
//! it about the same thing (a word of the cited message in the correction): people add
//! "no, also…" to their own requests far more often than they take them back.

use crate::analysis::claims::closed_class;
use crate::inputs::transcript::{Answer, Speaker, Transcript, Turn};
use std::ops::RangeInclusive;

/// Why and where a cited message was turned down.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overruling {
    /// The physical line of the answer that turned it down.
    pub line: usize,
    /// `name:line` of that line.
    pub loc: String,
    /// What that line says (its text, or the tool result), for the evidence pane.
    pub text: String,
    /// How it was turned down.
    pub how: How,
}

/// How a proposal was turned down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// A tool call of it was rejected or interrupted by the user.
    Rejected,
    /// The user's next message corrected it.
    Corrected,
    /// A later edit of the session replaced what it says (`-O2` edited to `-O1`).
    Edited,
}

/// The overruling of a message by the user's later correcting message at `line` (`loc`).
pub(crate) fn corrected(line: usize, loc: &str, text: &str) -> Overruling {
    Overruling { line, loc: loc.to_string(), text: text.to_string(), how: How::Corrected }
}

/// What an edit at `line` (`loc`) wrote in place of a message's value.
pub(crate) fn edited(line: usize, loc: &str, text: &str) -> Overruling {
    Overruling { line, loc: loc.to_string(), text: text.to_string(), how: How::Edited }
}

impl Overruling {
    /// `rejected by the user at x.jsonl:12` / `corrected by the user at x.jsonl:14`.
    pub fn phrase(&self) -> String {
        match self.how {
            How::Rejected => format!("rejected by the user at {}", self.loc),
            How::Corrected => format!("corrected by the user at {}", self.loc),
            How::Edited => format!("replaced by the edit at {}", self.loc),
        }
    }
}

/// The overruling of the message at `span` of `t`, if the user turned it down.
pub fn of_message(t: &Transcript, span: RangeInclusive<usize>) -> Option<Overruling> {
    let first = span.clone().find_map(|n| t.turn(n))?;
    let own = match first.speaker {
        Speaker::Assistant | Speaker::SubAgent => false,
        Speaker::User => true,
        _ => return None,
    };
    let at = |line: usize, text: String, how: How| Overruling { line, loc: format!("{}:{line}", t.name()), text, how };
    let answer = t.answer(span.clone());
    if !own && let Some((line, r)) = answer.failed.iter().find(|(_, r)| rejection(&r.text)) {
        return Some(at(*line, r.text.clone(), How::Rejected));
    }
    let Answer { next_user, interrupted, calls, succeeded, .. } = answer;
    // A tool call the user interrupted before it answered (Claude Code records the
    // interruption on its own line).
    if !own
        && succeeded < calls
        && let Some(line) = interrupted
    {
        return Some(at(line, "[Request interrupted by user]".to_string(), How::Rejected));
    }
    let (line, text) = next_user?;
    if !corrects(&text) || (own && !shares_a_word(&first.text, &text)) {
        return None;
    }
    Some(at(line, text, How::Corrected))
}

/// How close to the end of its session an unanswered question must stand: what follows it
/// is the session's own bookkeeping, not more work.
const LAST_LINES: usize = 50;

/// True when an assistant message asks the user something and waits for the answer that
/// never came: it makes no tool call, its own text ends in a question (`?` or `？` in its
/// last 300 bytes), and the user typed nothing after it — the session ends within
/// [`LAST_LINES`] lines of it. A note that records what it proposes as decided records what
/// nobody decided.
pub fn awaits_answer(t: &Transcript, span: RangeInclusive<usize>) -> bool {
    let end = *span.end();
    if t.line_count().saturating_sub(end) > LAST_LINES {
        return false;
    }
    let turns: Vec<Turn> = span.filter_map(|n| t.turn(n)).collect();
    let own = turns.first().is_some_and(|x| x.speaker == Speaker::Assistant);
    if !own || turns.iter().any(|x| !x.calls.is_empty()) {
        return false;
    }
    let text = turns.iter().map(|x| x.text.as_str()).collect::<Vec<_>>().join("\n");
    let text = text.trim_end();
    let mut from = text.len().saturating_sub(300);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    if !text[from..].contains(['?', '？']) {
        return false;
    }
    let typed = |x: &Turn| x.speaker == Speaker::User && !x.meta && x.results.is_empty() && !x.text.trim().is_empty();
    !(end + 1..=t.line_count()).any(|m| t.turn(m).is_some_and(|x| typed(&x)))
}

/// The name of a tool call in `span` that hands work to a sub-agent (`Task`, `Agent`,
/// `dispatch_agent`…) and that nothing answered: no result of it among the lines `tied` to
/// the message, and the session ends within the window those were looked for in. What the
/// call asks for was not done as far as the session shows.
pub fn unanswered_delegation(t: &Transcript, span: RangeInclusive<usize>, tied: &[usize]) -> Option<String> {
    let end = *span.end();
    if t.line_count().saturating_sub(end) > crate::inputs::transcript::ANSWER_WINDOW {
        return None;
    }
    let calls: Vec<(String, String)> =
        span.filter_map(|n| t.turn(n)).flat_map(|x| x.calls).filter(|(_, name)| delegates(name)).collect();
    let answered: Vec<String> =
        tied.iter().filter_map(|&n| t.turn(n)).flat_map(|x| x.results.into_iter().map(|r| r.id)).collect();
    calls.into_iter().find(|(id, _)| !answered.contains(id)).map(|(_, name)| name)
}

/// True when a tool of this name hands work to a sub-agent.
fn delegates(name: &str) -> bool {
    let lower = name.to_lowercase();
    matches!(lower.as_str(), "task" | "agent")
        || ["dispatch_agent", "subagent", "sub_agent", "delegate", "spawn_agent"].iter().any(|d| lower.contains(d))
}

/// True when a tool result records that the user turned the call down (not that the tool
/// failed on its own).
pub fn rejection(text: &str) -> bool {
    let lower = text.to_lowercase();
    [
        "doesn't want to proceed",
        "does not want to proceed",
        "tool use was rejected",
        "user rejected",
        "rejected by the user",
        "request interrupted by user",
        "interrupted by user",
        "user denied",
        "permission denied by user",
        "the user declined",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

/// Words and phrases that open a correction or a refusal (lowercase; matched at the start
/// of the message, after quotes and spaces, as whole words for Latin ones).
const OPENERS: &[&str] = &[
    "no",
    "nope",
    "nah",
    "don't",
    "dont",
    "do not",
    "not",
    "never",
    "stop",
    "wait",
    "actually",
    "instead",
    "rather",
    "wrong",
    "incorrect",
    "that's wrong",
    "that's not",
    "thats not",
    "undo",
    "revert",
    "cancel",
    "scratch that",
    "never mind",
    "nevermind",
    "hold on",
    "please don't",
    "please do not",
    "i said",
    "i meant",
    "on second thought",
    "on second thoughts",
    "on reflection",
    "change of plan",
    "change of plans",
    "correction",
    "let me correct",
    "sorry, i misremembered",
    "sorry, i was wrong",
    "sorry, my mistake",
    "i misremembered",
    "i was wrong",
    "my mistake",
    "my bad",
    "勘違い",
    "間違えた",
    "記憶違い",
    "잘못 알았",
    "착각",
    "我记错了",
    "记错了",
    "搞错了",
    "いや",
    "いいえ",
    "違う",
    "違います",
    "ちがう",
    "ちがいます",
    "じゃなくて",
    "ではなく",
    "やめて",
    "やっぱり",
    "待って",
    "だめ",
    "ダメ",
    "そうじゃない",
    "아니",
    "아뇨",
    "아니요",
    "아니야",
    "말고",
    "하지 마",
    "하지마",
    "잠깐",
    "다시 생각해",
    "생각해 보니",
    "취소",
    "대신",
    "不是",
    "不要",
    "别",
    "不用",
    "算了",
    "不对",
    "错了",
    "等等",
    "取消",
    "改成",
    "换成",
    "而是",
];

/// Phrases that correct anywhere in the first sentence.
const INSIDE: &[&str] = &[
    " instead",
    "rather than",
    "don't ",
    "do not ",
    "shouldn't",
    "should not",
    "じゃなくて",
    "ではなく",
    "じゃない",
    "말고",
    "아니라",
    "대신",
    "而是",
    "不是",
    "不要",
    "别用",
    "换成",
    "改成",
];

/// Closings that open with `no` without turning anything down, and hesitations.
const CLOSINGS: &[&str] = &[
    "no thanks",
    "no thank",
    "no, thanks",
    "no, thank",
    "no, that's all",
    "no that's all",
    "no, that's it",
    "no that's it",
    "no problem",
    "no worries",
    "no more",
    "nope, that's",
    "no, all good",
    "no, looks good",
    "no, perfect",
    "no, great",
    "no, this is",
    "no, it's fine",
    "no, it works",
    "no, done",
    // Hesitation, not a refusal.
    "not sure",
    "not certain",
    "no idea",
];

/// True when a message the user typed corrects or refuses what came before it.
pub fn corrects(text: &str) -> bool {
    let lower = opening(text);
    if CLOSINGS.iter().any(|c| lower.starts_with(c)) {
        return false;
    }
    if opens_with(&lower, OPENERS) {
        return true;
    }
    let first = first_sentence(&lower);
    INSIDE.iter().any(|p| first.contains(p))
}

/// How a reply opens, for [`opens_with`]: lowercase, past leading marks and an interjection.
pub(super) fn opening(text: &str) -> String {
    let lower = text.trim().to_lowercase();
    let lower = lower.trim_start_matches(|c: char| !c.is_alphanumeric() && !crate::base::text::is_cjk(c));
    without_interjection(lower).to_string()
}

/// True when `lower` (see [`opening`]) opens with one of `words`, a Latin one as a whole word.
pub(super) fn opens_with(lower: &str, words: &[&str]) -> bool {
    words.iter().any(|w| {
        lower.strip_prefix(w).is_some_and(|rest| !w.is_ascii() || !rest.starts_with(|c: char| c.is_alphanumeric()))
    })
}

/// Sounds that open a message before what it says (`oh wait`, `아 잠깐`, `あ、待って`,
/// `啊不对`): a correction after them still opens the message.
const INTERJECTIONS: &[&str] = &[
    "oh",
    "ah",
    "hmm",
    "um",
    "uh",
    "oops",
    "아",
    "앗",
    "어",
    "음",
    "あ",
    "あっ",
    "ああ",
    "えっと",
    "啊",
    "哦",
    "嗯",
    "呃",
];

/// `text` (lowercase, trimmed) without an interjection opening it and the marks after it.
fn without_interjection(text: &str) -> &str {
    for i in INTERJECTIONS {
        if let Some(rest) = text.strip_prefix(i)
            && rest.starts_with(|c: char| c.is_whitespace() || matches!(c, ',' | '、' | '，' | '!' | '…'))
        {
            return rest.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ',' | '、' | '，' | '!' | '…'));
        }
    }
    text
}

/// The first sentence of a message (up to `.`, `!`, `?`, `。` or a line break).
fn first_sentence(text: &str) -> &str {
    let end = text.find(['.', '!', '?', '。', '！', '？', '\n']).unwrap_or(text.len());
    &text[..end]
}

/// True when two texts share a content word (Latin words of 3 letters or more that are not
/// closed-class, or a CJK pair of characters).
fn shares_a_word(a: &str, b: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        let lower = s.to_lowercase();
        let mut out: Vec<String> = lower
            .split(|c: char| !c.is_alphanumeric() || crate::base::text::is_cjk(c))
            .filter(|w| w.chars().count() >= 3 && !closed_class(w))
            .map(str::to_string)
            .collect();
        let cjk: Vec<char> = lower.chars().filter(|c| crate::base::text::is_cjk(*c)).collect();
        out.extend(cjk.windows(2).map(|w| w.iter().collect::<String>()));
        out
    };
    let wa = words(a);
    words(b).iter().any(|w| wa.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_in_every_language() {
        for yes in [
            "no, don't add a cron job, use the queue",
            "No. Use Postgres 16",
            "Actually make it 30s",
            "wait — that's the staging DB",
            "Use the queue instead.",
            "don't touch the lockfile",
            "いや、キューを使って",
            "cronじゃなくてキューで",
            "아니, 큐를 써",
            "cron 말고 큐로 해",
            "不是这样，用队列",
            "不要用 cron",
            "oh wait, that's the staging DB",
            "아 잠깐, 90은 너무 높다. 85로 하자",
            "あ、待って、それは本番",
            "Sorry, I misremembered — it's max 2 in a row for PE.",
            "我记错了，是 2 个",
        ] {
            assert!(corrects(yes), "{yes}");
        }
        for no in [
            "No thanks, that's all",
            "no problem",
            "Nothing else for now",
            "Notice the new flag",
            "Now run the tests",
            "great, ship it",
            "はい、お願いします",
            "네, 좋아요",
            "好的，继续",
            "oh nice, ship it",
            "hmm, not sure. let me ask them first",
            "아 좋아요",
        ] {
            assert!(!corrects(no), "{no}");
        }
    }

    #[test]
    fn rejections_are_the_users_not_failures() {
        assert!(rejection("The user doesn't want to proceed with this tool use. The tool use was rejected"));
        assert!(rejection("[Request interrupted by user for tool use]"));
        assert!(!rejection("Error: Exit code 1\nnpm ERR! missing script: test"));
    }
}
