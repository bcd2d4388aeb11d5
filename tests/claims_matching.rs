//! Matching claims against source text: needles, occurs_in, timestamps, relative overlap.

use dreamreview::analysis::claims::{
    Claim, ClaimKind, date_stated_by, extract, needles, occurs_in, overlaps, relative_phrases,
};
use dreamreview::base::date::Date;

/// The single claim of `kind` in `line`.
fn claim(line: &str, kind: ClaimKind) -> Claim {
    let found: Vec<Claim> = extract(line).into_iter().filter(|c| c.kind == kind).collect();
    assert_eq!(found.len(), 1, "{line}: {found:?}");
    found.into_iter().next().unwrap()
}

fn d(y: i32, m: u32, day: u32) -> Date {
    Date::new(y, m, day).unwrap()
}

/// The rendered text of the reference transcript's lines (message text and tool I/O).
const LINE1: &str = "Heads up: we moved this repo from npm to pnpm last week, and Redis is gone - the tests use an in-memory fake now. Can you run the suite?";
const LINE2: &str = "Bash: pnpm test";
const LINE3: &str = "> shop@1.4.0 test /home/dev/shop\n> vitest run\n\n RUN  v3.2.4 /home/dev/shop\n\n ✓ src/cart.test.ts (38 tests) 412ms\n ✓ src/checkout.test.ts (51 tests) 977ms\n ✓ src/catalog.test.ts (125 tests) 1203ms\n\n Test Files  12 passed (12)\n      Tests  214 passed (214)\n   Duration  9.81s";
const LINE4: &str = "All 214 tests pass with `pnpm test`, and nothing in the run needed Redis.";

#[test]
fn numbers() {
    let c = claim("Verified: 214 tests passed.", ClaimKind::Number);
    assert!(occurs_in(&c, " Tests  214 passed (214)"));
    assert!(!occurs_in(&c, "2140 tests"));
    assert!(!occurs_in(&c, "1.214 tests"));
    assert!(!occurs_in(&c, "214 files"));
    assert!(occurs_in(&c, LINE3));
    assert!(occurs_in(&c, LINE4));
    assert!(!occurs_in(&c, LINE1));
    let big = claim("ran 1,200 tests", ClaimKind::Number);
    assert!(occurs_in(&big, "1200 tests passed"));
    assert!(occurs_in(&big, "Tests: 1,200"));
    assert_eq!(needles(&big), vec!["1200".to_string(), "1,200".to_string()]);
    let plain = claim("ran 1200 tests", ClaimKind::Number);
    assert!(occurs_in(&plain, "1,200 tests passed"));
    let secs = claim("took 9.81s", ClaimKind::Number);
    assert!(occurs_in(&secs, LINE3));
    assert!(occurs_in(&secs, "took 9.81 seconds"));
    let port = claim("Redis on port 6379", ClaimKind::Number);
    assert!(occurs_in(&port, "REDIS_URL=redis://localhost:6379"));
    assert!(!occurs_in(&port, "localhost:63790"));
}

#[test]
fn code_names_paths() {
    let code = claim("Run `pnpm test`.", ClaimKind::Code);
    assert!(occurs_in(&code, LINE2));
    assert!(occurs_in(&code, LINE4));
    assert!(!occurs_in(&code, LINE1));
    assert_eq!(needles(&code), vec!["pnpm test".to_string()]);
    let npm = claim("`npm test` is outdated", ClaimKind::Code);
    assert!(!occurs_in(&npm, LINE2), "npm test is not in pnpm test");
    assert!(occurs_in(&npm, "run npm test"));
    let redis = claim("No Redis needed", ClaimKind::Name);
    assert!(occurs_in(&redis, LINE1));
    assert!(occurs_in(&redis, "start redis-server"));
    assert!(!occurs_in(&redis, "Redisson client"));
    assert!(occurs_in(&redis, "Redisは不要"));
    let path = claim("see src/cart.test.ts", ClaimKind::Path);
    assert!(occurs_in(&path, LINE3));
    let home = claim("edit ~/.claude/settings.json", ClaimKind::Path);
    assert!(occurs_in(&home, "wrote /home/dev/.claude/settings.json"));
    let quoted = claim("run `grep \"TODO\" src`", ClaimKind::Code);
    assert_eq!(needles(&quoted), vec!["grep ".to_string()]);
    assert!(occurs_in(&quoted, "Bash: grep \"TODO\" src"));
}

