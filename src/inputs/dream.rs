//! Finding a dream's inputs: what kind of dream it is, where the proposal, CHANGES.md and
//! memory.diff are, and which live memory folder it belongs to. The kind
//! is detected, never asked.

use crate::inputs::memdiff;
use crate::inputs::snapshot;
use crate::inputs::target::Origin;
use anyhow::{Context, Result, anyhow, bail};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The three shapes a dream arrives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DreamKind {
    /// A dream.sh folder: `memory/` (the proposal), `CHANGES.md`, optional `memory.diff`
    /// and `run.log`.
    DreamFolder,
    /// A plain folder of proposed notes (e.g. an exported Managed Agents store).
    PlainFolder,
    /// No folder: the dream rewrote the live notes; review the work tree against `HEAD`.
    InPlace,
}

/// Where everything a review reads lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inputs {
    /// Which kind of dream this is.
    pub kind: DreamKind,
    /// The dream folder as given (absolute), `None` for an in-place dream.
    pub dream: Option<PathBuf>,
    /// The folder holding the proposed notes (`<dream>/memory` or the dream folder itself);
    /// `None` for an in-place dream, whose proposal is the live work tree.
    pub proposed: Option<PathBuf>,
    /// The live memory folder (absolute).
    pub memory: PathBuf,
    /// How the live folder was found: `--memory`, `memory.diff` (a suggestion only, see
    /// [`crate::inputs::target`]) or the current directory.
    pub origin: Origin,
    /// `CHANGES.md`, when the dream wrote one.
    pub changes_md: Option<PathBuf>,
    /// `memory.diff`, when the dream wrote one.
    pub memory_diff: Option<PathBuf>,
    /// `run.log`, when present.
    pub run_log: Option<PathBuf>,
    /// Extra transcript folders given with `--sources`.
    pub sources: Vec<PathBuf>,
    /// The folder of the transcript index scans read through and keep (see
    /// `transcript::index`), or `None` to scan every transcript whole. [`discover`] leaves it
    /// `None`: the command line sets it, so a program using the library in-process never
    /// writes the user's cache.
    pub index: Option<PathBuf>,
    /// Check the file paths, commits, branches and script names the dream adds against the
    /// git repository of the folder the sessions ran in (`--no-repo-check` turns it off).
    pub repo_check: bool,
    /// The share (1–100) of the memory's notes or lines a review may remove before it is a
    /// mass removal (`--mass-removal-percent`); `None`: `DREAMREVIEW_MASS_REMOVAL_PERCENT`,
    /// else 25.
    pub mass_removal_percent: Option<usize>,
}

/// Names at the top of a plain proposal folder that are dream metadata, not notes.
pub const METADATA_FILES: &[&str] = &["CHANGES.md", "memory.diff", "run.log"];

/// The largest CHANGES.md dreamreview reads (2 MiB, some 20,000 entries): a change log
/// is one line per change, so a bigger file is not one (a dump, a log pasted whole) and
/// would only stall the review.
pub const MAX_CHANGES_MD_BYTES: u64 = 2 << 20;

impl Inputs {
    /// A short name for the dream, used in commit messages: the dream folder's name, or
    /// `in-place` for an in-place review.
    pub fn dream_name(&self) -> String {
        match &self.dream {
            Some(d) => {
                d.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| d.display().to_string())
            }
            None => "in-place".to_string(),
        }
    }
}

