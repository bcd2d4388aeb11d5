//! The index of what transcripts say (issue 17): `check --json` is byte-identical with
//! the index (cold, warm, after edits), without it (`--no-index`), and with a corrupt or
//! half-written one; appended files are indexed from where the index stopped; deleted
//! transcripts lose their index; concurrent runs never corrupt it; credentials never
//! reach it.

use crate::common::*;
use dreamreview::inputs::transcript::index::{FileIndex, grams, index_file_of, wait_for_builds};
use proptest::prelude::*;
use serde_json::json;
use std::path::{Path, PathBuf};

const A: &str = "1f0c6a52-93d4-4e1b-8a7f-2c5d9e0b4a61";
const B: &str = "7a2e4c91-05bd-4f38-b6e2-d1c0a9f83e27";

const LIVE: &str =
    "---\nname: ops\ndescription: Operations facts\ntype: project\n---\n\nStaging uses `db-staging-1`.\n";
const PROPOSED: &str = "---\nname: ops\ndescription: Operations facts\ntype: project\n---\n\nStaging uses `db-staging-2` on port 5433 since 2026-10-12.\n1,200 tests pass on Python 3.11 with v2.4.1, 18 of them slow.\nThe backfill ran on 2026-11-03.\n";

/// What transcript lines say: claim forms and near misses of them.
const PHRASES: &[&str] = &[
    "db-staging-2",
    "db-staging-22",
    "port 5433",
    "54330",
    "2026-10-12",
    "2026.10.12",
    "12026.10.12",
    "Oct 12",
    "1,200 tests",
    "1200 tests",
    "12000 tests",
    "Python 3.11",
    "3.11.4",
    "13.11",
    "v2.4.1",
    "this week",
    "this thing",
    "yesterday",
    "last week",
    "3 days ago",
    "ここ3日",
    "先週",
    "18 of",
    "118",
    "\u{1b}[1mdb-staging-2\u{1b}[0m",
    "thi\u{17f} week",
    "the backfill",
    "Nov 3",
    "hello",
    // What tools add (said text removes it; the index's keys must agree).
    "\n    18→of them\n    19→port 5433",
    "\n  5433\tport",
    "18\tof them\n19\tport 5433",
    "\nsrc/db.rs:1200:tests\nsrc/db.rs-1201-db-staging-2",
    "\n@@ -1,2 +1,2 @@\n-port 5433\n+db-staging-2\n 3.11",
    "[=====>    ] 1200/1200 tests",
    "{\\\"port\\\": 5433, \\\"v\\\": \\\"3.11\\\"}",
    "3.11\r2026-10-12",
];

/// One transcript line of `kind` saying `text` at `ts` (envelope values repeat phrases
/// that must never count).
fn line(session: &str, n: usize, kind: u8, text: &str) -> String {
    let ts = format!("2026-11-{:02}T09:{:02}:00.000Z", 3 + n % 2, n % 60);
    let env = |v: serde_json::Value| {
        let mut v = v;
        let o = v.as_object_mut().unwrap();
        o.insert("cwd".into(), json!("/home/dev/db-staging-2/2026-10-12"));
        o.insert("sessionId".into(), json!(session));
        o.insert("uuid".into(), json!(format!("{}-{n:04}", &session[..8])));
        o.insert("timestamp".into(), json!(ts));
        v
    };
    let v = match kind % 5 {
        0 => env(json!({"type": "user", "message": {"role": "user", "content": text}})),
        1 => env(json!({"type": "assistant", "message": {"id": "msg_1", "role": "assistant",
            "content": [{"type": "thinking", "thinking": "maybe 5433 yesterday", "signature": "sig"},
                        {"type": "text", "text": text}]}})),
        2 => env(json!({"type": "user", "message": {"role": "user", "content": [{"type": "tool_result",
            "tool_use_id": "toolu_1", "content": text}]}, "toolUseResult": {"stdout": "port 5433 1,200 tests"}})),
        3 => env(json!({"type": "assistant", "message": {"id": "msg_2", "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_2", "name": "Bash", "input": {"command": text}}]}})),
        _ => env(json!({"type": "system", "subtype": "local_command", "content": text})),
    };
    v.to_string()
}

