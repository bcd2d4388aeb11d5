//! Tests of `grams`.

use super::*;
use crate::inputs::transcript::said_text;
use proptest::prelude::*;

fn keys_of(kind: SourceKind, line: &str) -> (Vec<u32>, bool) {
    keys_of_bytes(kind, line.as_bytes())
}

fn keys_of_bytes(kind: SourceKind, line: &[u8]) -> (Vec<u32>, bool) {
    let mut v = Vec::new();
    let flags = line_keys(kind, line, |k| v.push(k));
    v.sort_unstable();
    v.dedup();
    (v, flags.dirty)
}

fn holds(line: &str, needle: &str) -> bool {
    let (keys, dirty) = keys_of(SourceKind::Jsonl, line);
    dirty || needle_keys(needle).iter().all(|k| keys.binary_search(k).is_ok())
}

#[test]
fn said_words_only() {
    let line = r#"{"type":"assistant","cwd":"/home/dev/zebraproject","message":{"id":"msg_quokka","content":[{"type":"thinking","thinking":"walrus","signature":"narwhal"},{"type":"text","text":"we moved to Pnpm\nyesterday"},{"type":"tool_use","id":"toolu_ocelot","input":{"command":"redis-cli \u65e5\u672c"}}]},"uuid":"u-lemur"}"#;
    for said in ["pnpm", "moved to pnpm", "yesterday", "redis", "日本", "cli"] {
        assert!(holds(line, said), "{said}");
    }
    let (keys, dirty) = keys_of(SourceKind::Jsonl, line);
    assert!(!dirty);
    for unsaid in ["zebraproject", "quokka", "walrus", "narwhal", "ocelot", "lemur"] {
        assert!(!needle_keys(unsaid).iter().all(|k| keys.binary_search(k).is_ok()), "{unsaid}");
    }
    // An escaped newline separates words.
    assert!(!needle_keys("npnpm").iter().all(|k| keys.binary_search(k).is_ok()));
}

#[test]
fn escapes_and_credentials_are_dirty() {
    assert!(keys_of(SourceKind::Jsonl, r#"{"type":"user","message":{"content":"a\u001b[0mb"}}"#).1);
    assert!(keys_of(SourceKind::Jsonl, "not json").1);
    let key = "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d";
    let line = format!(r#"{{"type":"user","message":{{"content":"export ANTHROPIC_API_KEY={key}"}}}}"#);
    let (keys, dirty) = keys_of(SourceKind::Jsonl, &line);
    assert!(dirty && keys.is_empty());
}

#[test]
fn numbers_need_their_own_five_bytes() {
    let said = |text: &str| format!(r#"{{"type":"user","message":{{"content":"{text}"}}}}"#);
    let dated = said("released on 2026.10.12 at noon");
    assert!(holds(&dated, "2026.10.12") && holds(&dated, "26.10.1"));
    // Every gram of the date, and its inner digit run, but not the date.
    let scattered = said("2026-10-12: 6.10.5 and 0.12 then 26.1");
    assert!(!holds(&scattered, "2026.10.12"));
    assert!(holds(&scattered, "2026") && holds(&scattered, "6.10.5"));
    let figures = said("ports 24 and 4528, 245 and 528; 2452 8");
    assert!(!holds(&figures, "24528") && holds(&said("n=124528"), "24528"));
}

#[test]
fn a_replacement_character_beside_digits_asks_for_no_run_key() {
    // An invalid byte is said as U+FFFD (what the scanner matches); the walk sees the
    // byte itself.
    let line = b"{\"type\":\"user\",\"message\":{\"content\":\"a \xff12x 34\xff b\"}}";
    let (keys, dirty) = keys_of_bytes(SourceKind::Jsonl, line);
    assert!(!dirty);
    for needle in ["\u{FFFD}12x", "x 34\u{FFFD}"] {
        assert!(needle_keys(needle).iter().all(|k| keys.binary_search(k).is_ok()), "{needle}");
    }
}

#[test]
fn keys_leave_out_what_tools_add() {
    // The number of a Read gutter is not said, so the line holds no key for it; the
    // same number said in words does.
    let read = r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"    57\u2192fn seed() {\n    58\u2192  users.insert(a);"}]}}"#;
    let (keys, dirty) = keys_of(SourceKind::Jsonl, read);
    assert!(!dirty);
    let n58 = number_key("58").unwrap();
    assert!(keys.binary_search(&n58).is_err());
    assert!(holds(read, "users.insert"));
    let said = r#"{"type":"user","message":{"content":"the seed inserts 58 users"}}"#;
    assert!(keys_of(SourceKind::Jsonl, said).0.binary_search(&n58).is_ok());
    // JSON-encoded output is keyed as it is said: decoded.
    let json = r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"{\\\"port\\\": 5432}"}]}}"#;
    assert!(holds(json, "\"port\": 5432"));
}

