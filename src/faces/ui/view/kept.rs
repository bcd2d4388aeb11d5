//! The evidence pane of a commit opened in the history: beside each hunk, what the review
//! that made the commit kept (the hunk as taken, the flags the reviewer accepted, the
//! CHANGES.md entries with each cited transcript line in context, the claims and their
//! verdicts), drawn as the review's evidence pane drew it; or why the commit kept none.
//! The commit's message follows.

use super::evidence_lines::{banner_lines, cited_one_line, claim_lines, context_line, cut, gap, rows};
use crate::faces::ui::state::App;
use crate::faces::ui::text::short_ids;
use crate::store::evidence::{FlagEvidence, HunkEvidence, KeptLine};
use crate::store::repo::kept::CommitEvidence;
use ratatui::text::{Line, Span};

/// The pane's content for a pane of `width`×`height`: all of it when it fits; else first
/// what the reviewer saw to decide — each kept hunk's heading and accepted flags (one line
/// each when they would take half the pane), then its cited lines one line each — and
/// after them the rest (entries in context, claims, the commit message), to scroll to.
pub fn fitted(app: &App, kept: &CommitEvidence, width: usize, height: usize) -> Vec<Line<'static>> {
    let shown = shown_hunks(app, kept);
    let mut full = shown.notice.clone();
    for h in &shown.hunks {
        gap(&mut full);
        full.push(heading(app, shown.dream, h));
        full.extend(h.accepted_flags.iter().map(|f| flag_line(app, f)));
        full.extend(details(app, h));
    }
    let message = app.banner.as_deref().map(|m| banner_lines(app, m)).unwrap_or_default();
    if rows(&full, width) + 1 + rows(&message, width) <= height || width == 0 || shown.hunks.is_empty() {
        gap(&mut full);
        full.extend(message);
        return full;
    }
    let mut out = shown.notice;
    for h in &shown.hunks {
        out.push(cut(heading(app, shown.dream, h), width));
        let flags: Vec<Line<'static>> = h.accepted_flags.iter().map(|f| flag_line(app, f)).collect();
        if rows(&flags, width) * 2 <= height {
            out.extend(flags);
        } else {
            out.extend(flags.into_iter().map(|l| cut(l, width)));
        }
        out.extend(cited(app, h, width));
    }
    for h in &shown.hunks {
        gap(&mut out);
        if shown.hunks.len() > 1 {
            out.push(heading(app, shown.dream, h));
        }
        out.extend(details(app, h).into_iter().skip_while(|l| l.width() == 0));
    }
    gap(&mut out);
    out.extend(message);
    out
}

/// What the pane shows for the hunk under the cursor.
struct Shown<'a> {
    /// Lines above the kept hunks: why there is no evidence, or why it is not this hunk's own.
    notice: Vec<Line<'static>>,
    /// The dream the review was of.
    dream: &'a str,
    /// The kept hunks to show.
    hunks: Vec<&'a HunkEvidence>,
}

/// The kept hunks explaining the hunk under the cursor; when none does, those of its note
/// no hunk matched, under a notice saying so; without evidence, why.
fn shown_hunks<'a>(app: &App, kept: &'a CommitEvidence) -> Shown<'a> {
    let t = &app.theme;
    let mut notice = Vec::new();
    let (evidence, matched) = match kept {
        CommitEvidence::Kept { evidence, matched } => (evidence, matched),
        CommitEvidence::NotKept(why) => {
            notice.push(Line::styled(why.describe(), t.dim));
            return Shown { notice, dream: "", hunks: Vec::new() };
        }
        CommitEvidence::Unreadable(why) => {
            notice.push(Line::styled(format!("Evidence note unreadable: {}", said(why)), t.error));
            return Shown { notice, dream: "", hunks: Vec::new() };
        }
    };
    let Some(hi) = app.current_hunk() else { return Shown { notice, dream: &evidence.dream, hunks: Vec::new() } };
    let own = matched.of(app.at(hi));
    let path = app.current_file().map(|f| f.path.as_str()).unwrap_or_default();
    let indices: Vec<usize> = if own.is_empty() {
        notice.push(Line::styled("No kept evidence matches this hunk's lines.", t.warning));
        let others: Vec<usize> =
            matched.unmatched.iter().copied().filter(|&k| evidence.hunks[k].path == path).collect();
        if !others.is_empty() {
            notice.push(Line::styled(format!("Kept for {} by this commit, matched to no hunk:", said(path)), t.dim));
        }
        others
    } else {
        own.to_vec()
    };
    let hunks = indices.into_iter().filter_map(|k| evidence.hunks.get(k)).collect();
    Shown { notice, dream: &evidence.dream, hunks }
}

/// `ci.md#1 accepted in the review of dream-2026-11-28`.
fn heading(app: &App, dream: &str, h: &HunkEvidence) -> Line<'static> {
    let t = &app.theme;
    Line::from(vec![
        Span::styled(crate::faces::ui::text::shown_name(&h.id), t.header),
        Span::styled(format!(" {}", h.taken.describe()), t.accepted),
        Span::styled(format!(" in the review of {}", said(dream)), t.dim),
    ])
}

