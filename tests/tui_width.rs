//! Text width as the terminal draws it: a note whose added lines hold emoji sequences
//! (`⚠️`, a ZWJ family, flags, skin tones), combining marks, CJK and right-to-left text,
//! reviewed at 80 columns. ratatui draws one grapheme cluster per cell group, so every
//! cluster of every line must reach the screen (none cut off by a row measured too
//! narrow), rows must not end early (measured too wide), and the screen as text must hold
//! what the cells hold.

use crate::common::*;
use dreamreview::faces::ui::snapshot::to_text;
use dreamreview::faces::ui::state::App;
use dreamreview::faces::ui::text::{truncate, width, wrap};
use dreamreview::faces::ui::theme::{Theme, ThemeName};
use ratatui::buffer::Buffer;
use unicode_segmentation::UnicodeSegmentation;

/// The added lines, each built of one repeated cluster (and a few spaces).
fn lines() -> Vec<(&'static str, String)> {
    vec![
        ("warning sign + VS16", "⚠️".repeat(36)),
        ("ZWJ family", "👨\u{200d}👩\u{200d}👧 ".repeat(14)),
        ("flags", "🇯🇵🇫🇷".repeat(12)),
        ("skin tone", "👍🏽".repeat(30)),
        ("combining acute", "e\u{301}".repeat(70)),
        ("CJK", "日本語のメモ".repeat(8)),
        ("Hebrew and Arabic", "שָׁלוֹם مَرْحَبًا ".repeat(8)),
    ]
}

fn open(size: (u16, u16)) -> (tempfile::TempDir, App) {
    let added: String = lines().iter().map(|(_, l)| format!("{l}\n")).collect();
    let live = "# Notes\n\nKept line.\n";
    let (g, dream, memory) = dream_fixture(&[("wide.md", live)], &[("wide.md", &format!("{live}{added}"))], "");
    let inputs = dreamreview::inputs::dream::discover(Some(&dream), Some(&memory), &[]).unwrap();
    let review = dreamreview::store::repo::load_review(inputs).unwrap();
    (g, App::new(review, Theme::new(ThemeName::Dark), size))
}

/// How many cells of `buf` show the cluster `g`.
fn cells_showing(buf: &Buffer, g: &str) -> usize {
    buf.content.iter().filter(|c| c.symbol() == g).count()
}

#[test]
fn tui_width_every_cluster_reaches_the_screen_at_80_columns() {
    let (_g, app) = open((80, 40));
    let buf = dreamreview::faces::ui::script::render(&app);
    let screen = to_text(&buf);
    for (name, line) in lines() {
        let g = line.graphemes(true).next().unwrap();
        let want = line.graphemes(true).filter(|x| *x == g).count();
        assert_eq!(cells_showing(&buf, g), want, "{name}: {g:?} cut off\n{screen}");
    }
    // The screen as text has 80 columns per row, as the terminal does.
    for row in screen.lines() {
        assert_eq!(width(row), 80, "{row:?}");
    }
    insta::assert_snapshot!("wide_clusters_80", screen);
}

#[test]
fn tui_width_a_cluster_is_measured_as_drawn() {
    assert_eq!(width("⚠️"), 2);
    assert_eq!(width("👨\u{200d}👩\u{200d}👧"), 2);
    assert_eq!(width("🇯🇵"), 2);
    assert_eq!(width("👍🏽"), 2);
    assert_eq!(width("e\u{301}"), 1);
    assert_eq!(width("日本"), 4);
    assert_eq!(width("שָׁלוֹם"), 4);
    // Rows are cut between clusters, and fill their columns.
    let flags = "🇯🇵🇫🇷🇩🇪";
    let rows: Vec<&str> = wrap(flags, 5).into_iter().map(|r| &flags[r]).collect();
    assert_eq!(rows, ["🇯🇵🇫🇷", "🇩🇪"]);
    let thumbs = "👍🏽".repeat(4);
    assert_eq!(wrap(&thumbs, 8).len(), 1);
    let family = "a👨\u{200d}👩\u{200d}👧b";
    assert_eq!(truncate(family, 3), "a…");
    assert_eq!(truncate(family, 4), "a👨\u{200d}👩\u{200d}👧b");
    assert_eq!(truncate(&"⚠️".repeat(5), 5), "⚠️⚠️…");
}

/// A buffer holding a wide cluster reads back as text with every cell after it.
#[test]
fn tui_width_screen_text_keeps_what_follows_a_sequence() {
    let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 12, 1));
    buf.set_string(0, 0, "👨\u{200d}👩\u{200d}👧 family", ratatui::style::Style::default());
    assert_eq!(to_text(&buf), "👨\u{200d}👩\u{200d}👧 family   \n");
}