/// Finds the inputs of a review. `dream`: the dream folder (None = in-place review of
/// `memory`, or the current directory). `memory`: `--memory`. `sources`: `--sources`.
/// Every error names the path it is about and what to do.
pub fn discover(dream: Option<&Path>, memory: Option<&Path>, sources: &[PathBuf]) -> Result<Inputs> {
    for s in sources {
        if !s.exists() {
            bail!("sources folder {} does not exist; check the --sources path", s.display());
        }
    }
    let memory = match memory {
        Some(m) => Some(existing_dir(m, "memory folder", "check the --memory path")?),
        None => None,
    };
    let Some(dream) = dream else {
        let (memory, origin) = match memory {
            Some(m) => (m, Origin::Flag),
            None => {
                let cwd = std::env::current_dir().context("cannot read the current directory")?;
                (cwd, Origin::CurrentDir)
            }
        };
        return Ok(Inputs {
            kind: DreamKind::InPlace,
            dream: None,
            proposed: None,
            memory,
            origin,
            changes_md: None,
            memory_diff: None,
            run_log: None,
            sources: sources.to_vec(),
            index: None,
            repo_check: true,
            mass_removal_percent: None,
        });
    };
    let dream = existing_dir(dream, "dream folder", "pass the folder the dream wrote")?;
    let changes_md = metadata_file(&dream, "CHANGES.md")?;
    if let Some(c) = &changes_md {
        check_changes_size(c)?;
    }
    let memory_diff = metadata_file(&dream, "memory.diff")?;
    let run_log = metadata_file(&dream, "run.log")?;
    let sub = dream.join("memory");
    let has_sub = sub.is_dir() && !sub.is_symlink();
    let own_notes = has_markdown(&dream)?;
    let (kind, proposed) =
        if has_sub && (changes_md.is_some() || memory_diff.is_some() || run_log.is_some() || !own_notes) {
            (DreamKind::DreamFolder, sub)
        } else if own_notes {
            (DreamKind::PlainFolder, dream.clone())
        } else if changes_md.is_some() || memory_diff.is_some() {
            bail!(
                "dream folder {} has no proposed notes: expected a memory/ folder beside CHANGES.md; \
             check that the dream run finished",
                dream.display()
            );
        } else {
            bail!(
                "{} holds no notes: expected a dream.sh folder (memory/, CHANGES.md) or a folder of \
             .md notes",
                dream.display()
            );
        };
    let (memory, origin) = match memory {
        Some(m) => (m, Origin::Flag),
        None => (live_from_diff(&dream, &proposed, memory_diff.as_deref())?, Origin::MemoryDiff),
    };
    if same_dir(&memory, &proposed) || same_dir(&memory, &dream) {
        bail!(
            "the dream folder {} is the live memory folder: for an in-place dream run \
             `dreamreview --memory {}` without a DREAM argument",
            dream.display(),
            memory.display()
        );
    }
    Ok(Inputs {
        kind,
        dream: Some(dream),
        proposed: Some(proposed),
        memory,
        origin,
        changes_md,
        memory_diff,
        run_log,
        sources: sources.to_vec(),
        index: None,
        repo_check: true,
        mass_removal_percent: None,
    })
}

