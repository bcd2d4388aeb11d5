//! Integration tests for `dreamreview::analysis::audit::audit` on fixture folders (Korean, Japanese,
//! OpenClaw) and generated indexes: every flag kind with its exact message.

use std::collections::BTreeMap;
use std::path::Path;

use dreamreview::analysis::audit::{self, BudgetStatus, FolderAudit, IndexBudget, LongLine, RefKind};
use dreamreview::analysis::flag::{FlagKind, Severity};
use proptest::prelude::*;

fn load(name: &str) -> BTreeMap<String, Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit").join(name);
    match audit::read_folder(&dir) {
        Ok(read) => read.files,
        Err(e) => panic!("{e:#}"),
    }
}

fn folder(files: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
    files.iter().map(|(p, t)| (p.to_string(), t.as_bytes().to_vec())).collect()
}

fn note(name: &str) -> String {
    format!("---\nname: {name}\ndescription: about {name}\ntype: project\n---\n\nbody\n")
}

/// (kind, path, line, message) of every flag.
fn flags(a: &FolderAudit) -> Vec<(FlagKind, String, Option<usize>, String)> {
    a.flags.iter().map(|f| (f.flag.kind, f.path.clone(), f.line, f.flag.message.clone())).collect()
}

fn row(kind: FlagKind, path: &str, line: Option<usize>, msg: &str) -> (FlagKind, String, Option<usize>, String) {
    (kind, path.to_string(), line, msg.to_string())
}

#[test]
fn korean_index_reports_long_line_dangling_orphans_and_frontmatter() {
    let a = audit::audit(&load("claude-ko"));
    assert_eq!(
        a.index,
        Some(IndexBudget {
            path: "MEMORY.md".into(),
            lines: 8,
            bytes: 752,
            status: BudgetStatus::Ok,
            stops_at_line: None,
            unloaded_lines: 0,
            long_lines: vec![LongLine { line: 9, chars: 185 }],
        })
    );
    assert_eq!(a.orphans, vec!["broken.md", "note.md"]);
    assert_eq!(a.dangling.len(), 1);
    assert_eq!((a.dangling[0].line, a.dangling[0].kind, a.dangling[0].target.as_str()), (8, RefKind::Link, "old.md"));
    assert_eq!(
        flags(&a),
        vec![
            row(
                FlagKind::IndexLongLine,
                "MEMORY.md",
                Some(9),
                "MEMORY.md line 9 is 185 characters (limit 150) — shorten it to a one-line hook and move the detail into the topic file."
            ),
            row(
                FlagKind::DanglingLink,
                "MEMORY.md",
                Some(8),
                "MEMORY.md line 8 links to old.md, which does not exist — fix the link or remove the line."
            ),
            row(
                FlagKind::OrphanNote,
                "broken.md",
                None,
                "broken.md is not named in MEMORY.md, so it is never found — add a line like `- [Title](broken.md) — one-line hook` to MEMORY.md, or delete the note if it is stale."
            ),
            row(
                FlagKind::OrphanNote,
                "note.md",
                None,
                "note.md is not named in MEMORY.md, so it is never found — add a line like `- [Title](note.md) — one-line hook` to MEMORY.md, or delete the note if it is stale."
            ),
            row(
                FlagKind::FrontmatterInvalid,
                "broken.md",
                Some(1),
                "broken.md has an unterminated frontmatter block — close it with a `---` line after its last key."
            ),
            row(
                FlagKind::FrontmatterInvalid,
                "feedback_style.md",
                Some(1),
                "feedback_style.md frontmatter lacks `type` — add it to its `---` block (`type` may also sit under `metadata:`)."
            ),
        ]
    );
    // The dangling flag carries the target and the (masked) index line.
    let d = &a.flags[1].flag;
    assert_eq!(d.claim.as_deref(), Some("old.md"));
    assert_eq!(d.line.as_deref(), Some("- [오래된 메모](old.md) — 지난주에 정리됨"));
    assert_eq!(d.severity, Severity::Warning);
    assert!(!a.has_errors());
}

#[test]
fn japanese_index_with_team_index_both_generations_is_clean() {
    let a = audit::audit(&load("claude-ja"));
    assert_eq!(flags(&a), vec![]);
    assert_eq!(a.index.as_ref().map(|b| (b.lines, b.bytes)), Some((3, 201)));
    let team: Vec<&str> = a.other_indexes.iter().map(|b| b.path.as_str()).collect();
    assert_eq!(team, vec!["team/MEMORY.md"]);
}