#[test]
fn versions() {
    let v = claim("vitest v3.2.4", ClaimKind::Version);
    assert!(occurs_in(&v, LINE3));
    assert!(!occurs_in(&v, "v3.2.45"));
    let py = claim("needs Python 3.11", ClaimKind::Version);
    assert!(occurs_in(&py, "Python 3.11.4 (main)"));
    assert!(!occurs_in(&py, "Python 3.1"));
    assert!(!occurs_in(&py, "version 13.11"));
}

#[test]
fn dates_cross_match() {
    let iso = claim("Verified 2026-11-01: ok", ClaimKind::Date);
    for text in [
        "on 2026-11-01",
        "at 2026-11-01T09:14:03Z",
        "on 2026/11/01",
        "on Nov 1, 2026",
        "on November 1st",
        "on 1 November 2026",
        "on 11/1",
        "2026年11月1日に",
        "11月1日に",
        "2026년 11월 1일",
        "2026년 11 월 1 일",
        "11 月 1 日に",
    ] {
        assert!(occurs_in(&iso, text), "{text}");
    }
    for text in ["on 2026-11-02", "on Nov 10, 2026", "on 11/10", "in November 2026", "2025-11-01"] {
        assert!(!occurs_in(&iso, text), "{text}");
    }
    let n = needles(&iso);
    for s in ["2026-11-01", "2026/11/01", "nov 1", "november 1", "11/1", "11月", "11 월"] {
        assert!(n.iter().any(|x| x == s), "{s} not in {n:?}");
    }
    let us = claim("on Nov 1", ClaimKind::Date);
    assert!(occurs_in(&us, "on 2026-11-01"));
    assert!(occurs_in(&us, "11/1"));
}

#[test]
fn partial_dates() {
    let late = claim("moved in late Oct 2026", ClaimKind::Date);
    assert!(occurs_in(&late, "moved in late October 2026"));
    assert!(occurs_in(&late, "moved on 2026-10-25"));
    assert!(occurs_in(&late, "2026年10月下旬に移行"));
    assert!(!occurs_in(&late, "moved in October 2026"));
    assert!(!occurs_in(&late, "moved in early October 2026"));
    assert!(!occurs_in(&late, LINE1));
    let month = claim("since November 2026", ClaimKind::Date);
    assert!(occurs_in(&month, "on Nov 3, 2026"));
    assert!(occurs_in(&month, "since November 2026"));
    assert!(!occurs_in(&month, "in 2026"));
    let year = claim("moved in 2026", ClaimKind::Date);
    assert!(occurs_in(&year, "on 2026-03-01"));
    assert!(!occurs_in(&year, "on 3/1"));
    let q = claim("Q4 2026", ClaimKind::Date);
    assert!(occurs_in(&q, "on 2026-11-01"));
    assert!(!occurs_in(&q, "on 2026-09-30"));
}

#[test]
fn timestamps() {
    let iso = claim("Verified 2026-11-01: ok", ClaimKind::Date);
    assert!(date_stated_by(&iso, d(2026, 11, 1)));
    assert!(!date_stated_by(&iso, d(2026, 10, 31)));
    let late = claim("late Oct 2026", ClaimKind::Date);
    assert!(!date_stated_by(&late, d(2026, 11, 1)));
    assert!(date_stated_by(&late, d(2026, 10, 25)));
    let md = claim("on 11/1", ClaimKind::Date);
    assert!(date_stated_by(&md, d(2025, 11, 1)));
    let name = claim("No Redis", ClaimKind::Name);
    assert!(!date_stated_by(&name, d(2026, 11, 1)));
}

#[test]
fn inferred_from_relative_phrase() {
    let late = claim("moved in late Oct 2026", ClaimKind::Date);
    let phrases = relative_phrases(LINE1);
    assert_eq!(phrases.len(), 1);
    assert_eq!(phrases[0].phrase, "last week");
    let range = phrases[0].resolve(d(2026, 11, 1));
    assert_eq!(range, (d(2026, 10, 19), d(2026, 10, 26)));
    assert!(overlaps(&late, range));
    assert!(!overlaps(&claim("in early Oct 2026", ClaimKind::Date), range));
    assert!(overlaps(&claim("on 10/20", ClaimKind::Date), range));
    assert!(!overlaps(&claim("No Redis", ClaimKind::Name), range));
}

