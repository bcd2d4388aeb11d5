//! What a user's correction turns down. Claude Code records the user's reply after a
//! message; `overruled` finds the replies that correct or refuse. Not every such reply takes
//! back what the message said: a directive (`don't change the TTL`, `改成中间价吧`) after a
//! message that only reports a finding sets the next step, and a note that records the
//! user's choice itself is written from the decision, not from the proposal it turned down.

use super::overruled::{How, Overruling, opening, opens_with};

/// True when the user's correction `o` of the cited `message` turns down what a note line
/// `note` restates of it. A rejected or interrupted call, and an edit that replaced the value,
/// always do. A correction the user typed does not when
/// - it only directs (`don't change the TTL`, `改成中间价吧`, `하지 마`: no denial of what
///   was said, see [`denies`]) and the message proposed nothing (see [`proposes`]): a
///   directive sets the next step, it does not take back a finding the message reports;
/// - the note records the correction itself (most of its content words: `kicks the watchdog
///   between sectors instead of raising the timeout` for `Don't raise the timeout. Kick it
///   between sectors.`): the note is written from the decision, not from the proposal.
pub(crate) fn turns_down(o: &Overruling, message: &str, note: &str) -> bool {
    if o.how != How::Corrected {
        return true;
    }
    if !denies(&o.text) && !proposes(message) {
        return false;
    }
    !records(note, &o.text)
}

/// Openers that deny what was said, not only what was proposed (`no`, `wrong`, `actually`,
/// `I meant`; いや, 違う; 아니; 不是, 不对): after them a message's findings are taken back
/// too. `Don't …`, `instead …`, `stop`, やめて, 하지 마, 不要, 改成 only direct.
const DENIALS: &[&str] = &[
    "no",
    "nope",
    "nah",
    "not",
    "wrong",
    "incorrect",
    "that's wrong",
    "that's not",
    "thats not",
    "actually",
    "wait",
    "hold on",
    "i said",
    "i meant",
    "correction",
    "let me correct",
    "sorry",
    "i misremembered",
    "i was wrong",
    "my mistake",
    "my bad",
    "on second thought",
    "on reflection",
    "勘違い",
    "間違",
    "記憶違い",
    "いや",
    "いいえ",
    "違う",
    "違い",
    "ちがう",
    "ちがい",
    "そうじゃない",
    "待って",
    "잘못",
    "착각",
    "아니",
    "아뇨",
    "잠깐",
    "不是",
    "不对",
    "错了",
    "记错",
    "搞错",
    "等等",
];

/// True when a correction opens with a denial of what was said ([`DENIALS`]).
fn denies(text: &str) -> bool {
    opens_with(&opening(text), DENIALS)
}

/// Words by which a message proposes, offers or plans rather than reports (`I'll`, `let's`,
/// `we could`, `should`, `options`, `want me to`; しましょう, 提案; 할까요, 하겠습니다; 建议,
/// 要不要, 我来…), and the question mark of an offer.
const PROPOSING: &[&str] = &[
    "i'll ",
    "i will ",
    "i'd ",
    "i would ",
    "let me ",
    "let's ",
    "lets ",
    "we could",
    "we can ",
    "you could",
    "could ",
    "should",
    "shall ",
    "option",
    "suggest",
    "propose",
    "recommend",
    "want me to",
    "how about",
    "what about",
    "plan ",
    "maybe",
    "perhaps",
    "alternative",
    "either ",
    "next step",
    "i can ",
    "going to",
    "would you",
    "do you want",
    "?",
    "？",
    "しましょう",
    "しよう",
    "ましょうか",
    "ませんか",
    "提案",
    "おすすめ",
    "推奨",
    "どうでしょう",
    "どうですか",
    "します",
    "할까요",
    "하자",
    "하겠습니다",
    "할게요",
    "제안",
    "추천",
    "어떨까요",
    "어때요",
    "建议",
    "我来",
    "要不要",
    "可以",
    "方案",
    "打算",
    "推荐",
    "我会",
    "吧",
];

/// True when `message` proposes, offers or plans something (see [`PROPOSING`]).
fn proposes(message: &str) -> bool {
    let lower = message.to_lowercase();
    PROPOSING.iter().any(|p| lower.contains(p))
}

/// True when `note` records the correction `text`: it holds two of its content words at
/// least, and at least two thirds of them.
fn records(note: &str, text: &str) -> bool {
    let said = crate::analysis::claims::content_stems(text);
    let noted = crate::analysis::claims::content_stems(note);
    let held = said.iter().filter(|s| noted.binary_search(s).is_ok()).count();
    held >= 2 && held * 3 >= said.len() * 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::provenance::overruled::corrected;

    #[test]
    fn a_directive_turns_down_only_a_proposal_and_not_the_choice_a_note_records() {
        let o = |text: &str| corrected(3, "s.jsonl:3", text);
        let report = "Keys live for 24 hours; the retry came 25.6 h later, after the key expired.";
        let proposal = "I'll raise the TTL to 48 hours so late retries are deduplicated.";
        let note = "- Keys expire after 24 h.";
        for directive in ["Don't change the TTL, product wants 24h", "改成中间价吧", "TTL는 바꾸지 말고 그대로 둬"]
        {
            assert!(!turns_down(&o(directive), report, note), "{directive}");
        }
        // A denial takes a finding back; a directive turns a proposal down.
        assert!(turns_down(&o("No, that's wrong: keys live for 48 hours"), report, note));
        assert!(turns_down(&o("Don't change the TTL"), proposal, "- Keys expire after 48 h."));
        // Unless the note records the user's choice.
        assert!(!turns_down(&o("Don't change the TTL"), proposal, "- The TTL is not changed (user's call)."));
        // A rejected call always does.
        let rejected = Overruling { how: How::Rejected, ..o("rejected") };
        assert!(turns_down(&rejected, report, note));
    }
}
