//! Masking a diff hunk: each side (live: context and removed lines; proposal: context and
//! added lines) read as one text, so a credential spanning lines is masked whole.

use super::hunk::{Hunk, Line, Op};
use crate::base::secrets::{LineSpans, Shown, line_spans, mask_some_lines};

/// A hunk's lines with every credential masked, each side (live: context and removed lines;
/// proposal: context and added lines) masked as one text, so a secret spanning lines (a
/// PEM block) never prints a piece of itself ([`crate::base::secrets::mask_lines`]).
pub fn masked_lines(h: &Hunk) -> Vec<String> {
    shown_lines(h).into_iter().map(Shown::into_string).collect()
}

/// [`masked_lines`], each line knowing whether masking it again would change it (see
/// [`Shown`]): what a JSON report writes without searching it a second time. A context
/// line is shown from the proposal side, so the live side masks its removed lines alone
/// (its context lines still read as part of its text).
pub fn shown_lines(h: &Hunk) -> Vec<Shown> {
    let mut out: Vec<Option<Shown>> = vec![None; h.lines.len()];
    for keep in [Op::Remove, Op::Add] {
        let side: Vec<usize> =
            (0..h.lines.len()).filter(|&i| matches!(h.lines[i].op, Op::Context) || h.lines[i].op == keep).collect();
        let texts: Vec<&str> = side.iter().map(|&i| h.lines[i].text.as_str()).collect();
        let wanted = |k: usize| keep == Op::Add || h.lines[side[k]].op == keep;
        for (&i, line) in side.iter().zip(mask_some_lines(&texts, wanted)) {
            if let Some(line) = line {
                out[i] = Some(line.shown);
            }
        }
    }
    // Every line is on a side; a line that were on none would be masked alone.
    out.into_iter().zip(&h.lines).map(|(shown, l)| shown.unwrap_or_else(|| Shown::of(&l.text))).collect()
}

/// Per line of a hunk, the byte ranges of it that belong to a credential and what masking
/// shows there, each side read as one text like [`masked_lines`].
pub fn secret_spans(h: &Hunk) -> Vec<Vec<(std::ops::Range<usize>, String)>> {
    per_side(h, |lines| line_spans(lines), |_| Vec::new())
}

/// For each added line of `h`, read with its proposal side (context and added lines) as one
/// text, the line as [`masked_lines`] shows it and its credentials as [`secret_spans`]
/// gives them, the credentials found once; `None` for a context or removed line.
pub fn proposal_side(h: &Hunk) -> Vec<Option<(String, LineSpans)>> {
    let side: Vec<usize> = (0..h.lines.len()).filter(|&i| h.lines[i].op != Op::Remove).collect();
    let texts: Vec<&str> = side.iter().map(|&i| h.lines[i].text.as_str()).collect();
    let mut out: Vec<Option<(String, LineSpans)>> = vec![None; h.lines.len()];
    let added = |k: usize| h.lines[side[k]].op == Op::Add;
    for (i, line) in side.iter().zip(mask_some_lines(&texts, added)) {
        if let Some(line) = line {
            out[*i] = Some((line.shown.into_string(), line.spans));
        }
    }
    out
}

/// `f` applied to each side of `h` (live: context and removed lines; proposal: context and
/// added lines) as consecutive lines, mapped back to the hunk's lines (context lines from
/// the proposal side); `blank` for a line no side covers.
fn per_side<T>(h: &Hunk, f: impl Fn(&[&str]) -> Vec<T>, blank: impl Fn(&Line) -> T) -> Vec<T> {
    let mut out: Vec<T> = h.lines.iter().map(blank).collect();
    for keep in [Op::Remove, Op::Add] {
        let side: Vec<(usize, &str)> = h
            .lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.op == Op::Context || l.op == keep)
            .map(|(i, l)| (i, l.text.as_str()))
            .collect();
        let texts: Vec<&str> = side.iter().map(|(_, t)| *t).collect();
        for ((i, _), value) in side.iter().zip(f(&texts)) {
            if let Some(slot) = out.get_mut(*i) {
                *slot = value;
            }
        }
    }
    out
}
