//! Terminal and input safety of what the commands print (issue 33 §5): escape sequences
//! from note content and file names (OSC 52, CSI, C1 controls, bidi overrides) shown as
//! visible symbols in every text output and escaped in JSON; citations whose line numbers
//! cite nothing reported as bad, quoting what was written; file names that differ only by
//! Unicode normalization shown as different.

use crate::hardening_support::*;

/// Every character a terminal may act on, as a note or a file name may carry it.
const HOSTILE: &[(&str, char)] = &[
    ("ESC (OSC 52, CSI)", '\u{1b}'),
    ("BEL", '\u{7}'),
    ("C1 CSI", '\u{9b}'),
    ("C1 OSC", '\u{9d}'),
    ("C1 NEL", '\u{85}'),
    ("bidi override", '\u{202e}'),
    ("bidi isolate", '\u{2066}'),
];

/// A note body and a file name carrying every hostile character.
fn hostile_project() -> Project {
    let body = "# Hostile\n\nclipboard \u{1b}]52;c;cm0gLXJmIH4=\u{7} clear \u{1b}[2J c1 \u{9b}2J \u{9d}0;title\u{9c} \
                next\u{85}line evil\u{202e}txt.exe iso\u{2066}late\n";
    let name = "n\u{9b}31m\u{202e}dm.md";
    let mut proposed: Vec<(&str, &[u8])> = PROPOSED.to_vec();
    proposed.push(("hostile.md", body.as_bytes()));
    proposed.push((name, body.as_bytes()));
    let p = Project::new(LIVE, &proposed, Some(b"- testing.md: tests run with `pnpm test` (s1.jsonl:1)\n"));
    // Also in the live folder, committed (with a line the dream drops): `audit`, `log` and
    // `why` read them there, `check` shows the hunk that drops it.
    let live = format!("{body}old \u{9b}2J line\n");
    put(&p.memory.join("hostile.md"), live.as_bytes());
    put(&p.memory.join(name), live.as_bytes());
    git(&p.memory, &["add", "-A"]);
    git(&p.memory, &["commit", "-q", "-m", "hostile \u{1b}]52;c;aGk=\u{7} \u{9b}2J notes"]);
    p
}

/// The hostile characters `out` carries raw.
fn raw_controls(out: &str) -> Vec<&'static str> {
    HOSTILE.iter().filter(|(_, c)| out.contains(*c)).map(|(what, _)| *what).collect()
}

#[test]
fn no_text_output_sends_a_control_sequence_and_json_escapes_them() {
    let p = hostile_project();
    let memory = s(&p.memory);
    let text_runs: Vec<(&str, Vec<&str>)> = vec![
        ("check", vec!["check", s(&p.dream), "--memory", memory]),
        ("audit", vec!["audit", memory]),
        ("audit -v", vec!["audit", "-v", memory]),
        ("log", vec!["log", "--memory", memory]),
        ("why", vec!["why", "hostile.md", "--memory", memory]),
        ("why, the name", vec!["why", "n\u{9b}31m\u{202e}dm.md", "--memory", memory]),
    ];
    for (what, args) in &text_runs {
        let r = p.run(args);
        assert_eq!(raw_controls(&r.both()), Vec::<&str>::new(), "{what}: {:?}", r.both());
    }
    let audit = p.run(&["audit", memory]);
    assert!(audit.stdout.contains("n\\u{9b}31m\\u{202e}dm.md"), "{}", audit.stdout);
    let json_runs: Vec<(&str, Vec<&str>)> = vec![
        ("check --json", vec!["check", s(&p.dream), "--memory", memory, "--json"]),
        ("audit --json", vec!["audit", "--json", memory]),
        ("log --json", vec!["log", "--json", "--memory", memory]),
    ];
    for (what, args) in &json_runs {
        let r = p.run(args);
        assert_eq!(raw_controls(&r.stdout), Vec::<&str>::new(), "{what}: {:?}", r.stdout);
        // Escaped, so a reader of the JSON still gets the characters.
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(v.to_string().contains('\u{9b}'), "{what} lost the name's C1 character: {}", r.stdout);
        assert!(r.stdout.contains("\\u009b"), "{what}: {}", r.stdout);
    }
    // `why` shows a note's lines with their controls visible, in JSON too.
    let why = p.run(&["why", "hostile.md", "--json", "--memory", memory]);
    assert_eq!(raw_controls(&why.stdout), Vec::<&str>::new(), "{:?}", why.stdout);
    assert!(serde_json::from_str::<serde_json::Value>(&why.stdout).is_ok(), "{}", why.both());
}

