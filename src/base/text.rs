//! Text as data: splitting notes into lines that keep their own terminators, and telling
//! text from binary. Nothing here normalises line endings.

/// Splits `text` into lines, each keeping its terminator (`\n` or `\r\n`; a lone `\r` stays
/// inside its line). The last line has no terminator when the text does not end with `\n`.
/// Concatenating the result always gives back `text` exactly.
pub fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    for pos in memchr::memchr_iter(b'\n', text.as_bytes()) {
        lines.push(&text[start..=pos]);
        start = pos + 1;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// True for a CJK ideograph, kana or Hangul syllable/jamo (letters, not punctuation): the
/// one definition the claim recognisers, the CHANGES.md reader and the entry-to-hunk
/// mapping share.
pub fn is_cjk(c: char) -> bool {
    // Every range below starts at U+1100 or later: most text is decided by one comparison.
    (c as u32) >= 0x1100
        && matches!(c as u32,
            0x3005 | 0x3007          // 々 〇
            | 0x3040..=0x30FF        // Hiragana, Katakana (incl. ー)
            | 0x31F0..=0x31FF        // Katakana phonetic extensions
            | 0x3400..=0x4DBF        // CJK Extension A
            | 0x4E00..=0x9FFF        // CJK Unified Ideographs
            | 0xF900..=0xFAFF        // CJK Compatibility Ideographs
            | 0xFF66..=0xFF9F        // Half-width Katakana
            | 0x1100..=0x11FF        // Hangul Jamo
            | 0x3130..=0x318F        // Hangul Compatibility Jamo
            | 0xAC00..=0xD7AF        // Hangul Syllables
            | 0x20000..=0x2A6DF      // CJK Extension B
        )
}

/// The line without its terminator (`\n`, `\r\n`).
pub fn strip_terminator(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

/// True when `line` ends with a `\n` terminator.
pub fn has_terminator(line: &str) -> bool {
    line.ends_with('\n')
}

/// Returns the bytes as text when they are a note dreamreview can diff line by line: valid
/// UTF-8 without NUL bytes. Anything else is binary (whole-file decisions only).
pub fn as_text(bytes: &[u8]) -> Option<&str> {
    if memchr::memchr(0, bytes).is_some() {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// `text.to_lowercase()`, faster on text that is mostly ASCII with some other letters
/// (tool output with `→` gutters, notes with accents): runs of ASCII are lowercased as
/// bytes, other characters one by one. A text with `Σ` (whose lowercase depends on its
/// place in a word) goes to the standard library.
pub fn lowercase(text: &str) -> String {
    if text.contains('Σ') {
        return text.to_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let ascii = rest.bytes().position(|b| !b.is_ascii()).unwrap_or(rest.len());
        let (run, tail) = rest.split_at(ascii);
        let start = out.len();
        out.push_str(run);
        out[start..].make_ascii_lowercase();
        let mut chars = tail.chars();
        if let Some(c) = chars.next() {
            out.extend(c.to_lowercase());
        }
        rest = chars.as_str();
    }
    out
}

/// Whether `c` is a bidirectional embedding, override or isolate control (U+202A–U+202E,
/// U+2066–U+2069): invisible characters that reorder the text shown around them.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` on one line for a message: whitespace runs (line breaks included) as one space,
/// control characters made visible, at most `max` characters (cut with `…`).
pub fn one_line_cut(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let flat = visible_controls(&flat).into_owned();
    match flat.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &flat[..i]),
        None => flat,
    }
}

/// Text made safe to print on a terminal: every control character other than `\n` and
/// `\t` (ESC, a bare CR, BEL, the C1 range, DEL) and every bidi control becomes a visible
/// stand-in (`␛`, `␍`, `\u{9b}`, `\u{202e}`…), so a note, a transcript or CHANGES.md cannot
/// move the cursor, hide or reorder text, retitle the window or write the clipboard when
/// shown. Borrowed when nothing changes.
pub fn visible_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c);
    if !text.contains(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            // U+2400..U+241F are the Control Pictures of C0; U+2421 is DEL's.
            c if unsafe_char(c) && (c as u32) < 0x20 => {
                out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'))
            }
            '\u{7f}' => out.push('\u{2421}'),
            c if unsafe_char(c) => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A name (a file name, a hunk id) as one printable line: [`visible_controls`], a
/// newline or tab inside it shown as `␊` or `␉`, so a name cannot start a line of its own,
/// and the combining marks of a name not in Unicode's composed form (NFC) written as
/// escapes (`cafe\u{301}.md`), so two names that differ only by normalization, which a
/// terminal draws alike, are shown different.
pub fn visible_name(name: &str) -> std::borrow::Cow<'_, str> {
    let name = decomposed_marks_visible(name);
    let shown = match name {
        std::borrow::Cow::Borrowed(n) => visible_controls(n),
        std::borrow::Cow::Owned(n) => std::borrow::Cow::Owned(visible_controls(&n).into_owned()),
    };
    if !shown.contains(['\n', '\t']) {
        return shown;
    }
    std::borrow::Cow::Owned(shown.replace('\n', "\u{240a}").replace('\t', "\u{2409}"))
}

/// `name` with its combining marks escaped when it is not in NFC; borrowed when it is.
fn decomposed_marks_visible(name: &str) -> std::borrow::Cow<'_, str> {
    use unicode_normalization::char::is_combining_mark;
    if unicode_normalization::is_nfc(name) {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if is_combining_mark(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Backticked spans: (range with backticks, trimmed inner range). An unclosed run of
/// backticks is literal text.
pub fn code_spans(line: &str) -> Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let b = line.as_bytes();
    let run_len = |i: usize| b.get(i..).map_or(0, |s| s.iter().take_while(|c| **c == b'`').count());
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b.get(i) != Some(&b'`') {
            i += 1;
            continue;
        }
        let n = run_len(i);
        let mut j = i + n;
        let mut close = None;
        while j < b.len() {
            if b.get(j) == Some(&b'`') {
                let m = run_len(j);
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                let inner = line.get(i + n..j).unwrap_or("");
                let lead = inner.len() - inner.trim_start().len();
                let trail = inner.len() - inner.trim_end().len();
                let (s, e) = (i + n + lead, j - trail);
                out.push((i..j + n, s..e.max(s)));
                i = j + n;
            }
            None => i += n,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowercase_is_the_standard_lowercase() {
        for t in ["", "ABC", "  58→Port 8443", "Ärger ÜBER Straße", "ΣΟΦΟΣ Σ", "İstanbul", "日本語 ABC ﻿x", "Ǆ ǅ"]
        {
            assert_eq!(lowercase(t), t.to_lowercase(), "{t}");
        }
    }

    proptest::proptest! {
        #[test]
        fn lowercase_of_any_text_is_the_standard_lowercase(t in "\\PC*") {
            proptest::prop_assert_eq!(lowercase(&t), t.to_lowercase());
        }
    }

    #[test]
    fn cjk_letters_of_every_script_and_no_punctuation() {
        for c in ['日', 'ー', 'の', '々', '〇', 'ㇰ', 'ﾃ', '한', 'ㄱ', 'ᄀ', '𠀋', '豈'] {
            assert!(is_cjk(c), "{c}");
        }
        for c in ['a', 'é', '1', '。', '（', '、', '「'] {
            assert!(!is_cjk(c), "{c}");
        }
    }

    #[test]
    fn lines_keep_their_terminators() {
        assert_eq!(split_lines("a\nb\r\nc"), vec!["a\n", "b\r\n", "c"]);
        assert_eq!(split_lines("a\n"), vec!["a\n"]);
        assert_eq!(split_lines(""), Vec::<&str>::new());
        assert_eq!(split_lines("\n\n"), vec!["\n", "\n"]);
        assert_eq!(split_lines("x\ry\n"), vec!["x\ry\n"]);
        for t in ["", "a", "a\n", "a\r\nb", "日本語\n한국어\r\n中文"] {
            assert_eq!(split_lines(t).concat(), t);
        }
    }

    #[test]
    fn terminators_are_stripped_only_at_the_end() {
        assert_eq!(strip_terminator("a\r\n"), "a");
        assert_eq!(strip_terminator("a\n"), "a");
        assert_eq!(strip_terminator("a\r"), "a");
        assert_eq!(strip_terminator("a"), "a");
        assert!(has_terminator("a\n") && !has_terminator("a"));
    }

    #[test]
    fn controls_become_visible() {
        assert_eq!(visible_controls("a\tb\n日本"), "a\tb\n日本");
        assert!(matches!(visible_controls("plain"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(visible_controls("x\u{1b}[2Jy"), "x\u{241b}[2Jy");
        assert_eq!(visible_controls("hidden\rshown"), "hidden\u{240d}shown");
        assert_eq!(visible_controls("\u{7}\u{0}\u{7f}"), "\u{2407}\u{2400}\u{2421}");
        assert_eq!(visible_controls("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(visible_controls("a\u{202e}b\u{2066}c"), "a\\u{202e}b\\u{2066}c");
    }

    #[test]
    fn names_stay_on_one_line() {
        assert_eq!(visible_name("a\nb\tc.md"), "a\u{240a}b\u{2409}c.md");
        assert_eq!(visible_name("x\u{202e}dm.exe"), "x\\u{202e}dm.exe");
        assert!(matches!(visible_name("plain.md"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn binary_is_nul_or_invalid_utf8() {
        assert_eq!(as_text(b"note\n"), Some("note\n"));
        assert_eq!(as_text(b"a\0b"), None);
        assert_eq!(as_text(&[0xff, 0xfe]), None);
        assert_eq!(as_text("\u{feff}bom".as_bytes()), Some("\u{feff}bom"));
    }
}
