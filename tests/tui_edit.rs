//! The decision loop guards the reviewer (issue 13): an edit is shown as live → your text
//! and checked again, a live-changed hunk is merged between conflict markers, an accept
//! before the analysis is in still asks, the cursor hides no highlight, and the first
//! screen at 80×24 shows the cited line and the way to help. Scripted keys through the
//! real update and render path (TestBackend), styles pinned where colour is the point.

use dreamreview::analysis::flag::FlagKind;
use dreamreview::faces::ui::msg::{Cmd, Msg};
use dreamreview::faces::ui::script;
use dreamreview::faces::ui::snapshot::to_text;
use dreamreview::faces::ui::state::{App, Mode, Progress};
use dreamreview::faces::ui::theme::{Theme, ThemeName};
use dreamreview::model::decision::{Decision, HunkState};
use dreamreview::model::ids::HunkId;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyModifiers, MouseEvent, MouseEventKind};

struct Demo {
    _dir: tempfile::TempDir,
    app: App,
    root: String,
}

fn open(size: (u16, u16), theme: ThemeName) -> Demo {
    let dir = tempfile::Builder::new().prefix("drtui").tempdir().unwrap();
    let app = script::open_demo(dir.path(), size, Theme::new(theme)).unwrap();
    assert_eq!(app.progress, Progress::Done);
    Demo { root: dir.path().display().to_string(), _dir: dir, app }
}

fn press(d: &mut Demo, keys: &str) -> Vec<Cmd> {
    script::drive(&mut d.app, keys).unwrap()
}

fn snap(d: &Demo) -> String {
    to_text(&script::render(&d.app)).replace(&d.root, "<demo>")
}

/// The text inside a pane (borders excluded).
fn pane(d: &Demo, r: ratatui::layout::Rect) -> String {
    let screen = snap(d);
    let rows = screen.lines().skip(r.y as usize + 1).take((r.height as usize).saturating_sub(2));
    let cut = |l: &str| l.chars().skip(r.x as usize + 1).take((r.width as usize).saturating_sub(2)).collect::<String>();
    rows.map(cut).collect::<Vec<_>>().join("\n")
}

fn status_line(d: &Demo) -> String {
    snap(d).lines().last().unwrap_or("").to_string()
}

fn to_file(d: &mut Demo, path: &str) {
    for _ in 0..20 {
        if d.app.current_file().unwrap().path == path {
            return;
        }
        press(d, "<Tab>");
    }
    panic!("no file {path}");
}

