//! Closed-class words (prepositions, conjunctions, determiners, pronouns, auxiliaries,
//! particles, quantity adverbs) of the languages the claims module speaks, from the
//! maintained lists of the `stop-words` crate: NLTK's English list (closed-class words
//! only), and the stopwords-iso lists for Japanese, Korean and Chinese (NLTK's Chinese one,
//! which wins when both are built). A closed-class word is never a number's unit: "4,310
//! between March and May" says the number 4,310 and nothing about what it counts.
//!
//! The lists are taken whole, less what is no word of the language: NLTK's contraction
//! fragments (`s`, `t`, `d`, `ll`, `m`, `o`, `re`, `ve`, `y`, `ma`: what is left of
//! "don't", "I'll"…), which are unit symbols too (`5 s`, `3 m`, `10 ma`), and the
//! digits, punctuation and multi-word phrases of the Korean list. The CJK lists also hold
//! some counters (`年`, `个`, `시간`): a counter is a unit by definition, so callers try the
//! counters first and a closed-class word wins only where no counter does.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::text::{is_cjk, is_hangul};

/// NLTK contraction fragments: no English words, and unit symbols.
const FRAGMENTS: &[&str] = &["s", "t", "d", "ll", "m", "o", "re", "ve", "y", "ma"];

fn list(code: &str) -> &'static [&'static str] {
    stop_words::lookup(code).unwrap_or(&[])
}

static ENGLISH: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| list("en").iter().copied().filter(|w| !FRAGMENTS.contains(w)).collect());

static KOREAN: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| list("ko").iter().copied().filter(|w| !w.is_empty() && w.chars().all(is_hangul)).collect());

/// Japanese and Chinese words (kana and Han), longest first for prefix matching.
static JA_ZH: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut v: Vec<&'static str> = list("ja")
        .iter()
        .chain(list("zh"))
        .copied()
        .filter(|w| !w.is_empty() && w.chars().all(|c| is_cjk(c) && !is_hangul(c)))
        .collect();
    v.sort_by_key(|w| std::cmp::Reverse(w.len()));
    v.dedup();
    v
});

/// True when the (lowercase) English word is closed-class.
pub(crate) fn english(word: &str) -> bool {
    ENGLISH.contains(word)
}

/// True when the Korean word (a run of Hangul syllables) is closed-class.
pub(crate) fn korean(word: &str) -> bool {
    KOREAN.contains(word)
}

/// The closed-class Japanese or Chinese word `s` starts with (the longest), if any.
pub(crate) fn japanese_chinese_prefix(s: &str) -> Option<&'static str> {
    JA_ZH.iter().copied().find(|w| s.starts_with(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_closed_class_words_and_no_units() {
        for w in ["between", "and", "of", "the", "this", "these", "they", "were", "should", "very", "most", "few"] {
            assert!(english(w), "{w}");
        }
        for w in ["downloads", "tests", "seconds", "s", "m", "d", "ms", "gb", "files", "rows", "users"] {
            assert!(!english(w), "{w}");
        }
    }

    #[test]
    fn korean_closed_class_words() {
        for w in ["대해서", "그리고", "까지", "부터", "동안", "이상"] {
            assert!(korean(w), "{w}");
        }
        for w in ["다운로드", "테스트", "서버"] {
            assert!(!korean(w), "{w}");
        }
    }

    #[test]
    fn japanese_and_chinese_closed_class_prefixes() {
        assert_eq!(japanese_chinese_prefix("までに終わる"), Some("まで"));
        assert_eq!(japanese_chinese_prefix("から増えた"), Some("から"));
        assert_eq!(japanese_chinese_prefix("以上的用户"), Some("以上"));
        assert_eq!(japanese_chinese_prefix("分别是"), Some("分别"));
        assert_eq!(japanese_chinese_prefix("テスト"), None);
        assert_eq!(japanese_chinese_prefix("下载"), None);
    }
}
