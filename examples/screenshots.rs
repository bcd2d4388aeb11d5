//! Regenerates `screenshots/*.svg` from the real render path: the bundled demo opened as the
//! TUI would, driven by key scripts, drawn into a `TestBackend` and written out with its
//! colours. `why.svg` is `dreamreview why` after that review's commit, its transcript deleted,
//! drawn as a terminal shows the command's text.
//!
//! ```sh
//! cargo run --example screenshots
//! ```

use dreamreview::faces::ui::script;
use dreamreview::faces::ui::snapshot::to_svg;
use dreamreview::faces::ui::theme::{Theme, ThemeName};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Text};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use std::path::Path;

struct Shot {
    file: &'static str,
    size: (u16, u16),
    theme: ThemeName,
    keys: &'static str,
    /// After the keys, `e` with the editor saving the hunk's text with (this, that) replaced.
    edit: Option<(&'static str, &'static str)>,
}

const SHOTS: &[Shot] = &[
    // The main view: a flagged hunk with the cited transcript line beside it.
    Shot { file: "review.svg", size: (150, 38), theme: ThemeName::Dark, keys: "<Tab>", edit: None },
    // A secret copied from a tool result, masked everywhere.
    Shot { file: "flagged-secret.svg", size: (120, 32), theme: ThemeName::Dark, keys: "<Tab> y", edit: None },
    // A hunk that overlaps a session's later edit: only an edit can take it.
    Shot { file: "live-changed.svg", size: (120, 32), theme: ThemeName::Dark, keys: "<Tab> y n", edit: None },
    // Side by side, in the light theme.
    Shot {
        file: "side-by-side-light.svg",
        size: (130, 32),
        theme: ThemeName::Light,
        keys: "<Tab> <Tab> <Tab> <Tab> <Tab> s",
        edit: None,
    },
    // The keys.
    Shot { file: "help.svg", size: (110, 34), theme: ThemeName::Dark, keys: "?", edit: None },
    // After a commit: the history, with the review commit's diff opened.
    Shot {
        file: "history.svg",
        size: (120, 32),
        theme: ThemeName::Dark,
        keys: "<Tab> y n n n y y n c <Enter> h <Enter>",
        edit: None,
    },
    // At 80x24: a review commit opened in the history, the evidence its review kept beside
    // its hunk (the accepted flag, the cited line, then the entry and the claims).
    Shot {
        file: "history-evidence-80x24.svg",
        size: (80, 24),
        theme: ThemeName::Dark,
        keys: "<Tab> y c <Enter> h <Enter>",
        edit: None,
    },
    // At 80x24: `b` on the line the review accepted, in the commit opened in the history:
    // why it is there, with what the review kept.
    Shot {
        file: "history-why.svg",
        size: (80, 24),
        theme: ThemeName::Dark,
        keys: "<Tab> y c <Enter> h <Enter> j b",
        edit: None,
    },
    // A standard 80x24 terminal.
    Shot {
        file: "small-80x24.svg",
        size: (80, 24),
        theme: ThemeName::Dark,
        keys: "<Tab> <Tab> <Tab> <Tab> <Tab>",
        edit: None,
    },
    // The commit preview opens with what still stands on what it takes: a secret accepted
    // after the question.
    Shot {
        file: "commit-standing-flag.svg",
        size: (120, 32),
        theme: ThemeName::Dark,
        keys: "<Tab> <Tab> y y c",
        edit: None,
    },
    // 80x24 in the light theme, and a big terminal (200x50) in both: the sizes the review
    // is checked at. At 80x24 database.md's cited lines are one line each, led by who said
    // them (tool Bash, assistant, sub-agent).
    Shot { file: "small-80x24-light.svg", size: (80, 24), theme: ThemeName::Light, keys: "<Tab> <Tab>", edit: None },
    Shot { file: "large-200x50.svg", size: (200, 50), theme: ThemeName::Dark, keys: "<Tab> <Tab>", edit: None },
    // `O`: the file list by risk, each row tagged with why it stands there.
    Shot { file: "triage-80x24.svg", size: (80, 24), theme: ThemeName::Dark, keys: "O", edit: None },
    Shot { file: "triage-200x50.svg", size: (200, 50), theme: ThemeName::Dark, keys: "O <Tab>", edit: None },
    Shot { file: "large-200x50-light.svg", size: (200, 50), theme: ThemeName::Light, keys: "<Tab>", edit: None },
    // An edited hunk: live against the reviewer's text, its flags checked again (the
    // invented date edited out, its inferred-date flag gone).
    Shot {
        file: "edited-hunk.svg",
        size: (120, 32),
        theme: ThemeName::Dark,
        keys: "<Tab>",
        edit: Some((" since mid Nov 2026", "")),
    },
];

