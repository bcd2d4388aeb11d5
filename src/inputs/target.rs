//! Where a review writes: the live memory folder, how it was found, and whether
//! dreamreview may write to it. A folder `memory.diff`'s headers name is only a
//! suggestion — the dream wrote those headers. `apply` and the TUI's commit write only to a
//! folder the user named (`--memory`, or the current directory of an in-place review), or
//! to a found folder that is this user's Claude Code memory folder
//! (`~/.claude/projects/<project>/memory`) or that already holds dreamreview's review
//! commits. This module is the decision alone: whether a folder holds review commits is
//! asked of the caller, which knows the repository.

use serde::Serialize;
use std::path::{Component, Path, PathBuf};

/// How the live memory folder was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, strum::IntoStaticStr)]
#[serde(into = "&'static str")]
pub enum Origin {
    /// `--memory DIR`.
    #[strum(serialize = "--memory")]
    Flag,
    /// The folder `memory.diff`'s headers name.
    #[strum(serialize = "memory.diff")]
    MemoryDiff,
    /// The current directory (an in-place review without `--memory`).
    #[strum(serialize = "current dir")]
    CurrentDir,
}

impl Origin {
    /// How it reads in messages and JSON: `--memory`, `memory.diff`, `current dir`.
    pub fn label(self) -> &'static str {
        self.into()
    }
}

/// Why dreamreview may write to the folder, or that it may not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trust {
    /// The user named it: `--memory`, or the current directory they ran an in-place review in.
    Named,
    /// This user's Claude Code memory folder: `<projects>/<project>/memory`, where
    /// `<projects>` is `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`.
    ClaudeMemory,
    /// Its repository holds review commits of dreamreview that changed this folder.
    Reviewed,
    /// Only `memory.diff` names it: shown, never written.
    Suggested,
}

impl Trust {
    /// Whether `apply` and the TUI's commit may write there.
    pub fn writable(self) -> bool {
        self != Trust::Suggested
    }
}

/// A sign that the folder is not an agent's memory folder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "detail")]
pub enum Warning {
    /// It has no `MEMORY.md` index.
    NoIndex,
    /// A component of its path is hidden (`.ssh`); the component is carried.
    Hidden(String),
    /// It is not under `~/.claude/projects`.
    OutsideProjects,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::NoIndex => f.write_str("it has no MEMORY.md"),
            Warning::Hidden(c) => write!(f, "its path has a hidden folder ({c})"),
            Warning::OutsideProjects => f.write_str("it is not under ~/.claude/projects"),
        }
    }
}

/// The live memory folder a review reads and may write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    /// The folder, as found (absolute).
    pub path: PathBuf,
    /// How it was found.
    pub origin: Origin,
    /// Whether (and why) it may be written.
    pub trust: Trust,
    /// Signs that it is not a memory folder (shown by `check` and the TUI).
    pub warnings: Vec<Warning>,
}

impl Target {
    /// Judges `path`, found by `origin`, for a user whose Claude Code projects folder is
    /// `projects` (see [`crate::inputs::claude::projects_dir`]).
    /// `holds_reviews` says whether the folder's repository holds review commits of
    /// dreamreview; it is asked only when nothing else makes the folder writable.
    pub fn assess(
        path: &Path,
        origin: Origin,
        projects: Option<&Path>,
        holds_reviews: impl FnOnce(&Path) -> bool,
    ) -> Target {
        let resolved = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let projects = projects.map(|p| p.canonicalize().unwrap_or_else(|_| p.to_path_buf()));
        let under_projects = projects.as_deref().and_then(|p| resolved.strip_prefix(p).ok());
        let trust = if origin != Origin::MemoryDiff {
            Trust::Named
        } else if under_projects.is_some_and(is_project_memory) {
            Trust::ClaudeMemory
        } else if holds_reviews(path) {
            Trust::Reviewed
        } else {
            Trust::Suggested
        };
        let warnings = warnings(&resolved, under_projects);
        Target { path: path.to_path_buf(), origin, trust, warnings }
    }

    /// Judges `path` for this user (`$CLAUDE_CONFIG_DIR`, else `$HOME/.claude`).
    pub fn assess_here(path: &Path, origin: Origin, holds_reviews: impl FnOnce(&Path) -> bool) -> Target {
        Target::assess(path, origin, crate::inputs::claude::projects_dir().as_deref(), holds_reviews)
    }

    /// Why `apply` and the TUI's commit refuse to write here, if they do: the message
    /// names the folder and the flag that makes it the target.
    pub fn refusal(&self) -> Option<String> {
        (!self.trust.writable()).then(|| {
            let p = self.path.display();
            format!("{} names {p}; pass --memory {p} to review into it", self.origin.label())
        })
    }

    /// `Err` with [`Target::refusal`]'s message when the folder may not be written.
    pub fn check_writable(&self) -> anyhow::Result<()> {
        match self.refusal() {
            Some(m) => Err(anyhow::anyhow!(m)),
            None => Ok(()),
        }
    }

