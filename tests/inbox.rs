//! The inbox (`dreamreview` with no argument, `dreamreview inbox`) on a fake home with
//! several projects: a dream folder in the dreams folder, an in-place change in a memory
//! repository, a memory folder not under git, and a project whose transcripts Claude Code
//! deletes within the week. Driven as `inbox --json`, drawn through the real render path
//! into a `TestBackend`, and run in a tmux pane.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A fake machine: `HOME`, `XDG_DATA_HOME`, `XDG_CONFIG_HOME` and `CLAUDE_CONFIG_DIR` under one
/// temp folder (Claude Code's folder deliberately not `~/.claude`).
pub struct Home {
    _g: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    pub data: PathBuf,
    pub config: PathBuf,
    pub claude: PathBuf,
}

impl Home {
    pub fn env(&self) -> Vec<(&'static str, String)> {
        let s = |p: &Path| p.to_string_lossy().into_owned();
        vec![
            ("HOME", s(&self.home)),
            ("XDG_DATA_HOME", s(&self.data)),
            ("XDG_CONFIG_HOME", s(&self.config)),
            ("CLAUDE_CONFIG_DIR", s(&self.claude)),
        ]
    }

    pub fn run(&self, cwd: &Path, args: &[&str]) -> Run {
        let env = self.env();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        run_env(cwd, args, &env)
    }

    pub fn projects(&self) -> PathBuf {
        self.claude.join("projects")
    }

    /// The dreams folder's dream of `-home-dev-shop`.
    pub fn dream(&self) -> PathBuf {
        self.data.join("dreamreview/dreams/-home-dev-shop/dream-2026-11-02")
    }
}

fn committed(memory: &Path, files: &[(&str, &str)]) {
    for (p, t) in files {
        write(&memory.join(p), t);
    }
    git(memory, &["init", "-q"]);
    git(memory, &["add", "-A"]);
    git(memory, &["commit", "-qm", "notes"]);
}

fn age(path: &Path, days: u64) {
    let f = std::fs::File::options().write(true).open(path).unwrap();
    f.set_modified(SystemTime::now() - Duration::from_secs(86_400 * days)).unwrap();
}

/// The fake machine with four projects.
pub fn fake_home() -> Home {
    let g = tempfile::Builder::new().prefix("drinbox").tempdir().unwrap();
    let root = g.path().canonicalize().unwrap();
    let h = Home {
        home: root.join("home"),
        data: root.join("data"),
        config: root.join("config"),
        claude: root.join("claude"),
        root,
        _g: g,
    };
    std::fs::create_dir_all(&h.home).unwrap();
    // 1. The pnpm scenario: its memory repository and transcript under Claude Code's
    // projects folder, its dream folder in the dreams folder.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pnpm-migration");
    let shop = h.projects().join("-home-dev-shop");
    copy_dir(&src.join("project"), &shop);
    git(&shop.join("memory"), &["init", "-q"]);
    git(&shop.join("memory"), &["add", "-A"]);
    git(&shop.join("memory"), &["commit", "-qm", "notes"]);
    copy_dir(&src.join("dream-2026-11-02"), &h.dream());
    replace_in(
        &h.dream().join("memory.diff"),
        "/home/dev/.claude/projects/-home-dev-shop/memory",
        &shop.join("memory").to_string_lossy(),
    );
    // 2. An in-place change: a session rewrote a note of a memory repository.
    let api = h.projects().join("-home-bo-api/memory");
    committed(&api, &[("MEMORY.md", "# Memory\n\n- [Build](build.md)\n"), ("build.md", "Build with make.\n")]);
    write(&api.join("build.md"), "Build with make.\nRelease builds run `make dist`.\n");
    // 3. A memory folder with no git.
    write(&h.projects().join("-home-cy-notes/memory/MEMORY.md"), "# Memory\n");
    // 4. An in-place change in a project whose transcript is 26 days old (Claude Code's
    // default keeps 30 days).
    let old = h.projects().join("-home-di-old");
    committed(&old.join("memory"), &[("MEMORY.md", "# Memory\n\n- Deploys on Fridays.\n")]);
    write(&old.join("memory/MEMORY.md"), "# Memory\n\n- Deploys on Thursdays.\n");
    let transcript = old.join("0a1b2c3d-0000-4000-8000-000000000001.jsonl");
    write(
        &transcript,
        "{\"type\":\"user\",\"timestamp\":\"2026-11-01T09:00:00Z\",\"message\":{\"role\":\"user\",\"content\":\"we deploy on Thursdays now\"}}\n",
    );
    age(&transcript, 26);
    h
}