// `L` on the demo with two more user lines in its migration session (see [`left_out_scene`]):
// the deleted note, the correction an added line contradicts, the instruction the memory
// does not hold.
const LEFT_OUT: &[Shot] = &[
    Shot { file: "left-out-80x24.svg", size: (80, 24), theme: ThemeName::Dark, keys: "L", edit: None },
    Shot { file: "left-out-200x50.svg", size: (200, 50), theme: ThemeName::Dark, keys: "L", edit: None },
];

fn main() -> anyhow::Result<()> {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::create_dir_all(&out)?;
    // `cargo run --example screenshots -- inbox.svg` writes only the images named.
    let only: Vec<String> = std::env::args().skip(1).collect();
    let wanted = |file: &str| only.is_empty() || only.iter().any(|o| o == file);
    if wanted("inbox.svg") {
        inbox_shot(&out)?;
        println!("wrote screenshots/inbox.svg");
    }
    let shots = SHOTS.iter().map(|s| (s, false)).chain(LEFT_OUT.iter().map(|s| (s, true)));
    for (shot, left_out) in shots.filter(|(s, _)| wanted(s.file)) {
        let dir = tempfile::tempdir()?;
        let theme = Theme::new(shot.theme);
        let mut app = if left_out {
            script::open_demo_with(dir.path(), shot.size, theme, left_out_scene)?
        } else {
            script::open_demo(dir.path(), shot.size, theme)?
        };
        script::highlight_all(&mut app);
        script::drive(&mut app, shot.keys).map_err(anyhow::Error::msg)?;
        if let Some((this, that)) = shot.edit {
            let h = app.current_hunk().and_then(|h| app.current_file()?.hunks.get(h)).map(|h| h.new_side());
            let text = h.unwrap_or_default().replace(this, that);
            script::edit(&mut app, &text).map_err(anyhow::Error::msg)?;
        }
        let (bg, fg) = match shot.theme {
            ThemeName::Light => ("#ffffff", "#1a1a1a"),
            _ => ("#1c1c1c", "#d0d0d0"),
        };
        let svg =
            to_svg(&script::render(&app), bg, fg).replace(&dir.path().display().to_string(), "/tmp/dreamreview-demo");
        std::fs::write(out.join(shot.file), svg)?;
        println!("wrote screenshots/{}", shot.file);
    }
    if wanted("why.svg") {
        why_shot(&out)?;
        println!("wrote screenshots/why.svg");
    }
    Ok(())
}

