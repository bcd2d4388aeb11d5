//! Where dreams wait on this machine, found without being told: dream folders in the
//! dreams folder (`$XDG_DATA_HOME/dreamreview/dreams/<project>/dream-YYYY-MM-DD/`) and in
//! the folders the config names, every Claude Code memory folder
//! (`<projects>/<project>/memory/`, whose in-place changes may wait), and the OpenClaw
//! workspaces the config names. This module only lists the places; whether a memory
//! folder has changes, and what each dream holds, the repository layer says
//! (`crate::store::waiting`).

use crate::base::date::Date;
use crate::inputs::retention::Retention;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Where to look.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Places {
    /// The dreams folder (`$XDG_DATA_HOME/dreamreview/dreams`), when known.
    pub dreams_dir: Option<PathBuf>,
    /// Further folders of dream folders (the config's `dreams_dirs`).
    pub extra_dreams_dirs: Vec<PathBuf>,
    /// Claude Code's projects folder, when known.
    pub projects: Option<PathBuf>,
    /// OpenClaw workspaces (the config's `openclaw_workspaces`).
    pub openclaw_workspaces: Vec<PathBuf>,
}

/// The dreams folder: `$XDG_DATA_HOME/dreamreview/dreams`, else
/// `~/.local/share/dreamreview/dreams`.
pub fn dreams_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".local").join("share"))
        })?;
    Some(base.join("dreamreview").join("dreams"))
}

/// What kind of place a waiting dream is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlaceKind {
    /// A dream folder (`memory/` and `CHANGES.md`, `memory.diff` or `run.log`).
    DreamFolder,
    /// A Claude Code memory folder: the dream may have rewritten it in place.
    ClaudeMemory,
    /// An OpenClaw workspace: its dreams rewrite `MEMORY.md` in place.
    #[serde(rename = "openclaw")]
    OpenClaw,
}

/// One place a dream may wait.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Candidate {
    /// What kind of place.
    pub kind: PlaceKind,
    /// The project: the Claude Code project folder's name (`-home-ana-shop`), else the
    /// folder's own.
    pub project: String,
    /// The dream's day: from a dream folder's name (`dream-2026-11-28`), else the day its
    /// folder was last written (UTC).
    #[serde(serialize_with = "day")]
    pub date: Option<Date>,
    /// The dream folder, for [`PlaceKind::DreamFolder`].
    pub dream: Option<PathBuf>,
    /// The live memory folder, when known (for a dream folder: its project's Claude Code
    /// memory folder when there is one, else what its memory.diff names).
    pub memory: Option<PathBuf>,
    /// The folder holding the project's Claude Code transcripts, when known.
    pub transcripts: Option<PathBuf>,
}

fn day<S: serde::Serializer>(d: &Option<Date>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.collect_str(d),
        None => s.serialize_none(),
    }
}

/// Transcripts of a project Claude Code deletes soon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Expiring {
    /// How many of its transcripts have [`crate::inputs::retention::WARN_DAYS`] or fewer left.
    pub transcripts: usize,
    /// Days left for the first of them to go (0 or less: its next start deletes it).
    pub days_left: i64,
}

