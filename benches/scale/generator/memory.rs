//! The memory folder (topic notes with frontmatter and a `MEMORY.md` index, committed to
//! git) and the dream that rewrites some of them: `memory/`, `CHANGES.md` citing the lines
//! that say each fact, `memory.diff` (from `diff -ruN`) and `run.log`.

use super::facts::{Fact, FactKind};
use super::rng::Rng;
use super::session::Located;
use super::words;
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

#[rustfmt::skip]
const AREAS: &[&str] = &[
    "billing", "search", "auth", "checkout", "payments", "notifications", "ingest", "reports", "admin", "api",
    "web", "mobile", "gateway", "scheduler", "mailer", "exports", "imports", "analytics", "catalog", "inventory",
    "pricing", "shipping", "returns", "accounts", "profiles", "sessions", "uploads", "media", "thumbnails",
    "webhooks", "cron", "ledger", "invoices", "refunds", "coupons", "reviews", "ratings", "chat", "feeds", "sync",
];
#[rustfmt::skip]
const ASPECTS: &[&str] = &[
    "testing", "deploy", "config", "debugging", "conventions", "gotchas", "architecture", "runbook", "oncall",
    "migrations", "performance", "dependencies", "release", "monitoring", "security",
];
#[rustfmt::skip]
const TYPES: &[&str] = &["project", "project", "project", "feedback", "reference", "user"];

/// One note of the live memory.
#[derive(Clone, Debug)]
pub struct Note {
    /// File name, e.g. `billing-testing.md`.
    pub file: String,
    /// The service it is about (facts about it are written into it).
    pub area: String,
    /// Full text.
    pub text: String,
}

/// `n` notes with distinct names (at most 600).
pub fn notes(r: &mut Rng, n: usize) -> Vec<Note> {
    let mut combos: Vec<(usize, usize)> =
        (0..AREAS.len()).flat_map(|a| (0..ASPECTS.len()).map(move |b| (a, b))).collect();
    for i in (1..combos.len()).rev() {
        combos.swap(i, r.below(i + 1));
    }
    combos.truncate(n);
    combos.sort_unstable();
    combos
        .into_iter()
        .map(|(a, b)| {
            let (area, aspect) = (AREAS[a], ASPECTS[b]);
            let mut text = format!(
                "---\nname: {area}-{aspect}\ndescription: {aspect} notes for the {area} service\ntype: {}\n---\n\n# {area} {aspect}\n\n",
                r.pick(TYPES)
            );
            for _ in 0..r.range(4, 24) {
                let line = match r.below(5) {
                    0 => format!("- Run `{}` before pushing {area} changes.", words::command(r)),
                    1 => format!("- The {area} {} lives in `{}`.", r.pick(words::NOUNS), words::path(r)),
                    _ => format!("- {}", words::sentence(r)),
                };
                text.push_str(&line);
                text.push('\n');
            }
            Note { file: format!("{area}-{aspect}.md"), area: area.to_string(), text }
        })
        .collect()
}

/// The index: one line per note, like an overgrown auto-memory index.
pub fn index(notes: &[Note]) -> String {
    let mut s = String::from("# Memory\n\n");
    for n in notes {
        let stem = n.file.trim_end_matches(".md");
        s.push_str(&format!("- [{stem}]({}) — {}\n", n.file, stem.replace('-', " ")));
    }
    s
}

