use super::*;

fn one(text: &str) -> Statement {
    let mut s = statements(text);
    assert_eq!(s.len(), 1, "{text}: {s:?}");
    s.remove(0)
}

fn opposite(note: &str, source: &str) -> Option<Opposite> {
    one(note).opposite(&one(source))
}

#[test]
fn negations_turn_a_sentence_around() {
    let retry = "The failure is intentional; do not retry it.";
    assert_eq!(opposite("the failure is intentional and must not be retried", retry), None);
    assert_eq!(opposite("the failure is intentional and must be retried", retry), Some(Opposite::Negation));
    let gone = "Heads up: we moved from npm to pnpm, and Redis is gone - the tests use an in-memory fake now";
    assert_eq!(opposite("No Redis needed: tests use an in-memory fake", gone), None);
    assert_eq!(opposite("Redis is needed: tests use an in-memory fake", gone), Some(Opposite::Negation));
    assert_eq!(opposite("The hook refuses to exit with unstaged changes", "Cannot exit with unstaged changes"), None);
    assert_eq!(opposite("The deploy needs no migration", "the deploy needs a migration"), Some(Opposite::Negation));
    assert_eq!(opposite("Tests don't hit the network", "tests hit the network"), Some(Opposite::Negation));
    assert_eq!(opposite("no migration is needed for the deploy", "the deploy needs no migration"), None);
    assert_eq!(
        opposite("デプロイにマイグレーションは不要", "デプロイにはマイグレーションが必要です"),
        Some(Opposite::Antonym)
    );
    assert_eq!(opposite("캐시를 사용하지 않는다", "캐시를 사용한다"), Some(Opposite::Negation));
    assert_eq!(opposite("部署不需要迁移数据库", "部署需要迁移数据库"), Some(Opposite::Negation));
}

#[test]
fn antonyms_turn_a_sentence_around() {
    assert_eq!(opposite("The migration step is optional", "the migration step is required"), Some(Opposite::Antonym));
    assert_eq!(opposite("Telemetry is disabled in CI", "telemetry is enabled in CI"), Some(Opposite::Antonym));
    assert_eq!(opposite("Run the linter after the tests", "run the linter before the tests"), Some(Opposite::Antonym));
    assert_eq!(opposite("The migration step is required", "the migration step is required"), None);
    assert_eq!(
        opposite("CODEOWNERS paths are case-insensitive", "CODEOWNERS paths are case sensitive"),
        Some(Opposite::Antonym)
    );
    assert_eq!(opposite("The migration step is optional", "the migration step is not required"), None);
    assert_eq!(opposite("マイグレーションは不要", "マイグレーションは必要ない"), None);
}

#[test]
fn coverage_of_content_words() {
    let note = one("The deploy needs no migration");
    let source = one("Heads up: this deploy needs a DB migration first");
    assert!(note.covered_by(&source) >= 0.99, "{note:?} {source:?}");
    assert!(one("Redis caches sessions").covered_by(&one("Postgres stores orders")) < 0.1);
}

#[test]
fn content_stems_are_those_of_the_statement() {
    let texts = [
        "The failure is intentional and must not be retried; do not retry it.",
        "Heads up: we moved from npm to pnpm, and Redis is gone - the tests use an in-memory fake now",
        "The migration step is not required (optional since v2), run the linter after the tests.",
        "- The billing-3 worker listens on port 4011 and retries 12 times before paging.",
        "Never skip the 3 checks: it's always safe, isn't it?",
        "デプロイにはマイグレーションが必要です, cron jobs run nightly",
        "캐시를 사용하지 않는다 and 部署不需要迁移数据库",
        "",
        "   ",
        "ΣΟΦΟΣ wrote 12 Tests here — 1,200 rows",
    ];
    for t in texts {
        let want: Vec<String> = statement_of(t).content.into_iter().map(|w| w.stem).collect();
        assert_eq!(content_stems(t), want, "{t}");
    }
}

#[test]
fn negation_in_every_language() {
    for yes in ["we don't use cron", "no cron jobs", "cronは使わない", "크론은 안 쓴다", "不用 cron"] {
        assert!(negated(yes), "{yes}");
    }
    for no in ["we use the queue", "キューを使う", "큐를 쓴다", "用队列"] {
        assert!(!negated(no), "{no}");
    }
}

#[test]
fn never_denies_what_follows_it() {
    let never = statement_of("never a cron job");
    let dont = statement_of("don't add a cron job");
    assert!(never.word("cron").is_some_and(|w| w.negated), "{never:?}");
    assert!(never.opposite(&dont).is_none() && dont.opposite(&never).is_none());
    // A pole beside it still takes the negation: `not required` says `optional`.
    let s = statement_of("approval is never required for staging");
    assert!(s.word("approv").is_some_and(|w| !w.negated), "{s:?}");
}

