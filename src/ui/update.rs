//! The pure update function: a message in, the state changed, commands out. No I/O here,
//! so every key sequence can be replayed in tests.

use super::guard;
use super::keymap::{self, Action};
use super::msg::{Cmd, Msg};
use super::state::{App, Focus, HistoryState, Mode, Progress, RowKind, Search, Status, WhyView};
use crate::decision::Decision;
use crate::diff::Op;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind};

/// Applies one message to the state and returns what the runtime must do. Whatever the
/// message changed, every edited hunk then shows its own text's flags and claims (or the
/// check of that text is asked for, once).
pub fn update(app: &mut App, msg: Msg) -> Vec<Cmd> {
    let mut cmds = apply(app, msg);
    cmds.extend(ask_checks(app));
    cmds
}

/// Puts each edited hunk's check in place ([`crate::analysis::result::Analysis::sync_edits`]) and
/// asks the runtime to check the edited texts that have none yet, each once.
fn ask_checks(app: &mut App) -> Vec<Cmd> {
    let missing = app.analysis.sync_edits(&app.review);
    let mut cmds = Vec::new();
    for (file, hunk, text) in missing {
        if app.checks_asked.insert((file, hunk, text.clone())) {
            cmds.push(Cmd::CheckEdit { file, hunk, text });
        }
    }
    cmds
}

/// Why a commit must wait, if it must: the flags its preview and message list are not all
/// in yet (the background analysis, or the check of an edited text, is still running).
pub fn not_checked_yet(app: &App) -> Option<String> {
    if let Progress::Running { done, total } = app.progress {
        let at = (done * 100).checked_div(total).map(|p| format!(" ({p}%)")).unwrap_or_default();
        return Some(format!("not yet: the flags are still being checked{at}; c again when they are in"));
    }
    let checking = checking(app);
    (!checking.is_empty())
        .then(|| format!("not yet: your edit of {} is still being checked; c again in a moment", checking.join(", ")))
}

/// The edited hunks whose text is still being checked, by id.
pub fn checking(app: &App) -> Vec<String> {
    let mut out = Vec::new();
    for (fi, hi, d) in app.review.all_decisions() {
        if d.edited.is_some() && !app.analysis.shows_edit(fi, hi) {
            out.extend(app.review.hunk(fi, hi).map(|h| h.id.clone()));
        }
    }
    out
}

