//! Terminal text helpers: what a note line looks like on screen (terminators dropped, tabs
//! expanded, control characters made visible) and how wide it is, CJK included.

use std::borrow::Cow;
use std::ops::Range;
use unicode_width::UnicodeWidthChar;

/// Spaces a tab expands to.
pub const TAB: &str = "    ";

/// The line as it is displayed: terminator removed, tabs expanded, a stray `\r` shown as
/// `␍`, other control characters as `�`. Borrowed when nothing needs changing.
pub fn display(line: &str) -> Cow<'_, str> {
    let line = crate::text::strip_terminator(line);
    if !line.chars().any(|c| c.is_control()) {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    for c in line.chars() {
        match c {
            '\t' => out.push_str(TAB),
            '\r' => out.push('␍'),
            c if c.is_control() => out.push('�'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Display width of one char (0 for zero-width marks).
pub fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// Display width of a string (CJK counts 2 per character).
pub fn width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

/// Splits `s` into byte ranges that each fit `cols` columns (at least one char per range,
/// so a too-narrow pane still makes progress). An empty string gives one empty range.
pub fn wrap(s: &str, cols: usize) -> Vec<Range<usize>> {
    let cols = cols.max(1);
    let mut out = Vec::new();
    let (mut start, mut used) = (0, 0);
    for (i, c) in s.char_indices() {
        let w = char_width(c);
        if used + w > cols && i > start {
            out.push(start..i);
            start = i;
            used = 0;
        }
        used += w;
    }
    out.push(start..s.len());
    out
}

/// Cuts `s` to at most `cols` columns, ending with `…` when something was cut.
pub fn truncate(s: &str, cols: usize) -> Cow<'_, str> {
    if width(s) <= cols {
        return Cow::Borrowed(s);
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = char_width(c);
        if used + w + 1 > cols {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_drops_terminators_and_shows_controls() {
        assert_eq!(display("a\r\n"), "a");
        assert_eq!(display("a\tb\n"), "a    b");
        assert_eq!(display("a\rb"), "a␍b");
        assert_eq!(display("x\u{1b}[31m"), "x�[31m");
    }

    #[test]
    fn cjk_is_double_width_and_wraps_on_char_boundaries() {
        assert_eq!(width("日本語"), 6);
        assert_eq!(width("abc"), 3);
        let s = "日本語のメモ";
        let parts: Vec<&str> = wrap(s, 5).into_iter().map(|r| &s[r]).collect();
        assert_eq!(parts, ["日本", "語の", "メモ"]);
        assert_eq!(wrap("", 4), vec![0..0]);
        assert_eq!(wrap("abc", 0).len(), 3);
    }

    #[test]
    fn truncates_with_an_ellipsis() {
        assert_eq!(truncate("hello world", 6), "hello…");
        assert_eq!(truncate("hi", 6), "hi");
        assert_eq!(truncate("日本語", 4), "日…");
    }
}
