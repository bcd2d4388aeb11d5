//! The bad-input catalogue, reading side: what dreamreview does with a broken dream
//! folder, CHANGES.md, transcripts and memory.diff. Every case names its behaviour: either
//! bad input (exit 2, a message naming the file and the fix) or a flag or note the review
//! shows; and in every case nothing on disk changes — not the memory folder, not `HEAD`,
//! not the dream, not the transcripts — unless an `apply` is asked to and may.

use crate::hardening_support::*;
use std::io::Write;
use std::time::Duration;

/// What `check --json` printed, parsed.
fn json(r: &Run) -> serde_json::Value {
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", r.both()))
}

/// The kinds of the flags on the first hunk of `path` in a `check --json` object.
fn hunk_flags(j: &serde_json::Value, path: &str) -> Vec<String> {
    let files = j["files"].as_array().expect("files");
    let f = files.iter().find(|f| f["path"] == path).unwrap_or_else(|| panic!("no file {path} in {j}"));
    f["hunks"][0]["flags"].as_array().expect("flags").iter().map(|x| x["kind"].as_str().unwrap().to_string()).collect()
}

/// The notes of a `check --json` object.
fn notes(j: &serde_json::Value) -> Vec<String> {
    j["notes"].as_array().expect("notes").iter().map(|n| n.as_str().unwrap().to_string()).collect()
}

/// Checks `p` twice (text, JSON) and asserts nothing on disk changed; returns the JSON.
fn check_writes_nothing(p: &Project, code: i32) -> (Run, serde_json::Value) {
    let before = p.fingerprint();
    let text = p.check(&[]);
    assert_eq!(text.code, code, "{}", text.both());
    let j = p.check(&["--json"]);
    assert_eq!(j.code, code, "{}", j.both());
    before.assert_same(&p.fingerprint());
    (text, json(&j))
}

// ---------------------------------------------------------------------------------------
// The dream folder

/// An empty dream folder is not a dream: exit 2 naming the folder and what was expected.
#[test]
fn empty_dream_folder_is_bad_input() {
    let p = Project::standard();
    std::fs::remove_dir_all(&p.dream).unwrap();
    std::fs::create_dir(&p.dream).unwrap();
    let dream = format!("{} holds no notes", p.dream.display());
    p.assert_refused(&[&dream, "expected a dream.sh folder (memory/, CHANGES.md) or a folder of .md notes"]);
}

/// A dream folder with CHANGES.md but no proposal: the run did not finish; exit 2.
#[test]
fn dream_folder_without_proposal_is_bad_input() {
    let p = Project::standard();
    std::fs::remove_dir_all(p.dream.join("memory")).unwrap();
    let dream = format!("dream folder {} has no proposed notes", p.dream.display());
    p.assert_refused(&[&dream, "check that the dream run finished"]);
}

/// A proposal folder that is empty would delete every note: refused, never applied.
#[test]
fn empty_proposal_folder_is_bad_input() {
    let p = Project::standard();
    for n in ["MEMORY.md", "testing.md"] {
        std::fs::remove_file(p.dream.join("memory").join(n)).unwrap();
    }
    let proposal = format!("{} holds no notes", p.dream.join("memory").display());
    p.assert_refused(&[&proposal, "a dream that deletes every note is not reviewable"]);
}

/// A dream folder that does not exist: exit 2 naming it.
#[test]
fn missing_dream_folder_is_bad_input() {
    let p = Project::standard();
    std::fs::remove_dir_all(&p.dream).unwrap();
    let dream = format!("dream folder {} cannot be opened", p.dream.display());
    p.assert_refused(&[&dream, "pass the folder the dream wrote"]);
}

// ---------------------------------------------------------------------------------------
// CHANGES.md

/// An empty CHANGES.md explains nothing: every hunk is flagged `citation-missing`
/// (a warning: exit 0) and the review goes on.
#[test]
fn empty_changes_md_flags_every_hunk_citation_missing() {
    let p = Project::new(LIVE, PROPOSED, Some(b""));
    let (text, j) = check_writes_nothing(&p, 0);
    assert_eq!(hunk_flags(&j, "testing.md"), ["citation-missing"]);
    assert!(
        text.stdout.contains("warning[citation-missing]: no CHANGES.md entry explains testing.md#1"),
        "{}",
        text.stdout
    );
    assert_eq!(j["changes"].as_array().unwrap().len(), 0);
}

