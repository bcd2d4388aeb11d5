//! `dreamreview why` on a memory repository with a long review history: 500 notes, 200
//! review commits (each with its evidence note), every review touching `MEMORY.md` and five
//! other notes, so `MEMORY.md`'s blame walks all 200 of them.
//!
//! ```text
//! cargo bench --bench why -- [DIR] [RUNS]
//! ```
//!
//! Builds the repository in DIR (default: a temp folder; an existing DIR is reused as
//! built), then times the real binary (`why NOTE:LINE`, `why NOTE`, `why NOTE --json`) as
//! processes, RUNS times each after one untimed run, and prints median and maximum wall
//! time and, on Linux, the mean CPU time (user + system) of a run: on a loaded machine the
//! wall time is mostly waiting for a core.

use dreamreview::store::evidence::{
    CitationEvidence, EntryEvidence, Evidence, FORMAT, FlagEvidence, HunkEvidence, KeptLine, Taken,
};
use git2::{Oid, Repository, Signature, Time};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const NOTES: usize = 500;
const REVIEWS: usize = 200;
const TOUCHED: usize = 5;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let temp = tempfile::tempdir()?;
    let dir = args.first().map(PathBuf::from).unwrap_or_else(|| temp.path().join("memory"));
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(20);
    if !dir.join(".git").exists() {
        let start = Instant::now();
        build(&dir)?;
        println!("built {} ({NOTES} notes, {REVIEWS} review commits) in {:.1?}", dir.display(), start.elapsed());
    }
    let cases: [&[&str]; 5] =
        [&["MEMORY.md:3"], &["MEMORY.md:200"], &["MEMORY.md"], &["MEMORY.md", "--json"], &["note-042.md:4"]];
    println!("{:<24} {:>10} {:>10} {:>10} {:>8}", "why", "median", "max", "cpu", "lines");
    for case in cases {
        let before = children_cpu();
        let (median, max, lines) = time(&dir, case, runs)?;
        let cpu = match (before, children_cpu()) {
            (Some(a), Some(b)) => format!("{:.1?}", (b - a) / (runs as u32 + 1)),
            _ => "-".to_string(),
        };
        println!("{:<24} {:>10.1?} {:>10.1?} {:>10} {:>8}", case.join(" "), median, max, cpu, lines);
    }
    Ok(())
}

/// The CPU time (user + system) of this process's finished children so far, from
/// `/proc/self/stat` (in clock ticks, taken as 100 a second); `None` elsewhere.
fn children_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Fields 16 and 17 of the line (cutime, cstime), counted after the `(name)` field 2.
    let ticks: u64 = fields.get(13)?.parse::<u64>().ok()? + fields.get(14)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Median and maximum wall time of `dreamreview why ARGS` in `dir`, and its output lines.
fn time(dir: &Path, args: &[&str], runs: usize) -> anyhow::Result<(Duration, Duration, usize)> {
    let run = || -> anyhow::Result<(Duration, usize)> {
        let start = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_dreamreview")).arg("why").args(args).current_dir(dir).output()?;
        let took = start.elapsed();
        anyhow::ensure!(out.status.success(), "why {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        Ok((took, out.stdout.iter().filter(|&&b| b == b'\n').count()))
    };
    let (_, lines) = run()?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        times.push(run()?.0);
    }
    times.sort();
    Ok((times[times.len() / 2], *times.last().unwrap_or(&Duration::ZERO), lines))
}