/// A project whose CHANGES.md cites a 4-line transcript with `cite` (`s1.jsonl:2-0`).
fn citing(cite: &str) -> Project {
    let changes = format!("- testing.md: tests run with `pnpm test` ({cite})\n");
    let p = Project::new(LIVE, PROPOSED, Some(changes.as_bytes()));
    let lines = [SESSION_LINE; 4].join("\n");
    put(&p.root.join("project/s1.jsonl"), format!("{lines}\n").as_bytes());
    p
}

/// The `citation-unresolved` messages of `check --json`.
fn unresolved(p: &Project) -> Vec<String> {
    let r = p.check(&["--json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.both()));
    v["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .flat_map(|c| c["flags"].as_array().cloned().unwrap_or_default())
        .filter(|f| f["kind"] == "citation-unresolved")
        .map(|f| f["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_citation_whose_lines_cite_nothing_is_bad_and_quoted() {
    for (cite, why) in [
        ("s1.jsonl:18446744073709551616", "line 18446744073709551616 is not a line number"),
        ("s1.jsonl:99999999999999999999999", "line 99999999999999999999999 is not a line number"),
        ("s1.jsonl:2-0", "line 0 does not exist"),
        ("s1.jsonl:-1", "-1 is not a line number"),
        ("s1.jsonl:0", "line 0 does not exist"),
    ] {
        let p = citing(cite);
        let messages = unresolved(&p);
        assert_eq!(messages.len(), 1, "{cite}: {messages:?}");
        assert!(messages[0].contains(&format!("cites {cite}: {why}")), "{cite}: {}", messages[0]);
        assert!(!messages[0].contains("18446744073709551615"), "{}", messages[0]);
        let text = p.check(&[]);
        assert!(text.stdout.contains(why), "{cite}: {}", text.stdout);
    }
    // In range, the same transcript resolves; a range written backwards is put in order.
    assert_eq!(unresolved(&citing("s1.jsonl:2-4")), Vec::<String>::new());
    assert_eq!(unresolved(&citing("s1.jsonl:4-2")), Vec::<String>::new());
}

#[test]
fn names_that_differ_only_by_normalization_are_shown_different() {
    let nfc = "caf\u{e9}.md";
    let nfd = "cafe\u{301}.md";
    let mut proposed: Vec<(&str, &[u8])> = PROPOSED.to_vec();
    proposed.push((nfc, b"composed\n"));
    proposed.push((nfd, b"decomposed\n"));
    let p = Project::new(LIVE, &proposed, None);
    let text = p.check(&[]);
    let added: Vec<&str> = text.stdout.lines().filter(|l| l.contains("caf")).collect();
    assert!(added.len() >= 2, "{}", text.stdout);
    let names: std::collections::BTreeSet<&str> = added.iter().copied().collect();
    assert_eq!(names.len(), added.len(), "two names print the same: {added:?}");
    assert!(text.stdout.contains("cafe\\u{301}.md"), "the decomposed name is marked: {}", text.stdout);
    assert!(text.stdout.contains("café.md"), "the composed one is as written: {}", text.stdout);
    // `audit` lists both, told apart.
    for (n, b) in [(nfc, "composed\n"), (nfd, "decomposed\n")] {
        put(&p.memory.join(n), b.as_bytes());
    }
    let audit = p.run(&["audit", s(&p.memory)]);
    assert!(audit.stdout.contains("cafe\\u{301}.md"), "{}", audit.stdout);
}