fn apply(app: &mut App, msg: Msg) -> Vec<Cmd> {
    match msg {
        Msg::Key(k) if k.kind == KeyEventKind::Release => Vec::new(),
        Msg::Key(k) if app.busy.is_some() => {
            app.queued.push_back(k);
            Vec::new()
        }
        Msg::Key(k) => key(app, k),
        Msg::Mouse(m) if app.busy.is_none() => mouse(app, m),
        Msg::Mouse(_) => Vec::new(),
        Msg::Resize(w, h) => {
            app.size = (w, h);
            app.settle_scroll();
            Vec::new()
        }
        Msg::Progress { generation, done, total } if generation == app.generation => {
            app.progress = Progress::Running { done, total };
            Vec::new()
        }
        Msg::Analyzed { generation, analysis } if generation == app.generation => {
            // Edits checked meanwhile stay checked.
            let older = std::mem::replace(&mut app.analysis, *analysis);
            app.analysis.keep_edit_checks(older);
            // Decisions may have changed while the analysis ran.
            app.analysis.refresh_audit(&app.review);
            app.progress = Progress::Done;
            Vec::new()
        }
        Msg::AnalysisFailed { generation, error } if generation == app.generation => {
            app.progress = Progress::Failed(error);
            Vec::new()
        }
        Msg::Highlighted { generation, file, hunks } if generation == app.generation => {
            for (hunk, highlight) in hunks {
                app.highlights.insert((file, hunk), highlight);
            }
            Vec::new()
        }
        Msg::EditChecked { generation, check } if generation == app.generation => {
            let current =
                app.review.decision(check.file, check.hunk).and_then(|d| d.edited.as_ref()) == Some(&check.text);
            if current && app.status.is_none() {
                let id = app.review.hunk(check.file, check.hunk).map(|h| h.id.clone()).unwrap_or_default();
                let errors =
                    check.flags.iter().filter(|f| f.severity == crate::analysis::flag::Severity::Error).count();
                let text = match (check.flags.len(), errors) {
                    (0, _) => format!("your edit of {id} checked: no flags"),
                    (n, 0) => format!("your edit of {id} checked: {n} warning{}", if n == 1 { "" } else { "s" }),
                    (n, e) => format!(
                        "your edit of {id} checked: {n} flag{}, {e} error{}",
                        if n == 1 { "" } else { "s" },
                        if e == 1 { "" } else { "s" }
                    ),
                };
                say(app, &text, errors > 0);
            }
            if !app.analysis.edits.contains(&check) {
                app.analysis.edits.push(check);
            }
            Vec::new()
        }
        Msg::Edited { generation, file, hunk, result } if generation == app.generation => match result {
            Ok(Some(text)) => match app.review.set_edit(file, hunk, Some(text.clone())) {
                Ok(()) => {
                    app.unfinished = None;
                    decided(app);
                    say(app, "edited: live → your text, its flags checked again (u undoes)", false);
                    vec![Cmd::Save]
                }
                Err(r) => {
                    if matches!(r, crate::review::Refusal::ConflictMarkers { .. }) {
                        // Kept, so `e` reopens the merge where the reviewer left it.
                        app.unfinished = Some((file, hunk, text));
                    }
                    say(app, &r.in_tui(), true);
                    Vec::new()
                }
            },
            Ok(None) => {
                let merging = app.review.hunk(file, hunk).is_some_and(|h| h.live_changed)
                    && app.review.decision(file, hunk).is_some_and(|d| d.edited.is_none());
                if merging {
                    say(app, "e reopens it — merge not saved: its conflict markers are all still there", true);
                } else {
                    say(app, "edit left the hunk unchanged", false);
                }
                Vec::new()
            }
            Err(e) => {
                say(app, &e, true);
                Vec::new()
            }
        },
        Msg::CommitMessage(Ok(message)) => {
            app.mode = Mode::CommitPreview { message, scroll: 0 };
            Vec::new()
        }
        Msg::CommitMessage(Err(e)) => {
            say(app, &e, true);
            Vec::new()
        }
        Msg::Committed(Ok(summary)) => {
            app.dirty = false;
            app.busy = Some("reloading after commit".into());
            say(app, &summary, false);
            vec![Cmd::Reload]
        }
        Msg::CommitStale(why) => {
            app.busy = Some("reloading: the repository moved on".into());
            say(app, &format!("not committed: {why}"), true);
            vec![Cmd::Save, Cmd::Reload]
        }
        Msg::NeedRepo => {
            app.mode = Mode::ConfirmInit;
            Vec::new()
        }
        Msg::Initialized(Ok(text)) => {
            app.busy = None;
            say(app, &text, false);
            let mut cmds = vec![Cmd::Save, Cmd::PreviewCommit];
            cmds.extend(replay(app));
            cmds
        }
        Msg::Initialized(Err(e)) | Msg::Reverted(Err(e)) | Msg::History(Err(e)) | Msg::HistoryDiff(Err(e)) => {
            app.busy = None;
            say(app, &e, true);
            replay(app)
        }
        Msg::Signal(_) => {
            app.quit = true;
            vec![Cmd::Save, Cmd::Quit]
        }
        Msg::Failed(e) => {
            say(app, &e, true);
            Vec::new()
        }
        Msg::History(Ok(entries)) => {
            if entries.is_empty() {
                say(app, "the memory repository has no commits yet", false);
            } else {
                app.mode = Mode::History(Box::new(HistoryState { entries, selected: 0, view: None, confirm: None }));
            }
            Vec::new()
        }
        Msg::HistoryDiff(Ok(opened)) => {
            if let Mode::History(h) = &mut app.mode {
                let super::msg::OpenedCommit { message, files, evidence } = *opened;
                let review = app.review.read_only(files);
                let mut view = App::new(review, app.theme.clone(), app.size);
                view.banner = Some(message);
                view.kept = Some(evidence);
                view.progress = Progress::Done;
                h.view = Some(Box::new(view));
            }
            Vec::new()
        }
        Msg::Why(result) => {
            why_answered(app, result);
            Vec::new()
        }
        Msg::Reverted(Ok(summary)) => {
            app.busy = Some("reloading after revert".into());
            say(app, &summary, false);
            vec![Cmd::Reload]
        }
        Msg::Committed(Err(e)) => {
            app.busy = None;
            say(app, &format!("commit failed: {e}"), true);
            replay(app)
        }
        Msg::Reloaded { generation, review } => {
            app.generation = generation;
            app.analysis = crate::analysis::result::Analysis::empty(&review);
            app.review = *review;
            app.progress = Progress::Running { done: 0, total: 0 };
            app.highlights.clear();
            app.highlight_requested.clear();
            app.checks_asked.clear();
            app.unfinished = None;
            app.file = app.file.min(app.review.files.len().saturating_sub(1));
            app.rows.clear();
            app.cursor = 0;
            app.scroll = 0;
            app.rebuild_rows();
            app.busy = None;
            let mut cmds = vec![Cmd::Analyze];
            cmds.extend(request_highlight(app));
            cmds.extend(replay(app));
            cmds
        }
        // A result for a model that no longer exists: dropped.
        _ => Vec::new(),
    }
}

/// After any decision change in the current file: mark uncommitted, rebuild the rows, and
/// re-audit the outcome when the change can move it (see [`audit_relevant`]).
fn decided(app: &mut App) {
    app.dirty = true;
    app.rebuild_rows();
    if app.review.files.get(app.file).is_none_or(audit_relevant) {
        app.analysis.refresh_audit(&app.review);
    }
}