/// Writes the live memory folder and commits it.
pub fn write_live(dir: &Path, notes: &[Note]) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for n in notes {
        std::fs::write(dir.join(&n.file), &n.text).with_context(|| format!("cannot write {}", n.file))?;
    }
    std::fs::write(dir.join("MEMORY.md"), index(notes))?;
    git(dir, &["init", "-q", "-b", "main"])?;
    git(dir, &["add", "-A"])?;
    git(dir, &["-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "memory"])?;
    Ok(())
}

fn git(dir: &Path, args: &[&str]) -> Result<()> {
    let st = Command::new("git").arg("-C").arg(dir).args(args).status().context("cannot run git")?;
    if !st.success() {
        bail!("git {} failed in {}", args.join(" "), dir.display());
    }
    Ok(())
}

/// Writes the dream folder: the notes with the facts applied, `CHANGES.md`, `memory.diff`
/// and `run.log`. Returns the number of CHANGES.md entries.
pub fn write_dream(
    root: &Path,
    notes: &[Note],
    facts: &[Fact],
    located: &[Located],
    sessions: &[String],
    r: &mut Rng,
) -> Result<usize> {
    let dream = root.join("dream");
    let mem = dream.join("memory");
    std::fs::create_dir_all(&mem)?;
    let at: BTreeMap<usize, &Located> = located.iter().map(|l| (l.fact, l)).collect();
    let mut changed: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (i, n) in notes.iter().enumerate() {
        changed.insert(i, n.text.split_inclusive('\n').map(str::to_string).collect());
    }
    let mut entries = Vec::new();
    for (i, f) in facts.iter().enumerate() {
        let Some(lines) = changed.get_mut(&f.note) else { continue };
        // After the frontmatter and the title: a bullet to replace or insert after.
        let body = lines.iter().position(|l| l.starts_with("- ")).unwrap_or(lines.len());
        let pos = r.range(body, lines.len().saturating_sub(1).max(body));
        let new = format!("{}\n", f.written);
        if r.chance(0.4) && pos < lines.len() {
            lines[pos] = new;
        } else {
            lines.insert((pos + 1).min(lines.len()), new);
        }
        if f.kind == FactKind::NoEntry {
            continue;
        }
        let cite = match (f.kind, at.get(&i)) {
            (FactKind::Unsourced, _) => {
                let s = r.pick(sessions);
                format!("{s}.jsonl line 3")
            }
            (FactKind::WrongLine, Some(l)) => cite(r, &l.name, l.line + 1),
            // A third of the inferred dates cite the reply instead of the line that says
            // "last week": the scan must find the phrase.
            (FactKind::InferredDate, Some(l)) if r.chance(0.33) => cite(r, &l.name, l.line + 1),
            (_, Some(l)) => cite(r, &l.name, l.line),
            (_, None) => bail!("fact {i} was never written to a transcript"),
        };
        entries.push(format!("- {} ({cite})\n", f.entry));
    }
    for (i, lines) in &changed {
        std::fs::write(mem.join(&notes[*i].file), lines.concat())?;
    }
    // The dream also tidies the index: one description rewritten.
    let mut idx = index(notes);
    if let Some(first) = notes.first() {
        let stem = first.file.trim_end_matches(".md");
        idx = idx.replacen(&format!("— {}\n", stem.replace('-', " ")), "— how to work on it (updated)\n", 1);
    }
    std::fs::write(mem.join("MEMORY.md"), idx)?;
    let mut changes = String::from("# Changes\n\n");
    for e in &entries {
        changes.push_str(e);
    }
    std::fs::write(dream.join("CHANGES.md"), changes)?;
    let out = Command::new("diff")
        .current_dir(root)
        .args(["-ruN", "-x", ".git", "project/memory", "dream/memory"])
        .output()
        .context("cannot run diff")?;
    std::fs::write(dream.join("memory.diff"), out.stdout)?;
    std::fs::write(
        dream.join("run.log"),
        format!(
            "Checked {} notes against {} transcripts. Updated {} notes. Wrote CHANGES.md.\n",
            notes.len(),
            sessions.len(),
            facts.iter().map(|f| f.note).collect::<std::collections::BTreeSet<_>>().len()
        ),
    )?;
    Ok(entries.len())
}

/// A citation in one of the forms dreams write.
fn cite(r: &mut Rng, name: &str, line: usize) -> String {
    let base = name.rsplit('/').next().unwrap_or(name);
    match r.below(4) {
        0 => format!("{base}:{line}"),
        1 => format!("{base} line {line}"),
        2 => format!("{base}#L{line}"),
        _ => format!("{base} (line {line})"),
    }
}
