//! Character classes and small string helpers shared by the claim recognisers.

pub(crate) use crate::base::text::is_cjk;

/// True for a Hangul syllable.
pub(crate) fn is_hangul(c: char) -> bool {
    matches!(c as u32, 0xAC00..=0xD7AF)
}

/// True for a letter or digit of a Latin-like script (anything alphanumeric but CJK).
pub(crate) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

/// True when the line contains at least one CJK letter.
pub(crate) fn has_cjk(s: &str) -> bool {
    !s.is_ascii() && s.chars().any(is_cjk)
}

/// True when `range` of `text` stands inside brackets (`(src/payroll/levy.py)`,
/// `（config/invoice.yaml）`): a bracket opens before it, on its line, and closes after it.
pub fn bracketed(text: &str, range: std::ops::Range<usize>) -> bool {
    let before = text.get(..range.start).unwrap_or("");
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let open = before[line_start..].rfind(['(', '（']);
    let shut = before[line_start..].rfind([')', '）']);
    let after = text.get(range.end..).unwrap_or("");
    let closes = after.find([')', '）']).is_some_and(|i| !after[..i].contains(['\n', '(', '（']));
    open.is_some_and(|o| shut.is_none_or(|s| s < o)) && closes
}

/// True when the lowercase `text` holds `phrase`: a Latin phrase as whole words (`plan to`
/// is not in `airplan tool`), a CJK one anywhere (no spaces delimit its words).
pub(crate) fn has_phrase(text: &str, phrase: &str) -> bool {
    if !phrase.is_ascii() {
        return text.contains(phrase);
    }
    text.match_indices(phrase).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The char just before byte offset `i` (which must be a char boundary), if any.
pub(crate) fn char_before(s: &str, i: usize) -> Option<char> {
    s.get(..i).and_then(|p| p.chars().next_back())
}

/// The char starting at byte offset `i`, if any.
pub(crate) fn char_at(s: &str, i: usize) -> Option<char> {
    s.get(i..).and_then(|p| p.chars().next())
}

/// The two chars before byte offset `i` (nearest first).
pub(crate) fn two_before(s: &str, i: usize) -> (Option<char>, Option<char>) {
    let mut it = s.get(..i).map(|p| p.chars().rev()).into_iter().flatten();
    (it.next(), it.next())
}

/// Converts full-width digits (０-９) to ASCII and parses the result; `None` on anything
/// else or on overflow.
pub(crate) fn parse_digits(s: &str) -> Option<u32> {
    let mut n: u32 = 0;
    let mut any = false;
    for c in s.chars() {
        let d = match c {
            '0'..='9' => c as u32 - '0' as u32,
            '０'..='９' => c as u32 - '０' as u32,
            _ => return None,
        };
        n = n.checked_mul(10)?.checked_add(d)?;
        any = true;
    }
    any.then_some(n)
}

/// Parses a small CJK numeral (一…九十, 两/兩) or digits: 三 → 3, 十二 → 12, 二十 → 20.
pub(crate) fn parse_cjk_number(s: &str) -> Option<u32> {
    if let Some(n) = parse_digits(s) {
        return Some(n);
    }
    let digit = |c: char| -> Option<u32> {
        Some(match c {
            '一' => 1,
            '二' | '两' | '兩' => 2,
            '三' => 3,
            '四' => 4,
            '五' => 5,
            '六' => 6,
            '七' => 7,
            '八' => 8,
            '九' => 9,
            _ => return None,
        })
    };
    let chars: Vec<char> = s.chars().collect();
    match chars.as_slice() {
        [a] if *a == '十' => Some(10),
        [a] => digit(*a),
        ['十', b] => Some(10 + digit(*b)?),
        [a, '十'] => Some(digit(*a)? * 10),
        [a, '十', b] => Some(digit(*a)? * 10 + digit(*b)?),
        _ => None,
    }
}

/// Full-width form of the ASCII digits in `s` (other chars unchanged).
pub(crate) fn to_fullwidth_digits(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '0'..='9' => char::from_u32(c as u32 - '0' as u32 + '０' as u32).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// True when the ranges `a` and `b` share at least one byte.
pub(crate) fn overlap(a: &std::ops::Range<usize>, b: &std::ops::Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// Non-overlapping byte ranges kept sorted, for fast "is this byte taken?" questions.
#[derive(Clone, Debug, Default)]
pub(crate) struct Spans {
    ranges: Vec<std::ops::Range<usize>>,
}

impl Spans {
    /// Builds from ranges that may be unsorted (overlapping ones are kept as given).
    pub(crate) fn from_ranges(mut ranges: Vec<std::ops::Range<usize>>) -> Spans {
        ranges.sort_by_key(|r| r.start);
        Spans { ranges }
    }

    /// The ranges, sorted by start.
    pub(crate) fn ranges(&self) -> &[std::ops::Range<usize>] {
        &self.ranges
    }

    /// True when no stored range shares a byte with `r` (an empty `r` is never free).
    pub(crate) fn free(&self, r: &std::ops::Range<usize>) -> bool {
        if r.start >= r.end {
            return false;
        }
        // First stored range ending after r.start; ranges are disjoint and sorted, so ends
        // are sorted too.
        let i = self.ranges.partition_point(|o| o.end <= r.start);
        self.ranges.get(i).is_none_or(|o| o.start >= r.end)
    }

    /// True when byte `i` lies in a stored range.
    pub(crate) fn contains(&self, i: usize) -> bool {
        let k = self.ranges.partition_point(|o| o.end <= i);
        self.ranges.get(k).is_some_and(|o| o.start <= i)
    }

    /// Inserts `r`, keeping the order (callers insert only free ranges).
    pub(crate) fn insert(&mut self, r: std::ops::Range<usize>) {
        let i = self.ranges.partition_point(|o| o.start < r.start);
        self.ranges.insert(i, r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert!(is_cjk('日') && is_cjk('ー') && is_cjk('한') && is_cjk('の'));
        assert!(!is_cjk('a') && !is_cjk('。') && !is_cjk('（'));
        assert!(is_word_char('é') && !is_word_char('日') && !is_word_char('-'));
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_digits("０３"), Some(3));
        assert_eq!(parse_digits("12"), Some(12));
        assert_eq!(parse_digits("99999999999"), None);
        assert_eq!(parse_digits(""), None);
        assert_eq!(parse_cjk_number("三"), Some(3));
        assert_eq!(parse_cjk_number("十二"), Some(12));
        assert_eq!(parse_cjk_number("二十"), Some(20));
        assert_eq!(parse_cjk_number("两"), Some(2));
        assert_eq!(parse_cjk_number("百"), None);
        assert_eq!(to_fullwidth_digits("11月1日"), "１１月１日");
    }

    #[test]
    fn spans() {
        let mut s = Spans::default();
        s.insert(10..20);
        s.insert(0..5);
        assert!(s.free(&(5..10)) && !s.free(&(4..6)) && !s.free(&(19..30)) && s.free(&(20..30)));
        assert!(!s.free(&(7..7)));
        assert!(s.contains(0) && !s.contains(5) && s.contains(19) && !s.contains(20));
        assert_eq!(s.ranges(), &[0..5, 10..20]);
    }

    #[test]
    fn neighbours() {
        let s = "aé日";
        assert_eq!(char_before(s, 3), Some('é'));
        assert_eq!(char_at(s, 3), Some('日'));
        assert_eq!(char_before(s, 0), None);
        assert_eq!(two_before(s, 3), (Some('é'), Some('a')));
        assert_eq!(char_before(s, 2), None); // not a boundary
    }

    #[test]
    fn a_reference_in_brackets_is_bracketed() {
        let at = |text: &str, part: &str| {
            let i = text.find(part).unwrap();
            bracketed(text, i..i + part.len())
        };
        assert!(at("employees under 18 are exempt (src/payroll/levy.py).", "src/payroll/levy.py"));
        assert!(at("限额为 10 万元（config/invoice.yaml，税局核定）", "config/invoice.yaml"));
        assert!(!at("src/payroll/levy.py (the levy) is exempt", "src/payroll/levy.py"));
        assert!(!at("(see below) src/payroll/levy.py is exempt", "src/payroll/levy.py"));
    }
}