fn lines(session: &str, from: usize, picks: &[(u8, Vec<usize>)]) -> String {
    let mut out = String::new();
    for (i, (kind, words)) in picks.iter().enumerate() {
        let text: Vec<&str> = words.iter().map(|&w| PHRASES[w % PHRASES.len()]).collect();
        out.push_str(&line(session, from + i, *kind, &text.join(" and ")));
        out.push('\n');
    }
    out
}

/// A project with a proposed note full of claims and two sessions.
fn project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let changes = format!("- memory/ops.md: staging facts ({A}.jsonl:1)\n");
    let (g, dream, memory) = dream_fixture(&[("ops.md", LIVE)], &[("ops.md", PROPOSED)], &changes);
    let root = memory.parent().unwrap();
    write(&root.join(format!("{A}.jsonl")), &lines(A, 1, &[(0, vec![0, 2]), (1, vec![15, 4])]));
    write(&root.join(format!("{B}.jsonl")), &lines(B, 1, &[(2, vec![8, 11]), (3, vec![14, 17])]));
    (g, dream, memory)
}

/// `check --json` with the index under `cache` (or without), as (exit code, stdout, stderr).
fn check(dream: &Path, memory: &Path, cache: &Path, index: bool) -> (i32, String, String) {
    check_env(dream, memory, cache, index, &[])
}

/// [`check`] with more environment.
fn check_env(dream: &Path, memory: &Path, cache: &Path, index: bool, more: &[(&str, &str)]) -> (i32, String, String) {
    let mut args = vec!["check", dream.to_str().unwrap(), "--json", "--memory", memory.to_str().unwrap()];
    if !index {
        args.push("--no-index");
    }
    let cache = cache.to_str().unwrap();
    // One line per block: the index decides for each line whether it is read.
    let mut env =
        vec![("XDG_CACHE_HOME", cache), ("DREAMREVIEW_INDEX_STATS", "1"), ("DREAMREVIEW_INDEX_BLOCK_BYTES", "1")];
    env.extend_from_slice(more);
    let r = run_env(dream.parent().unwrap(), &args, &env);
    assert!(r.code == 0 || r.code == 1, "{}", r.both());
    (r.code, r.stdout, r.stderr)
}

/// Asserts the indexed check says what `--no-index` says; returns its stderr.
fn same_with_and_without(dream: &Path, memory: &Path, cache: &Path) -> String {
    let (c1, with, err) = check(dream, memory, cache, true);
    let (c2, without, _) = check(dream, memory, cache, false);
    assert_eq!((c1, &with), (c2, &without), "with the index vs --no-index\n{err}");
    err
}

/// Every index file under `cache`.
fn index_files(cache: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![cache.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "idx") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The number after `label` in the index stats line of `stderr`.
fn stat(stderr: &str, label: &str) -> u64 {
    let line = stderr.lines().find(|l| l.starts_with("index:")).unwrap_or_else(|| panic!("no stats in {stderr}"));
    let at = line.find(label).unwrap_or_else(|| panic!("{label} not in {line}"));
    line[..at].trim_end().rsplit(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
}

#[test]
fn cold_warm_and_no_index_agree_and_the_index_lives_in_the_cache() {
    let (_g, dream, memory) = project();
    let cache = tempfile::tempdir().unwrap();
    let err = same_with_and_without(&dream, &memory, cache.path());
    assert!(stat(&err, "bytes indexed") > 0, "{err}");
    let files = index_files(cache.path());
    assert_eq!(files.len(), 2, "one index per transcript: {files:?}");
    let a = memory.parent().unwrap().join(format!("{A}.jsonl"));
    assert!(index_file_of(&cache.path().join("dreamreview"), &a).exists());
    // Warm: nothing indexed again, same output.
    let err = same_with_and_without(&dream, &memory, cache.path());
    assert_eq!(stat(&err, "bytes indexed"), 0, "{err}");
    // Nothing was written next to the memory or the transcripts.
    let root = memory.parent().unwrap();
    let names: Vec<String> =
        std::fs::read_dir(root).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| n == "memory" || n.ends_with(".jsonl")), "{names:?}");
}

