//! The generator: a realistic Claude Code project of a given size, written to a folder:
//!
//! ```text
//! DIR/project/<session>.jsonl                       N sessions, heavy-tailed sizes
//! DIR/project/<session>/subagents/agent-<id>.jsonl  sub-agent transcripts (~30% of sessions)
//! DIR/project/memory/                               M notes + MEMORY.md, a git repository
//! DIR/dream/{memory/,CHANGES.md,memory.diff,run.log} the dream, changing 10% of the notes
//! ```
//!
//! Deterministic for a seed. Sessions are written in parallel.

pub mod facts;
pub mod memory;
pub mod rng;
pub mod session;
pub mod words;

use anyhow::{Context, Result};
use dreamreview::base::date::Date;
use facts::FactKind;
use rayon::prelude::*;
use rng::Rng;
use std::path::{Path, PathBuf};

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Output folder (created; must be empty or missing).
    pub dir: PathBuf,
    /// Total transcript bytes, roughly.
    pub bytes: u64,
    /// Number of sessions.
    pub sessions: usize,
    /// Number of notes.
    pub notes: usize,
    /// Seed.
    pub seed: u64,
}

/// What was generated.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Transcript bytes written.
    pub bytes: u64,
    /// Transcript files (sessions and sub-agents).
    pub files: usize,
    /// Facts planted / CHANGES.md entries.
    pub facts: usize,
    /// CHANGES.md entries.
    pub entries: usize,
    /// Notes changed by the dream.
    pub changed: usize,
}

/// The dream's date; sessions run on the 120 days before it.
pub fn dream_day() -> Date {
    Date { year: 2026, month: 11, day: 2 }
}

/// Writes the project described by `o`.
pub fn generate(o: &Options) -> Result<Summary> {
    let dir = &o.dir;
    if dir.exists() && std::fs::read_dir(dir).map(|mut d| d.next().is_some()).unwrap_or(false) {
        anyhow::bail!("{} is not empty; pick a new folder", dir.display());
    }
    let project = dir.join("project");
    std::fs::create_dir_all(&project).with_context(|| format!("cannot create {}", project.display()))?;
    let seed = Rng::new(o.seed);
    let mut r = seed.fork(u64::MAX);

    let notes = memory::notes(&mut r, o.notes);
    let mut plans = plan_sessions(&mut r, o);

    // Facts: 10% of the notes change, one or two facts each.
    let mut order: Vec<usize> = (0..notes.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, r.below(i + 1));
    }
    let changed: Vec<usize> = order.into_iter().take(notes.len().div_ceil(10)).collect();
    let mut all = Vec::new();
    for &n in &changed {
        for _ in 0..if r.chance(0.3) { 2 } else { 1 } {
            let s = r.below(plans.len());
            let kind = facts::kind_for(&mut r);
            let note = &notes[n];
            let path = format!("memory/{}", note.file);
            let f = facts::make(&mut r, kind, n, &path, &note.area, s, plans[s].day);
            all.push(f);
        }
    }
    for (i, f) in all.iter().enumerate() {
        if f.kind == FactKind::Unsourced {
            continue;
        }
        let p = &mut plans[f.session];
        if f.sub {
            if p.subagents.is_empty() {
                p.subagents.push((p.bytes / 4).max(20_000));
            }
            p.sub_plants.push(i);
        } else {
            p.plants.push(i);
        }
    }

    let written: Vec<(u64, Vec<session::Located>)> = plans
        .par_iter()
        .map(|p| session::write(&project, p, &all, &seed))
        .collect::<std::io::Result<_>>()
        .context("cannot write a transcript")?;
    let bytes = written.iter().map(|w| w.0).sum();
    let located: Vec<session::Located> = written.into_iter().flat_map(|w| w.1).collect();
    let files = plans.iter().map(|p| 1 + p.subagents.len()).sum();

    memory::write_live(&project.join("memory"), &notes)?;
    let ids: Vec<String> = plans.iter().map(|p| p.id.clone()).collect();
    let entries = memory::write_dream(dir, &notes, &all, &located, &ids, &mut r)?;
    Ok(Summary { bytes, files, facts: all.len(), entries, changed: changed.len() })
}

fn plan_sessions(r: &mut Rng, o: &Options) -> Vec<session::Plan> {
    let n = o.sessions.max(1);
    let weights: Vec<f64> = (0..n).map(|_| r.heavy(1.0, 0.9)).collect();
    let sum: f64 = weights.iter().sum();
    let mut days: Vec<i64> = (0..n).map(|_| r.below(120) as i64 + 1).collect();
    days.sort_unstable_by(|a, b| b.cmp(a));
    (0..n)
        .map(|i| {
            let bytes = (o.bytes as f64 * weights[i] / sum) as u64;
            let mut subagents = Vec::new();
            let mut main = bytes;
            if r.chance(0.3) {
                for _ in 0..r.range(1, 3) {
                    let b = (bytes as f64 * (0.05 + r.unit() * 0.15)) as u64;
                    subagents.push(b.max(8_000));
                    main = main.saturating_sub(b);
                }
            }
            session::Plan {
                index: i,
                id: r.uuid(),
                bytes: main.max(4_000),
                day: dream_day().add_days(-days[i]),
                start: (8 * 3600 + r.below(6 * 3600)) as u32,
                japanese: r.chance(0.1),
                subagents,
                plants: Vec::new(),
                sub_plants: Vec::new(),
            }
        })
        .collect()
}

/// Parses `100M`, `1G`, `4G`, `512K` or a plain byte count.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()?.to_ascii_uppercase() {
        'K' => (&s[..s.len() - 1], 1u64 << 10),
        'M' => (&s[..s.len() - 1], 1 << 20),
        'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    let v: f64 = num.parse().ok()?;
    Some((v * mult as f64) as u64)
}

/// Where the generated pieces are.
pub struct Layout {
    /// The project folder (transcripts; the live memory inside).
    pub project: PathBuf,
    /// The live memory folder.
    pub memory: PathBuf,
    /// The dream folder.
    pub dream: PathBuf,
}

impl Layout {
    /// The layout under `dir`.
    pub fn of(dir: &Path) -> Layout {
        Layout { project: dir.join("project"), memory: dir.join("project/memory"), dream: dir.join("dream") }
    }
}