/// `e` on the hunk under the cursor, the editor saving `text`: returns what the editor
/// was given.
fn edit(d: &mut Demo, text: &str) -> String {
    let cmds = press(d, "e");
    let (at, given) = cmds
        .iter()
        .find_map(|c| match c {
            Cmd::Edit { at, text } => Some((*at, text.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("e opened no editor: {:?}", d.app.status));
    let generation = d.app.generation;
    let result = Ok(Some(text.to_string()));
    script::send(&mut d.app, Msg::Edited { generation, at, result }).unwrap();
    given
}

fn kinds(d: &Demo) -> Vec<FlagKind> {
    let h = d.app.current_hunk().unwrap();
    d.app.analysis.hunk_flags(HunkId::new(d.app.file, h)).map(|f| f.kind).collect()
}

fn state(d: &Demo, path: &str) -> HunkState {
    let fi = d.app.review.files.iter().position(|f| f.path == path).unwrap();
    d.app.review.decisions[HunkId::new(fi, 0)].state()
}

/// After `e`, the hunk is live → your text (the dream's lines are gone from it), and every
/// line of it is reachable at 80×24 with j, G, C-d and the wheel.
#[test]
fn an_edit_shows_live_against_your_text_and_every_line_is_reachable() {
    let mut d = open((80, 24), ThemeName::Dark);
    to_file(&mut d, "ci.md");
    let given = d.app.current_file().unwrap().hunks[0].new_side();
    let mut mine = given.replace(" since mid Nov 2026", "");
    for n in 1..=30 {
        mine.push_str(&format!("Runbook step {n}.\n"));
    }
    assert_eq!(edit(&mut d, &mine), given, "the editor opens on the dream's new side");
    assert_eq!(state(&d, "ci.md"), HunkState::Edited);
    press(&mut d, "g");
    let diff = |d: &Demo| pane(d, d.app.panes().diff);
    let top = diff(&d);
    assert!(!top.contains("since mid Nov"), "the dream's line is still drawn:\n{top}");
    assert!(top.contains("- CI runs on GitHub Actions"), "live's line is the - side:\n{top}");
    assert!(top.contains("✎") && top.contains("+ CI runs on Buildkite:"), "{top}");
    let last = "Runbook step 30.";
    assert!(!top.contains(last));
    press(&mut d, "G");
    assert!(diff(&d).contains(last), "G stops before the edited lines:\n{}", diff(&d));
    press(&mut d, "g");
    for _ in 0..12 {
        press(&mut d, "<C-d>");
    }
    assert!(diff(&d).contains(last), "C-d stops before the edited lines:\n{}", diff(&d));
    press(&mut d, "g");
    for _ in 0..40 {
        press(&mut d, "j");
    }
    assert!(diff(&d).contains(last), "j stops before the edited lines:\n{}", diff(&d));
    press(&mut d, "g");
    let diff_rect = d.app.panes().diff;
    let wheel = MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: diff_rect.x + 5,
        row: diff_rect.y + 2,
        modifiers: KeyModifiers::NONE,
    };
    for _ in 0..15 {
        script::send(&mut d.app, Msg::Mouse(wheel)).unwrap();
    }
    assert!(diff(&d).contains(last), "the wheel stops before the edited lines:\n{}", diff(&d));
}

/// Flags and claims are those of the edited text: the invented date edited out takes its
/// `inferred-date` with it, a secret typed in raises `secret` (and the error count), and
/// undoing the edit brings the dream's flags back.
#[test]
fn flags_are_computed_again_on_the_edited_text() {
    let mut d = open((100, 30), ThemeName::Dark);
    to_file(&mut d, "ci.md");
    assert!(kinds(&d).contains(&FlagKind::InferredDate));
    let warnings = dreamreview::analysis::standing::flags_left(&d.app.review, &d.app.analysis).warning;
    let text = d.app.current_file().unwrap().hunks[0].new_side().replace(" since mid Nov 2026", "");
    edit(&mut d, &text);
    assert!(!kinds(&d).contains(&FlagKind::InferredDate), "{:?}", kinds(&d));
    let claims: Vec<String> =
        d.app.analysis.findings.claims(HunkId::new(d.app.file, 0)).iter().map(|c| c.text.clone()).collect();
    assert!(!claims.iter().any(|c| c.contains("Nov")), "{claims:?}");
    assert!(dreamreview::analysis::standing::flags_left(&d.app.review, &d.app.analysis).warning < warnings);
    press(&mut d, "u");
    assert!(kinds(&d).contains(&FlagKind::InferredDate), "undo brings the dream's flag back: {:?}", kinds(&d));

    to_file(&mut d, "testing.md");
    assert!(!kinds(&d).contains(&FlagKind::Secret));
    let before = dreamreview::analysis::standing::flags_left(&d.app.review, &d.app.analysis).error;
    let mut text = d.app.current_file().unwrap().hunks[0].new_side();
    text.push_str("CI token: sk-ant-api03-Zq8VbN2xLk4TfR7mWc1YhJ5sPd9GuE3aKo6Ni0Bx-7tQ2wZ9AB\n");
    edit(&mut d, &text);
    assert!(kinds(&d).contains(&FlagKind::Secret), "{:?}", kinds(&d));
    assert_eq!(dreamreview::analysis::standing::flags_left(&d.app.review, &d.app.analysis).error, before + 1);
    let screen = snap(&d);
    assert!(screen.contains("[anthropic-key …Z9AB]") && !screen.contains("Zq8VbN2x"), "{screen}");
    // The commit preview names it as standing on what the commit takes.
    press(&mut d, "c");
    let Mode::CommitPreview { message, .. } = &d.app.mode else { panic!("no preview: {:?}", d.app.status) };
    assert!(message.contains("error   testing.md#1 secret «[anthropic-key …Z9AB]» accepted"), "{message}");
}

/// Rejecting the one line that holds a secret takes the flag off the status bar's count,
/// though the rest of the hunk is still to decide.
#[test]
fn rejecting_the_secret_line_takes_it_off_the_count() {
    let mut d = open((100, 30), ThemeName::Dark);
    to_file(&mut d, "database.md");
    let errors = |d: &Demo| dreamreview::analysis::standing::flags_left(&d.app.review, &d.app.analysis).error;
    let before = errors(&d);
    assert!(status_line(&d).contains(&format!("⚑{before} errors")), "{}", status_line(&d));
    press(&mut d, "G");
    let fi = d.app.file;
    let slot = d.app.slot_of(d.app.cursor).unwrap();
    press(&mut d, "v n");
    assert_eq!(d.app.review.decisions[HunkId::new(fi, 0)].lines[slot], Decision::Rejected);
    assert_eq!(state(&d, "database.md"), HunkState::Partial);
    assert_eq!(errors(&d), before - 1);
    assert!(status_line(&d).contains(&format!("⚑{} error", before - 1)), "{}", status_line(&d));
}

/// `e` on a live-changed hunk opens both sides between conflict markers; a save with a
/// marker left is refused, says so, and `e` reopens that text; a finished merge is taken
/// as edited and `live-changed` no longer counts.
#[test]
fn a_live_changed_hunk_is_merged_between_conflict_markers() {
    let mut d = open((100, 30), ThemeName::Dark);
    to_file(&mut d, "deploy.md");
    let cmds = press(&mut d, "e");
    let Some(Cmd::Edit { text: merge, .. }) = cmds.into_iter().find(|c| matches!(c, Cmd::Edit { .. })) else {
        panic!("e opened no editor")
    };
    let block = "<<<<<<< live\nDeploy staging with `fab deploy:staging`.\nProduction deploys need two reviewers and a \
                 change ticket.\n=======\nDeploy staging with `make deploy-staging`.\nProduction deploys need a second \
                 reviewer.\n>>>>>>> dream\n";
    assert!(merge.contains(block), "{merge}");
    // A marker left: refused, nothing decided, and said so.
    let half = merge.replace("<<<<<<< live\n", "");
    edit(&mut d, &half);
    assert_eq!(state(&d, "deploy.md"), HunkState::Pending);
    let status = d.app.status.clone().unwrap();
    assert!(status.error && status.text.contains("conflict marker") && status.text.contains("======="), "{status:?}");
    assert!(status_line(&d).contains("conflict marker"), "{}", status_line(&d));
    // e reopens the text as it was left; the merge finished, it is taken.
    let merged = merge.replace(
        block,
        "Deploy staging with `make deploy-staging`.\nProduction deploys need two reviewers and a change ticket.\n",
    );
    assert_eq!(edit(&mut d, &merged), half, "e reopens the refused merge");
    assert_eq!(state(&d, "deploy.md"), HunkState::Edited, "{:?}", d.app.status);
    assert!(!kinds(&d).contains(&FlagKind::LiveChanged), "{:?}", kinds(&d));
    let screen = pane(&d, d.app.panes().diff);
    assert!(screen.contains("+ Deploy staging with `make deploy-staging`."), "{screen}");
    assert!(!screen.contains("a second reviewer") && !screen.contains("<<<<<<<"), "{screen}");
    assert!(!status_line(&d).contains("conflict"));
    // The commit message counts what the merge changes, not what the dream proposed.
    press(&mut d, "c");
    let Mode::CommitPreview { message, .. } = &d.app.mode else { panic!("no preview: {:?}", d.app.status) };
    assert!(message.contains("- deploy.md#1 (+1 -1, the dream's +2 -2, edited by the reviewer)"), "{message}");
}

/// A `y` pressed before the background analysis is in still asks about the secret, and
/// `c` waits for the flags the commit preview lists.
#[test]
fn an_accept_before_the_analysis_is_in_still_asks() {
    let dir = tempfile::tempdir().unwrap();
    let demo = dreamreview::faces::demo::materialize(dir.path()).unwrap();
    let inputs = dreamreview::inputs::dream::discover(Some(&demo.dream), Some(&demo.memory), &[]).unwrap();
    let review = dreamreview::store::repo::load_review(inputs).unwrap();
    let app = App::new(review, Theme::new(ThemeName::Dark), (100, 30));
    let mut d = Demo { root: dir.path().display().to_string(), _dir: dir, app };
    assert!(matches!(d.app.progress, Progress::Running { .. }));
    to_file(&mut d, "database.md");
    press(&mut d, "y");
    assert!(matches!(d.app.mode, Mode::ConfirmAccept { .. }), "y took the secret unasked");
    assert_eq!(state(&d, "database.md"), HunkState::Pending);
    press(&mut d, "<Esc>");
    to_file(&mut d, "testing.md");
    press(&mut d, "y c");
    assert!(!matches!(d.app.mode, Mode::CommitPreview { .. }), "c before the flags are in");
    assert!(d.app.status.as_ref().is_some_and(|s| s.text.contains("still being checked")), "{:?}", d.app.status);
}

/// The search's place in the status bar does not hide how many hunks are decided.
#[test]
fn the_search_status_keeps_the_decided_count() {
    let mut d = open((100, 30), ThemeName::Dark);
    press(&mut d, "n / B u i l d <Enter>");
    let status = status_line(&d);
    assert!(status.contains("1/7 decided") && status.contains("/Build "), "{status}");
}

/// `? help` and `q quit` stay on the status bar at every width from 60 on, whatever else
/// it says — unless a message (what the last key did) needs their room: a message is never
/// cut for a hint, so then it is shown whole instead (issue 29).
#[test]
fn the_status_bar_always_keeps_help_and_quit() {
    for width in [60, 72, 80, 100, 200] {
        let mut d = open((width, 24), ThemeName::Dark);
        let check = |d: &Demo, when: &str| {
            let s = status_line(d);
            let whole = d.app.status.as_ref().is_some_and(|m| s.contains(m.text.as_str()));
            assert!(s.contains(" ? help ") && s.contains(" q quit") || whole, "{width} columns, {when}: {s}");
        };
        check(&d, "first screen");
        press(&mut d, "v");
        check(&d, "selecting");
        press(&mut d, "<Esc> / B u i l d <Enter>");
        check(&d, "searching");
        press(&mut d, "<Esc> y");
        check(&d, "after a decision");
        to_file(&mut d, "database.md");
        press(&mut d, "y");
        check(&d, "asked about a secret");
    }
}

/// The demo's commit dialog says where its memory repository is, and that it is a copy.
#[test]
fn the_demo_commit_dialog_names_its_memory_repository() {
    let mut d = open((100, 30), ThemeName::Dark);
    d.app.throwaway = Some(std::path::PathBuf::from(&d.root));
    press(&mut d, "n c");
    assert!(matches!(d.app.mode, Mode::CommitPreview { .. }));
    let screen = snap(&d);
    assert!(screen.contains("Memory repository: <demo>/project/memory"), "{screen}");
    assert!(screen.contains("--keep DIR"), "{screen}");
}

/// At 80×24 the evidence pane shows a cited line (▶) without scrolling, for every hunk
/// that cites one.
#[test]
fn the_cited_line_is_on_the_first_screen_at_80x24() {
    let mut d = open((80, 24), ThemeName::Dark);
    for path in ["ci.md", "database.md", "deploy.md", "testing.md", "review-ja.md"] {
        to_file(&mut d, path);
        let ev = d.app.panes().evidence;
        let screen = snap(&d);
        let pane: Vec<String> = screen
            .lines()
            .skip(ev.y as usize)
            .take(ev.height as usize)
            .map(|l| l.chars().skip(ev.x as usize).take(ev.width as usize).collect())
            .collect();
        assert!(pane.iter().any(|l| l.contains('▶')), "{path}: no cited line on screen:\n{}", pane.join("\n"));
        // The flags come first.
        let flagged = d.app.analysis.hunk_flags(HunkId::new(d.app.file, 0)).next().is_some();
        assert!(!flagged || pane.get(1).is_some_and(|l| l.contains('⚑')), "{path}:\n{}", pane.join("\n"));
    }
}

/// Styles of one screen row as runs: `[fg/bg/modifiers]text`.
fn style_runs(buf: &Buffer, y: u16, x0: u16, x1: u16) -> String {
    let mut out = String::new();
    let mut last = String::new();
    for x in x0..x1 {
        let c = &buf[(x, y)];
        let style = format!("[{:?}/{:?}/{:?}]", c.fg, c.bg, c.modifier);
        if style != last {
            out.push('\n');
            out.push_str(&style);
            last = style;
        }
        out.push_str(c.symbol());
    }
    out
}

/// The cursor line hides no highlight: on it a flagged claim, the current search match and
/// a masked secret keep their own style, unlike the cursor's (dark, light and NO_COLOR).
#[test]
fn the_cursor_line_keeps_claims_matches_and_secrets_visible() {
    let mut all = String::new();
    for theme in [ThemeName::Dark, ThemeName::Light, ThemeName::Mono] {
        for (search, path, highlight) in
            [("t o k e n", "database.md", "[anthropic-key …Z9AA]"), ("s i n c e", "ci.md", "mid Nov 2026")]
        {
            let mut d = open((100, 30), theme);
            to_file(&mut d, path);
            press(&mut d, &format!("/ {search} <Enter>"));
            assert_eq!(d.app.current_file().unwrap().path, path);
            let buf = script::render(&d.app);
            let diff = d.app.panes().diff;
            let rows: Vec<String> = (0..buf.area.height)
                .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol().to_string()).collect())
                .collect();
            let y = rows.iter().position(|r| r.contains(highlight)).expect("the highlight is on screen") as u16;
            let row = &rows[y as usize];
            let col = |s: &str| row[..row.find(s).unwrap()].chars().count() as u16;
            let cursor_cell = &buf[(diff.x + 3, y)];
            let (claim, matched) = (&buf[(col(highlight) + 1, y)], &buf[(col(&search.replace(' ', "")) + 1, y)]);
            let look = |c: &ratatui::buffer::Cell| (c.fg, c.bg, c.modifier);
            // Its own background (or, without colours, not the cursor's reverse video).
            let own = |c: &ratatui::buffer::Cell| {
                let reversed = |c: &ratatui::buffer::Cell| c.modifier.contains(ratatui::style::Modifier::REVERSED);
                c.bg != cursor_cell.bg || reversed(c) != reversed(cursor_cell)
            };
            assert!(own(claim), "{theme:?} {path}: the cursor hides the claim: {:?}", look(claim));
            assert!(own(matched), "{theme:?} {path}: the cursor hides the match: {:?}", look(matched));
            assert_ne!(look(claim), look(matched), "{theme:?} {path}: the claim looks like the match");
            all.push_str(&format!("== {theme:?} {path}{}\n", style_runs(&buf, y, diff.x + 1, diff.x + diff.width - 1)));
        }
    }
    insta::assert_snapshot!("cursor_keeps_highlights", all);
}