#[test]
fn an_appended_file_is_indexed_from_where_the_index_stopped() {
    let (_g, dream, memory) = project();
    let cache = tempfile::tempdir().unwrap();
    same_with_and_without(&dream, &memory, cache.path());
    let a = memory.parent().unwrap().join(format!("{A}.jsonl"));
    let more = lines(A, 3, &[(0, vec![26, 27]), (4, vec![16, 3])]);
    let mut f = std::fs::OpenOptions::new().append(true).open(&a).unwrap();
    std::io::Write::write_all(&mut f, more.as_bytes()).unwrap();
    drop(f);
    let err = same_with_and_without(&dream, &memory, cache.path());
    assert_eq!(stat(&err, "bytes indexed"), more.len() as u64, "{err}");
    // Truncated: indexed again whole.
    let keep = lines(A, 1, &[(0, vec![0, 2])]);
    std::fs::write(&a, &keep).unwrap();
    let err = same_with_and_without(&dream, &memory, cache.path());
    assert_eq!(stat(&err, "bytes indexed"), keep.len() as u64, "{err}");
}

#[test]
fn deleted_transcripts_lose_their_index() {
    let (_g, dream, memory) = project();
    let cache = tempfile::tempdir().unwrap();
    let root = memory.parent().unwrap().to_path_buf();
    let sub = root.join(A).join("subagents").join("agent-a1.jsonl");
    write(&sub, &lines(A, 1, &[(1, vec![0, 12])]));
    same_with_and_without(&dream, &memory, cache.path());
    assert_eq!(index_files(cache.path()).len(), 3);
    let b = root.join(format!("{B}.jsonl"));
    let b_index = index_file_of(&cache.path().join("dreamreview"), &b);
    let sub_index = index_file_of(&cache.path().join("dreamreview"), &sub);
    assert!(b_index.exists() && sub_index.exists());
    std::fs::remove_file(&b).unwrap();
    std::fs::remove_dir_all(root.join(A)).unwrap();
    same_with_and_without(&dream, &memory, cache.path());
    assert!(!b_index.exists(), "the deleted session's index is pruned");
    assert!(!sub_index.exists(), "the deleted sub-agent folder's index is pruned");
    assert_eq!(index_files(cache.path()).len(), 1);
}

/// The index of an earlier format (`index-v1/`, file names of another hash) is removed by
/// the next run, which indexes under `index-v2/` named by XXH3-64 of the paths.
#[test]
fn the_earlier_formats_folder_is_removed_and_names_are_xxh3() {
    let (_g, dream, memory) = project();
    let cache = tempfile::tempdir().unwrap();
    let old = cache.path().join("dreamreview/index-v1/0123456789abcdef");
    write(&old.join("fedcba9876543210.idx"), "DRIX");
    same_with_and_without(&dream, &memory, cache.path());
    assert!(!cache.path().join("dreamreview/index-v1").exists(), "the old format's folder is pruned");
    let files = index_files(cache.path());
    assert_eq!(files.len(), 2);
    let a = memory.parent().unwrap().join(format!("{A}.jsonl"));
    let name = format!("{:016x}.idx", xxhash_rust::xxh3::xxh3_64(a.file_name().unwrap().as_encoded_bytes()));
    assert!(files.iter().any(|f| f.file_name().unwrap().to_str() == Some(name.as_str())), "{files:?} {name}");
    assert!(files.iter().all(|f| f.starts_with(cache.path().join("dreamreview/index-v2"))));
}

/// A cache folder that cannot be written (here a file stands where it should be, which
/// stops root too) is said once, not once per transcript; the output is the same, and the
/// transcripts are scanned whole rather than indexed for nothing on every run.
#[test]
fn an_unwritable_cache_is_said_once_and_changes_nothing() {
    let (_g, dream, memory) = project();
    let dir = tempfile::tempdir().unwrap();
    let blocked = dir.path().join("not-a-folder");
    std::fs::write(&blocked, "a file where the cache folder should be").unwrap();
    for _ in 0..2 {
        let err = same_with_and_without(&dream, &memory, &blocked);
        assert_eq!(err.matches("cannot write the transcript index").count(), 1, "{err}");
        assert!(err.contains("--no-index"), "the note names a way out: {err}");
    }
}

