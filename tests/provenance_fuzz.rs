//! Fuzzing what provenance reads from a transcript: the JSONL line renderer, said-text, a
//! transcript's message spans and context, and the scanner. Inputs are arbitrary bytes and
//! real lines from every fixture transcript, mutated byte-wise and structurally.
//!
//! Runs a CI-friendly number of cases; for a long run set `PROPTEST_CASES` (it overrides
//! every property's count: the line properties were run with 200000, the transcript
//! property, which writes a file per case, with 20000). Inputs worth keeping live in
//! `tests/fixtures/fuzz-corpus/jsonl/` and are replayed by `corpus_replays_cleanly`.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use dreamreview::inputs::transcript::{
    Hit, RenderedLine, SourceFile, SourceSet, Transcript, render_jsonl, render_jsonl_with_limit, render_note,
    said_text, scan,
};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Iterations of the non-proptest loops: `PROPTEST_CASES` when set, else `ci`. (proptest
/// itself lets `PROPTEST_CASES` override every property's own count.)
fn cases(ci: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(ci)
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, ext, out);
        } else if p.extension().is_some_and(|e| e == ext) {
            out.push(p);
        }
    }
}

/// Every line of every fixture transcript (the fuzz corpus excluded): the seeds.
static SEEDS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    let mut files = Vec::new();
    walk(&fixtures(), "jsonl", &mut files);
    let mut lines = Vec::new();
    for f in files.iter().filter(|f| !f.to_string_lossy().contains("fuzz-corpus")) {
        let bytes = std::fs::read(f).unwrap();
        lines.extend(bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()).map(<[u8]>::to_vec));
    }
    assert!(lines.len() > 150, "expected the fixture transcripts, found {} lines", lines.len());
    lines
});

/// Byte strings that tend to break JSON readers and text handling.
const TOKENS: &[&[u8]] = &[
    b"\"",
    b"\\",
    b"\\u",
    b"\\ud800",
    b"\\udc00\\ud800",
    b"\\u0000",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"null",
    b"1e999",
    b"-0.0e-0",
    b"18446744073709551616",
    b"\"content\":",
    b"\"content\":[{\"type\":\"text\",\"text\":",
    b"\"type\":\"tool_result\"",
    b"\"type\":\"thinking\",\"thinking\":\"",
    b"\"message\":{\"id\":\"msg_x\",",
    b"\"timestamp\":\"2026-13-45T99:99:99Z\"",
    b"\"timestamp\":\"2026-11-0",
    b"\r",
    b"\n",
    b"\r\n",
    b"\t",
    b"\0",
    b"\xff",
    b"\xc3",
    b"\xe6\x97",
    "日本語の説明".as_bytes(),
    "지난주".as_bytes(),
    "😀\u{200d}🔥".as_bytes(),
    "e\u{301}".as_bytes(),
    "\u{202e}".as_bytes(),
    "\u{feff}".as_bytes(),
    b"\x1b[31m",
    b"\\u001b[2J",
    b"\x1b]8;;http://x\x07",
];

/// splitmix64: the mutations are a pure function of the proptest-chosen seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

/// A random JSON value: strings with tricky text, odd numbers, deep or wide containers.
fn random_value(rng: &mut Rng, depth: u32) -> Value {
    random_value_with(rng, depth, true)
}

/// [`random_value`], optionally never nesting deeper than serde_json's recursion limit.
fn random_value_with(rng: &mut Rng, depth: u32, deep: bool) -> Value {
    let strings = [
        "",
        "late Oct 2026",
        "先週 Xcode 16.4 に上げた",
        "\u{1b}[1mbold\u{1b}[0m",
        "a\u{0}b",
        "\u{202e}gnp.exe",
        "line\nbreak\r\n",
        "😀",
        "tool_result",
        "thinking",
        "2026-11-01T09:14:03.112Z",
    ];
    let kinds = match (depth > 3, deep) {
        (true, _) => 5,
        (false, true) => 9,
        (false, false) => 8,
    };
    match rng.below(kinds) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 0),
        2 => json!(rng.next() as i64),
        3 => json!(f64::from(rng.below(1000) as u32) / 7.0),
        4 => json!(strings[rng.below(strings.len())]),
        5 => Value::Array((0..rng.below(4)).map(|_| random_value_with(rng, depth + 1, deep)).collect()),
        6 => {
            let keys = ["type", "text", "content", "input", "id", "name", "thinking", "tool_use_id", "data", "message"];
            let mut m = serde_json::Map::new();
            for _ in 0..rng.below(5) {
                m.insert(keys[rng.below(keys.len())].to_string(), random_value_with(rng, depth + 1, deep));
            }
            Value::Object(m)
        }
        7 => {
            let types = ["text", "tool_use", "tool_result", "thinking", "image", "document", "server_tool_use", "x"];
            json!({"type": types[rng.below(types.len())], "text": strings[rng.below(strings.len())],
                   "content": random_value_with(rng, depth + 1, deep), "input": random_value_with(rng, depth + 1, deep)})
        }
        _ => {
            // Nesting deeper than serde_json's recursion limit.
            let mut v = json!("deep");
            for _ in 0..(100 + rng.below(100)) {
                v = json!([v]);
            }
            v
        }
    }
}

