//! Scanning all sources for many needles: hits only where the line *says* the needle,
//! line numbers right across chunk boundaries and over-long lines, progress reporting.

use std::fs;
use std::path::{Path, PathBuf};

use dreamreview::inputs::transcript::{
    CHUNK_BYTES, Hit, MAX_LINE_BYTES, ScanOptions, ScanProgress, SourceFile, SourceKind, SourceSet, Transcript, scan,
    scan_with,
};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transcripts")
}

fn needles(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Every (source, line, needle) where the line's said text contains the needle, found by
/// reading every line: what `scan` must return.
fn oracle(set: &SourceSet, needles: &[String]) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (source, f) in set.files().iter().enumerate() {
        let t = Transcript::open(f).unwrap();
        for line in 1..=t.line_count() {
            let said = t.said_text(line).unwrap().unwrap().to_ascii_lowercase();
            for (needle, n) in needles.iter().enumerate() {
                if !n.trim().is_empty() && said.contains(&n.to_ascii_lowercase()) {
                    hits.push(Hit { source, line, needle });
                }
            }
        }
    }
    hits
}

#[test]
fn hits_only_where_the_line_says_it() {
    let set = SourceSet::discover(Some(&fixtures()), &[], None).unwrap();
    assert_eq!(set.len(), 5);
    let pnpm = set.find("5b0e7c2a-41d3-4c1e-9f0a-2d6b8e3c7a15")[0];
    let list = needles(&[
        "pnpm",
        "2026-11-01",
        "toolu",
        "/home/dev/shop",
        "214 passed",
        "2.1.240",
        "in-memory fake",
        "the user is having trouble",
        "mix phx.server",
    ]);
    let hits = scan(&set, &list);
    let in_pnpm: Vec<(usize, usize)> = hits.iter().filter(|h| h.source == pnpm).map(|h| (h.line, h.needle)).collect();
    // pnpm on 1, 2, 4 (not 3: only its tool_use_id holds "Pnpm"); the path and "214
    // passed" in the test output on 3; the fake on 1. Dates, versions and ids never.
    assert_eq!(in_pnpm, vec![(1, 0), (1, 6), (2, 0), (3, 3), (3, 4), (4, 0)]);
    let short = set.find("short.jsonl")[0];
    let heavy = set.find("tool_heavy.jsonl")[0];
    let phx: Vec<(usize, usize)> = hits
        .iter()
        .filter(|h| h.needle == 8 && (h.source == short || h.source == heavy))
        .map(|h| (h.source, h.line))
        .collect();
    assert_eq!(phx, vec![(short, 4), (short, 8), (heavy, 5)]);
    assert!(!hits.iter().any(|h| h.needle == 7), "thinking is never a source");
    assert_eq!(hits, oracle(&set, &list));
}

