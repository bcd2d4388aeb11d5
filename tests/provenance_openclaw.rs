//! OpenClaw: a deep-phase dream promotes short-term notes into MEMORY.md with inline sources
//! (`[score=… source=memory/<date>.md:14-17]`, `Source: …#L3-L5`) instead of a CHANGES.md.
//! Each inline source cites its own hunk; the metadata is structure, not claims; a daily
//! note's line is dated by its file name.

use crate::common::*;

const DAILY: &str = "# 2026-06-02 14:06\n\n\
- Talked through the release checklist with Mina.\n\
- The staging cluster moved to Kubernetes 1.30 yesterday.\n\
- Grafana dashboards now live under `ops/dashboards/`.\n\
- Pager rotation: Mina takes the week of June 8.\n";

const INDEX: &str = "# MEMORY\n\n- Prefers short PR descriptions.\n";

fn workspace(promoted: &str) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let daily = ("memory/2026-06-02-1406.md", DAILY);
    let (g, dream, memory) = dream_fixture(&[("MEMORY.md", INDEX), daily], &[("MEMORY.md", promoted), daily], "");
    // An OpenClaw run leaves no CHANGES.md: the sources are inline.
    std::fs::remove_file(dream.join("CHANGES.md")).unwrap();
    std::fs::write(dream.join("run.log"), "deep phase: promoted 2 entries\n").unwrap();
    (g, dream, memory)
}

#[test]
fn inline_sources_cite_their_hunk_and_metadata_is_not_a_claim() {
    let promoted = format!(
        "{INDEX}\n## Promoted From Short-Term Memory (2026-06-03)\n\n\
<!-- openclaw-memory-promotion:memory/2026-06-02-1406.md:4:4 -->\n\
- Staging runs Kubernetes 1.30 (since 2026-06-01). [score=0.877 recalls=0 avg=0.620 source=memory/2026-06-02-1406.md:4-4]\n\
- Dashboards live in `ops/dashboards/`. Source: memory/2026-06-02-1406.md#L5-L5\n"
    );
    let (_g, dream, memory) = workspace(&promoted);
    let r = run(
        dream.parent().unwrap(),
        &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap(), "--json"],
    );
    let v = json(&r);
    assert_eq!(v["dream"]["kind"], "dream-folder");
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 1, "only MEMORY.md changes: {}", r.stdout);
    let hunk = &files[0]["hunks"][0];
    // Both inline sources became entries citing this hunk, resolved in the daily note.
    let changes = v["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{}", r.stdout);
    for c in changes {
        assert_eq!(c["note"], "MEMORY.md");
        assert_eq!(c["hunks"], serde_json::json!(["MEMORY.md#1"]));
        assert_eq!(c["citations"][0]["source"], "memory/2026-06-02-1406.md");
        assert_eq!(c["citations"][0]["resolved"], true);
    }
    assert_eq!(hunk["changes"], serde_json::json!([1, 2]));
    // No flag for the score bracket, the promotion comment or the heading's date; the
    // version and the path are sourced by the cited daily-note lines; "since 2026-06-01"
    // is the day before the note's date, where it said "yesterday": what that line states
    // (issue 14), so no flag. The day after is off by one (see the test below).
    let flags: Vec<(String, String)> = hunk["flags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["kind"].as_str().unwrap().to_string(), f["claim"].as_str().unwrap_or("").to_string()))
        .collect();
    assert_eq!(flags, vec![], "{}", r.stdout);
    let status = |text: &str| {
        hunk["claims"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["text"] == text)
            .map(|c| c["status"].as_str().unwrap().to_string())
    };
    assert_eq!(status("Kubernetes 1.30").as_deref(), Some("sourced"));
    assert_eq!(status("2026-06-01").as_deref(), Some("sourced"));
    assert_eq!(status("ops/dashboards/").as_deref(), Some("sourced"));
    assert!(hunk["claims"].as_array().unwrap().iter().all(|c| !c["text"].as_str().unwrap().contains("0.877")));
    assert!(v["changes"].as_array().unwrap().iter().all(|c| c["flags"].as_array().unwrap().is_empty()));
    // The text report names them as inline sources in MEMORY.md: there is no CHANGES.md.
    let r = run(dream.parent().unwrap(), &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap()]);
    assert!(r.stdout.contains("MEMORY.md#1  @@ -1,3 +1,9 @@  (sources #1, #2)"), "{}", r.stdout);
    assert!(r.stdout.contains("\ninline sources\n  #1 (MEMORY.md line 8) - Staging runs"), "{}", r.stdout);
    assert!(!r.stdout.contains("CHANGES.md"), "{}", r.stdout);
}

/// The note's own day for a "yesterday" said in it is off by one: flagged with the
/// arithmetic, never sourced by the note's day (old code sourced it), even though the note's
/// heading writes that day.
#[test]
fn a_daily_notes_yesterday_is_the_day_before_its_date() {
    let promoted = format!(
        "{INDEX}\n## Promoted From Short-Term Memory (2026-06-03)\n\n\
- Staging runs Kubernetes 1.30 (since 2026-06-02). [score=0.877 recalls=0 avg=0.620 source=memory/2026-06-02-1406.md:4-4]\n"
    );
    let (_g, dream, memory) = workspace(&promoted);
    let r = run(
        dream.parent().unwrap(),
        &["check", dream.to_str().unwrap(), "--memory", memory.to_str().unwrap(), "--json"],
    );
    let v = json(&r);
    let hunk = &v["files"][0]["hunks"][0];
    let flags = hunk["flags"].as_array().unwrap();
    assert_eq!(flags.len(), 1, "{}", r.stdout);
    assert_eq!(flags[0]["kind"], "inferred-date");
    assert_eq!(
        flags[0]["message"],
        "«2026-06-02» — yesterday said on 2026-06-02 means 2026-06-01 (memory/2026-06-02-1406.md:4); the date \
         itself is only written on memory/2026-06-02-1406.md:1"
    );
    assert_eq!(flags[0]["source"], "memory/2026-06-02-1406.md:4");
}
