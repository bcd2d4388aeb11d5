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