/// True when decisions in this file can change the audit of the outcome: the index itself,
/// a note that appears or disappears, anything not plain text, or a hunk reaching into the
/// frontmatter. A decision inside a note's body leaves the audit as it was, so a keypress
/// there does not re-read every note.
fn audit_relevant(f: &crate::diff::FileDiff) -> bool {
    use crate::diff::{FileKind, FileStatus};
    if crate::analysis::audit::is_index(&f.path) || f.status != FileStatus::Modified || f.kind != FileKind::Text {
        return true;
    }
    let live = f.live.as_ref().and_then(|e| e.bytes()).and_then(crate::text::as_text).unwrap_or("");
    let fm_end = match crate::analysis::audit::frontmatter::parse(live) {
        crate::analysis::audit::frontmatter::Block::Parsed(fm) => fm.end_line,
        _ => 1,
    };
    f.hunks.iter().any(|h| h.old_range.start < fm_end)
}

fn replay(app: &mut App) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    while app.busy.is_none() {
        let Some(k) = app.queued.pop_front() else { break };
        cmds.extend(key(app, k));
    }
    cmds
}

/// `A`: a dream a review commit already reviewed opens with its leftovers decided; this
/// reopens them, pending (one undo step). Elsewhere it says there is nothing to reopen.
fn again(app: &mut App) -> Vec<Cmd> {
    let Some(banner) = app.review.reviewed_banner() else {
        say(app, "this dream has no review commit yet: nothing to decide again", false);
        return Vec::new();
    };
    app.review.reopen_leftovers();
    decided(app);
    say(app, &format!("{banner}: what it did not take is pending again (u undoes)"), false);
    vec![Cmd::Save]
}

fn say(app: &mut App, text: &str, error: bool) {
    app.status = Some(Status { text: text.to_string(), error });
}

fn key(app: &mut App, k: KeyEvent) -> Vec<Cmd> {
    app.status = None;
    match std::mem::replace(&mut app.mode, Mode::Normal) {
        Mode::Help { scroll } => {
            // Moving keys scroll a help taller than the terminal; any other key closes it.
            let most = keymap::help_max_scroll(app.size);
            if !keymap::help_overflows(app.size) {
                return Vec::new();
            }
            match keymap::action(k) {
                Some(Action::Down) => app.mode = Mode::Help { scroll: (scroll + 1).min(most) },
                Some(Action::Up) => app.mode = Mode::Help { scroll: scroll.saturating_sub(1) },
                Some(Action::PageDown) => app.mode = Mode::Help { scroll: (scroll + 10).min(most) },
                Some(Action::PageUp) => app.mode = Mode::Help { scroll: scroll.saturating_sub(10) },
                Some(Action::Top) => app.mode = Mode::Help { scroll: 0 },
                Some(Action::Bottom) => app.mode = Mode::Help { scroll: most },
                _ => {}
            }
            Vec::new()
        }
        Mode::Search(mut input) => {
            match k.code {
                KeyCode::Esc => {}
                KeyCode::Enter => return run_search(app, &input),
                KeyCode::Backspace => {
                    input.pop();
                    app.mode = Mode::Search(input);
                }
                KeyCode::Char(c) => {
                    input.push(c);
                    app.mode = Mode::Search(input);
                }
                _ => app.mode = Mode::Search(input),
            }
            Vec::new()
        }
        Mode::ConfirmQuit => match k.code {
            KeyCode::Char('y') | KeyCode::Char('q') => {
                app.quit = true;
                vec![Cmd::Quit]
            }
            _ => Vec::new(),
        },
        Mode::ConfirmAccept { action, .. } => match k.code {
            KeyCode::Char('y') => {
                let cmds = accept(app, action);
                app.ensure_cursor_visible();
                cmds
            }
            _ => {
                say(app, "not accepted: nothing decided", false);
                Vec::new()
            }
        },
        Mode::ConfirmInit => match k.code {
            KeyCode::Char('y') => {
                app.busy = Some("creating the memory repository".into());
                vec![Cmd::InitRepo]
            }
            _ => {
                say(app, "not committed: the memory folder has no git repository", false);
                Vec::new()
            }
        },
        Mode::CommitPreview { message, scroll } => {
            match keymap::action(k) {
                // Enter only: `y` is the review's accept key, pressed by habit.
                Some(Action::Confirm) => {
                    app.busy = Some("committing".into());
                    return vec![Cmd::Commit];
                }
                Some(a @ (Action::Down | Action::Up | Action::PageDown | Action::PageUp)) => {
                    let most = crate::text::split_lines(&message).len();
                    let scroll = match a {
                        Action::Down => scroll + 1,
                        Action::PageDown => scroll + 10,
                        Action::Up => scroll.saturating_sub(1),
                        _ => scroll.saturating_sub(10),
                    };
                    app.mode = Mode::CommitPreview { message, scroll: scroll.min(most) }
                }
                _ => {}
            }
            Vec::new()
        }
        Mode::Why(mut w) => {
            let most = w.max_scroll(app.size);
            match keymap::action(k) {
                Some(Action::Down) => w.scroll = (w.scroll + 1).min(most),
                Some(Action::Up) => w.scroll = w.scroll.saturating_sub(1),
                Some(Action::PageDown) => w.scroll = (w.scroll + 10).min(most),
                Some(Action::PageUp) => w.scroll = w.scroll.saturating_sub(10),
                Some(Action::Top) => w.scroll = 0,
                Some(Action::Bottom) => w.scroll = most,
                // Closed: back to the diff, the cursor where it was.
                Some(Action::Cancel | Action::Why | Action::Quit | Action::Confirm) => return Vec::new(),
                _ => {}
            }
            app.mode = Mode::Why(w);
            Vec::new()
        }
        Mode::History(mut h) => {
            let cmds = history_key(app, &mut h, k);
            if matches!(app.mode, Mode::Normal) && !app.quit && !h.closed() {
                app.mode = Mode::History(h);
            }
            cmds
        }
        Mode::Normal => match keymap::action_in(k, app.search.is_some()) {
            Some(a) => act(app, a),
            None => Vec::new(),
        },
    }
}

