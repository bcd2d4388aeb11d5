//! Facts about the project, checked against it (`stale-reference`, a warning): when the
//! folder a session ran in (its transcript's `cwd`) is in a git repository on this machine,
//! each file path, commit id, branch name and script name a note adds
//! ([`refs::references`]) is looked up in that repository — its work tree and HEAD, the
//! commits its refs reach, its manifests ([`manifests`]) — and one that is not there is
//! flagged: "src/auth/token.ts does not exist in ~/shop at HEAD 4e1a2b0".
//!
//! Never a filter (the claim keeps its other verdicts) and never a write: the repository is
//! opened read only ([`project::Project`]). A reference the live memory already holds is
//! not the dream's and is left alone. Bounded: at most [`MAX_REFERENCES`] references and
//! [`BUDGET`] of lookups per review; what is left is said in one note. Off with
//! `--no-repo-check` ([`crate::inputs::dream::Inputs::repo_check`]).

pub mod manifests;
pub mod project;
pub mod refs;

use crate::analysis::findings::Findings;
use crate::analysis::flag::{Flag, FlagKind};
use crate::model::ids::HunkId;
use crate::model::review::Review;
use project::{PathState, Project};
use refs::{Reference, Runner};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The most references looked up in one review.
pub const MAX_REFERENCES: usize = 200;

/// The time the lookups of one review may take.
pub const BUDGET: Duration = Duration::from_secs(2);

/// The most transcripts read for their `cwd`, and the most bytes read of each.
const MAX_TRANSCRIPTS: usize = 2000;
const CWD_BYTES: usize = 64 << 10;

/// The most projects (distinct repositories) a review's sessions are checked against.
const MAX_PROJECTS: usize = 8;

/// One repository and the session folders found in it.
struct Checked {
    project: Project,
    /// The sessions' folders inside it, relative to its root (`""` for the root itself).
    cwds: Vec<String>,
    /// The sessions' folders as the transcripts wrote them (for absolute paths).
    written: Vec<PathBuf>,
    head: String,
}

/// Adds a `stale-reference` flag to each hunk line naming what the project does not hold;
/// says in `notes` what was left unchecked.
pub fn check(review: &Review, findings: &mut Findings, notes: &mut Vec<String>) {
    if !review.inputs.repo_check {
        return;
    }
    let wanted = added_references(review);
    if wanted.is_empty() {
        return;
    }
    let projects = projects(review);
    if projects.is_empty() {
        return;
    }
    let started = Instant::now();
    let mut unchecked = 0;
    for (n, (id, line, reference)) in wanted.iter().enumerate() {
        if n >= MAX_REFERENCES || started.elapsed() > BUDGET {
            unchecked += 1;
            continue;
        }
        if let Some(message) = stale(&projects, reference) {
            let flag =
                Flag::new(FlagKind::StaleReference, message).with_claim(reference.text()).with_line(line.clone());
            findings.add_hunk_flag(*id, flag);
        }
    }
    if unchecked > 0 {
        notes.push(format!(
            "{unchecked} of {} references to the project were not checked against {} (the check stops after {} \
             references or {} s)",
            wanted.len(),
            shown_path(projects[0].project.root()),
            MAX_REFERENCES,
            BUDGET.as_secs()
        ));
    }
}

/// The references the dream's added lines make that the live memory does not already
/// hold: (file, hunk, line without terminator, reference). Each line's references are read
/// on both cores; whether live memory holds them is one automaton pass over it, not one
/// search of the whole memory per reference.
fn added_references(review: &Review) -> Vec<(HunkId, String, Reference)> {
    use rayon::prelude::*;
    let mut lines: Vec<(HunkId, &str)> = Vec::new();
    for (fi, f) in review.files.iter().enumerate().filter(|(_, f)| f.kind.writable()) {
        for (id, h) in review.hunks_of(fi).zip(&f.hunks) {
            lines.extend(h.added().map(|l| (id, l.text.trim_end_matches(['\n', '\r']))));
        }
    }
    let found: Vec<Vec<Reference>> = lines.par_iter().map(|(_, line)| refs::references(line)).collect();
    let held = held_by_live(review, found.iter().flatten().map(Reference::text));
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for ((id, line), references) in lines.into_iter().zip(found) {
        for r in references {
            if held.contains(r.text()) || !seen.insert((id, r.text().to_string())) {
                continue;
            }
            out.push((id, line.to_string(), r));
        }
    }
    out
}

