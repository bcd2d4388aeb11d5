//! What tools add to the text they show, removed from said text: a claim must be sourced by
//! what a line says, never by a line number a tool printed beside it.
//!
//! Applied to each part of a line's said text (one JSON string: a tool result, a tool
//! input, a message), after terminal escape sequences are removed. What is removed:
//!
//! - **Line-number gutters** at line starts: Claude Code's `Read` (`     58→` in older
//!   versions, `58\t` now), `cat -n` (`     58\t`). A gutter padded to six columns as those
//!   tools pad it is one alone; an unpadded one when its run of lines numbered one after
//!   another opens the part, as a tool result does (for `→`, any such run of two lines).
//!   Rows of tab-separated data (`1\talice\tadmin`, or under a header line) stay.
//! - **grep / rg prefixes**: `src/db.rs:12:` (a path-like name: with a `/`, or a file
//!   extension; the name is kept, as its own line, only `:12:` goes), its context lines
//!   `src/db.rs-13-` (next to a line of the same file numbered one off), and the one-file
//!   form `12:` / `13-` when at least two such lines follow each other with rising numbers
//!   (or one follows a lone path heading, as `rg --heading` prints). `12:30` (a digit after
//!   the colon) is never a prefix, nor `example.com:443:` (a name ending in a common
//!   top-level domain is a host, and its number a port).
//! - **Unified-diff markers**: after a hunk header `@@ -a,b +c,d @@`, the first column
//!   (`+`, `-`, space) of the lines the hunk's counts cover, and `\ No newline at end of
//!   file`; the header's ranges (its section heading stays). `- item` outside a hunk stays.
//! - **Progress bars**: a line overwritten with `\r` says only its last segment (what the
//!   terminal shows; `\r\n` is a line end); a bar (`[=====>    ]`, `━━━━━━━━`, `████▌`, a
//!   tqdm `45%|…|`) goes with the figures beside it (`45%`, `12/40`, `1.2/3.4 MB`,
//!   `3.1 MB/s`, `eta 0:00:04`, `[00:03<00:04, 12.3it/s]`); a bar with no figure beside it
//!   is left (it holds no word or number).
//! - **JSON escaping in the text**: a line that is plainly JSON-encoded text (`{\"port\":
//!   5432}`: an escaped quote opening a string after `{`, `[` and one closing it before
//!   `:`, `,`, `]` or `}`) is unescaped (`\"`, `\\`, `\/`, `\n`, `\t`, `\r`, `\b`, `\f`,
//!   `\uXXXX`).
//!
//! In that order, JSON unescaping and `\r` overwrites first; then each line is given to at
//! most one of the prefix rules (a diff hunk's lines first, then gutters, then grep
//! prefixes: a `Read` of a patch file loses its gutter, not the patch's own `+`), and bars
//! are looked for in what is left of it.
//!
//! Everything else stays. Apart from the unescaping, every line of the result is a
//! substring of a line of the input (a prefix or suffix of it, or a piece between two cut
//! spans: a span cut from inside a line becomes a line break), so a needle a cleaned part
//! holds is in the raw line too (the scanner's pre-filter stays exact), and the index,
//! which cleans each decoded string with this same function, keys what the scanner checks.
//! Unescaped lines are found by the scanner through a marker (`scan::matcher::MARKERS`).
//!
//! Cheap when there is nothing to remove: a few `memchr` passes decide which rules can
//! apply (a `\r`; `\"`; `@@ -`; `→` or a tab after a digit; `:N:` or a line opening with
//! `N:`; a bar: three bar characters in a row, `[===>  ]`, or `%|`); most text has none of them,
//! only the rules whose mark is there run, and a part is copied only when something is
//! removed.

use std::borrow::Cow;

use memchr::{memchr, memchr_iter, memmem};

use crate::inputs::transcript::text::strip_escapes;

/// `text` without what tools add (see the module docs); borrowed when nothing is removed.
pub(crate) fn strip_noise(text: &str) -> Cow<'_, str> {
    // The line rules cut at ASCII bytes and after whole characters: their result is made
    // of slices of the text, with no UTF-8 to check again.
    let lines = |t: &str| line_pieces(t.as_bytes()).map(|p| assemble_str(t, &p));
    match overwrite_and_unescape(text.as_bytes()) {
        None => lines(text).map_or(Cow::Borrowed(text), Cow::Owned),
        Some(b) => {
            // Only whole characters are removed and only valid UTF-8 is inserted.
            let t = String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            Cow::Owned(lines(&t).unwrap_or(t))
        }
    }
}

/// [`strip_noise`] on bytes (the index's decoded strings, which may hold invalid UTF-8);
/// `None` when nothing is removed.
pub(crate) fn strip_noise_bytes(text: &[u8]) -> Option<Vec<u8>> {
    let pre = overwrite_and_unescape(text);
    let cur = pre.as_deref().unwrap_or(text);
    match line_pieces(cur) {
        Some(p) => Some(assemble_bytes(cur, &p)),
        None => pre,
    }
}

/// The passes over the whole text: JSON-encoded lines unescaped, then `\r` overwrites.
fn overwrite_and_unescape(text: &[u8]) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    if memmem::find(text, b"\\\"").is_some()
        && let Some(v) = unescape_json_lines(text)
    {
        out = Some(v);
    }
    let cur = out.as_deref().unwrap_or(text);
    if memchr(b'\r', cur).is_some()
        && let Some(v) = overwritten(cur)
    {
        out = Some(v);
    }
    out
}

/// The line rules' result as pieces of `text`, `None` when they remove nothing.
fn line_pieces(text: &[u8]) -> Option<Vec<Piece>> {
    let rules = Rules::of(text);
    if rules.any() { strip_lines(text, rules) } else { None }
}

/// A piece of a result: a range of the text, or a line break.
enum Piece {
    Text(usize, usize),
    Break,
}

fn assemble_bytes(text: &[u8], pieces: &[Piece]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for p in pieces {
        match *p {
            Piece::Text(a, b) => out.extend_from_slice(text.get(a..b).unwrap_or(&[])),
            Piece::Break => out.push(b'\n'),
        }
    }
    out
}