impl HistoryState {
    /// True once the history view asked to close (marked by an empty entry list with no view).
    fn closed(&self) -> bool {
        self.selected == usize::MAX
    }
}

/// Keys in the history view: the commit list, an opened commit's diff (read-only, same
/// navigation as the review), and revert with a confirmation.
fn history_key(app: &mut App, h: &mut HistoryState, k: KeyEvent) -> Vec<Cmd> {
    let action = keymap::action(k);
    if let Some((_, commit, scope)) = h.confirm.take() {
        if k.code == KeyCode::Char('y') {
            app.busy = Some("reverting".into());
            h.selected = usize::MAX;
            return vec![Cmd::Revert { commit, scope }];
        }
        return Vec::new();
    }
    let Some(entry) = h.entries.get(h.selected).cloned() else {
        h.selected = usize::MAX;
        return Vec::new();
    };
    if let Some(view) = h.view.as_mut() {
        // The why overlay over the commit owns the keyboard until it closes.
        if matches!(view.mode, Mode::Why(_)) {
            return key(view, k);
        }
        view.status = None;
        match (k.code, action) {
            (_, Some(Action::Cancel | Action::History | Action::Quit)) => h.view = None,
            (_, Some(Action::Why)) => return ask_why(view, Some(&entry.id)),
            (KeyCode::Char('r'), _) => {
                if let Some(hunk) = view.current_hunk().and_then(|x| view.current_file().map(|f| f.hunks[x].id.clone()))
                {
                    let q = format!("Revert hunk {hunk} of {} ({})? y/n", entry.short, entry.summary);
                    h.confirm = Some((q, entry.id.clone(), crate::repo::message::RevertScope::Hunk(hunk)));
                }
            }
            (KeyCode::Char('R'), _) => {
                if let Some(path) = view.current_file().map(|f| f.path.clone()) {
                    let q = format!("Revert {path} as changed by {} ({})? y/n", entry.short, entry.summary);
                    h.confirm = Some((q, entry.id.clone(), crate::repo::message::RevertScope::File(path)));
                }
            }
            (_, Some(a)) if is_navigation(a) => {
                view.size = app.size;
                return act(view, a);
            }
            _ => {}
        }
        return Vec::new();
    }
    match (k.code, action) {
        (_, Some(Action::Cancel | Action::History | Action::Quit)) => h.selected = usize::MAX,
        (_, Some(Action::Down)) => h.selected = (h.selected + 1).min(h.entries.len().saturating_sub(1)),
        (_, Some(Action::Up)) => h.selected = h.selected.saturating_sub(1),
        (_, Some(Action::Top)) => h.selected = 0,
        (_, Some(Action::Bottom)) => h.selected = h.entries.len().saturating_sub(1),
        (_, Some(Action::Confirm)) => return vec![Cmd::HistoryDiff(entry.id.clone())],
        (KeyCode::Char('r'), _) => {
            let q = format!("Revert all of {} ({})? y/n", entry.short, entry.summary);
            h.confirm = Some((q, entry.id.clone(), crate::repo::message::RevertScope::Commit));
        }
        _ => {}
    }
    Vec::new()
}

fn is_navigation(a: Action) -> bool {
    matches!(
        a,
        Action::Down
            | Action::Up
            | Action::PageDown
            | Action::PageUp
            | Action::Top
            | Action::Bottom
            | Action::NextHunk
            | Action::PrevHunk
            | Action::NextFile
            | Action::PrevFile
            | Action::Wrap
            | Action::SideBySide
            | Action::FocusEvidence
    )
}

