//! Memory stays bounded whatever the input says: a CHANGES.md the size limit admits, with
//! hundreds of entries citing one huge transcript line, is checked under an address-space
//! limit (the line is read once and shared, never once per citation). Run under
//! `ulimit -v` in a real `sh`, so a regression aborts on allocation instead of passing.

use crate::hardening_support::*;
use std::process::Command;

/// 600 entries citing line 1 of an 8 MiB transcript line. Before the cited-line cache the
/// evidence held ~4 MiB per citation (2.5 GB, 21 s); now it is held once (~30 MiB).
#[test]
fn many_citations_of_one_huge_line_fit_in_800_mb_of_address_space() {
    let p = Project::new(&[("a.md", b"old\n")], &[("a.md", b"new value 4242\n")], None);
    let huge = format!(
        "{{\"type\":\"user\",\"timestamp\":\"2026-11-01T09:00:00Z\",\"message\":{{\"role\":\"user\",\"content\":\"the value is 4242 {}\"}}}}\n",
        "x".repeat(8 << 20)
    );
    put(&p.root.join("project/s1.jsonl"), huge.as_bytes());
    let changes: String = (0..600).map(|_| "- a.md: set the value to 4242 (s1.jsonl:1)\n").collect();
    put(&p.dream.join("CHANGES.md"), changes.as_bytes());
    let script = format!(
        "ulimit -v 800000; exec '{}' check '{}' --memory '{}' --json",
        env!("CARGO_BIN_EXE_dreamreview"),
        s(&p.dream),
        s(&p.memory)
    );
    let out = shell(&script, &p.root);
    let code = out.status.code().unwrap_or(-1);
    assert!(code == 0 || code == 1, "exit {code}: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(v["changes"].as_array().map(Vec::len), Some(600));
    // Every entry's claim is sourced by the cited line, whose text is not repeated 600 times.
    assert!(out.stdout.len() < 64 << 20, "output of {} bytes", out.stdout.len());
}

/// One note rewritten into 20,000 one-line hunks, `check --json` under a 200 MB
/// address-space limit. The report is tens of MB of JSON; it is masked while it streams
/// out, not held as a `serde_json::Value` tree (which took ~240 MiB here and aborted).
#[test]
fn a_report_of_20000_hunks_streams_out_in_200_mb_of_address_space() {
    let (mut live, mut proposal) = (String::new(), String::new());
    for i in 0..20_000 {
        for c in 'a'..='g' {
            live.push_str(&format!("{c}\n"));
            proposal.push_str(&format!("{c}\n"));
        }
        live.push_str(&format!("keep {i}\n"));
        proposal.push_str(&format!("kept {i}\n"));
    }
    let p = Project::new(&[("many.md", live.as_bytes())], &[("many.md", proposal.as_bytes())], None);
    let script = format!(
        "ulimit -v 200000; exec '{}' check '{}' --memory '{}' --json",
        env!("CARGO_BIN_EXE_dreamreview"),
        s(&p.dream),
        s(&p.memory)
    );
    let out = shell(&script, &p.root);
    let code = out.status.code().unwrap_or(-1);
    assert!(code == 0 || code == 1, "exit {code}: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    let hunks = v["files"].as_array().and_then(|f| f.first()).and_then(|f| f["hunks"].as_array()).map(Vec::len);
    assert_eq!(hunks, Some(20_000));
}

/// Runs `script` with `sh -c` in `dir` (no colour; the tests' cache folder).
fn shell(script: &str, dir: &std::path::Path) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("XDG_CACHE_HOME", crate::common::cache_home())
        .output()
        .unwrap()
}

/// A sparse 1.5 GiB note (in the proposal, then in the live folder) and a 40 MiB
/// decisions file: each refused by its size before a byte is read, under 300 MB of
/// address space, naming the limit and how to raise it (once: the process aborted out of
/// memory, exit 134).
#[test]
fn files_over_a_size_limit_are_refused_before_they_are_read() {
    let p = Project::standard();
    let huge = std::fs::File::create(p.dream.join("memory/huge.md")).unwrap();
    huge.set_len(3 << 29).unwrap();
    let run = |args: &str| {
        let script = format!("ulimit -v 300000; exec '{}' {args}", env!("CARGO_BIN_EXE_dreamreview"));
        shell(&script, &p.root)
    };
    let check = format!("check '{}' --memory '{}'", s(&p.dream), s(&p.memory));
    let out = run(&check);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("huge.md is 1.5 GiB, over the 16 MiB limit on a note"), "{err}");
    assert!(err.contains("DREAMREVIEW_MAX_NOTE_MIB"), "{err}");
    std::fs::rename(p.dream.join("memory/huge.md"), p.memory.join("huge.md")).unwrap();
    let out = run(&check);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("huge.md is 1.5 GiB"), "{err}");
    let audit = run(&format!("audit '{}'", s(&p.memory)));
    assert!(audit.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&audit.stderr));
    assert!(String::from_utf8_lossy(&audit.stdout).contains("over the 16 MiB limit on a note"));
    std::fs::remove_file(p.memory.join("huge.md")).unwrap();
    let decisions = p.root.join("decisions.json");
    let f = std::fs::File::create(&decisions).unwrap();
    f.set_len(40 << 20).unwrap();
    let out = run(&format!("apply '{}' --memory '{}' --decisions '{}'", s(&p.dream), s(&p.memory), s(&decisions)));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("decisions.json is 40.0 MiB, over the 32 MiB limit on a decisions file"), "{err}");
    assert!(err.contains("DREAMREVIEW_MAX_DECISIONS_MIB"), "{err}");
}
