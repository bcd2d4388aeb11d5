//! The evidence a review commit keeps ([`crate::store::evidence`]), stored as a git note on that
//! commit under its own ref, [`NOTES_REF`], so `git log` and other tools leave it alone and
//! `git push origin refs/notes/dreamreview` can share it.
//!
//! The note is written after the commit it annotates, so a crash can leave a commit
//! without a note and never a note without a commit. The journal
//! ([`super::journal`]) carries the note's text until the commit is complete; a run that
//! finds an interrupted commit adds the missing note ([`super::recover::recover`]).

use super::MemoryRepo;
use crate::store::evidence::Evidence;
use anyhow::{Context, Result, anyhow};
use git2::Oid;

pub use super::git_notes_ref::NOTES_REF;

/// Attaches `text` to `commit` (replacing a note already there).
pub fn write(repo: &MemoryRepo, commit: Oid, text: &str) -> Result<()> {
    super::write::crash_point();
    let sig = super::signature(&repo.repo);
    repo.repo
        .note(&sig, &sig, Some(NOTES_REF), commit, text, true)
        .with_context(|| format!("cannot write the evidence note of commit {}", super::short_id(commit)))?;
    Ok(())
}

/// Where evidence notes that could not be written wait: `<gitdir>/dreamreview/evidence-pending/`.
pub fn pending_dir(repo: &MemoryRepo) -> std::path::PathBuf {
    repo.state_dir().join("evidence-pending")
}

/// Keeps `text`, the evidence of `commit` that could not be written as its note, until
/// [`flush_pending`] writes it. Returns the file it is kept in.
pub fn keep_pending(repo: &MemoryRepo, commit: Oid, text: &str) -> Result<std::path::PathBuf> {
    let path = pending_dir(repo).join(format!("{commit}.json"));
    super::write::write_state_file(&path, text.as_bytes())?;
    Ok(path)
}

/// Writes every pending evidence note ([`keep_pending`]) whose commit has none yet, and
/// removes it once written; one sentence per note written or still pending. Never fails:
/// what cannot be written stays pending for the next run.
pub fn flush_pending(repo: &MemoryRepo) -> Vec<String> {
    let dir = pending_dir(repo);
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut said = Vec::new();
    let mut files: Vec<std::path::PathBuf> = entries.flatten().map(|e| e.path()).collect();
    files.sort();
    for path in files {
        let Some(id) = path.file_stem().and_then(|s| s.to_str()).and_then(|s| Oid::from_str(s).ok()) else {
            continue;
        };
        if path.extension().is_none_or(|e| e != "json") || repo.repo.find_commit(id).is_err() {
            continue;
        }
        let done = match read_text(repo, id) {
            Ok(Some(_)) => Ok(false),
            Ok(None) => std::fs::read_to_string(&path)
                .map_err(|e| anyhow!(e).context(format!("cannot read {}", path.display())))
                .and_then(|text| write(repo, id, &text))
                .map(|()| true),
            Err(e) => Err(e),
        };
        match done {
            Ok(added) => {
                let _ = std::fs::remove_file(&path);
                if added {
                    said.push(format!("wrote the pending evidence note of commit {}", super::short_id(id)));
                }
            }
            Err(e) => said.push(format!(
                "the evidence note of commit {} is still pending in {} ({}); it is written by the \
                 next dreamreview command that writes, or `dreamreview recover`",
                super::short_id(id),
                path.display(),
                super::preflight::blocked_by(repo, &e)
            )),
        }
    }
    said
}

/// The note's text on `commit`, if it has one.
pub fn read_text(repo: &MemoryRepo, commit: Oid) -> Result<Option<String>> {
    match repo.repo.find_note(Some(NOTES_REF), commit) {
        Ok(n) => Ok(Some(String::from_utf8_lossy(n.message_bytes()).into_owned())),
        Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
        Err(e) => Err(anyhow!(e).context(format!("cannot read the evidence note of {}", super::short_id(commit)))),
    }
}

/// What a commit's note holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stored {
    /// No note: a commit made before dreamreview kept evidence, or by something else.
    Missing,
    /// A note this version cannot read, and why.
    Unreadable(String),
    /// The evidence.
    Evidence(Box<Evidence>),
}

/// Reads and parses the evidence of `commit`.
pub fn read(repo: &MemoryRepo, commit: Oid) -> Result<Stored> {
    Ok(parse(read_text(repo, commit)?))
}

fn parse(text: Option<String>) -> Stored {
    match text {
        None => Stored::Missing,
        Some(text) => match Evidence::parse(&text) {
            Ok(e) => Stored::Evidence(Box::new(e)),
            Err(why) => Stored::Unreadable(why),
        },
    }
}

/// Every note under [`NOTES_REF`], listed once: reading many commits' evidence through it
/// resolves the ref and reads the notes tree once instead of once per commit.
#[derive(Default)]
pub struct Index {
    /// Annotated commit → its note's blob.
    notes: std::collections::HashMap<Oid, Oid>,
}

impl Index {
    /// Lists the notes (none when the ref does not exist).
    pub fn load(repo: &MemoryRepo) -> Result<Index> {
        let listed = match repo.repo.notes(Some(NOTES_REF)) {
            Ok(l) => l,
            Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(Index::default()),
            Err(e) => return Err(anyhow!(e).context(format!("cannot list the evidence notes ({NOTES_REF})"))),
        };
        let mut notes = std::collections::HashMap::new();
        for pair in listed {
            let (note, commit) = pair.with_context(|| format!("cannot list the evidence notes ({NOTES_REF})"))?;
            notes.insert(commit, note);
        }
        Ok(Index { notes })
    }

    /// Reads and parses the evidence of `commit`, as [`read`] does.
    pub fn read(&self, repo: &MemoryRepo, commit: Oid) -> Result<Stored> {
        let Some(&blob) = self.notes.get(&commit) else { return Ok(Stored::Missing) };
        let blob = repo
            .repo
            .find_blob(blob)
            .with_context(|| format!("cannot read the evidence note of {}", super::short_id(commit)))?;
        Ok(parse(Some(String::from_utf8_lossy(blob.content()).into_owned())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_round_trips_and_a_foreign_one_is_named() {
        let t = tempfile::tempdir().unwrap();
        let r = git2::Repository::init(t.path()).unwrap();
        let sig = git2::Signature::now("t", "t@example.com").unwrap();
        let tree = r.find_tree(r.treebuilder(None).unwrap().write().unwrap()).unwrap();
        let c = r.commit(Some("HEAD"), &sig, &sig, "c", &tree, &[]).unwrap();
        let m = MemoryRepo::discover(t.path()).unwrap().unwrap();
        assert_eq!(read(&m, c).unwrap(), Stored::Missing);
        let e = Evidence {
            format: crate::store::evidence::FORMAT.into(),
            dream: "d".into(),
            dream_id: "x".into(),
            time_zone: "UTC".into(),
            hunks: Vec::new(),
        };
        write(&m, c, &e.to_json()).unwrap();
        assert_eq!(read(&m, c).unwrap(), Stored::Evidence(Box::new(e)));
        write(&m, c, "{\"format\": \"other/9\"}").unwrap();
        assert!(matches!(read(&m, c).unwrap(), Stored::Unreadable(w) if w.contains("other/9")));
        // The note lives under its own ref, not git's default one.
        assert!(r.find_note(None, c).is_err());
    }
}