    /// One line for people: the folder, how it was found, and its warnings.
    pub fn describe(&self) -> String {
        let mut s = format!("{} (from {})", self.path.display(), self.origin.label());
        if !self.warnings.is_empty() {
            let w: Vec<String> = self.warnings.iter().map(|w| w.to_string()).collect();
            s.push_str(&format!(" — not a memory folder? {}", w.join("; ")));
        }
        s
    }
}

/// `<project>/memory`, exactly: the shape of a Claude Code memory folder under
/// `~/.claude/projects`.
fn is_project_memory(rel: &Path) -> bool {
    let parts: Vec<Component<'_>> = rel.components().collect();
    matches!(parts.as_slice(), [Component::Normal(p), Component::Normal(m)] if *m == "memory" && !is_hidden(p))
}

/// The warnings for a resolved folder (`under_projects`: its path below
/// `~/.claude/projects`, when it is there).
fn warnings(resolved: &Path, under_projects: Option<&Path>) -> Vec<Warning> {
    let mut out = Vec::new();
    if !resolved.join("MEMORY.md").is_file() {
        out.push(Warning::NoIndex);
    }
    // `~/.claude` itself is where Claude Code keeps memory: only what lies below
    // `projects` is looked at then. The innermost hidden folder is the one named.
    let hidden = under_projects.unwrap_or(resolved).components().rev().find_map(|c| match c {
        Component::Normal(n) if is_hidden(n) => Some(n.to_string_lossy().into_owned()),
        _ => None,
    });
    if let Some(h) = hidden {
        out.push(Warning::Hidden(h));
    }
    if under_projects.is_none() {
        out.push(Warning::OutsideProjects);
    }
    out
}

fn is_hidden(name: &std::ffi::OsStr) -> bool {
    crate::inputs::snapshot::is_hidden(&name.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn an_origin_reads_the_same_in_messages_and_json() {
        for (o, name) in
            [(Origin::Flag, "--memory"), (Origin::MemoryDiff, "memory.diff"), (Origin::CurrentDir, "current dir")]
        {
            assert_eq!(o.label(), name);
            assert_eq!(serde_json::to_value(o).unwrap(), name);
        }
    }

    fn never(_: &Path) -> bool {
        false
    }

    #[test]
    fn only_a_named_or_recognised_folder_is_writable() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let claude = home.join(".claude/projects/-src-app/memory");
        let code = t.path().join("code");
        fs::create_dir_all(&claude).unwrap();
        fs::create_dir_all(&code).unwrap();
        let judge = |p: &Path, o: Origin, reviews: bool| {
            Target::assess(p, o, Some(&home.join(".claude/projects")), |_| reviews).trust
        };
        assert_eq!(judge(&code, Origin::Flag, false), Trust::Named);
        assert_eq!(judge(&code, Origin::CurrentDir, false), Trust::Named);
        assert_eq!(judge(&claude, Origin::MemoryDiff, false), Trust::ClaudeMemory);
        assert_eq!(judge(&code, Origin::MemoryDiff, true), Trust::Reviewed);
        assert_eq!(judge(&code, Origin::MemoryDiff, false), Trust::Suggested);
        // `..` is resolved before the shape is judged: the project folder is no memory folder.
        assert_eq!(judge(&claude.join(".."), Origin::MemoryDiff, false), Trust::Suggested);
        assert_eq!(judge(&home.join(".claude/projects"), Origin::MemoryDiff, false), Trust::Suggested);
        let nested = home.join(".claude/projects/p/memory/deeper/memory");
        fs::create_dir_all(&nested).unwrap();
        assert_eq!(judge(&nested, Origin::MemoryDiff, false), Trust::Suggested);
    }

    #[test]
    fn the_refusal_names_the_folder_and_the_fix() {
        let t = Target::assess(Path::new("/x/y"), Origin::MemoryDiff, None, never);
        assert_eq!(t.refusal().unwrap(), "memory.diff names /x/y; pass --memory /x/y to review into it");
        assert!(t.check_writable().is_err());
        let named = Target::assess(Path::new("/x/y"), Origin::Flag, None, never);
        assert_eq!(named.refusal(), None);
    }

    #[test]
    fn warns_when_the_folder_does_not_look_like_memory() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let claude = home.join(".claude/projects/p/memory");
        fs::create_dir_all(&claude).unwrap();
        fs::write(claude.join("MEMORY.md"), "# index\n").unwrap();
        assert_eq!(
            Target::assess(&claude, Origin::MemoryDiff, Some(&home.join(".claude/projects")), never).warnings,
            vec![]
        );
        let ssh = home.join(".ssh");
        fs::create_dir_all(&ssh).unwrap();
        let w = Target::assess(&ssh, Origin::Flag, Some(&home.join(".claude/projects")), never).warnings;
        assert_eq!(w, vec![Warning::NoIndex, Warning::Hidden(".ssh".into()), Warning::OutsideProjects]);
        let d = Target::assess(&ssh, Origin::MemoryDiff, Some(&home.join(".claude/projects")), never).describe();
        assert!(d.contains("(from memory.diff)") && d.contains("no MEMORY.md") && d.contains(".ssh"), "{d}");
    }
}
