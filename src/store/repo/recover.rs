//! Finishing or undoing a write a crashed process left behind, from its journal
//! ([`super::journal`], whose docs say what is done in each case).

use super::MemoryRepo;
use super::journal::{Found, Journal, Stage, finish, journal_path, journaled_commit, list, load_blob, read, stage};
use super::write;
use crate::inputs::snapshot::Entry;
use anyhow::{Context, Result, bail};
use std::path::PathBuf;

/// Finishes or undoes a write a crashed process left behind (see [`super::journal`]).
/// Returns one sentence saying what was done, or `None` when there was nothing to do.
/// Evidence notes left pending by an earlier run are written too
/// ([`super::git_notes::flush_pending`]). Call it under the repository lock, before loading a
/// review.
pub fn recover(repo: &MemoryRepo) -> Result<Option<String>> {
    let done = recover_journal(repo)?;
    let noted = super::git_notes::flush_pending(repo);
    let all: Vec<String> = done.into_iter().chain(noted).collect();
    Ok((!all.is_empty()).then(|| all.join("; ")))
}

fn recover_journal(repo: &MemoryRepo) -> Result<Option<String>> {
    let path = journal_path(repo);
    let j = match read(repo)? {
        None => return Ok(None),
        Some(Found::Readable(j)) => j,
        Some(Found::Unreadable(e)) => bail!(
            "{} is not a journal dreamreview can read ({e}); check the memory folder with \
             `git status`, then delete it",
            path.display()
        ),
    };
    let who = format!("an interrupted {} (pid {}, started {})", j.action, j.pid, super::lock::format_time(j.started));
    match stage(repo, &j)? {
        Stage::Uncommitted { written, foreign, .. } => roll_back(repo, &j, &written, &foreign, &who, None).map(Some),
        Stage::HeadMoved { written, foreign, journaled, head, .. } => {
            let moved = format!(
                "HEAD moved since ({} → {}) by something else and the commit is not in its history",
                journaled.as_deref().map(super::short_id).unwrap_or_else(|| "no commit".into()),
                head.as_deref().map(super::short_id).unwrap_or_else(|| "no commit".into())
            );
            roll_back(repo, &j, &written, &foreign, &who, Some(&moved)).map(Some)
        }
        Stage::Committed { commit } => complete_index(repo, &j, &commit, &who).map(Some),
        Stage::Unreadable { reason } => bail!("{}: {reason}", path.display()),
    }
}

/// The commit was never made: puts every written note back to its old content; a note
/// edited since gets its old text back with an append carried onto it, any other edit is
/// left and named.
fn roll_back(
    repo: &MemoryRepo,
    j: &Journal,
    written: &[String],
    foreign: &[String],
    who: &str,
    why: Option<&str>,
) -> Result<String> {
    let (mut left, mut strays) = (Vec::new(), Vec::new());
    for f in j.files.iter().filter(|f| written.contains(&f.path) || foreign.contains(&f.path)) {
        let (old, new) = (load_blob(repo, &f.old)?, load_blob(repo, &f.new)?);
        let (old, new) = (old.as_ref().and_then(Entry::bytes), new.as_ref().and_then(Entry::bytes));
        if foreign.contains(&f.path) {
            match super::commit::put_back_under_edit(repo, &f.path, new, old) {
                Some(stray) => strays.extend(stray),
                None => left.push(f.path.clone()),
            }
            continue;
        }
        let stray = write::put_settled(&repo.memory, &f.path, new, old, &[])
            .with_context(|| format!("while rolling back {who}"))?;
        strays.extend(stray);
    }
    let stays = finish_up(repo, j)?;
    let n = written.len() + foreign.len() - left.len();
    let why = why.map(|w| format!("{w}, so ")).unwrap_or_else(|| "the commit was never made, so ".into());
    let kept = if left.is_empty() {
        String::new()
    } else {
        format!(
            "; {} changed after it was written and {} left as {} now (check with `git diff`)",
            list(&left),
            if left.len() == 1 { "is" } else { "are" },
            if left.len() == 1 { "it is" } else { "they are" }
        )
    };
    let kept = strays.iter().fold(kept, |acc, s| format!("{acc}; {s}")) + &kept_files(&stays);
    Ok(format!(
        "rolled back {who}: {why}{n} note{} put back as {} before it{kept}",
        if n == 1 { " was" } else { "s were" },
        if n == 1 { "it was" } else { "they were" }
    ))
}

/// The commit was made: only the index is left to update, to the blobs `HEAD` has for the
/// journaled paths (the commit's, unless a later commit changed them), and the evidence
/// note to add.
fn complete_index(repo: &MemoryRepo, j: &Journal, commit: &str, who: &str) -> Result<String> {
    let head_tree = repo.head_commit()?.map(|c| c.tree()).transpose().context("cannot read HEAD's tree")?;
    let mut updates = Vec::new();
    for f in &j.files {
        let rp = repo.repo_path(&f.path);
        let now = head_tree.as_ref().and_then(|t| t.get_path(std::path::Path::new(&rp)).ok());
        updates.push((rp, now.map(|e| (e.id(), e.filemode()))));
    }
    super::commit::update_index(repo, &updates)?;
    let noted = add_missing_note(repo, j)?;
    let stays = finish_up(repo, j)?;
    let noted = if noted { " and its evidence note added" } else { "" };
    Ok(format!("completed {who}: its commit {commit} was made; the index is now updated{noted}{}", kept_files(&stays)))
}

