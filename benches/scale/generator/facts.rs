//! The facts a dream writes into memory and the transcript lines that say them: the
//! generator plants each fact's sentence on a known line, and the dream cites that line
//! (or, on purpose, a wrong one), so provenance does its real work.

use super::rng::Rng;
use dreamreview::base::date::Date;

/// How a fact is sourced, which decides the flags provenance should raise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactKind {
    /// Said on the cited line: sourced.
    Sourced,
    /// Said on a line next to the cited one: weakly sourced, `citation-unsupported`.
    WrongLine,
    /// "last week" said; the dream wrote an absolute date: `inferred-date`.
    InferredDate,
    /// A number nobody said: `unsourced-claim`, `citation-unsupported`.
    Unsourced,
    /// Said, but no CHANGES.md entry explains the change: `citation-missing`.
    NoEntry,
}

/// Which message of a turn says the fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The user's prompt.
    User,
    /// A tool result's output.
    ToolResult,
    /// The assistant's reply text.
    Assistant,
}

/// One fact.
#[derive(Clone, Debug)]
pub struct Fact {
    /// How it is sourced.
    pub kind: FactKind,
    /// The note (index into the notes) it changes.
    pub note: usize,
    /// The sentence planted in a transcript (`None`: said nowhere).
    pub said: Option<String>,
    /// The message that says it.
    pub role: Role,
    /// Session (index) and turn where it is said; in a sub-agent file when `sub`.
    pub session: usize,
    /// Turn of the session (or sub-agent) that says it.
    pub turn: usize,
    /// Said in the session's first sub-agent transcript instead of the session itself.
    pub sub: bool,
    /// The line the dream adds to the note.
    pub written: String,
    /// What the CHANGES.md entry says (the citation is appended once the line is known).
    pub entry: String,
}

#[rustfmt::skip]
const TOOLS: &[&str] =
    &["Buildkite", "CircleCI", "Fly.io", "Render", "Railway", "Netlify", "Vercel", "Argo CD", "Nomad", "Jenkins"];
#[rustfmt::skip]
const LIBS: &[&str] =
    &["Postgres", "Redis", "Node", "TypeScript", "Vite", "Prisma", "Django", "Phoenix", "React", "Tokio"];
#[rustfmt::skip]
const MONTHS: &[&str] = &["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// Makes the fact for `note` (whose topic is `area`), said in `session` (held on `day`).
pub fn make(r: &mut Rng, kind: FactKind, note: usize, note_path: &str, area: &str, session: usize, day: Date) -> Fact {
    let turn = r.range(1, 3);
    let sub = kind != FactKind::InferredDate && r.chance(0.1);
    let mk = |said: Option<String>, role: Role, written: String, entry: String| Fact {
        kind,
        note,
        said,
        role,
        session,
        turn,
        sub,
        written,
        entry: format!("{note_path}: {entry}"),
    };
    if kind == FactKind::InferredDate {
        let tool = r.pick(TOOLS);
        let when = day.add_days(-7);
        let written_date = if r.chance(0.5) {
            when.to_string()
        } else {
            format!("{} {}, {}", MONTHS[(when.month - 1) as usize], when.day, when.year)
        };
        return mk(
            Some(format!("fyi we moved the {area} deploys over to {tool} last week, the old pipeline is gone")),
            Role::User,
            format!("- {area} deploys moved to {tool} on {written_date}; the old pipeline was removed."),
            format!("{area} deploys now run on {tool} (moved {written_date})"),
        );
    }
    if kind == FactKind::Unsourced {
        let n = r.range(10_000, 99_999);
        return mk(
            None,
            Role::User,
            format!("- The {area} nightly job takes {n} seconds end to end."),
            format!("recorded how long the {area} nightly job takes"),
        );
    }
    match r.below(5) {
        0 => {
            let n = r.range(120, 3999);
            mk(
                Some(format!("heads up: `pnpm test:{area}` runs {n} tests now and they all pass")),
                Role::User,
                format!("- Run the {area} suite with `pnpm test:{area}` ({n} tests)."),
                format!("replaced the {area} test command with `pnpm test:{area}` ({n} tests)"),
            )
        }
        1 => {
            let p = r.range(3000, 9899);
            let t = format!("{:02}:{:02}:{:02}.{:03}", r.below(24), r.below(60), r.below(60), r.below(1000));
            mk(
                Some(format!("{t} INFO {area}: listening on port {p}")),
                Role::ToolResult,
                format!("- The {area} dev server listens on port {p}."),
                format!("recorded the {area} dev server port {p}"),
            )
        }
        2 => {
            let lib = r.pick(LIBS);
            let v = format!("{}.{}.{}", r.range(2, 24), r.below(30), r.below(20));
            mk(
                Some(format!("I upgraded {area} to {lib} {v}, please keep using that version")),
                Role::User,
                format!("- {area} is pinned to {lib} {v}."),
                format!("{area} now pinned to {lib} {v}"),
            )
        }
        3 => {
            let ext = r.pick(&["toml", "yaml", "json"]);
            let p = format!("config/{area}/settings.{}.{ext}", r.hex(4));
            mk(
                Some(format!("The {area} settings are read from `{p}` at startup, not from the environment.")),
                Role::Assistant,
                format!("- {area} settings: `{p}` (read at startup)."),
                format!("{area} settings file is `{p}`"),
            )
        }
        _ => {
            let n = r.range(11, 299);
            mk(
                Some(format!("let's set the {area} request timeout to {n} seconds, the old value was too short")),
                Role::User,
                format!("- {area} requests time out after {n} seconds."),
                format!("{area} request timeout is now {n} seconds"),
            )
        }
    }
}

/// The kind of the `i`th fact: a fixed mix (55% sourced, 15% wrong line, 15% inferred
/// date, 10% unsourced, 5% without an entry), shuffled by `r`.
pub fn kind_for(r: &mut Rng) -> FactKind {
    let x = r.unit();
    if x < 0.55 {
        FactKind::Sourced
    } else if x < 0.70 {
        FactKind::WrongLine
    } else if x < 0.85 {
        FactKind::InferredDate
    } else if x < 0.95 {
        FactKind::Unsourced
    } else {
        FactKind::NoEntry
    }
}