/// A binary CHANGES.md (NUL bytes: a crashed write, a wrong file) is ignored with a note
/// saying so; its garbage is never shown as entries; every hunk is `citation-missing`.
#[test]
fn binary_changes_md_is_ignored_with_a_note() {
    let mut garbage: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    garbage.extend_from_slice(b"\0\x1b[2J\0");
    let p = Project::new(LIVE, PROPOSED, Some(&garbage));
    let (text, j) = check_writes_nothing(&p, 0);
    let note = format!(
        "{}: binary (it holds NUL bytes), not a change log; ignored, so no change has a CHANGES.md entry. \
         Check that the dream run finished writing it",
        p.dream.join("CHANGES.md").display()
    );
    assert_eq!(notes(&j), std::slice::from_ref(&note));
    assert!(text.stdout.contains(&format!("note    {note}")), "{}", text.stdout);
    assert!(!text.stdout.contains("\nCHANGES.md\n"), "no entries section: {}", text.stdout);
    assert_eq!(hunk_flags(&j, "testing.md"), ["citation-missing"]);
}

/// A CHANGES.md that is not UTF-8 (but not binary) is read with U+FFFD, with a note.
#[test]
fn non_utf8_changes_md_is_read_with_a_note() {
    let p = Project::new(LIVE, PROPOSED, Some(b"- testing.md: tests run with `pnpm test` \xff\xfe (s1.jsonl:1)\n"));
    let (_, j) = check_writes_nothing(&p, 0);
    let note = format!("{}: not valid UTF-8; read with replacement characters", p.dream.join("CHANGES.md").display());
    assert_eq!(notes(&j), [note]);
    assert_eq!(j["changes"][0]["text"], "testing.md: tests run with `pnpm test` \u{fffd}\u{fffd} (s1.jsonl:1)");
    assert_eq!(j["changes"][0]["hunks"][0], "testing.md#1");
    assert_eq!(hunk_flags(&j, "testing.md"), Vec::<String>::new(), "the entry still explains the hunk");
}

/// A 50 MB CHANGES.md is no change log: refused at once (exit 2) from its size alone,
/// naming the file, its size and the fix — never read, so the time is bounded.
#[test]
fn changes_md_of_50_mb_is_bad_input_refused_quickly() {
    let p = Project::standard();
    let line = b"- testing.md: tests run with `pnpm test` on 2026-11-01 (s1.jsonl:1)\n";
    let mut f = std::io::BufWriter::new(std::fs::File::create(p.dream.join("CHANGES.md")).unwrap());
    for _ in 0..(50_000_000 / line.len() + 1) {
        f.write_all(line).unwrap();
    }
    f.flush().unwrap();
    drop(f);
    let size = std::fs::metadata(p.dream.join("CHANGES.md")).unwrap().len();
    let what = format!(
        "{} is {:.1} MB, more than the 2 MiB a change log can be",
        p.dream.join("CHANGES.md").display(),
        size as f64 / 1e6
    );
    let a = p.assert_refused(&[&what, "move it out of the dream folder"]);
    assert!(a.took < Duration::from_secs(5), "took {:?}", a.took);
}

