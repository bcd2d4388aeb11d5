//! The screen says what it did, and only what is true (issue 29, parts 2–5): no review
//! commit that records nothing new (and no `c commit` offered after one), counts that add
//! up (a `partial` hunk is decided), the quit prompt promising a restore only where
//! decisions are saved, an in-place reject naming what it restored, no `y accept` with
//! nothing to decide, and undo saying what it undid and going there. TUI tests drive keys
//! on a TestBackend over real temp repositories; the CLI ones run the binary.

use crate::common::*;
use dreamreview::faces::ui::msg::Cmd;
use dreamreview::faces::ui::script;
use dreamreview::faces::ui::snapshot::to_text;
use dreamreview::faces::ui::state::{App, Mode, Progress};
use dreamreview::faces::ui::theme::{Theme, ThemeName};
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn screen(app: &App) -> String {
    to_text(&script::render(app))
}

fn status_bar(app: &App) -> String {
    screen(app).lines().last().unwrap_or_default().to_string()
}

fn status(app: &App) -> String {
    app.status.as_ref().map(|s| s.text.clone()).unwrap_or_default()
}

fn press(app: &mut App, keys: &str) -> Vec<Cmd> {
    script::drive(app, keys).unwrap()
}

fn demo(size: (u16, u16)) -> (tempfile::TempDir, App) {
    let dir = tempfile::Builder::new().prefix("drtui").tempdir().unwrap();
    let app = script::open_demo(dir.path(), size, Theme::new(ThemeName::Dark)).unwrap();
    assert_eq!(app.progress, Progress::Done);
    (dir, app)
}

fn commits(memory: &Path) -> usize {
    git(memory, &["rev-list", "--count", "HEAD"]).trim().parse().unwrap()
}

/// Opens a review of `dream` into `memory` (no dream: in-place) as the TUI does, analysed.
fn open(dream: Option<&Path>, memory: &Path, size: (u16, u16)) -> App {
    let inputs = dreamreview::inputs::dream::discover(dream, Some(memory), &[]).unwrap();
    let mut review = dreamreview::store::repo::load_review(inputs).unwrap();
    review.settle_reviewed();
    let analysis = dreamreview::analysis::analyze(&review);
    let mut app = App::new(review, Theme::new(ThemeName::Dark), size);
    let generation = app.generation;
    script::send(&mut app, dreamreview::faces::ui::msg::Msg::Analyzed { generation, analysis: Box::new(analysis) })
        .unwrap();
    app
}

// ---- part 2: no review commit that records nothing new ----

/// After `c ⏎` the dream is reviewed; `c` again takes no change and records nothing the
/// history does not hold: refused, said, no commit. The status bar offers no `c commit`
/// (nor `u undo`) meanwhile.
#[test]
fn a_reviewed_dream_reopened_commits_nothing_new() {
    let (_d, mut app) = demo((100, 30));
    let memory = app.review.inputs.memory.clone();
    press(&mut app, "y c <Enter>");
    assert!(status(&app).starts_with("committed "), "{}", status(&app));
    let after_first = commits(&memory);
    let bar = status_bar(&app);
    assert!(!bar.contains(" c commit ") && !bar.contains(" u undo "), "{bar}");
    press(&mut app, "c");
    assert!(matches!(app.mode, Mode::Normal), "no preview of an empty commit");
    assert!(status(&app).starts_with("nothing new to commit"), "{}", status(&app));
    press(&mut app, "<Enter>");
    assert_eq!(commits(&memory), after_first, "no empty review commit");
    // A fresh App on the reviewed dream (as reopening it): the same.
    let mut again = open(app.review.inputs.dream.as_deref(), &memory, (100, 30));
    assert!(
        !again.dirty,
        "a reviewed dream opened settled has no decision of this session: {:?}",
        again.review.decisions
    );
    press(&mut again, "c");
    assert!(status(&again).starts_with("nothing new to commit"), "{}", status(&again));
    press(&mut again, "<Enter>");
    assert_eq!(commits(&memory), after_first);
}