/// The repository: a first commit of 500 notes by hand, then 200 review commits.
fn build(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let repo = Repository::init(dir)?;
    let mut files: BTreeMap<String, Vec<String>> = BTreeMap::new();
    files.insert("MEMORY.md".into(), (0..NOTES).map(|i| format!("- [note {i}](note-{i:03}.md)")).collect());
    for i in 0..NOTES {
        let body = (0..8).map(|l| format!("Note {i}, line {l}: the build uses make and port {}.", 5000 + l)).collect();
        files.insert(format!("note-{i:03}.md"), body);
    }
    let mut parent = commit(&repo, &files, "notes by hand", None, 0)?;
    for r in 0..REVIEWS {
        let mut hunks = Vec::new();
        let touched = std::iter::once("MEMORY.md".to_string())
            .chain((0..TOUCHED).map(|k| format!("note-{:03}.md", (r * TOUCHED + k) % NOTES)));
        for (k, path) in touched.enumerate() {
            let lines = files.get_mut(&path).expect("a note");
            let at = (r + k) % lines.len();
            let new = format!("Review {r} says {path} line {at} is now port {}.", 6000 + r);
            lines[at] = new.clone();
            hunks.push(hunk(r, &path, at, new));
        }
        let listed: String = hunks.iter().map(|h| format!("- {} (+1 -1)\n", h.id)).collect();
        let message = format!(
            "dream review: accept {n} of {n} changes from dream-{r}\n\nAccepted ({n}):\n{listed}\n\
             Dream-Source: /d/dream-{r}\nDream-Id: {r:024x}\nReview: accepted={n} rejected=0 edited=0\n",
            n = hunks.len()
        );
        let id = commit(&repo, &files, &message, Some(parent), r as i64 + 1)?;
        let e = Evidence {
            format: FORMAT.to_string(),
            dream: format!("dream-{r}"),
            dream_id: format!("{r:024x}"),
            time_zone: "UTC".into(),
            hunks,
        };
        let sig = signature(r as i64 + 1)?;
        repo.note(&sig, &sig, Some("refs/notes/dreamreview"), id, &e.to_json(), true)?;
        parent = id;
    }
    let mut index = repo.index()?;
    index.read_tree(&repo.find_commit(parent)?.tree()?)?;
    index.write()?;
    repo.checkout_head(Some(git2::build::CheckoutBuilder::new().force()))?;
    Ok(())
}

/// The evidence of one hunk: its line, one entry citing a transcript that is gone, five
/// kept lines, two claims, one accepted flag.
fn hunk(r: usize, path: &str, at: usize, line: String) -> HunkEvidence {
    let session = format!("{r:08x}-0000-4000-8000-000000000000.jsonl");
    let kept = (1..=5)
        .map(|n| KeptLine {
            line: n,
            last: n,
            time: Some(format!("2026-11-{:02} 09:{n:02}:00", 1 + r % 28)),
            local_time: Some(format!("2026-11-{:02} 09:{n:02}", 1 + r % 28)),
            role: Some(if n % 2 == 1 { "user" } else { "assistant" }.into()),
            text: format!("we moved {path} to port {} (message {n} of session {r})", 6000 + r),
            cited: n == 3,
            cut: 0,
        })
        .collect();
    HunkEvidence {
        id: format!("{path}#{}", at + 1),
        path: path.to_string(),
        taken: Taken::Accepted,
        lines: vec![line],
        entries: vec![EntryEvidence {
            label: "CHANGES.md #1".into(),
            text: format!("memory/{path}: port {} ({session} line 3)", 6000 + r),
            citations: vec![CitationEvidence {
                location: format!("{session}:3"),
                source: session.clone(),
                path: Some(format!("/nonexistent/projects/p/{session}")),
                line: Some(3),
                end: None,
                resolved: true,
                speaker: Some("user".into()),
                lines: kept,
                not_kept: 0,
            }],
        }],
        claims: Vec::new(),
        accepted_flags: vec![FlagEvidence {
            kind: "inferred-date".into(),
            severity: "warning".into(),
            message: "«last week» is stated by no source".into(),
            claim: Some("last week".into()),
        }],
    }
}

fn signature(n: i64) -> anyhow::Result<Signature<'static>> {
    Ok(Signature::new("bench", "bench@example.com", &Time::new(1_794_000_000 + n * 86_400, 0))?)
}

fn commit(
    repo: &Repository,
    files: &BTreeMap<String, Vec<String>>,
    message: &str,
    parent: Option<Oid>,
    n: i64,
) -> anyhow::Result<Oid> {
    let mut tree = repo.treebuilder(None)?;
    for (path, lines) in files {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        tree.insert(path, repo.blob(text.as_bytes())?, 0o100644)?;
    }
    let tree = repo.find_tree(tree.write()?)?;
    let sig = signature(n)?;
    let parents: Vec<git2::Commit<'_>> = parent.map(|p| repo.find_commit(p)).transpose()?.into_iter().collect();
    let refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
    Ok(repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &refs)?)
}
