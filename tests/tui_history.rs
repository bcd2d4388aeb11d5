//! The history view of the TUI at 80×24, driven by scripted keys: an opened review commit
//! shows, beside each hunk, the evidence its review kept (`refs/notes/dreamreview`); a
//! commit without a note says why; a note that cannot be read, or that was written by
//! something else, is named or drawn safely.

use dreamreview::faces::ui::script;
use dreamreview::faces::ui::snapshot::to_text;
use dreamreview::faces::ui::state::{App, Mode, Progress};
use dreamreview::faces::ui::theme::{Theme, ThemeName};
use dreamreview::store::repo::git_notes::NOTES_REF;

struct Demo {
    _dir: tempfile::TempDir,
    app: App,
    root: String,
}

fn press(d: &mut Demo, keys: &str) {
    script::drive(&mut d.app, keys).unwrap();
}

/// The screen as text, temp paths, commit ids and dates normalised.
fn snap(d: &Demo) -> String {
    let text = to_text(&script::render(&d.app)).replace(&d.root, "<demo>");
    let text = regex::Regex::new(r"\b[0-9a-f]{40}\b").unwrap().replace_all(&text, "<commit>").into_owned();
    let text = regex::Regex::new(r"\b[0-9a-f]{7}\b").unwrap().replace_all(&text, "<sha>").into_owned();
    regex::Regex::new(r"\d{4}-\d\d-\d\d \d\d:\d\d [+-]\d{4}").unwrap().replace_all(&text, "<date>").into_owned()
}

/// The demo at 80×24 with ci.md accepted and committed from the keyboard.
fn reviewed() -> Demo {
    let dir = tempfile::Builder::new().prefix("drhist").tempdir().unwrap();
    let app = script::open_demo(dir.path(), (80, 24), Theme::new(ThemeName::Dark)).unwrap();
    assert_eq!(app.progress, Progress::Done);
    let mut d = Demo { root: dir.path().display().to_string(), _dir: dir, app };
    press(&mut d, "<Tab>");
    assert_eq!(d.app.current_file().unwrap().path, "ci.md");
    press(&mut d, "y c <Enter>");
    assert!(d.app.status.as_ref().unwrap().text.starts_with("committed "), "{:?}", d.app.status);
    d
}

fn repo(d: &Demo) -> git2::Repository {
    git2::Repository::discover(&d.app.review.inputs.memory).unwrap()
}

/// The opened commit's view.
fn opened(d: &Demo) -> &App {
    let Mode::History(h) = &d.app.mode else { panic!("not in the history") };
    h.view.as_deref().expect("no commit opened")
}

#[test]
fn an_opened_review_commit_shows_the_evidence_it_kept() {
    let mut d = reviewed();
    press(&mut d, "h <Enter>");
    assert_eq!(opened(&d).current_file().unwrap().path, "ci.md");
    let screen = snap(&d);
    // The hunk as taken, the accepted flag, the cited line with what it said.
    assert!(screen.contains("Kept evidence · ci.md#1"), "{screen}");
    assert!(screen.contains("ci.md#1 accepted in the review of dream-2026-11-28"), "{screen}");
    assert!(screen.contains("▶ 3f1c9a52….jsonl:1 user: \"Heads up: we switched CI"), "{screen}");
    insta::assert_snapshot!("history_kept_evidence", screen);
    // The rest scrolls into view in the evidence pane: entries in context, claims, message.
    press(&mut d, "t j j j j j j");
    let screen = snap(&d);
    assert!(screen.contains("↳ 3f1c9a52….jsonl:1"), "{screen}");
    assert!(screen.contains("▶   1 2026-11-26 10:02 UTC · user · Heads up"), "{screen}");
    insta::assert_snapshot!("history_kept_evidence_scrolled", screen);
}

#[test]
fn the_transcript_deleted_since_the_kept_text_still_shows() {
    let mut d = reviewed();
    let gone = remove_transcripts(&std::path::Path::new(&d.root).join("project"));
    assert!(gone >= 3, "{gone} transcripts removed");
    press(&mut d, "h <Enter>");
    assert!(snap(&d).contains("user: \"Heads up: we switched CI"), "{}", snap(&d));
}

#[test]
fn a_commit_without_a_note_says_why() {
    let mut d = reviewed();
    // The first commit, made before the review by dreamreview's snapshot: outside a review.
    press(&mut d, "h j <Enter>");
    let screen = snap(&d);
    assert!(screen.contains("No evidence kept: made outside a review."), "{screen}");
    insta::assert_snapshot!("history_no_evidence", screen);
    // The review commit, its note gone (as for a commit made before notes were kept).
    let r = repo(&d);
    let head = r.head().unwrap().peel_to_commit().unwrap().id();
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    r.note_delete(head, Some(NOTES_REF), &sig, &sig).unwrap();
    press(&mut d, "<Esc> k <Enter>");
    let screen = snap(&d);
    assert!(screen.contains("No evidence kept: commit made before dreamreview kept"), "{screen}");
}

