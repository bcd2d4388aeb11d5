//! The evidence pane: for the hunk under the cursor, its flags (the claim, the line, the
//! source), its claims and where each was found, and the CHANGES.md entries that explain it
//! with each cited transcript line shown with ±2 lines of context.

use super::evidence_lines::{banner_lines, cited_one_line, claim_lines, context_line, cut, gap, rows};
use super::frame::{inner, pane};
use crate::analysis::flag::{Flag, Severity};
use crate::analysis::result::ChangeReport;
use crate::faces::ui::state::{App, Focus};
use crate::faces::ui::text::short_ids;
use ratatui::Frame;
use ratatui::layout::Rect;
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

/// The flags the pane lists for hunk `hi`: its file's, then its own.
fn flags_of(app: &App, hi: usize) -> Vec<&Flag> {
    app.analysis.findings.file(app.file).iter().chain(app.analysis.hunk_flags(app.at(hi))).collect()
}

/// Every cited line of the hunk's entries, as (`source:line`, `speaker: "text"`): who said
/// the first cited line as the analysis found it (`tool Bash`, `sub-agent`), else the role
/// the transcript line carries.
fn cited_lines(app: &App, hi: usize) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for c in entries_of(app, hi) {
        for cit in &c.citations {
            for cx in cit.context.iter().filter(|cx| cx.cited) {
                let lines = if cx.last > cx.line { format!("{}-{}", cx.line, cx.last) } else { cx.line.to_string() };
                let location = short_ids(&format!("{}:{lines}", cit.source)).into_owned();
                // `time · role · text`: who said it and what was said.
                let parts: Vec<&str> = cx.text.splitn(3, " · ").collect();
                let first = cit.line.is_some_and(|n| (cx.line..=cx.last.max(cx.line)).contains(&n));
                let speaker = crate::analysis::result::first_speaker(cit.speaker.as_deref()).filter(|_| first);
                let text = match (parts.as_slice(), speaker) {
                    (&[_, _, said], Some(who)) | (&[_, who, said], None) => format!("{who}: \"{said}\""),
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
