//! Regenerates `screenshots/*.svg` from the real render path: the bundled demo opened as the
//! TUI would, driven by key scripts, drawn into a `TestBackend` and written out with its
//! colours. `why.svg` is `dreamreview why` after that review's commit, its transcript deleted,
//! drawn as a terminal shows the command's text.
//!
//! ```sh
//! cargo run --example screenshots
//! ```

use dreamreview::ui::script;
use dreamreview::ui::snapshot::to_svg;
use dreamreview::ui::theme::{Theme, ThemeName};
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
    // is checked at.
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

fn main() -> anyhow::Result<()> {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::create_dir_all(&out)?;
    for shot in SHOTS {
        let dir = tempfile::tempdir()?;
        let mut app = script::open_demo(dir.path(), shot.size, Theme::new(shot.theme))?;
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
    why_shot(&out)?;
    println!("wrote screenshots/why.svg");
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
    let repo =
        dreamreview::repo::MemoryRepo::discover(&memory)?.ok_or_else(|| anyhow::anyhow!("no demo repository"))?;
    let (note, line) = dreamreview::repo::why::parse_target(ARGS)?;
    let explanation = dreamreview::repo::why::explain(&repo, &note, line)?;
    let prompt = Line::styled(format!("~/project/memory$ dreamreview why {ARGS}"), Style::default().fg(Color::Green));
    let mut lines = vec![prompt];
    lines.extend(dreamreview::why::lines(&explanation).into_iter().map(Line::raw));
    let area = Rect::new(0, 0, SIZE.0, SIZE.1);
    let mut buf = Buffer::empty(area);
    Paragraph::new(Text::from(lines)).wrap(Wrap { trim: false }).render(area, &mut buf);
    let svg = to_svg(&buf, "#1c1c1c", "#d0d0d0").replace(&dir.path().display().to_string(), "/tmp/dreamreview-demo");
    std::fs::write(out.join("why.svg"), svg)?;
    Ok(())
}