#[test]
fn parts_cut_a_sentence_that_says_two_things() {
    let text = "Approval is required for production deploys, and optional for staging builds. Tests run 1,284 cases.";
    let cut: Vec<&str> = parts(text).iter().map(|p| text[p.range.clone()].trim()).collect();
    assert_eq!(cut, ["Approval is required for production deploys", "optional for staging builds"]);
    let ja = "本番デプロイには承認が必須で、ステージングは任意。";
    let cut: Vec<&str> = parts(ja).iter().map(|p| &ja[p.range.clone()]).collect();
    assert_eq!(cut, ["本番デプロイには承認が必須で", "ステージングは任意"]);
    // Not the comma of a number or the colon of a URL.
    assert!(parts("See https://example.com:8080/x for 1,284 tests").is_empty());
    let en = "opentelemetry_exporter is not still maintained and nothing replaces it";
    let cut: Vec<&str> = parts(en).iter().map(|p| en[p.range.clone()].trim()).collect();
    // `nothing replaces it` says one word: no statement.
    assert_eq!(cut, ["opentelemetry_exporter is not still maintained"]);
}

#[test]
fn a_sentence_holding_both_sides_takes_neither() {
    let s = statement_of("本番デプロイには承認が必須で、ステージングは任意");
    let pair = s.pairs().next().expect("a pole");
    assert!(s.both_sides(pair));
    assert_eq!(s.asserted_side(pair), None);
    let one = statement_of("本番デプロイには承認が必須");
    assert!(!one.both_sides(pair));
}

/// The same side said with other words, or a denial that belongs to another clause of the
/// source, is no contradiction; the same sentences turned around still are.
#[test]
fn a_denial_is_read_in_its_own_clause() {
    let same = [
        (
            "The integration suite takes 20 minutes",
            "the integration suite takes 20 minutes so don't run it on every push",
        ),
        ("Sessions moved to ETS", "we moved sessions to ETS because Redis wasn't worth the ops cost"),
        ("Deploys are not allowed on Fridays", "don't deploy on Fridays"),
        ("Friday deploys are forbidden", "don't deploy on Fridays"),
        ("Running the linter before commit is required", "running the linter before commit is not optional"),
        ("Tests use Postgres rather than SQLite", "don't use SQLite for tests, use Postgres"),
        (
            "Migrations run from the release task, not on app boot",
            "never run migrations on app boot, run them from the release task",
        ),
        (
            "e2e tests hit the real sandbox API, not the mock server",
            "stop using the mock server for the e2e tests, hit the real sandbox API",
        ),
        ("金曜日のデプロイは禁止", "金曜日にはデプロイしないでください"),
    ];
    for (note, source) in same {
        assert_eq!(opposite(note, source), None, "{note} | {source}");
    }
    let turned = [
        (
            "The integration suite does not take 20 minutes",
            "the integration suite takes 20 minutes so don't run it on every push",
        ),
        ("Tests use SQLite rather than Postgres", "don't use SQLite for tests, use Postgres"),
        (
            "Use the mock server for the e2e tests",
            "stop using the mock server for the e2e tests, hit the real sandbox API",
        ),
        ("Migrations run on app boot", "never run migrations on app boot, run them from the release task"),
        ("Running the linter before commit is optional", "running the linter before commit is not optional"),
    ];
    for (note, source) in turned {
        assert!(opposite(note, source).is_some(), "{note} | {source}");
    }
}

#[test]
fn forbidding_is_denying() {
    assert_eq!(opposite("Deploys are allowed on Fridays", "don't deploy on Fridays"), Some(Opposite::Negation));
    assert_eq!(opposite("Deploys are not allowed on Fridays", "don't deploy on Fridays"), None);
    assert_eq!(opposite("Friday deploys are forbidden", "never deploy on Fridays"), None);
    assert!(opposite("Friday deploys are allowed", "deploys on Fridays are forbidden").is_some());
    assert_eq!(
        opposite("Redis was dropped; sessions now live in ETS", "we don't use Redis anymore, sessions moved to ETS"),
        None
    );
    assert_eq!(
        opposite("Sessions are stored in Redis", "we don't use Redis anymore for sessions"),
        Some(Opposite::Negation)
    );
}

#[test]
fn a_contrast_or_an_exemption_says_no_more_than_it_says() {
    let prefer = "prefer Postgres over SQLite for the test database, SQLite hides constraint bugs";
    assert_eq!(one("Test DB: Postgres, not SQLite (SQLite hides constraint bugs)").opposite(&one(prefer)), None);
    let most = "most API endpoints require a bearer token, the health and metrics ones don't";
    assert_eq!(opposite("Most API endpoints need a bearer token; health and metrics are exempt", most), None);
    assert!(opposite("health and metrics are not exempt", most).is_some());
}

#[test]
fn what_a_move_leaves_is_denied() {
    let moved = "Heads up: we switched CI from GitHub Actions to Buildkite last week";
    assert!(opposite("CI runs on GitHub Actions", moved).is_some());
    assert_eq!(opposite("GitHub Actions was retired", moved), None);
    assert_eq!(opposite("CI moved from GitHub Actions to Buildkite", moved), None);
    assert_eq!(opposite("CI runs on Buildkite", moved), None);
}