/// The entries that explained a kept hunk, each cited line in context, and its claims.
fn details(app: &App, h: &HunkEvidence) -> Vec<Line<'static>> {
    let t = &app.theme;
    let mut out = Vec::new();
    if h.entries.is_empty() {
        gap(&mut out);
        out.push(Line::styled("No CHANGES.md entry explained this hunk.", t.dim));
    }
    for e in &h.entries {
        gap(&mut out);
        out.push(Line::styled(said(&e.label), t.header));
        out.push(Line::styled(said(&e.text), t.text));
        for c in &e.citations {
            let (state, style) = if c.resolved { ("", t.dim) } else { ("  not found", t.error) };
            let who = crate::analysis::result::said_by(c.speaker.as_deref());
            let who = who.map(|s| format!(" · {}", said(&s))).unwrap_or_default();
            out.push(Line::from(vec![
                Span::styled("↳ ", t.dim),
                Span::styled(said(&c.location), t.key),
                Span::styled(who, t.dim),
                Span::styled(state.to_string(), style),
            ]));
            out.extend(c.lines.iter().map(|l| context_line(app, l.line, l.last, said(&rendered(l)), l.cited)));
            if c.not_kept > 0 {
                let n = c.not_kept;
                let what = if n == 1 { "line" } else { "lines" };
                out.push(Line::styled(format!("[…] {n} {what} not kept: the note was full"), t.dim));
            }
        }
    }
    if !h.claims.is_empty() {
        gap(&mut out);
        out.push(Line::styled("Claims", t.header));
        out.extend(h.claims.iter().flat_map(|c| claim_lines(app, &shown_claim(c))));
    }
    out
}

/// A kept hunk's cited lines, one line each (`▶ 3f1c9a52….jsonl:1 user: "…"`, the first
/// cited line by who said it: `tool Bash`, `sub-agent`), cut to `width`, each once.
fn cited(app: &App, h: &HunkEvidence, width: usize) -> Vec<Line<'static>> {
    let mut seen: Vec<(String, String)> = Vec::new();
    for c in h.entries.iter().flat_map(|e| &e.citations) {
        for l in c.lines.iter().filter(|l| l.cited) {
            let lines = if l.last > l.line { format!("{}-{}", l.line, l.last) } else { l.line.to_string() };
            let location = said(&format!("{}:{lines}", c.source));
            let first = c.line.is_some_and(|n| (l.line..=l.last.max(l.line)).contains(&n));
            let who =
                crate::analysis::result::first_speaker(c.speaker.as_deref()).filter(|_| first).or(l.role.as_deref());
            let text = match who {
                Some(who) => format!("{}: \"{}\"", said(who), said(&l.text)),
                None => format!("\"{}\"", said(&l.text)),
            };
            if !seen.iter().any(|(a, b)| *a == location && *b == text) {
                seen.push((location, text));
            }
        }
    }
    seen.into_iter().map(|(location, text)| cited_one_line(app, location, text, width)).collect()
}

/// A kept line as the pane rendered it: `time · role · text`.
fn rendered(l: &KeptLine) -> String {
    let parts: Vec<&str> =
        [l.time.as_deref(), l.role.as_deref(), Some(l.text.as_str())].into_iter().flatten().collect();
    parts.join(" · ")
}

/// An accepted flag: `⚑ warning orphan-note (accepted) database.md is no longer…`.
fn flag_line(app: &App, f: &FlagEvidence) -> Line<'static> {
    let t = &app.theme;
    let style = if f.severity == "error" { t.error } else { t.warning };
    Line::from(vec![
        Span::styled(format!("⚑ {} {} ", said(&f.severity), said(&f.kind)), style),
        Span::styled("(accepted) ", t.dim),
        Span::styled(said(&f.message), t.text),
    ])
}

/// Text read from a note, as the pane shows it: a note is data anyone with the repository
/// could have written, so its credentials are masked again and its control characters made
/// visible, like a note line's; session ids are cut short.
fn said(text: &str) -> String {
    short_ids(&crate::faces::ui::text::shown(text)).into_owned()
}

/// A kept claim with its text and source made safe to draw ([`said`]).
fn shown_claim(c: &crate::analysis::findings::ClaimReport) -> crate::analysis::findings::ClaimReport {
    crate::analysis::findings::ClaimReport {
        text: crate::faces::ui::text::shown(&c.text).into_owned(),
        kind: c.kind.clone(),
        status: c.status,
        source: c.source.as_deref().map(|s| crate::faces::ui::text::shown(s).into_owned()),
        quote: c.quote.as_deref().map(|s| crate::faces::ui::text::shown(s).into_owned()),
        by: c.by.as_deref().map(|s| crate::faces::ui::text::shown(s).into_owned()),
        speaker: c.speaker.as_deref().map(|s| crate::faces::ui::text::shown(s).into_owned()),
    }
}
