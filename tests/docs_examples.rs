//! The examples in `docs/` are what the code does: the `check --json` example is the
//! binary's output on `tests/fixtures/pnpm-migration`, and every row of the citation table
//! in `docs/changes-citations.md` is what the CHANGES.md parser makes of its entry.

use crate::common::*;
use std::path::Path;

/// Where the example in docs/check-json.md says the fixture was copied to.
const EXAMPLE_ROOT: &str = "/tmp/x";

fn doc(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The body of the first fenced block of `lang` after the line `marker`.
fn fenced_after(text: &str, marker: &str, lang: &str) -> String {
    let rest = &text[text.find(marker).unwrap_or_else(|| panic!("no «{marker}»")) + marker.len()..];
    let open = format!("```{lang}\n");
    let start = rest.find(&open).unwrap_or_else(|| panic!("no ```{lang} block after «{marker}»")) + open.len();
    let end = start + rest[start..].find("\n```").expect("closed block");
    rest[start..end].to_string()
}

#[test]
fn the_check_json_example_is_what_check_prints_on_the_pnpm_fixture() {
    // A temp dir whose name is not hidden (a hidden folder in the memory path is a warning).
    let g = tempfile::Builder::new().prefix("docs-example-").tempdir().unwrap();
    let root = g.path().join("pnpm-migration");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pnpm-migration"), &root);
    let dream = root.join("dream-2026-11-02");
    let memory = root.join("project/memory");
    replace_in(
        &dream.join("memory.diff"),
        "/home/dev/.claude/projects/-home-dev-shop/memory",
        memory.to_str().unwrap(),
    );
    let r = run(&root, &["check", dream.to_str().unwrap(), "--json"]);
    assert_eq!(r.code, 0, "{}", r.both());
    let example = fenced_after(&doc("check-json.md"), "<!-- example: check --json -->", "json");
    // The dream id hashes memory.diff, whose headers name where the copy lives.
    let id = |text: &str| json_str(text)["dream"]["id"].as_str().unwrap_or_default().to_string();
    let (got_id, doc_id) = (id(&r.stdout), id(&example));
    assert!(got_id.len() == 24 && got_id.bytes().all(|b| b.is_ascii_hexdigit()), "{got_id}");
    let shown = r.stdout.replace(&g.path().display().to_string(), EXAMPLE_ROOT).replace(&got_id, &doc_id);
    assert!(
        shown.trim_end() == example.trim_end(),
        "docs/check-json.md's example differs from the output; the output is:\n{shown}"
    );
}

fn json_str(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// `file:start-end` (or `file` for a whole file, `?` for no file) of each citation.
fn shown(c: &dreamreview::inputs::changes::Citation) -> String {
    let file = c.file.as_deref().unwrap_or("?");
    match (c.start, c.end) {
        (Some(a), Some(b)) if a != b => format!("{file}:{a}-{b}"),
        (Some(a), _) => format!("{file}:{a}"),
        _ => file.to_string(),
    }
}

/// The rows `entry ⇒ a, b` of the text block after `marker`: each entry parsed alone, and
/// the list it should give (`(none)`: empty).
fn example_rows(marker: &str) -> Vec<(dreamreview::inputs::changes::ChangeEntry, Vec<String>)> {
    let table = fenced_after(&doc("changes-citations.md"), marker, "text");
    let rows: Vec<_> = table
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|row| {
            let (entry, want) = row.split_once(" ⇒ ").unwrap_or_else(|| panic!("row without ⇒: {row}"));
            let mut entries = dreamreview::inputs::changes::parse(entry);
            assert_eq!(entries.len(), 1, "{entry}");
            let want = if want.trim() == "(none)" { Vec::new() } else { want.split(", ").map(String::from).collect() };
            (entries.remove(0), want)
        })
        .collect();
    assert!(rows.len() >= 3, "the table after {marker} lost its rows ({})", rows.len());
    rows
}

#[test]
fn every_citation_example_is_what_the_parser_reads() {
    for (entry, want) in example_rows("<!-- examples: citations -->") {
        let got: Vec<String> = entry.citations.iter().map(shown).collect();
        assert_eq!(got, want, "entry: {}", entry.text);
    }
}

#[test]
fn every_note_example_is_what_the_parser_reads() {
    for (entry, want) in example_rows("<!-- examples: notes -->") {
        assert_eq!(entry.notes, want, "entry: {}", entry.text);
    }
}

#[test]
fn the_layout_example_is_what_the_parser_reads() {
    let text = doc("changes-citations.md");
    let input = fenced_after(&text, "<!-- example: layout -->", "markdown");
    let want = fenced_after(&text, "<!-- example: layout parsed -->", "text");
    let got: Vec<String> = dreamreview::inputs::changes::parse(&input)
        .iter()
        .map(|e| {
            let cites: Vec<String> = e.citations.iter().map(shown).collect();
            let cites = if cites.is_empty() { "(none)".to_string() } else { cites.join(", ") };
            format!("#{} line {}: {}; {cites}", e.index, e.line, e.notes.join(", "))
        })
        .collect();
    assert_eq!(got.join("\n"), want.trim_end());
}
