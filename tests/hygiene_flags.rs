//! Hygiene flags end to end (`docs/flags.md`): secrets, PERMANENT facts, writes outside the
//! memory folder, and audit flags that follow the reviewer's decisions.

use crate::common::*;
use dreamreview::analysis::flag::FlagKind;
use dreamreview::model::decision::Decision;
use dreamreview::model::ids::HunkId;
use dreamreview::model::review::Refusal;

const FM: &str = "---\nname: n\ndescription: d\ntype: project\n---\n\n";

fn kinds(a: &dreamreview::analysis::result::Analysis, file: usize, hunk: usize) -> Vec<FlagKind> {
    a.all_flags(HunkId::new(file, hunk)).map(|f| f.kind).collect()
}

#[test]
fn a_secret_is_flagged_and_never_printed_in_full() {
    let key = "sk-ant-api03-Zq8VbN2xLk4TfR7mWc1YhJ5sPd9GuE3aKo6Ni0Bx-7tQ2wZ9AA";
    let gh = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R";
    // Found by its key only: the value alone is no credential, and must not print either.
    let pw = "Zx9qL2vR8mT4wKp7Hs3";
    let live = format!("{FM}Staging runs on port 5433.\n");
    let prop =
        format!("{FM}Staging runs on port 5433.\nAPI token: {key}\nCI uses {gh} for pushes.\ndb password: {pw}\n");
    let changes = format!("- memory/db.md: recorded the token {key}\n");
    let (_g, dream, memory) = dream_fixture(&[("db.md", &live)], &[("db.md", &prop)], &changes);
    let (review, analysis) = review(&dream, &memory);
    let flags: Vec<_> = analysis.all_flags(HunkId::new(0, 0)).filter(|f| f.kind == FlagKind::Secret).collect();
    assert_eq!(flags.len(), 3, "{flags:?}");
    assert_eq!(flags[0].claim.as_deref(), Some("[anthropic-key …Z9AA]"));
    assert_eq!(flags[0].line.as_deref(), Some("API token: [anthropic-key …Z9AA]"));
    assert_eq!(flags[1].claim.as_deref(), Some("[github-token …7q8R]"));
    assert_eq!(flags[2].claim.as_deref(), Some("[credential …7Hs3]"));
    assert!(
        flags[2].message.contains("([credential …7Hs3])") && !flags[2].message.contains(pw),
        "{}",
        flags[2].message
    );
    assert!(dreamreview::analysis::standing::has_blocking_errors(&review, &analysis));
    // The credentials are claims no transcript states, but their `secret` flags say it all.
    let unsourced: Vec<_> = analysis
        .all_flags(HunkId::new(0, 0))
        .filter(|f| f.kind == FlagKind::UnsourcedClaim)
        .filter_map(|f| f.claim.clone())
        .collect();
    assert!(unsourced.iter().all(|c| !c.contains('…')), "{unsourced:?}");
    let listed: Vec<&str> = analysis.findings.claims(HunkId::new(0, 0)).iter().map(|c| c.text.as_str()).collect();
    assert!(listed.iter().all(|c| !c.contains('…')), "a credential is not listed as a claim: {listed:?}");
    for args in [vec!["check"], vec!["check", "--json"]] {
        let mut a: Vec<&str> = args.clone();
        a.extend([dream.to_str().unwrap(), "--memory", memory.to_str().unwrap()]);
        let r = run(dream.parent().unwrap(), &a);
        assert_eq!(r.code, 1, "{}", r.stderr);
        for out in [&r.stdout, &r.stderr] {
            assert!(!out.contains(key) && !out.contains(gh), "secret printed by {args:?}:\n{out}");
            assert!(!out.contains("Zx9qL2"), "a keyed credential printed by {args:?}:\n{out}");
            assert!(!out.contains("Zq8VbN2x"), "part of the secret printed:\n{out}");
        }
        assert!(r.stdout.contains("…Z9AA"), "{}", r.stdout);
    }
}

/// A private key spans lines, and only its BEGIN line is recognisable alone: `check` (text
/// and JSON) and the diff pane mask its body lines too.
#[test]
fn a_private_key_block_is_never_printed_line_by_line() {
    let body = "AvM3XEm74E6bblGuP8oquq3SwZC/rRcMpdu8bGao9HgpRkCXzxAlqs1sxXVqlB/z";
    let pem =
        format!("-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\nVBdLJ2/EdDg2hR0L==\n-----END OPENSSH PRIVATE KEY-----\n");
    let live = format!("{FM}Deploy key below.\n");
    let (_g, dream, memory) = dream_fixture(&[("keys.md", &live)], &[("keys.md", &format!("{live}{pem}"))], "");
    for args in [vec!["check"], vec!["check", "--json"]] {
        let mut a: Vec<&str> = args.clone();
        a.extend([dream.to_str().unwrap(), "--memory", memory.to_str().unwrap()]);
        let r = run(dream.parent().unwrap(), &a);
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(r.stdout.contains("[private-key"), "{}", r.stdout);
        for piece in ["bblGuP8", "VBdLJ2", "hR0L=="] {
            assert!(!r.stdout.contains(piece) && !r.stderr.contains(piece), "{args:?} printed {piece}:\n{}", r.stdout);
        }
    }
    let (review, _) = review(&dream, &memory);
    let masked = dreamreview::model::diff::masked::masked_lines(&review.files[0].hunks[0]).concat();
    assert!(!masked.contains("bblGuP8") && masked.contains("[… private-key]"), "{masked}");
}

