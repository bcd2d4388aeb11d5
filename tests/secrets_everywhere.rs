//! No credential in any output, file name or record (issue 33 §3): a project seeded with
//! credentials generated from a fixed seed (in a note's content and its file name, in
//! CHANGES.md's text and citations, in the cited transcript lines), run through every
//! command; none of the values is in any standard output or error, nor in any object the
//! tool wrote to the repository (commit messages, the evidence notes and their commits).
//! The accepted notes' own content and names are the reviewer's choice: git's tree of the
//! memory folder keeps them, so the walk reads commit messages and the notes ref, not the
//! notes' blobs.

use crate::hardening_support::*;

/// A deterministic generator (xorshift64*): the same credentials on every run.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// `n` characters drawn from `alphabet`.
    fn chars(&mut self, alphabet: &str, n: usize) -> String {
        let a = alphabet.as_bytes();
        (0..n).map(|_| a[(self.next() % a.len() as u64) as usize] as char).collect()
    }

    fn base62(&mut self, n: usize) -> String {
        self.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", n)
    }

    fn base64(&mut self, n: usize) -> String {
        self.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", n)
    }
}

/// Standard base64 of `bytes` (for an `Authorization: Basic` value).
fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The seeded credentials, and where each one is put.
struct Seeded {
    /// Every value that must never be printed or recorded (pieces of 12+ characters).
    values: Vec<String>,
    /// The dream's new note.
    note: String,
    /// A note named after a token.
    named: String,
    /// CHANGES.md.
    changes: String,
    /// The cited transcript's lines.
    transcript: Vec<String>,
}

fn seeded(seed: u64) -> Seeded {
    let mut g = Gen(seed);
    let stripe = format!("sk_live_{}", g.base62(24));
    let github = format!("ghp_{}", g.base62(36));
    let named_token = format!("ghp_{}", g.base62(36));
    let db_password = g.base62(16);
    let pem: Vec<String> = (0..4).map(|_| g.base64(64)).collect();
    let basic = base64(format!("deploy:{}", g.base62(18)).as_bytes());
    let prose = g.base64(40).replace(['+', '/'], "x");
    let split = format!("sk_live_{}", g.base62(32));
    let (split_a, split_b) = split.split_at(22);
    let aws_id = format!("AKIA{}", g.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16));
    let aws_secret = g.base64(40);
    let cited_name = format!("sk_live_{}", g.base62(24));
    let url = format!("postgres://app:{db_password}@db.internal:5432/shop");
    let pem_block = format!("-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----", pem.join("\n"));
    let note = format!(
        "# Deploy\n\nThe shop database is {url} since the move.\n\n\
         Payments use STRIPE_KEY={stripe} in production.\n\n\
         CI pushes with {github} as its token.\n\n\
         Webhook calls send `Authorization: Basic {basic}` to the billing API.\n\n\
         After the rotation the secret token is {prose} for the relay.\n\n\
         The backup key is\n{split_a}\n{split_b}\n\n\
         Deploy key:\n{pem_block}\n"
    );
    let said = format!(
        "the database moved to {url}; the deploy key is\n{pem_block}\nand AWS is {aws_id} / {aws_secret}; \
         curl -H 'Authorization: Basic {basic}' https://billing.internal/hook"
    );
    let transcript = vec![
        crate::hardening_support::SESSION_LINE.to_string(),
        serde_json::json!({
            "type": "user",
            "timestamp": "2026-11-01T09:05:00Z",
            "message": {"role": "user", "content": said},
        })
        .to_string(),
    ];
    let changes = format!(
        "- testing.md: tests run with `pnpm test` (s1.jsonl:1)\n\
         - deploy.md: the database is {url}, payments use {stripe} (s1.jsonl:2)\n\
         - {named_token}.md: kept the CI token {github} ({cited_name}.jsonl:4)\n"
    );
    let named = format!("{named_token}.md");
    let mut values = vec![stripe, github, named_token, db_password, basic, prose, aws_secret, cited_name];
    values.extend(pem);
    values.extend([split_a.to_string(), split_b.to_string()]);
    Seeded { values, note, named, changes, transcript }
}

/// The project laid out with the seeded credentials.
fn project(s: &Seeded) -> Project {
    let mut proposed: Vec<(&str, &[u8])> = PROPOSED.to_vec();
    proposed.push(("deploy.md", s.note.as_bytes()));
    proposed.push((&s.named, b"# CI\n\nThe CI token lives in the runner's settings.\n"));
    let p = Project::new(LIVE, &proposed, Some(s.changes.as_bytes()));
    put(&p.root.join("project/s1.jsonl"), format!("{}\n", s.transcript.join("\n")).as_bytes());
    p
}

/// Every seeded value `text` carries.
fn leaks<'a>(s: &'a Seeded, text: &str) -> Vec<&'a str> {
    s.values.iter().map(String::as_str).filter(|v| text.contains(v)).collect()
}