/// A mutable reference to a random node of `v` (possibly `v` itself).
fn random_node<'a>(v: &'a mut Value, rng: &mut Rng) -> &'a mut Value {
    let descend = rng.below(4) != 0;
    let len = match &*v {
        Value::Array(a) => a.len(),
        Value::Object(o) => o.len(),
        _ => 0,
    };
    if !descend || len == 0 {
        return v;
    }
    let i = rng.below(len);
    match v {
        Value::Array(a) => random_node(&mut a[i], rng),
        Value::Object(o) => {
            let key = o.keys().nth(i).cloned().unwrap_or_default();
            random_node(o.get_mut(&key).unwrap(), rng)
        }
        _ => unreachable!(),
    }
}

/// Applies `ops` random mutations to `line` (other seeds may be spliced in).
fn mutate(line: &[u8], seed: u64, ops: usize) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut b = line.to_vec();
    for _ in 0..ops {
        let at = rng.below(b.len() + 1);
        match rng.below(9) {
            0 => b.truncate(at),
            1 => {
                for _ in 0..=rng.below(4) {
                    let i = rng.below(b.len());
                    if let Some(x) = b.get_mut(i) {
                        *x = rng.next() as u8;
                    }
                }
            }
            2 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                b.splice(at..at, t.iter().copied());
            }
            3 => {
                let end = (at + rng.below(64)).min(b.len());
                b.drain(at..end);
            }
            4 => {
                let end = (at + rng.below(32)).min(b.len());
                let piece = b[at..end].to_vec();
                for _ in 0..rng.below(8) {
                    b.splice(at..at, piece.iter().copied());
                }
            }
            5 => {
                let other = &SEEDS[rng.below(SEEDS.len())];
                let cut = rng.below(other.len() + 1);
                b.truncate(at);
                b.extend_from_slice(&other[cut..]);
            }
            _ => {
                // Structural: replace a node of the parsed line with a random value.
                if let Ok(mut v) = serde_json::from_slice::<Value>(&b) {
                    let node = random_node(&mut v, &mut rng);
                    *node = random_value(&mut rng, 0);
                    b = serde_json::to_vec(&v).unwrap();
                }
            }
        }
    }
    b
}

/// `text` is one safe display line of at most `max` characters plus the cut marks.
fn assert_display_text(text: &str, max: usize, input: &[u8]) {
    let input = String::from_utf8_lossy(input);
    let text = text.strip_suffix(" […]").unwrap_or(text);
    let bad = text.chars().find(|c| {
        c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
    });
    assert!(bad.is_none(), "control or bidi character {bad:?} in {text:?}\ninput: {input:?}");
    assert!(!text.starts_with(' ') && !text.contains("  "), "whitespace not collapsed: {text:?}\ninput: {input:?}");
    let chars = text.chars().count();
    assert!(chars <= max + 1, "{chars} chars over {max}: {text:?}\ninput: {input:?}");
}

fn assert_time(r: &RenderedLine, input: &[u8]) {
    let input = String::from_utf8_lossy(input);
    if let Some(t) = &r.time {
        let ok = t.len() == 19
            && t.bytes().enumerate().all(|(i, c)| match i {
                4 | 7 => c == b'-',
                10 => c == b' ',
                13 | 16 => c == b':',
                _ => c.is_ascii_digit(),
            });
        assert!(ok, "time {t:?}\ninput: {input:?}");
        let date = r.date.map(|d| d.to_string()).unwrap_or_default();
        assert!(t.starts_with(&date) && !date.is_empty(), "time {t:?} without its date {date:?}\ninput: {input:?}");
    }
}