#[test]
fn a_corrupt_or_half_written_index_is_rebuilt_with_a_note() {
    let (_g, dream, memory) = project();
    let cache = tempfile::tempdir().unwrap();
    same_with_and_without(&dream, &memory, cache.path());
    let files = index_files(cache.path());
    // Half written (a crash without the rename would leave the old file; a copy cut short
    // by hand, or a broken disk, leaves this).
    let bytes = std::fs::read(&files[0]).unwrap();
    std::fs::write(&files[0], &bytes[..bytes.len() / 2]).unwrap();
    // A flipped byte.
    let mut other = std::fs::read(&files[1]).unwrap();
    other[40] ^= 0x55;
    std::fs::write(&files[1], &other).unwrap();
    // And a temporary file a killed writer left behind.
    std::fs::write(files[0].with_file_name(".tmp-crashed"), &bytes[..10]).unwrap();
    let err = same_with_and_without(&dream, &memory, cache.path());
    assert_eq!(err.matches("was corrupt or of another version: rebuilt").count(), 2, "{err}");
    assert!(stat(&err, "bytes indexed") > 0);
    let err = same_with_and_without(&dream, &memory, cache.path());
    assert!(!err.contains("corrupt"), "rebuilt once: {err}");
    // An index of another format version (an older dreamreview's) is replaced silently.
    let mut old = std::fs::read(&files[0]).unwrap();
    let version = u32::from_le_bytes(old[4..8].try_into().unwrap());
    old[4..8].copy_from_slice(&(version - 1).to_le_bytes());
    let body = old.len() - 4;
    let sum = dreamreview::inputs::transcript::index::format::checksum32(&old[..body]);
    old[body..].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&files[0], &old).unwrap();
    let err = same_with_and_without(&dream, &memory, cache.path());
    assert!(!err.contains("corrupt") && stat(&err, "bytes indexed") > 0, "{err}");
}

#[test]
fn concurrent_runs_never_corrupt_the_index() {
    let (_g, dream, memory) = project();
    let root = memory.parent().unwrap();
    for i in 0..6 {
        let s = format!("{:08}-0000-4000-8000-00000000000{i}", i);
        let picks: Vec<(u8, Vec<usize>)> = (0..200).map(|j| ((j % 5) as u8, vec![j * 7, j * 3 + i])).collect();
        write(&root.join(format!("{s}.jsonl")), &lines(&s, 1, &picks));
    }
    let cache = tempfile::tempdir().unwrap();
    let (_, expected, _) = check(&dream, &memory, cache.path(), false);
    let bin = env!("CARGO_BIN_EXE_dreamreview");
    let children: Vec<_> = (0..4)
        .map(|_| {
            std::process::Command::new(bin)
                .args(["check", dream.to_str().unwrap(), "--json", "--memory", memory.to_str().unwrap()])
                .env("XDG_CACHE_HOME", cache.path())
                .env("HOME", root)
                .env("TZ", "UTC")
                .env("NO_COLOR", "1")
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
        assert!(!String::from_utf8_lossy(&out.stderr).contains("corrupt"));
    }
    let (_, warm, err) = check(&dream, &memory, cache.path(), true);
    assert_eq!(warm, expected);
    assert!(!err.contains("corrupt"), "{err}");
    assert_eq!(stat(&err, "bytes indexed"), 0, "{err}");
}

#[test]
fn index_files_hold_no_credential_nor_the_keys_of_its_words() {
    const GITHUB: &str = "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d";
    const AWS: &str = "AKIA2E0A8F3B244C9986";
    let (_g, dream, memory) = project();
    let root = memory.parent().unwrap();
    let c = "3b1d6a52-93d4-4e1b-8a7f-2c5d9e0b4a61";
    let text = [
        line(c, 1, 0, "hello hello"),
        line(c, 2, 0, &format!("export GITHUB_TOKEN={GITHUB}")),
        line(c, 3, 2, &format!("aws_access_key_id = {AWS}")),
    ];
    write(&root.join(format!("{c}.jsonl")), &(text.join("\n") + "\n"));
    let cache = tempfile::tempdir().unwrap();
    same_with_and_without(&dream, &memory, cache.path());
    let files = index_files(cache.path());
    assert_eq!(files.len(), 3);
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        for secret in [GITHUB, AWS] {
            for form in [secret.to_string(), secret.to_lowercase()] {
                assert!(bytes.windows(form.len()).all(|w| w != form.as_bytes()), "{secret} in {f:?}");
            }
        }
    }
    let ix = FileIndex::decode(
        &std::fs::read(index_file_of(&cache.path().join("dreamreview"), &root.join(format!("{c}.jsonl")))).unwrap(),
    )
    .unwrap();
    let mut hello = Vec::new();
    grams::text_keys("hello hello", |k| hello.push(k));
    assert!(hello.iter().all(|k| ix.keys.binary_search(k).is_ok()), "the plain line is indexed");
    for secret in [GITHUB, AWS] {
        let mut keys = Vec::new();
        grams::text_keys(secret, |k| keys.push(k));
        let leaked: Vec<&u32> =
            keys.iter().filter(|k| ix.keys.binary_search(k).is_ok() && !hello.contains(k)).collect();
        assert!(leaked.is_empty(), "keys of {secret} in the index: {leaked:?}");
    }
    assert_eq!(ix.dirty, vec![false, true, true], "the lines holding them are always read instead");
}

