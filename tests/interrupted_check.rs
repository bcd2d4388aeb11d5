//! `check` after an `apply` killed part way: it names the interrupted review, the notes
//! already written and what the next `apply` does about them, in text and in `--json`,
//! and exits 1; it changes nothing. The TUI's start and the next `apply` recover.

use crate::hardening_support::*;

const LIVE5: &[(&str, &[u8])] = &[
    ("a.md", b"# a\nold a\n"),
    ("b.md", b"# b\nold b\n"),
    ("c.md", b"# c\nold c\n"),
    ("d.md", b"# d\nold d\n"),
    ("e.md", b"# e\nold e\n"),
];

const NEW5: &[(&str, &[u8])] = &[
    ("a.md", b"# a\nnew a\n"),
    ("b.md", b"# b\nnew b\n"),
    ("c.md", b"# c\nnew c\n"),
    ("d.md", b"# d\nnew d\n"),
    ("e.md", b"# e\nnew e\n"),
];

/// Five changed notes; `apply --accept-all` killed (the test hook aborts it) right after
/// its third note write. Returns the project and which notes hold the new content.
fn killed_after_three_writes() -> (Project, Vec<&'static str>) {
    let p = Project::new(LIVE5, NEW5, None);
    let before = p.check(&[]);
    assert_eq!(before.code, 0, "the review itself needs no action: {}", before.both());
    p.apply_killed_after(3);
    let written: Vec<&str> =
        NEW5.iter().filter(|(n, b)| std::fs::read(p.memory.join(n)).unwrap() == *b).map(|(n, _)| *n).collect();
    assert_eq!(written.len(), 3, "three notes written before the kill: {written:?}");
    (p, written)
}

#[test]
fn check_names_the_interrupted_review_and_what_apply_will_do() {
    let (p, written) = killed_after_three_writes();
    let untouched = p.fingerprint();
    let c = p.check(&[]);
    assert_eq!(c.code, 1, "an interrupted write needs action: {}", c.both());
    let line = c.stdout.lines().find(|l| l.starts_with("interrupted: ")).unwrap_or_else(|| panic!("{}", c.both()));
    assert!(line.contains("a dream review (pid "), "{line}");
    assert!(line.contains(&format!("stopped after writing 3 of 5 notes ({})", written.join(", "))), "{line}");
    assert!(line.contains("the commit was never made"), "{line}");
    assert!(line.contains("The next apply") && line.contains("puts those notes back as they were"), "{line}");
    untouched.assert_same(&p.fingerprint());

    let j = p.check(&["--json"]);
    assert_eq!(j.code, 1, "{}", j.both());
    let v = crate::common::json(&j);
    let i = &v["interrupted"];
    assert_eq!(i["state"], "uncommitted", "{i:#}");
    assert_eq!(i["writing_now"], false, "{i:#}");
    assert_eq!(i["writer"]["action"], "dream review", "{i:#}");
    assert!(i["writer"]["pid"].as_u64().is_some_and(|pid| pid > 0), "{i:#}");
    let names =
        |k: &str| -> Vec<String> { i[k].as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect() };
    assert_eq!(names("written"), written, "{i:#}");
    assert_eq!(names("untouched").len(), 2, "{i:#}");
    assert!(names("foreign").is_empty(), "{i:#}");
    assert!(i["journal"].as_str().unwrap().ends_with(".git/dreamreview/journal.json"), "{i:#}");
    assert_eq!(i["message"].as_str().unwrap(), line.trim_start_matches("interrupted: "));
    untouched.assert_same(&p.fingerprint());

    let a = p.apply(&["--accept-all"]);
    assert_eq!(a.code, 0, "{}", a.both());
    assert!(a.stderr.contains("rolled back an interrupted dream review"), "{}", a.both());
    let after = p.check(&["--json"]);
    assert_eq!(crate::common::json(&after)["interrupted"], serde_json::Value::Null, "{}", after.both());
}

/// A note edited after the kill is named as foreign content the next apply refuses to
/// touch, with the journal to delete once checked.
#[test]
fn check_names_a_note_edited_since_the_kill() {
    let (p, written) = killed_after_three_writes();
    std::fs::write(p.memory.join(written[0]), "someone else\n").unwrap();
    let c = p.check(&[]);
    assert_eq!(c.code, 1, "{}", c.both());
    let line = c.stdout.lines().find(|l| l.starts_with("interrupted: ")).unwrap_or_else(|| panic!("{}", c.both()));
    assert!(line.contains(&format!("{} now holds content dreamreview did not write", written[0])), "{line}");
    assert!(line.contains("leaves any other edit as it is"), "{line}");
}

/// While a process holds the repository's lock, its journal is a write going on, not an
/// interrupted one: `check` names it as running.
#[test]
fn check_names_a_write_still_running_as_running() {
    let (p, _) = killed_after_three_writes();
    let holder = crate::common::LockHolder::start(&p.memory.join(".git/dreamreview/lock"));
    let c = p.check(&["--json"]);
    assert_eq!(c.code, 1, "{}", c.both());
    let i = &crate::common::json(&c)["interrupted"];
    assert_eq!(i["writing_now"], true, "{i:#}");
    let m = i["message"].as_str().unwrap();
    assert!(m.contains("is writing the notes now") && m.contains(&format!("pid {}", holder.pid)), "{m}");
    holder.kill();
    let c = p.check(&[]);
    assert!(c.stdout.contains("stopped after writing 3 of 5 notes"), "{}", c.both());
}