/// Attaches the journaled evidence note to the interrupted commit when it has none yet;
/// true when it did.
fn add_missing_note(repo: &MemoryRepo, j: &Journal) -> Result<bool> {
    let Some(text) = &j.note else { return Ok(false) };
    let Some(id) = journaled_commit(repo, j)? else { return Ok(false) };
    if super::git_notes::read_text(repo, id)?.is_some() {
        return Ok(false);
    }
    super::git_notes::write(repo, id, text)?;
    Ok(true)
}

/// Removes the temp files the interrupted write may have left, and the old files it kept
/// that nothing was written to since ([`super::replaced::clean_left`]), then the journal.
/// Returns the kept files that stay (something wrote to them): to be named.
fn finish_up(repo: &MemoryRepo, j: &Journal) -> Result<Vec<PathBuf>> {
    let paths: Vec<String> = j.files.iter().map(|f| f.path.clone()).collect();
    write::clean_temp_files(&repo.memory, &paths);
    let mut known = Vec::new();
    for f in &j.files {
        for b in [&f.old, &f.new] {
            if let Some(Entry::File(bytes)) = load_blob(repo, b)? {
                known.push(bytes);
            }
        }
    }
    let left = super::replaced::clean_left(&repo.memory, &paths, &known);
    finish(repo)?;
    Ok(left)
}

/// `; <file> and … are kept: …` for old files something wrote to after an interrupted
/// write replaced them.
fn kept_files(left: &[PathBuf]) -> String {
    if left.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = left.iter().map(|p| p.display().to_string()).collect();
    format!(
        "; {} (a note's old file that another process wrote to after it was replaced) {} kept: \
         compare with the note and copy what is missing",
        list(&shown),
        if left.len() == 1 { "is" } else { "are" }
    )
}

#[cfg(test)]
mod tests {
    use super::super::commit::{Change, commit_changes};
    use super::super::journal::*;
    use super::*;
    use crate::inputs::snapshot::Entry;
    use git2::Repository;
    use std::path::Path;

    fn setup() -> (tempfile::TempDir, MemoryRepo) {
        let t = tempfile::tempdir().unwrap();
        let r = Repository::init(t.path()).unwrap();
        std::fs::write(t.path().join("a.md"), "v1\n").unwrap();
        let mut index = r.index().unwrap();
        index.add_path(Path::new("a.md")).unwrap();
        index.write().unwrap();
        let tree = r.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::now("t", "t@example.com").unwrap();
        r.commit(Some("HEAD"), &sig, &sig, "init", &tree, &[]).unwrap();
        let m = MemoryRepo::discover(t.path()).unwrap().unwrap();
        (t, m)
    }

    fn file(s: &str) -> Entry {
        Entry::File(s.as_bytes().to_vec())
    }

    fn journal(m: &MemoryRepo, head: Option<String>, tree: String) -> Journal {
        Journal {
            version: 1,
            action: "dream review".into(),
            pid: 1,
            started: 0,
            head,
            tree,
            files: vec![JournalFile {
                path: "a.md".into(),
                old: Some(store(m, &file("v1\n")).unwrap()),
                new: Some(store(m, &file("v2\n")).unwrap()),
            }],
            note: None,
        }
    }

