//! Benchmark 2: loading the review model of the generated dream (`Review::load`: both
//! folders read, memory.diff parsed and reverse-applied for the base, every file diffed,
//! the dream hashed) against `git diff --no-index` of the same two folders.

use crate::generator::Layout;
use crate::measure::{self, Cmd};
use anyhow::{Context, Result};
use std::path::Path;
use std::time::Instant;

/// Loads the review once; returns the number of hunks.
pub fn load(dir: &Path) -> Result<usize> {
    let l = Layout::of(dir);
    let inputs = dreamreview::inputs::dream::discover(Some(&l.dream), None, &[])?;
    let review = dreamreview::store::repo::load_review(inputs)?;
    Ok(review.files.iter().map(|f| f.hunks.len()).sum())
}

/// A copy of the live notes without `.git` (git diff --no-index would diff the
/// repository's internals too), made once.
fn live_copy(dir: &Path) -> Result<std::path::PathBuf> {
    let l = Layout::of(dir);
    let copy = dir.join("live-notes");
    if !copy.exists() {
        std::fs::create_dir_all(&copy)?;
        for e in std::fs::read_dir(&l.memory)?.flatten() {
            if e.file_type()?.is_file() {
                std::fs::copy(e.path(), copy.join(e.file_name()))
                    .with_context(|| format!("cannot copy {}", e.path().display()))?;
            }
        }
    }
    Ok(copy)
}

/// Times the model load against git diff and prints a Markdown table.
pub fn run(dir: &Path, runs: usize) -> Result<()> {
    let l = Layout::of(dir);
    let live = live_copy(dir)?;
    let me = std::env::current_exe()?;
    let s = |p: &Path| p.display().to_string();
    let proposed = l.dream.join("memory");
    let cmds = [
        Cmd::new("Review::load (process)", &[&s(&me), "load", &s(dir)]),
        Cmd::new("git diff --no-index", &["git", "diff", "--no-index", &s(&live), &s(&proposed)]),
        Cmd::new("diff -ruN", &["diff", "-ruN", &s(&live), &s(&proposed)]),
    ];
    for c in &cmds {
        eprintln!("$ {}", c.line());
    }
    eprintln!("load average before: {:.2}", measure::load());
    let m = measure::compare(&cmds, runs)?;
    // In process, without process start-up: the part the TUI waits for.
    let mut times = Vec::new();
    let mut hunks = 0;
    for _ in 0..runs.max(3) {
        let t = Instant::now();
        hunks = load(dir)?;
        times.push(t.elapsed().as_secs_f64());
    }
    let inproc = measure::percentile(&mut times, 50.0);
    eprintln!("load average after: {:.2}", measure::load());
    let notes = std::fs::read_dir(&live)?.count();
    println!("| input | Review::load (process) | in process | git diff --no-index | ratio | diff -ruN | hunks |");
    println!("|---|---|---|---|---|---|---|");
    println!(
        "| {} notes | {:.1} ms | {:.1} ms | {:.1} ms | {:.2}× | {:.1} ms | {hunks} |",
        notes,
        m[0].wall * 1e3,
        inproc * 1e3,
        m[1].wall * 1e3,
        m[0].wall / m[1].wall,
        m[2].wall * 1e3
    );
    Ok(())
}