/// Carries out one action in normal mode.
pub fn act(app: &mut App, a: Action) -> Vec<Cmd> {
    if app.focus == Focus::Evidence {
        match a {
            Action::Down => {
                app.evidence_scroll += 1;
                return Vec::new();
            }
            Action::Up => {
                app.evidence_scroll = app.evidence_scroll.saturating_sub(1);
                return Vec::new();
            }
            Action::PageDown => {
                app.evidence_scroll += 10;
                return Vec::new();
            }
            Action::PageUp => {
                app.evidence_scroll = app.evidence_scroll.saturating_sub(10);
                return Vec::new();
            }
            Action::FocusEvidence | Action::Cancel => {
                app.focus = Focus::Diff;
                return Vec::new();
            }
            _ => app.focus = Focus::Diff,
        }
    }
    let cmds = match a {
        Action::Down => move_cursor(app, 1),
        Action::Up => move_cursor(app, -1),
        Action::PageDown => move_cursor(app, (app.diff_height() / 2).max(1) as isize),
        Action::PageUp => move_cursor(app, -((app.diff_height() / 2).max(1) as isize)),
        Action::Top => {
            app.cursor = 0;
            app.rebuild_rows();
            Vec::new()
        }
        Action::Bottom => {
            app.cursor = app.rows.len().saturating_sub(1);
            app.rebuild_rows();
            Vec::new()
        }
        Action::NextHunk => step_hunk(app, true, |_, _, _| true),
        Action::PrevHunk => step_hunk(app, false, |_, _, _| true),
        Action::NextFile => step_file(app, 1),
        Action::PrevFile => step_file(app, -1),
        Action::NextFlag => flagged(app, true),
        Action::PrevFlag => flagged(app, false),
        Action::Accept | Action::AcceptRest | Action::ToggleLine => match guard::question(app, a) {
            Some(question) => {
                app.mode = Mode::ConfirmAccept { question, action: a };
                Vec::new()
            }
            None => accept(app, a),
        },
        Action::Reject => decide(app, Decision::Rejected),
        Action::RejectRest => rest(app, Decision::Rejected),
        Action::Select => {
            app.anchor = match app.anchor {
                Some(_) => None,
                None => Some(app.cursor),
            };
            if app.anchor.is_some() {
                say(app, "selecting lines: move, then Space toggles, y/n decide them; Esc cancels", false);
            }
            Vec::new()
        }
        Action::Edit => edit(app),
        Action::Undo => undo_redo(app, true),
        Action::Redo => undo_redo(app, false),
        Action::Again => again(app),
        Action::Search => {
            // A new search ends the one before.
            app.search = None;
            app.mode = Mode::Search(String::new());
            Vec::new()
        }
        Action::NextMatch => next_match(app, true),
        Action::PrevMatch => next_match(app, false),
        Action::SideBySide => {
            app.side_by_side = !app.side_by_side;
            Vec::new()
        }
        Action::Wrap => {
            app.wrap = !app.wrap;
            Vec::new()
        }
        Action::FocusEvidence => {
            app.focus = Focus::Evidence;
            Vec::new()
        }
        Action::Commit => {
            let (done, total) = app.review.progress();
            if total == 0 {
                say(app, "nothing to commit: the dream changes nothing", false);
                Vec::new()
            } else if done == 0 {
                say(app, "nothing decided yet: y/n decide hunks, then c commits", false);
                Vec::new()
            } else {
                vec![Cmd::PreviewCommit]
            }
        }
        Action::History => vec![Cmd::History],
        Action::Why => {
            // An in-place review's live side is `HEAD` as loaded.
            let live = if app.review.inputs.dream.is_none() { app.review.loaded_head.clone() } else { None };
            ask_why(app, live.as_deref())
        }
        Action::Help => {
            app.mode = Mode::Help { scroll: 0 };
            Vec::new()
        }
        Action::Quit => {
            if app.dirty {
                app.mode = Mode::ConfirmQuit;
                Vec::new()
            } else {
                app.quit = true;
                vec![Cmd::Quit]
            }
        }
        Action::Cancel => {
            app.anchor = None;
            app.search = None;
            Vec::new()
        }
        Action::Confirm => Vec::new(),
    };
    app.ensure_cursor_visible();
    cmds
}

/// `b`: asks the runtime why the line under the cursor says what it says. `side` is the
/// commit whose version of the note the lines show: an opened commit of the history (its
/// new side: added and context lines), or for the review `None`, the note on disk (its
/// live side: context and removed lines), or `HEAD` for an in-place review. A row that is
/// no such line says why in the status bar.
fn ask_why(app: &mut App, side: Option<&str>) -> Vec<Cmd> {
    let history = app.banner.is_some();
    let asked = app.current_row().and_then(|r| match r.kind {
        RowKind::Line(i) => Some((r.hunk, i)),
        _ => None,
    });
    let Some((hunk, i)) = asked else {
        say(app, "b explains a line of a note: move onto one", false);
        return Vec::new();
    };
    let number = app.info.get(hunk).and_then(|v| v.get(i)).and_then(|x| if history { x.new_no } else { x.old_no });
    let text = app.hunk(hunk).and_then(|h| h.lines.get(i)).map(|l| l.text.clone());
    let note = app.current_file().map(|f| f.path.clone());
    match (number, text, note) {
        (Some(line), Some(text), Some(note)) => {
            vec![Cmd::Why(crate::repo::why::ShownLine { note, text, line, commit: side.map(str::to_string) })]
        }
        _ if history => {
            say(app, "removed by this commit: b works on + and context lines", false);
            Vec::new()
        }
        _ => {
            say(app, "added line: not in the note yet; b works on - and context lines", false);
            Vec::new()
        }
    }
}