    fn head(m: &MemoryRepo) -> git2::Commit<'_> {
        m.head_commit().unwrap().unwrap()
    }

    #[test]
    fn an_unreadable_journal_is_described_not_trusted() {
        let (_t, m) = setup();
        write::write_state_file(&journal_path(&m), b"{not json").unwrap();
        let found = pending(&m).unwrap().unwrap();
        assert!(matches!(found.stage, Stage::Unreadable { .. }) && found.writer.is_none());
        assert!(found.describe().contains("is not a journal dreamreview can read"), "{}", found.describe());
        assert!(recover(&m).is_err());
    }

    #[test]
    fn no_journal_is_nothing_to_do() {
        let (_t, m) = setup();
        assert_eq!(recover(&m).unwrap(), None);
        assert_eq!(pending(&m).unwrap(), None);
    }

    #[test]
    fn an_uncommitted_write_is_rolled_back() {
        let (t, m) = setup();
        let h = head(&m);
        let j = journal(&m, Some(h.id().to_string()), h.tree_id().to_string());
        begin(&m, &j).unwrap();
        assert!(pending(&m).unwrap().is_some());
        assert!(begin(&m, &j).is_err(), "one journal at a time");
        std::fs::write(t.path().join("a.md"), "v2\n").unwrap();
        std::fs::write(t.path().join(".a.md.dreamreview-1-0.tmp"), "v2").unwrap();
        let found = pending(&m).unwrap().unwrap();
        let want = Stage::Uncommitted { written: vec!["a.md".into()], untouched: vec![], foreign: vec![] };
        assert_eq!(found.stage, want);
        let said = found.describe();
        assert!(said.starts_with("a dream review (pid 1, started 1970-01-01 00:00:00 UTC) stopped after writing 1 of 1 note (a.md); the commit was never made."), "{said}");
        assert!(said.contains("puts that note back as it was before it"), "{said}");
        assert_eq!(std::fs::read_to_string(t.path().join("a.md")).unwrap(), "v2\n", "pending changes nothing");
        let msg = recover(&m).unwrap().unwrap();
        assert!(msg.starts_with("rolled back an interrupted dream review (pid 1, started 1970-01-01"), "{msg}");
        assert!(msg.ends_with("so 1 note was put back as it was before it"), "{msg}");
        assert_eq!(std::fs::read_to_string(t.path().join("a.md")).unwrap(), "v1\n");
        assert!(!t.path().join(".a.md.dreamreview-1-0.tmp").exists());
        assert_eq!(pending(&m).unwrap(), None);
    }

    #[test]
    fn foreign_content_is_never_overwritten() {
        let (t, m) = setup();
        let h = head(&m);
        begin(&m, &journal(&m, Some(h.id().to_string()), h.tree_id().to_string())).unwrap();
        std::fs::write(t.path().join("a.md"), "someone else\n").unwrap();
        let said = pending(&m).unwrap().unwrap().describe();
        assert!(
            said.contains("a.md now holds content dreamreview did not write") && said.contains("leaves any other edit"),
            "{said}"
        );
        let done = recover(&m).unwrap().unwrap();
        assert!(done.contains("a.md changed after it was written and is left as it is now"), "{done}");
        assert_eq!(std::fs::read_to_string(t.path().join("a.md")).unwrap(), "someone else\n");
        assert_eq!(pending(&m).unwrap(), None, "the journal is finished with");
    }

    #[test]
    fn an_append_made_after_the_write_is_carried_onto_the_old_text() {
        let (t, m) = setup();
        let h = head(&m);
        begin(&m, &journal(&m, Some(h.id().to_string()), h.tree_id().to_string())).unwrap();
        std::fs::write(t.path().join("a.md"), "v2\nsession\n").unwrap();
        let done = recover(&m).unwrap().unwrap();
        assert!(done.contains("1 note was put back"), "{done}");
        assert_eq!(std::fs::read_to_string(t.path().join("a.md")).unwrap(), "v1\nsession\n");
    }

    #[test]
    fn a_made_commit_gets_its_index_updated() {
        let (t, m) = setup();
        let before = head(&m).id();
        let c = Change { path: "a.md".into(), disk: Some(file("v1\n")), new: Some(file("v2\n")) };
        commit_changes(&m, "dream review", "msg\n", &[c], &[], None).unwrap();
        assert_eq!(pending(&m).unwrap(), None);
        // Simulate a crash after the commit: journal still there, index still old.
        let after = head(&m);
        assert_eq!(after.parent_id(0).unwrap(), before);
        begin(&m, &journal(&m, Some(before.to_string()), after.tree_id().to_string())).unwrap();
        let mut index = m.repo.index().unwrap();
        let mut e = index.get_path(Path::new("a.md"), 0).unwrap();
        e.id = m.repo.blob(b"v1\n").unwrap();
        index.add(&e).unwrap();
        index.write().unwrap();
        let found = pending(&m).unwrap().unwrap();
        assert_eq!(found.stage, Stage::Committed { commit: crate::store::repo::short_id(after.id()) });
        assert!(found.describe().contains("updates the index"), "{}", found.describe());
        let msg = recover(&m).unwrap().unwrap();
        assert!(msg.contains("its commit") && msg.contains("index is now updated"), "{msg}");
        let index = m.repo.index().unwrap();
        assert_eq!(index.get_path(Path::new("a.md"), 0).unwrap().id, m.repo.blob(b"v2\n").unwrap());
        assert_eq!(std::fs::read_to_string(t.path().join("a.md")).unwrap(), "v2\n");
    }

    #[test]
    fn a_write_under_a_moved_head_is_rolled_back() {
        let (_t, m) = setup();
        let tree = head(&m).tree_id().to_string();
        begin(&m, &journal(&m, Some("0".repeat(40)), tree)).unwrap();
        std::fs::write(m.memory.join("a.md"), "v2\n").unwrap();
        assert!(matches!(pending(&m).unwrap().unwrap().stage, Stage::HeadMoved { .. }));
        let done = recover(&m).unwrap().unwrap();
        assert!(done.contains("HEAD moved since") && done.contains("1 note was put back"), "{done}");
        assert_eq!(std::fs::read_to_string(m.memory.join("a.md")).unwrap(), "v1\n");
        assert_eq!(pending(&m).unwrap(), None);
    }
}