#[test]
fn deleting_a_permanent_line_or_note_is_an_error() {
    let rules = format!("{FM}PERMANENT: never force-push to main.\nRebase before merging.\n");
    let rules_edit = format!("{FM}Force-push is fine on feature branches.\nRebase before merging.\n");
    let frozen = "---\nname: f\ndescription: d\ntype: user\npermanent: true\n---\n\nPrefers tabs.\n";
    let (_g, dream, memory) = dream_fixture(
        &[("rules.md", &rules), ("frozen.md", frozen), ("gone.md", &rules)],
        &[("rules.md", &rules_edit), ("frozen.md", &frozen.replace("tabs", "spaces"))],
        "",
    );
    let (review, analysis) = review(&dream, &memory);
    let paths: Vec<&str> = review.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["frozen.md", "gone.md", "rules.md"]);
    let msgs = |fi: usize| -> Vec<String> {
        analysis
            .all_flags(HunkId::new(fi, 0))
            .filter(|f| f.kind == FlagKind::PermanentDeleted)
            .map(|f| f.message.clone())
            .collect()
    };
    assert_eq!(msgs(0), ["frozen.md#1 removes or changes a line of a note marked `permanent: true`: «Prefers tabs.»"]);
    assert_eq!(
        msgs(1),
        ["gone.md#1 deletes gone.md, a note marked PERMANENT («PERMANENT: never force-push to main.»)"]
    );
    assert_eq!(msgs(2), ["rules.md#1 removes or changes a PERMANENT line: «PERMANENT: never force-push to main.»"]);
}

#[test]
fn moving_a_permanent_line_is_not_deleting_it() {
    let live = format!("{FM}PERMANENT: never force-push.\nA.\nB.\n");
    let prop = format!("{FM}A.\nB.\nPERMANENT: never force-push.\n");
    let (_g, dream, memory) = dream_fixture(&[("r.md", &live)], &[("r.md", &prop)], "");
    let (review, analysis) = review(&dream, &memory);
    assert_eq!(review.files.len(), 1);
    for hi in 0..review.files[0].hunks.len() {
        assert!(!kinds(&analysis, 0, hi).contains(&FlagKind::PermanentDeleted));
    }
}

#[cfg(unix)]
#[test]
fn a_symlink_in_the_proposal_is_flagged_and_never_accepted() {
    let (_g, dream, memory) = dream_fixture(&[("a.md", "a\n")], &[("a.md", "a\n")], "");
    std::os::unix::fs::symlink("/etc/hostname", dream.join("memory/host.md")).unwrap();
    let (mut review, analysis) = review(&dream, &memory);
    assert_eq!(review.files.len(), 1);
    assert_eq!(review.files[0].path, "host.md");
    let f = analysis.findings.file(0);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].kind, FlagKind::OutsideMemory);
    assert_eq!(f[0].claim.as_deref(), Some("/etc/hostname"));
    assert_eq!(review.set_hunk(HunkId::new(0, 0), Decision::Accepted), Err(Refusal::OutsideMemory));
    assert_eq!(review.set_all(Decision::Accepted), vec!["host.md#1".to_string()]);
    assert!(!review.result_snapshot().contains_key("host.md"));
}

#[test]
fn memory_diff_paths_outside_the_folder_are_shown_and_blocked() {
    let (_g, dream, memory) = dream_fixture(&[("a.md", "old\n")], &[("a.md", "new\n")], "");
    let live = memory.to_string_lossy();
    let diff = format!(
        "--- {live}/a.md\n+++ /tmp/x/memory/a.md\n@@ -1 +1 @@\n-old\n+new\n--- {live}/../../../etc/cron.d/x\n+++ /tmp/x/memory/../../../etc/cron.d/x\n@@ -0,0 +1 @@\n+* * * * * root sh\n"
    );
    write(&dream.join("memory.diff"), &diff);
    let (mut review, analysis) = review(&dream, &memory);
    let outside: Vec<_> = review
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == dreamreview::model::diff::FileKind::Outside)
        .collect();
    assert_eq!(outside.len(), 1);
    let (fi, f) = outside[0];
    assert!(f.path.ends_with("/../../../etc/cron.d/x"), "{}", f.path);
    assert_eq!(f.hunks[0].lines[0].text, "* * * * * root sh\n");
    assert_eq!(analysis.findings.file(fi)[0].kind, FlagKind::OutsideMemory);
    assert_eq!(review.set_hunk(HunkId::new(fi, 0), Decision::Accepted), Err(Refusal::OutsideMemory));
    review.set_all(Decision::Accepted);
    let result = review.result_snapshot();
    assert_eq!(result.keys().collect::<Vec<_>>(), ["a.md"]);
}