/// The answer to `b`: the overlay over the screen that asked (the review, or a commit opened
/// in the history); an error in that screen's status bar.
fn why_answered(app: &mut App, result: Result<Box<crate::repo::why::Traced>, String>) {
    let show = |screen: &mut App, result: Result<Box<crate::repo::why::Traced>, String>| match result {
        Ok(t) => screen.mode = Mode::Why(WhyView::new(&t)),
        Err(e) => say(screen, &format!("why: {e}"), true),
    };
    if let Mode::History(h) = &mut app.mode {
        // Only over the opened commit that asked; the list has no line to explain.
        if let Some(view) = h.view.as_deref_mut() {
            show(view, result);
        }
    } else if matches!(app.mode, Mode::Normal) {
        show(app, result);
    }
    // Another overlay opened meanwhile keeps the screen.
}

/// Carries out an accepting action (`y`, `a`, `Space`), asked about or not.
fn accept(app: &mut App, a: Action) -> Vec<Cmd> {
    match a {
        Action::Accept => decide(app, Decision::Accepted),
        Action::AcceptRest => rest(app, Decision::Accepted),
        Action::ToggleLine => toggle(app),
        _ => Vec::new(),
    }
}

fn move_cursor(app: &mut App, by: isize) -> Vec<Cmd> {
    let before = app.current_hunk();
    for _ in 0..by.unsigned_abs() {
        match app.next_selectable(app.cursor, by > 0) {
            Some(r) => app.cursor = r,
            None => break,
        }
    }
    if app.current_hunk() != before {
        app.evidence_scroll = 0;
    }
    Vec::new()
}

fn select_file(app: &mut App, file: usize) -> Vec<Cmd> {
    if file >= app.review.files.len() {
        return Vec::new();
    }
    app.file = file;
    app.rows.clear();
    app.cursor = 0;
    app.scroll = 0;
    app.anchor = None;
    app.evidence_scroll = 0;
    app.rebuild_rows();
    request_highlight(app)
}

/// Asks for syntax colours of the current file once.
pub fn request_highlight(app: &mut App) -> Vec<Cmd> {
    if app.theme.syntax && !app.review.files.is_empty() && app.highlight_requested.insert(app.file) {
        vec![Cmd::Highlight(app.file)]
    } else {
        Vec::new()
    }
}

fn goto(app: &mut App, file: usize, hunk: usize) -> Vec<Cmd> {
    let cmds = if file != app.file { select_file(app, file) } else { Vec::new() };
    if let Some(r) = app.first_row_of(hunk) {
        app.cursor = r;
        app.evidence_scroll = 0;
    }
    cmds
}

fn step_file(app: &mut App, by: isize) -> Vec<Cmd> {
    let n = app.review.files.len();
    if n == 0 {
        return Vec::new();
    }
    let next = (app.file as isize + by).rem_euclid(n as isize) as usize;
    select_file(app, next)
}

/// All hunks as (file, hunk) in review order.
fn all_hunks(app: &App) -> Vec<(usize, usize)> {
    app.review.files.iter().enumerate().flat_map(|(fi, f)| (0..f.hunks.len()).map(move |hi| (fi, hi))).collect()
}

/// Moves to the next/previous hunk satisfying `pred`, wrapping around the review.
fn step_hunk(app: &mut App, forward: bool, pred: impl Fn(&App, usize, usize) -> bool) -> Vec<Cmd> {
    let hunks = all_hunks(app);
    if hunks.is_empty() {
        return Vec::new();
    }
    let here = app.current_hunk().and_then(|h| hunks.iter().position(|&x| x == (app.file, h))).unwrap_or(0);
    let n = hunks.len();
    for step in 1..=n {
        let i = if forward { (here + step) % n } else { (here + n - step % n) % n };
        let (f, h) = hunks[i];
        if pred(app, f, h) {
            return goto(app, f, h);
        }
    }
    Vec::new()
}

fn has_flags(app: &App, f: usize, h: usize) -> bool {
    app.analysis.all_flags(f, h).next().is_some()
        || app.review.files.get(f).and_then(|x| x.hunks.get(h)).is_some_and(|x| x.live_changed)
}

fn flagged(app: &mut App, forward: bool) -> Vec<Cmd> {
    if !all_hunks(app).iter().any(|&(f, h)| has_flags(app, f, h)) {
        say(app, "no flagged hunks", false);
        return Vec::new();
    }
    step_hunk(app, forward, has_flags)
}

