//! The review TUI driven by scripted keys through a whole review of the bundled demo, with
//! insta snapshots of the real render path (TestBackend); some snapshots also pin a hash of
//! every cell's style, so colour regressions fail too.

use dreamreview::faces::ui::msg::Cmd;
use dreamreview::faces::ui::script;
use dreamreview::faces::ui::snapshot::{style_hash, to_text};
use dreamreview::faces::ui::state::{App, Mode, Progress, RowKind};
use dreamreview::faces::ui::theme::{Theme, ThemeName};
use dreamreview::model::decision::{Decision, HunkState};
use dreamreview::model::ids::HunkId;

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

/// The screen as text (temp paths, commit ids and dates normalised) and its style hash.
fn render(d: &Demo) -> (String, u64) {
    let buf = script::render(&d.app);
    let text = to_text(&buf).replace(&d.root, "<demo>");
    let text = regex::Regex::new(r"\b[0-9a-f]{40}\b").unwrap().replace_all(&text, "<commit>").into_owned();
    let text = regex::Regex::new(r"\b[0-9a-f]{7}\b").unwrap().replace_all(&text, "<sha>").into_owned();
    let text =
        regex::Regex::new(r"\d{4}-\d\d-\d\d \d\d:\d\d [+-]\d{4}").unwrap().replace_all(&text, "<date>").into_owned();
    (text, style_hash(&buf))
}

fn snap(d: &Demo) -> String {
    render(d).0
}

fn decision(d: &Demo, path: &str) -> HunkState {
    let fi = d.app.review.files.iter().position(|f| f.path == path).unwrap();
    d.app.review.decisions[HunkId::new(fi, 0)].state()
}