fn assemble_str(text: &str, pieces: &[Piece]) -> String {
    let mut out = String::with_capacity(text.len());
    for p in pieces {
        match *p {
            Piece::Text(a, b) => match text.get(a..b) {
                Some(t) => out.push_str(t),
                // Never: every cut is at an ASCII byte or after a whole character.
                None => out.push_str(&String::from_utf8_lossy(text.as_bytes().get(a..b).unwrap_or(&[]))),
            },
            Piece::Break => out.push('\n'),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Which line rules can apply.

#[derive(Clone, Copy, Default)]
struct Rules {
    /// `→` or a tab: gutters.
    gutter: bool,
    /// `@@ -`: a hunk header.
    diff: bool,
    /// A colon beside a digit: grep prefixes.
    grep: bool,
    /// A bar character: progress bars.
    bar: bool,
}

impl Rules {
    fn of(text: &[u8]) -> Rules {
        // `→` is E2 86 92; the bar characters (U+2500–U+25B1) are E2 94..96 xx.
        let (mut arrow, mut glyph) = (false, false);
        for i in memchr_iter(0xE2, text) {
            match text.get(i + 1) {
                Some(0x86) => arrow |= text.get(i + 2) == Some(&0x92),
                Some(0x94..=0x96) => glyph = true,
                _ => {}
            }
            if arrow && glyph {
                break;
            }
        }
        let digit_at = |i: Option<usize>| i.and_then(|i| text.get(i)).is_some_and(u8::is_ascii_digit);
        // A tab after a digit (`     58\t`).
        let tab = memchr_iter(b'\t', text).any(|i| digit_at(i.checked_sub(1)));
        // `:N:` (after a file name), or `N:` opening a line.
        let grep = memchr_iter(b':', text).any(|i| {
            let after = text.get(i + 1..).map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count());
            if after > 0 && text.get(i + 1 + after) == Some(&b':') {
                return true;
            }
            let before = text.get(..i).map_or(0, |r| r.iter().rev().take_while(|b| b.is_ascii_digit()).count());
            before > 0 && (before == i || text.get(i - before - 1) == Some(&b'\n'))
        });
        // A bar itself (`[===>  ]`, three bar characters in a row), not any `[` or `━`.
        let bracket = memchr_iter(b'[', text)
            .any(|i| text.get(i + 1).is_some_and(|b| b"=#>-".contains(b)) && bar_at(text, i).is_some());
        let glyph = glyph && memchr_iter(0xE2, text).any(|i| bar_at(text, i).is_some());
        Rules {
            gutter: arrow || tab,
            diff: memmem::find(text, b"@@ -").is_some(),
            grep,
            bar: glyph || bracket || memmem::find(text, b"%|").is_some(),
        }
    }

    fn any(self) -> bool {
        self.gutter || self.diff || self.grep || self.bar
    }
}

// ---------------------------------------------------------------------------------------
// Line rules.

/// What to do with one line: drop it whole, or remove a prefix, a span inside it (a grep
/// line's number) and bars. A span cut from inside becomes a line break when text stays
/// on both sides of it.
#[derive(Default)]
struct Edit {
    drop: bool,
    /// Bytes removed at the line's start.
    prefix: usize,
    /// A span removed from inside the line.
    split: Option<(usize, usize)>,
    /// Progress bars with their figures (sorted, after the prefix and split).
    bars: Vec<(usize, usize)>,
}

impl Edit {
    fn prefix(n: usize) -> Edit {
        Edit { prefix: n, ..Edit::default() }
    }

    /// Where the text a prefix rule left starts.
    fn start(&self) -> usize {
        self.split.map_or(self.prefix, |(_, end)| end.max(self.prefix))
    }

    fn is_noop(&self) -> bool {
        !self.drop && self.prefix == 0 && self.split.is_none() && self.bars.is_empty()
    }
}

/// The lines of `text` (split at `\n`, the last one possibly empty).
fn lines_of(text: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(memchr::memchr_iter(b'\n', text).count() + 1);
    let mut at = 0;
    for nl in memchr_iter(b'\n', text) {
        out.push(text.get(at..nl).unwrap_or(&[]));
        at = nl + 1;
    }
    out.push(text.get(at..).unwrap_or(&[]));
    out
}

fn strip_lines(text: &[u8], rules: Rules) -> Option<Vec<Piece>> {
    let lines = lines_of(text);
    let mut edits: Vec<Edit> = (0..lines.len()).map(|_| Edit::default()).collect();
    // Lines a rule owns (a hunk's lines): no other prefix rule touches them.
    let mut owned = vec![false; lines.len()];
    if rules.diff {
        diff_hunks(&lines, &mut edits, &mut owned);
    }
    if rules.gutter {
        gutters(&lines, &mut edits, &mut owned);
    }
    if rules.grep {
        grep_prefixes(&lines, &mut edits, &mut owned);
    }
    if rules.bar {
        for (line, edit) in lines.iter().zip(edits.iter_mut()) {
            if !edit.drop {
                let from = edit.start();
                progress_bars(line, from, &mut edit.bars);
            }
        }
    }
    if edits.iter().all(Edit::is_noop) {
        return None;
    }
    let mut out = Vec::with_capacity(lines.len() * 2);
    let mut first = true;
    let mut line_start = 0;
    for (line, edit) in lines.iter().zip(&edits) {
        let base = line_start;
        line_start += line.len() + 1;
        if edit.drop {
            continue;
        }
        if !first {
            out.push(Piece::Break);
        }
        first = false;
        let mut at = edit.prefix.min(line.len());
        for &(start, end) in edit.split.iter().chain(&edit.bars) {
            if start > at {
                out.push(Piece::Text(base + at, base + start));
                // A line break only between two kept pieces of text.
                if end < line.len() {
                    out.push(Piece::Break);
                }
            }
            at = at.max(end).min(line.len());
        }
        if line.len() > at {
            out.push(Piece::Text(base + at, base + line.len()));
        }
    }
    Some(out)
}

// Gutters ---------------------------------------------------------------------------------

/// A line-number gutter at a line's start: `^ *\d{1,9}(→|\t)`.
#[derive(Clone, Copy)]
struct Gutter {
    number: u64,
    /// Bytes of the gutter (spaces, digits, marker).
    len: usize,
    /// Right-aligned in six columns with spaces, as `cat -n` and the older `Read` print.
    padded: bool,
    arrow: bool,
}

const ARROW: &[u8] = "→".as_bytes();

fn gutter(line: &[u8]) -> Option<Gutter> {
    let spaces = line.iter().take_while(|&&b| b == b' ').count();
    let digits = line.get(spaces..)?.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let number = line.get(spaces..spaces + digits)?.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    let rest = line.get(spaces + digits..)?;
    let (arrow, marker) = if rest.starts_with(ARROW) {
        (true, ARROW.len())
    } else if rest.first() == Some(&b'\t') {
        (false, 1)
    } else {
        return None;
    };
    Some(Gutter { number, len: spaces + digits + marker, padded: spaces > 0 && spaces + digits == 6, arrow })
}

/// Gutters: a padded one alone; an unpadded one (the current `Read` prints `58\t`, an
/// older one `58→`) in a run of lines numbered one after another that opens the part, as
/// a tool result does (`→`: or any such run of two lines or more). Tab-separated data
/// (`1\talice\tadmin`, every line of the run holding as many more tabs) is not a gutter,
/// nor are numbered rows under a header line (the run would not open the part); two bare
/// columns opening a part (`1\talice`, `2\tbob`) are the shape of a `Read` of a file
/// holding `alice` and `bob`, and read as one.
fn gutters(lines: &[&[u8]], edits: &mut [Edit], owned: &mut [bool]) {
    let found: Vec<Option<Gutter>> =
        lines.iter().zip(owned.iter()).map(|(l, &o)| if o { None } else { gutter(l) }).collect();
    let mut i = 0;
    while i < lines.len() {
        let Some(first) = found.get(i).copied().flatten() else {
            i += 1;
            continue;
        };
        // The run of lines numbered one after another from here, with the same marker.
        let mut end = i + 1;
        while let Some(g) = found.get(end).copied().flatten()
            && g.arrow == first.arrow
            && found.get(end - 1).copied().flatten().is_some_and(|p| p.number.checked_add(1) == Some(g.number))
        {
            end += 1;
        }
        let run = found.get(i..end).unwrap_or(&[]);
        let unpadded_ok = if first.arrow {
            i == 0 || run.len() >= 2
        } else {
            // Tabs after the gutter, on the run's `k`th line.
            let tabs = |k: usize| match (lines.get(i + k), run.get(k).copied().flatten()) {
                (Some(l), Some(g)) => memchr_iter(b'\t', l.get(g.len..).unwrap_or(&[])).count(),
                _ => 0,
            };
            let tabular = run.len() >= 2 && tabs(0) > 0 && (1..run.len()).all(|k| tabs(k) == tabs(0));
            i == 0 && !tabular
        };
        for (k, g) in run.iter().enumerate() {
            let Some(g) = g else { continue };
            if (g.padded || unpadded_ok)
                && let (Some(e), Some(o)) = (edits.get_mut(i + k), owned.get_mut(i + k))
            {
                *e = Edit::prefix(g.len);
                *o = true;
            }
        }
        i = end;
    }
}

// grep ------------------------------------------------------------------------------------

/// A grep line's prefix: its file (when it has one), number and whether it is a match
/// (`:`) or a context (`-`) line.
#[derive(Clone, Copy)]
struct GrepLine {
    /// End of the file name (0: the one-file form).
    path_end: usize,
    number: u64,
    /// Bytes of the whole prefix (name, separators, number).
    len: usize,
    matched: bool,
}

/// Digits at `line[at..]` (1 to 9) followed by `sep`: the number and the end of the sep.
fn number_then(line: &[u8], at: usize, sep: u8) -> Option<(u64, usize)> {
    let rest = line.get(at..)?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 9 || rest.get(digits) != Some(&sep) {
        return None;
    }
    let n = std::str::from_utf8(rest.get(..digits)?).ok()?.parse().ok()?;
    Some((n, at + digits + 1))
}

/// Whether a name looks like a file's: no spaces or quotes, and a `/` or a file extension
/// (a dot then letters and digits, one a letter, not a common top-level domain:
/// `example.com:443:` is a host and its port).
fn path_like(name: &[u8]) -> bool {
    if name.is_empty() || name.len() > 1024 || name.iter().any(|&b| b <= b' ' || b == b'"' || b == b'\'') {
        return false;
    }
    if name.first() == Some(&b'-') {
        return false;
    }
    if name.contains(&b'/') && name.iter().any(|b| b.is_ascii_alphanumeric()) {
        return true;
    }
    let Some(dot) = name.iter().rposition(|&b| b == b'.') else { return false };
    let ext = name.get(dot + 1..).unwrap_or(&[]);
    let ext_ok = !ext.is_empty()
        && ext.len() <= 10
        && ext.iter().all(u8::is_ascii_alphanumeric)
        && ext.iter().any(u8::is_ascii_alphabetic)
        && dot > 0;
    const DOMAINS: &[&[u8]] =
        &[b"com", b"org", b"net", b"io", b"dev", b"ai", b"co", b"edu", b"gov", b"local", b"internal"];
    ext_ok && !DOMAINS.iter().any(|d| ext.eq_ignore_ascii_case(d))
}

/// `name:N:` at the line's start, with a path-like name.
fn grep_match(line: &[u8]) -> Option<GrepLine> {
    let colon = memchr(b':', line)?;
    if !path_like(line.get(..colon)?) {
        return None;
    }
    let (number, len) = number_then(line, colon + 1, b':')?;
    Some(GrepLine { path_end: colon, number, len, matched: true })
}

/// `name-N-` or `name:N:` at the line's start, for a known `name`.
fn grep_of(line: &[u8], name: &[u8]) -> Option<GrepLine> {
    if !line.starts_with(name) {
        return None;
    }
    let sep = *line.get(name.len())?;
    if sep != b'-' && sep != b':' {
        return None;
    }
    let (number, len) = number_then(line, name.len() + 1, sep)?;
    Some(GrepLine { path_end: name.len(), number, len, matched: sep == b':' })
}

/// The one-file form: `N:` or `N-`, not followed by a digit (`12:30` is a time,
/// `2024-01-05` a date) nor by one space and a word (`200: OK`, `1: install` are a
/// mapping or a list: grep puts the line right after the colon, indented or not).
fn bare(line: &[u8]) -> Option<GrepLine> {
    let digits = line.iter().take_while(|b| b.is_ascii_digit()).count();
    let sep = *line.get(digits)?;
    let (number, len) = match sep {
        b':' | b'-' => number_then(line, 0, sep)?,
        _ => return None,
    };
    let rest = line.get(len..).unwrap_or(&[]);
    let worded = rest.first() == Some(&b' ') && rest.get(1).is_some_and(|b| !b.is_ascii_whitespace());
    if rest.first().is_some_and(u8::is_ascii_digit) || worded {
        return None;
    }
    Some(GrepLine { path_end: 0, number, len, matched: sep == b':' })
}

fn grep_prefixes(lines: &[&[u8]], edits: &mut [Edit], owned: &mut [bool]) {
    let n = lines.len();
    let mut found: Vec<Option<GrepLine>> = vec![None; n];
    // Match lines with a path-like name (`src/db.rs:12:`, `db.rs:12:`): taken alone.
    for (i, line) in lines.iter().enumerate() {
        if owned.get(i) == Some(&true) {
            continue;
        }
        if let Some(g) = grep_match(line)
            && let Some(f) = found.get_mut(i)
        {
            *f = Some(g);
        }
    }
    // Context lines (and match lines of the same file) next to a found line, numbered one
    // off: forwards, then backwards.
    let name_of = |i: usize, found: &[Option<GrepLine>]| -> Option<(usize, u64)> {
        let g = found.get(i).copied().flatten()?;
        (g.path_end > 0).then_some((g.path_end, g.number))
    };
    for i in 1..n {
        if found.get(i).copied().flatten().is_some() || owned.get(i) == Some(&true) {
            continue;
        }
        if let Some((end, number)) = name_of(i - 1, &found)
            && let Some(name) = lines.get(i - 1).and_then(|l| l.get(..end))
            && let Some(g) = lines.get(i).and_then(|l| grep_of(l, name))
            && g.number == number + 1
        {
            found[i] = Some(g);
        }
    }
    for i in (0..n.saturating_sub(1)).rev() {
        if found.get(i).copied().flatten().is_some() || owned.get(i) == Some(&true) {
            continue;
        }
        if let Some((end, number)) = name_of(i + 1, &found)
            && let Some(name) = lines.get(i + 1).and_then(|l| l.get(..end))
            && let Some(g) = lines.get(i).and_then(|l| grep_of(l, name))
            && Some(g.number) == number.checked_sub(1)
        {
            found[i] = Some(g);
        }
    }
    // The one-file form: runs of `N:` / `N-` lines.
    let mut i = 0;
    while i < n {
        let run_start = i;
        let mut run: Vec<GrepLine> = Vec::new();
        while i < n
            && owned.get(i) != Some(&true)
            && found.get(i).copied().flatten().is_none()
            && let Some(g) = lines.get(i).and_then(|l| bare(l))
        {
            run.push(g);
            i += 1;
        }
        if run.is_empty() {
            i += 1;
            continue;
        }
        let heading = run_start.checked_sub(1).and_then(|h| lines.get(h)).is_some_and(|h| path_like(h));
        let rising = run.windows(2).all(|w| w[0].number < w[1].number);
        let matched = run.iter().any(|g| g.matched);
        let context_ok = run.iter().enumerate().all(|(k, g)| {
            g.matched || {
                let prev = k.checked_sub(1).and_then(|p| run.get(p)).is_some_and(|p| p.number + 1 == g.number);
                let next = run.get(k + 1).is_some_and(|q| g.number + 1 == q.number);
                prev || next
            }
        });
        if rising && matched && context_ok && (run.len() >= 2 || heading) {
            for (k, g) in run.into_iter().enumerate() {
                if let Some(f) = found.get_mut(run_start + k) {
                    *f = Some(g);
                }
            }
        }
    }
    for (i, g) in found.into_iter().enumerate() {
        let (Some(g), Some(e), Some(o)) = (g, edits.get_mut(i), owned.get_mut(i)) else { continue };
        // The file's name stays, as a line of its own; the number goes.
        *e = if g.path_end > 0 {
            Edit { split: Some((g.path_end, g.len)), ..Edit::default() }
        } else {
            Edit::prefix(g.len)
        };
        *o = true;
    }
}

// Unified diffs ---------------------------------------------------------------------------

/// `@@ -a[,b] +c[,d] @@`: the old and new line counts, and the header's length (with the
/// space before a section heading).
fn hunk_header(line: &[u8]) -> Option<(u64, u64, usize)> {
    let rest = line.strip_prefix(b"@@ -")?;
    let (_, at) = range(rest, 0)?;
    let old = at.1;
    let at = at.0;
    if rest.get(at) != Some(&b' ') || rest.get(at + 1) != Some(&b'+') {
        return None;
    }
    let (_, (at, new)) = range(rest, at + 2)?;
    let tail = rest.get(at..)?.strip_prefix(b" @@")?;
    let mut len = 4 + at + 3;
    if tail.first() == Some(&b' ') {
        len += 1;
    }
    Some((old, new, len))
}

/// `a[,b]` at `s[at..]`: `a` and (end, b), `b` 1 when absent.
fn range(s: &[u8], at: usize) -> Option<(u64, (usize, u64))> {
    let digits = |from: usize| s.get(from..).map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count());
    let parse =
        |from: usize, len: usize| -> Option<u64> { std::str::from_utf8(s.get(from..from + len)?).ok()?.parse().ok() };
    let d = digits(at);
    if d == 0 || d > 12 {
        return None;
    }
    let start = parse(at, d)?;
    let mut end = at + d;
    let mut count = 1;
    if s.get(end) == Some(&b',') {
        let c = digits(end + 1);
        if c == 0 || c > 12 {
            return None;
        }
        count = parse(end + 1, c)?;
        end += 1 + c;
    }
    Some((start, (end, count)))
}

fn diff_hunks(lines: &[&[u8]], edits: &mut [Edit], owned: &mut [bool]) {
    let mut i = 0;
    while i < lines.len() {
        let Some((mut old, mut new, len)) = lines.get(i).and_then(|l| hunk_header(l)) else {
            i += 1;
            continue;
        };
        if let (Some(e), Some(o)) = (edits.get_mut(i), owned.get_mut(i)) {
            *e = Edit::prefix(len);
            *o = true;
        }
        i += 1;
        while let Some(line) = lines.get(i) {
            let first = line.first().copied();
            if line.starts_with(b"\\ ") {
                // `\ No newline at end of file`: after a line of the hunk.
                if let (Some(e), Some(o)) = (edits.get_mut(i), owned.get_mut(i)) {
                    e.drop = true;
                    *o = true;
                }
                i += 1;
                continue;
            }
            if old == 0 && new == 0 {
                break;
            }
            let fits = match first {
                Some(b' ') | None => old > 0 && new > 0,
                Some(b'-') => old > 0,
                Some(b'+') => new > 0,
                _ => false,
            };
            if !fits {
                break;
            }
            match first {
                Some(b'-') => old -= 1,
                Some(b'+') => new -= 1,
                _ => {
                    old -= 1;
                    new -= 1;
                }
            }
            if let (Some(e), Some(o)) = (edits.get_mut(i), owned.get_mut(i)) {
                if first.is_some() {
                    *e = Edit::prefix(1);
                }
                *o = true;
            }
            i += 1;
        }
    }
}

// Progress bars ---------------------------------------------------------------------------

/// A character bars are drawn with: block elements, heavy and light horizontals and their
/// halves, squares and parallelograms.
fn bar_char(c: char) -> bool {
    matches!(c, '\u{2580}'..='\u{259F}' | '\u{2500}' | '\u{2501}' | '\u{2574}'..='\u{257F}' | '\u{25A0}' | '\u{25A1}' | '\u{25B0}' | '\u{25B1}')
}

/// The character starting at `line[i]` and its length (`None` past the end or on a byte
/// that does not start valid UTF-8).
fn char_at(line: &[u8], i: usize) -> Option<(char, usize)> {
    let b = *line.get(i)?;
    let len = match b {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return None,
    };
    let s = std::str::from_utf8(line.get(i..i + len)?).ok()?;
    s.chars().next().map(|c| (c, len))
}

/// End of a run of bar characters starting at `i` (`i` when there is none).
fn glyphs_end(line: &[u8], mut i: usize) -> (usize, usize) {
    let mut count = 0;
    while let Some((c, len)) = char_at(line, i) {
        if !bar_char(c) {
            break;
        }
        i += len;
        count += 1;
    }
    (i, count)
}

/// The bars of `line[from..]` with the figures beside them, as cuts.
fn progress_bars(line: &[u8], from: usize, cuts: &mut Vec<(usize, usize)>) {
    // Only where a bar can start: `[`, `|`, or the lead byte of a bar character.
    let mut i = from;
    let rest = line.get(from..).unwrap_or(&[]);
    for k in memchr::memchr3_iter(b'[', b'|', 0xE2, rest) {
        if from + k < i {
            continue;
        }
        i = from + k;
        let Some(core) = bar_at(line, i) else { continue };
        let (mut start, mut end) = core.span;
        let before = figures_before(line, start, from);
        let after = figures_after(line, end);
        if core.framed || before < start || after > end {
            start = before;
            end = after;
            // Spaces around the cut go with it.
            while start > from && line.get(start - 1) == Some(&b' ') {
                start -= 1;
            }
            while line.get(end) == Some(&b' ') {
                end += 1;
            }
            cuts.push((start, end));
        }
        i = end.max(i + 1);
    }
}

struct Bar {
    span: (usize, usize),
    /// A tqdm frame (`45%|…|`): a bar whatever stands beside it.
    framed: bool,
}

/// A bar starting at `line[i]`: `[` bar characters `]`, a run of three or more glyphs, or a
/// tqdm frame `|…|` after a percentage.
fn bar_at(line: &[u8], i: usize) -> Option<Bar> {
    match *line.get(i)? {
        b'[' => {
            let mut j = i + 1;
            let mut fill = 0;
            let mut len = 0;
            while let Some((c, l)) = char_at(line, j) {
                match c {
                    '=' | '#' | '>' => fill += 1,
                    '-' | '.' | ' ' | '*' | '~' | '<' => {}
                    c if bar_char(c) => fill += 1,
                    _ => break,
                }
                j += l;
                len += 1;
            }
            (line.get(j) == Some(&b']') && len >= 3 && fill >= 1).then_some(Bar { span: (i, j + 1), framed: false })
        }
        b'|' => {
            // tqdm: `45%|████▌     | 45/100`, right after a percentage.
            let pct = i > 0 && line.get(i - 1) == Some(&b'%');
            if !pct {
                return None;
            }
            let mut j = i + 1;
            while let Some((c, l)) = char_at(line, j) {
                if !(c == ' ' || c == '#' || bar_char(c) || c.is_ascii_digit()) {
                    break;
                }
                j += l;
            }
            (line.get(j) == Some(&b'|') && j > i + 1).then_some(Bar { span: (i, j + 1), framed: true })
        }
        _ => {
            let (end, count) = glyphs_end(line, i);
            (count >= 3).then_some(Bar { span: (i, end), framed: false })
        }
    }
}

/// Units a progress figure may carry.
const UNITS: &[&[u8]] =
    &[b"b", b"kb", b"mb", b"gb", b"tb", b"kib", b"mib", b"gib", b"tib", b"k", b"m", b"g", b"it", b"s", b"ms", b"bytes"];

/// A figure at `line[at..]`: a number with what may follow it in a progress line
/// (`45%`, `12/40`, `1.2/3.4 MB`, `3.1MB/s`, `0:00:04`, `12.3it/s`), `eta`, or a
/// bracketed tqdm status (`[00:03<00:04, 12.3it/s]`). Its end, when there is one.
fn figure_at(line: &[u8], at: usize) -> Option<usize> {
    let rest = line.get(at..)?;
    if rest.len() >= 3 && rest.get(..3).is_some_and(|w| w.eq_ignore_ascii_case(b"eta")) {
        let next = rest.get(3);
        if next.is_none_or(|b| !b.is_ascii_alphanumeric()) {
            return Some(at + 3);
        }
    }
    if rest.first() == Some(&b'[') {
        let close = memchr(b']', rest.get(..rest.len().min(80))?)?;
        let inner = rest.get(1..close)?;
        let timed = memchr(b':', inner).is_some() || memmem::find(inner, b"/s").is_some();
        return (timed && inner.iter().all(|&b| b >= b' ' && b != b'[')).then_some(at + close + 1);
    }
    let mut j = 0;
    let number = |j: &mut usize| {
        let s = *j;
        while rest.get(*j).is_some_and(|b| b.is_ascii_digit() || *b == b'.' || *b == b',') {
            *j += 1;
        }
        *j > s && rest.get(s).is_some_and(u8::is_ascii_digit)
    };
    if !number(&mut j) {
        return None;
    }
    // A unit of size, count or time, right after the number or after one space.
    let unit = |j: &mut usize| {
        let s = *j;
        if rest.get(*j) == Some(&b' ') {
            *j += 1;
        }
        let letters = rest.get(*j..).map_or(0, |r| r.iter().take_while(|b| b.is_ascii_alphabetic()).count());
        let word = rest.get(*j..*j + letters).unwrap_or(&[]);
        if UNITS.iter().any(|u| word.eq_ignore_ascii_case(u)) {
            *j += letters;
        } else {
            *j = s;
        }
    };
    loop {
        match rest.get(j) {
            Some(b'%') => j += 1,
            Some(b':') if rest.get(j + 1).is_some_and(u8::is_ascii_digit) => {
                j += 1;
                number(&mut j);
                continue;
            }
            Some(b'/') if rest.get(j + 1).is_some_and(u8::is_ascii_digit) => {
                j += 1;
                number(&mut j);
                unit(&mut j);
                continue;
            }
            Some(b'/') if rest.get(j + 1) == Some(&b's') => j += 2,
            Some(_) => {
                let s = j;
                unit(&mut j);
                if j > s {
                    continue;
                }
            }
            None => {}
        }
        break;
    }
    // A figure ends at a word's end.
    rest.get(j).is_none_or(|b| !b.is_ascii_alphanumeric()).then_some(at + j)
}

/// Start of the figures (and `|`) right before `line[start]` (`start` when none), not
/// before `from`.
fn figures_before(line: &[u8], start: usize, from: usize) -> usize {
    let mut s = start;
    loop {
        let mut k = s;
        while k > from && matches!(line.get(k - 1), Some(b' ' | b'|')) {
            k -= 1;
        }
        // A percentage or count just before: digits, dots, `%`, `/`.
        let mut w = k;
        while w > from && line.get(w - 1).is_some_and(|b| b.is_ascii_digit() || b"%./".contains(b)) {
            w -= 1;
        }
        if w < k
            && (w == from || line.get(w - 1).is_some_and(|b| *b == b' ' || *b == b'|'))
            && line.get(w).is_some_and(u8::is_ascii_digit)
            && line.get(w..k).is_some_and(|f| f.contains(&b'%') || f.contains(&b'/'))
        {
            s = w;
            continue;
        }
        return s;
    }
}

/// End of the figures (and `|`) right after `line[end-1]` (`end` when none).
fn figures_after(line: &[u8], end: usize) -> usize {
    let mut e = end;
    loop {
        let mut k = e;
        while matches!(line.get(k), Some(b' ' | b'|')) {
            k += 1;
        }
        match figure_at(line, k) {
            Some(f) if f > k => e = f,
            _ => return e,
        }
    }
}

// `\r` overwrites -------------------------------------------------------------------------

/// Each line said as the terminal shows it: a line overwritten with `\r` is its last
/// segment holding something; `\r` before a line end is part of the line end.
fn overwritten(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut changed = false;
    for (k, line) in lines_of(text).into_iter().enumerate() {
        if k > 0 {
            out.push(b'\n');
        }
        let mut line = line;
        while let Some(l) = line.strip_suffix(b"\r") {
            line = l;
            changed = true;
        }
        if memchr(b'\r', line).is_some() {
            changed = true;
            let shown = line.rsplit(|&b| b == b'\r').find(|s| s.iter().any(|b| !b.is_ascii_whitespace()));
            out.extend_from_slice(shown.unwrap_or(&[]));
        } else {
            out.extend_from_slice(line);
        }
    }
    changed.then_some(out)
}

// JSON-encoded text -----------------------------------------------------------------------

/// Whether a line is plainly JSON-encoded text: an escaped quote opening a string right
/// after `{` or `[` (spaces allowed), and one closing a string right before `:`, `,`, `]`
/// or `}`.
fn json_encoded(line: &[u8]) -> bool {
    let finder = memmem::find_iter(line, b"\\\"");
    let mut opens = false;
    let mut closes = false;
    for at in finder {
        let before = line.get(..at).unwrap_or(&[]);
        let prev = before.iter().rev().find(|b| **b != b' ').copied();
        opens |= matches!(prev, Some(b'{' | b'['));
        let after = line.get(at + 2..).unwrap_or(&[]);
        let next = after.iter().find(|b| **b != b' ').copied();
        closes |= matches!(next, Some(b':' | b',' | b']' | b'}'));
        if opens && closes {
            return true;
        }
    }
    false
}

fn unescape_json_lines(text: &[u8]) -> Option<Vec<u8>> {
    let lines = lines_of(text);
    let encoded: Vec<bool> = lines.iter().map(|l| json_encoded(l)).collect();
    if !encoded.contains(&true) {
        return None;
    }
    let mut out = Vec::with_capacity(text.len());
    for (k, (line, enc)) in lines.into_iter().zip(encoded).enumerate() {
        if k > 0 {
            out.push(b'\n');
        }
        if enc {
            unescape(line, &mut out);
        } else {
            out.extend_from_slice(line);
        }
    }
    if memchr(0x1b, &out).is_some() {
        // `\u001b` decoded: a terminal escape, removed as everywhere in said text.
        let s = String::from_utf8_lossy(&out);
        return Some(strip_escapes(&s).into_owned().into_bytes());
    }
    Some(out)
}

/// Appends `line` with its JSON escapes decoded; an escape JSON does not have stays as it is.
fn unescape(line: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < line.len() {
        let plain = memchr(b'\\', line.get(i..).unwrap_or(&[])).map_or(line.len(), |k| i + k);
        out.extend_from_slice(line.get(i..plain).unwrap_or(&[]));
        i = plain;
        if i >= line.len() {
            break;
        }
        let simple = match line.get(i + 1) {
            Some(b'"') => Some(b'"'),
            Some(b'\\') => Some(b'\\'),
            Some(b'/') => Some(b'/'),
            Some(b'n') => Some(b'\n'),
            Some(b't') => Some(b'\t'),
            Some(b'r') => Some(b'\r'),
            Some(b'b') => Some(0x08),
            Some(b'f') => Some(0x0c),
            _ => None,
        };
        if let Some(c) = simple {
            out.push(c);
            i += 2;
            continue;
        }
        if line.get(i + 1) == Some(&b'u')
            && let Some(u) = hex4(line, i + 2)
        {
            i += 6;
            let c = if (0xD800..0xDC00).contains(&u) {
                match (line.get(i), line.get(i + 1), hex4(line, i + 2)) {
                    (Some(b'\\'), Some(b'u'), Some(lo)) if (0xDC00..0xE000).contains(&lo) => {
                        i += 6;
                        char::from_u32(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00))
                    }
                    _ => None,
                }
            } else {
                char::from_u32(u)
            };
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.unwrap_or(char::REPLACEMENT_CHARACTER).encode_utf8(&mut buf).as_bytes());
            continue;
        }
        out.push(b'\\');
        i += 1;
    }
}