#[test]
fn a_calm_text_has_no_clause_that_denies_or_takes_a_side() {
    let lines = [
        "- The billing worker listens on port 8080 and retries 12 times before paging.",
        "- Run the suite before every push: the suite has 1,284 tests.",
        "- Approval is required for prod, optional for staging.",
        "- The deploy needs no migration; Redis is gone.",
        "- Tests don't hit the network, and the cache isn't shared.",
        "- Alice owns billing; the on-call rotation changes every 7 days.",
        "- Keep the runbook short. Link the incident notes instead of copying them.",
        "- Dashboards are at https://grafana.acme.dev/d/billing since Mar 3, 2026.",
        "- デプロイにマイグレーションは不要",
        "- Caché entries expire after 40 ms.",
        "- Tests use Postgres rather than SQLite.",
        "- Stop using the mock server for the e2e tests.",
        "- Redis was dropped from the stack last week.",
        "- We switched CI from GitHub Actions to Buildkite.",
    ];
    let mut calm_lines = 0;
    for line in lines {
        let clauses: Vec<Statement> = statements(line).into_iter().chain(parts(line)).collect();
        let still = clauses
            .iter()
            .all(|c| c.poles.is_empty() && c.content.iter().all(|w| !w.negated) && c.parts.iter().all(|p| !p.denies));
        if calm(line) {
            calm_lines += 1;
            assert!(still, "{line} is calm but a clause of it denies or takes a side: {clauses:?}");
        }
    }
    assert_eq!(calm_lines, 1, "the dashboard line (`instead of` sets a part against the rest; `every` says all)");
    assert!(!calm("- Retries 12 times before paging."), "before/after is a pair");
    assert!(!calm("- Tests don't hit the network."), "a negation");
    assert!(!calm("- Caché entries are kept."), "not ASCII: read as it may");
    for denying in [
        "- Tests use Postgres rather than SQLite.",
        "- Stop using the mock server.",
        "- Redis was dropped.",
        "- We moved CI from GitHub Actions to Buildkite.",
    ] {
        assert!(!calm(denying), "{denying}: a part of it denies without a negation word");
    }
}

#[test]
fn quantities_modality_and_ends_are_pairs_read_in_context() {
    let turned = |source: &str, note: &str| {
        let (s, n) = (statement_of(source), statement_of(note));
        s.opposite(&n).is_some()
    };
    // Read as the pairs they say.
    assert!(turned("PRs need at least two approvals before merge", "PRs need at most two approvals before merge"));
    assert!(turned("most API endpoints require a bearer token", "all API endpoints require a bearer token"));
    assert!(turned("you may squash commits before merging", "always squash commits before merging"));
    assert!(turned("the deploy freeze starts on December 20", "the deploy freeze ends on December 20"));
    assert!(turned("新的构建流程比旧的快很多", "新的构建流程比旧的慢很多"));
    // Not the pair in these words.
    assert!(!turned("the most important check is the lint run", "all of the lint run is checked"));
    assert!(!turned("deploys froze in May 2026 for the audit", "deploys always froze for the audit"));
    assert!(!turned("you may not deploy on Fridays", "never deploy on Fridays"));
    assert!(!turned("the front end starts the dev server on port 3000", "the front end starts on port 3000"));
    assert!(!turned("the end-to-end suite starts at midnight", "the e2e suite starts at midnight"));
}

#[test]
fn off_denies_what_is_kept_off_but_not_a_phrasal_verb() {
    let turned = |source: &str, note: &str| statement_of(source).opposite(&statement_of(note)).is_some();
    assert!(!turned("don't run the model download on the CI runners", "keep the model download off the CI runners"));
    assert!(turned("run the model download on the CI runners", "keep the model download off the CI runners"));
    assert!(!turned("kick off the nightly build at midnight", "start the nightly build at midnight"));
    assert!(!turned("the off-by-one bug in the pager is fixed", "the pager bug is fixed"));
}

#[test]
fn a_negation_joined_by_hyphens_denies_its_own_words() {
    // `no-console` denies the console, not the rest of its part.
    let rule = one("ESLint no-console is set to warn");
    let negated = |s: &Statement, stem: &str| s.content.iter().find(|w| w.stem == stem).map(|w| w.negated);
    assert_eq!(negated(&rule, "eslint"), Some(false), "{rule:?}");
    assert_eq!(negated(&rule, "consol").or(negated(&rule, "console")), Some(true), "{rule:?}");
    // An option says what a negation says: `--no-build-cache` is `no build cache`.
    let source = "./gradlew clean assembleRelease --no-build-cache";
    assert_eq!(opposite("Clean assembleRelease (no build cache) takes 3 minutes", source), None);
    assert_eq!(
        opposite("Clean assembleRelease (with the build cache) takes 3 minutes", source),
        Some(Opposite::Negation)
    );
}