#[test]
fn agrees_with_reading_every_line() {
    let set = SourceSet::discover(Some(&fixtures()), &[], None).unwrap();
    let list = needles(&[
        "spotter",
        "msg_01",
        "hook_progress",
        "opentelemetry",
        "1.5.0",
        "hex.pm",
        "",
        "October 17, 2025",
        "phoenix",
        "local-command",
        "e",
    ]);
    let hits = scan(&set, &list);
    assert_eq!(hits, oracle(&set, &list));
    assert!(hits.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
    assert!(!hits.iter().any(|h| h.needle == 1 || h.needle == 2 || h.needle == 6));
    assert!(hits.iter().any(|h| h.needle == 0), "spotter is said somewhere");
}

/// A user line whose `content` makes the whole line exactly `len` bytes.
fn user_line(content_len: usize, fill: char) -> String {
    format!(r#"{{"type":"user","message":{{"content":"{}"}}}}"#, fill.to_string().repeat(content_len))
}

#[test]
fn needle_straddling_a_chunk_boundary() {
    let prefix = r#"{"type":"user","message":{"content":""#;
    let mut body = String::new();
    let mut lines = 0;
    // Filler lines up to a little before the first chunk boundary.
    while body.len() + 5000 < CHUNK_BYTES {
        body.push_str(&user_line(900, 'a'));
        body.push('\n');
        lines += 1;
    }
    // The needle starts 4 bytes before the boundary.
    let pad = CHUNK_BYTES - 4 - body.len() - prefix.len();
    body.push_str(&format!(r#"{prefix}{} straddling-needle here"}}}}"#, "b".repeat(pad - 1)));
    body.push('\n');
    lines += 1;
    let straddle_line = lines;
    assert_eq!(body.find("straddling-needle"), Some(CHUNK_BYTES - 4));
    // More lines past the boundary, one saying the needle again.
    for _ in 0..700 {
        body.push_str(&user_line(900, 'c'));
        body.push('\n');
        lines += 1;
    }
    body.push_str(r#"{"type":"user","message":{"content":"again: STRADDLING-NEEDLE"}}"#);
    lines += 1; // no final newline
    assert!(body.len() > CHUNK_BYTES + 500_000);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.jsonl");
    fs::write(&path, &body).unwrap();
    let set = SourceSet::from_files(vec![SourceFile::new(path.clone(), "big.jsonl".into())]);
    let progress = ScanProgress::new();
    let report = scan_with(&set, &needles(&["straddling-needle"]), &ScanOptions::default(), &progress);
    let got: Vec<usize> = report.hits.iter().map(|h| h.line).collect();
    assert_eq!(got, vec![straddle_line, lines]);
    assert_eq!(progress.bytes_done(), body.len() as u64);
    assert_eq!(progress.bytes_total(), body.len() as u64);
    assert!(!report.cancelled && report.unreadable.is_empty());

    let t = Transcript::open(&set.files()[0]).unwrap();
    assert_eq!(t.line_count(), lines);
    assert!(t.said_text(straddle_line).unwrap().unwrap().ends_with("straddling-needle here"));
}

#[test]
fn over_long_lines_are_judged_by_their_beginning_like_the_reader() {
    let huge = format!(
        r#"{{"type":"user","message":{{"content":"early-needle {} late-needle"}}}}"#,
        "z".repeat(MAX_LINE_BYTES + CHUNK_BYTES)
    );
    let body = format!(
        "{}\n{huge}\n{}\n",
        r#"{"type":"user","message":{"content":"first"}}"#,
        r#"{"type":"user","message":{"content":"late-needle on three"}}"#
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.jsonl");
    fs::write(&path, &body).unwrap();
    let set = SourceSet::from_files(vec![SourceFile::new(path, "huge.jsonl".into())]);
    let hits = scan(&set, &needles(&["early-needle", "late-needle", "first"]));
    let got: Vec<(usize, usize)> = hits.iter().map(|h| (h.line, h.needle)).collect();
    assert_eq!(got, vec![(1, 2), (2, 0), (3, 1)]);
    // The reader agrees: line 2's said text is its beginning only.
    let t = Transcript::open(&set.files()[0]).unwrap();
    let said = t.said_text(2).unwrap().unwrap();
    assert!(said.starts_with("early-needle zzz") && !said.contains("late-needle"));
}

#[test]
fn escaped_and_non_ascii_needles() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("py.jsonl");
    // Written the way Python's json.dumps does by default (ASCII escapes).
    let body = concat!(
        r#"{"type": "user", "message": {"content": "\u5148\u9031 we moved to pnpm, said \"fast\""}}"#,
        "\n",
        r#"{"type":"user","message":{"content":"先週 Redis を削除しました"}}"#,
        "\n",
        r#"{"type":"user","cwd":"/home/先週","message":{"content":"nothing here"}}"#,
        "\n"
    );
    fs::write(&path, body).unwrap();
    let set = SourceSet::from_files(vec![SourceFile::new(path, "py.jsonl".into())]);
    let hits = scan(&set, &needles(&["先週", "said \"fast\"", "redis を削除"]));
    let got: Vec<(usize, usize)> = hits.iter().map(|h| (h.line, h.needle)).collect();
    assert_eq!(got, vec![(1, 0), (1, 1), (2, 0), (2, 2)]);
}

#[test]
fn tool_noise_is_not_said_and_json_encoded_output_is() {
    // A Read gutter's number, a grep prefix's and a diff marker are the tool's, not the
    // line's; JSON-encoded output says its decoded text. The same hits with the index
    // (built by the first indexed scan, used by the second) as without it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("noise.jsonl");
    let result = |text: &str| {
        serde_json::json!({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "t", "content": text}]}})
            .to_string()
    };
    let body = [
        result("    57→fn seed() {\n    58→  users.insert(a);\n    59→}"),
        result("src/seed.rs:58:  users.insert(a);"),
        result("@@ -1 +1 @@\n-57 rows\n+58 rows"),
        result("{\\\"port\\\": 5432, \\\"name\\\": \\\"caf\\u00e9\\\"}"),
        serde_json::json!({"type": "user", "message": {"content": "the seed makes 58 users, +58 rows"}}).to_string(),
    ]
    .join("\n");
    fs::write(&path, body + "\n").unwrap();
    let set = SourceSet::from_files(vec![SourceFile::new(path, "noise.jsonl".into())]);
    let list = needles(&["58", "\"port\": 5432", "café", "+58 rows", "users.insert"]);
    let expected = vec![(1, 4), (2, 4), (3, 0), (4, 1), (4, 2), (5, 0), (5, 3)];
    let got = |hits: Vec<Hit>| hits.iter().map(|h| (h.line, h.needle)).collect::<Vec<_>>();
    assert_eq!(got(scan(&set, &list)), expected);
    assert_eq!(scan(&set, &list), oracle(&set, &list));
    let cache = tempfile::tempdir().unwrap();
    let options = ScanOptions { index: Some(cache.path().to_path_buf()), ..ScanOptions::default() };
    for _ in 0..2 {
        assert_eq!(got(scan_with(&set, &list, &options, &ScanProgress::new()).hits), expected);
    }
}

#[test]
fn markdown_sources_are_plain_lines() {
    let dir = tempfile::tempdir().unwrap();
    let note = dir.path().join("2026-06-02.md");
    fs::write(&note, "# Daily\r\n- Moved to PNPM last week\r\n- {\"cwd\":\"pnpm\"} is text here\r\n").unwrap();
    let f = SourceFile::new(note, "memory/2026-06-02.md".into());
    assert_eq!(f.kind, SourceKind::Markdown);
    let set = SourceSet::from_files(vec![f]);
    let got: Vec<usize> = scan(&set, &needles(&["pnpm"])).iter().map(|h| h.line).collect();
    assert_eq!(got, vec![2, 3]);
}

#[test]
fn unreadable_sources_are_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let ok = dir.path().join("a.jsonl");
    fs::write(&ok, r#"{"type":"user","message":{"content":"pnpm"}}"#).unwrap();
    let gone = dir.path().join("b.jsonl");
    let set =
        SourceSet::from_files(vec![SourceFile::new(ok, "a.jsonl".into()), SourceFile::new(gone, "b.jsonl".into())]);
    let report = scan_with(&set, &needles(&["pnpm"]), &ScanOptions::default(), &ScanProgress::new());
    assert_eq!(report.hits, vec![Hit { source: 0, line: 1, needle: 0 }]);
    assert_eq!(report.unreadable.len(), 1);
    assert_eq!(report.unreadable[0].0, 1);
    assert!(report.unreadable[0].1.contains("b.jsonl"), "{}", report.unreadable[0].1);
}

#[test]
fn cancelled_and_empty_scans() {
    let set = SourceSet::discover(Some(&fixtures()), &[], None).unwrap();
    let progress = ScanProgress::new();
    progress.cancel();
    let report = scan_with(&set, &needles(&["pnpm"]), &ScanOptions::default(), &progress);
    assert!(report.cancelled && report.hits.is_empty());
    assert!(scan(&set, &[]).is_empty());
    assert!(scan(&set, &needles(&["", "   "])).is_empty());
    // Blank needles keep their index: the real one is still needle 1.
    let hits = scan(&set, &needles(&["", "in-memory fake"]));
    assert_eq!(hits.len(), 1);
    assert_eq!((hits[0].line, hits[0].needle), (1, 1));
    assert!(scan(&SourceSet::default(), &needles(&["x"])).is_empty());
}

#[test]
fn per_source_limit_keeps_the_first_lines_of_each_file() {
    let set = SourceSet::discover(Some(&fixtures()), &[], None).unwrap();
    let list = needles(&["opentelemetry", "hex.pm", "phoenix", "in-memory fake"]);
    let all = scan(&set, &list);
    let progress = ScanProgress::new();
    let options = ScanOptions { per_source_limit: 2, ..ScanOptions::default() };
    let limited = scan_with(&set, &list, &options, &progress).hits;
    // Expected: the first two lines of each (source, needle) among all the hits.
    let mut expected = Vec::new();
    for h in &all {
        let same = expected.iter().filter(|e: &&Hit| e.source == h.source && e.needle == h.needle).count();
        if same < 2 {
            expected.push(*h);
        }
    }
    assert_eq!(limited, expected);
    assert!(limited.len() < all.len());
    assert_eq!(progress.bytes_done(), progress.bytes_total());
}

mod random_lines {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof!["[abc\" ]{0,6}".prop_map(Value::String), (0u32..300).prop_map(|n| json!(n)), Just(Value::Null),]
    }

    const KEYS: &[&str] = &[
        "type",
        "text",
        "content",
        "input",
        "message",
        "id",
        "tool_use_id",
        "thinking",
        "cwd",
        "output",
        "prompt",
        "data",
        "is_error",
    ];
    const TYPES: &[&str] =
        &["text", "tool_use", "tool_result", "thinking", "image", "bash_progress", "queued_command", "x"];

    fn value() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                (prop::collection::vec((0..KEYS.len(), inner), 0..4), 0..TYPES.len()).prop_map(|(fields, t)| {
                    let mut m = Map::new();
                    m.insert("type".into(), json!(TYPES[t]));
                    for (k, v) in fields {
                        m.insert(KEYS[k].into(), v);
                    }
                    Value::Object(m)
                }),
            ]
        })
    }

    const TOP: &[&str] = &[
        "message",
        "content",
        "summary",
        "data",
        "attachment",
        "cwd",
        "timestamp",
        "uuid",
        "toolUseResult",
        "version",
    ];
    const LINE_TYPES: &[&str] =
        &["user", "assistant", "system", "progress", "summary", "attachment", "queue-operation", "other"];

    fn line() -> impl Strategy<Value = String> {
        (0..LINE_TYPES.len(), prop::collection::vec((0..TOP.len(), prop_oneof![leaf(), value()]), 0..6)).prop_map(
            |(t, fields)| {
                let mut m = Map::new();
                for (k, v) in fields {
                    m.insert(TOP[k].into(), v);
                }
                m.insert("type".into(), json!(LINE_TYPES[t]));
                Value::Object(m).to_string()
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]
        #[test]
        fn scan_equals_reading_every_line(lines in prop::collection::vec(line(), 1..12)) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("r.jsonl");
            fs::write(&path, lines.join("\n")).unwrap();
            let set = SourceSet::from_files(vec![SourceFile::new(path, "r.jsonl".into())]);
            let list = needles(&["a", "b\"", "c", "ab", "user", "1", "a a"]);
            prop_assert_eq!(scan(&set, &list), oracle(&set, &list));
        }
    }
}