#[test]
fn a_whole_review_from_the_keyboard() {
    let mut d = open((100, 30), ThemeName::Dark);
    let (first, styles) = render(&d);
    insta::assert_snapshot!("01_open", format!("{first}\nstyle-hash: {styles:016x}"));

    // Navigate: next file, then the flagged hunks.
    press(&mut d, "<Tab>");
    assert_eq!(d.app.current_file().unwrap().path, "ci.md");
    insta::assert_snapshot!("02_ci_inferred_date", snap(&d));

    // Accept ci.md: the cursor moves on to the next undecided hunk.
    let cmds = press(&mut d, "y");
    assert!(cmds.contains(&Cmd::Save));
    assert_eq!(decision(&d, "ci.md"), HunkState::Accepted);
    assert_eq!(d.app.current_file().unwrap().path, "database.md");

    // database.md adds a secret: reject it (the secret is masked on screen).
    let screen = snap(&d);
    assert!(screen.contains("[anthropic-key …Z9AA]"), "{screen}");
    assert!(!screen.contains("Zq8VbN2x"), "{screen}");
    insta::assert_snapshot!("03_database_secret", screen);
    press(&mut d, "n");
    assert_eq!(decision(&d, "database.md"), HunkState::Rejected);

    // deploy.md is live-changed: accepting is refused, the reason is shown.
    assert_eq!(d.app.current_file().unwrap().path, "deploy.md");
    press(&mut d, "y");
    assert_eq!(decision(&d, "deploy.md"), HunkState::Pending);
    assert!(snap(&d).contains("only a merge can take it (e: merge)"), "{}", snap(&d));
    press(&mut d, "n");

    // git-rules.md deletes a PERMANENT note: reject.
    assert_eq!(d.app.current_file().unwrap().path, "git-rules.md");
    press(&mut d, "n");

    // review-ja.md: toggle one line, undo it, redo it, then accept the hunk.
    assert_eq!(d.app.current_file().unwrap().path, "review-ja.md");
    press(&mut d, "<Space>");
    assert_eq!(decision(&d, "review-ja.md"), HunkState::Partial);
    insta::assert_snapshot!("04_line_toggled", snap(&d));
    press(&mut d, "u");
    assert_eq!(decision(&d, "review-ja.md"), HunkState::Pending);
    press(&mut d, "<C-r>");
    assert_eq!(decision(&d, "review-ja.md"), HunkState::Partial);
    press(&mut d, "y");
    assert_eq!(decision(&d, "review-ja.md"), HunkState::Accepted);

    // testing.md (clean) and then MEMORY.md: accept and reject.
    assert_eq!(d.app.current_file().unwrap().path, "testing.md");
    press(&mut d, "y");
    assert_eq!(d.app.current_file().unwrap().path, "MEMORY.md");
    press(&mut d, "n");
    let (done, total) = d.app.review.progress();
    assert_eq!((done, total), (7, 7));
    assert!(d.app.status.as_ref().unwrap().text.contains("press c to commit"));

    // Help overlay, then any key closes it.
    press(&mut d, "?");
    assert!(matches!(d.app.mode, Mode::Help { .. }));
    let (help, help_styles) = render(&d);
    insta::assert_snapshot!("05_help", format!("{help}\nstyle-hash: {help_styles:016x}"));
    press(&mut d, "x");
    assert!(matches!(d.app.mode, Mode::Normal));

    // Quit asks while decisions are uncommitted.
    press(&mut d, "q");
    assert!(matches!(d.app.mode, Mode::ConfirmQuit));
    insta::assert_snapshot!("06_quit_confirm", snap(&d));
    press(&mut d, "n");
    assert!(!d.app.quit);

    // Commit: the message first, then the commit; the screen reloads.
    press(&mut d, "c");
    let Mode::CommitPreview { message, .. } = &d.app.mode else { panic!("no preview") };
    // It opens with the flags still standing on what it takes (each with its message on
    // the line under it), then the message.
    let flags_only: String =
        message.lines().filter(|l| !l.starts_with("          ")).map(|l| format!("{l}\n")).collect();
    assert!(message.contains("\n          «mid Nov 2026» is stated by no source"), "{message}");
    assert!(
        flags_only.starts_with(
            "Still standing on what this commit takes (2):\n  warning ci.md#1 inferred-date «mid Nov 2026» accepted\n  \
             warning review-ja.md#1 inferred-date «2026年11月20日» accepted\n\n\
             dream review: accept 3 of 7 changes from dream-2026-11-28"
        ),
        "{message}"
    );
    assert!(!message.contains("Zq8VbN2x"));
    press(&mut d, "<Enter>");
    assert!(d.app.busy.is_none());
    assert!(!d.app.dirty);
    assert!(d.app.status.as_ref().unwrap().text.starts_with("committed "), "{:?}", d.app.status);
    // After the commit, the accepted hunks are live; the rejected ones remain, decided.
    let (done, total) = d.app.review.progress();
    assert_eq!((done, total), (4, 4));

    // History: the review commit is listed, its diff opens in the same diff view.
    press(&mut d, "h");
    let Mode::History(h) = &d.app.mode else { panic!("no history") };
    assert_eq!(h.entries.len(), 2);
    insta::assert_snapshot!("07_history", snap(&d));
    press(&mut d, "<Enter>");
    insta::assert_snapshot!("08_history_diff", snap(&d));
    press(&mut d, "<Esc> <Esc>");
    assert!(matches!(d.app.mode, Mode::Normal));

    // Quitting after the commit needs no confirmation.
    let cmds = press(&mut d, "q");
    assert!(cmds.contains(&Cmd::Quit));
    assert!(d.app.quit);
}

#[test]
fn search_side_by_side_and_selection() {
    let mut d = open((120, 32), ThemeName::Dark);
    press(&mut d, "/ B u i l d k i t e <Enter>");
    assert_eq!(d.app.current_file().unwrap().path, "MEMORY.md");
    press(&mut d, "<C-n>");
    assert_eq!(d.app.current_file().unwrap().path, "ci.md");
    press(&mut d, "s");
    insta::assert_snapshot!("09_side_by_side", snap(&d));
    press(&mut d, "s");
    // v + j selects two changed lines; Space toggles both.
    press(&mut d, "] ] ] k v j <Space>");
    let fi = d.app.file;
    let lines = d.app.review.decisions[HunkId::new(fi, 0)].lines.clone();
    assert_eq!(lines.iter().filter(|l| **l == Decision::Accepted).count(), 2, "{lines:?}");
}

/// Search sees what the diff pane shows: a secret's hidden middle finds nothing (search
/// must not probe a masked value), its shown last characters find the line.
#[test]
fn search_never_matches_a_masked_secret() {
    let mut d = open((120, 32), ThemeName::Dark);
    press(&mut d, "/ N 2 x L k 4 T f R <Enter>");
    assert!(d.app.search.as_ref().is_some_and(|s| s.matches.is_empty()));
    assert!(d.app.status.as_ref().is_some_and(|s| s.error && s.text.contains("no match")), "{:?}", d.app.status);
    // C-n after a search that found nothing says so (not "press / first").
    d.app.status = None;
    press(&mut d, "<C-n>");
    assert!(d.app.status.as_ref().is_some_and(|s| s.text.starts_with("no match for")), "{:?}", d.app.status);
    press(&mut d, "/ Z 9 A A <Enter>");
    assert_eq!(d.app.current_file().unwrap().path, "database.md");
    assert_eq!(d.app.search.as_ref().map(|s| s.matches.len()), Some(1));
}