fn rows(v: &serde_json::Value) -> Vec<(String, String, String)> {
    v["dreams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["project"].as_str().unwrap().to_string(),
                r["kind"].as_str().unwrap().to_string(),
                r["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn row<'a>(v: &'a serde_json::Value, project: &str) -> &'a serde_json::Value {
    v["dreams"].as_array().unwrap().iter().find(|r| r["project"] == project).unwrap()
}

#[test]
fn inbox_json_lists_every_waiting_dream_of_the_machine() {
    let h = fake_home();
    let r = h.run(&h.home, &["inbox", "--json"]);
    assert_eq!(r.code, 0, "{}", r.both());
    let v = json(&r);
    let s = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
    assert_eq!(
        rows(&v),
        vec![
            s("-home-dev-shop", "dream-folder", "ready"),
            s("-home-bo-api", "claude-memory", "ready"),
            s("-home-cy-notes", "claude-memory", "not-under-git"),
            s("-home-di-old", "claude-memory", "ready"),
        ],
        "{}",
        r.stdout
    );
    // The dream is checked as `check` checks it.
    let shop = row(&v, "-home-dev-shop");
    assert_eq!(shop["date"], "2026-11-02");
    assert_eq!(shop["memory"], h.projects().join("-home-dev-shop/memory").to_str().unwrap());
    let check =
        h.run(&h.home, &["check", h.dream().to_str().unwrap(), "--memory", shop["memory"].as_str().unwrap(), "--json"]);
    let c = json(&check);
    assert_eq!(shop["hunks"], c["summary"]["hunks"], "{}", check.stdout);
    assert_eq!(shop["errors"], c["summary"]["flags"]["error"]);
    assert_eq!(shop["warnings"], c["summary"]["flags"]["warning"]);
    assert!(shop["hunks"].as_u64().unwrap() > 0);
    let api = row(&v, "-home-bo-api");
    assert_eq!((api["files"].as_u64(), api["hunks"].as_u64()), (Some(1), Some(1)), "{api}");
    // The folder with no git says how to give it one.
    let notes = row(&v, "-home-cy-notes");
    assert!(notes["hint"].as_str().unwrap().contains("dreamreview snapshot --init"), "{notes}");
    // Claude Code deletes the old project's transcript in 4 days; nobody else's.
    assert_eq!(row(&v, "-home-di-old")["expiring"], serde_json::json!({"transcripts": 1, "days_left": 4}));
    assert!(row(&v, "-home-bo-api")["expiring"].is_null());
}

/// A dream of the dreams folder opens by its path from anywhere (or with plain
/// `dreamreview` inside it), against its project's memory folder even when its memory.diff
/// names a folder of another machine.
#[test]
fn a_dream_of_the_dreams_folder_opens_from_anywhere() {
    let h = fake_home();
    replace_in(
        &h.dream().join("memory.diff"),
        &h.projects().join("-home-dev-shop/memory").to_string_lossy(),
        "/home/dev/.claude/projects/-home-dev-shop/memory",
    );
    let v = json(&h.run(&h.root, &["check", h.dream().to_str().unwrap(), "--json"]));
    assert_eq!(v["memory"]["path"], h.projects().join("-home-dev-shop/memory").to_str().unwrap(), "{}", v["memory"]);
    let listed = json(&h.run(&h.home, &["inbox", "--json"]));
    assert_eq!(row(&listed, "-home-dev-shop")["state"], "ready");
}

#[test]
fn a_reviewed_dream_leaves_the_inbox() {
    let h = fake_home();
    let memory = h.projects().join("-home-dev-shop/memory");
    let a =
        h.run(&h.home, &["apply", h.dream().to_str().unwrap(), "--memory", memory.to_str().unwrap(), "--reject-all"]);
    assert!(a.code <= 1, "{}", a.both());
    let v = json(&h.run(&h.home, &["inbox", "--json"]));
    assert!(rows(&v).iter().all(|(p, _, _)| p != "-home-dev-shop"), "{v}");
    // Committing an in-place change leaves nothing in place either.
    let api = h.projects().join("-home-bo-api/memory");
    git(&api, &["commit", "-qam", "reviewed by hand"]);
    let v = json(&h.run(&h.home, &["inbox", "--json"]));
    assert!(rows(&v).iter().all(|(p, _, _)| p != "-home-bo-api"), "{v}");
}

#[test]
fn configured_dreams_folders_and_workspaces_are_listed() {
    let h = fake_home();
    let extra = h.root.join("elsewhere");
    copy_dir(&h.dream(), &extra.join("dream-2026-11-03"));
    std::fs::remove_dir_all(h.dream()).unwrap();
    let ws = h.root.join("claw");
    committed(&ws, &[("MEMORY.md", "# Memory\n")]);
    write(&ws.join("MEMORY.md"), "# Memory\n\n- Staging runs Kubernetes 1.30.\n");
    write(
        &h.config.join("dreamreview/config.toml"),
        &format!("dreams_dirs = [{:?}]\nopenclaw_workspaces = [{:?}]\n", extra.display(), ws.display()),
    );
    let v = json(&h.run(&h.home, &["inbox", "--json"]));
    let all = rows(&v);
    assert!(all.contains(&("elsewhere".into(), "dream-folder".into(), "ready".into())), "{v}");
    assert!(all.contains(&("claw".into(), "openclaw".into(), "ready".into())), "{v}");
}

/// The screen, drawn from the real view with the rows the command line computes.
pub fn inbox_screen(
    h: &Home,
    size: (u16, u16),
    theme: dreamreview::faces::ui::theme::ThemeName,
) -> ratatui::buffer::Buffer {
    use dreamreview::faces::ui::inbox::{Inbox, Msg, update, view};
    let places = dreamreview::inputs::inbox::Places {
        dreams_dir: Some(h.data.join("dreamreview/dreams")),
        extra_dreams_dirs: Vec::new(),
        projects: Some(h.projects()),
        openclaw_workspaces: Vec::new(),
    };
    let found = dreamreview::inputs::inbox::discover(&places);
    let retention = dreamreview::inputs::retention::Retention::in_config(&h.claude);
    let (mut app, _) = Inbox::new(dreamreview::faces::ui::theme::Theme::new(theme), None);
    update(&mut app, Msg::Found { generation: 1, places: found.clone() });
    // The rows arrive out of order, as the worker may send them: each goes to its place.
    for (index, place) in found.iter().enumerate().rev() {
        let row = dreamreview::store::waiting::check(place, None, &retention).map(Box::new);
        update(&mut app, Msg::Checked { generation: 1, index, row });
    }
    for _ in 0..3 {
        update(&mut app, Msg::Key(ratatui::crossterm::event::KeyEvent::from(ratatui::crossterm::event::KeyCode::Down)));
    }
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(size.0, size.1)).unwrap();
    terminal.draw(|f| view::view(&app, f)).unwrap();
    terminal.backend().buffer().clone()
}

#[test]
fn the_inbox_screen() {
    let h = fake_home();
    let buf = inbox_screen(&h, (110, 14), dreamreview::faces::ui::theme::ThemeName::Dark);
    let text = dreamreview::faces::ui::snapshot::to_text(&buf).replace(&h.root.display().to_string(), "<root>");
    let today = {
        let secs = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap().as_secs();
        dreamreview::base::date::Date::from_days((secs / 86_400) as i64).to_string()
    };
    insta::assert_snapshot!("inbox_screen", text.replace(&today, "<-today-->"));
}

/// In a real terminal (a tmux pane): plain `dreamreview` opens the inbox; Enter opens the
/// dream's review; quitting it brings the inbox back, re-scanned; quitting the inbox gives
/// the terminal back as it was.
#[test]
fn the_inbox_in_a_terminal_opens_a_review_and_comes_back() {
    use crate::terminal_safety::{assert_restored, start, tmux, tmux_available};
    if !tmux_available() {
        return;
    }
    let h = fake_home();
    let stty = h.root.join("stty.txt");
    let socket = format!("drinbox{}", std::process::id());
    let vars: Vec<String> = h.env().iter().map(|(k, v)| format!("{k}='{v}'")).collect();
    let bin = env!("CARGO_BIN_EXE_dreamreview");
    let command = format!(
        "cd '{}' && env {} TZ=UTC NO_COLOR=1 DREAMREVIEW_INDEX_INLINE_BYTES={} {bin}",
        h.home.display(),
        vars.join(" "),
        u64::MAX
    );
    start(&socket, &command, &stty);
    let pane = || tmux(&["-L", &socket, "capture-pane", "-p", "-t", "t"]);
    // As terminal_safety's, but a timeout shows the screen.
    let wait_for = |what: &str, ok: &dyn Fn() -> bool| {
        let start = std::time::Instant::now();
        while !ok() {
            if start.elapsed() > Duration::from_secs(30) {
                let screen = pane();
                tmux(&["-L", &socket, "kill-server"]);
                panic!("timed out waiting for {what}:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    wait_for("the inbox, every row checked", &|| pane().contains("4 dreams waiting"));
    tmux(&["-L", &socket, "send-keys", "-t", "t", "Enter"]);
    wait_for("the dream's review", &|| pane().contains("testing.md"));
    // Accept its one hunk and commit: the review stays open and says so.
    wait_for("the analysis", &|| !pane().contains('%'));
    tmux(&["-L", &socket, "send-keys", "-t", "t", "y"]);
    wait_for("the decision", &|| pane().contains("[accepted]"));
    tmux(&["-L", &socket, "send-keys", "-t", "t", "c"]);
    wait_for("the commit preview", &|| pane().contains("Enter"));
    tmux(&["-L", &socket, "send-keys", "-t", "t", "Enter"]);
    wait_for("the commit", &|| pane().contains("committed"));
    tmux(&["-L", &socket, "send-keys", "-t", "t", "q"]);
    // Back in the inbox, scanned again: the reviewed dream is gone, the others wait.
    wait_for("the inbox again", &|| {
        let p = pane();
        p.contains("back from -home-dev-shop") && p.contains("3 dreams waiting")
    });
    let screen = pane();
    assert!(screen.contains("-home-di-old") && !screen.contains("dream         1"), "{screen}");
    tmux(&["-L", &socket, "send-keys", "-t", "t", "q"]);
    assert_restored(&socket, &stty);
    tmux(&["-L", &socket, "kill-server"]);
}