/// The dream's metadata file `name` (`CHANGES.md`, `memory.diff`, `run.log`) when it is
/// there. Anything else by that name (a folder, a FIFO, a dangling link) is bad input: an
/// error naming it, never silently skipped.
fn metadata_file(dream: &Path, name: &str) -> Result<Option<PathBuf>> {
    let path = dream.join(name);
    match std::fs::metadata(&path) {
        Ok(m) if m.is_file() => Ok(Some(path)),
        Ok(m) => bail!(
            "{} is {}, not the file a dream run writes; move it out of the dream folder",
            path.display(),
            if m.is_dir() { "a folder" } else { "not a regular file" }
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && path.symlink_metadata().is_err() => Ok(None),
        Err(e) => bail!("{} cannot be read ({e}); move it out of the dream folder", path.display()),
    }
}

/// Refuses a CHANGES.md over [`MAX_CHANGES_MD_BYTES`], saying what to do.
fn check_changes_size(path: &Path) -> Result<()> {
    let len = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?.len();
    if len > MAX_CHANGES_MD_BYTES {
        bail!(
            "{} is {:.1} MB, more than the {} MiB a change log can be (one line per change): it \
             is not the dream's change log; move it out of the dream folder (the review then \
             shows every change without its entry) or cut it down to the real entries",
            path.display(),
            len as f64 / 1e6,
            MAX_CHANGES_MD_BYTES >> 20
        );
    }
    Ok(())
}

/// `p` made absolute when it is an existing folder; otherwise an error naming `what` and
/// `p`, and saying how to fix it (`fix`).
pub(crate) fn existing_dir(p: &Path, what: &str, fix: &str) -> Result<PathBuf> {
    let meta = std::fs::metadata(p).map_err(|e| anyhow!("{what} {} cannot be opened ({e}); {fix}", p.display()))?;
    if !meta.is_dir() {
        bail!("{what} {} is not a folder; {fix}", p.display());
    }
    std::path::absolute(p).with_context(|| format!("cannot resolve {}", p.display()))
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

fn has_markdown(dir: &Path) -> Result<bool> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".md") && !snapshot::is_hidden(&name) && !METADATA_FILES.contains(&name.as_ref()) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The live folder `memory.diff`'s headers name, when it exists on this machine.
fn live_from_diff(dream: &Path, proposed: &Path, memory_diff: Option<&Path>) -> Result<PathBuf> {
    let Some(diff_path) = memory_diff else {
        bail!(
            "cannot tell which live memory folder {} belongs to: it has no memory.diff naming \
             one; pass --memory DIR",
            dream.display()
        );
    };
    let text = read_diff(diff_path)?;
    let files = memdiff::parse(&text).map_err(|e| anyhow!("{}: {e}; {REGENERATE}", diff_path.display()))?;
    super::limits::check_folder(proposed)?;
    let proposal = snapshot::read_folder(proposed)?;
    let Some(layout) = memdiff::layout(&files, &proposal) else {
        bail!("{} names no files, so it cannot say where the live memory is; pass --memory DIR", diff_path.display());
    };
    let root = layout.live_root;
    let mut tried = Vec::new();
    let candidates: Vec<PathBuf> = if root.is_absolute() {
        vec![root.clone()]
    } else {
        let mut c = vec![dream.join(&root)];
        if let Some(parent) = dream.parent() {
            c.push(parent.join(&root));
        }
        c
    };
    for c in candidates {
        if c.is_dir() {
            return std::path::absolute(&c).with_context(|| format!("cannot resolve {}", c.display()));
        }
        tried.push(c.display().to_string());
    }
    bail!(
        "cannot find the live memory folder: {} names {}, which does not exist here (tried {}); \
         pass --memory DIR",
        diff_path.display(),
        root.display(),
        tried.join(", ")
    )
}

/// What to do about a `memory.diff` that cannot be read: `--memory` alone does not help,
/// since a dream's memory.diff is always read.
pub(crate) const REGENERATE: &str =
    "regenerate it with `diff -ruN LIVE PROPOSED > memory.diff`, or remove it and pass --memory DIR";

/// Reads `memory.diff` as text; a diff that is not UTF-8 is an error naming the file.
pub fn read_diff(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| {
        anyhow!("{} is not UTF-8 text, so it is not a diff dreamreview can read; {REGENERATE}", path.display())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write(p: &Path, s: &str) {
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, s).unwrap();
    }

    #[test]
    fn detects_each_kind() {
        let t = tempfile::tempdir().unwrap();
        let live = t.path().join("live");
        write(&live.join("MEMORY.md"), "# M\n");
        let d = t.path().join("dream");
        write(&d.join("memory/MEMORY.md"), "# M2\n");
        write(&d.join("CHANGES.md"), "- x\n");
        let i = discover(Some(&d), Some(&live), &[]).unwrap();
        assert_eq!(i.kind, DreamKind::DreamFolder);
        assert_eq!(i.proposed.unwrap(), d.join("memory"));
        assert_eq!(i.changes_md.unwrap(), d.join("CHANGES.md"));
        let p = t.path().join("plain");
        write(&p.join("a.md"), "a\n");
        let i = discover(Some(&p), Some(&live), &[]).unwrap();
        assert_eq!(i.kind, DreamKind::PlainFolder);
        let i = discover(None, Some(&live), &[]).unwrap();
        assert_eq!(i.kind, DreamKind::InPlace);
    }

    #[test]
    fn finds_live_from_memory_diff_or_says_what_it_tried() {
        let t = tempfile::tempdir().unwrap();
        let live = t.path().join("proj/memory");
        write(&live.join("a.md"), "old\n");
        let d = t.path().join("dream");
        write(&d.join("memory/a.md"), "new\n");
        let diff = format!(
            "--- {}/a.md\t2026-01-01\n+++ /tmp/x/memory/a.md\t2026-01-01\n@@ -1 +1 @@\n-old\n+new\n",
            live.display()
        );
        write(&d.join("memory.diff"), &diff);
        let i = discover(Some(&d), None, &[]).unwrap();
        assert_eq!(i.memory, live);
        assert_eq!(i.origin, Origin::MemoryDiff);
        write(&d.join("memory.diff"), &diff.replace(&live.display().to_string(), "/gone/memory"));
        let e = format!("{:#}", discover(Some(&d), None, &[]).unwrap_err());
        assert!(e.contains("/gone/memory") && e.contains("--memory"), "{e}");
        write(&d.join("memory.diff"), "not a diff\n");
        let e = format!("{:#}", discover(Some(&d), None, &[]).unwrap_err());
        assert!(e.contains("memory.diff") && e.contains("not a unified diff"), "{e}");
    }

    #[test]
    fn bad_folders_name_the_path() {
        let t = tempfile::tempdir().unwrap();
        let e = format!("{:#}", discover(Some(&t.path().join("nope")), None, &[]).unwrap_err());
        assert!(e.contains("nope") && e.contains("dream folder"), "{e}");
        let empty = t.path().join("empty");
        fs::create_dir(&empty).unwrap();
        let e = format!("{:#}", discover(Some(&empty), Some(t.path()), &[]).unwrap_err());
        assert!(e.contains("holds no notes"), "{e}");
        let e = format!("{:#}", discover(Some(&empty), Some(&t.path().join("m")), &[]).unwrap_err());
        assert!(e.contains("memory folder") && e.contains("--memory"), "{e}");
    }

    #[test]
    fn a_metadata_name_that_is_not_a_file_is_bad_input() {
        let t = tempfile::tempdir().unwrap();
        let live = t.path().join("live");
        write(&live.join("a.md"), "a\n");
        let d = t.path().join("dream");
        write(&d.join("memory/a.md"), "b\n");
        fs::create_dir_all(d.join("memory.diff")).unwrap();
        let e = format!("{:#}", discover(Some(&d), Some(&live), &[]).unwrap_err());
        assert!(e.contains(&format!("{} is a folder", d.join("memory.diff").display())), "{e}");
        fs::remove_dir(d.join("memory.diff")).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(t.path().join("gone"), d.join("memory.diff")).unwrap();
            let e = format!("{:#}", discover(Some(&d), Some(&live), &[]).unwrap_err());
            assert!(e.contains("memory.diff cannot be read"), "{e}");
        }
    }

    #[test]
    fn oversized_changes_md_is_refused_before_it_is_read() {
        let t = tempfile::tempdir().unwrap();
        let live = t.path().join("live");
        write(&live.join("a.md"), "a\n");
        let d = t.path().join("dream");
        write(&d.join("memory/a.md"), "b\n");
        let f = fs::File::create(d.join("CHANGES.md")).unwrap();
        f.set_len(MAX_CHANGES_MD_BYTES).unwrap();
        assert!(discover(Some(&d), Some(&live), &[]).is_ok(), "exactly the limit is read");
        f.set_len(MAX_CHANGES_MD_BYTES + 1).unwrap();
        let e = format!("{:#}", discover(Some(&d), Some(&live), &[]).unwrap_err());
        assert!(e.contains("CHANGES.md is 2.1 MB, more than the 2 MiB"), "{e}");
        assert!(e.contains("move it out of the dream folder"), "{e}");
    }
}
