//! `grep -n` output: the `path:12:` (or `12:`, `12-`) prefixes of its lines, removed when
//! the lines read as grep's.

use super::lines::Edit;
use memchr::memchr;

/// A grep line's prefix: its file (when it has one), number and whether it is a match
/// (`:`) or a context (`-`) line.
#[derive(Clone, Copy)]
pub(super) struct GrepLine {
    /// End of the file name (0: the one-file form).
    path_end: usize,
    number: u64,
    /// Bytes of the whole prefix (name, separators, number).
    len: usize,
    matched: bool,
}

/// Digits at `line[at..]` (1 to 9) followed by `sep`: the number and the end of the sep.
pub(super) fn number_then(line: &[u8], at: usize, sep: u8) -> Option<(u64, usize)> {
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
pub(super) fn path_like(name: &[u8]) -> bool {
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
pub(super) fn grep_match(line: &[u8]) -> Option<GrepLine> {
    let colon = memchr(b':', line)?;
    if !path_like(line.get(..colon)?) {
        return None;
    }
    let (number, len) = number_then(line, colon + 1, b':')?;
    Some(GrepLine { path_end: colon, number, len, matched: true })
}

/// `name-N-` or `name:N:` at the line's start, for a known `name`.
pub(super) fn grep_of(line: &[u8], name: &[u8]) -> Option<GrepLine> {
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
pub(super) fn bare(line: &[u8]) -> Option<GrepLine> {
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

pub(super) fn grep_prefixes(lines: &[&[u8]], edits: &mut [Edit], owned: &mut [bool]) {
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