/// The claim a flag names is underlined in the diff even on a line holding a secret (the
/// flag carries the line masked, as every output does).
#[test]
fn a_secret_claim_is_highlighted_in_the_diff() {
    use ratatui::style::Modifier;
    let mut d = open((120, 32), ThemeName::Dark);
    press(&mut d, "<Tab> <Tab>");
    assert_eq!(d.app.current_file().unwrap().path, "database.md");
    let buf = script::render(&d.app);
    let diff = d.app.panes().diff;
    let found = (diff.y..diff.y + diff.height).find_map(|y| {
        let row: String = (diff.x..diff.x + diff.width).map(|x| buf[(x, y)].symbol().to_string()).collect();
        let col = row.find("[anthropic-key")?;
        Some((diff.x + row[..col].chars().count() as u16, y))
    });
    let (x, y) = found.expect("the masked secret is on screen");
    assert!(buf[(x + 2, y)].modifier.contains(Modifier::UNDERLINED), "the secret claim is not highlighted");
}

#[test]
fn no_color_and_light_themes_render() {
    let d = open((80, 24), ThemeName::Mono);
    let (text, mono) = render(&d);
    insta::assert_snapshot!("10_mono_80x24", format!("{text}\nstyle-hash: {mono:016x}"));
    let light = open((80, 24), ThemeName::Light);
    let (_, light_hash) = render(&light);
    assert_ne!(mono, light_hash);
}

#[test]
fn keys_wait_while_the_model_rebuilds_and_stale_results_are_dropped() {
    use dreamreview::faces::ui::msg::Msg;
    use dreamreview::faces::ui::update::update;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut d = open((100, 30), ThemeName::Dark);
    let review = d.app.review.clone();
    d.app.busy = Some("reloading".into());
    let y = KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE);
    assert!(update(&mut d.app, Msg::Key(y)).is_empty());
    assert_eq!(d.app.queued.len(), 1);
    assert_eq!(d.app.review.progress().0, 0, "a queued key is not applied to the old view");
    // An analysis of the old generation arriving now is dropped.
    let stale = dreamreview::analysis::result::Analysis::default();
    update(&mut d.app, Msg::Analyzed { generation: 7, analysis: Box::new(stale) });
    assert!(d.app.analysis.findings.all().next().is_some());
    // The rebuilt model arrives: the queued key is applied to it.
    let cmds = update(&mut d.app, Msg::Reloaded { generation: 1, review: Box::new(review) });
    assert!(d.app.busy.is_none());
    assert!(d.app.queued.is_empty());
    assert_eq!(d.app.review.progress().0, 1);
    assert!(cmds.contains(&Cmd::Analyze));
}

/// On a terminal too short for the key list (80x24), j/k scroll the help and the title
/// says which rows show; any other key closes it. Where it fits, any key closes it.
#[test]
fn help_scrolls_when_the_terminal_is_short() {
    let mut d = open((80, 24), ThemeName::Dark);
    press(&mut d, "?");
    let top = snap(&d);
    assert!(top.contains("Keys 1–22 of") && top.contains("j ↓ more"), "{top}");
    assert!(!top.contains("confirm"), "the last binding is below the fold:\n{top}");
    press(&mut d, "j j j");
    assert!(snap(&d).contains("Keys 4–25 of"), "{}", snap(&d));
    press(&mut d, "G");
    assert!(matches!(d.app.mode, Mode::Help { .. }), "moving keys scroll, they do not close");
    let bottom = snap(&d);
    assert!(bottom.contains("confirm") && bottom.contains("j/k scroll · any other key closes"), "{bottom}");
    assert!(bottom.contains("· k ↑") && !bottom.contains("j ↓ more"), "{bottom}");
    // Scrolling stops at the end: one k from the bottom moves up one row at once.
    press(&mut d, "j j j k");
    assert!(snap(&d).contains("Keys 20–41 of 42"), "{}", snap(&d));
    press(&mut d, "x");
    assert!(matches!(d.app.mode, Mode::Normal));
    // Tall enough: j closes like any key.
    let mut d = open((120, 40), ThemeName::Dark);
    press(&mut d, "?");
    assert!(snap(&d).contains(" Keys "));
    press(&mut d, "j");
    assert!(matches!(d.app.mode, Mode::Normal));
}