/// `apply --again` deciding the same is refused with exit 0; a first review that rejects
/// everything is still recorded (it is what keeps the dream reviewed).
#[test]
fn apply_again_deciding_the_same_commits_nothing() {
    let t = tempfile::tempdir().unwrap();
    let d = dreamreview::faces::demo::materialize(t.path()).unwrap();
    let cwd = d.dream.parent().unwrap();
    let before = commits(&d.memory);
    let r = run(cwd, &["apply", s(&d.dream), "--memory", s(&d.memory), "--reject-all"]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert_eq!(commits(&d.memory), before + 1, "the first review is recorded, rejecting everything");
    let r = run(cwd, &["apply", s(&d.dream), "--memory", s(&d.memory), "--reject-all", "--again"]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert!(r.stdout.contains("nothing new to commit"), "{}", r.both());
    assert_eq!(commits(&d.memory), before + 1, "no empty review commit");
    let log = run(&d.memory, &["log"]);
    assert!(log.stdout.contains("[review: 0 accepted, 7 rejected]"), "{}", log.both());
    // Deciding something new is committed.
    let r = run(cwd, &["apply", s(&d.dream), "--memory", s(&d.memory), "--accept", "testing.md#1", "--again"]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert_eq!(commits(&d.memory), before + 2);
}

// ---- part 3: counts are one function ----

/// A hunk with one line taken is decided (`partial`): the status bar and the file list
/// count it, as the commit does (it takes that line).
#[test]
fn a_partial_hunk_counts_as_decided() {
    let (_d, mut app) = demo((100, 30));
    let (_, total) = app.review.progress();
    press(&mut app, "<Space>");
    assert_eq!(app.review.progress(), (1, total));
    let text = screen(&app);
    assert!(status_bar(&app).contains(&format!(" 1/{total} decided ")), "{text}");
    assert!(text.contains(&format!("Files 1/{total}")), "{text}");
}

/// The reviewed banner's counts add up to the dream's hunks (an edited hunk is one of
/// them, not one more).
#[test]
fn the_reviewed_banner_adds_up() {
    let (_d, mut app) = demo((100, 30));
    let (_, total) = app.review.progress();
    press(&mut app, "y");
    script::edit(&mut app, "edited by hand\n").unwrap();
    press(&mut app, "c <Enter>");
    assert!(status(&app).starts_with("committed "), "{}", status(&app));
    let banner = app.review.reviewed_banner().unwrap();
    let numbers: usize = banner
        .split(": ")
        .nth(1)
        .unwrap()
        .split(", ")
        .map(|p| p.split_whitespace().next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(numbers, total, "{banner}");
    assert!(banner.ends_with(": 1 accepted, 1 edited, 5 rejected"), "{banner}");
}

// ---- part 4: every promise checked ----

/// On a folder in no git repository nothing is saved: the quit prompt must not promise
/// that reopening restores the decisions.
#[test]
fn the_quit_prompt_on_a_folder_without_git_promises_nothing() {
    let (_g, dream, memory) =
        dream_fixture(&[("a.md", "one\n")], &[("a.md", "one\ntwo\n")], "# Changes\n\n- memory/a.md: added two\n");
    let mut app = open(Some(&dream), &memory, (100, 30));
    press(&mut app, "n q");
    assert!(matches!(app.mode, Mode::ConfirmQuit));
    let text = screen(&app).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!text.contains("restores them"), "{text}");
    assert!(text.contains("They are not saved"), "{text}");
}

/// An in-place review: rejecting the work tree's edit puts `HEAD`'s text back on disk, and
/// the screen says so; with nothing left to decide, no `y accept` is offered.
#[test]
fn an_in_place_reject_says_what_it_restored() {
    let t = tempfile::tempdir().unwrap();
    let memory = t.path().join("memory");
    let lines: String = (1..=12).map(|i| format!("line {i}\n")).collect();
    write(&memory.join("a.md"), &lines);
    git(&memory, &["init", "-q"]);
    git(&memory, &["add", "-A"]);
    git(&memory, &["commit", "-qm", "notes"]);
    let dreamed = lines.replace("line 5\nline 6\n", "line 5 dreamed\nline 6 dreamed\n");
    write(&memory.join("a.md"), &dreamed);
    let mut app = open(None, &memory, (100, 30));
    press(&mut app, "n c <Enter>");
    assert!(status(&app).contains("restored a.md lines 5–6 from HEAD"), "{}", status(&app));
    assert_eq!(std::fs::read_to_string(memory.join("a.md")).unwrap(), lines);
    assert_eq!(app.review.progress().1, 0);
    let bar = status_bar(&app);
    assert!(!bar.contains(" y accept") && !bar.contains(" n reject"), "{bar}");
}

// ---- part 5: undo says what it undid ----

/// `u` after a decision that moved on to the next file: says what it undid and goes back
/// to that hunk.
#[test]
fn undo_says_what_it_undid_and_goes_there() {
    let (_d, mut app) = demo((100, 30));
    let first = app.current_file().unwrap().path.clone();
    let id = app.review.files[app.file].hunks[0].id.clone();
    press(&mut app, "y");
    assert_ne!(app.current_file().unwrap().path, first, "y moves on");
    press(&mut app, "u");
    assert_eq!(app.current_file().unwrap().path, first);
    assert_eq!(app.current_hunk(), Some(0));
    assert!(status(&app).starts_with(&format!("undid: accept {id}")), "{}", status(&app));
    press(&mut app, "<C-r>");
    assert!(status(&app).starts_with(&format!("redid: accept {id}")), "{}", status(&app));
}

/// A hunk the review took and a later `revert --hunk` took back is a leftover again: the
/// screen says it was reverted, with the revert, not merely `[rejected]`; the banner and
/// `check` say so too.
#[test]
fn a_reverted_hunk_shows_as_reverted() {
    let t = tempfile::tempdir().unwrap();
    let d = dreamreview::faces::demo::materialize(t.path()).unwrap();
    let cwd = d.dream.parent().unwrap();
    let r = run(cwd, &["apply", s(&d.dream), "--memory", s(&d.memory), "--accept", "ci.md#1,testing.md#1"]);
    assert_eq!(r.code, 0, "{}", r.both());
    let review = git(&d.memory, &["rev-parse", "--short=7", "HEAD"]).trim().to_string();
    let r = run(&d.memory, &["revert", &review, "--hunk", "testing.md#1", "--memory", s(&d.memory)]);
    assert_eq!(r.code, 0, "{}", r.both());
    let revert = git(&d.memory, &["rev-parse", "--short=7", "HEAD"]).trim().to_string();
    let mut app = open(Some(&d.dream), &d.memory, (100, 30));
    let banner = app.review.reviewed_banner().unwrap();
    assert!(banner.ends_with(&format!("; 1 of them reverted since ({revert})")), "{banner}");
    while app.current_file().unwrap().path != "testing.md" {
        press(&mut app, "<Tab>");
    }
    let text = screen(&app);
    assert!(text.contains(&format!("[reverted in {revert}]")), "{text}");
    // Every other leftover is just rejected.
    assert_eq!(text.matches("[reverted in").count(), 1, "{text}");
    let c = run(cwd, &["check", s(&d.dream), "--memory", s(&d.memory)]);
    assert!(c.stderr.contains(&format!("1 of them reverted since ({revert})")), "{}", c.both());
}

// ---- part 6: 80×24 first ----

/// Two notes whose names differ only in the middle never look the same in the file list.
#[test]
fn shortened_file_names_never_look_the_same() {
    let note = |n: &str| format!("# {n}\n\nabout {n}\n");
    let names = ["project-alpha-timeline.md", "project-beta-timeline.md", "project-gamma-timeline.md"];
    let live: Vec<(&str, String)> = names.iter().map(|n| (*n, note(n))).collect();
    let new: Vec<(&str, String)> = names.iter().map(|n| (*n, note(n) + "more\n")).collect();
    let live: Vec<(&str, &str)> = live.iter().map(|(a, b)| (*a, b.as_str())).collect();
    let new: Vec<(&str, &str)> = new.iter().map(|(a, b)| (*a, b.as_str())).collect();
    let (_g, dream, memory) = dream_fixture(&live, &new, "# Changes\n");
    let app = open(Some(&dream), &memory, (80, 24));
    let text = screen(&app);
    let shown: Vec<String> = text
        .lines()
        .skip(1)
        .take(3)
        .map(|l| l.split('│').nth(1).unwrap().chars().skip(3).collect::<String>().trim().to_string())
        .map(|l| l.rsplit_once(' ').unwrap().0.trim().to_string())
        .collect();
    assert_eq!(shown.len(), 3, "{text}");
    for (i, a) in shown.iter().enumerate() {
        for b in &shown[i + 1..] {
            assert_ne!(a, b, "two notes look the same:\n{text}");
        }
    }
}

/// Without colour (`NO_COLOR`) an error and a warning are told apart by their mark.
#[test]
fn flag_counts_are_labelled_without_colour() {
    let dir = tempfile::Builder::new().prefix("drtui").tempdir().unwrap();
    let mut app = script::open_demo(dir.path(), (80, 24), Theme::new(ThemeName::Mono)).unwrap();
    let text = screen(&app);
    assert!(text.contains("[pending] ⚠1"), "a warning is marked as one: {text}");
    while app.current_file().unwrap().path != "database.md" {
        press(&mut app, "<Tab>");
    }
    let text = screen(&app);
    assert!(text.contains("[pending] ✖1"), "an error is marked as one: {text}");
    assert!(text.contains("M✖ data") && text.contains("M⚠ MEMORY.md"), "{text}");
}

/// A message is not cut for `? help` and `q quit` when it fits without them.
#[test]
fn the_status_bar_drops_hints_before_it_cuts_a_message() {
    let (_d, mut app) = demo((64, 24));
    press(&mut app, "c");
    let msg = status(&app);
    assert!(msg.starts_with("nothing decided yet"), "{msg}");
    let bar = status_bar(&app);
    assert!(bar.contains(&msg), "the message is cut: {bar}");
}

/// The demo's first screen does not doubt the folder the demo itself made.
#[test]
fn the_demo_trusts_its_own_folder() {
    let t = tempfile::tempdir().unwrap();
    let d = dreamreview::faces::demo::materialize(t.path()).unwrap();
    let inputs = dreamreview::inputs::dream::discover(Some(&d.dream), Some(&d.memory), &[]).unwrap();
    let review = dreamreview::store::repo::load_review(inputs).unwrap();
    let first = dreamreview::faces::cli::demo_startup(&review, Vec::new()).status.unwrap();
    assert!(!first.contains("not a memory folder"), "{first}");
    assert!(first.contains(&d.memory.display().to_string()), "{first}");
}

// ---- part 7: colours ----

/// Hue (degrees) and saturation of a colour.
fn hue(r: u8, g: u8, b: u8) -> (f32, f32) {
    let (r, g, b) = (f32::from(r) / 255.0, f32::from(g) / 255.0, f32::from(b) / 255.0);
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let d = max - min;
    if d == 0.0 {
        return (0.0, 0.0);
    }
    let l = (max + min) / 2.0;
    let s = d / (1.0 - (2.0 * l - 1.0).abs());
    let h = if max == r {
        60.0 * ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) / d + 2.0)
    } else {
        60.0 * ((r - g) / d + 4.0)
    };
    (h, s)
}

/// Markdown highlighting never draws in the diff's red or green: an unchanged list line
/// must not look deleted (dark and light themes).
#[test]
fn syntax_colours_never_use_the_diff_hues() {
    use dreamreview::inputs::snapshot::Entry;
    let live =
        Entry::File(b"# Notes\n\n- a list item\n- **bold** item with `code`\n> a quote\n1. numbered\n\nend\n".to_vec());
    let new = Entry::File(
        b"# Notes\n\n- a list item\n- **bold** item with `code`\n> a quote\n1. numbered\n\nend\n- [link](x.md)\n"
            .to_vec(),
    );
    let f = dreamreview::model::diff::diff_file("n.md", Some(&live), Some(&live), Some(&new)).unwrap();
    for theme in [ThemeName::Dark, ThemeName::Light] {
        let h = dreamreview::faces::ui::highlight::Highlighter::new(theme).unwrap();
        for (_, hl) in h.colour(&f) {
            for (style, text) in hl.iter().flatten() {
                if let Some(ratatui::style::Color::Rgb(r, g, b)) = style.fg {
                    let (h, s) = hue(r, g, b);
                    let diff_hue = !(30.0..=330.0).contains(&h) || (75.0..=165.0).contains(&h);
                    assert!(s < 0.18 || !diff_hue, "{theme:?}: {text:?} drawn in #{r:02x}{g:02x}{b:02x} (hue {h})");
                }
            }
        }
    }
}

// ---- part 8: C-z ----

/// `C-z` asks the runtime to suspend (it leaves raw mode and the alternate screen, stops
/// with SIGTSTP and takes the terminal back on `fg`), from any screen, which stays as it
/// was.
#[test]
fn ctrl_z_suspends_from_any_screen() {
    let (_d, mut app) = demo((80, 24));
    let cmds = press(&mut app, "<C-z>");
    assert_eq!(cmds, vec![Cmd::Suspend]);
    press(&mut app, "n q");
    assert!(matches!(app.mode, Mode::ConfirmQuit));
    assert_eq!(press(&mut app, "<C-z>"), vec![Cmd::Suspend]);
    assert!(matches!(app.mode, Mode::ConfirmQuit), "the question is still there after fg");
    assert!(!app.quit);
}

// ---- part 9: the commit message can be edited ----

/// `C` opens the message in the editor git would use (the runtime runs it; here the
/// editor's answer is sent as it would come back): the reviewer's words are committed,
/// the trailers are dreamreview's whatever was typed, a credential typed is masked, and an
/// emptied message cancels the commit.
#[test]
fn the_commit_message_can_be_edited_and_keeps_its_trailers() {
    use dreamreview::faces::ui::msg::Msg;
    let (_d, mut app) = demo((100, 30));
    let memory = app.review.inputs.memory.clone();
    let before = commits(&memory);
    press(&mut app, "y");
    assert_eq!(press(&mut app, "C"), vec![Cmd::EditMessage]);
    let (from, text) = dreamreview::faces::ui::effects::message_to_edit(&app).unwrap();
    assert!(text.starts_with("dream review: accept 1 of 7"), "{text}");
    assert!(
        text.contains("# ") && !text.contains("\nDream-Id: "),
        "the trailers are not the reviewer's to edit: {text}"
    );
    // Emptied (only the # lines left): cancelled, nothing committed.
    let emptied: String = text.lines().filter(|l| l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    let answer = dreamreview::store::repo::message::edited_message(&from, &emptied);
    assert!(answer.is_none());
    script::send(&mut app, Msg::MessageEdited(Ok(None))).unwrap();
    assert!(status(&app).contains("nothing committed"), "{}", status(&app));
    assert_eq!(commits(&memory), before);
    // Rewritten, with a fake trailer and a token typed in.
    let token = format!("ghp_{}", "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5");
    let mine = format!("Take the index pointer only\n\nChecked by hand. Token {token}\nDream-Id: forged\n{text}");
    let full = dreamreview::store::repo::message::edited_message(&from, &mine).unwrap();
    script::send(&mut app, Msg::MessageEdited(Ok(Some((from.clone(), full))))).unwrap();
    let Mode::CommitPreview { message, .. } = &app.mode else { panic!("no preview: {}", status(&app)) };
    assert!(message.contains("Take the index pointer only"), "{message}");
    press(&mut app, "<Enter>");
    assert!(status(&app).starts_with("committed "), "{}", status(&app));
    let body = git(&memory, &["log", "-1", "--format=%B"]);
    assert!(body.starts_with("Take the index pointer only\n\nChecked by hand."), "{body}");
    assert!(!body.contains(&token), "{body}");
    let t = dreamreview::store::repo::message::parse_trailers(&body);
    assert_eq!(t.dream_id.as_deref(), Some(app.review.dream_id.as_str()), "{body}");
    assert!(t.review.is_some(), "{body}");
    assert!(!body.lines().any(|l| l.starts_with('#')), "{body}");
}

// ---- part 10: the evidence in a pager ----

/// `o` opens the hunk's cited transcript line in `$PAGER` (the runtime runs it): the
/// transcript rendered as turns (who, when, what was said; not raw JSON), the cited turn
/// marked, secrets masked, and the pager positioned there.
#[test]
fn o_opens_the_cited_transcript_as_readable_turns() {
    let (_d, mut app) = demo((80, 24));
    while app.current_file().unwrap().path != "ci.md" {
        press(&mut app, "<Tab>");
    }
    let cmds = press(&mut app, "o");
    let Some(Cmd::Pager { path, line, last }) = cmds.into_iter().find(|c| matches!(c, Cmd::Pager { .. })) else {
        panic!("o opened nothing: {}", status(&app))
    };
    assert!(path.to_string_lossy().ends_with(".jsonl") && line == 1, "{path:?}:{line}");
    assert!(status(&app).starts_with("opened 3f1c9a52"), "{}", status(&app));
    let (text, at) = dreamreview::faces::pager::render(&path, line, last, &app.review.zone).unwrap();
    assert!(!text.contains("{\"type\""), "raw JSON: {text}");
    let cited = text.lines().nth(at - 1).unwrap();
    assert!(cited.starts_with("▶▶ 1 · ") && cited.contains(" · user · cited"), "{cited}\n{text}");
    assert!(text.lines().nth(at).unwrap().starts_with("Heads up: we switched CI"), "{text}");
    assert!(text.contains("── 3 · ") && text.contains(" · assistant"), "{text}");
    let cmd = dreamreview::faces::pager::command("less -R", std::path::Path::new("/tmp/t.txt"), at);
    assert_eq!(cmd, format!("less -R +{at}g \"/tmp/t.txt\""));
}

/// On a hunk whose entries cite no transcript line, `o` says so and opens nothing.
#[test]
fn o_on_a_hunk_citing_nothing_says_so() {
    let (_d, mut app) = demo((80, 24));
    assert_eq!(app.current_file().unwrap().path, "MEMORY.md");
    let cmds = press(&mut app, "o");
    assert!(!cmds.iter().any(|c| matches!(c, Cmd::Pager { .. })), "{cmds:?}");
    assert!(status(&app).contains("cites none"), "{}", status(&app));
}

/// A credential said in a transcript stays masked in the pager.
#[test]
fn the_pager_masks_credentials() {
    let t = tempfile::tempdir().unwrap();
    let path = t.path().join("s.jsonl");
    let token = format!("ghp_{}", "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5");
    let line = format!(
        r#"{{"type":"user","message":{{"role":"user","content":"the token is {token} and \u001b[2J"}},"timestamp":"2026-03-05T10:00:00.000Z"}}"#
    );
    std::fs::write(&path, format!("{line}\n")).unwrap();
    let zone = dreamreview::base::zone::Zone::choose(None, Err("none".into()), None);
    let (text, _) = dreamreview::faces::pager::render(&path, 1, 1, &zone).unwrap();
    assert!(!text.contains(&token) && text.contains("[github-token"), "{text}");
    assert!(!text.contains('\u{1b}'), "{text:?}");
}

/// `r` in the history reverts and stays in the history, the revert listed at its top.
#[test]
fn a_revert_in_the_history_stays_in_the_history() {
    let (_d, mut app) = demo((100, 30));
    press(&mut app, "y y c <Enter>");
    assert!(status(&app).starts_with("committed "), "{}", status(&app));
    press(&mut app, "h <Enter> r y");
    let Mode::History(h) = &app.mode else { panic!("the revert left the history: {}", status(&app)) };
    assert_eq!(h.entries.len(), 3, "{:?}", h.entries.iter().map(|e| &e.summary).collect::<Vec<_>>());
    assert!(h.entries[0].summary.starts_with("Revert "), "{}", h.entries[0].summary);
    assert!(status(&app).contains("Revert "), "{}", status(&app));
}
