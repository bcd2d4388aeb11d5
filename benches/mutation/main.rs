//! `cargo bench --bench mutation`: the mutation report — per operator, the share of
//! injected faults `check` catches on correct dreams written over real transcripts, and the
//! flags raised on the unmutated dreams (which must be none).
//!
//! ```text
//! cargo bench --bench mutation                      # the cases in tests/fixtures/mutation/ and clean-harbor
//! cargo bench --bench mutation -- --seed 7 --verbose  # another seed; every mutant and its new flags
//! cargo bench --bench mutation -- --case DIR ...    # other cases (same layout), e.g. a held-out corpus
//! ```
//!
//! A case is `project/` (transcripts and the live `memory/`), a dream folder (`dream/` or
//! `dream-*/`: `memory/`, `CHANGES.md`) and optionally `tz` (the reviewer's zone). See
//! `engine.rs` for the operators.

mod engine;

use engine::{Case, Rng, mutants, run, tally};
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let mut seed = 1u64;
    let mut verbose = false;
    let mut cases: Vec<PathBuf> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seed" => seed = it.next().and_then(|s| s.parse().ok()).unwrap_or(1),
            "--verbose" | "-v" => verbose = true,
            "--case" => cases.extend(it.next().map(PathBuf::from)),
            _ => {}
        }
    }
    if cases.is_empty() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        cases = vec![root.join("mutation/spotter"), root.join("mutation/shapes"), root.join("scenarios/clean-harbor")];
    }
    let mut rng = Rng::new(seed);
    let mut outcomes = Vec::new();
    let mut clean_flags = 0;
    for folder in &cases {
        let (_guard, case) = Case::open(folder);
        let base = engine::flags(&case.root, case.tz.as_deref());
        let flagged = engine::only_flags(&base);
        println!("{}: {} flags unmutated, {} left out", case.name, flagged.len(), base.len() - flagged.len());
        for f in &base {
            println!("    {f}");
        }
        clean_flags += flagged.len();
        for m in mutants(&case, &mut rng) {
            let Some(o) = run(&case, &base, &m) else { continue };
            if verbose || !o.caught {
                let mark = if o.caught { "caught" } else { "MISSED" };
                println!("  {mark} [{}] {}: {}", o.mutant.op, case.name, o.mutant.what);
                if verbose {
                    for f in &o.new_flags {
                        println!("      + {f}");
                    }
                }
            }
            outcomes.push(o);
        }
    }
    println!();
    println!("| operator | mutants | caught | share |");
    println!("|---|---|---|---|");
    let mut total = (0, 0);
    for (op, (n, caught)) in tally(&outcomes) {
        total.0 += n;
        total.1 += caught;
        let share = if n == 0 { "—".to_string() } else { format!("{:.0}%", 100.0 * caught as f64 / n as f64) };
        println!("| {op} | {n} | {caught} | {share} |");
    }
    println!("| **all** | {} | {} | {:.1}% |", total.0, total.1, 100.0 * total.1 as f64 / total.0.max(1) as f64);
    println!("flags on the unmutated dreams: {clean_flags}");
}