/// Whatever the keys, the cursor row is on screen, and moving down scrolls no further than
/// needed (the row above the top would not fit), wrapped rows counted by their height.
#[test]
fn the_cursor_stays_on_screen_with_the_least_scrolling() {
    let mut d = open((80, 14), ThemeName::Dark);
    let mut scrolled = 0;
    for keys in [
        "j j j j j j j j j j j j",
        "] ] ]",
        "j",
        "[",
        "<Tab>",
        "] ]",
        "j j j j j j j j",
        "<Tab> <Tab>",
        "] ] ] ]",
        "k k k",
        "g",
        "G",
    ] {
        let before = d.app.scroll;
        press(&mut d, keys);
        let app = &d.app;
        let height = app.diff_height().max(1);
        let used: usize = (app.scroll..=app.cursor).map(|r| app.row_height(r)).sum();
        assert!(app.cursor >= app.scroll, "{keys}: cursor {} above scroll {}", app.cursor, app.scroll);
        assert!(used <= height || app.scroll == app.cursor, "{keys}: cursor below the screen ({used} > {height})");
        if app.scroll > before {
            scrolled += 1;
            let with_one_more: usize = (app.scroll - 1..=app.cursor).map(|r| app.row_height(r)).sum();
            assert!(with_one_more > height, "{keys}: scrolled to {} where {} would do", app.scroll, app.scroll - 1);
        }
    }
    assert!(scrolled >= 2, "the keys should scroll the diff ({scrolled} times)");
}

#[test]
fn mouse_click_selects_and_wheel_scrolls() {
    use dreamreview::faces::ui::msg::Msg;
    use dreamreview::faces::ui::update::update;
    use ratatui::crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mut d = open((100, 30), ThemeName::Dark);
    let click = |column, row| MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    };
    // Third file in the list (row 0 is the border).
    update(&mut d.app, Msg::Mouse(click(5, 3)));
    assert_eq!(d.app.current_file().unwrap().path, "database.md");
    let before = d.app.cursor;
    update(
        &mut d.app,
        Msg::Mouse(MouseEvent { kind: MouseEventKind::ScrollUp, column: 40, row: 5, modifiers: KeyModifiers::NONE }),
    );
    assert!(d.app.cursor < before);
    // A click on a diff row moves the cursor there.
    let panes = d.app.panes();
    update(&mut d.app, Msg::Mouse(click(panes.diff.x + 10, panes.diff.y + 3)));
    assert_eq!(d.app.cursor, 2, "row 2 of the diff (after the header and one line)");
    update(&mut d.app, Msg::Resize(80, 24));
    assert_eq!(d.app.size, (80, 24));
    // Shrunk to a sliver and grown back, the pane shows the rows above the cursor again
    // (the hunk header included) instead of keeping the sliver's scroll.
    press(&mut d, "G");
    update(&mut d.app, Msg::Resize(30, 8));
    assert!(d.app.scroll > 0);
    update(&mut d.app, Msg::Resize(100, 40));
    assert_eq!(d.app.scroll, 0, "a short diff fits a tall pane from its first row");

    // Under an overlay the mouse reaches no pane: the wheel scrolls the help, a click does
    // not change the file behind it.
    let mut d = open((80, 24), ThemeName::Dark);
    press(&mut d, "?");
    let wheel = MouseEvent { kind: MouseEventKind::ScrollDown, column: 40, row: 10, modifiers: KeyModifiers::NONE };
    update(&mut d.app, Msg::Mouse(wheel));
    assert!(snap(&d).contains("Keys 4–25 of"), "{}", snap(&d));
    let file = d.app.file;
    update(&mut d.app, Msg::Mouse(click(3, 3)));
    assert_eq!(d.app.file, file);

    // A file list too short for every file scrolls to keep the current one on screen; a
    // click picks the file drawn at that row, not the one at that index from the top.
    let mut d = open((80, 8), ThemeName::Dark);
    press(&mut d, "<S-Tab>");
    let last = d.app.review.files.len() - 1;
    assert_eq!(d.app.file, last);
    let files = d.app.panes().files;
    let visible = usize::from(files.height - 2);
    assert!(visible < d.app.review.files.len(), "the list must scroll in this test");
    let drawn_first = snap(&d).lines().nth(1).unwrap().to_string();
    update(&mut d.app, Msg::Mouse(click(files.x + 3, files.y + 1)));
    let path = d.app.current_file().unwrap().path.clone();
    assert_eq!(d.app.file, last + 1 - visible);
    assert!(drawn_first.contains(&path[..path.len().min(4)]), "clicked {path}, the row showed {drawn_first}");
}