/// The demo's migration session, two user lines longer: after the sub-agent reported 12
/// columns, the user corrects it to 13 (the dream still adds «12 columns»: a lost
/// correction), then asks for a lasting rule no note holds.
fn left_out_scene(demo: &Path) -> anyhow::Result<()> {
    use std::io::Write;
    const SESSION: &str = "8b2d4e6f-1a3c-4e5f-8a7b-9c0d1e2f3a4b";
    let said = |n: usize, time: &str, text: &str| {
        let line = serde_json::json!({
            "parentUuid": null, "isSidechain": false, "type": "user", "sessionId": SESSION,
            "uuid": format!("00000000-0000-4000-8000-{n:012}"), "timestamp": time,
            "message": {"role": "user", "content": text},
        });
        line.to_string() + "\n"
    };
    let lines = said(6, "2026-11-27T14:25:00.000Z", "No, the invoices table has 13 columns, not 12.")
        + &said(7, "2026-11-27T14:26:00.000Z", "Remember that the staging database is read-only.");
    let path = demo.join(format!("project/{SESSION}.jsonl"));
    std::fs::File::options().append(true).open(&path)?.write_all(lines.as_bytes())?;
    Ok(())
}

/// The inbox on a machine with four projects: the demo's dream waiting in the dreams
/// folder, an in-place change, a memory folder with no git, and a project whose transcript
/// Claude Code deletes in 3 days. Drawn by the inbox's own view from the rows the command
/// line computes, in a 110×16 terminal.
fn inbox_shot(out: &Path) -> anyhow::Result<()> {
    use dreamreview::faces::ui::inbox::{Inbox, Msg, update, view};
    use ratatui::crossterm::event::{KeyCode, KeyEvent};
    use std::process::Command;
    const SIZE: (u16, u16) = (110, 16);
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    let projects = root.join("claude/projects");
    let dreams = root.join("data/dreamreview/dreams");
    let git = |dir: &Path, args: &[&str]| -> anyhow::Result<()> {
        let ok = Command::new("git")
            .args(["-c", "user.name=dev", "-c", "user.email=dev@example.com"])
            .args(args)
            .current_dir(dir)
            .status()?
            .success();
        anyhow::ensure!(ok, "git {args:?} failed in {}", dir.display());
        Ok(())
    };
    let write = |path: &Path, text: &str| -> anyhow::Result<()> {
        std::fs::create_dir_all(path.parent().unwrap_or(root))?;
        std::fs::write(path, text)?;
        Ok(())
    };
    // The demo's project under Claude Code's projects folder, its dream in the dreams folder.
    let demo = dreamreview::faces::demo::materialize(&root.join("demo"))?;
    let ledger = projects.join("-home-dev-ledger");
    std::fs::create_dir_all(&projects)?;
    std::fs::rename(root.join("demo/project"), &ledger)?;
    let dream = dreams.join("-home-dev-ledger").join(demo.dream.file_name().unwrap_or_default());
    std::fs::create_dir_all(dreams.join("-home-dev-ledger"))?;
    std::fs::rename(&demo.dream, &dream)?;
    let diff = std::fs::read_to_string(dream.join("memory.diff"))?;
    std::fs::write(
        dream.join("memory.diff"),
        diff.replace(&demo.memory.display().to_string(), &ledger.join("memory").display().to_string()),
    )?;
    // An in-place change in a memory repository.
    let api = projects.join("-home-dev-api/memory");
    write(&api.join("MEMORY.md"), "# Memory\n\n- [Build](build.md)\n")?;
    write(&api.join("build.md"), "Build with make.\n")?;
    git(&api, &["init", "-q"])?;
    git(&api, &["add", "-A"])?;
    git(&api, &["commit", "-qm", "notes"])?;
    write(&api.join("build.md"), "Build with make.\nRelease builds run `make dist`.\n")?;
    // A memory folder with no git.
    write(&projects.join("-home-dev-notes/memory/MEMORY.md"), "# Memory\n")?;
    // A project whose transcript is 27 days old.
    let old = projects.join("-home-dev-site");
    write(&old.join("memory/MEMORY.md"), "# Memory\n\n- Deploys on Fridays.\n")?;
    git(&old.join("memory"), &["init", "-q"])?;
    git(&old.join("memory"), &["add", "-A"])?;
    git(&old.join("memory"), &["commit", "-qm", "notes"])?;
    write(&old.join("memory/MEMORY.md"), "# Memory\n\n- Deploys on Thursdays.\n")?;
    let transcript = old.join("0a1b2c3d-0000-4000-8000-000000000001.jsonl");
    write(&transcript, "{}\n")?;
    let f = std::fs::File::options().write(true).open(&transcript)?;
    f.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(86_400 * 27))?;
    let places = dreamreview::inputs::inbox::Places {
        dreams_dir: Some(dreams),
        extra_dreams_dirs: Vec::new(),
        projects: Some(projects),
        openclaw_workspaces: Vec::new(),
    };
    let found = dreamreview::inputs::inbox::discover(&places);
    let retention = dreamreview::inputs::retention::Retention::in_config(&root.join("claude"));
    let (mut app, _) = Inbox::new(Theme::new(ThemeName::Dark), None);
    update(&mut app, Msg::Found { generation: 1, places: found.clone() });
    for (index, place) in found.iter().enumerate() {
        let row = dreamreview::store::waiting::check(place, None, &retention).map(Box::new);
        update(&mut app, Msg::Checked { generation: 1, index, row });
    }
    for _ in 0..3 {
        update(&mut app, Msg::Key(KeyEvent::from(KeyCode::Down)));
    }
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(SIZE.0, SIZE.1))?;
    terminal.draw(|f| view::view(&app, f))?;
    // The in-place rows' day is the day the picture is taken: pinned, so the image only
    // changes when the screen does.
    let today = {
        let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_secs();
        dreamreview::base::date::Date::from_days(i64::try_from(secs / 86_400)?).to_string()
    };
    let svg = to_svg(terminal.backend().buffer(), "#1c1c1c", "#d0d0d0")
        .replace(&root.join("claude").display().to_string(), "/home/dev/.claude")
        .replace(&root.join("data").display().to_string(), "/home/dev/.local/share")
        .replace(&today, "2026-11-28");
    std::fs::write(out.join("inbox.svg"), svg)?;
    Ok(())
}

