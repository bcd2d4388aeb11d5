//! The `L` overlay: what the dream left out (deleted notes first, with the sessions that
//! read them; then the user's corrections and lasting instructions the memory does not
//! hold), drawn by the real render path at 80×24 and 200×50; moving keys scroll it, any
//! other key closes it.

use dreamreview::faces::ui::script;
use dreamreview::faces::ui::snapshot::to_text;
use dreamreview::faces::ui::state::{Mode, Progress};
use dreamreview::faces::ui::theme::{Theme, ThemeName};

fn screen(size: (u16, u16)) -> (String, Mode) {
    let dir = tempfile::Builder::new().prefix("drtui").tempdir().unwrap();
    let mut app = script::open_demo(dir.path(), size, Theme::new(ThemeName::Dark)).unwrap();
    assert_eq!(app.progress, Progress::Done);
    script::drive(&mut app, "L").unwrap();
    let text = to_text(&script::render(&app)).replace(&dir.path().display().to_string(), "<demo>");
    script::drive(&mut app, "x").unwrap();
    (text, std::mem::replace(&mut app.mode, Mode::Normal))
}

#[test]
fn the_left_out_overlay_at_80x24_and_200x50() {
    let (small, after) = screen((80, 24));
    assert!(small.contains(" Left out ("), "{small}");
    assert!(matches!(after, Mode::Normal), "any other key closes it");
    insta::assert_snapshot!("left_out_80x24", small);
    let (large, _) = screen((200, 50));
    insta::assert_snapshot!("left_out_200x50", large);
}

const SESSION: &str = "8b2d4e6f-1a3c-4e5f-8a7b-9c0d1e2f3a4b";

/// `texts` appended to the demo's migration session as the user's, from its line 6 on.
fn append(dir: &std::path::Path, texts: &[String]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut lines = String::new();
    for (k, text) in texts.iter().enumerate() {
        let n = 6 + k;
        let line = serde_json::json!({
            "parentUuid": null, "isSidechain": false, "type": "user", "sessionId": SESSION,
            "uuid": format!("00000000-0000-4000-8000-{n:012}"),
            "timestamp": format!("2026-11-27T14:{:02}:00.000Z", 25 + k),
            "message": {"role": "user", "content": text},
        });
        lines.push_str(&(line.to_string() + "\n"));
    }
    std::fs::File::options()
        .append(true)
        .open(dir.join(format!("project/{SESSION}.jsonl")))?
        .write_all(lines.as_bytes())?;
    Ok(())
}

/// The demo opened at `size` with `texts` said by the user at the end of its migration
/// session, `keys` pressed: the screen, its temp folder cut.
fn scene(size: (u16, u16), texts: &[&str], keys: &str) -> String {
    let dir = tempfile::Builder::new().prefix("drtui").tempdir().unwrap();
    let texts: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    let theme = Theme::new(ThemeName::Dark);
    let mut app = script::open_demo_with(dir.path(), size, theme, |d| append(d, &texts)).unwrap();
    assert_eq!(app.progress, Progress::Done);
    script::drive(&mut app, keys).unwrap();
    to_text(&script::render(&app)).replace(&dir.path().display().to_string(), "<demo>")
}

/// The overlay's rows at 80×24 (the text between its borders), trimmed and joined: each
/// item reads as written however it wraps.
fn said(screen: &str) -> String {
    let rows = screen.lines().filter_map(|l| l.split('│').nth(2)).map(str::trim);
    rows.collect::<Vec<_>>().join(" ")
}

#[test]
fn the_left_out_overlay_lists_each_kind_with_its_transcript_line_at_80x24() {
    // A correction of the sub-agent's «12 columns», which the dream's added line still
    // says, and a lasting instruction no note holds.
    let texts = ["No, the invoices table has 13 columns, not 12.", "Remember that the staging database is read-only."];
    let text = scene((80, 24), &texts, "L");
    assert!(text.contains(" Left out (3) "), "{text}");
    for item in [
        "− deleted note git-rules.md (read in no session of the window)",
        "✗ correction at 8b2d4e6f….jsonl:6, contradicted by database.md:10: «No, the invoices table has 13 columns, not 12.»",
        "· instruction at 8b2d4e6f….jsonl:7, not in the memory: «Remember that the staging database is read-only»",
    ] {
        assert!(said(&text).contains(item), "{item}\n{text}");
    }
    // A wrapped item goes on under its own text, not under its mark.
    assert!(text.contains("│✗ correction at ") && text.contains("│  the invoices table has 13 columns"), "{text}");
    insta::assert_snapshot!("left_out_scene_80x24", text);
}

#[test]
fn the_left_out_overlay_scrolls_to_its_last_wrapped_row_at_80x24() {
    // 12 lasting instructions, each three rows at 80 columns: more rows than the box holds.
    let texts: Vec<String> = (1..=12)
        .map(|k| {
            format!("Remember that the reporting job number {k} only ever reads from the analytics replica database.")
        })
        .collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let top = scene((80, 24), &texts, "L");
    assert!(top.contains(" Left out (13) "), "{top}");
    assert!(!said(&top).contains("job number 12 only"), "{top}");
    let bottom = scene((80, 24), &texts, "L G");
    assert!(
        said(&bottom).contains(
            "«Remember that the reporting job number 12 only ever reads from the analytics replica database»"
        ),
        "{bottom}"
    );
    // Scrolled no further than the last row: it sits on the box's bottom border.
    let lines: Vec<&str> = bottom.lines().collect();
    let border = lines.iter().position(|l| l.starts_with("│  ╰")).unwrap_or_else(|| panic!("{bottom}"));
    assert!(lines[border - 1].contains("│  replica database»"), "{bottom}");
}
