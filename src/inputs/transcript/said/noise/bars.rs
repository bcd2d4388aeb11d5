//! Progress bars (`[=====>    ] 45%`, `████░░ 3/10`) and the figures beside them, cut out
//! of a line.

use memchr::{memchr, memmem};

/// A character bars are drawn with: block elements, heavy and light horizontals and their
/// halves, squares and parallelograms.
pub(super) fn bar_char(c: char) -> bool {
    matches!(c, '\u{2580}'..='\u{259F}' | '\u{2500}' | '\u{2501}' | '\u{2574}'..='\u{257F}' | '\u{25A0}' | '\u{25A1}' | '\u{25B0}' | '\u{25B1}')
}

/// The character starting at `line[i]` and its length (`None` past the end or on a byte
/// that does not start valid UTF-8).
pub(super) fn char_at(line: &[u8], i: usize) -> Option<(char, usize)> {
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
pub(super) fn glyphs_end(line: &[u8], mut i: usize) -> (usize, usize) {
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
pub(super) fn progress_bars(line: &[u8], from: usize, cuts: &mut Vec<(usize, usize)>) {
    // Only where a bar can start: `[`, `|`, or the lead byte of a bar character.
    let mut i = from;
    let rest = line.get(from..).unwrap_or(&[]);
    for k in memchr::memchr3_iter(b'[', b'|', 0xE2, rest) {
        if from + k < i {
            continue;
        }
        i = from + k;
        if let Some((start, end)) = bracketed_figure(line, i, from) {
            cuts.push((start, end));
            i = end;
            continue;
        }
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

/// A progress figure in brackets at an edge of the line, as a cut: a percentage (`[ 45%]`
/// closing a pytest line, opening a CMake one) or a step count (`[12/40]` opening a Ninja
/// line), with the spaces between it and the rest. In the middle of a line a bracket is
/// text, and a step count closing one is a footnote (`see [1/2]`).
pub(super) fn bracketed_figure(line: &[u8], i: usize, from: usize) -> Option<(usize, usize)> {
    let rest = line.get(i..)?;
    let close = memchr(b']', rest.get(..rest.len().min(12))?)?;
    let inner = rest.get(1..close)?.trim_ascii();
    let digits = |s: &[u8]| !s.is_empty() && s.len() <= 6 && s.iter().all(u8::is_ascii_digit);
    let percent = inner.strip_suffix(b"%").is_some_and(|n| digits(n) && n.len() <= 3);
    let steps = memchr(b'/', inner).is_some_and(|k| digits(&inner[..k]) && digits(&inner[k + 1..]));
    if !(percent || steps) {
        return None;
    }
    let end = i + close + 1;
    let opens = line.get(from..i).is_some_and(|b| b.iter().all(|&c| c == b' '));
    let closes = line.get(end..).is_some_and(|b| b.iter().all(|&c| c == b' '));
    let (mut start, mut end) = (i, end);
    if opens {
        start = from;
        while line.get(end) == Some(&b' ') {
            end += 1;
        }
    } else if closes && percent {
        while start > from && line.get(start - 1) == Some(&b' ') {
            start -= 1;
        }
    } else {
        return None;
    }
    Some((start, end))
}

pub(super) struct Bar {
    span: (usize, usize),
    /// A tqdm frame (`45%|…|`): a bar whatever stands beside it.
    framed: bool,
}

/// A bar starting at `line[i]`: `[` bar characters `]`, a run of three or more glyphs, or a
/// tqdm frame `|…|` after a percentage.
pub(super) fn bar_at(line: &[u8], i: usize) -> Option<Bar> {
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
pub(super) const UNITS: &[&[u8]] =
    &[b"b", b"kb", b"mb", b"gb", b"tb", b"kib", b"mib", b"gib", b"tib", b"k", b"m", b"g", b"it", b"s", b"ms", b"bytes"];

/// A figure at `line[at..]`: a number with what may follow it in a progress line
/// (`45%`, `12/40`, `1.2/3.4 MB`, `3.1MB/s`, `0:00:04`, `12.3it/s`), `eta`, or a
/// bracketed tqdm status (`[00:03<00:04, 12.3it/s]`). Its end, when there is one.
pub(super) fn figure_at(line: &[u8], at: usize) -> Option<usize> {
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
pub(super) fn figures_before(line: &[u8], start: usize, from: usize) -> usize {
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
pub(super) fn figures_after(line: &[u8], end: usize) -> usize {
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