/// An edit to the transcripts between two checks.
#[derive(Clone, Debug)]
enum Edit {
    Append(bool, Vec<(u8, Vec<usize>)>),
    Truncate(bool, usize),
    Rewrite(bool, Vec<(u8, Vec<usize>)>),
    Delete(bool),
    NewSession(u8, Vec<(u8, Vec<usize>)>),
    SubAgent(bool, Vec<(u8, Vec<usize>)>),
    HalfWriteIndex(usize),
    PartialLine(bool, usize),
}

fn picks() -> impl Strategy<Value = Vec<(u8, Vec<usize>)>> {
    prop::collection::vec((0u8..5, prop::collection::vec(0usize..PHRASES.len(), 1..6)), 1..8)
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<bool>(), picks()).prop_map(|(s, p)| Edit::Append(s, p)),
        (any::<bool>(), 0usize..4).prop_map(|(s, k)| Edit::Truncate(s, k)),
        (any::<bool>(), picks()).prop_map(|(s, p)| Edit::Rewrite(s, p)),
        any::<bool>().prop_map(Edit::Delete),
        (0u8..3, picks()).prop_map(|(n, p)| Edit::NewSession(n, p)),
        (any::<bool>(), picks()).prop_map(|(s, p)| Edit::SubAgent(s, p)),
        (0usize..4).prop_map(Edit::HalfWriteIndex),
        (any::<bool>(), 1usize..60).prop_map(|(s, n)| Edit::PartialLine(s, n)),
    ]
}