fn decide(app: &mut App, d: Decision) -> Vec<Cmd> {
    let Some(h) = app.current_hunk() else { return Vec::new() };
    if app.anchor.is_some() {
        let slots = app.selected_slots();
        app.anchor = None;
        return set_slots(app, &slots, |_| d);
    }
    if let Err(r) = app.review.set_hunk(app.file, h, d) {
        say(app, &r.in_tui(), true);
        return Vec::new();
    }
    decided(app);
    let mut cmds = vec![Cmd::Save];
    let undecided = |app: &App, f: usize, h: usize| !app.review.decision(f, h).is_some_and(|d| d.is_decided());
    if all_hunks(app).iter().any(|&(f, h)| undecided(app, f, h)) {
        cmds.extend(step_hunk(app, true, undecided));
    } else {
        let (_, total) = app.review.progress();
        say(app, &format!("all {total} hunks decided — press c to commit"), false);
    }
    cmds
}

fn set_slots(app: &mut App, slots: &[(usize, usize)], d: impl Fn(Decision) -> Decision) -> Vec<Cmd> {
    if slots.is_empty() {
        say(app, "no changed line here: Space toggles - and + lines", false);
        return Vec::new();
    }
    // One keypress, one undo step, however many lines it sets.
    let targets: Vec<(usize, usize, Decision)> = slots
        .iter()
        .map(|&(h, s)| {
            (h, s, d(app.review.decision(app.file, h).and_then(|x| x.lines.get(s).copied()).unwrap_or_default()))
        })
        .collect();
    if let Err(r) = app.review.set_lines(app.file, &targets) {
        say(app, &r.in_tui(), true);
        return Vec::new();
    }
    decided(app);
    vec![Cmd::Save]
}

fn toggle(app: &mut App) -> Vec<Cmd> {
    if app.anchor.is_none() && app.current_hunk().is_some_and(|h| app.is_edited(h)) {
        say(
            app,
            "this hunk is your text now: e edits it again, u undoes the edit, y/n take or reject the dream's",
            false,
        );
        return Vec::new();
    }
    let slots = app.selected_slots();
    app.anchor = None;
    let target = app.toggle_target(&slots);
    set_slots(app, &slots, |_| target)
}

fn rest(app: &mut App, d: Decision) -> Vec<Cmd> {
    let Some(h) = app.current_hunk() else { return Vec::new() };
    let n = app.review.set_rest_of_file(app.file, h, d);
    if n == 0 {
        say(app, "no undecided hunks left in this file", false);
        return Vec::new();
    }
    decided(app);
    let verb = if d == Decision::Accepted { "accepted" } else { "rejected" };
    say(app, &format!("{verb} {n} hunk{} of this file", if n == 1 { "" } else { "s" }), false);
    vec![Cmd::Save]
}

fn edit(app: &mut App) -> Vec<Cmd> {
    let Some(h) = app.current_hunk() else { return Vec::new() };
    let Some(hunk) = app.current_file().and_then(|f| f.hunks.get(h)) else { return Vec::new() };
    if hunk.whole_file {
        say(app, "binary, empty and symlinked files are accepted or rejected whole", true);
        return Vec::new();
    }
    // A merge refused for its markers reopens as it was left; else the edit so far, or
    // for a hunk live changed after the dream both sides between conflict markers.
    let text = match &app.unfinished {
        Some((f, x, text)) if (*f, *x) == (app.file, h) => text.clone(),
        _ => match app.review.decision(app.file, h).and_then(|d| d.edited.as_ref()) {
            Some(text) => text.clone(),
            None if hunk.live_changed => hunk.merge_text(),
            None => hunk.new_side(),
        },
    };
    vec![Cmd::Edit { file: app.file, hunk: h, text }]
}

fn undo_redo(app: &mut App, undo: bool) -> Vec<Cmd> {
    let done = if undo { app.review.undo() } else { app.review.redo() };
    if !done {
        say(app, if undo { "nothing to undo" } else { "nothing to redo" }, false);
        return Vec::new();
    }
    // Undo may reach any file: always re-audit.
    app.dirty = true;
    app.rebuild_rows();
    app.analysis.refresh_audit(&app.review);
    vec![Cmd::Save]
}

fn run_search(app: &mut App, input: &str) -> Vec<Cmd> {
    let query = input.to_lowercase();
    if query.is_empty() {
        app.search = None;
        return Vec::new();
    }
    let mut matches = Vec::new();
    for (fi, f) in app.review.files.iter().enumerate() {
        for (hi, h) in f.hunks.iter().enumerate() {
            // An edited hunk is searched as it is shown: live against the reviewer's text.
            let edited = app.review.decision(fi, hi).and_then(|d| d.edited.as_deref()).map(|t| h.edited(t));
            let h = edited.as_ref().unwrap_or(h);
            // The text as the diff pane shows it: a secret is found only by what is on
            // screen (its kind and last characters), never by its hidden value.
            for (li, text) in crate::diff::masked::masked_lines(h).iter().enumerate() {
                if crate::ui::text::display(text).to_lowercase().contains(&query) {
                    matches.push((fi, hi, li));
                }
            }
        }
    }
    // Kept when empty, so C-n says there is no match rather than that there is no search.
    app.search = Some(Search { query, typed: input.to_string(), matches, at: None });
    next_match(app, true)
}