#[test]
fn openclaw_workspace_has_no_frontmatter_flood_and_daily_notes_are_not_orphans() {
    let a = audit::audit(&load("openclaw"));
    assert_eq!(flags(&a), vec![]);
    assert_eq!(a.index.as_ref().map(|b| b.lines), Some(5));
}

#[test]
fn without_an_index_no_orphan_or_dangling_checks_run() {
    let a = audit::audit(&load("no-index"));
    assert_eq!(a.index, None);
    assert_eq!(flags(&a), vec![]);
}

/// `entries` index lines of 111 bytes (249 make 27,639 bytes, like real overgrown indexes).
fn overgrown(entries: usize) -> BTreeMap<String, Vec<u8>> {
    overgrown_with(entries, 111)
}

/// `entries` index lines of `len` bytes each, every one linking to an existing note.
fn overgrown_with(entries: usize, len: usize) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut index = String::new();
    for i in 1..=entries {
        let head = format!("- [Note {i:03}](note-{i:03}.md) — ");
        let pad = len - 1 - head.len();
        index.push_str(&format!("{head}{}\n", "x".repeat(pad)));
        files.insert(format!("note-{i:03}.md"), note(&format!("n{i}")).into_bytes());
    }
    files.insert("MEMORY.md".into(), index.into_bytes());
    files
}

#[test]
fn index_over_both_limits_reports_where_loading_stops() {
    let a = audit::audit(&overgrown(249));
    let b = a.index.clone();
    assert_eq!(
        b.map(|b| (b.lines, b.bytes, b.status, b.stops_at_line, b.unloaded_lines)),
        Some((249, 27_639, BudgetStatus::Over, Some(201), 49))
    );
    assert_eq!(
        flags(&a),
        vec![row(
            FlagKind::IndexOverLimit,
            "MEMORY.md",
            Some(201),
            "MEMORY.md is 249 lines (limit 200, 49 over) and 27,639 bytes (limit 25,600, 2,039 over): loading stops at line 201, so the last 49 lines never load — move detail into topic files and keep one short line per note."
        )]
    );
    assert_eq!(a.flags[0].flag.severity, Severity::Error);
    assert!(a.flags[0].flag.line.as_deref().is_some_and(|l| l.starts_with("- [Note 201](note-201.md) — ")));
    assert!(a.has_errors());
}

#[test]
fn one_line_over_reads_as_one() {
    let a = audit::audit(&overgrown(201));
    let msg = &a.flags.iter().find(|f| f.flag.kind == FlagKind::IndexOverLimit).unwrap().flag.message;
    assert!(msg.contains("so the last 1 line never loads —"), "{msg}");
}

#[test]
fn byte_limit_alone_cuts_at_the_crossing_line() {
    // 190 entries of 140 bytes: 26,600 bytes; line 183 ends at 25,620 > 25,600.
    let a = audit::audit(&overgrown_with(190, 140));
    assert_eq!(
        flags(&a),
        vec![row(
            FlagKind::IndexOverLimit,
            "MEMORY.md",
            Some(183),
            "MEMORY.md is 26,600 bytes (limit 25,600, 1,000 over): loading stops at line 183, so the last 8 lines never load — move detail into topic files and keep one short line per note."
        )]
    );
}

#[test]
fn near_limit_reports_the_percentage() {
    let a = audit::audit(&overgrown(170));
    assert_eq!(
        flags(&a),
        vec![row(
            FlagKind::IndexNearLimit,
            "MEMORY.md",
            None,
            "MEMORY.md is 170 lines (85% of the 200-line limit) — compact it before the tail stops loading: one short line per note, detail in topic files."
        )]
    );
}

#[test]
fn comments_and_frontmatter_do_not_count_towards_the_budget() {
    let mut files = overgrown(160);
    let mut index = String::from("---\ngenerated: true\n---\n<!--\nlong\ncomment\n-->\n");
    index.push_str(&String::from_utf8_lossy(&files["MEMORY.md"]).replacen("\n", "\n<!-- keep -->\n", 1));
    files.insert("MEMORY.md".into(), index.into_bytes());
    let a = audit::audit(&files);
    assert_eq!(a.index.map(|b| (b.lines, b.bytes, b.status)), Some((160, 17_760, BudgetStatus::Near)));
}

#[test]
fn a_note_is_not_hidden_by_a_longer_name() {
    let a = audit::audit(&folder(&[
        ("MEMORY.md", "- [Other](other_note.md) — see also note.md.bak and my-note.md\n"),
        ("other_note.md", &note("other")),
        ("my-note.md", &note("mine")),
        ("note.md", &note("note")),
    ]));
    assert_eq!(a.orphans, vec!["note.md"]);
    assert_eq!(a.dangling, vec![]);
}

