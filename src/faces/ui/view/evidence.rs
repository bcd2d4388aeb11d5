//! The evidence pane: for the hunk under the cursor, its flags (the claim, the line, the
//! source), its claims and where each was found, and the CHANGES.md entries that explain it
//! with each cited transcript line shown with ±2 lines of context.

use super::{inner, pane};
use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::analysis::flag::{Flag, Severity};
use crate::analysis::result::ChangeReport;
use crate::faces::ui::state::{App, Focus};
use crate::faces::ui::text::short_ids;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Draws the evidence pane into `area`.
pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Focus::Evidence;
    let what = if app.kept.is_some() { "Kept evidence" } else { "Evidence" };
    let title = match app.current_hunk().and_then(|h| app.current_file()?.hunks.get(h)) {
        Some(h) => format!(" {what} · {} ", crate::faces::ui::text::shown_name(&h.id)),
        None => format!(" {what} "),
    };
    frame.render_widget(pane(app, title, focused), area);
    let body = inner(area);
    let (width, height) = (usize::from(body.width), usize::from(body.height));
    let lines = match &app.kept {
        Some(kept) => super::kept::fitted(app, kept, width, height),
        None => fitted(app, width, height),
    };
    let lines = crate::faces::ui::text::guarded(lines);
    let p =
        Paragraph::new(lines).wrap(Wrap { trim: false }).scroll((app.evidence_scroll.min(u16::MAX as usize) as u16, 0));
    frame.render_widget(p, inner(area));
}

pub(super) fn flag_line(app: &App, f: &Flag) -> Line<'static> {
    let t = &app.theme;
    let (sev, style) = match f.severity {
        Severity::Error => ("error", t.error),
        Severity::Warning => ("warning", t.warning),
        Severity::Info => ("info", t.dim),
    };
    Line::from(vec![
        Span::styled(format!("⚑ {sev} {} ", f.kind.name()), style),
        Span::styled(short_ids(&f.message).into_owned(), t.text),
    ])
}

/// The pane's content for a pane of `width`×`height`: all of it ([`parts`]) when it fits; else what
/// the reviewer decides on comes first — the flags (one line each when they would take
/// half the pane), then each cited line as one line (`▶ 8b2d4e6f….jsonl:3 tool: "…"`),
/// then the rest, to scroll to.
pub fn fitted(app: &App, width: usize, height: usize) -> Vec<Line<'static>> {
    let (full, at) = parts(app);
    if rows(&full, width) <= height || width == 0 {
        return full;
    }
    let Some(hi) = app.current_hunk() else { return full };
    if app.banner.is_some() {
        return full;
    }
    let flags = flags_of(app, hi);
    let cited = cited_lines(app, hi);
    if cited.is_empty() {
        return full;
    }
    let t = &app.theme;
    // What comes before the hunk's flags (a read-only or reviewed notice) stays first.
    let mut full = full;
    let after = full.split_off(at.end.min(full.len()));
    let note: Vec<Line<'static>> = full.split_off((at.start + flags.len()).min(full.len()));
    full.truncate(at.start);
    let mut out: Vec<Line<'static>> = full;
    let flag_lines: Vec<Line<'static>> = flags.iter().map(|f| flag_line(app, f)).collect();
    if rows(&flag_lines, width) * 2 <= height {
        out.extend(flag_lines);
    } else {
        out.extend(flag_lines.into_iter().map(|l| cut(l, width)));
    }
    out.extend(cited.into_iter().map(|(location, text)| cited_one_line(app, location, text, width)));
    for (source, left) in expiring(app, hi) {
        let line = Line::styled(format!("⌛ {}: {source}", crate::inputs::retention::short(left)), t.warning);
        out.push(cut(line, width));
    }
    out.extend(note);
    // The rest as the full pane has it, after a blank line.
    gap(&mut out);
    out.extend(after.into_iter().skip_while(|l| l.width() == 0));
    out
}

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

/// The flags the pane lists for hunk `hi`: its file's, then its own.
fn flags_of(app: &App, hi: usize) -> Vec<&Flag> {
    app.analysis.findings.file(app.file).iter().chain(app.analysis.hunk_flags(app.at(hi))).collect()
}

/// Every cited line of the hunk's entries, as (`source:line`, `role: "text"`).
fn cited_lines(app: &App, hi: usize) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for c in entries_of(app, hi) {
        for cit in &c.citations {
            for cx in cit.context.iter().filter(|cx| cx.cited) {
                let lines = if cx.last > cx.line { format!("{}-{}", cx.line, cx.last) } else { cx.line.to_string() };
                let location = short_ids(&format!("{}:{lines}", cit.source)).into_owned();
                // `time · role · text`: the role and what was said.
                let parts: Vec<&str> = cx.text.splitn(3, " · ").collect();
                let text = match parts.as_slice() {
                    [_, role, said] => format!("{role}: \"{said}\""),
                    _ => format!("\"{}\"", cx.text),
                };
                if !out.iter().any(|(l, t)| *l == location && *t == text) {
                    out.push((location, text));
                }
            }
        }
    }
    out
}

/// Each cited transcript of the hunk's entries that Claude Code deletes soon, with the
/// days it has left ([`crate::inputs::retention`]).
fn expiring(app: &App, hi: usize) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = Vec::new();
    for cit in entries_of(app, hi).into_iter().flat_map(|c| &c.citations) {
        let Some(left) = cit.deleted_in_days else { continue };
        let source = short_ids(&cit.source).into_owned();
        if !out.iter().any(|(s, _)| *s == source) {
            out.push((source, left));
        }
    }
    out
}

