//! Citations at the scale the size limits admit (issue 33 §6): one CHANGES.md entry with
//! n citations, written `s1.jsonl:N` and `s1.jsonl line N`, for growing n up to what 2 MiB
//! holds (time must grow no faster than n log n); and entries that each cite 40 distinct
//! transcript lines of 4 MiB (each cited message read once, however often cited). `check`
//! wall time and peak RSS of each; the target is ≤ 20 s and ≤ 150 MiB.
//!
//! ```text
//! cargo bench --bench scale -- citations /tmp/dr-citations
//! ```

use crate::bench_hostile::{git_commit, write_diff, write_folder};
use crate::measure::{self, Cmd};
use anyhow::Result;
use std::path::{Path, PathBuf};

/// The largest CHANGES.md dreamreview reads.
const CHANGES_LIMIT: usize = 2 << 20;

/// Lines of the small transcript the many-citations cases cite.
const LINES: usize = 1000;

/// Generates and times every case under `dir`.
pub fn run(dir: &Path, counts: &[usize], entries: &[usize], runs: usize, bin: Option<PathBuf>) -> Result<()> {
    let bin = bin.unwrap_or_else(|| PathBuf::from(option_env!("CARGO_BIN_EXE_dreamreview").unwrap_or("dreamreview")));
    let mut cases = Vec::new();
    for form in [Form::Attached, Form::Prose] {
        for &n in counts {
            if let Some(dream) = one_entry(dir, n, form)? {
                cases.push((format!("one entry, {n} citations `{}`", form.example()), dream));
            }
        }
    }
    for &k in entries {
        cases.push((format!("{k} entries × 40 distinct 4 MiB lines"), huge_lines(dir, k)?));
    }
    eprintln!("load average before: {:.2}", measure::load());
    println!("| input | `check` wall | peak RSS |");
    println!("|---|---|---|");
    for (label, dream) in cases {
        let memory = dream.parent().map(|r| r.join("project/memory")).unwrap_or_default();
        let (d, m, b) = (dream.display().to_string(), memory.display().to_string(), bin.display().to_string());
        let cmd = Cmd::new("check", &[&b, "check", &d, "--memory", &m, "--no-index"]);
        let r = measure::compare(&[cmd], runs)?;
        println!("| {label} | {:.2} s | {:.0} MiB |", r[0].wall, r[0].rss_kb as f64 / 1024.0);
    }
    eprintln!("load average after: {:.2}", measure::load());
    Ok(())
}

/// How a citation is written.
#[derive(Clone, Copy)]
enum Form {
    /// `s1.jsonl:17`
    Attached,
    /// `s1.jsonl line 17,`
    Prose,
}

impl Form {
    fn example(self) -> &'static str {
        match self {
            Form::Attached => "s1.jsonl:N",
            Form::Prose => "s1.jsonl line N",
        }
    }

    fn write(self, n: usize) -> String {
        match self {
            Form::Attached => format!("s1.jsonl:{n} "),
            Form::Prose => format!("s1.jsonl line {n}, "),
        }
    }
}

/// A project whose one transcript has [`LINES`] lines, and a dream with one entry of `n`
/// citations (`None` when they do not fit in the CHANGES.md limit).
fn one_entry(dir: &Path, n: usize, form: Form) -> Result<Option<PathBuf>> {
    let root = dir.join(format!("entry-{}-{n}", form.example().replace([' ', ':'], "_")));
    let dream = root.join("dream");
    let mut entry = String::from("- testing.md: tests run with pnpm test (");
    for i in 0..n {
        entry.push_str(&form.write(i % LINES + 1));
    }
    entry.push_str(")\n");
    if entry.len() > CHANGES_LIMIT {
        return Ok(None);
    }
    if dream.join("memory.diff").exists() {
        return Ok(Some(dream));
    }
    project(&root, &transcript(LINES, |i| format!("line {i}: we run the tests with pnpm test now")))?;
    std::fs::write(dream.join("CHANGES.md"), entry)?;
    Ok(Some(dream))
}

/// A project whose transcript is 40 lines of 4 MiB, and `k` entries each citing all 40.
fn huge_lines(dir: &Path, k: usize) -> Result<PathBuf> {
    let root = dir.join(format!("huge-lines-{k}"));
    let dream = root.join("dream");
    if dream.join("memory.diff").exists() {
        return Ok(dream);
    }
    let said = "We moved the cache to Redis on port 6379 and run pnpm test. ".repeat((4 << 20) / 60);
    project(&root, &transcript(40, |_| said.clone()))?;
    let cites: Vec<String> = (1..=40).map(|i| format!("s1.jsonl:{i}")).collect();
    let entry = format!("- testing.md: pnpm test, and the cache on port 6380 ({})\n", cites.join(", "));
    std::fs::write(dream.join("CHANGES.md"), entry.repeat(k))?;
    Ok(dream)
}

/// `n` JSONL user lines saying `said(i)`.
fn transcript(n: usize, said: impl Fn(usize) -> String) -> String {
    (1..=n)
        .map(|i| {
            let line = serde_json::json!({
                "type": "user",
                "timestamp": "2026-11-30T09:00:00.000Z",
                "message": {"role": "user", "content": said(i)},
            });
            format!("{line}\n")
        })
        .collect()
}

/// The live note, its rewrite, the transcript beside the memory folder, memory.diff.
fn project(root: &Path, transcript: &str) -> Result<()> {
    let memory = root.join("project/memory");
    let live = "# Testing\n\n- Run the suite with npm test.\n";
    write_folder(&memory, &[("testing.md", live)])?;
    git_commit(&memory)?;
    std::fs::write(root.join("project/s1.jsonl"), transcript)?;
    let proposal = "# Testing\n\n- Run the suite with pnpm test.\n- The cache listens on port 6380.\n";
    write_folder(&root.join("dream/memory"), &[("testing.md", proposal)])?;
    write_diff(root)
}