#[test]
fn backticked_and_bare_mentions_name_notes_and_only_entries_dangle() {
    let a = audit::audit(&folder(&[
        (
            "MEMORY.md",
            "- `testing.md` — how to run; the repo's README.md and `docs/api.md` are elsewhere\n- gone.md: removed last week\n- CLAUDE.md rules apply\n",
        ),
        ("testing.md", &note("testing")),
    ]));
    assert_eq!(a.orphans, Vec::<String>::new());
    assert_eq!(
        flags(&a),
        vec![row(
            FlagKind::DanglingLink,
            "MEMORY.md",
            Some(2),
            "MEMORY.md line 2 names gone.md, which does not exist — fix the name or remove the line."
        )]
    );
}

#[test]
fn wikilinks_match_stems_and_frontmatter_names() {
    let a = audit::audit(&folder(&[
        ("MEMORY.md", "- [[user-role]] and [[Deploy Flow|deploys]]\n- [[missing-note]]\n"),
        ("user-role.md", &note("role of the user")),
        ("deploy.md", &note("deploy flow")),
    ]));
    assert_eq!(a.orphans, Vec::<String>::new());
    assert_eq!(
        flags(&a),
        vec![row(
            FlagKind::DanglingLink,
            "MEMORY.md",
            Some(2),
            "MEMORY.md line 2 links to [[missing-note]], but no note has that file name or frontmatter name — fix the link or remove the line."
        )]
    );
}

#[test]
fn links_resolve_dot_slash_subfolders_encoded_spaces_and_case() {
    let a = audit::audit(&folder(&[
        (
            "MEMORY.md",
            "- [A](./a.md#top)\n- [B](sub/b%20c.md)\n- [C](C.MD)\n- [Web](https://example.com/x.md)\n- [Up](../outside.md)\n",
        ),
        ("a.md", &note("a")),
        ("sub/b c.md", &note("b")),
        ("c.md", &note("c")),
    ]));
    assert_eq!(flags(&a), vec![]);
}

#[test]
fn frontmatter_generations_and_missing_keys() {
    let a = audit::audit(&folder(&[
        ("old.md", "---\nname: old\ndescription: top-level type\ntype: user\n---\n"),
        ("new.md", "---\r\nname: new\r\ndescription: metadata type\r\nmetadata:\r\n  type: feedback\r\n---\r\n"),
        ("bare.md", "# no frontmatter\n"),
        ("partial.md", "---\ntype: user\n---\n"),
    ]));
    assert_eq!(
        flags(&a),
        vec![
            row(
                FlagKind::FrontmatterInvalid,
                "bare.md",
                Some(1),
                "bare.md has no frontmatter — start it with a `---` block giving `name`, `description` and `type`."
            ),
            row(
                FlagKind::FrontmatterInvalid,
                "partial.md",
                Some(1),
                "partial.md frontmatter lacks `name` and `description` — add them to its `---` block."
            ),
        ]
    );
}

#[test]
fn permanent_notes_and_lines() {
    let ja = load("claude-ja");
    let text = |p: &str| String::from_utf8_lossy(&ja[p]).into_owned();
    assert!(audit::is_permanent_note(&text("deploy.md")));
    assert!(audit::is_permanent_note(&text("team/規約.md")));
    assert!(!audit::is_permanent_note(&text("testing.md")));
    assert!(audit::is_permanent_line("PERMANENT: レビューは二人以上で行う。"));
    assert!(!audit::is_permanent_line("Permanent: lower case does not count"));
}

#[test]
fn secrets_in_notes_are_flagged_masked() {
    let key = "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d";
    let files = folder(&[("ci.md", &format!("# CI\n\n토큰: {key}\nsecret_key = Qw8rT5yU2iO9pL3kJ6hG\n"))]);
    let got = audit::scan_secrets(&files);
    assert_eq!(got.len(), 2);
    // A value found by its key is masked too (alone it would not look like a credential).
    assert_eq!(
        got[1].flag.message,
        "ci.md line 4 holds a credential ([credential …J6hG]) — remove it from memory and rotate it."
    );
    assert_eq!(got[1].flag.claim.as_deref(), Some("[credential …J6hG]"));
    assert_eq!((got[0].path.as_str(), got[0].line), ("ci.md", Some(3)));
    assert_eq!(
        got[0].flag.message,
        "ci.md line 3 holds a credential ([github-token …OL8d]) — remove it from memory and rotate it."
    );
    assert_eq!(got[0].flag.line.as_deref(), Some("토큰: [github-token …OL8d]"));
    assert_eq!(got[0].flag.severity, Severity::Error);
}

