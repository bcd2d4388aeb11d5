//! What a sentence asserts or denies: its content words, its negations and the poles of
//! antonym pairs it uses, so that a note sentence can be matched to the source sentence it
//! restates and checked for having turned it around ("the deploy needs no migration"
//! against "the deploy needs a migration"; `optional` against `required`).
//!
//! Languages: English (negation words and `n't`), Japanese (ない, ません, 不要, しない…),
//! Korean (않, 없, 안, 못, 불필요…) and Chinese (不, 没, 无需, 别…); antonym pairs that matter
//! in memory notes (required/optional, enabled/disabled, allowed/forbidden, before/after,
//! deprecated/recommended, always/never, sync/async, pass/fail…) in each of them.
//! Latin content words are compared by stem; CJK text by pairs of characters, since it
//! writes no spaces between words.

use std::ops::Range;

use super::binding::{clause_at, stem};
use super::closed;
use super::text::is_cjk;

/// Negation words of English (lowercase, whole words).
const EN_NEGATIONS: &[&str] = &[
    "not",
    "no",
    "never",
    "none",
    "nothing",
    "neither",
    "nor",
    "without",
    "cannot",
    "unnecessary",
    "unneeded",
    "needless",
    "nobody",
    "nowhere",
    // Words that deny by meaning: "Redis is gone" says what "no Redis" says.
    "gone",
    "removed",
    "dropped",
    "deleted",
    "stopped",
    "eliminated",
    "refuse",
    "refuses",
    "refused",
    "prevent",
    "prevents",
    "prevented",
    "deny",
    "denies",
    "denied",
    "unused",
    "avoid",
    "avoided",
    "skip",
    "skipped",
];

/// Negation markers of Japanese, Korean and Chinese (substrings).
const CJK_NEGATIONS: &[&str] = &[
    // Japanese
    "ない",
    "ません",
    "不要",
    "不可",
    "なし",
    "無し",
    "いらない",
    "要らない",
    "せず",
    "ぬ",
    "ではなく",
    "じゃなく",
    // Korean
    "않",
    "없",
    "못",
    "불필요",
    "아니",
    "안 ",
    "말고",
    // Chinese
    "不",
    "没",
    "無",
    "无",
    "别",
    "勿",
    "未",
    "非",
];

/// Antonym pairs: each side's words (English stems, or CJK words). A sentence using one side
/// where its source uses the other says the opposite.
const ANTONYMS: &[(&[&str], &[&str])] = &[
    (
        &["requir", "mandatori", "必須", "필수", "必须", "必需", "必要"],
        &["option", "任意", "선택", "可选", "不要", "불필요"],
    ),
    (&["enabl", "有効", "활성화", "启用", "开启"], &["disabl", "無効", "비활성화", "禁用", "关闭"]),
    (
        &["allow", "permit", "許可", "허용", "允许"],
        &["forbid", "forbidden", "prohibit", "ban", "disallow", "禁止", "금지"],
    ),
    (&["befor", "prior", "以前", "이전", "之前"], &["after", "以降", "이후", "之后"]),
    (&["deprec", "obsolet", "非推奨", "사용 중단", "弃用"], &["recommend", "prefer", "推奨", "권장", "推荐"]),
    (&["alway", "いつも", "常に", "항상", "总是", "始终"], &["never", "決して", "절대", "从不"]),
    (&["sync", "synchron", "同期", "동기"], &["async", "asynchron", "非同期", "비동기", "异步"]),
    (&["pass", "succeed", "success", "成功", "성공"], &["fail", "failur", "失敗", "실패", "失败"]),
    (&["public", "公開", "공개", "公开"], &["privat", "非公開", "비공개", "私有"]),
    (&["includ", "含め", "포함", "包含"], &["exclud", "除外", "제외", "排除"]),
    (&["accept", "承認", "승인", "接受"], &["reject", "却下", "거절", "拒绝"]),
    (&["increas", "rais", "増や", "증가", "增加"], &["decreas", "lower", "reduc", "減ら", "감소", "减少"]),
    (&["intern", "内部", "내부"], &["extern", "外部", "외부"]),
    (&["valid", "有効な"], &["invalid", "無効な"]),
    (&["support"], &["unsupport"]),
    (&["safe"], &["unsaf"]),
    (&["local", "ローカル", "로컬", "本地"], &["remot", "リモート", "원격", "远程"]),
    (&["faster", "速い", "빠르"], &["slower", "遅い", "느리"]),
    (&["higher", "more", "多い", "많"], &["lower", "less", "fewer", "少ない", "적"]),
    (&["minimum", "min", "最小", "최소", "最少"], &["maximum", "max", "最大", "최대", "最多"]),
];

