//! The words that negate a statement, in English, Japanese, Korean and Chinese (before or
//! after what they deny), and the pairs of opposite words a statement is read against.

/// Negation words of English (lowercase, whole words).
pub(super) const EN_NEGATIONS: &[&str] = &[
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
    "deleted",
    "stopped",
    "eliminated",
    "exempt",
    "retired",
    "abandoned",
    "discontinued",
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
pub(super) const CJK_NEGATIONS: &[&str] = &[
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
    // `忽略大小写` (ignore case) says `不区分大小写` (do not tell case apart).
    "忽略",
];

/// The pair of [`ANTONYMS`] that permits or forbids (`allowed`/`forbidden`): its sides say
/// what a plain denial says (`forbidden to deploy on Fridays` is `don't deploy on Fridays`).
pub(super) const PERMISSION: usize = 2;

/// The pair of [`ANTONYMS`] that says how often (`always`/`never`): its `always` side is how
/// a rule is phrased (`always push with --force-with-lease`), which a memory stating the rule
/// need not repeat.
pub(super) const FREQUENCY: usize = 5;

/// Antonym pairs: each side's words (English stems, or CJK words). A sentence using one side
/// where its source uses the other says the opposite.
pub(super) const ANTONYMS: &[(&[&str], &[&str])] = &[
    (
        // (Obligations said with a double negation are this side, not a denial: `しないと
        // いけない` is "must do", as `않으면 안 된다` and `不得不` are.)
        &[
            "requir",
            "mandatori",
            "必須",
            "필수",
            "必须",
            "必需",
            "必要",
            "ないといけない",
            "なければならない",
            "なければいけない",
            "なくてはいけない",
            "なくてはならない",
            "なきゃいけない",
            "않으면 안 된",
            "不得不",
            "不能不",
        ],
        &["option", "任意", "선택", "可选", "不要", "불필요"],
    ),
    (&["enabl", "有効", "활성화", "启用", "开启"], &["disabl", "無効", "비활성화", "禁用", "关闭"]),
    (
        &["allow", "permit", "許可", "허용", "允许"],
        &["forbid", "forbidden", "prohibit", "ban", "disallow", "禁止", "금지"],
    ),
    (&["befor", "prior", "以前", "이전", "之前"], &["after", "以降", "이후", "之后"]),
    (&["deprec", "obsolet", "非推奨", "사용 중단", "弃用"], &["recommend", "prefer", "推奨", "권장", "推荐"]),
    (
        &["alway", "いつも", "常に", "항상", "总是", "始终"],
        // (`may` only where it is no month and denies nothing: see `polarity::in_context`.)
        &["never", "決して", "절대", "从不", "sometimes", "sometim", "occasionally", "occasion", "may"],
    ),
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
    (
        &["faster", "速い", "빠르", "更快", "快很多", "快得多", "变快", "较快"],
        &["slower", "遅い", "느리", "更慢", "慢很多", "慢得多", "变慢", "较慢"],
    ),
    (&["higher", "more", "多い", "많"], &["lower", "less", "fewer", "少ない", "적"]),
    (&["minimum", "min", "最小", "최소", "最少"], &["maximum", "max", "最大", "최대", "最多"]),
    (
        &["start", "begin", "commenc", "開始", "始ま", "시작", "开始"],
        &["end", "finish", "conclud", "終了", "終わ", "종료", "结束"],
    ),
    (
        &["all", "every", "すべて", "全て", "全部", "모든", "所有"],
        &["most", "some", "mostli", "ほとんど", "大半", "一部", "대부분", "일부", "大部分", "一部分", "一些"],
    ),
    (&["sensit", "sensitiv"], &["insensit", "insensitiv"]),
];

/// The pair of [`ANTONYMS`] of least and most: `at least` and `at most` say its sides.
pub(super) const MINMAX: usize = 19;

/// Comparatives a negation turns into a bound (`no longer than 5 minutes` is `5 minutes
/// max`), with the side of the min/max pair they say: `true` for a lower bound.
pub(super) const BOUNDED: &[(&str, bool)] = &[
    ("longer", false),
    ("more", false),
    ("later", false),
    ("bigger", false),
    ("greater", false),
    ("larger", false),
    ("higher", false),
    ("over", false),
    ("less", true),
    ("fewer", true),
    ("shorter", true),
    ("lower", true),
    ("smaller", true),
    ("earlier", true),
    ("sooner", true),
    ("under", true),
];

/// Negations that bear on the word before them (`Redis is gone`, `the cron job was
/// removed`).
pub(super) const NEGATES_BEFORE: &[&str] = &[
    "gone",
    "removed",
    "deleted",
    "stopped",
    "eliminated",
    "exempt",
    "retired",
    "abandoned",
    "discontinued",
    "unused",
    "unnecessary",
    "unneeded",
];

/// Negation markers written after what they deny (Japanese `必要ない`, `使わない`; Korean
/// `사용하지 않는다`, `없다`): they bear on the characters before them.
pub(super) const DENY_BEFORE: &[&str] = &[
    "ない",
    "ません",
    "なし",
    "無し",
    "いらない",
    "要らない",
    "せず",
    "ぬ",
    "ではなく",
    "じゃなく",
    "않",
    "없",
    "못",
    "아니",
    "말고",
];

#[cfg(test)]
mod tests {
    use super::{ANTONYMS, FREQUENCY, MINMAX, PERMISSION};

    #[test]
    fn the_named_pairs_are_where_they_are_named() {
        assert_eq!(ANTONYMS[PERMISSION].0[0], "allow");
        assert_eq!(ANTONYMS[FREQUENCY].0[0], "alway");
        assert_eq!(ANTONYMS[MINMAX].0[0], "minimum");
    }
}