#[test]
fn flags_serialize_with_kebab_case_kinds() {
    let a = audit::audit(&folder(&[("MEMORY.md", "- [X](x.md)\n")]));
    let json = serde_json::to_value(&a.flags).unwrap_or_default();
    assert_eq!(
        json,
        serde_json::json!([{
            "path": "MEMORY.md",
            "line": 1,
            "flag": {
                "kind": "dangling-link",
                "severity": "warning",
                "message": "MEMORY.md line 1 links to x.md, which does not exist — fix the link or remove the line.",
                "claim": "x.md",
                "line": "- [X](x.md)"
            }
        }])
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

    #[test]
    fn audit_never_panics(
        index in any::<String>(),
        names in proptest::collection::vec("[a-zA-Z0-9_ ./가-힣ぁ-ん-]{0,12}(\\.md)?", 0..6),
        bodies in proptest::collection::vec(any::<Vec<u8>>(), 6),
        noise in "(---\n|name: x\n|metadata:\n  type: y\n|\\[\\[a\\]\\]|`b.md`|\\[c\\](d.md)|<!--|-->|\r\n|PERMANENT|[^\n]{0,20}\n){0,20}",
    ) {
        let mut files = BTreeMap::new();
        files.insert("MEMORY.md".to_string(), format!("{index}{noise}").into_bytes());
        for (i, n) in names.iter().enumerate() {
            let mut body = bodies[i].clone();
            body.extend_from_slice(noise.as_bytes());
            files.insert(n.clone(), body);
        }
        let a = audit::audit(&files);
        let _ = audit::audit_change(&files, &BTreeMap::new());
        let _ = audit::audit_change(&BTreeMap::new(), &files);
        let _ = audit::scan_secrets(&files);
        let _ = audit::is_permanent_note(&noise);
        prop_assert!(a.flags.len() >= a.orphans.len() + a.dangling.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_on_any_string(s in any::<String>()) {
        let _ = audit::frontmatter::parse(&s);
        let _ = audit::frontmatter::problem(&s);
        let _ = audit::is_permanent_line(&s);
        let loaded = audit::memory_index::loaded_lines(&s);
        let b = audit::memory_index::measure("MEMORY.md", &loaded);
        prop_assert_eq!(b.lines, loaded.len());
        let _ = audit::memory_index::budget_flags(&b, &loaded);
        for (i, line) in s.lines().enumerate() {
            let _ = audit::links::references_in_line(i + 1, line);
        }
        let _ = audit::links::percent_decode(&s);
        let _ = audit::links::normalize("team", &s);
    }
}

/// A link in a code block is an example, not a reference (pulldown-cmark reads the blocks):
/// no dangling flag for it, and it does not keep a note from being an orphan.
#[test]
fn links_in_code_blocks_are_examples_not_references() {
    let index = "# Memory\n\n- [Deploy](deploy.md)\n\nHow to write an entry:\n\n```markdown\n- [Title](missing.md)\n- [[ghost]] and `orphan.md`\n```\n\n~~~\n[x](also-missing.md)\n~~~\n\n    [indented](gone.md)\n\n- [Broken](broken.md)\n";
    let a =
        audit::audit(&folder(&[("MEMORY.md", index), ("deploy.md", &note("deploy")), ("orphan.md", &note("orphan"))]));
    let dangling: Vec<(usize, &str)> = a.dangling.iter().map(|d| (d.line, d.target.as_str())).collect();
    assert_eq!(dangling, vec![(18, "broken.md")]);
    assert_eq!(a.orphans, vec!["orphan.md"]);
}

/// A link whose text runs over two lines is read whole (pulldown-cmark), on its first line:
/// its note is named, a missing one is dangling.
#[test]
fn a_link_over_two_lines_is_read_whole() {
    let index = "# Memory\n\n- [Deploy\n  notes](deploy.md)\n- [Old\n  plan](old-plan.md)\n";
    let a = audit::audit(&folder(&[("MEMORY.md", index), ("deploy.md", &note("deploy"))]));
    assert_eq!(a.orphans, Vec::<String>::new());
    let dangling: Vec<(usize, RefKind, &str)> =
        a.dangling.iter().map(|d| (d.line, d.kind, d.target.as_str())).collect();
    assert_eq!(dangling, vec![(5, RefKind::Link, "old-plan.md")]);
}