#[test]
fn an_unreadable_or_hostile_note_is_named_or_drawn_safely() {
    let mut d = reviewed();
    let r = repo(&d);
    let head = r.head().unwrap().peel_to_commit().unwrap().id();
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    r.note(&sig, &sig, Some(NOTES_REF), head, "{\"format\": \"someone-else/3\"}", true).unwrap();
    press(&mut d, "h <Enter>");
    let screen = snap(&d);
    assert!(screen.contains("Evidence note unreadable: format \"someone-else/3\""), "{screen}");

    // A note written by hand: an unmasked key and a terminal escape in what it "kept".
    let key = "sk-ant-api03-Zq8VbN2xR4tY7uI1oP3aS5dF6gH8jK0lZ9XcV2bN4mQ6wE8rT1yU3iO5pA7sD9fG2hJ4kL6zX8cV0bN1mQ3wE5rT7yU9iO1pA3sD-Z9AA";
    let hostile = serde_json::json!({
        "format": "dreamreview-evidence/1", "dream": "d\u{1b}[2J", "dream_id": "x", "time_zone": "UTC",
        "hunks": [{"id": "ci.md#1", "path": "ci.md", "taken": "accepted",
            "lines": ["CI runs on Buildkite since mid Nov 2026: `.buildkite/pipeline.yml`.", "GitHub Actions was retired."],
            "entries": [{"label": "CHANGES.md #1", "text": format!("key {key}"), "citations": [
                {"location": "a.jsonl:9", "source": "a.jsonl", "resolved": true, "lines": [], "not_kept": 3}]}],
            "claims": [], "accepted_flags": []}]
    });
    r.note(&sig, &sig, Some(NOTES_REF), head, &hostile.to_string(), true).unwrap();
    press(&mut d, "<Esc> <Enter>");
    let screen = snap(&d);
    assert!(screen.contains("ci.md#1 accepted in the review of d"), "{screen}");
    assert!(!screen.contains("Zq8VbN2x"), "{screen}");
    assert!(screen.contains("[anthropic-key …Z9AA]"), "{screen}");
    assert!(!screen.contains('\u{1b}'), "{screen}");
    // A citation whose lines the note had no room for says so.
    press(&mut d, "t j j j j");
    let screen = snap(&d);
    assert!(screen.contains("[…] 3 lines not kept: the note was full"), "{screen}");
}

/// Deletes every `.jsonl` under `dir`, as Claude Code's cleanup would; returns how many.
fn remove_transcripts(dir: &std::path::Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            n += remove_transcripts(&path);
        } else if path.extension().is_some_and(|x| x == "jsonl") {
            std::fs::remove_file(&path).unwrap();
            n += 1;
        }
    }
    n
}

/// The opened commit's screen after `keys`, the why overlay expected on it.
fn why_screen(d: &mut Demo, keys: &str) -> String {
    press(d, keys);
    assert!(matches!(opened(d).mode, Mode::Why(_)), "no why overlay: {}", snap(d));
    snap(d)
}

#[test]
fn b_on_an_accepted_line_of_a_review_commit_shows_why_it_is_there() {
    let mut d = reviewed();
    // The cursor opens on the hunk's first change (the removed line); j: the first added one.
    let screen = why_screen(&mut d, "h <Enter> j b");
    assert!(screen.contains("╭ Why ci.md:7 "), "{screen}");
    assert!(screen.contains("ci.md:7  CI runs on Buildkite since mid Nov 2026"), "{screen}");
    assert!(screen.contains("from review <sha> of dream-2026-11-28"), "{screen}");
    assert!(screen.contains("cites 3f1c9a52….jsonl:1 — still there"), "{screen}");
    assert!(screen.contains("▶ 1  2026-11-26 10:02 user  Heads up: we switched CI from GitHub"), "{screen}");
    insta::assert_snapshot!("history_why", screen);
    // It scrolls to its end (the accepted flag), and Esc closes it on the same line.
    press(&mut d, "G");
    let screen = snap(&d);
    assert!(screen.contains("the calendar week Mon 2026-11-16 to"), "{screen}");
    press(&mut d, "<Esc>");
    assert!(matches!(opened(&d).mode, Mode::Normal));
    assert!(snap(&d).contains("Kept evidence · ci.md#1"), "{}", snap(&d));
    // The same key on the next line explains it again; a removed line says why it cannot.
    assert!(why_screen(&mut d, "j b").contains("ci.md:8  GitHub Actions was retired."));
    press(&mut d, "<Esc> k k b");
    assert!(matches!(opened(&d).mode, Mode::Normal));
    assert!(snap(&d).contains("removed by this commit: b works on + and context lines"), "{}", snap(&d));
}