#[test]
fn links_never_match_facts() {
    let link = claim("[Testing](testing.md)", ClaimKind::Link);
    assert_eq!(needles(&link), vec!["testing.md".to_string()]);
}

/// A name is stated in its other grammatical number: `devDependency` by `devDependencies`,
/// `Pipelines` by `Pipeline`; a shorter name is not stated by a longer word it begins.
#[test]
fn a_name_is_stated_in_its_other_number() {
    use dreamreview::analysis::claims::{ClaimKind, extract, occurs_in};
    let name = |line: &str, text: &str| {
        extract(line).into_iter().find(|c| c.kind == ClaimKind::Name && c.text == text).expect("a name claim")
    };
    let c = name("Renovate automerges every devDependency update.", "devDependency");
    assert!(occurs_in(&c, r#"{"matchDepTypes": ["devDependencies"], "automerge": true}"#));
    let c = name("Builds run in the Pipelines tab.", "Pipelines");
    assert!(occurs_in(&c, "open the Pipeline view"));
    let c = name("Builds run in the Pipelines tab.", "Pipelines");
    assert!(!occurs_in(&c, "open the Pipelinesettings view"));
    // A hyphenated name is stated with spaces for its hyphens.
    let c = name("38 skipped on Quinlan-branch conflicts.", "Quinlan-branch");
    assert!(occurs_in(&c, "all conflicts in the Quinlan branch"));
    assert!(!occurs_in(&c, "all conflicts in the Quinlan tree"));
    assert!(dreamreview::analysis::claims::needles(&c).iter().any(|n| n == "quinlan branch"));
}

#[test]
fn a_statistic_is_no_other_statistic_of_the_same_measure() {
    let bench = "process(): mean 0.41 ms  p50 0.38 ms  p99 1.92 ms  max 3.05 ms";
    let states = |note: &str| occurs_in(&claim(note, ClaimKind::Number), bench);
    assert!(!states("p99 0.41 ms"), "the mean given as the p99");
    assert!(!states("p99 process() 0.41 ms"), "a call's parentheses between the statistic and the figure");
    assert!(!states("p95 1.92 ms"), "a p99 is no p95");
    assert!(states("p99 1.92 ms"));
    assert!(states("process() averages 0.41 ms"), "an average is the mean");
    assert!(states("median 0.38 ms"), "the median is the p50");
    assert!(states("process() took 0.41 ms"), "no statistic named: nothing to contradict");
    // In other scripts.
    let ja = "レイテンシ: 平均 120 ms、p99 480 ms";
    assert!(!occurs_in(&claim("最大 120 ms", ClaimKind::Number), ja));
    assert!(occurs_in(&claim("平均 120 ms", ClaimKind::Number), ja));
    let ko = "지연 시간 평균 45 ms, 최대 300 ms";
    assert!(!occurs_in(&claim("최대 45 ms", ClaimKind::Number), ko));
}

#[test]
fn a_count_in_one_state_is_no_count_in_another() {
    let lit = "No failures: 1025 passed, 9 unsupported";
    assert!(!occurs_in(&claim("lit: 9 failed", ClaimKind::Number), lit), "unsupported counted as failed");
    assert!(occurs_in(&claim("lit: 9 unsupported", ClaimKind::Number), lit));
    let jest = "Tests:       2 failed, 9 skipped, 120 passed, 131 total";
    assert!(!occurs_in(&claim("jest: 9 failed", ClaimKind::Number), jest), "skipped counted as failed");
    assert!(occurs_in(&claim("jest: 2 failed", ClaimKind::Number), jest));
    assert!(occurs_in(&claim("jest: 131 tests", ClaimKind::Number), jest), "the key names what is counted");
}

#[test]
fn a_japanese_label_is_the_last_phrase_its_particles_join() {
    let said = "ただし期末考査前の2週間だけは、補習として土曜の3限まで入れてOK";
    let states = |note: &str| occurs_in(&claim(note, ClaimKind::Number), said);
    assert!(states("土曜は期末考査前の2週間に限り"), "the topic before は is not the label");
    assert!(!states("土曜は夏休み前の2週間に限り"), "another phrase labels another span");
}