/// Which of `texts` the live memory holds (its notes read as one text, a line break
/// between two).
fn held_by_live<'t>(review: &Review, texts: impl Iterator<Item = &'t str>) -> std::collections::HashSet<String> {
    let wanted: BTreeSet<&str> = texts.collect();
    let mut held: std::collections::HashSet<String> =
        wanted.iter().filter(|t| t.is_empty()).map(|t| t.to_string()).collect();
    let needles: Vec<&str> = wanted.into_iter().filter(|t| !t.is_empty()).collect();
    if needles.is_empty() {
        return held;
    }
    let live: String = review
        .live
        .values()
        .filter_map(|e| e.bytes())
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .collect::<Vec<_>>()
        .join("\n");
    match aho_corasick::AhoCorasick::new(&needles) {
        Ok(ac) => {
            let mut found = vec![false; needles.len()];
            for m in ac.find_overlapping_iter(&live) {
                found[m.pattern().as_usize()] = true;
            }
            held.extend(needles.iter().zip(found).filter(|(_, f)| *f).map(|(t, _)| t.to_string()));
        }
        // Too many needles for an automaton: each looked for on its own.
        Err(_) => held.extend(needles.into_iter().filter(|t| live.contains(t)).map(str::to_string)),
    }
    held
}

/// The repositories holding the folders the review's sessions ran in.
fn projects(review: &Review) -> Vec<Checked> {
    let inputs = &review.inputs;
    let root = inputs.memory.parent().map(Path::to_path_buf);
    let Ok(sources) =
        crate::inputs::transcript::SourceSet::discover(root.as_deref(), &inputs.sources, Some(&inputs.memory))
    else {
        return Vec::new();
    };
    let mut cwds: BTreeSet<PathBuf> = BTreeSet::new();
    for f in
        sources.files().iter().filter(|f| f.kind == crate::inputs::transcript::SourceKind::Jsonl).take(MAX_TRANSCRIPTS)
    {
        if let Some(cwd) = cwd_of(&f.path) {
            cwds.insert(cwd);
        }
    }
    let mut out: Vec<Checked> = Vec::new();
    for cwd in cwds {
        let Some(project) = Project::open(&cwd) else {
            continue;
        };
        let canonical = cwd.canonicalize().unwrap_or_else(|_| cwd.clone());
        let rel = canonical.strip_prefix(project.root()).map(|r| r.to_string_lossy().replace('\\', "/")).ok();
        if let Some(known) = out.iter_mut().find(|c| c.project.root() == project.root()) {
            known.cwds.extend(rel.filter(|r| !known.cwds.contains(r)));
            known.written.push(cwd);
            continue;
        }
        if out.len() >= MAX_PROJECTS {
            break;
        }
        let head = project.head().unwrap_or_else(|| "(no commit)".to_string());
        out.push(Checked { project, cwds: rel.into_iter().collect(), written: vec![cwd], head });
    }
    out
}

