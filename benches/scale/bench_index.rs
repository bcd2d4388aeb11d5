//! The transcript index (issue 17): `check --json` cold (no index yet: the run scans as
//! without one and leaves the index to a background `dreamreview index`, timed apart),
//! warm (index current), and after a night's appends (one new 10 MiB session, 5 MiB
//! more in an existing one), beside today's full scan (`--no-index`), `rg -c -F -f
//! claims.txt` and `rg -i --count-matches`; the index's size; peak RSS.
//!
//! The project is left as it was found: the appended bytes are cut off again and the new
//! session removed after each append run. The index lives in a temporary cache folder
//! (`XDG_CACHE_HOME`), never the user's.

use crate::bench_check::{transcript_bytes, write_needles};
use crate::generator::Layout;
use crate::measure::{self, Cmd, Run};
use anyhow::{Context, Result};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// Runs the comparison on `dir` and prints a Markdown table.
pub fn run(dir: &Path, runs: usize, bin: Option<PathBuf>) -> Result<()> {
    let bin = bin.unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_dreamreview")));
    let l = Layout::of(dir);
    let claims = dir.join("claims.txt");
    if !claims.exists() {
        write_needles(dir)?;
    }
    let (bytes, files) = transcript_bytes(&l.project);
    let cache = tempfile::Builder::new().prefix("dreamreview-bench-cache").tempdir()?;
    let cache_env = format!("XDG_CACHE_HOME={}", cache.path().display());
    let s = |p: &Path| p.display().to_string();
    let check = |extra: &[&str]| {
        let mut argv =
            vec!["env".to_string(), cache_env.clone(), s(&bin), "check".into(), "--json".into(), s(&l.dream)];
        argv.extend(extra.iter().map(|e| e.to_string()));
        argv
    };
    let cmd = |label: &str, argv: Vec<String>| Cmd { label: label.into(), argv };
    let today = cmd("check --json --no-index (today)", check(&["--no-index"]));
    let indexed = cmd("check --json (index)", check(&[]));
    let rg =
        Cmd::new("rg -c -F -f claims.txt", &["rg", "-c", "-F", "-f", &s(&claims), "-g", "*.jsonl", &s(&l.project)]);
    let rgi = Cmd::new(
        "rg -i --count-matches -F -f claims.txt",
        &["rg", "--count-matches", "-F", "-i", "-f", &s(&claims), "-g", "*.jsonl", &s(&l.project)],
    );
    let index_dir = cache.path().join("dreamreview");
    // The transcripts a review reads, as it finds them.
    let sessions: Vec<PathBuf> = dreamreview::inputs::transcript::SourceSet::discover(Some(&l.project), &[], None)?
        .files()
        .iter()
        .map(|f| f.path.clone())
        .collect();
    let settle = || wait_for_index(&index_dir, &sessions);
    eprintln!("load average before: {:.2}", measure::load());
    for c in [&today, &indexed, &rg, &rgi] {
        eprintln!("$ {}", c.line());
    }
    // The index built once (a run, then its background build), then today, rg and the
    // warm index interleaved.
    measure::run(&indexed)?;
    settle()?;
    let m = measure::compare(&[today.clone(), rg.clone(), rgi.clone(), indexed.clone()], runs)?;
    let (today_run, rg_run, rgi_run, warm) = (m[0], m[1], m[2], m[3]);
    let index_bytes = dir_bytes(cache.path());
    // Cold: the cache emptied before each run; the background build it starts is waited
    // for (and timed from the run's end) before the next.
    let mut cold = Vec::new();
    let mut background = Vec::new();
    for i in 0..runs {
        std::fs::remove_dir_all(&index_dir).ok();
        let r = measure::run(&indexed)?;
        let t = std::time::Instant::now();
        settle()?;
        let b = t.elapsed().as_secs_f64();
        eprintln!(
            "cold {}/{runs}: wall {:.3}s cpu {:.3}s rss {} KiB; background build {b:.2}s",
            i + 1,
            r.wall,
            r.cpu(),
            r.rss_kb
        );
        cold.push(r);
        background.push(b);
    }
    let cold = measure::median(&cold);
    let background = measure::percentile(&mut background, 50.0);
    // After a night: a new 10 MiB session and 5 MiB more in an existing one.
    measure::run(&indexed)?;
    let mut after = Vec::new();
    for i in 0..runs {
        let night = Night::apply(&l.project)?;
        let r = measure::run(&indexed);
        settle()?; // its background build of the night's transcripts
        night.undo()?;
        let r = r?;
        eprintln!("append {}/{runs}: wall {:.3}s cpu {:.3}s rss {} KiB", i + 1, r.wall, r.cpu(), r.rss_kb);
        after.push(r);
        measure::run(&indexed)?; // back to current for the next round
        settle()?;
    }
    let after = measure::median(&after);
    eprintln!("load average after: {:.2}", measure::load());
    let mib = bytes as f64 / (1 << 20) as f64;
    println!(
        "{} ({files} files, {mib:.0} MiB of transcripts); index {:.1} MiB = {:.1}% of transcript bytes",
        dir.display(),
        index_bytes as f64 / (1 << 20) as f64,
        100.0 * index_bytes as f64 / bytes as f64
    );
    println!("| run | wall | × rg -c | × today | CPU | peak RSS |");
    println!("|---|---|---|---|---|---|");
    let row = |name: &str, r: &Run| {
        println!(
            "| {name} | {:.3} s | {:.2}× | {:.2}× | {:.2} s | {:.1} MiB |",
            r.wall,
            r.wall / rg_run.wall,
            r.wall / today_run.wall,
            r.cpu(),
            r.rss_kb as f64 / 1024.0
        );
    };
    row("today: check --json --no-index", &today_run);
    row("cold: check --json, no index yet", &cold);
    println!("| (cold's background build, after it) | {background:.3} s | | | | |");
    row("warm: check --json, index current", &warm);
    row("after +10 MiB session, +5 MiB appended", &after);
    row("rg -c -F -f claims.txt", &rg_run);
    row("rg -i --count-matches -F -f claims.txt", &rgi_run);
    Ok(())
}