/// One clause of a text, read for what it asserts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// Its bytes in the text.
    pub range: Range<usize>,
    /// Its comparable content words: stems of Latin words that are no closed-class,
    /// negation or antonym word; pairs of CJK characters outside negation markers.
    pub content: Vec<String>,
    /// How many negations it holds.
    pub negations: usize,
    /// The antonym poles it uses: (pair, side).
    pub poles: Vec<(usize, bool)>,
}

/// How a source statement says the opposite of a note's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opposite {
    /// One of the two is negated, the other is not.
    Negation,
    /// They use the two sides of an antonym pair (`required` and `optional`).
    Antonym,
}

/// The statements of `text` that say something (two content words or more): its clauses
/// (see `binding::clause_at`), each cut further at commas, colons, dashes, brackets and
/// the conjunctions that join two assertions (`but`, `and`, `while`, `although`; `、`,
/// `，`), so that one sentence's two halves are judged apart ("no Redis needed: tests use
/// a fake").
pub fn statements(text: &str) -> Vec<Statement> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let clause = clause_at(text, at);
        let next = clause.end.max(at) + text.get(clause.end..).and_then(|r| r.chars().next()).map_or(1, char::len_utf8);
        for part in parts(text, clause) {
            if let Some(s) = statement(text, part) {
                out.push(s);
            }
        }
        at = next;
    }
    out
}

/// Words that join two assertions (lowercase, whole words).
const JOINS: &[&str] = &["but", "and", "while", "whereas", "although", "though", "however", "yet", "so"];

/// The parts of the clause `range` of `text` (see [`statements`]).
fn parts(text: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let Some(clause) = text.get(range.clone()) else { return Vec::new() };
    let mut out = Vec::new();
    let mut start = 0;
    let mut word_start: Option<usize> = None;
    let cut = |to: usize, next: usize, start: &mut usize, out: &mut Vec<Range<usize>>| {
        if to > *start {
            out.push(range.start + *start..range.start + to);
        }
        *start = next;
    };
    for (i, c) in clause.char_indices() {
        let end = i + c.len_utf8();
        if is_word_part(c) {
            word_start.get_or_insert(i);
            continue;
        }
        if let Some(ws) = word_start.take()
            && JOINS.contains(&clause[ws..i].to_lowercase().as_str())
        {
            cut(ws, i, &mut start, &mut out);
        }
        let dash = c == '-' && clause[..i].ends_with(' ') && clause[end..].starts_with(' ');
        if matches!(c, ',' | ':' | '(' | ')' | '—' | '–' | '、' | '，' | '：' | '（' | '）') || dash {
            cut(i, end, &mut start, &mut out);
        }
    }
    if start < clause.len() {
        out.push(range.start + start..range.end);
    }
    out
}

/// True when two texts share a content word (a Latin stem of three letters or more, or a
/// pair of CJK characters), dates and numbers aside: the same event or thing is spoken of.
pub fn shares_content(a: &str, b: &str) -> bool {
    let words = |t: &str| {
        let mut w = read(t, 0..t.len()).content;
        w.retain(|x| x.chars().count() >= 3 || x.chars().any(is_cjk));
        w.retain(|x| !x.chars().all(|c| c.is_ascii_digit()));
        w
    };
    let wb = words(b);
    words(a).iter().any(|w| wb.binary_search(w).is_ok())
}