#[test]
fn the_same_review_in_the_tui_and_with_apply_gives_the_same_tree() {
    let tree = |memory: &std::path::Path| {
        let out =
            std::process::Command::new("git").args(["ls-tree", "-r", "HEAD"]).current_dir(memory).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // In the TUI: accept ci.md, review-ja.md and testing.md; reject or skip the rest; commit.
    let mut d = open((100, 30), ThemeName::Dark);
    press(&mut d, "<Tab> y n n n y y n c <Enter>");
    assert!(d.app.status.as_ref().unwrap().text.starts_with("committed "));
    let tui_tree = tree(&d.app.review.inputs.memory);
    // With apply, on a fresh copy of the demo.
    let dir = tempfile::tempdir().unwrap();
    let demo = dreamreview::faces::demo::materialize(dir.path()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dreamreview"))
        .env("XDG_CACHE_HOME", crate::common::cache_home())
        .args(["apply", demo.dream.to_str().unwrap(), "--memory", demo.memory.to_str().unwrap()])
        .args(["--accept", "ci.md#1,review-ja.md#1,testing.md#1"])
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(tree(&demo.memory), tui_tree);
    assert!(tui_tree.contains("ci.md") && !tui_tree.is_empty());
}

/// A decision on a selection of lines is one keypress, so one undo step.
#[test]
fn a_selection_decision_is_one_undo_step() {
    let mut d = open((100, 30), ThemeName::Dark);
    press(&mut d, "<Tab> <Tab>");
    assert_eq!(d.app.current_file().unwrap().path, "database.md");
    let fi = d.app.file;
    let rejected = |d: &Demo| {
        d.app.review.decisions[HunkId::new(fi, 0)].lines.iter().filter(|l| **l == Decision::Rejected).count()
    };
    // Select from the first changed line down over the next ones and reject them.
    while d.app.slot_of(d.app.cursor).is_none() {
        press(&mut d, "j");
    }
    press(&mut d, "v j j n");
    let n = rejected(&d);
    assert!(n >= 2, "a selection of several changed lines: {n}");
    press(&mut d, "u");
    assert_eq!(rejected(&d), 0, "one u undoes the whole selection");
    press(&mut d, "<C-r>");
    assert_eq!(rejected(&d), n, "one C-r redoes it");
}

/// `c` with nothing decided commits nothing; in the commit preview only Enter commits
/// (`y`, the review's accept key, closes it), and the keys stay visible on its frame.
#[test]
fn commit_needs_a_decision_and_enter() {
    let mut d = open((80, 24), ThemeName::Dark);
    press(&mut d, "c");
    assert!(matches!(d.app.mode, Mode::Normal));
    assert!(d.app.status.as_ref().unwrap().text.starts_with("nothing decided yet"), "{:?}", d.app.status);
    press(&mut d, "n c");
    let Mode::CommitPreview { message, .. } = &d.app.mode else { panic!("no preview") };
    // One hunk rejected, six undecided: neither is written, and the title says both.
    assert!(message.contains("\nRejected or left undecided (7):\n"), "{message}");
    assert!(snap(&d).contains(" Enter commit   e edit   Esc back to the review   j/k scroll "), "{}", snap(&d));
    press(&mut d, "<C-d>");
    assert!(matches!(d.app.mode, Mode::CommitPreview { scroll: 10, .. }));
    press(&mut d, "y");
    assert!(matches!(d.app.mode, Mode::Normal));
    assert!(d.app.dirty, "y did not commit");
    press(&mut d, "c <Enter>");
    assert!(!d.app.dirty);
    assert!(d.app.status.as_ref().unwrap().text.starts_with("committed "), "{:?}", d.app.status);
}

/// Decisions restored from an earlier session are not committed: `q` asks.
#[test]
fn restored_decisions_make_quit_ask() {
    let dir = tempfile::tempdir().unwrap();
    let demo = dreamreview::faces::demo::materialize(dir.path()).unwrap();
    let inputs = dreamreview::inputs::dream::discover(Some(&demo.dream), None, &[]).unwrap();
    let mut review = dreamreview::store::repo::load_review(inputs).unwrap();
    review.set_hunk(HunkId::new(0, 0), Decision::Rejected).unwrap();
    let mut app = App::new(review, Theme::new(ThemeName::Dark), (80, 24));
    script::drive(&mut app, "q").unwrap();
    assert!(matches!(app.mode, Mode::ConfirmQuit));
    assert!(!app.quit);
}

/// On a hunk `y` would refuse (live memory changed there), the status bar offers what
/// can be done instead.
#[test]
fn a_blocked_hunk_hints_edit_not_accept() {
    let mut d = open((100, 30), ThemeName::Dark);
    while d.app.current_file().unwrap().path != "deploy.md" {
        press(&mut d, "<Tab>");
    }
    let screen = snap(&d);
    let status = screen.lines().last().unwrap_or("");
    assert!(status.contains(" e edit to merge ") && !status.contains(" y accept "), "{status}");
}

/// With wrap off, a line that goes on past the pane ends in a mark, not silently.
#[test]
fn a_cut_line_is_marked_when_wrap_is_off() {
    let mut d = open((80, 24), ThemeName::Dark);
    assert!(!snap(&d).contains('›'), "{}", snap(&d));
    press(&mut d, "w");
    assert!(!d.app.wrap);
    let screen = snap(&d);
    assert!(screen.lines().any(|l| l.contains("›│")), "{screen}");
    press(&mut d, "w");
    assert!(!snap(&d).contains('›'));
}

/// The commit preview opens with the flags standing on what the commit takes, errors
/// before warnings, each with its hunk id.
#[test]
fn the_commit_preview_opens_with_standing_flags_errors_first() {
    let mut d = open((100, 30), ThemeName::Dark);
    press(&mut d, "y");
    while d.app.current_file().unwrap().path != "database.md" {
        press(&mut d, "<Tab>");
    }
    // The secret asks first: `y` again takes it.
    press(&mut d, "y y c");
    let Mode::CommitPreview { message, .. } = &d.app.mode else { panic!("no preview") };
    // Each flag with its message under it; the orphan-notes are those of the index lines
    // taken (git-rules.md's deletion is not: the note stays, and the index no longer
    // names it).
    let head: Vec<&str> = message.split("\n\n").next().unwrap().lines().filter(|l| !l.starts_with("     ")).collect();
    assert_eq!(head[0], "Still standing on what this commit takes (3):", "{message}");
    assert_eq!(head[1], "  error   database.md#1 secret «[anthropic-key …Z9AA]» accepted", "{message}");
    assert_eq!(head[2], "  warning MEMORY.md#1 orphan-note «database.md» accepted", "{message}");
    assert_eq!(head[3], "  warning MEMORY.md#1 orphan-note «git-rules.md» accepted", "{message}");
    assert!(message.contains("\n          database.md#1: an added line holds a credential"), "{message}");
}

/// After `c ⏎` the dream is reviewed: the reload shows every leftover decided as the commit
/// decided it (nothing pending, so no `y` or `a` silently undoes the review), the evidence
/// pane says `reviewed in <sha>: …`, and `A` reopens the leftovers, pending.
#[test]
fn a_reviewed_dream_stays_reviewed_until_reopened() {
    let mut d = open((100, 30), ThemeName::Dark);
    // Accept testing.md and ci.md, leave the rest undecided.
    while d.app.current_file().unwrap().path != "ci.md" {
        press(&mut d, "<Tab>");
    }
    press(&mut d, "y");
    while d.app.current_file().unwrap().path != "testing.md" {
        press(&mut d, "<Tab>");
    }
    press(&mut d, "y c <Enter>");
    assert!(d.app.status.as_ref().unwrap().text.starts_with("committed "), "{:?}", d.app.status);
    let (done, total) = d.app.review.progress();
    assert!(total > 0);
    assert_eq!(done, total, "leftovers came back pending after the commit");
    for f in 0..d.app.review.files.len() {
        for h in d.app.review.file_decisions(f) {
            assert_eq!(h.state(), HunkState::Rejected);
        }
    }
    let screen = snap(&d);
    assert!(screen.contains("This dream was reviewed in <sha>: 2 accepted, 5 rejected"), "{screen}");
    press(&mut d, "A");
    let (done, total) = d.app.review.progress();
    assert_eq!((done, total > 0), (0, true), "A reopens every leftover");
    assert!(d.app.status.as_ref().unwrap().text.contains("pending again"), "{:?}", d.app.status);
    press(&mut d, "u");
    assert_eq!(d.app.review.progress().0, total, "A is one undo step");
}

/// The demo's temp copy is deleted on exit: its quit prompt says so and names `--keep`,
/// never promising that reopening restores the decisions.
#[test]
fn the_demo_quit_prompt_promises_no_restore() {
    let mut d = open((100, 30), ThemeName::Dark);
    d.app.throwaway = Some(std::path::PathBuf::from(&d.root));
    press(&mut d, "y q");
    let screen = snap(&d).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(screen.contains("is deleted when you"), "{screen}");
    assert!(screen.contains(" quit ") && screen.contains(" stay"), "the keys are cut off: {screen}");
    assert!(screen.contains("--keep DIR"), "{screen}");
    assert!(!screen.contains("restores them"), "{screen}");
}

/// While a search is active, `n`/`N` step through its matches and decide nothing; the
/// status bar says so; `Esc` ends the search and `n` rejects again.
#[test]
fn a_search_never_decides() {
    let mut d = open((100, 30), ThemeName::Dark);
    let pending = |d: &Demo| d.app.review.decisions.values().all(|h| !h.is_decided());
    press(&mut d, "/ B u i l d <Enter>");
    let n = d.app.search.as_ref().map_or(0, |s| s.matches.len());
    assert!(n >= 2, "the demo has several matches for Build: {n}");
    let first = (d.app.file, d.app.cursor);
    press(&mut d, "n");
    assert!(pending(&d), "n while searching decided something");
    let second = (d.app.file, d.app.cursor);
    assert_ne!(second, first, "n moves to the next match");
    let status = snap(&d).lines().last().unwrap_or("").to_string();
    assert!(status.contains(&format!("/Build 2/{n} · n/N next · Esc ends search")), "{status}");
    insta::assert_snapshot!("11_search_status", status);
    press(&mut d, "N");
    assert!(pending(&d));
    assert_eq!((d.app.file, d.app.cursor), first, "N goes back");
    press(&mut d, "<C-n>");
    assert_eq!((d.app.file, d.app.cursor), second, "C-n still works");
    assert!(pending(&d));
    // Esc ends the search: n rejects again.
    press(&mut d, "<Esc>");
    assert!(d.app.search.is_none());
    let path = d.app.current_file().unwrap().path.clone();
    press(&mut d, "n");
    assert_eq!(decision(&d, &path), HunkState::Rejected);
}

/// The question on screen before an accept, when one is asked (and no other overlay is up).
fn question(d: &Demo) -> Option<String> {
    let screen = snap(d);
    let asked = screen.lines().find(|l| l.contains("accept anyway? y/N"))?;
    // The overlay's line, whatever the panes show beside it.
    let asked = asked.split('│').find(|part| part.contains("accept anyway? y/N"))?;
    Some(asked.trim().to_string())
}

fn to_file(d: &mut Demo, path: &str) {
    while d.app.current_file().unwrap().path != path {
        press(d, "<Tab>");
    }
}

/// `y` on a hunk carrying a secret asks first, naming the flag and the claim; anything
/// but `y` leaves it pending, `y` `y` accepts.
#[test]
fn accepting_an_error_flag_asks_first() {
    let mut d = open((100, 30), ThemeName::Dark);
    to_file(&mut d, "database.md");
    press(&mut d, "y");
    assert_eq!(question(&d).as_deref(), Some("database.md#1 holds [anthropic-key …Z9AA]: accept anyway? y/N"));
    assert_eq!(decision(&d, "database.md"), HunkState::Pending);
    insta::assert_snapshot!("12_accept_secret_confirm", snap(&d));
    press(&mut d, "n");
    assert!(matches!(d.app.mode, Mode::Normal));
    assert_eq!(decision(&d, "database.md"), HunkState::Pending, "n cancels");
    press(&mut d, "y <Esc>");
    assert_eq!(decision(&d, "database.md"), HunkState::Pending, "Esc cancels");
    press(&mut d, "y y");
    assert_eq!(decision(&d, "database.md"), HunkState::Accepted);

    // A PERMANENT note deleted: the same stop, naming the note's PERMANENT line.
    to_file(&mut d, "git-rules.md");
    press(&mut d, "y");
    assert!(!matches!(d.app.mode, Mode::Normal), "no question before deleting a PERMANENT note");
    let screen = snap(&d);
    assert!(screen.contains("git-rules.md#1 deletes a PERMANENT note («PERMANENT: never"), "{screen}");
    assert!(screen.contains("accept anyway? y/N"), "{screen}");
    press(&mut d, "x");
    assert_eq!(decision(&d, "git-rules.md"), HunkState::Pending);

    // live-changed stays refused as before, with no question.
    to_file(&mut d, "deploy.md");
    press(&mut d, "y");
    assert!(matches!(d.app.mode, Mode::Normal));
    assert_eq!(decision(&d, "deploy.md"), HunkState::Pending);
}

/// Line by line, only taking the flagged line asks; `a` asks once, naming the hunk.
#[test]
fn a_line_accept_asks_only_for_the_flagged_line() {
    let mut d = open((100, 30), ThemeName::Dark);
    to_file(&mut d, "database.md");
    let fi = d.app.file;
    while d.app.slot_of(d.app.cursor).is_none() {
        press(&mut d, "j");
    }
    // The first added line holds no secret: Space takes it without asking.
    press(&mut d, "<Space>");
    assert!(matches!(d.app.mode, Mode::Normal));
    assert_eq!(d.app.review.decisions[HunkId::new(fi, 0)].lines[0], Decision::Accepted);
    // A selection reaching the secret's line asks; cancelled, nothing changes.
    press(&mut d, "v j j y");
    assert!(question(&d).is_some(), "the selection takes the secret");
    press(&mut d, "n");
    assert_eq!(decision(&d, "database.md"), HunkState::Partial);
    assert_eq!(
        d.app.review.decisions[HunkId::new(fi, 0)].lines.iter().filter(|l| **l == Decision::Accepted).count(),
        1
    );
    // `a` asks once for the rest of the file, then accepts it.
    press(&mut d, "<Esc> a");
    assert_eq!(question(&d).as_deref(), Some("database.md#1 holds [anthropic-key …Z9AA]: accept anyway? y/N"));
    press(&mut d, "y");
    assert!(matches!(d.app.mode, Mode::Normal));
    assert_eq!(decision(&d, "database.md"), HunkState::Accepted);

    // Taking a line of git-rules.md other than its PERMANENT one deletes nothing
    // PERMANENT: no question; the PERMANENT line itself asks.
    to_file(&mut d, "git-rules.md");
    while d.app.slot_of(d.app.cursor).is_none() {
        press(&mut d, "j");
    }
    press(&mut d, "<Space>");
    assert!(matches!(d.app.mode, Mode::Normal), "the first line is not the PERMANENT one");
    let line_here = |d: &Demo| match d.app.current_row().map(|r| r.kind) {
        Some(RowKind::Line(i)) => d.app.current_file().unwrap().hunks[0].lines[i].text.clone(),
        _ => String::new(),
    };
    for _ in 0..20 {
        if line_here(&d).starts_with("PERMANENT") {
            break;
        }
        press(&mut d, "j");
    }
    assert!(line_here(&d).starts_with("PERMANENT"), "the PERMANENT line is in the hunk");
    press(&mut d, "<Space>");
    assert!(question(&d).is_some(), "taking the PERMANENT line's removal asks");
}

/// A first run over big transcripts builds their index on the way: the status bar says
/// "indexing transcripts" rather than "provenance" while it does.
#[test]
fn the_status_bar_says_when_transcripts_are_being_indexed() {
    use dreamreview::faces::ui::msg::Msg;
    use dreamreview::faces::ui::update::update;
    let mut d = open((100, 30), ThemeName::Dark);
    let generation = d.app.generation;
    update(&mut d.app, Msg::Progress { generation, done: 40, total: 100, indexing: true });
    assert!(snap(&d).contains("indexing transcripts 40%"), "{}", snap(&d));
    update(&mut d.app, Msg::Progress { generation, done: 70, total: 100, indexing: false });
    let screen = snap(&d);
    assert!(screen.contains("provenance 70%") && !screen.contains("indexing"), "{screen}");
}
