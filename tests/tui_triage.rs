//! Triage order and the mass-removal banner in the review TUI (TestBackend snapshots at
//! 80×24 and 200×50): `O` lists the files by risk, each row tagged with why it stands there,
//! and back; a dream over the cap on loss opens with a banner saying how much it removes,
//! its removals listed first.

use crate::common::dream_fixture;
use dreamreview::faces::ui::script;
use dreamreview::faces::ui::snapshot::to_text;
use dreamreview::faces::ui::state::{App, FileOrder, Risk};
use dreamreview::faces::ui::theme::{Theme, ThemeName};
use std::path::Path;

fn demo(size: (u16, u16)) -> (tempfile::TempDir, App, String) {
    let dir = tempfile::Builder::new().prefix("drtri").tempdir().unwrap();
    let app = script::open_demo(dir.path(), size, Theme::new(ThemeName::Dark)).unwrap();
    let root = dir.path().display().to_string();
    (dir, app, root)
}

fn screen(app: &App, root: &str) -> String {
    to_text(&script::render(app)).replace(root, "<root>")
}

/// The file list's paths in the order it shows them.
fn listed(app: &App) -> Vec<String> {
    app.file_order().into_iter().map(|fi| app.review.files[fi].path.clone()).collect()
}

#[test]
fn o_lists_the_files_by_risk_with_the_reason_and_back() {
    for size in [(80, 24), (200, 50)] {
        let (_g, mut app, root) = demo(size);
        let review_order = listed(&app);
        assert_eq!(app.order, FileOrder::Review);
        script::drive(&mut app, "O").unwrap();
        assert_eq!(app.order, FileOrder::Risk);
        let by_risk = listed(&app);
        assert_ne!(by_risk, review_order, "the demo's risks are not in path order");
        let risks: Vec<Risk> = app.file_order().into_iter().map(|fi| app.triage(fi).risk).collect();
        assert!(risks.windows(2).all(|w| w[0] <= w[1]), "{risks:?}");
        assert_eq!(risks.first(), Some(&Risk::Error), "{by_risk:?}");
        let text = screen(&app, &root);
        assert!(text.contains("By risk"), "{text}");
        if size.0 >= 200 {
            assert!(text.contains("secret") && text.contains("inferred-date"), "{text}");
        } else {
            assert!(text.contains("err ") && text.contains("wrn "), "{text}");
        }
        insta::assert_snapshot!(format!("triage_by_risk_{}x{}", size.0, size.1), text);
        // Tab walks the list as shown.
        let order = app.file_order();
        let at = order.iter().position(|&f| f == app.file).unwrap();
        script::drive(&mut app, "<Tab>").unwrap();
        assert_eq!(app.file, order[(at + 1) % order.len()]);
        script::drive(&mut app, "<S-Tab> <S-Tab>").unwrap();
        assert_eq!(app.file, order[(at + order.len() - 1) % order.len()]);
        script::drive(&mut app, "O").unwrap();
        assert_eq!(listed(&app), review_order);
        assert!(screen(&app, &root).contains(" Files "));
    }
}

#[test]
fn the_help_names_o() {
    let (_g, mut app, root) = demo((200, 50));
    script::drive(&mut app, "?").unwrap();
    assert!(screen(&app, &root).contains("files by risk / in review order"));
}

/// A dream deleting four notes of eight (and their index lines), opened as the TUI does.
fn mass_removal(size: (u16, u16)) -> (tempfile::TempDir, App, String) {
    let notes: Vec<(String, String)> = (0..8)
        .map(|i| (format!("topic{i}.md"), format!("# Topic {i}\n\nTopic {i} uses port {}.\n", 7000 + i)))
        .collect();
    let index: String = (0..8).map(|i| format!("- [Topic {i}](topic{i}.md)\n")).collect();
    let mut live: Vec<(&str, &str)> = notes.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    live.push(("MEMORY.md", &index));
    live.push(("aaa.md", "# A\n\nThe first note.\n"));
    // The index is left as it was; a note before the deletions gains a line.
    let mut proposed: Vec<(&str, &str)> =
        notes.iter().enumerate().filter(|(i, _)| i % 2 == 1).map(|(_, (p, t))| (p.as_str(), t.as_str())).collect();
    proposed.push(("MEMORY.md", &index));
    proposed.push(("aaa.md", "# A\n\nThe first note.\nThe second line.\n"));
    let changes: String = (0..8)
        .filter(|i| i % 2 == 0)
        .map(|i| format!("- topic{i}.md: deleted topic{i}.md, Topic {i} is obsolete\n"))
        .collect();
    let (g, dream, memory) = dream_fixture(&live, &proposed, &changes);
    let app = open(&dream, &memory, size);
    let root = g.path().display().to_string();
    (g, app, root)
}

fn open(dream: &Path, memory: &Path, size: (u16, u16)) -> App {
    let inputs = dreamreview::inputs::dream::discover(Some(dream), Some(memory), &[]).unwrap();
    let review = dreamreview::store::repo::load_review(inputs).unwrap();
    let analysis = dreamreview::analysis::analyze(&review);
    let mut app = App::new(review, Theme::new(ThemeName::Dark), size);
    let generation = app.generation;
    script::send(&mut app, dreamreview::faces::ui::msg::Msg::Analyzed { generation, analysis: Box::new(analysis) })
        .unwrap();
    app
}

#[test]
fn a_mass_removal_opens_with_a_banner_and_its_removals_first() {
    for size in [(80, 24), (200, 50)] {
        let (_g, mut app, root) = mass_removal(size);
        assert_eq!(app.order, FileOrder::Risk, "a mass removal lists the removals first");
        let shown = listed(&app);
        assert_eq!(shown, ["topic0.md", "topic2.md", "topic4.md", "topic6.md", "aaa.md"]);
        assert_eq!(app.current_file().unwrap().path, "topic0.md");
        let loss = app.mass_removal().unwrap();
        assert!(loss.starts_with("this review removes 4 of 10 notes"), "{loss}");
        let text = screen(&app, &root);
        assert!(text.contains("Mass removal"), "{text}");
        insta::assert_snapshot!(format!("mass_removal_banner_{}x{}", size.0, size.1), text);
        // The reviewer's own order stands; rejecting the deletions ends the banner.
        script::drive(&mut app, "O").unwrap();
        assert_eq!(app.order, FileOrder::Review);
        script::drive(&mut app, "O").unwrap();
        for _ in 0..4 {
            script::drive(&mut app, "n").unwrap();
        }
        assert_eq!(app.mass_removal(), None, "{}", screen(&app, &root));
        assert!(!screen(&app, &root).contains("Mass removal"));
    }
}
