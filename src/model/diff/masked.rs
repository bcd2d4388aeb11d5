//! Masking a diff hunk: each side (live: context and removed lines; proposal: context and
//! added lines) read as one text, so a credential spanning lines is masked whole.

use super::hunk::{Hunk, Line};
use crate::base::secrets::{LineSpans, line_spans, mask_lines, mask_lines_with_spans};

/// A hunk's lines with every credential masked, each side (live: context and removed lines;
/// proposal: context and added lines) masked as one text, so a secret spanning lines (a
/// PEM block) never prints a piece of itself ([`mask_lines`]).
pub fn masked_lines(h: &Hunk) -> Vec<String> {
    per_side(h, |lines| mask_lines(lines), |l| l.text.clone())
}

/// Per line of a hunk, the byte ranges of it that belong to a credential and what masking
/// shows there, each side read as one text like [`masked_lines`].
pub fn secret_spans(h: &Hunk) -> Vec<Vec<(std::ops::Range<usize>, String)>> {
    per_side(h, |lines| line_spans(lines), |_| Vec::new())
}

/// For each line of `h` on its proposal side (context and added lines, read as one text),
/// the line as [`masked_lines`] shows it and its credentials as [`secret_spans`] gives
/// them, the credentials found once; `None` for a removed line.
pub fn proposal_side(h: &Hunk) -> Vec<Option<(String, LineSpans)>> {
    use crate::model::diff::Op;
    let side: Vec<usize> = (0..h.lines.len()).filter(|&i| h.lines[i].op != Op::Remove).collect();
    let texts: Vec<&str> = side.iter().map(|&i| h.lines[i].text.as_str()).collect();
    let mut out: Vec<Option<(String, LineSpans)>> = vec![None; h.lines.len()];
    for (i, masked) in side.into_iter().zip(mask_lines_with_spans(&texts)) {
        out[i] = Some(masked);
    }
    out
}

/// `f` applied to each side of `h` (live: context and removed lines; proposal: context and
/// added lines) as consecutive lines, mapped back to the hunk's lines (context lines from
/// the proposal side); `blank` for a line no side covers.
fn per_side<T>(h: &Hunk, f: impl Fn(&[&str]) -> Vec<T>, blank: impl Fn(&Line) -> T) -> Vec<T> {
    use crate::model::diff::Op;
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
