//! Line mentions in free text: `:3`, `:3-5`, `#L3-L5` right after a file, or anywhere:
//! `line 3`, `lines 3-5`, `lines 3, 7`, `L3`, `3行目`, `3〜5行目`, `第3行`, `3번째 줄`, `3행`.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::line_numbers::{self, BadLines};
use crate::base::ranges::Taken;

/// A line reference: byte range and the (start, end) spans it names (inclusive, 1-based),
/// each checked ([`line_numbers::span`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineMention {
    pub range: Range<usize>,
    pub spans: Vec<Result<(usize, usize), BadLines>>,
}

pub(super) const N: &str = "[0-9０-９]+";
pub(super) const RANGE_SEP: &str = r"\s*(?:-|–|—|~|〜|～|\.\.|to\s|through\s)\s*";

pub(super) static EN_LINES: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:lines?|ll?\.)\s*(?P<list>{N}(?:{RANGE_SEP}{N})?(?:\s*(?:,|、|\band\b|&)\s*{N}(?:{RANGE_SEP}{N})?)*)"
    ))
    .ok()
});
pub(super) static L_FORM: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(&format!(r"\bL(?P<list>{N}(?:\s*[-–]\s*L?{N})?)\b")).ok());
pub(super) static CJK_LINES: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?:第\s*(?P<zh>{N}(?:{RANGE_SEP}{N}|\s*[至到]\s*{N})?)\s*行|(?P<ja>{N}(?:{RANGE_SEP}{N})?)\s*行目|(?P<ko>{N}(?:{RANGE_SEP}{N})?)\s*(?:번째\s*)?(?:줄|행))"
    ))
    .ok()
});
pub(super) static NUM: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(N).ok());

/// Splits a list such as `3-5, 7 and 9` into spans. A list item is one number or a range
/// of two; numbers are paired by the separators between them.
/// What may stand between the two ends of a line range (lowercase, trimmed, without the
/// `L` of `L5`).
pub(super) const RANGE_WORDS: &[&str] = &["-", "–", "—", "~", "〜", "～", "..", "to", "through", "至", "到"];

pub(super) fn parse_list(list: &str) -> Vec<Result<(usize, usize), BadLines>> {
    let Some(num) = &*NUM else { return Vec::new() };
    let nums: Vec<(Range<usize>, &str)> = num.find_iter(list).map(|m| (m.range(), m.as_str())).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some((r, a)) = nums.get(i) {
        let next = nums.get(i + 1);
        // Two numbers form a range when only a range separator stands between them
        // (`3-5`, `3–L5`, `3 to 5`, `3〜5`, `3至5`); anything else (`,`, `and`) lists them.
        let is_range = next.is_some_and(|(r2, _)| {
            let gap = list.get(r.end..r2.start).unwrap_or("").to_lowercase();
            let gap = gap.trim().trim_end_matches('l').trim();
            RANGE_WORDS.contains(&gap)
        });
        match (is_range, next) {
            (true, Some((_, b))) => {
                out.push(line_numbers::span(a, Some(b)));
                i += 2;
            }
            _ => {
                out.push(line_numbers::span(a, None));
                i += 1;
            }
        }
    }
    // Mostly one span, held per line mention: an entry can have 160,000 of them.
    out.shrink_to_fit();
    out
}

/// Line references anywhere in the text (not the `:3` / `#L3` forms glued to a file).
pub(super) fn free_line_mentions(text: &str) -> Vec<LineMention> {
    let mut out: Vec<LineMention> = Vec::new();
    let mut taken = Taken::default();
    for re in [&*EN_LINES, &*L_FORM, &*CJK_LINES].into_iter().flatten() {
        for c in re.captures_iter(text) {
            let Some(m) = c.get(0) else { continue };
            let list = ["list", "zh", "ja", "ko"].iter().find_map(|g| c.name(g));
            let Some(list) = list else { continue };
            let spans = parse_list(list.as_str());
            if !spans.is_empty() && !taken.overlaps(&m.range()) {
                taken.insert(&m.range());
                out.push(LineMention { range: m.range(), spans });
            }
        }
    }
    out
}

/// A line reference glued to the end of a file name: `:3`, `:3-5`, `:L3`, `:3,7`,
/// `#L3`, `#L3-L5`, `#3`.
pub(crate) fn attached_line_mention(text: &str, file_end: usize) -> Option<LineMention> {
    let rest = text.get(file_end..)?;
    let (prefix_len, allow_list) = if rest.starts_with("#L") || rest.starts_with("#l") {
        (2, false)
    } else if rest.starts_with(":L") || rest.starts_with(":l") {
        (2, true)
    } else if rest.starts_with(':') || rest.starts_with('#') {
        (1, true)
    } else {
        return None;
    };
    let body = rest.get(prefix_len..)?;
    // `:-1`: a negative number cites no line (never the whole file).
    if let Some(digits) = body.strip_prefix('-') {
        let n = digits.bytes().take_while(u8::is_ascii_digit).count();
        if n > 0 {
            let written = format!("-{}", &digits[..n]);
            let range = file_end..file_end + prefix_len + written.len();
            return Some(LineMention { range, spans: vec![Err(BadLines::Negative { written })] });
        }
    }
    let mut len = 0;
    let mut chars = body.char_indices().peekable();
    // number [sep [L] number] ([,] number [sep number])*
    let mut expect_number = true;
    while let Some(&(i, c)) = chars.peek() {
        if c.is_ascii_digit() {
            len = i + 1;
            expect_number = false;
            chars.next();
        } else if !expect_number && matches!(c, '-' | '–') {
            expect_number = true;
            chars.next();
            if matches!(chars.peek(), Some((_, 'L' | 'l'))) {
                chars.next();
            }
        } else if !expect_number && c == ',' && allow_list {
            expect_number = true;
            chars.next();
        } else {
            break;
        }
    }
    if len == 0 {
        return None;
    }
    let list = body.get(..len)?;
    let spans = parse_list(list);
    (!spans.is_empty()).then(|| LineMention { range: file_end..file_end + prefix_len + len, spans })
}