/// The demo reviewed and committed as in `history.svg`, the transcript the accepted
/// testing.md line cites deleted, then `dreamreview why testing.md:7` in a 110×34 terminal.
fn why_shot(out: &Path) -> anyhow::Result<()> {
    const SIZE: (u16, u16) = (110, 34);
    const ARGS: &str = "testing.md:7";
    let dir = tempfile::tempdir()?;
    let mut app = script::open_demo(dir.path(), SIZE, Theme::new(ThemeName::Dark))?;
    script::drive(&mut app, "<Tab> y n n n y y n c <Enter>").map_err(anyhow::Error::msg)?;
    std::fs::remove_file(dir.path().join("project/3f1c9a52-7d4e-4b8a-9c1e-5a2f8e6d4b71.jsonl"))?;
    let memory = dir.path().join("project/memory");
    let repo = dreamreview::store::repo::MemoryRepo::discover(&memory)?
        .ok_or_else(|| anyhow::anyhow!("no demo repository"))?;
    let (note, line) = dreamreview::store::repo::why::parse_target(ARGS)?;
    let explanation = dreamreview::store::repo::why::explain(&repo, &note, line)?;
    let prompt = Line::styled(format!("~/project/memory$ dreamreview why {ARGS}"), Style::default().fg(Color::Green));
    let mut lines = vec![prompt];
    lines.extend(dreamreview::faces::why::lines(&explanation).into_iter().map(Line::raw));
    let area = Rect::new(0, 0, SIZE.0, SIZE.1);
    let mut buf = Buffer::empty(area);
    Paragraph::new(Text::from(lines)).wrap(Wrap { trim: false }).render(area, &mut buf);
    let svg = to_svg(&buf, "#1c1c1c", "#d0d0d0").replace(&dir.path().display().to_string(), "/tmp/dreamreview-demo");
    std::fs::write(out.join("why.svg"), svg)?;
    Ok(())
}
