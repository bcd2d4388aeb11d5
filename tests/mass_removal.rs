//! A cap on loss: a dream that removes more than a quarter of the memory's notes is an
//! error (`mass-removal`) on every removal, whatever its citations say, and `apply
//! --accept-all` commits it only with `--allow mass-removal`.

use crate::common::*;

#[test]
fn a_dream_removing_half_the_notes_is_refused_without_allow() {
    let notes: Vec<(String, String)> = (0..8)
        .map(|i| (format!("topic{i}.md"), format!("# Topic {i}\n\nTopic {i} uses port {}.\n", 7000 + i)))
        .collect();
    let index: String = (0..8).map(|i| format!("- [Topic {i}](topic{i}.md)\n")).collect();
    let mut live: Vec<(&str, &str)> = notes.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    live.push(("MEMORY.md", &index));
    // The dream deletes topic0–3 and says so, naming each.
    let kept_index: String = (4..8).map(|i| format!("- [Topic {i}](topic{i}.md)\n")).collect();
    let mut proposed: Vec<(&str, &str)> = notes[4..].iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    proposed.push(("MEMORY.md", &kept_index));
    let changes: String =
        (0..4).map(|i| format!("- topic{i}.md: deleted topic{i}.md, Topic {i} is obsolete\n")).collect();
    let (g, dream, memory) = dream_fixture(&live, &proposed, &changes);
    let cwd = g.path();
    let (code, v) = check_json(&dream, &["--memory", memory.to_str().unwrap()]);
    assert_eq!(code, 1);
    let rows: Vec<_> = flag_rows(&v).into_iter().filter(|r| r.1 == "mass-removal").collect();
    for i in 0..4 {
        assert!(rows.iter().any(|r| r.0 == format!("topic{i}.md#1") && r.2 == "error"), "{rows:#?}");
    }
    let m = memory.to_str().unwrap();
    let d = dream.to_str().unwrap();
    let r = run(cwd, &["apply", d, "--memory", m, "--init", "--accept-all", "--allow", "removal-unsourced"]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("mass-removal"), "{}", r.stderr);
    assert!(memory.join("topic0.md").exists(), "nothing is written before the refusal");
    let r =
        run(cwd, &["apply", d, "--memory", m, "--init", "--accept-all", "--allow", "removal-unsourced,mass-removal"]);
    assert_eq!(r.code, 0, "{}", r.both());
    assert!(!memory.join("topic0.md").exists());
    // One note of eight is no mass removal.
    let mut one: Vec<(&str, &str)> = notes[1..].iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let one_index: String = (1..8).map(|i| format!("- [Topic {i}](topic{i}.md)\n")).collect();
    one.push(("MEMORY.md", &one_index));
    let (_g2, dream, memory) = dream_fixture(&live, &one, "- topic0.md: deleted topic0.md, Topic 0 is obsolete\n");
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap()]);
    assert!(flag_rows(&v).iter().all(|r| r.1 != "mass-removal"), "{:#?}", flag_rows(&v));
}

#[test]
fn the_cap_is_set_by_flag_over_the_environment() {
    let notes: Vec<(String, String)> = (0..8)
        .map(|i| (format!("topic{i}.md"), format!("# Topic {i}\n\nTopic {i} uses port {}.\n", 7000 + i)))
        .collect();
    let live: Vec<(&str, &str)> = notes.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let proposed: Vec<(&str, &str)> = notes[3..].iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let changes: String =
        (0..3).map(|i| format!("- topic{i}.md: deleted topic{i}.md, Topic {i} is obsolete\n")).collect();
    let (_g, dream, memory) = dream_fixture(&live, &proposed, &changes);
    let m = memory.to_str().unwrap();
    let mass = |extra: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["check", dream.to_str().unwrap(), "--json", "--memory", m];
        args.extend_from_slice(extra);
        let r = run_env(dream.parent().unwrap(), &args, env);
        flag_rows(&json(&r)).iter().any(|r| r.1 == "mass-removal")
    };
    // 3 of 8 notes (37%): over the default 25%.
    assert!(mass(&[], &[]));
    assert!(!mass(&["--mass-removal-percent", "40"], &[]));
    assert!(!mass(&[], &[("DREAMREVIEW_MASS_REMOVAL_PERCENT", "40")]));
    assert!(mass(&["--mass-removal-percent", "30"], &[("DREAMREVIEW_MASS_REMOVAL_PERCENT", "40")]));
    let r =
        run(dream.parent().unwrap(), &["check", dream.to_str().unwrap(), "--memory", m, "--mass-removal-percent", "0"]);
    assert_eq!(r.code, 2, "{}", r.both());
}
