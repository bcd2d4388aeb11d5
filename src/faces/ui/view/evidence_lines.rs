//! The lines both evidence panes draw (the review's and a commit's kept evidence): claims
//! with their verdicts, transcript lines in context, a cited line on one line, a banner, the
//! gaps between sections, and how many rows lines take and where a line is cut.

use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::faces::ui::state::App;
use crate::faces::ui::text::short_ids;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Screen rows `lines` take in a pane `width` wide, wrapped.
pub(super) fn rows(lines: &[Line<'_>], width: usize) -> usize {
    lines
        .iter()
        .map(|l| {
            let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            crate::faces::ui::text::wrap(&text, width.max(1)).len().max(1)
        })
        .sum()
}

/// `line` cut to `width` columns, ending in `…` when cut.
pub(super) fn cut(line: Line<'static>, width: usize) -> Line<'static> {
    let mut left = width;
    let mut spans = Vec::new();
    for s in line.spans {
        if left == 0 {
            break;
        }
        let text = crate::faces::ui::text::truncate(&s.content, left).into_owned();
        left = left.saturating_sub(crate::faces::ui::text::width(&text));
        let done = text.ends_with('…') && text != s.content;
        spans.push(Span::styled(text, s.style));
        if done {
            break;
        }
    }
    Line::from(spans)
}

/// A claim and its verdict: `✓ Buildkite  cited 3f1c9a52….jsonl:1`; a contradicted or
/// overruled claim with what its source says on the next line
/// (`≠ Postgres 17  contradicted by 3f1c….jsonl:4` / `    «we run Postgres 16»`).
pub(super) fn claim_lines(app: &App, c: &ClaimReport) -> Vec<Line<'static>> {
    let t = &app.theme;
    let (style, note) = match c.status {
        ClaimStatus::Sourced => (t.accepted, "cited"),
        ClaimStatus::Elsewhere => (t.warning, "said elsewhere:"),
        // An index line's claim stated by the note it indexes names that note.
        ClaimStatus::Carried if c.source.is_some() => (t.dim, "as in the note it indexes:"),
        ClaimStatus::Carried => (t.dim, "already in live memory"),
        ClaimStatus::Contradicted => (t.error, "contradicted by"),
        ClaimStatus::Overruled => (t.error, "overruled: proposed at"),
        ClaimStatus::Untrusted => (t.error, "said only by content the user did not write:"),
        ClaimStatus::Speculative => (t.warning, "only the assistant's guess:"),
        ClaimStatus::Unsourced => (t.error, "no source"),
    };
    let at = c.source.as_deref().map(|s| format!(" {}", short_ids(s))).unwrap_or_default();
    let by = c.by.as_deref().map(|b| format!(", turned down at {}", short_ids(b))).unwrap_or_default();
    let who = c.speaker.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
    let mut out = vec![Line::from(vec![
        Span::styled(format!("{} ", c.status.mark()), style),
        Span::styled(c.text.clone(), t.text),
        Span::styled(format!("  {note}{at}{who}{by}"), t.dim),
    ])];
    if let Some(q) = &c.quote {
        out.push(Line::from(vec![
            Span::styled("    «".to_string(), t.dim),
            Span::styled(q.clone(), t.cited),
            Span::styled("»", t.dim),
        ]));
    }
    out
}

/// A transcript line in context: `▶   3 time · role · text` (cited) or dim context.
pub(super) fn context_line(app: &App, line: usize, last: usize, text: String, cited: bool) -> Line<'static> {
    let t = &app.theme;
    let text = in_zone(&app.review.zone, text);
    let num = if last > line { format!("{line}-{last}") } else { line.to_string() };
    let (mark, style): (&str, Style) = if cited { ("▶", t.cited) } else { (" ", t.dim) };
    Line::from(vec![Span::styled(format!("{mark}{num:>4} "), style), Span::styled(text, style)])
}

/// `time · role · text` with its time (as the transcript wrote it, UTC) shown in the
/// review's zone and named: `2026-02-02 22:19 PST · user · …`. Text with no time is shown
/// as it is.
fn in_zone(zone: &crate::base::zone::Zone, text: String) -> String {
    let Some((time, rest)) = text.split_once(" · ") else { return text };
    match crate::base::zone::parse_instant(time) {
        Some(at) if time.contains(':') => format!("{} · {rest}", zone.shown_time(at)),
        _ => text,
    }
}

/// A cited line on one line, for a pane too short for everything:
/// `▶ 8b2d4e6f….jsonl:3 tool: "…"`, cut to `width`.
pub(super) fn cited_one_line(app: &App, location: String, text: String, width: usize) -> Line<'static> {
    let t = &app.theme;
    let line = Line::from(vec![
        Span::styled("▶ ", t.cited),
        Span::styled(location, t.key),
        Span::styled(format!(" {text}"), t.cited),
    ]);
    cut(line, width)
}

/// A read-only screen's banner (a commit's message), line by line.
pub(super) fn banner_lines(app: &App, banner: &str) -> Vec<Line<'static>> {
    let lines = crate::base::text::split_lines(banner);
    lines
        .into_iter()
        .map(|l| Line::styled(short_ids(crate::base::text::strip_terminator(l)).into_owned(), app.theme.text))
        .collect()
}

/// A blank line between sections (none at the top, none after a blank line).
pub(super) fn gap(out: &mut Vec<Line<'static>>) {
    if out.last().is_some_and(|l| l.width() > 0) {
        out.push(Line::raw(""));
    }
}

#[cfg(test)]
mod tests {
    use super::in_zone;
    use crate::base::zone::Zone;

    #[test]
    fn a_transcript_time_is_shown_in_the_review_zone_with_its_name() {
        let la = Zone::parse("America/Los_Angeles").unwrap();
        assert_eq!(in_zone(&la, "2026-02-03 06:19:44 · user · hi".into()), "2026-02-02 22:19 PST · user · hi");
        // A daily note's line has a date and no clock; other text has no time.
        assert_eq!(in_zone(&la, "2026-02-03 · note · hi".into()), "2026-02-03 · note · hi");
        assert_eq!(in_zone(&la, "user · a · b".into()), "user · a · b");
        assert_eq!(in_zone(&la, "[…] cited lines 4-9 not shown".into()), "[…] cited lines 4-9 not shown");
    }
}