/// Every line-level entry point on `bytes`: no panic, and the display invariants hold.
fn check_line(bytes: &[u8]) {
    let shown = String::from_utf8_lossy(bytes);
    let r = render_jsonl(bytes, 7);
    assert_eq!(r.number, 7);
    assert!(!r.role.is_empty(), "empty role\ninput: {shown:?}");
    assert_display_text(&r.text, 600, bytes);
    assert_time(&r, bytes);
    let _ = r.display();
    for max in [0, 1, 5, 40] {
        let r = render_jsonl_with_limit(bytes, 1, max);
        assert_display_text(&r.text, max, bytes);
    }
    let said = said_text(bytes);
    // Said text feeds matching, never the screen: it may hold anything but a NUL-free
    // escape-free string is what the scanner's verify step compares.
    assert!(!said.contains('\u{1b}'), "escape left in said text {said:?}\ninput: {shown:?}");
    let n = render_note(bytes, 3, None);
    assert_display_text(&n.text, 600, bytes);
}

/// Writes `lines` to a transcript and exercises every per-line reader on it, then checks
/// the scanner against reading every line.
fn check_file(lines: &[Vec<u8>], crlf: bool, final_newline: bool) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.jsonl");
    let sep: &[u8] = if crlf { b"\r\n" } else { b"\n" };
    let mut body = lines.join(sep);
    if final_newline {
        body.extend_from_slice(sep);
    }
    std::fs::write(&path, &body).unwrap();
    let file = SourceFile::new(path, "f.jsonl".into());
    let t = Transcript::open(&file).unwrap();
    let count = t.line_count();
    for n in 0..=count + 1 {
        let exists = (1..=count).contains(&n);
        assert_eq!(t.line(n).unwrap().is_some(), exists, "line {n} of {count}");
        if let Some(r) = t.render(n).unwrap() {
            assert_display_text(&r.text, 600, &body);
        }
        let _ = t.said_text(n).unwrap();
        let span = t.message_span(n).unwrap();
        assert!(span.contains(&n), "span {span:?} misses {n}");
        if exists {
            assert!(*span.start() >= 1 && *span.end() <= count, "span {span:?} out of 1..={count}");
        }
        let _ = t.message_said_text(n).unwrap();
        let ctx = t.context(n, 2).unwrap();
        for e in &ctx {
            assert!(*e.lines.start() >= 1 && *e.lines.end() <= count, "context {:?} out of 1..={count}", e.lines);
            let mut shown = e.text.chars().chain(e.role.chars()).chain(e.time.iter().flat_map(|t| t.chars()));
            let bad = shown.find(|c| c.is_control());
            assert!(bad.is_none(), "control character {bad:?} in context {:?}", e.rendered);
        }
        if exists {
            assert_eq!(ctx.iter().filter(|e| e.cited).count(), 1, "line {n}: {ctx:?}");
        }
    }
    // The scanner agrees with reading every line, for needles taken from what lines say.
    let set = SourceSet::from_files(vec![file]);
    let mut needles: Vec<String> = Vec::new();
    for n in 1..=count {
        let said = t.said_text(n).unwrap().unwrap_or_default().to_ascii_lowercase();
        let words: Vec<&str> = said.split(|c: char| c.is_whitespace() || c == '"' || c == '\\').collect();
        if let Some(w) = words.iter().find(|w| w.chars().count() >= 3 && !w.contains('\u{fffd}')) {
            needles.push(w.to_string());
        }
    }
    needles.truncate(6);
    // Every line counts, those holding a terminal escape or a `\/` included (see
    // `needle_split_by_an_escape_is_found`, `escaped_slash_does_not_hide_a_path_from_the_scanner`).
    let mut oracle = Vec::new();
    for line in 1..=count {
        let said = t.said_text(line).unwrap().unwrap_or_default().to_ascii_lowercase();
        for (needle, w) in needles.iter().enumerate() {
            if said.contains(w.as_str()) {
                oracle.push(Hit { source: 0, line, needle });
            }
        }
    }
    oracle.sort_unstable();
    oracle.dedup();
    let found: Vec<Hit> = scan(&set, &needles);
    assert_eq!(found, oracle, "needles {needles:?}\nfile: {:?}", String::from_utf8_lossy(&body));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        check_line(&bytes);
    }

    #[test]
    fn mutated_real_lines(pick in any::<usize>(), seed in any::<u64>(), ops in 1usize..6) {
        let line = &SEEDS[pick % SEEDS.len()];
        check_line(&mutate(line, seed, ops));
    }

    #[test]
    fn real_lines_cut_anywhere(pick in any::<usize>(), cut in any::<usize>()) {
        let line = &SEEDS[pick % SEEDS.len()];
        check_line(&line[..cut % (line.len() + 1)]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

    #[test]
    fn mutated_transcripts(picks in proptest::collection::vec((any::<usize>(), any::<u64>(), 0usize..3), 1..10),
                           crlf in any::<bool>(), final_newline in any::<bool>()) {
        let lines: Vec<Vec<u8>> = picks
            .iter()
            .map(|(p, seed, ops)| {
                let m = mutate(&SEEDS[p % SEEDS.len()], *seed, *ops);
                m.into_iter().filter(|b| *b != b'\n' && *b != b'\r').collect()
            })
            .collect();
        check_file(&lines, crlf, final_newline);
    }
}

/// Envelope fields and thinking, marked: what a line says must never include them, whatever
/// the rest of the message looks like.
#[test]
fn envelope_and_thinking_never_said_in_mutated_lines() {
    let mut rng = Rng(0x5eed);
    let mut checked = 0;
    for _ in 0..cases(3000) {
        let seed = &SEEDS[rng.below(SEEDS.len())];
        let Ok(Value::Object(mut obj)) = serde_json::from_slice::<Value>(seed) else { continue };
        for k in ["cwd", "gitBranch", "version", "uuid", "parentUuid", "sessionId", "requestId", "slug", "agentId"] {
            if obj.contains_key(k) {
                obj.insert(k.into(), json!(format!("ENVMARK-{k}")));
            }
        }
        obj.insert("toolUseResult".into(), json!({"stdout": "ENVMARK-result", "originalFile": "ENVMARK-file"}));
        if let Some(Value::Object(m)) = obj.get_mut("message") {
            m.insert("id".into(), json!("msg_ENVMARK"));
            m.insert("model".into(), json!("ENVMARK-model"));
            m.insert("usage".into(), json!({"output_tokens": 1, "note": "ENVMARK-usage"}));
            // Random edits to the content, outside thinking blocks.
            if let Some(Value::Array(blocks)) = m.get_mut("content") {
                for b in blocks.iter_mut() {
                    if b["type"] == "thinking" {
                        b["thinking"] = json!("THINKMARK probably 2026-10-25");
                        continue;
                    }
                    if rng.below(3) == 0 && b.is_object() {
                        let node = random_node(b, &mut rng);
                        if !node.is_object() || node.get("type").is_none() {
                            // Nesting past serde_json's limit is covered by
                            // `too_deep_a_line_is_shown_raw`.
                            *node = random_value_with(&mut rng, 1, false);
                        }
                    }
                }
                blocks.push(json!({"type": "thinking", "thinking": "THINKMARK again", "signature": "ENVMARK-sig"}));
            }
        }
        let line = serde_json::to_vec(&Value::Object(obj)).unwrap();
        let said = said_text(&line);
        assert!(
            !said.contains("ENVMARK") && !said.contains("THINKMARK"),
            "{said:?}\nline: {}",
            String::from_utf8_lossy(&line)
        );
        let r = render_jsonl(&line, 1);
        assert!(!r.text.contains("THINKMARK"), "{:?}\nline: {}", r.text, String::from_utf8_lossy(&line));
        checked += 1;
    }
    assert!(checked > 100, "only {checked} seed lines were JSON objects");
}

/// Every file in the corpus, line by line, whole, and as a transcript.
#[test]
fn corpus_replays_cleanly() {
    let mut files = Vec::new();
    walk(&fixtures().join("fuzz-corpus/jsonl"), "jsonl", &mut files);
    assert!(files.len() >= 10, "corpus has {} files", files.len());
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        check_line(&bytes);
        let lines: Vec<Vec<u8>> = bytes.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
        for l in &lines {
            check_line(l);
        }
        let clean: Vec<Vec<u8>> = lines.iter().map(|l| l.iter().copied().filter(|b| *b != b'\r').collect()).collect();
        check_file(&clean, false, true);
        check_file(&clean, true, false);
    }
}