/// The `cwd` a JSONL transcript records (the first one in its first [`CWD_BYTES`], read a
/// few KiB at a time: it is on the first line of a session).
fn cwd_of(path: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let mut head: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8 << 10];
    let at = loop {
        let n = file.read(&mut chunk).ok()?;
        if n == 0 || head.len() >= CWD_BYTES {
            return None;
        }
        head.extend_from_slice(&chunk[..n]);
        if let Some(at) = memchr::memmem::find(&head, br#""cwd":"#) {
            // The value may run past this chunk: one more read finishes a path.
            if let Ok(m) = file.read(&mut chunk) {
                head.extend_from_slice(&chunk[..m]);
            }
            break at;
        }
    };
    let rest = &head[at + 6..];
    let quote = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    let value: String = serde_json::Deserializer::from_slice(&rest[quote..]).into_iter::<String>().next()?.ok()?;
    let cwd = PathBuf::from(value);
    cwd.is_absolute().then_some(cwd)
}

/// The flag message when `reference` is in none of `projects` (and is about them).
fn stale(projects: &[Checked], reference: &Reference) -> Option<String> {
    let mut message = None;
    for p in projects {
        match missing(p, reference) {
            Lookup::Present | Lookup::Unknown => return None,
            Lookup::NotAbout => {}
            Lookup::Missing(m) => {
                message.get_or_insert(m);
            }
        }
    }
    message
}

/// What one project says of a reference.
enum Lookup {
    Present,
    /// The project cannot say (no manifest, a manifest read in part).
    Unknown,
    /// The reference is not about this project (an absolute path outside it).
    NotAbout,
    Missing(String),
}

fn missing(p: &Checked, reference: &Reference) -> Lookup {
    let root = shown_path(p.project.root());
    let head = &p.head;
    match reference {
        Reference::Path(text) => {
            let Some(candidates) = candidates(p, text) else {
                return Lookup::NotAbout;
            };
            let mut deleted = None;
            for (rel, ends) in &candidates {
                match p.project.path(rel, *ends) {
                    PathState::Present => return Lookup::Present,
                    PathState::Missing { deleted_in } => {
                        if deleted.is_none() {
                            deleted = deleted_in;
                        }
                    }
                }
            }
            let when = deleted.map(|c| format!(" (deleted in {c})")).unwrap_or_default();
            Lookup::Missing(format!("{text} does not exist in {root} at HEAD {head}{when}"))
        }
        Reference::Commit(hex) => match p.project.commit(hex) {
            Some(true) => Lookup::Present,
            None => Lookup::Unknown,
            Some(false) => {
                Lookup::Missing(format!("commit {hex} is not in {root}: no branch or tag reaches it (HEAD {head})"))
            }
        },
        Reference::Branch(name) => {
            if p.project.branch(name) {
                Lookup::Present
            } else {
                Lookup::Missing(format!("branch {name} does not exist in {root} (HEAD {head})"))
            }
        }
        Reference::Script { runner, command, name } => match scripts(p, *runner, name) {
            None => Lookup::Unknown,
            Some((_, true)) => Lookup::Present,
            Some((manifest, false)) => {
                let what = match runner {
                    Runner::Node => "script",
                    Runner::Make => "target",
                    Runner::Just => "recipe",
                    Runner::CargoBin => "binary",
                };
                Lookup::Missing(format!("{command}: no {what} {name} in the {manifest} of {root} at HEAD {head}"))
            }
        },
    }
}

/// Where a written path may be in `p`, relative to its root, each with whether a path of
/// HEAD ending with it counts; `None` for an absolute path outside the project.
fn candidates(p: &Checked, text: &str) -> Option<Vec<(String, bool)>> {
    let path = Path::new(text);
    if path.is_absolute() {
        let rel = path
            .strip_prefix(p.project.root())
            .ok()
            .or_else(|| p.written.iter().find_map(|w| path.strip_prefix(w).ok()))?;
        // A path under a session folder written absolute: relative to that folder.
        let rel = rel.to_string_lossy().replace('\\', "/");
        let mut out = vec![(rel.clone(), false)];
        out.extend(p.cwds.iter().filter(|c| !c.is_empty()).map(|c| (format!("{c}/{rel}"), false)));
        return Some(out);
    }
    let rel = text.strip_prefix("./").unwrap_or(text).to_string();
    let mut out = vec![(rel.clone(), true)];
    out.extend(p.cwds.iter().filter(|c| !c.is_empty()).map(|c| (format!("{c}/{rel}"), false)));
    // A path that starts with the project's own folder (`shop/src/x.ts` in ~/shop).
    let name = p.project.root().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if let Some(inner) = rel.strip_prefix(&format!("{name}/")).filter(|_| !name.is_empty()) {
        out.push((inner.to_string(), false));
    }
    Some(out)
}