#[test]
fn exhausted_needles_are_not_looked_for_and_exhausted_files_not_read() {
    use dreamreview::inputs::transcript::{LineHit, Verdict, WithExhausted, scan_lines};
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.jsonl");
    let b = dir.path().join("b.jsonl");
    let line = |s: &str| format!("{{\"type\":\"user\",\"message\":{{\"content\":\"{s}\"}}}}\n");
    fs::write(&a, [line("pnpm and redis"), line("redis again"), line("pnpm")].concat()).unwrap();
    fs::write(&b, [line("pnpm"), line("redis")].concat()).unwrap();
    let set = SourceSet::from_files(vec![SourceFile::new(a, "a.jsonl".into()), SourceFile::new(b, "b.jsonl".into())]);
    let list = needles(&["pnpm", "redis"]);
    // In a: pnpm is done from the start; redis is exhausted after its first line.
    // In b: everything is done, so the file is not read.
    let seen = std::sync::Mutex::new(Vec::new());
    let verifier = WithExhausted {
        line: |h: &LineHit<'_>, v: &mut Verdict| {
            seen.lock().unwrap().push((h.source, h.line, h.needles.to_vec()));
            v.keep.extend_from_slice(h.needles);
            v.exhausted.extend_from_slice(h.needles);
        },
        exhausted: |source: usize, done: &mut [bool]| {
            done[0] = true;
            if source == 1 {
                done[1] = true;
            }
        },
    };
    let progress = ScanProgress::new();
    let report = scan_lines(&set, &list, &ScanOptions::default(), &progress, &verifier);
    assert_eq!(report.hits, vec![Hit { source: 0, line: 1, needle: 1 }]);
    assert_eq!(seen.into_inner().unwrap(), vec![(0, 1, vec![1])]);
    assert_eq!(progress.bytes_done(), progress.bytes_total());
}
