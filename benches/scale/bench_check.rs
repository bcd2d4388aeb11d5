//! Benchmark 1 (and 4): `dreamreview check --json` end to end against
//! `rg -c -F -f claims.txt` over the same transcripts with the same needles, plus peak RSS;
//! on several sizes, how both grow. A second anchor, `rg -i --count-matches`, does the
//! search provenance needs: every occurrence on a line, not only the first, ASCII
//! case-insensitively (`rg -c` stops reading a line at its first match).

use crate::generator::Layout;
use crate::measure::{self, Cmd};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Loads the generated review in `dir` and writes the patterns provenance's scan searches
/// for to `dir/claims.txt` (the needles with their JSON-escaped forms, exactly the
/// automaton's patterns), one per line. Returns the path.
pub fn write_needles(dir: &Path) -> Result<PathBuf> {
    let l = Layout::of(dir);
    let inputs = dreamreview::inputs::dream::discover(Some(&l.dream), None, &[])?;
    let review = dreamreview::store::repo::load_review(inputs)?;
    let needles = dreamreview::analysis::provenance::scan_needles(&review);
    let patterns = dreamreview::inputs::transcript::scan_patterns(&needles);
    let path = dir.join("claims.txt");
    let mut text = patterns.join("\n");
    text.push('\n');
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!("{}: {} needles, {} patterns", path.display(), needles.len(), patterns.len());
    Ok(path)
}

/// Bytes of every `*.jsonl` under `dir`, and how many files.
pub fn transcript_bytes(dir: &Path) -> (u64, usize) {
    let mut total = (0, 0);
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                stack.push(e.path());
            } else if e.file_name().to_string_lossy().ends_with(".jsonl") {
                total.0 += e.metadata().map(|m| m.len()).unwrap_or(0);
                total.1 += 1;
            }
        }
    }
    total
}

fn default_bin() -> PathBuf {
    PathBuf::from(option_env!("CARGO_BIN_EXE_dreamreview").unwrap_or("dreamreview"))
}

/// Times check against rg on each folder and prints a Markdown table.
pub fn run(dirs: &[PathBuf], runs: usize, bin: Option<PathBuf>) -> Result<()> {
    let bin = bin.unwrap_or_else(default_bin);
    let mut rows = Vec::new();
    eprintln!("load average before: {:.2}", measure::load());
    for dir in dirs {
        let l = Layout::of(dir);
        let claims = dir.join("claims.txt");
        if !claims.exists() {
            write_needles(dir)?;
        }
        let patterns = std::fs::read_to_string(&claims)?.lines().count();
        let (bytes, files) = transcript_bytes(&l.project);
        let s = |p: &Path| p.display().to_string();
        let cmds = [
            Cmd::new("dreamreview check --json", &[&s(&bin), "check", "--json", "--no-index", &s(&l.dream)]),
            Cmd::new("rg -c -F -f claims.txt", &["rg", "-c", "-F", "-f", &s(&claims), "-g", "*.jsonl", &s(&l.project)]),
            Cmd::new(
                "rg --count-matches -F -i -f claims.txt",
                &["rg", "--count-matches", "-F", "-i", "-f", &s(&claims), "-g", "*.jsonl", &s(&l.project)],
            ),
        ];
        for c in &cmds {
            eprintln!("$ {}", c.line());
        }
        let m = measure::compare(&cmds, runs)?;
        rows.push((dir.clone(), bytes, files, patterns, m));
    }
    eprintln!("load average after: {:.2}", measure::load());
    println!(
        "| input | transcripts | check wall | rg wall | ratio | rg -i --count-matches wall | ratio | check CPU | rg CPU | check CPU/wall | check MB/s | check peak RSS | rg peak RSS |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (dir, bytes, files, patterns, m) in rows {
        let (c, r, ri) = (m[0], m[1], m[2]);
        let mib = bytes as f64 / (1 << 20) as f64;
        println!(
            "| {} ({files} files, {patterns} patterns) | {mib:.0} MiB | {:.3} s | {:.3} s | {:.2}× | {:.3} s | {:.2}× | {:.2} s | {:.2} s | {:.2} | {:.0} | {:.1} MiB | {:.1} MiB |",
            dir.display(),
            c.wall,
            r.wall,
            c.wall / r.wall,
            ri.wall,
            c.wall / ri.wall,
            c.cpu(),
            r.cpu(),
            c.cpu() / c.wall,
            mib / c.wall,
            c.rss_kb as f64 / 1024.0,
            r.rss_kb as f64 / 1024.0,
        );
    }
    Ok(())
}