/// The CHANGES.md entries (and inline sources) that explain hunk `hi`.
fn entries_of(app: &App, hi: usize) -> Vec<&ChangeReport> {
    app.analysis.findings.changes(app.at(hi)).iter().filter_map(|&n| app.analysis.entry(n)).collect()
}

/// The pane's content for the current hunk: its flags first, then the CHANGES.md entries
/// with each cited line in context, then every claim and where it was found; and where
/// in it the hunk's flags are (the range of its flag lines and the note under them).
fn parts(app: &App) -> (Vec<Line<'static>>, std::ops::Range<usize>) {
    let t = &app.theme;
    let mut out: Vec<Line<'static>> = Vec::new();
    let Some(hi) = app.current_hunk() else {
        out.push(Line::styled("Nothing to review.", t.dim));
        return (out, 0..0);
    };
    let at = app.at(hi);
    if let Some(banner) = &app.banner {
        out.extend(banner_lines(app, banner));
        return (out, 0..0);
    }
    let Some(hunk) = app.current_file().and_then(|f| f.hunks.get(hi)) else { return (out, 0..0) };
    if let Some(r) = app.review.target.refusal() {
        out.push(Line::styled(format!("Read only, never committed: {r}."), t.warning));
        out.push(Line::raw(""));
    }
    if let Some(banner) = app.review.reviewed_banner() {
        let open = app.review.all_decisions().any(|(_, d)| !d.is_decided());
        let what = if open {
            "what it did not take is open again; a commit records a new review."
        } else {
            "what it did not take is shown as it decided (rejected). A decides it again."
        };
        out.push(Line::styled(format!("This dream was {banner}; {what}"), t.warning));
        out.push(Line::raw(""));
    }
    if let Some(loss) = app.mass_removal() {
        let order = if app.order == crate::faces::ui::state::FileOrder::Risk {
            "the removals are listed first (O: review order)"
        } else {
            "O lists the removals first"
        };
        out.push(Line::styled(format!("Mass removal: {loss}. Check each removal; {order}."), t.error));
        out.push(Line::raw(""));
    }
    let flags_at = out.len();
    let flags = flags_of(app, hi);
    for f in &flags {
        out.push(flag_line(app, f));
    }
    if hunk.live_changed && app.is_edited(hi) {
        out.push(Line::styled(
            "  Merged by your edit: the − lines are live's, the + lines yours (e edits it again).",
            t.dim,
        ));
    } else if hunk.live_changed {
        out.push(Line::styled(
            "  The − lines are today's live text. Accepting would drop that session's edit: press e to merge by hand.",
            t.dim,
        ));
    }
    let flags_end = out.len();
    let entries = entries_of(app, hi);
    if entries.is_empty() {
        gap(&mut out);
        let why = if app.review.inputs.changes_md.is_some() {
            "No CHANGES.md entry explains this hunk."
        } else {
            "This dream wrote no CHANGES.md: nothing cites a source for this hunk; claims are checked against every transcript."
        };
        out.push(Line::styled(why, t.dim));
    }
    for c in entries {
        gap(&mut out);
        let title = match &c.note {
            Some(n) => format!("inline source · {n}:{}", c.line),
            None => format!("CHANGES.md #{} · line {}", c.index, c.line),
        };
        out.push(Line::styled(title, t.header));
        out.push(Line::styled(short_ids(&c.text).into_owned(), t.text));
        for f in &c.flags {
            out.push(flag_line(app, f));
        }
        for cit in &c.citations {
            let (state, style) = if cit.resolved { ("", t.dim) } else { ("  not found", t.error) };
            let who = crate::analysis::result::said_by(cit.speaker.as_deref());
            let who = who.map(|s| format!(" · {s}")).unwrap_or_default();
            out.push(Line::from(vec![
                Span::styled("↳ ", t.dim),
                Span::styled(short_ids(&cit.location()).into_owned(), t.key),
                Span::styled(who, t.dim),
                Span::styled(state.to_string(), style),
            ]));
            if let Some(left) = cit.deleted_in_days {
                out.push(Line::styled(format!("⌛ {}", crate::inputs::retention::beside_citation(left)), t.warning));
            }
            out.extend(cit.context.iter().map(|cx| context_line(app, cx.line, cx.last, cx.text.clone(), cx.cited)));
        }
    }
    let claims = app.analysis.findings.claims(at);
    if !claims.is_empty() {
        gap(&mut out);
        out.push(Line::styled("Claims", t.header));
        out.extend(claims.iter().flat_map(|c| claim_lines(app, c)));
    }
    let rules = app.analysis.findings.of(at).map(|h| h.rules.as_slice()).unwrap_or_default();
    if !rules.is_empty() {
        gap(&mut out);
        out.push(Line::styled("Rules: how often the user said them", t.header));
        out.extend(rules.iter().map(|r| rule_line(app, r)));
    }
    (out, flags_at..flags_end)
}

/// A rule line and how often the user said it: `rule «Always use pnpm»  said once, in one
/// session: 5b0e….jsonl:3`.
fn rule_line(app: &App, r: &crate::analysis::findings::RuleSupport) -> Line<'static> {
    let t = &app.theme;
    let style = if r.remarks == 1 && !r.lasting { t.warning } else { t.dim };
    let at = r.said.iter().map(|s| short_ids(s).into_owned()).collect::<Vec<_>>().join(", ");
    let at = if at.is_empty() { String::new() } else { format!(": {at}") };
    Line::from(vec![
        Span::styled("rule ", t.dim),
        Span::styled(r.line.clone(), t.text),
        Span::styled(format!("  {}{at}", r.phrase()), style),
    ])
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