/// Asserts that neither stream of `r` carries a seeded value.
fn assert_clean(s: &Seeded, what: &str, r: &Run) {
    let found = leaks(s, &r.both());
    assert!(found.is_empty(), "{what} printed {found:?}:\n{}", r.both());
}

/// Everything the tool wrote to the repository besides the notes' own content and names:
/// every commit's message after the first (the user's), and every object reachable from
/// the evidence notes ref (the notes' commits, their trees, the evidence documents).
fn records(memory: &std::path::Path) -> String {
    let mut out = git(memory, &["log", "--format=%H%n%B", "HEAD~1..HEAD", "--all", "--exclude=refs/notes/*"]);
    let objects = git(memory, &["rev-list", "--objects", "refs/notes/dreamreview"]);
    for line in objects.lines() {
        let mut parts = line.splitn(2, ' ');
        let id = parts.next().unwrap_or_default();
        out.push_str(line);
        out.push('\n');
        out.push_str(&git(memory, &["cat-file", "-p", id]));
    }
    out
}

#[test]
fn seeded_credentials_reach_no_output_and_no_record() {
    let seed = seeded(0x5EED_0033);
    let p = project(&seed);
    let memory = s(&p.memory);
    let dream = s(&p.dream);

    for extra in [&[][..], &["--json"][..]] {
        let r = p.check(extra);
        assert!(r.code == 0 || r.code == 1, "{}", r.both());
        assert_clean(&seed, &format!("check {extra:?}"), &r);
    }
    assert_review_screen_clean(&seed, &p);
    let a = p.apply(&["--accept-all", "--allow", "secret,citation-unresolved"]);
    assert_clean(&seed, "apply", &a);
    assert_eq!(a.code, 1, "committed, with the flags allowed: {}", a.both());
    let runs: Vec<(&str, Vec<&str>)> = vec![
        ("audit", vec!["audit", memory]),
        ("audit --json", vec!["audit", "--json", memory]),
        ("audit -v", vec!["audit", "-v", memory]),
        ("log", vec!["log", "--memory", memory]),
        ("log --json", vec!["log", "--json", "--memory", memory]),
        ("why", vec!["why", "deploy.md", "--memory", memory]),
        ("why --json", vec!["why", "deploy.md", "--json", "--memory", memory]),
        ("why named", vec!["why", &seed.named, "--json", "--memory", memory]),
        ("why a missing line", vec!["why", "deploy.md:999", "--memory", memory]),
        ("check after apply", vec!["check", dream, "--memory", memory, "--again"]),
    ];
    for (what, args) in &runs {
        let r = p.run(args);
        assert_clean(&seed, what, &r);
    }
    let why = p.run(&["why", "deploy.md:3", "--json", "--memory", memory]);
    assert_eq!(why.code, 0, "why reads the evidence: {}", why.both());
    let revert = p.run(&["revert", "HEAD", "--file", "deploy.md", "--memory", memory]);
    assert_clean(&seed, "revert", &revert);
    let found = leaks(&seed, &records(&p.memory));
    assert!(found.is_empty(), "the repository records {found:?}:\n{}", records(&p.memory));
}

/// The review screen (file list, diff, evidence pane), every file in turn.
fn assert_review_screen_clean(s: &Seeded, p: &Project) {
    use dreamreview::faces::ui::{msg::Msg, script, snapshot::to_text, state::App, theme};
    let inputs = dreamreview::inputs::dream::discover(Some(&p.dream), Some(&p.memory), &[]).unwrap();
    let review = dreamreview::store::repo::load_review(inputs).unwrap();
    let analysis = dreamreview::analysis::analyze(&review);
    let mut app = App::new(review, theme::Theme::new(theme::ThemeName::Dark), (160, 200));
    let generation = app.generation;
    dreamreview::faces::ui::update::update(&mut app, Msg::Analyzed { generation, analysis: Box::new(analysis) });
    for _ in 0..app.review.files.len() {
        for _ in 0..4 {
            let screen = to_text(&script::render(&app));
            let found = leaks(s, &screen);
            assert!(found.is_empty(), "the review screen shows {found:?}:\n{screen}");
            script::drive(&mut app, "j").unwrap();
        }
        script::drive(&mut app, "<Tab>").unwrap();
    }
}

#[test]
fn the_generator_puts_each_value_where_it_is_said_to() {
    let s = seeded(0x5EED_0033);
    // Each value is somewhere in the inputs: a test that seeded nothing could not fail.
    let inputs = format!("{}{}{}{}", s.note, s.named, s.changes, s.transcript.join("\n"));
    for v in &s.values {
        assert!(v.len() >= 12 && inputs.contains(v.as_str()), "{v}");
    }
    assert!(s.note.contains("secret token is"));
}