fn next_match(app: &mut App, forward: bool) -> Vec<Cmd> {
    let here = (
        app.file,
        app.current_hunk().unwrap_or(0),
        match app.current_row().map(|r| r.kind) {
            Some(RowKind::Line(i)) => i,
            _ => 0,
        },
    );
    let Some(search) = app.search.as_ref() else {
        say(app, "no search: press / first", false);
        return Vec::new();
    };
    let n = search.matches.len();
    if n == 0 {
        let text = format!("no match for “{}”", search.query);
        say(app, &text, true);
        return Vec::new();
    }
    let next = if forward {
        search.matches.iter().position(|m| *m > here).unwrap_or(0)
    } else {
        search.matches.iter().rposition(|m| *m < here).unwrap_or(n - 1)
    };
    let (f, h, l) = search.matches[next];
    if let Some(s) = app.search.as_mut() {
        s.at = Some(next);
    }
    let cmds = if f != app.file { select_file(app, f) } else { Vec::new() };
    if let Some(r) = app.rows.iter().position(|r| r.hunk == h && r.kind == RowKind::Line(l)) {
        app.cursor = r;
    }
    cmds
}

fn mouse(app: &mut App, m: MouseEvent) -> Vec<Cmd> {
    // An overlay owns the mouse: the wheel scrolls the help; nothing reaches the panes
    // behind it (a click must not change the file under a question).
    if let Mode::Help { scroll } = app.mode {
        let most = keymap::help_max_scroll(app.size);
        match m.kind {
            MouseEventKind::ScrollDown => app.mode = Mode::Help { scroll: (scroll + 3).min(most) },
            MouseEventKind::ScrollUp => app.mode = Mode::Help { scroll: scroll.saturating_sub(3) },
            _ => {}
        }
        return Vec::new();
    }
    if let Mode::Why(w) = &mut app.mode {
        let most = w.max_scroll(app.size);
        match m.kind {
            MouseEventKind::ScrollDown => w.scroll = (w.scroll + 3).min(most),
            MouseEventKind::ScrollUp => w.scroll = w.scroll.saturating_sub(3),
            _ => {}
        }
        return Vec::new();
    }
    if !matches!(app.mode, Mode::Normal) {
        return Vec::new();
    }
    let panes = app.panes();
    let inside = |r: ratatui::layout::Rect| {
        m.column >= r.x && m.column < r.x + r.width && m.row > r.y && m.row + 1 < r.y + r.height
    };
    let cmds = match m.kind {
        MouseEventKind::Down(MouseButton::Left) if inside(panes.files) => {
            let visible = usize::from(panes.files.height.saturating_sub(2));
            let idx = app.files_offset(visible) + usize::from(m.row - panes.files.y - 1);
            if idx == app.file || idx >= app.review.files.len() { Vec::new() } else { select_file(app, idx) }
        }
        MouseEventKind::Down(MouseButton::Left) if inside(panes.diff) => {
            app.focus = Focus::Diff;
            let mut y = panes.diff.y as usize + 1;
            let mut row = app.scroll;
            while row < app.rows.len() {
                let h = app.row_height(row);
                if (m.row as usize) < y + h {
                    break;
                }
                y += h;
                row += 1;
            }
            if app.rows.get(row).is_some_and(|r| r.selectable()) {
                if app.current_hunk() != app.rows.get(row).map(|r| r.hunk) {
                    app.evidence_scroll = 0;
                }
                app.cursor = row;
            }
            Vec::new()
        }
        MouseEventKind::Down(MouseButton::Left) if inside(panes.evidence) => {
            app.focus = Focus::Evidence;
            Vec::new()
        }
        MouseEventKind::ScrollDown if inside(panes.evidence) => {
            app.evidence_scroll += 3;
            Vec::new()
        }
        MouseEventKind::ScrollUp if inside(panes.evidence) => {
            app.evidence_scroll = app.evidence_scroll.saturating_sub(3);
            Vec::new()
        }
        MouseEventKind::ScrollDown => move_cursor(app, 3),
        MouseEventKind::ScrollUp => move_cursor(app, -3),
        _ => Vec::new(),
    };
    app.ensure_cursor_visible();
    cmds
}

/// True when the line under the cursor is a changed line (for hints).
pub fn on_changed_line(app: &App) -> bool {
    matches!(app.current_row().map(|r| r.kind), Some(RowKind::Line(i)) if app.hunk(app.current_hunk().unwrap_or(0)).and_then(|h| h.lines.get(i)).is_some_and(|l| l.op != Op::Context))
}
