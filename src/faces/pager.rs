//! A cited transcript as a person reads it (`o` in the TUI): every line rendered as a turn —
//! who, when, what was said — instead of raw JSON, the cited lines marked, every credential
//! masked and control characters shown, ready for `$PAGER` positioned at the cited line.
//! At 80×24 the evidence pane cuts a cited line to one row; this is where it is read whole.

use crate::inputs::transcript::{render_jsonl_with_limit, render_note};
use anyhow::{Context, Result};
use std::path::Path;

/// Lines of the transcript shown before and after the cited one: a 100 MiB transcript is
/// not rendered whole for one look.
pub const WINDOW: usize = 2000;

/// How many characters of one line's said text are shown (the rest cut with `…`).
const LINE_CHARS: usize = 20_000;

/// The rendering of `path` around its line `cited` (1-based, a range up to `last`), in
/// the time zone `zone`: `(text, the 1-based line of the text where the cited turn
/// starts)`. Each turn is a header (`── 12 · 2026-11-01 09:14 UTC · user`, `▶` on the
/// cited ones) and its said text.
pub fn render(path: &Path, cited: usize, last: usize, zone: &crate::base::zone::Zone) -> Result<(String, usize)> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let jsonl = path.extension().is_some_and(|e| e == "jsonl");
    let date = path.file_name().and_then(|n| crate::inputs::transcript::date_from_file_name(&n.to_string_lossy()));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let first = cited.saturating_sub(WINDOW).max(1);
    let end = (cited + WINDOW).min(lines.len());
    let mut out = format!("{name}: lines {first}–{end} of {}, {} cited\n\n", lines.len(), lines_label(cited, last));
    let mut at = None;
    for (i, raw) in lines.iter().enumerate().take(end).skip(first - 1) {
        let n = i + 1;
        let r = if jsonl { render_jsonl_with_limit(raw, n, LINE_CHARS) } else { render_note(raw, n, date) };
        let is_cited = (cited..=last.max(cited)).contains(&n);
        if is_cited && at.is_none() {
            at = Some(out.lines().count() + 1);
        }
        let when = match r.instant {
            Some(t) => format!("{} {}", zone.local_time(t), zone.name()),
            None => r.time.clone().or_else(|| r.date.map(|d| d.to_string())).unwrap_or_default(),
        };
        let mark = if is_cited { "▶" } else { "─" };
        let head: Vec<&str> = [when.as_str(), r.role.as_str()].into_iter().filter(|s| !s.is_empty()).collect();
        out.push_str(&format!("{mark}{mark} {n} · {}{}\n", head.join(" · "), if is_cited { " · cited" } else { "" }));
        if !r.text.is_empty() {
            out.push_str(&r.text);
            out.push('\n');
        }
        out.push('\n');
    }
    if end < lines.len() {
        out.push_str(&format!("[… {} more lines after line {end}]\n", lines.len() - end));
    }
    // Shown to a person: masked, control characters visible.
    let text = crate::base::shown::text(&out).into_owned();
    Ok((text, at.unwrap_or(1)))
}

fn lines_label(cited: usize, last: usize) -> String {
    if last > cited { format!("lines {cited}–{last}") } else { format!("line {cited}") }
}

/// The command line that shows `file` in `pager` (`$PAGER`, default `less -R`) at line
/// `at`: `less +{at}g`, `more`/`most` `+{at}`; another pager opens at the top (the cited
/// turn is marked `▶▶ … cited` to search for).
pub fn command(pager: &str, file: &Path, at: usize) -> String {
    let program = pager.split_whitespace().next().unwrap_or("less");
    let base = Path::new(program).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let position = match base.as_str() {
        "less" => format!(" +{at}g"),
        "more" | "most" => format!(" +{at}"),
        _ => String::new(),
    };
    format!("{pager}{position} \"{}\"", file.display().to_string().replace('"', "\\\""))
}