#[test]
fn an_orphan_made_by_the_index_hunk_follows_its_decision() {
    let index = "# Memory\n\n- [Testing](testing.md) — how to run the suite\n- [Deploy](deploy.md) — staging\n";
    let pruned = "# Memory\n\n- [Testing](testing.md) — how to run the suite\n";
    let note = format!("{FM}Body.\n");
    let (_g, dream, memory) = dream_fixture(
        &[("MEMORY.md", index), ("testing.md", &note), ("deploy.md", &note)],
        &[("MEMORY.md", pruned), ("testing.md", &note), ("deploy.md", &note)],
        "",
    );
    let (mut review, mut analysis) = review(&dream, &memory);
    assert_eq!(review.files.len(), 1);
    let orphans: Vec<_> = analysis.hunk_flags(HunkId::new(0, 0)).filter(|f| f.kind == FlagKind::OrphanNote).collect();
    assert_eq!(orphans.len(), 1);
    assert_eq!(
        orphans[0].message,
        "deploy.md is no longer named in MEMORY.md, whose line 4 named it before — keep that index line, or delete the note if it is stale."
    );
    assert_eq!(analysis.audit.before.as_ref().map(|b| b.lines), Some(4));
    assert_eq!(analysis.audit.after.as_ref().map(|b| b.lines), Some(3));
    review.set_hunk(HunkId::new(0, 0), Decision::Rejected).unwrap();
    analysis.refresh_audit(&review);
    assert_eq!(analysis.hunk_flags(HunkId::new(0, 0)).filter(|f| f.kind == FlagKind::OrphanNote).count(), 0);
    assert!(analysis.audit.flags.is_empty());
}

#[test]
fn a_secret_never_reaches_the_commit_message() {
    let key = "sk-ant-api03-Zq8VbN2xLk4TfR7mWc1YhJ5sPd9GuE3aKo6Ni0Bx-7tQ2wZ9AA";
    let live = format!("{FM}Staging runs on port 5433.\n");
    let prop = format!("{FM}Staging runs on port 5433.\nAPI token: {key}\n");
    let changes = format!("- memory/db.md: recorded the token {key}\n");
    let (_g, dream, memory) = dream_fixture(&[("db.md", &live)], &[("db.md", &prop)], &changes);
    let cwd = dream.parent().unwrap();
    let args = ["apply", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap(), "--accept-all", "--init"];
    let refused = run(cwd, &args);
    assert_eq!(refused.code, 2, "an accepted secret is refused without --allow: {}", refused.stderr);
    assert!(refused.stderr.contains("pass --allow secret"), "{}", refused.stderr);
    assert_eq!(git(&memory, &["log", "--format=%s"]).lines().count(), 1, "only the --init commit");
    let r = run(cwd, &[&args[..], &["--allow", "secret"]].concat());
    assert_eq!(r.code, 0, "every error flag allowed: {}", r.stderr);
    let log = git(&memory, &["log", "--format=%B"]);
    assert!(log.contains("accepted with: secret «[anthropic-key …Z9AA]»"), "{log}");
    for out in [&log, &r.stdout, &r.stderr, &refused.stderr] {
        assert!(!out.contains("Zq8VbN2x"), "secret leaked:\n{out}");
    }
}

/// `check`'s audit section does not print again a flag already printed under its hunk.
#[test]
fn check_prints_each_index_flag_once() {
    let long = format!("- [Deploy](deploy.md) — {}\n", "staging then production, always via the pipeline ".repeat(4));
    let live = "# Memory\n\n- [Deploy](deploy.md) — deploying\n".to_string();
    let prop = format!("# Memory\n\n{long}");
    let deploy = format!("{FM}Deploy via the pipeline.\n");
    let (_g, dream, memory) = dream_fixture(
        &[("MEMORY.md", &live), ("deploy.md", &deploy)],
        &[("MEMORY.md", &prop), ("deploy.md", &deploy)],
        "- memory/MEMORY.md: longer deploy hook\n",
    );
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap()]);
    assert_eq!(r.stdout.matches("warning[index-long-line]").count(), 1, "{}", r.stdout);
    assert!(r.stdout.contains("(1 more shown with their hunks above)"), "{}", r.stdout);
}
