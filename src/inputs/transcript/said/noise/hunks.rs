//! Diff hunks in a tool's output: the `@@ -a,b +c,d @@` headers and the `+`, `-` and ` `
//! columns of the lines they count.

use super::lines::Edit;

/// `@@ -a[,b] +c[,d] @@`: the old and new line counts, and the header's length (with the
/// space before a section heading).
pub(super) fn hunk_header(line: &[u8]) -> Option<(u64, u64, usize)> {
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
pub(super) fn range(s: &[u8], at: usize) -> Option<(u64, (usize, u64))> {
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

pub(super) fn diff_hunks(lines: &[&[u8]], edits: &mut [Edit], owned: &mut [bool]) {
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
