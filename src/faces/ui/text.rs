//! Terminal text helpers: what a note line looks like on screen (terminators dropped, tabs
//! expanded, control characters made visible) and how wide it is, CJK included.
//!
//! Width is measured per grapheme cluster, as ratatui draws: each cluster takes the cells
//! [`CellWidth`] gives it (`⚠️` and a ZWJ family 2, a flag 2, `e` + a combining accent 1),
//! and text is wrapped and cut only between clusters, so wrap, truncation and cursor agree
//! with the screen.

use ratatui::buffer::CellWidth;
use std::borrow::Cow;
use std::ops::Range;
use unicode_segmentation::UnicodeSegmentation;

/// Spaces a tab expands to.
pub const TAB: &str = "    ";

/// The line as it is displayed: terminator removed, tabs expanded, a stray `\r` shown as
/// `␍`, other control characters as `�`. Borrowed when nothing needs changing.
pub fn display(line: &str) -> Cow<'_, str> {
    let line = crate::base::text::strip_terminator(line);
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

/// A note line as the diff pane shows it: [`display`]ed, with every credential masked
/// (`[anthropic-key …9f3a]`) — secrets are never drawn in full.
pub fn shown(line: &str) -> Cow<'_, str> {
    match crate::base::secrets::mask(line) {
        Cow::Borrowed(_) => display(line),
        Cow::Owned(masked) => Cow::Owned(display(&masked).into_owned()),
    }
}

/// A file name or hunk id as the TUI shows it: credentials masked (a note may be named
/// after a secret), control characters, bidi controls and newlines made visible.
pub fn shown_name(name: &str) -> String {
    crate::base::text::visible_name(&crate::base::secrets::mask(name)).into_owned()
}

/// Lines as a pane draws them: each line read whole (its spans joined, so a credential
/// split across spans is still recognised) and every credential in it masked, its spans'
/// styles kept. The last step before a pane's text reaches the terminal.
pub fn guarded(lines: Vec<ratatui::text::Line<'static>>) -> Vec<ratatui::text::Line<'static>> {
    lines.into_iter().map(guarded_line).collect()
}

fn guarded_line(line: ratatui::text::Line<'static>) -> ratatui::text::Line<'static> {
    let texts: Vec<&str> = line.spans.iter().map(|s| s.content.as_ref()).collect();
    if crate::base::secrets::find(&texts.concat()).is_empty() {
        return line;
    }
    let masked = crate::base::secrets::mask_lines(&texts);
    let spans = line.spans.iter().zip(masked).map(|(s, m)| ratatui::text::Span::styled(m, s.style)).collect();
    ratatui::text::Line { spans, ..line }
}

/// Cells one grapheme cluster takes on screen, as ratatui draws it (0 for a cluster with a
/// control character, which ratatui skips).
pub fn grapheme_width(g: &str) -> usize {
    if g.contains(char::is_control) { 0 } else { usize::from(g.cell_width()) }
}

/// Display width of a string: its grapheme clusters' widths (CJK 2 per character, an emoji
/// sequence 2 however many code points it holds).
pub fn width(s: &str) -> usize {
    if s.is_ascii() {
        return s.bytes().filter(|b| !b.is_ascii_control()).count();
    }
    s.graphemes(true).map(grapheme_width).sum()
}

/// Splits `s` into byte ranges that each fit `cols` columns, breaking after a space when
/// one falls in the second half of the row (prose reads better), else between any two
/// grapheme clusters (CJK text and long paths have no spaces). At least one cluster per
/// range, so a too-narrow pane still makes progress. An empty string gives one empty range.
pub fn wrap(s: &str, cols: usize) -> Vec<Range<usize>> {
    let cols = cols.max(1);
    let mut out = Vec::new();
    let (mut start, mut used) = (0, 0);
    // Last break opportunity in the current row: (byte after the space, columns up to it).
    let mut space: Option<(usize, usize)> = None;
    for (i, g) in s.grapheme_indices(true) {
        let w = grapheme_width(g);
        if used + w > cols && i > start {
            match space.filter(|&(_, at)| at * 2 >= cols) {
                Some((brk, at)) => {
                    out.push(start..brk);
                    start = brk;
                    used -= at;
                }
                None => {
                    out.push(start..i);
                    start = i;
                    used = 0;
                }
            }
            space = None;
        }
        used += w;
        if g == " " {
            space = Some((i + 1, used));
        }
    }
    out.push(start..s.len());
    out
}

/// Session ids (UUIDs) cut to their first 8 hex digits and `…`: evidence lines name
/// transcripts like `5b0e7c2a-41d3-….jsonl:3`, which would otherwise fill a narrow pane.
pub fn short_ids(s: &str) -> Cow<'_, str> {
    let b = s.as_bytes();
    let is_uuid_at = |i: usize| {
        b.len() >= i + 36
            && (0..36).all(|k| {
                let c = b[i + k];
                if matches!(k, 8 | 13 | 18 | 23) { c == b'-' } else { c.is_ascii_hexdigit() }
            })
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
    };
    if !(0..b.len()).any(is_uuid_at) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if is_uuid_at(i) {
            out.push_str(&s[i..i + 8]);
            out.push('…');
            i += 36;
        } else {
            let c = s[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8().max(1);
        }
    }
    Cow::Owned(out)
}

/// Cuts `s` to at most `cols` columns, ending with `…` when something was cut.
pub fn truncate(s: &str, cols: usize) -> Cow<'_, str> {
    if width(s) <= cols {
        return Cow::Borrowed(s);
    }
    let mut out = s[..fit(s, cols.saturating_sub(1))].to_string();
    out.push('…');
    Cow::Owned(out)
}