/// Whether `runner` can run `name` in `p`, with the manifest that says so; `None` when no
/// manifest can say.
fn scripts(p: &Checked, runner: Runner, name: &str) -> Option<(&'static str, bool)> {
    let dirs: Vec<String> =
        std::iter::once(String::new()).chain(p.cwds.iter().filter(|c| !c.is_empty()).cloned()).collect();
    let at = |dir: &str, name: &str| if dir.is_empty() { name.to_string() } else { format!("{dir}/{name}") };
    let mut names = BTreeSet::new();
    let mut found = false;
    match runner {
        Runner::Node => {
            for file in p.project.files_named("package.json", 50) {
                for text in p.project.read(&file) {
                    names.extend(manifests::package_scripts(&text)?);
                    found = true;
                }
            }
            found.then_some(("package.json", names.contains(name)))
        }
        Runner::Make | Runner::Just => {
            let (files, manifest): (&[&str], _) = match runner {
                Runner::Make => (&["GNUmakefile", "makefile", "Makefile"], "Makefile"),
                _ => (&["justfile", "Justfile", ".justfile", "JUSTFILE"], "justfile"),
            };
            for dir in &dirs {
                for f in files {
                    for text in p.project.read(&at(dir, f)) {
                        let listed = match runner {
                            Runner::Make => manifests::make_targets(&text),
                            _ => manifests::just_recipes(&text),
                        };
                        names.extend(listed?);
                        found = true;
                    }
                }
            }
            found.then_some((manifest, names.contains(name)))
        }
        Runner::CargoBin => {
            for file in p.project.files_named("Cargo.toml", 50) {
                let base = file.strip_suffix("Cargo.toml").unwrap_or("").to_string();
                for text in p.project.read(&file) {
                    names.extend(manifests::cargo_bins(&text));
                    found = true;
                }
                // Cargo's own layout: `src/bin/<name>.rs`, `src/bin/<name>/main.rs`.
                for layout in [format!("{base}src/bin/{name}.rs"), format!("{base}src/bin/{name}/main.rs")] {
                    if p.project.path(&layout, false) == PathState::Present {
                        names.insert(name.to_string());
                    }
                }
            }
            found.then_some(("Cargo.toml", names.contains(name)))
        }
    }
}

/// A folder as the reviewer reads it: the home folder as `~`.
fn shown_path(path: &Path) -> String {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match home.as_deref().and_then(|h| path.strip_prefix(h).ok()) {
        Some(rel) if !rel.as_os_str().is_empty() => format!("~/{}", rel.display()),
        _ => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cwd_is_read_from_the_head_of_a_transcript() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("s.jsonl");
        let first = format!("{{\"type\":\"summary\",\"text\":\"{}\"}}\n", "x".repeat(20_000));
        std::fs::write(&file, format!("{first}{{\"type\":\"user\",\"cwd\": \"/home/dev/my \\\"shop\\\"\",\"n\":1}}\n"))
            .unwrap();
        assert_eq!(cwd_of(&file), Some(PathBuf::from("/home/dev/my \"shop\"")));
        std::fs::write(&file, "{\"cwd\":\"relative/x\"}\n").unwrap();
        assert_eq!(cwd_of(&file), None);
        std::fs::write(&file, "{\"type\":\"user\"}\n").unwrap();
        assert_eq!(cwd_of(&file), None);
    }
}
