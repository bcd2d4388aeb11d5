//! The transcript scanner alone (`transcript::scan_lines` with the needles provenance
//! uses and a verifier that does nothing), in process, against `rg -c -F -f claims.txt`:
//! separates the scanner's own cost (reading, finding, the envelope walk, said text) from
//! the claim matching `check` adds on top.

use crate::generator::Layout;
use crate::measure::{self, Cmd};
use anyhow::Result;
use dreamreview::inputs::transcript::{LineHit, ScanOptions, ScanProgress, SourceSet, Verdict, scan_lines};
use std::path::Path;
use std::time::Instant;

/// Times the scanner against rg and prints a Markdown table.
pub fn run(dir: &Path, runs: usize) -> Result<()> {
    let l = Layout::of(dir);
    let inputs = dreamreview::inputs::dream::discover(Some(&l.dream), None, &[])?;
    let review = dreamreview::store::repo::load_review(inputs)?;
    let needles = dreamreview::analysis::provenance::scan_needles(&review);
    let sources = SourceSet::discover(Some(&l.project), &[], Some(&l.memory))?;
    let claims = crate::bench_check::write_needles(dir)?;
    let s = |p: &Path| p.display().to_string();
    let rg = Cmd::new("rg", &["rg", "-c", "-F", "-f", &s(&claims), "-g", "*.jsonl", &s(&l.project)]);
    let nothing = |_: &LineHit<'_>, _: &mut Verdict| {};
    eprintln!("load average before: {:.2}", measure::load());
    let mut scan_times = Vec::new();
    let mut rg_runs = Vec::new();
    measure::run(&rg)?;
    for i in 0..runs.max(1) {
        let t = Instant::now();
        let report = scan_lines(&sources, &needles, &ScanOptions::default(), &ScanProgress::new(), &nothing);
        let wall = t.elapsed().as_secs_f64();
        let r = measure::run(&rg)?;
        eprintln!("run {}: scan {wall:.3} s ({} unreadable), rg {:.3} s", i + 1, report.unreadable.len(), r.wall);
        scan_times.push(wall);
        rg_runs.push(r);
    }
    eprintln!("load average after: {:.2}", measure::load());
    let scan = measure::percentile(&mut scan_times, 50.0);
    let rg = measure::median(&rg_runs);
    let (bytes, files) = crate::bench_check::transcript_bytes(&l.project);
    println!("| input | needles | scanner (in process) | rg -c -F -f | ratio |");
    println!("|---|---|---|---|---|");
    println!(
        "| {} MiB, {files} files | {} | {scan:.3} s | {:.3} s | {:.2}× |",
        bytes >> 20,
        needles.len(),
        rg.wall,
        scan / rg.wall
    );
    Ok(())
}