/// Waits until every transcript has an index under `index_dir` and no background build
/// holds it.
fn wait_for_index(index_dir: &Path, sessions: &[PathBuf]) -> Result<()> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    for s in sessions {
        while !dreamreview::inputs::transcript::index::index_file_of(index_dir, s).exists() {
            anyhow::ensure!(std::time::Instant::now() < deadline, "no index of {} after 10 minutes", s.display());
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
    // A build the last run started has taken its lock well within this.
    std::thread::sleep(std::time::Duration::from_millis(300));
    dreamreview::inputs::transcript::index::wait_for_builds(index_dir)?;
    Ok(())
}

/// Total bytes of the files under `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(e.path()),
                Ok(_) => total += e.metadata().map(|m| m.len()).unwrap_or(0),
                Err(_) => {}
            }
        }
    }
    total
}

/// The transcripts of a night: a new session and bytes appended to an existing one.
struct Night {
    new_session: PathBuf,
    grown: PathBuf,
    grown_len: u64,
}

impl Night {
    fn apply(project: &Path) -> Result<Night> {
        let mut sessions: Vec<PathBuf> = std::fs::read_dir(project)?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        sessions.sort();
        let grown = sessions.first().context("no session")?.clone();
        let grown_len = std::fs::metadata(&grown)?.len();
        let new_session = project.join("ffffffff-0000-4000-8000-000000000017.jsonl");
        // Lines of other sessions, whole, up to the sizes wanted.
        let mut lines = sessions.iter().skip(1).flat_map(|p| {
            std::io::BufReader::new(std::fs::File::open(p).expect("session")).lines().map_while(|l| l.ok())
        });
        let mut take = |want: u64, out: &Path, append: bool| -> Result<()> {
            let mut f = std::fs::OpenOptions::new().create(true).append(append).write(true).open(out)?;
            let mut written = 0u64;
            while written < want {
                let Some(l) = lines.next() else { break };
                writeln!(f, "{l}")?;
                written += l.len() as u64 + 1;
            }
            Ok(())
        };
        take(10 << 20, &new_session, false)?;
        take(5 << 20, &grown, true)?;
        Ok(Night { new_session, grown, grown_len })
    }

    fn undo(self) -> Result<()> {
        std::fs::remove_file(&self.new_session)?;
        std::fs::OpenOptions::new().write(true).open(&self.grown)?.set_len(self.grown_len)?;
        Ok(())
    }
}