/// A CHANGES.md with a 1 MB line is one (long) entry: parsed, cited, shown; no crash.
#[test]
fn changes_md_with_a_1_mb_line_is_one_entry() {
    let mut c = b"- testing.md: tests run with `pnpm test` (s1.jsonl:1) ".to_vec();
    c.extend(std::iter::repeat_n(b'x', 1 << 20));
    c.extend_from_slice(b"\n- a second entry\n");
    let p = Project::new(LIVE, PROPOSED, Some(&c));
    let (_, j) = check_writes_nothing(&p, 0);
    let changes = j["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2);
    assert_eq!(changes[0]["text"].as_str().unwrap().len(), c.len() - "- \n- a second entry\n".len());
    assert_eq!(changes[0]["citations"][0]["resolved"], true);
    assert_eq!(changes[0]["hunks"][0], "testing.md#1");
    assert_eq!(changes[1]["line"], 2);
}

/// Control sequences in notes and CHANGES.md (a clipboard write, a screen clear, a bare
/// CR hiding the start of a line) are shown as visible symbols by `check`, never sent to
/// the terminal.
#[test]
fn control_sequences_are_shown_not_sent() {
    let proposed: &[(&str, &[u8])] = &[
        ("MEMORY.md", PROPOSED[0].1),
        ("testing.md", b"---\nname: testing\ndescription: how to run the tests\ntype: project\n---\n\nRun tests with `pnpm test`.\x1b]52;c;cm0gLXJmIH4=\x07 rm -rf\rsafe\n"),
    ];
    let p = Project::new(LIVE, proposed, Some(b"- testing.md: \x1b[2J\x1b[H`pnpm test` (s1.jsonl:1)\n"));
    let (text, _) = check_writes_nothing(&p, 0);
    assert!(!text.stdout.contains(['\x1b', '\x07', '\r']), "{:?}", text.stdout);
    assert!(
        text.stdout.contains("+Run tests with `pnpm test`.\u{241b}]52;c;cm0gLXJmIH4=\u{2407} rm -rf\u{240d}safe\n"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("testing.md: \u{241b}[2J\u{241b}[H`pnpm test`"), "{}", text.stdout);
}

// ---------------------------------------------------------------------------------------
// Transcripts

/// The standard change cites `s1.jsonl:<line>`; the note claims `port 6379`.
fn port_project(transcript: &[u8], line: usize) -> Project {
    let proposed: &[(&str, &[u8])] = &[
        ("MEMORY.md", PROPOSED[0].1),
        (
            "testing.md",
            b"---\nname: testing\ndescription: how to run the tests\ntype: project\n---\n\nRun tests with `npm test`.\nThe cache listens on port 6379.\n",
        ),
    ];
    let changes = format!("- testing.md: Redis on port 6379 (s1.jsonl:{line})\n");
    let p = Project::new(LIVE, proposed, Some(changes.as_bytes()));
    put(&p.root.join("project/s1.jsonl"), transcript);
    p
}

/// The claims of the first hunk as (text, status).
fn claims(j: &serde_json::Value) -> Vec<(String, String)> {
    j["files"][0]["hunks"][0]["claims"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|c| (c["text"].as_str().unwrap().to_string(), c["status"].as_str().unwrap().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// A transcript whose last line was cut mid-write (the session was still running) is read
/// as far as it goes: the cut line says what its readable beginning says.
#[test]
fn truncated_last_transcript_line_says_its_beginning() {
    let t = format!(
        "{SESSION_LINE}\n{{\"type\":\"user\",\"timestamp\":\"2026-11-01T10:00:00Z\",\"message\":{{\"role\":\"user\",\"content\":\"Redis is on port 6379 and the ne"
    );
    let p = port_project(t.as_bytes(), 2);
    let (text, j) = check_writes_nothing(&p, 0);
    assert_eq!(claims(&j), [("port 6379".to_string(), "sourced".to_string())]);
    let cit = &j["changes"][0]["citations"][0];
    assert_eq!(cit["resolved"], true);
    assert_eq!(cit["excerpt"], "2026-11-01 10:00:00 · user · Redis is on port 6379 and the ne […]");
    assert_eq!(hunk_flags(&j, "testing.md"), Vec::<String>::new(), "{}", text.stdout);
}

/// Invalid UTF-8 inside a transcript line (a mangled tool output) is read as U+FFFD: the
/// rest of the line still sources the claim.
#[test]
fn invalid_utf8_in_a_transcript_line_is_read_lossily() {
    let mut t = SESSION_LINE.as_bytes().to_vec();
    t.extend_from_slice(b"\n{\"type\":\"user\",\"timestamp\":\"2026-11-01T10:00:00Z\",\"message\":{\"role\":\"user\",\"content\":\"caf\xe9 \xff Redis listens on port 6379\"}}\n");
    let p = port_project(&t, 2);
    let (_, j) = check_writes_nothing(&p, 0);
    assert_eq!(claims(&j), [("port 6379".to_string(), "sourced".to_string())]);
    assert_eq!(
        j["changes"][0]["citations"][0]["excerpt"],
        "2026-11-01 10:00:00 · user · caf\u{fffd} \u{fffd} Redis listens on port 6379"
    );
}

/// A line that is valid JSON of the wrong shape (a bare array, a number for `message`,
/// a string) is shown raw but says nothing: it does not source the claim, which is an
/// `unsourced-claim` — its one flag (the entry, whose only claim it is, gets no second).
#[test]
fn wrong_shape_json_lines_say_nothing() {
    let t = b"[\"Redis listens on port 6379\"]\n{\"type\":\"user\",\"message\":6379,\"content\":[\"port 6379\"]}\n\"port 6379\"\n";
    for line in 1..=3 {
        let p = port_project(t, line);
        let (_, j) = check_writes_nothing(&p, 0);
        assert_eq!(claims(&j), [("port 6379".to_string(), "unsourced".to_string())], "line {line}");
        assert_eq!(j["changes"][0]["citations"][0]["resolved"], true, "line {line}");
        let entry_flags: Vec<&str> =
            j["changes"][0]["flags"].as_array().unwrap().iter().map(|f| f["kind"].as_str().unwrap()).collect();
        assert_eq!(entry_flags, Vec::<&str>::new(), "line {line}");
        assert_eq!(hunk_flags(&j, "testing.md"), ["unsourced-claim"], "line {line}");
    }
}

/// A 200 MB transcript that is one single line (a pasted dump) is indexed, scanned and
/// cited within bounded time and memory: the cited line is read up to the 4 MiB cap and
/// marked cut.
#[test]
fn a_200_mb_single_line_transcript_is_read_in_bounded_time() {
    let p = port_project(SESSION_LINE.as_bytes(), 1);
    let big = p.root.join("project/huge.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&big).unwrap());
    f.write_all(
        br#"{"type":"user","timestamp":"2026-11-01T11:00:00Z","message":{"role":"user","content":"Redis port 6379 "#,
    )
    .unwrap();
    let filler = vec![b'a'; 1 << 20];
    for _ in 0..200 {
        f.write_all(&filler).unwrap();
    }
    f.write_all(b"\"}}\n").unwrap();
    drop(f);
    put(&p.dream.join("CHANGES.md"), b"- testing.md: Redis on port 6379 (huge.jsonl:1)\n");
    let before = p.fingerprint();
    let r = p.check(&["--json"]);
    assert_eq!(r.code, 0, "{}", r.both());
    before.assert_same(&p.fingerprint());
    assert!(r.took < Duration::from_secs(20), "took {:?}", r.took);
    let j = json(&r);
    let cit = &j["changes"][0]["citations"][0];
    assert_eq!(cit["resolved"], true, "{cit}");
    assert!(cit["excerpt"].as_str().unwrap().starts_with("2026-11-01 11:00:00 · user · Redis port 6379"), "{cit}");
    assert!(cit["excerpt"].as_str().unwrap().ends_with("[…]"), "{cit}");
    assert_eq!(claims(&j), [("port 6379".to_string(), "sourced".to_string())]);
}

// ---------------------------------------------------------------------------------------
// memory.diff

/// A memory.diff whose hunk is cut short is bad input: exit 2 naming the file and line.
#[test]
fn malformed_memory_diff_is_bad_input_naming_the_line() {
    let p = Project::standard();
    let live = p.memory.join("testing.md");
    let diff = format!("--- {0}\n+++ /tmp/x/memory/testing.md\n@@ -1,3 +1,3 @@\n ---\n", live.display());
    put(&p.dream.join("memory.diff"), diff.as_bytes());
    let what =
        format!("{}: line 3: hunk ends before its line counts are reached", p.dream.join("memory.diff").display());
    p.assert_refused(&[
        &what,
        "regenerate it with `diff -ruN LIVE PROPOSED > memory.diff`, or remove it and pass --memory DIR",
    ]);
}

/// A memory.diff that is no diff at all is bad input, named.
#[test]
fn memory_diff_that_is_not_a_diff_is_bad_input() {
    let p = Project::standard();
    put(&p.dream.join("memory.diff"), b"diff: cannot read live memory: Permission denied\n");
    let what = format!("{}: not a unified diff", p.dream.join("memory.diff").display());
    p.assert_refused(&[&what]);
}

/// A memory.diff that is not UTF-8 is bad input, named.
#[test]
fn non_utf8_memory_diff_is_bad_input() {
    let p = Project::standard();
    put(&p.dream.join("memory.diff"), b"--- a\xff\n+++ b\n");
    let what = format!("{} is not UTF-8 text", p.dream.join("memory.diff").display());
    p.assert_refused(&[&what]);
}

/// memory.diff naming a path outside the memory folder (`..`): the path is an
/// `outside-memory` error (exit 1) and is never written, even by `apply --accept-all`,
/// which writes the rest and reports the skip.
#[test]
fn memory_diff_naming_outside_paths_is_flagged_and_never_written() {
    let p = Project::standard();
    let outside = p.root.join("project/victim.md");
    put(&outside, b"keep me\n");
    let m = p.memory.display().to_string();
    let diff = format!(
        "--- {m}/testing.md\n+++ /tmp/x/memory/testing.md\n@@ -7 +7 @@\n-Run tests with `npm test`.\n+Run tests with `pnpm test`.\n\
         --- {m}/../victim.md\n+++ /tmp/x/memory/../victim.md\n@@ -1 +1 @@\n-keep me\n+owned\n"
    );
    put(&p.dream.join("memory.diff"), diff.as_bytes());
    let (_, j) = check_writes_nothing(&p, 1);
    let files = j["files"].as_array().unwrap();
    let out = files.iter().find(|f| f["path"].as_str().unwrap().contains("victim")).expect("outside file listed");
    assert_eq!(out["flags"][0]["kind"], "outside-memory");
    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 1, "{}", a.both());
    assert!(
        a.stdout
            .contains(&format!("skipped   {m}/../victim.md: names a path outside the memory folder; never written")),
        "{}",
        a.both()
    );
    assert_eq!(std::fs::read(&outside).unwrap(), b"keep me\n");
    assert_eq!(std::fs::read(p.memory.join("testing.md")).unwrap(), PROPOSED[1].1);
}

/// memory.diff naming a note the proposal does not hold in that form (a diff taken
/// before the proposal was edited): a note says so and live memory is the base.
#[test]
fn memory_diff_not_matching_the_proposal_falls_back_to_live_with_a_note() {
    let p = Project::standard();
    let m = p.memory.display().to_string();
    let diff = format!(
        "--- {m}/testing.md\n+++ /tmp/x/memory/testing.md\n@@ -7 +7 @@\n-Run tests with `yarn test`.\n+Run tests with `bun test`.\n"
    );
    put(&p.dream.join("memory.diff"), diff.as_bytes());
    let (_, j) = check_writes_nothing(&p, 0);
    let note = format!(
        "{}: memory.diff does not match the proposal for testing.md; comparing it with live memory as it is now",
        p.dream.join("memory.diff").display()
    );
    assert_eq!(notes(&j), [note]);
    let added: Vec<&str> = j["files"][0]["hunks"][0]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["op"] == "+")
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(added, ["Run tests with `pnpm test`.\n"]);
}

// ---------------------------------------------------------------------------------------
// Notes

/// A dream that rewrites every line of a big note makes one huge hunk; a PERMANENT line
/// it only moves is not flagged, one it drops is (the check is a set lookup per line: it
/// compared every removed line with every added one, minutes for 100,000 lines).
#[test]
fn a_big_note_rewritten_whole_flags_only_dropped_permanent_lines() {
    let body = |tag: &str| (0..3_000).map(|i| format!("entry {i} {tag}\n")).collect::<String>();
    let head = "---\nname: big\ndescription: a big note\ntype: reference\n---\n";
    let moved = "PERMANENT: the prod database is never dropped\n";
    let dropped = "PERMANENT: deploys need two approvals\n";
    let old = format!("{head}{moved}{}{dropped}", body("old"));
    let new = format!("{head}{}{moved}", body("new"));
    let live: &[(&str, &[u8])] = &[("big.md", old.as_bytes())];
    let proposed: &[(&str, &[u8])] = &[("big.md", new.as_bytes())];
    let p = Project::new(live, proposed, Some(b"- big.md: rewritten\n"));
    let (_, j) = check_writes_nothing(&p, 1);
    let flags: Vec<String> = j["files"][0]["hunks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|h| h["flags"].as_array().unwrap().iter())
        .filter(|f| f["kind"] == "permanent-deleted")
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(flags.len(), 1, "{flags:?}");
    assert!(
        flags[0].ends_with("removes or changes a PERMANENT line: «PERMANENT: deploys need two approvals»"),
        "{flags:?}"
    );
}