/// The statement of `text[range]`, if it says something.
fn statement(text: &str, range: Range<usize>) -> Option<Statement> {
    let s = read(text, range);
    (s.content.len() >= 2).then_some(s)
}

/// `text[range]` read as a statement, however little it says.
fn read(text: &str, range: Range<usize>) -> Statement {
    let Some(part) = text.get(range.clone()) else {
        return Statement { range, content: Vec::new(), negations: 0, poles: Vec::new() };
    };
    let lower = part.to_lowercase();
    let mut content = Vec::new();
    let mut negations = 0;
    let mut poles = Vec::new();
    let pole_of = |w: &str, poles: &mut Vec<(usize, bool)>| {
        for (i, (a, b)) in ANTONYMS.iter().enumerate() {
            if a.contains(&w) {
                poles.push((i, true));
                return true;
            }
            if b.contains(&w) {
                poles.push((i, false));
                return true;
            }
        }
        false
    };
    for word in latin_words(&lower) {
        if EN_NEGATIONS.contains(&word) || word.ends_with("n't") {
            negations += 1;
            continue;
        }
        let s = stem(word);
        if pole_of(&s, &mut poles) || pole_of(word, &mut poles) || closed::english(word) {
            continue;
        }
        // Numbers are values (judged as claims), not the words a sentence is about.
        if s.chars().count() >= 2 && !s.chars().all(|c| c.is_ascii_digit()) {
            content.push(s);
        }
    }
    let cjk: String = lower.chars().map(|c| if is_cjk(c) { c } else { ' ' }).collect();
    for run in cjk.split(' ').filter(|r| !r.is_empty()) {
        let mut rest = run.to_string();
        // Antonyms first: `不要` is the pole of `必要`, not a negation of `要`.
        for (i, (a, b)) in ANTONYMS.iter().enumerate() {
            for (side, words) in [(true, a), (false, b)] {
                for w in words.iter().filter(|w| w.chars().any(is_cjk)) {
                    if rest.contains(w) {
                        poles.push((i, side));
                        rest = rest.replace(w, " ");
                    }
                }
            }
        }
        for n in CJK_NEGATIONS.iter().filter(|n| !n.ends_with(' ')) {
            let k = rest.matches(n).count();
            if k > 0 {
                negations += k;
                rest = rest.replace(n, " ");
            }
        }
        for piece in rest.split(' ') {
            let chars: Vec<char> = piece.chars().collect();
            content.extend(chars.windows(2).map(|w| w.iter().collect::<String>()));
        }
    }
    if lower.contains("안 ") {
        negations += lower.matches("안 ").count();
    }
    content.sort();
    content.dedup();
    poles.sort();
    poles.dedup();
    Statement { range, content, negations, poles }
}

/// True for a character of a Latin word: a letter or digit outside CJK, `_`, an apostrophe.
fn is_word_part(c: char) -> bool {
    (c.is_alphanumeric() && !is_cjk(c)) || matches!(c, '\'' | '’' | '_')
}

/// The Latin words of a lowercase text (apostrophes kept inside: `don't`).
fn latin_words(lower: &str) -> impl Iterator<Item = &str> {
    lower.split(|c: char| !is_word_part(c)).map(|w| w.trim_matches(['\'', '’'])).filter(|w| !w.is_empty())
}

impl Statement {
    /// The share of this statement's content words the other one holds (0 to 1).
    pub fn covered_by(&self, other: &Statement) -> f32 {
        if self.content.is_empty() {
            return 0.0;
        }
        let shared = self.content.iter().filter(|w| other.content.binary_search(w).is_ok()).count();
        shared as f32 / self.content.len() as f32
    }

    /// How many content words the two share.
    pub fn shared(&self, other: &Statement) -> usize {
        self.content.iter().filter(|w| other.content.binary_search(w).is_ok()).count()
    }