/// `s` cut in the middle to at most `cols` columns, keeping its start and its end with
/// the extension (`proj…oy.md`, not `project_de…`): a file name is told apart by how it
/// starts and what kind it is.
pub fn truncate_middle(s: &str, cols: usize) -> Cow<'_, str> {
    if width(s) <= cols {
        return Cow::Borrowed(s);
    }
    let room = cols.saturating_sub(1);
    let name = s.rsplit('/').next().unwrap_or(s);
    let ext = name.rfind('.').filter(|&i| i > 0).map(|i| width(&name[i..])).unwrap_or(0);
    let tail = (ext + 2).min(room.saturating_sub(1)).min(room);
    let head = room - tail;
    let end = s.len() - fit_end(s, tail);
    Cow::Owned(format!("{}…{}", &s[..fit(s, head)], &s[end..]))
}

/// The byte length of the longest end of `s` at most `cols` columns wide.
fn fit_end(s: &str, cols: usize) -> usize {
    let mut used = 0;
    for (i, g) in s.grapheme_indices(true).rev() {
        let w = grapheme_width(g);
        if used + w > cols {
            return s.len() - i - g.len();
        }
        used += w;
    }
    s.len()
}

/// The byte length of the longest start of `s` at most `cols` columns wide (cut
/// mid-word, between grapheme clusters).
pub fn fit(s: &str, cols: usize) -> usize {
    let mut used = 0;
    for (i, g) in s.grapheme_indices(true) {
        let w = grapheme_width(g);
        if used + w > cols {
            return i;
        }
        used += w;
    }
    s.len()
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
        let p = "Deploy staging with the make target";
        let parts: Vec<&str> = wrap(p, 12).into_iter().map(|r| &p[r]).collect();
        assert_eq!(parts, ["Deploy ", "staging ", "with the ", "make target"]);
        let long = "see .buildkite/pipeline.yml";
        let parts: Vec<&str> = wrap(long, 10).into_iter().map(|r| &long[r]).collect();
        assert_eq!(parts, ["see .build", "kite/pipel", "ine.yml"]);
        assert_eq!(wrap("", 4), vec![0..0]);
        assert_eq!(wrap("abc", 0).len(), 3);
    }

    #[test]
    fn session_ids_are_shortened() {
        assert_eq!(short_ids("5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15.jsonl:3"), "5b0e7c2a….jsonl:3");
        assert_eq!(
            short_ids("on 8b2d4e6f-1a3c-4e5f-8a7b-9c0d1e2f3a4b/subagents/a.jsonl"),
            "on 8b2d4e6f…/subagents/a.jsonl"
        );
        assert_eq!(short_ids("no ids here"), "no ids here");
    }

    #[test]
    fn file_names_are_cut_in_the_middle_keeping_the_extension() {
        assert_eq!(truncate_middle("project_deploy.md", 10), "proj…oy.md");
        assert_eq!(truncate_middle("short.md", 10), "short.md");
        assert_eq!(truncate_middle("people/alice-and-bob.md", 12), "people…ob.md");
        assert_eq!(truncate_middle("日本語のメモ.md", 9), "日…モ.md");
        assert_eq!(truncate_middle("noextensionatall", 8), "noext…ll");
        for cols in 0..12 {
            assert!(width(&truncate_middle("project_deploy.md", cols)) <= cols.max(1), "{cols}");
        }
    }

    #[test]
    fn truncates_with_an_ellipsis() {
        assert_eq!(truncate("hello world", 6), "hello…");
        assert_eq!(truncate("hi", 6), "hi");
        assert_eq!(truncate("日本語", 4), "日…");
    }
}