fn apply(edit: &Edit, root: &Path, cache: &Path) {
    let session = |s: bool| if s { A } else { B };
    let path = |s: bool| root.join(format!("{}.jsonl", session(s)));
    let count = |p: &Path| std::fs::read_to_string(p).map(|t| t.lines().count()).unwrap_or(0);
    let append = |p: &Path, text: &str| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(p).unwrap();
        std::io::Write::write_all(&mut f, text.as_bytes()).unwrap();
    };
    match edit {
        Edit::Append(s, p) => append(&path(*s), &lines(session(*s), count(&path(*s)) + 1, p)),
        Edit::Truncate(s, k) => {
            if let Ok(t) = std::fs::read_to_string(path(*s)) {
                let kept: Vec<&str> = t.split_inclusive('\n').take(*k).collect();
                std::fs::write(path(*s), kept.concat()).unwrap();
            }
        }
        Edit::Rewrite(s, p) => std::fs::write(path(*s), lines(session(*s), 1, p)).unwrap(),
        Edit::Delete(s) => {
            let _ = std::fs::remove_file(path(*s));
        }
        Edit::NewSession(n, p) => {
            let s = format!("{n:08}-aaaa-4000-8000-000000000000");
            append(&root.join(format!("{s}.jsonl")), &lines(&s, 1, p));
        }
        Edit::SubAgent(s, p) => {
            let f = root.join(session(*s)).join("subagents").join("agent-a1.jsonl");
            let n = count(&f);
            append(&f, &lines(session(*s), n + 1, p));
        }
        Edit::HalfWriteIndex(i) => {
            let files = index_files(cache);
            if let Some(f) = files.get(i % files.len().max(1)) {
                let bytes = std::fs::read(f).unwrap();
                std::fs::write(f, &bytes[..bytes.len() / 2]).unwrap();
            }
        }
        Edit::PartialLine(s, n) => {
            // A line being written: no newline yet.
            let l = line(session(*s), count(&path(*s)) + 1, 0, "db-staging-2 this week 2026-10-12");
            append(&path(*s), &l[..(*n).min(l.len())]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// After any sequence of edits, the indexed check says what a full scan says.
    #[test]
    fn edits_never_change_what_check_says(a in picks(), b in picks(), edits in prop::collection::vec(edit(), 1..5)) {
        let (_g, dream, memory) = project();
        let root = memory.parent().unwrap().to_path_buf();
        std::fs::write(root.join(format!("{A}.jsonl")), lines(A, 1, &[(0, vec![0, 2])]) + &lines(A, 2, &a)).unwrap();
        std::fs::write(root.join(format!("{B}.jsonl")), lines(B, 1, &b)).unwrap();
        let cache = tempfile::tempdir().unwrap();
        same_with_and_without(&dream, &memory, cache.path());
        prop_assert!(!index_files(cache.path()).is_empty());
        for e in &edits {
            apply(e, &root, cache.path());
            same_with_and_without(&dream, &memory, cache.path());
        }
    }
}

/// `apply` reads the transcripts through the index too (its checks are `check`'s), and
/// `--no-index` keeps it out of the cache.
#[test]
fn apply_uses_the_index_unless_told_not_to() {
    for (no_index, expected) in [(true, 0), (false, 2)] {
        let (_g, dream, memory) = project();
        let cache = tempfile::tempdir().unwrap();
        let mut args =
            vec!["apply", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap(), "--accept-all", "--init"];
        if no_index {
            args.push("--no-index");
        }
        let r = run_env(dream.parent().unwrap(), &args, &[("XDG_CACHE_HOME", cache.path().to_str().unwrap())]);
        assert!(r.code == 0 || r.code == 1, "{}", r.both());
        assert_eq!(index_files(cache.path()).len(), expected, "--no-index {no_index}: {}", r.both());
    }
}

/// Waits (up to a minute) until `n` index files are under `cache` and no background
/// build holds it.
fn wait_for_index(cache: &Path, n: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while index_files(cache).len() < n {
        assert!(std::time::Instant::now() < deadline, "no background index after a minute: {:?}", index_files(cache));
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    wait_for_builds(&cache.join("dreamreview")).unwrap();
}

/// A run that meets more unindexed transcript than it may index inline scans it whole
/// (same output), says so, and leaves it to a background `dreamreview index`: the next
/// run finds every index current.
#[test]
fn a_large_backlog_is_indexed_in_the_background_for_the_next_run() {
    let (_g, dream, memory) = project();
    let cache = tempfile::tempdir().unwrap();
    let none = [("DREAMREVIEW_INDEX_INLINE_BYTES", "0")];
    let (code, with, err) = check_env(&dream, &memory, cache.path(), true, &none);
    assert!(err.contains("indexing 2 transcripts") && err.contains("in the background"), "{err}");
    assert_eq!(stat(&err, "bytes indexed"), 0, "{err}");
    let (c2, without, _) = check(&dream, &memory, cache.path(), false);
    assert_eq!((code, &with), (c2, &without));
    wait_for_index(cache.path(), 2);
    let (c3, again, err) = check_env(&dream, &memory, cache.path(), true, &none);
    assert!(!err.contains("background"), "the index was not built: {err}");
    assert_eq!(stat(&err, "bytes indexed"), 0, "{err}");
    assert_eq!((c3, &again), (c2, &without));
    // A grown transcript: its index serves what it covers, the appended end is read as it
    // is, and the extension is left to the background.
    let a = memory.parent().unwrap().join(format!("{A}.jsonl"));
    let more = lines(A, 3, &[(0, vec![26, 27]), (4, vec![16, 0])]);
    let mut f = std::fs::OpenOptions::new().append(true).open(&a).unwrap();
    std::io::Write::write_all(&mut f, more.as_bytes()).unwrap();
    drop(f);
    let ix_a = index_file_of(&cache.path().join("dreamreview"), &a);
    let stamp = || std::fs::metadata(&ix_a).and_then(|m| m.modified()).ok();
    let before = stamp();
    let (c4, grown, err) = check_env(&dream, &memory, cache.path(), true, &none);
    assert!(err.contains("indexing 1 transcripts"), "{err}");
    assert!(stat(&err, "bytes of candidate blocks read") >= more.len() as u64, "{err}");
    let (c5, plain, _) = check(&dream, &memory, cache.path(), false);
    assert_eq!((c4, &grown), (c5, &plain));
    // The background build extends A's index (a new file renamed over it).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while stamp() == before {
        assert!(std::time::Instant::now() < deadline, "A's index was not extended in a minute");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    wait_for_builds(&cache.path().join("dreamreview")).unwrap();
    // --no-index never starts one.
    let fresh = tempfile::tempdir().unwrap();
    let (_, _, err) = check_env(&dream, &memory, fresh.path(), false, &none);
    assert!(!err.contains("background"), "{err}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(index_files(fresh.path()).is_empty());
}

/// `dreamreview index DIR` builds the index of every transcript under DIR, and leaves the
/// work to a build already running.
#[test]
fn the_index_command_builds_what_a_check_would_and_yields_to_a_running_build() {
    let (_g, dream, memory) = project();
    let cache = tempfile::tempdir().unwrap();
    let root = memory.parent().unwrap();
    let env = [("XDG_CACHE_HOME", cache.path().to_str().unwrap()), ("DREAMREVIEW_INDEX_BLOCK_BYTES", "1")];
    let lock = cache.path().join("dreamreview/index-v2/.build.lock");
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let held = std::fs::File::create(&lock).unwrap();
    held.lock().unwrap();
    let r = run_env(root, &["index", root.to_str().unwrap()], &env);
    assert_eq!(r.code, 0, "{}", r.both());
    assert!(r.stdout.contains("another dreamreview is building"), "{}", r.both());
    assert!(index_files(cache.path()).is_empty());
    drop(held);
    let r = run_env(root, &["index", root.to_str().unwrap()], &env);
    assert_eq!(r.code, 0, "{}", r.both());
    assert!(r.stdout.starts_with("2 of 2 transcripts indexed"), "{}", r.both());
    assert_eq!(index_files(cache.path()).len(), 2);
    let none = [("DREAMREVIEW_INDEX_INLINE_BYTES", "0")];
    let (_, _, err) = check_env(&dream, &memory, cache.path(), true, &none);
    assert!(!err.contains("background") && stat(&err, "bytes indexed") == 0, "{err}");
    let r = run_env(root, &["index", root.join("nowhere").to_str().unwrap()], &env);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("nowhere"), "{}", r.both());
}

/// A transcript over the size cap is read whole, never indexed nor left for later (its
/// build would hold about twice its size in memory).
#[test]
fn a_transcript_over_the_size_cap_is_read_whole_and_never_indexed() {
    let (_g, dream, memory) = project();
    let cache = tempfile::tempdir().unwrap();
    let env = [("DREAMREVIEW_INDEX_MAX_FILE_BYTES", "100"), ("DREAMREVIEW_INDEX_INLINE_BYTES", "0")];
    let (code, with, err) = check_env(&dream, &memory, cache.path(), true, &env);
    assert!(!err.contains("background"), "{err}");
    let (c2, without, _) = check(&dream, &memory, cache.path(), false);
    assert_eq!((code, &with), (c2, &without));
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(index_files(cache.path()).is_empty(), "{:?}", index_files(cache.path()));
}