// What fuzzing found, pinned down, each with the behaviour the fix gave it.

#[test]
fn a_hostile_role_never_reaches_the_screen_raw() {
    // A corrupt or hostile line's `type` (or `message.role`) is cleaned like the text: no
    // escape sequence (which would clear the reviewer's terminal), no newline.
    let r = render_jsonl(br#"{"type":"evil\u001b[2J\nrole","uuid":"u"}"#, 1);
    assert!(!r.role.contains('\u{1b}') && !r.role.contains('\n'), "{:?}", r.role);
    assert!(r.role.starts_with("evil"), "{:?}", r.role);
    let r = render_jsonl(br#"{"type":"x","message":{"role":"\u001b]0;pwned\u0007","content":"hello"}}"#, 1);
    // An OSC sequence (sets the terminal title) is dropped too.
    assert!(!r.display().contains('\u{1b}') && !r.display().contains('\u{7}'), "{:?}", r.display());
    assert!(r.display().ends_with("hello"));
}

#[test]
fn too_deep_a_line_is_read_around_its_deep_value() {
    // serde_json refuses nesting deeper than 128: a valid line with a deep tool input (an
    // MCP result, a JSON AST) is read with the deep value as `null`, the rest as usual.
    let deep = format!("{}1{}", "[".repeat(130), "]".repeat(130));
    let line = format!(
        r#"{{"type":"assistant","message":{{"id":"m","content":[{{"type":"thinking","thinking":"secret guess"}},{{"type":"text","text":"we moved to pnpm"}},{{"type":"tool_use","name":"X","input":{{"a":{deep}}}}}]}},"timestamp":"2026-11-01T09:14:03Z"}}"#
    );
    let r = render_jsonl(line.as_bytes(), 1);
    assert_eq!((r.role.as_str(), r.time.as_deref()), ("assistant", Some("2026-11-01 09:14:03")));
    assert!(r.text.contains("we moved to pnpm"), "{}", r.text);
    assert!(!r.text.contains("secret guess"), "thinking is folded: {}", r.text);
    assert_eq!(said_text(line.as_bytes()), "we moved to pnpm");
    // Deep nesting only in the envelope: both cope.
    let line = format!(
        r#"{{"type":"user","message":{{"content":"we moved to pnpm"}},"toolUseResult":{{"a":{deep}}},"timestamp":"2026-11-01T09:14:03Z"}}"#
    );
    assert_eq!(said_text(line.as_bytes()), "we moved to pnpm");
    let r = render_jsonl(line.as_bytes(), 1);
    assert_eq!((r.role.as_str(), r.text.as_str()), ("user", "we moved to pnpm"));
}

#[test]
fn needle_split_by_an_escape_is_found() {
    // Jest colours the file name inside a path; said-text drops the escapes, so the line
    // says `src/cart.test.ts`; the escape marks the line for a search of its said text.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let line = r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"PASS src/\u001b[1mcart.test.ts\u001b[22m (3 tests)"}]}}"#;
    std::fs::write(&path, format!("{line}\n")).unwrap();
    assert_eq!(said_text(line.as_bytes()), "PASS src/cart.test.ts (3 tests)");
    let set = SourceSet::from_files(vec![SourceFile::new(path, "s.jsonl".into())]);
    assert_eq!(scan(&set, &["src/cart.test.ts".to_string()]), vec![Hit { source: 0, line: 1, needle: 0 }]);
    // A plain-text line (not JSON) with a raw escape inside a number: the same.
    let path = dir.path().join("t.jsonl");
    std::fs::write(&path, b"-1064532642941547\x1b[31m023\n").unwrap();
    let set = SourceSet::from_files(vec![SourceFile::new(path, "t.jsonl".into())]);
    assert_eq!(scan(&set, &["-1064532642941547023".to_string()]), vec![Hit { source: 0, line: 1, needle: 0 }]);
}

#[test]
fn escaped_slash_does_not_hide_a_path_from_the_scanner() {
    // `\/` is legal JSON for `/`. Claude Code (JSON.stringify) never writes it, other
    // writers (PHP, some loggers) do.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let line =
        r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"harbor\/settings\/base.py:88"}]}}"#;
    std::fs::write(&path, format!("{line}\n")).unwrap();
    assert_eq!(said_text(line.as_bytes()), "harbor/settings/base.py:88");
    let set = SourceSet::from_files(vec![SourceFile::new(path, "s.jsonl".into())]);
    assert_eq!(scan(&set, &["harbor/settings/base.py".to_string()]), vec![Hit { source: 0, line: 1, needle: 0 }]);
}