#[test]
fn b_on_a_line_no_longer_in_the_note_says_so_and_why_it_was_written() {
    let mut d = reviewed();
    // A session edits the note after the review: the line the review took is gone.
    let note = d.app.review.inputs.memory.join("ci.md");
    let text = std::fs::read_to_string(&note).unwrap();
    assert!(text.contains("GitHub Actions was retired.\n"));
    std::fs::write(&note, text.replace("GitHub Actions was retired.\n", "")).unwrap();
    let screen = why_screen(&mut d, "h <Enter> j j b");
    assert!(screen.contains("╭ Why · no longer in ci.md "), "{screen}");
    assert!(screen.contains("this line is no longer in ci.md; it was written by commit <sha>"), "{screen}");
    assert!(screen.contains("ci.md:8 as of commit <sha>  GitHub Actions was retired."), "{screen}");
    assert!(screen.contains("from review <sha> of dream-2026-11-28"), "{screen}");
    insta::assert_snapshot!("history_why_gone", screen);
    // The line the review wrote before it is still there: explained where it is now.
    assert!(why_screen(&mut d, "<Esc> k b").contains("╭ Why ci.md:7 "), "{}", snap(&d));
}

#[test]
fn b_in_the_review_explains_a_line_of_the_live_note() {
    let dir = tempfile::Builder::new().prefix("drwhy").tempdir().unwrap();
    let app = script::open_demo(dir.path(), (80, 24), Theme::new(ThemeName::Dark)).unwrap();
    let mut d = Demo { root: dir.path().display().to_string(), _dir: dir, app };
    // ci.md's removed line is line 7 of the live note, written before any review.
    press(&mut d, "<Tab> b");
    let Mode::Why(w) = &d.app.mode else { panic!("no why overlay: {}", snap(&d)) };
    assert_eq!(w.title, " Why ci.md:7 ");
    let screen = snap(&d);
    assert!(screen.contains("ci.md:7  CI runs on GitHub Actions:"), "{screen}");
    assert!(screen.contains("written outside a review"), "{screen}");
    // An added line is not in the note yet.
    press(&mut d, "<Esc> j b");
    assert!(matches!(d.app.mode, Mode::Normal));
    assert!(d.app.status.as_ref().unwrap().text.starts_with("added line: not in the note yet"));
}

/// Reading the history, opening a commit and `b` run on a worker: while one is read the
/// screen says so and keys wait in the queue, then apply to the answer (here `j` moves to
/// the second commit of the list that was still being read when it was pressed).
#[test]
fn repository_reads_keep_the_screen_live_and_keys_wait_for_the_answer() {
    use dreamreview::faces::ui::effects;
    use dreamreview::faces::ui::msg::{Cmd, Msg};
    use dreamreview::faces::ui::update::update;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut d = reviewed();
    let key = |c: char| Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let memory = d.app.review.inputs.memory.clone();

    let cmds = update(&mut d.app, key('h'));
    assert_eq!(cmds, vec![Cmd::History]);
    assert_eq!(d.app.busy.as_deref(), Some("reading the history"));
    assert!(to_text(&script::render(&d.app)).contains("reading the history"), "the status bar says what it waits for");
    assert!(update(&mut d.app, key('j')).is_empty());
    assert_eq!(d.app.queued.len(), 1, "a key pressed while reading waits");

    let answer = effects::history(&memory);
    update(&mut d.app, answer);
    assert!(d.app.busy.is_none() && d.app.queued.is_empty());
    let Mode::History(h) = &d.app.mode else { panic!("the history did not open") };
    assert!(h.entries.len() >= 2, "{:?}", h.entries.len());
    assert_eq!(h.selected, Some(1), "the queued j applied to the list that arrived");

    let cmds = update(&mut d.app, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    let [Cmd::HistoryDiff(id)] = cmds.as_slice() else { panic!("{cmds:?}") };
    assert_eq!(d.app.busy.as_deref(), Some("opening the commit"));
    assert!(to_text(&script::render(&d.app)).contains("opening the commit…"), "the history's status bar says it too");
    let answer = effects::history_diff(&memory, id);
    update(&mut d.app, answer);
    assert!(d.app.busy.is_none());
    assert!(opened(&d).banner.is_some());
    let cmds = update(&mut d.app, key('b'));
    assert!(matches!(cmds.as_slice(), [Cmd::Why(_)]), "{cmds:?}");
    assert!(to_text(&script::render(&d.app)).contains("tracing the line through the history…"));
    let Cmd::Why(shown) = &cmds[0] else { unreachable!() };
    update(&mut d.app, effects::why(&memory, shown));
    assert!(d.app.busy.is_none());
    assert!(matches!(opened(&d).mode, Mode::Why(_)), "the answer opens over the commit that asked");
    update(&mut d.app, Msg::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)));

    // A read that crashes on the worker stops the wait and says so; the keys pressed for
    // the screen it would have opened are dropped, not applied to the review below.
    update(&mut d.app, Msg::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)));
    update(&mut d.app, Msg::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)));
    assert!(matches!(d.app.mode, Mode::Normal), "back on the review");
    let before = d.app.review.progress();
    assert_eq!(update(&mut d.app, key('h')), vec![Cmd::History]);
    update(&mut d.app, key('y'));
    update(&mut d.app, Msg::ReadFailed("reading the history crashed".into()));
    assert!(d.app.busy.is_none() && d.app.queued.is_empty());
    assert_eq!(d.app.review.progress(), before, "the y meant for the history decided nothing");
    assert_eq!(d.app.status.as_ref().map(|s| (s.text.as_str(), s.error)), Some(("reading the history crashed", true)));
}