/// Every place a dream may wait, in a stable order: dream folders (newest day first within
/// a project), then memory folders and workspaces, projects by name.
pub fn discover(places: &Places) -> Vec<Candidate> {
    let mut out = Vec::new();
    let projects = places.projects.as_deref();
    let mut dream_roots: Vec<&Path> = places.dreams_dir.iter().map(PathBuf::as_path).collect();
    dream_roots.extend(places.extra_dreams_dirs.iter().map(PathBuf::as_path));
    let mut seen = std::collections::BTreeSet::new();
    for root in dream_roots {
        for (project, dream) in dream_folders(root) {
            let key = dream.canonicalize().unwrap_or_else(|_| dream.clone());
            if !seen.insert(key) {
                continue;
            }
            let claude = projects.map(|p| p.join(&project)).filter(|p| p.is_dir());
            let memory = claude.as_ref().map(|c| c.join("memory")).filter(|m| m.is_dir());
            out.push(Candidate {
                kind: PlaceKind::DreamFolder,
                date: day_of_name(&dream).or_else(|| modified_day(&dream)),
                project,
                dream: Some(dream),
                memory,
                transcripts: claude,
            });
        }
    }
    if let Some(projects) = projects {
        for dir in sorted_dirs(projects) {
            let memory = dir.join("memory");
            if !memory.is_dir() {
                continue;
            }
            out.push(Candidate {
                kind: PlaceKind::ClaudeMemory,
                project: name_of(&dir),
                date: modified_day(&memory),
                dream: None,
                memory: Some(memory),
                transcripts: Some(dir),
            });
        }
    }
    for ws in &places.openclaw_workspaces {
        if ws.is_dir() {
            out.push(Candidate {
                kind: PlaceKind::OpenClaw,
                project: name_of(ws),
                date: modified_day(&ws.join("MEMORY.md")).or_else(|| modified_day(ws)),
                dream: None,
                memory: Some(ws.clone()),
                transcripts: None,
            });
        }
    }
    out.sort_by(|a, b| {
        (a.kind != PlaceKind::DreamFolder, &a.project, std::cmp::Reverse(a.date)).cmp(&(
            b.kind != PlaceKind::DreamFolder,
            &b.project,
            std::cmp::Reverse(b.date),
        ))
    });
    out
}

/// Whether `dir` is a dream folder as a dream run leaves it: a `memory/` folder beside
/// `CHANGES.md`, `memory.diff` or `run.log`.
pub fn is_dream_folder(dir: &Path) -> bool {
    let sub = dir.join("memory");
    sub.is_dir() && !sub.is_symlink() && crate::inputs::dream::METADATA_FILES.iter().any(|f| dir.join(f).is_file())
}

/// The dream folders in `root` (`root/<project>/<dream>/` or `root/<dream>/`), each with its
/// project: the folder it is in, or for one directly in `root`, `root`'s own name.
fn dream_folders(root: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for dir in sorted_dirs(root) {
        if is_dream_folder(&dir) {
            out.push((name_of(root), dir));
            continue;
        }
        for inner in sorted_dirs(&dir) {
            if is_dream_folder(&inner) {
                out.push((name_of(&dir), inner));
            }
        }
    }
    out
}

/// The folders in `dir` (not following links, hidden ones left out), sorted by name.
fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| !crate::inputs::snapshot::is_hidden(&e.file_name().to_string_lossy()))
        .map(|e| e.path())
        .collect();
    out.sort();
    out
}

fn name_of(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| p.display().to_string())
}

/// `dream-2026-11-28` (any prefix, any suffix after the day) → 2026-11-28.
fn day_of_name(p: &Path) -> Option<Date> {
    let name = name_of(p);
    (0..name.len()).filter(|&i| name.is_char_boundary(i)).find_map(|i| {
        let rest = &name[i..];
        let d = Date::parse_iso_prefix(rest)?;
        (i == 0 || !name.as_bytes()[i - 1].is_ascii_digit()).then_some(d)
    })
}

/// The UTC day `p` was last written.
fn modified_day(p: &Path) -> Option<Date> {
    let m = std::fs::metadata(p).and_then(|m| m.modified()).ok()?;
    let secs = m.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    Some(Date::from_days(i64::try_from(secs / 86_400).ok()?))
}

/// The project's transcripts Claude Code deletes within [`crate::inputs::retention::WARN_DAYS`]
/// (`<project>/*.jsonl` and `<project>/<session>/subagents/*.jsonl`), when there are any.
pub fn expiring(transcripts: &Path, retention: &Retention, now: SystemTime) -> Option<Expiring> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(transcripts).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            let sub = p.join("subagents");
            files.extend(std::fs::read_dir(&sub).into_iter().flatten().flatten().map(|e| e.path()));
        } else {
            files.push(p);
        }
    }
    let lefts: Vec<i64> = files.iter().filter_map(|f| retention.expiring(f, now)).collect();
    let days_left = *lefts.iter().min()?;
    Some(Expiring { transcripts: lefts.len(), days_left })
}

