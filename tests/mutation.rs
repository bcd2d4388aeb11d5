//! The mutation harness's fixed-seed slice (the whole report is `cargo bench --bench
//! mutation`; see BENCHMARKS.md): the correct dreams written over real transcripts raise no
//! flag, and the faults injected into them are caught at least as often as when the rules
//! were written. A rule that stops catching its fault, or starts flagging a correct note,
//! fails here.

#[path = "../benches/mutation/engine.rs"]
mod engine;

use engine::{Case, Rng, mutants, run, tally};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn case(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// Runs every mutant of `folder` (seed 1); returns the operators' (mutants, caught) and
/// the missed mutants.
fn report(folder: &str) -> (BTreeMap<&'static str, (usize, usize)>, Vec<String>) {
    let (_guard, case) = Case::open(&case(folder));
    let base = engine::flags(&case.root, case.tz.as_deref());
    let flagged = engine::only_flags(&base);
    assert!(flagged.is_empty(), "{folder}: the correct dream is flagged: {flagged:#?}");
    let mut rng = Rng::new(1);
    let outcomes: Vec<_> = mutants(&case, &mut rng).iter().filter_map(|m| run(&case, &base, m)).collect();
    let missed =
        outcomes.iter().filter(|o| !o.caught).map(|o| format!("[{}] {}", o.mutant.op, o.mutant.what)).collect();
    (tally(&outcomes).into_iter().collect(), missed)
}

/// Asserts each operator caught at least `floor` of its mutants (and had mutants).
fn at_least(folder: &str, floors: &[(&str, usize)]) {
    let (got, missed) = report(folder);
    for (op, floor) in floors {
        let (n, caught) = got.get(op).copied().unwrap_or((0, 0));
        assert!(
            n > 0 && caught >= *floor,
            "{folder}: {op} caught {caught} of {n}, fewer than {floor}; missed:\n{}",
            missed.join("\n")
        );
    }
}

#[test]
fn faults_in_notes_written_over_real_spotter_transcripts_are_caught() {
    at_least(
        "mutation/spotter",
        &[
            ("change-number", 4),
            ("bump-version", 7),
            ("swap-subject", 7),
            ("move-citation", 21),
            ("cite-other-session", 5),
            ("delete-note", 4),
            ("remove-lines", 2),
            ("capability-url", 5),
            ("untrusted-rule", 7),
            ("stale-reference", 8),
            // Two remarks of three words or more since `start`/`end`/`all` are antonym words
            // (no content words): the third one the harness picked has too few.
            ("promote-remark", 2),
            ("drop-remember", 3),
            ("drop-correction", 1),
            ("cite-guess", 4),
        ],
    );
}

#[test]
fn faults_in_generated_shapes_are_caught() {
    at_least(
        "mutation/shapes",
        &[
            ("change-number", 4),
            ("bump-version", 1),
            ("swap-subject", 3),
            ("flip-polarity", 3),
            ("move-citation", 35),
            ("cite-other-session", 9),
            ("cite-overruled", 2),
            ("delete-note", 4),
            ("remove-lines", 2),
            ("shift-date", 2),
            ("capability-url", 5),
            ("untrusted-rule", 1),
            ("promote-remark", 3),
            ("drop-remember", 2),
            ("drop-correction", 3),
            ("cite-guess", 4),
        ],
    );
}

#[test]
fn faults_in_the_clean_harbor_scenario_are_caught() {
    at_least(
        "scenarios/clean-harbor",
        &[
            ("change-number", 8),
            ("bump-version", 6),
            ("swap-subject", 8),
            ("flip-polarity", 1),
            ("move-citation", 27),
            ("cite-other-session", 9),
            ("shift-date", 3),
            ("capability-url", 5),
            ("rebind-value", 1),
            ("promote-remark", 3),
            ("drop-remember", 2),
            ("drop-correction", 3),
            ("cite-guess", 6),
        ],
    );
}
