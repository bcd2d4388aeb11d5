//! Integration tests for `dreamreview::analysis::audit::audit_change`: only what the change made
//! worse, located at the before-side index line a hunk removed.

use std::collections::BTreeMap;

use dreamreview::analysis::audit::{self, AuditFlag, IndexRef};
use dreamreview::analysis::flag::FlagKind;

fn folder(files: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
    files.iter().map(|(p, t)| (p.to_string(), t.as_bytes().to_vec())).collect()
}

fn note(name: &str) -> String {
    format!("---\nname: {name}\ndescription: about {name}\nmetadata:\n  type: project\n---\n\nbody\n")
}

fn summary(flags: &[AuditFlag]) -> Vec<(FlagKind, String, Option<usize>)> {
    flags.iter().map(|f| (f.flag.kind, f.path.clone(), f.line)).collect()
}

const BEFORE_INDEX: &str = "# メモリ\n\n- [テスト](testing.md) — `pnpm test` で全テスト\n- [デプロイ](deploy.md) — ステージング経由\n- [古いメモ](stale.md) — 既に孤立\n";

fn before() -> BTreeMap<String, Vec<u8>> {
    folder(&[
        ("MEMORY.md", BEFORE_INDEX),
        ("testing.md", &note("testing")),
        ("deploy.md", &note("deploy")),
        ("orphan.md", &note("orphan")),
    ])
}

#[test]
fn dream_that_deletes_an_index_line_creates_an_orphan_named_by_that_line() {
    let mut after = before();
    after.insert(
        "MEMORY.md".into(),
        BEFORE_INDEX.replace("- [デプロイ](deploy.md) — ステージング経由\n", "").into_bytes(),
    );
    let got = audit::audit_change(&before(), &after);
    assert_eq!(summary(&got), vec![(FlagKind::OrphanNote, "deploy.md".into(), None)]);
    assert_eq!(
        got[0].named_by,
        Some(IndexRef {
            path: "MEMORY.md".into(), line: 4, text: "- [デプロイ](deploy.md) — ステージング経由".into()
        })
    );
    assert_eq!(
        got[0].flag.message,
        "deploy.md is no longer named in MEMORY.md, whose line 4 named it before — keep that index line, or delete the note if it is stale."
    );
    // Pre-existing problems (orphan.md, the dangling stale.md link) are not repeated.
    let json = serde_json::to_value(&got[0]).unwrap_or_default();
    assert_eq!(json["named_by"]["line"], 4);
}

#[test]
fn dream_that_deletes_the_index_orphans_every_note_it_named() {
    let mut after = before();
    after.remove("MEMORY.md");
    let got = audit::audit_change(&before(), &after);
    assert_eq!(
        summary(&got),
        vec![(FlagKind::OrphanNote, "deploy.md".into(), None), (FlagKind::OrphanNote, "testing.md".into(), None)]
    );
    let by: Vec<(String, usize)> =
        got.iter().filter_map(|f| f.named_by.as_ref()).map(|r| (r.path.clone(), r.line)).collect();
    assert_eq!(by, vec![("MEMORY.md".to_string(), 4), ("MEMORY.md".to_string(), 3)]);
    assert!(got[0].flag.message.contains("MEMORY.md, whose line 4 named it, is deleted"), "{}", got[0].flag.message);
    // A note the deleted index never named was an orphan before: nothing new about it.
    assert!(!got.iter().any(|f| f.path == "orphan.md"));
}

#[test]
fn dream_that_deletes_a_note_but_keeps_its_line_creates_a_dangling_link() {
    let mut after = before();
    after.remove("testing.md");
    // Lines above shift: the flag is still new, and located in the after file.
    after.insert("MEMORY.md".into(), format!("<!-- 目次 -->\n{BEFORE_INDEX}").into_bytes());
    let got = audit::audit_change(&before(), &after);
    assert_eq!(summary(&got), vec![(FlagKind::DanglingLink, "MEMORY.md".into(), Some(4))]);
    assert_eq!(got[0].named_by, None);
}

#[test]
fn unchanged_folder_has_no_new_flags_even_when_it_has_old_ones() {
    assert_eq!(audit::audit_change(&before(), &before()), vec![]);
    let old = audit::audit(&before());
    assert_eq!(
        summary(&old.flags),
        vec![(FlagKind::DanglingLink, "MEMORY.md".into(), Some(5)), (FlagKind::OrphanNote, "orphan.md".into(), None),]
    );
}

#[test]
fn new_note_without_index_line_and_new_bad_frontmatter() {
    let mut after = before();
    after.insert("new.md".into(), b"---\nname: new\n---\nfresh\n".to_vec());
    let got = audit::audit_change(&before(), &after);
    assert_eq!(
        summary(&got),
        vec![(FlagKind::OrphanNote, "new.md".into(), None), (FlagKind::FrontmatterInvalid, "new.md".into(), Some(1)),]
    );
    assert_eq!(got[0].named_by, None);
}

fn index_of(lines: usize) -> String {
    (1..=lines).map(|i| format!("- line {i} about testing.md\n")).collect()
}

#[test]
fn over_limit_counts_as_new_only_when_the_change_made_the_index_larger() {
    let with = |n| folder(&[("MEMORY.md", &index_of(n)), ("testing.md", &note("t"))]);
    assert_eq!(
        summary(&audit::audit_change(&with(199), &with(249))),
        vec![(FlagKind::IndexOverLimit, "MEMORY.md".into(), Some(201))]
    );
    assert_eq!(
        summary(&audit::audit_change(&with(230), &with(249))),
        vec![(FlagKind::IndexOverLimit, "MEMORY.md".into(), Some(201))]
    );
    assert_eq!(audit::audit_change(&with(249), &with(240)), vec![]);
    assert_eq!(
        summary(&audit::audit_change(&with(100), &with(165))),
        vec![(FlagKind::IndexNearLimit, "MEMORY.md".into(), None)]
    );
}