fn hex4(s: &[u8], at: usize) -> Option<u32> {
    let h = s.get(at..at + 4)?;
    if !h.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn clean(s: &str) -> String {
        strip_noise(s).into_owned()
    }

    #[track_caller]
    fn untouched(s: &str) {
        assert!(matches!(strip_noise(s), Cow::Borrowed(_)), "{s:?} became {:?}", clean(s));
    }

    #[test]
    fn read_gutters_go_the_text_stays() {
        // Claude Code's Read: six columns, then `→` (older) or a tab (newer); `cat -n` too.
        let read = "     1→import \"phoenix_html\"\n     2→\n    58→  users.insert(a)\n";
        assert_eq!(clean(read), "import \"phoenix_html\"\n\n  users.insert(a)\n");
        assert_eq!(clean("     1\tpackage cache\n     2\t\n     3\timport ("), "package cache\n\nimport (");
        assert_eq!(clean("   999→a\n  1000→b"), "a\nb");
        // Unpadded (newer Read): numbered one after another, or the part's first line.
        assert_eq!(clean("57→a\n58→b"), "a\nb");
        assert_eq!(clean("58→  users.insert(a)"), "  users.insert(a)");
        assert_eq!(clean("1234567→x\n1234568→y"), "x\ny");
        // The current Read: an unpadded number and a tab, from the part's first line.
        assert_eq!(clean("1\t# agentic-console"), "# agentic-console");
        assert_eq!(clean("80\t        return hooks\n81\t\n82\t    x = 58"), "        return hooks\n\n    x = 58");
        let reminder = "1\tPROBE 58\n2\t\n\n<system-reminder>\n3\tunrelated\n</system-reminder>";
        assert_eq!(clean(reminder), "PROBE 58\n\n\n<system-reminder>\n3\tunrelated\n</system-reminder>");
    }

    #[test]
    fn prose_and_data_that_look_like_gutters_stay() {
        untouched("We went 3→4 replicas");
        untouched("Scaling:\n3→4 replicas");
        // Numbered rows under a header, rows of tab-separated columns, a number that does not
        // open the part.
        untouched("id\tname\n1\talice\n2\tbob");
        untouched("1\talice\tadmin\n2\tbob\tuser\n3\tcarol\tuser");
        untouched("Rows:\n58\tusers");
        untouched("  58 → users");
    }

    #[test]
    fn grep_prefixes_go_the_file_name_stays() {
        let out = "src/db.rs-11-fn seed() {\nsrc/db.rs:12:    users.insert(58);\nsrc/db.rs-13-}\n--\nlib/a.py:3:x = 1";
        assert_eq!(
            clean(out),
            "src/db.rs\nfn seed() {\nsrc/db.rs\n    users.insert(58);\nsrc/db.rs\n}\n--\nlib/a.py\nx = 1"
        );
        assert_eq!(clean("db.rs:12:users"), "db.rs\nusers");
        // One file: `N:` lines with rising numbers, context `N-` lines one off.
        assert_eq!(
            clean("11-fn seed() {\n12:    users.insert(58);\n40:    count"),
            "fn seed() {\n    users.insert(58);\n    count"
        );
        // rg --heading: the file alone on a line, then its matches.
        assert_eq!(clean("src/db.rs\n12:users.insert(58)"), "src/db.rs\nusers.insert(58)");
        // A dash inside the file name.
        assert_eq!(clean("my-db.rs:12:a\nmy-db.rs-13-b"), "my-db.rs\na\nmy-db.rs\nb");
    }

    #[test]
    fn clock_times_hosts_and_lists_are_not_grep_output() {
        untouched("12:30 standup\n13:00 lunch");
        untouched("Meeting at 12:30, 58 users");
        untouched("example.com:443: connection refused");
        untouched("127.0.0.1:8080: connection refused");
        untouched("localhost:3000: ready");
        untouched("12:users");
        untouched("200: OK\n404: Not Found\n500: Internal Server Error");
        untouched("1: install\n2: run the seed");
        untouched("Note: 3:1 ratio");
        // Falling numbers are no grep run.
        untouched("40:a\n12:b");
        // A context-only run, or a context line not next to its match line.
        untouched("2024-01-05 release\n2025-02-03 release");
        untouched("src/db.rs-13-x");
    }

    #[test]
    fn diff_markers_go_inside_hunks_only() {
        let diff = "diff --git a/seed.rs b/seed.rs\nindex 83db48f..bf269f4 100644\n--- a/seed.rs\n+++ b/seed.rs\n\
                    @@ -10,3 +10,3 @@ fn seed() {\n     let n = 1;\n-    insert(57);\n+    insert(58);\n }\n\\ No newline at end of file\n- item after";
        assert_eq!(
            clean(diff),
            "diff --git a/seed.rs b/seed.rs\nindex 83db48f..bf269f4 100644\n--- a/seed.rs\n+++ b/seed.rs\nfn seed() {\n    let n = 1;\n    insert(57);\n    insert(58);\n}\n- item after"
        );
        // Counts end the hunk: a list after it stays a list.
        assert_eq!(clean("@@ -1 +1 @@\n-a\n+b\n- item\n+ more"), "\na\nb\n- item\n+ more");
        // An empty context line (trailing spaces trimmed by the tool) counts.
        assert_eq!(clean("@@ -1,3 +1,3 @@\n a\n\n-b\n+c"), "\na\n\nb\nc");
    }

    #[test]
    fn lists_outside_a_hunk_stay() {
        untouched("- item one\n- item two\n+ plus\n  indented");
        untouched("We changed @@ handling");
        untouched("@@ -a +b @@\n-x");
    }

    #[test]
    fn progress_bars_and_their_figures_go() {
        assert_eq!(clean("[=====>    ] 45%"), "");
        assert_eq!(clean("Downloading seed.sql [=====>    ] 45%"), "Downloading seed.sql");
        assert_eq!(clean("    Building [=======>     ] 12/40: serde"), "    Building\n: serde");
        assert_eq!(clean("━━━━━━━━━━━━━━━━━━━━ 12/40"), "");
        assert_eq!(clean("   ━━━━━━━━━━━━━━━━━━━━╸━━━ 1.2/3.4 MB 3.1 MB/s eta 0:00:04"), "");
        assert_eq!(clean("45%|████▌     | 45/100 [00:03<00:04, 12.3it/s]"), "");
        assert_eq!(clean("seeding:  45%|████▌     | 45/100 [00:03<00:04, 12.3it/s]"), "seeding:");
        assert_eq!(clean("abc123: Downloading [==>   ]  12.3MB/45.6MB"), "abc123: Downloading");
        // A bar with no figure holds no word: it stays.
        untouched("━━━━━━━━━━━━━━━━━━━━");
        untouched("[x] done, [ ] 58 users");
        untouched("a[i] = 58; [...] 45%");
        untouched("50% of 58 users");
    }

    #[test]
    fn a_line_overwritten_with_cr_says_its_last_segment() {
        let tqdm = "  0%|          | 0/100\r 45%|████▌     | 45/100\rDone: 58 users\nnext";
        assert_eq!(clean(tqdm), "Done: 58 users\nnext");
        assert_eq!(clean("Downloading 45%\rDownloading 100%\r\n"), "Downloading 100%\n");
        assert_eq!(clean("a\r\nb\r\n"), "a\nb\n");
        assert_eq!(clean("done\r   \r"), "done");
    }

    #[test]
    fn json_encoded_text_is_unescaped() {
        assert_eq!(clean(r#"{\"port\": 5432, \"name\": \"caf\u00e9\"}"#), r#"{"port": 5432, "name": "café"}"#);
        assert_eq!(clean(r#""[\"a\\b\", \"x\ny\"]""#), "\"[\"a\\b\", \"x\ny\"]\"");
        assert_eq!(clean(r#"ok {\"e\": \"\ud83d\ude00 \u001b[31mred\u001b[0m\"}"#), r#"ok {"e": "😀 red"}"#);
        // Only the encoded line.
        assert_eq!(clean("C:\\new\\table\n{\\\"a\\\": 1}"), "C:\\new\\table\n{\"a\": 1}");
    }

    #[test]
    fn backslashes_that_are_not_json_encoding_stay() {
        untouched(r"C:\new\table");
        untouched(r#"she said \"hi\" and left"#);
        untouched(r#"printf("%d\n", 58)"#);
        untouched(r#"{"path": "C:\\"}"#);
    }

    #[test]
    fn only_one_layer_per_line() {
        // A Read of a patch file: its gutter goes, its `+` is the file's text.
        assert_eq!(clean("     1→@@ -1 +1 @@\n     2→-a\n     3→+b"), "@@ -1 +1 @@\n-a\n+b");
    }

    fn noisy_line() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z0-9 ]{0,12}",
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("{n:>6}→{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("{n:>6}\t{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("{n}→{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("src/db.rs:{n}:{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("src/db.rs-{n}-{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("{n}:{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("{n}-{t}")),
            (0u32..9, 0u32..9).prop_map(|(a, b)| format!("@@ -1,{a} +1,{b} @@ fn x")),
            "[-+ ][a-z ]{0,8}",
            Just("\\ No newline at end of file".to_string()),
            (0u32..101, "[a-z]{0,6}").prop_map(|(p, t)| format!("{t} [=====>    ] {p}%")),
            (0u32..101).prop_map(|p| format!("{p}%|████▌     | {p}/100 [00:03<00:04, 12.3it/s]")),
            "[a-z ]{0,6}\r[a-z ]{0,6}\r?",
            Just("━━━━━━━━━━ 12/40 eta 0:00:04".to_string()),
            "[a-z ]{0,6}[→\t:@%|\\[\\]━█=#>-]{0,4}[0-9]{0,3}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

        /// Without unescaping, every line of the result is a substring of a line of the
        /// input: what the scanner's raw pre-filter and the index's keys rely on.
        #[test]
        fn every_line_left_is_part_of_a_line(lines in prop::collection::vec(noisy_line(), 0..8)) {
            let text = lines.join("\n");
            let out = clean(&text);
            let input: Vec<&str> = text.split('\n').collect();
            for line in out.split('\n') {
                prop_assert!(input.iter().any(|l| l.contains(line)), "{line:?} of {out:?} from {text:?}");
            }
        }

        /// Bytes and text agree, and nothing panics on any input.
        #[test]
        fn bytes_and_text_agree(s in "\\PC{0,80}", lines in prop::collection::vec(noisy_line(), 0..6)) {
            for text in [s, lines.join("\n")] {
                let bytes = strip_noise_bytes(text.as_bytes()).unwrap_or_else(|| text.as_bytes().to_vec());
                prop_assert_eq!(clean(&text).into_bytes(), bytes);
            }
        }

        #[test]
        fn any_bytes(b in prop::collection::vec(any::<u8>(), 0..200)) {
            let _ = strip_noise_bytes(&b);
        }
    }
}
