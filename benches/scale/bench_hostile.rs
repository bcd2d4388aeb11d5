//! Hostile inputs the size limits admit (BENCHMARKS.md, "Bounded memory"): a CHANGES.md
//! filled to its 2 MiB limit with entries that all cite one huge transcript line, and one
//! note rewritten into tens of thousands of hunks. Each is generated under a folder and
//! `check` (text and `--json`) is timed with its peak RSS.
//!
//! ```text
//! cargo bench --bench scale -- hostile /tmp/dr-hostile --line-mib 100 --hunks 20000,50000,100000
//! ```

use crate::measure::{self, Cmd};
use anyhow::{Context, Result, bail};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The largest CHANGES.md dreamreview reads.
const CHANGES_LIMIT: usize = 2 << 20;

/// Generates each hostile case under `dir` (reusing what is already there) and times it.
pub fn run(dir: &Path, line_mib: usize, hunks: &[usize], runs: usize, bin: Option<PathBuf>) -> Result<()> {
    let bin = bin.unwrap_or_else(|| PathBuf::from(option_env!("CARGO_BIN_EXE_dreamreview").unwrap_or("dreamreview")));
    let mut cases =
        vec![(format!("2 MiB CHANGES.md, every entry citing one {line_mib} MiB line"), citations(dir, line_mib)?)];
    for &n in hunks {
        cases.push((format!("one note with {n} one-line hunks"), many_hunks(dir, n)?));
    }
    eprintln!("load average before: {:.2}", measure::load());
    println!("| input | `check` wall | peak RSS | `check --json` wall | peak RSS |");
    println!("|---|---|---|---|---|");
    for (label, dream) in cases {
        let d = dream.display().to_string();
        let b = bin.display().to_string();
        let cmds = [Cmd::new("check", &[&b, "check", &d]), Cmd::new("check --json", &[&b, "check", "--json", &d])];
        let m = measure::compare(&cmds, runs)?;
        println!(
            "| {label} | {:.2} s | {:.0} MiB | {:.2} s | {:.0} MiB |",
            m[0].wall,
            m[0].rss_kb as f64 / 1024.0,
            m[1].wall,
            m[1].rss_kb as f64 / 1024.0
        );
    }
    eprintln!("load average after: {:.2}", measure::load());
    Ok(())
}

/// `dir/citations`: a project whose one transcript is a single user line of `line_mib`
/// MiB, and a dream whose CHANGES.md is filled to its limit with entries citing that line.
fn citations(dir: &Path, line_mib: usize) -> Result<PathBuf> {
    let root = dir.join(format!("citations-{line_mib}m"));
    let dream = root.join("dream");
    if dream.join("memory.diff").exists() {
        return Ok(dream);
    }
    let memory = root.join("project/memory");
    let live = "# Testing\n\n- Run the suite with pnpm test.\n";
    write_folder(&memory, &[("testing.md", live)])?;
    git_commit(&memory)?;
    let said = "We moved the cache to Redis on port 6379 and run pnpm test. ".repeat((line_mib << 20) / 60 + 1);
    let line = serde_json::json!({
        "type": "user",
        "timestamp": "2026-11-30T09:00:00.000Z",
        "sessionId": "huge",
        "message": {"role": "user", "content": said},
    });
    std::fs::write(root.join("project/huge.jsonl"), format!("{line}\n"))?;
    let proposal = format!("{live}- The cache listens on port 6379.\n");
    write_folder(&dream.join("memory"), &[("testing.md", &proposal)])?;
    let entry = "- testing.md: Redis on port 6379 and pnpm test (huge.jsonl:1)\n";
    let mut changes = String::from("# Changes\n\n");
    while changes.len() + entry.len() <= CHANGES_LIMIT {
        changes.push_str(entry);
    }
    std::fs::write(dream.join("CHANGES.md"), changes)?;
    write_diff(&root)?;
    Ok(dream)
}

/// `dir/hunks-N`: one note of `n` blocks of seven lines and a `keep i` line, and a dream
/// that rewrites every `keep i` line: eight lines apart, so one hunk each.
fn many_hunks(dir: &Path, n: usize) -> Result<PathBuf> {
    let root = dir.join(format!("hunks-{n}"));
    let dream = root.join("dream");
    if dream.join("memory.diff").exists() {
        return Ok(dream);
    }
    let (mut live, mut proposal) = (String::from("# Many\n\n"), String::from("# Many\n\n"));
    for i in 0..n {
        for c in 'a'..='g' {
            let _ = writeln!(live, "{c}");
            let _ = writeln!(proposal, "{c}");
        }
        let _ = writeln!(live, "keep {i}");
        let _ = writeln!(proposal, "kept {i}");
    }
    let memory = root.join("project/memory");
    write_folder(&memory, &[("many.md", &live)])?;
    git_commit(&memory)?;
    write_folder(&dream.join("memory"), &[("many.md", &proposal)])?;
    std::fs::write(dream.join("CHANGES.md"), "# Changes\n\n- many.md: every keep line renamed\n")?;
    write_diff(&root)?;
    Ok(dream)
}

pub(crate) fn write_folder(dir: &Path, files: &[(&str, &str)]) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (name, text) in files {
        std::fs::write(dir.join(name), text).with_context(|| format!("cannot write {name}"))?;
    }
    Ok(())
}

pub(crate) fn git_commit(dir: &Path) -> Result<()> {
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["add", "-A"],
        &["-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "memory"],
    ] {
        let st = Command::new("git").arg("-C").arg(dir).args(args).status().context("cannot run git")?;
        if !st.success() {
            bail!("git {} failed in {}", args.join(" "), dir.display());
        }
    }
    Ok(())
}

/// `memory.diff` of `root/project/memory` → `root/dream/memory`, as dreams write it.
pub(crate) fn write_diff(root: &Path) -> Result<()> {
    let out = Command::new("diff")
        .current_dir(root)
        .args(["-ruN", "-x", ".git", "project/memory", "dream/memory"])
        .output()
        .context("cannot run diff")?;
    std::fs::write(root.join("dream/memory.diff"), out.stdout)?;
    Ok(())
}
