//! Turning transcript text into one safe display line: terminal escape sequences removed
//! (tool output is full of ANSI colours, and raw escapes must never reach the terminal),
//! whitespace runs collapsed to one space, control characters dropped, and the result cut
//! at a number of characters with `…`.

/// One display line from `s`, at most `max_chars` characters (plus the `…` marking a cut).
/// Stops reading `s` as soon as the line is full, so a multi-megabyte tool output costs
/// no more than its first few hundred characters.
pub(crate) fn one_line(s: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max_chars.saturating_mul(4)) + 4);
    let mut count = 0usize;
    let mut pending_space = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            skip_escape(&mut chars);
            continue;
        }
        if c.is_whitespace() {
            pending_space = count > 0;
            continue;
        }
        if c.is_control() || is_invisible_format(c) {
            continue;
        }
        let needed = if pending_space { 2 } else { 1 };
        if count + needed > max_chars {
            out.push('…');
            return out;
        }
        if pending_space {
            out.push(' ');
            count += 1;
            pending_space = false;
        }
        out.push(c);
        count += 1;
    }
    out
}

/// Bidirectional overrides and similar format characters that can make a line display
/// differently from what it contains.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

/// Skips the rest of an escape sequence whose ESC was just read: CSI (`ESC [ … final`),
/// OSC (`ESC ] … BEL` or `ESC ] … ESC \`), or a two-character escape.
fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match chars.next() {
        Some('[') => {
            for c in chars.by_ref() {
                if ('\u{40}'..='\u{7e}').contains(&c) {
                    break;
                }
            }
        }
        Some(']') => {
            while let Some(c) = chars.next() {
                if c == '\u{7}' {
                    break;
                }
                if c == '\u{1b}' {
                    if chars.peek() == Some(&'\\') {
                        chars.next();
                    }
                    break;
                }
            }
        }
        _ => {}
    }
}

/// `s` without terminal escape sequences (colour codes in tool output would otherwise
/// split words a claim is looked for in). Borrowed when there is none.
pub(crate) fn strip_escapes(s: &str) -> std::borrow::Cow<'_, str> {
    if memchr::memchr(0x1b, s.as_bytes()).is_none() {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            skip_escape(&mut chars);
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `s` without a trailing `\r` (the `\n` is never part of a line's bytes here).
pub(crate) fn strip_cr(bytes: &[u8]) -> &[u8] {
    bytes.strip_suffix(b"\r").unwrap_or(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapses_whitespace_and_strips_escapes() {
        assert_eq!(one_line("  a\n\n b\t c  ", 100), "a b c");
        assert_eq!(one_line("\u{1b}[31mred\u{1b}[0m ok", 100), "red ok");
        assert_eq!(one_line("\u{1b}]0;title\u{7}x", 100), "x");
        assert_eq!(one_line("a\u{0}b\u{8}c\u{202e}d", 100), "abcd");
    }

    #[test]
    fn strips_escapes_only() {
        assert_eq!(strip_escapes("\u{1b}[32m214 passed\u{1b}[39m\n"), "214 passed\n");
        assert_eq!(strip_escapes("plain\ttext"), "plain\ttext");
    }

    #[test]
    fn cuts_on_characters_not_bytes() {
        assert_eq!(one_line("日本語のテキスト", 3), "日本語…");
        assert_eq!(one_line("abc", 3), "abc");
        assert_eq!(one_line("ab cd", 3), "ab…");
        assert_eq!(one_line("", 3), "");
    }
}