/// The Claude Code memory folder of a dream folder in the dreams folder
/// (`<dreams>/<project>/<dream>` → `<projects>/<project>/memory`), when both exist.
pub fn project_memory(dream: &Path) -> Option<PathBuf> {
    let dream = dream.canonicalize().ok()?;
    let project = dream.parent()?;
    let dreams = dreams_dir()?.canonicalize().ok()?;
    if project.parent()? != dreams {
        return None;
    }
    let memory = crate::inputs::claude::projects_dir()?.join(project.file_name()?).join("memory");
    memory.is_dir().then_some(memory)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn put(p: &Path, s: &str) {
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, s).unwrap();
    }

    #[test]
    fn finds_dream_folders_memory_folders_and_workspaces() {
        let t = tempfile::tempdir().unwrap();
        let dreams = t.path().join("dreams");
        put(&dreams.join("-home-ana-shop/dream-2026-11-28/memory/MEMORY.md"), "# M\n");
        put(&dreams.join("-home-ana-shop/dream-2026-11-28/CHANGES.md"), "- x\n");
        put(&dreams.join("-home-ana-shop/dream-2026-11-29/memory/MEMORY.md"), "# M\n");
        put(&dreams.join("-home-ana-shop/dream-2026-11-29/run.log"), "ok\n");
        // Not a dream folder: no metadata beside memory/.
        put(&dreams.join("-home-ana-shop/half/memory/MEMORY.md"), "# M\n");
        let extra = t.path().join("extra");
        put(&extra.join("dream-2026-12-01/memory/a.md"), "a\n");
        put(&extra.join("dream-2026-12-01/memory.diff"), "");
        let projects = t.path().join("projects");
        put(&projects.join("-home-ana-shop/memory/MEMORY.md"), "# M\n");
        put(&projects.join("-home-bo-api/s.jsonl"), "{}\n");
        let ws = t.path().join("claw");
        put(&ws.join("MEMORY.md"), "# M\n");
        let places = Places {
            dreams_dir: Some(dreams.clone()),
            extra_dreams_dirs: vec![extra.clone(), dreams],
            projects: Some(projects.clone()),
            openclaw_workspaces: vec![ws.clone(), t.path().join("gone")],
        };
        let found = discover(&places);
        let rows: Vec<(PlaceKind, &str, String)> = found
            .iter()
            .map(|c| (c.kind, c.project.as_str(), c.dream.as_ref().map(|d| name_of(d)).unwrap_or_default()))
            .collect();
        assert_eq!(
            rows,
            vec![
                (PlaceKind::DreamFolder, "-home-ana-shop", "dream-2026-11-29".to_string()),
                (PlaceKind::DreamFolder, "-home-ana-shop", "dream-2026-11-28".to_string()),
                (PlaceKind::DreamFolder, "extra", "dream-2026-12-01".to_string()),
                (PlaceKind::ClaudeMemory, "-home-ana-shop", String::new()),
                (PlaceKind::OpenClaw, "claw", String::new()),
            ]
        );
        assert_eq!(found[0].memory, Some(projects.join("-home-ana-shop/memory")));
        assert_eq!(found[0].date, Date::new(2026, 11, 29));
        assert_eq!(found[2].memory, None, "no Claude Code project of that name");
    }

    #[test]
    fn a_day_is_read_from_the_folder_name_only_where_it_stands_alone() {
        assert_eq!(day_of_name(Path::new("dream-2026-11-28")), Date::new(2026, 11, 28));
        assert_eq!(day_of_name(Path::new("dream-2026-11-28-b")), Date::new(2026, 11, 28));
        assert_eq!(day_of_name(Path::new("x12026-11-28")), None);
        assert_eq!(day_of_name(Path::new("夢-2026-01-02")), Date::new(2026, 1, 2));
    }
}