#[test]
fn short_needles() {
    assert!(needle_keys("v2").is_empty());
    assert!(needle_keys("5").is_empty());
    assert!(needle_keys("/.").is_empty());
    assert_eq!(needle_keys("5 gb").len(), 2);
    assert_eq!(needle_keys("8/9"), vec![key(b'8', b'/', b'9')]);
}

fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "pnpm",
        "Redis",
        "1,234",
        "v3.2.4",
        "日本語",
        "yesterday",
        "last week",
        "\u{1F600}",
        "a\\b",
        "x\"y",
        "é",
        "tab\there",
        "\u{7}",
        "port 6379",
        "先週",
        // What tools add (`said::noise`): said text removes it, and so must the keys.
        "\n    58→users",
        "\n    59→ok 12",
        "\n58→x",
        "\n     1\tcache",
        "1\tnow\n2\t58 x",
        "\nsrc/db.rs:12:x",
        "\nsrc/db.rs-13-y",
        "\n@@ -1,2 +1,2 @@ fn",
        "\n-old 5",
        "\n+new 6",
        "\n ctx",
        "\n12:foo",
        "\n13-bar",
        "\r",
        "\r\n",
        "[===>  ] 45%",
        "━━━━━ 12/40",
        "45%|██▌  | 45/100",
        "{\\\"port\\\": 5432}",
        "[\\\"caf\\u00e9\\\", \\\"a\\nb\\\"]",
    ])
    .prop_map(str::to_string)
}

proptest! {
    /// Whatever the said text of a line contains, the line's keys hold the keys of.
    #[test]
    fn keys_cover_every_substring_of_the_said_text(
        words in prop::collection::vec(word(), 1..8),
        cut in 0usize..400,
        start in 0usize..60,
        len in 1usize..30,
    ) {
        let text = words.join(" ");
        let content = serde_json::to_string(&text).unwrap();
        let ascii = content.chars().map(|c| if c.is_ascii() { c.to_string() } else {
            let mut b = [0u16; 2];
            c.encode_utf16(&mut b).iter().map(|u| format!("\\u{u:04x}")).collect()
        }).collect::<String>();
        for body in [content, ascii] {
            let full = format!(r#"{{"type":"user","cwd":"/x","message":{{"role":"user","content":[{{"type":"text","text":{body}}},{{"type":"tool_use","id":"t","input":{{"cmd":{body}}}}}]}}}}"#);
            let line = &full.as_bytes()[..full.len().min(cut.max(20))];
            let said = said_text(line).to_ascii_lowercase();
            let s = said.char_indices().map(|(i, _)| i).find(|&i| i >= start);
            if let Some(s) = s {
                let mut e = (s + len).min(said.len());
                while !said.is_char_boundary(e) { e += 1; }
                let needle = &said[s..e];
                let (keys, dirty) = keys_of_bytes(SourceKind::Jsonl, line);
                let ok = dirty || needle_keys(needle).iter().all(|k| keys.binary_search(k).is_ok());
                prop_assert!(ok, "needle {needle:?} of said {said:?} in line {:?}", String::from_utf8_lossy(line));
            }
        }
    }
}