    /// How `source` says the opposite of this statement, if it does: one negated and the
    /// other not, or the two sides of an antonym pair (each using one side only), an odd
    /// number of such flips in all (`not required` says what `optional` says).
    pub fn opposite(&self, source: &Statement) -> Option<Opposite> {
        let one_side = |s: &Statement, i: usize| {
            let a = s.poles.contains(&(i, true));
            let b = s.poles.contains(&(i, false));
            (a != b).then_some(a)
        };
        let flipped = self
            .poles
            .iter()
            .filter(|&&(i, _)| matches!((one_side(self, i), one_side(source, i)), (Some(x), Some(y)) if x != y))
            .map(|&(i, _)| i)
            .collect::<std::collections::BTreeSet<usize>>()
            .len();
        let negation = (self.negations % 2) != (source.negations % 2);
        match (flipped % 2 == 1, negation) {
            // An antonym says the opposite only of the very same sentence: most of its
            // words (`run the linter after the tests`, not `passed one after another`).
            (true, false) if self.covered_by(source) >= 0.8 => Some(Opposite::Antonym),
            (false, true) => Some(Opposite::Negation),
            _ => None,
        }
    }
}

/// True when `text` holds a negation (an odd number of them in some clause).
pub fn negated(text: &str) -> bool {
    statements(text).iter().any(|s| s.negations % 2 == 1) || {
        // A short line (one content word) is no statement but may still deny.
        let lower = text.to_lowercase();
        latin_words(&lower).any(|w| EN_NEGATIONS.contains(&w) || w.ends_with("n't"))
            || CJK_NEGATIONS.iter().any(|n| lower.contains(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Statement {
        let mut s = statements(text);
        assert_eq!(s.len(), 1, "{text}: {s:?}");
        s.remove(0)
    }

    fn opposite(note: &str, source: &str) -> Option<Opposite> {
        one(note).opposite(&one(source))
    }

    #[test]
    fn negations_turn_a_sentence_around() {
        assert_eq!(opposite("The deploy needs no migration", "the deploy needs a migration"), Some(Opposite::Negation));
        assert_eq!(opposite("Tests don't hit the network", "tests hit the network"), Some(Opposite::Negation));
        assert_eq!(opposite("no migration is needed for the deploy", "the deploy needs no migration"), None);
        assert_eq!(
            opposite("デプロイにマイグレーションは不要", "デプロイにはマイグレーションが必要です"),
            Some(Opposite::Antonym)
        );
        assert_eq!(opposite("캐시를 사용하지 않는다", "캐시를 사용한다"), Some(Opposite::Negation));
        assert_eq!(opposite("部署不需要迁移数据库", "部署需要迁移数据库"), Some(Opposite::Negation));
    }

    #[test]
    fn antonyms_turn_a_sentence_around() {
        assert_eq!(
            opposite("The migration step is optional", "the migration step is required"),
            Some(Opposite::Antonym)
        );
        assert_eq!(opposite("Telemetry is disabled in CI", "telemetry is enabled in CI"), Some(Opposite::Antonym));
        assert_eq!(
            opposite("Run the linter after the tests", "run the linter before the tests"),
            Some(Opposite::Antonym)
        );
        assert_eq!(opposite("The migration step is required", "the migration step is required"), None);
        assert_eq!(opposite("The migration step is optional", "the migration step is not required"), None);
        assert_eq!(opposite("マイグレーションは不要", "マイグレーションは必要ない"), None);
    }

    #[test]
    fn coverage_of_content_words() {
        let note = one("The deploy needs no migration");
        let source = one("Heads up: this deploy needs a DB migration first");
        assert!(note.covered_by(&source) >= 0.99, "{note:?} {source:?}");
        assert!(one("Redis caches sessions").covered_by(&one("Postgres stores orders")) < 0.1);
    }

    #[test]
    fn negation_in_every_language() {
        for yes in ["we don't use cron", "no cron jobs", "cronは使わない", "크론은 안 쓴다", "不用 cron"] {
            assert!(negated(yes), "{yes}");
        }
        for no in ["we use the queue", "キューを使う", "큐를 쓴다", "用队列"] {
            assert!(!negated(no), "{no}");
        }
    }
}
