//! The memory folder's git repository (git2, vendored libgit2): finding it and reading
//! the notes as `HEAD` has them. Writing, history and revert build on this.
//!
//! - [`apply`]: commit a review (preview of the message, snapshot commit first).
//! - [`baseline`]: `dreamreview snapshot`, the commit of what sessions wrote.
//! - [`history`]: list commits touching the memory folder, diff any of them.
//! - [`revert`]: undo a commit, one file or one hunk of it, as a new commit.
//! - [`commit`], [`journal`], [`write`](mod@write): memory-only commits, crash-safe atomic writes.
//! - [`decisions`]: where a review's saved decisions are kept.
//! - [`load`]: loading a review with the repository's history ([`load_review`]).
//! - [`lock`]: one writer per repository. [`message`]: commit messages and trailers.
//! - [`preflight`]: what must hold before a write (no merge, no git lock, no staged version
//!   lost); [`land`]: the commit made on a `HEAD` that moved meanwhile; [`replaced`]: the old
//!   file of a note a session still writes to; [`holders`]: which processes hold a file open.
//! - [`notes`]: the evidence a review commit keeps, as a git note.
//! - [`blame`]: the commit that introduced each line of a file (first-parent walk).
//! - [`unverifiable`]: the notes whose sources are gone with no kept text (for `audit`).
//! - [`why`](mod@why): the review (or other commit) that wrote a line of a note, with its evidence.

pub mod apply;
pub mod baseline;
pub mod blame;
pub mod commit;
pub mod decisions;
pub mod filtered;
pub mod git_notes;
pub mod git_notes_ref;
pub mod history;
pub mod holders;
pub mod init;
pub mod journal;
pub mod kept;
pub mod land;
pub mod load;
pub mod lock;
pub mod memory_repo;
pub mod message;
pub mod on_disk;
pub mod paths;
pub mod preflight;
pub mod recover;
pub mod replaced;
pub mod revert;
pub mod temp_name;
pub mod tree;
pub mod unverifiable;
pub mod why;
pub mod write;

pub use init::init_with_snapshot;
pub use load::load_review;
pub use memory_repo::{MemoryRepo, short_id, signature};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::snapshot::Entry;
    use git2::Repository;

    #[test]
    fn reads_head_of_a_nested_memory_folder() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        let mem = t.path().join("proj/memory");
        std::fs::create_dir_all(&mem).unwrap();
        std::fs::write(mem.join("a.md"), "committed\n").unwrap();
        std::fs::write(t.path().join("other.txt"), "x").unwrap();
        let mut index = repo.index().unwrap();
        index.add_all(["."], git2::IndexAddOption::DEFAULT, None).unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::now("t", "t@example.com").unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, "init", &tree, &[]).unwrap();
        std::fs::write(mem.join("a.md"), "dreamed\n").unwrap();
        let m = MemoryRepo::discover(&mem).unwrap().unwrap();
        assert_eq!(m.prefix, "proj/memory");
        let head = m.head_snapshot().unwrap();
        assert_eq!(head.keys().collect::<Vec<_>>(), ["a.md"]);
        assert_eq!(head["a.md"], Entry::File(b"committed\n".to_vec()));
    }

    #[test]
    fn a_git_file_keeps_its_work_tree() {
        // `git init --separate-git-dir`: the work tree holds a `.git` file naming the git
        // directory kept elsewhere; paths are relative to the work tree, not that folder.
        let t = tempfile::tempdir().unwrap();
        let store = t.path().join("store.git");
        let repo = Repository::init_bare(&store).unwrap();
        repo.config().unwrap().set_bool("core.bare", false).unwrap();
        let mem = t.path().join("work/memory");
        std::fs::create_dir_all(&mem).unwrap();
        std::fs::write(mem.join(".git"), format!("gitdir: {}\n", store.display())).unwrap();
        let m = MemoryRepo::discover(&mem).unwrap().unwrap();
        assert_eq!(m.prefix, "");
        assert_eq!(m.workdir().canonicalize().unwrap(), mem.canonicalize().unwrap());
        assert_eq!(m.repo_path("a.md"), "a.md");
    }

    #[test]
    fn no_repo_is_none() {
        let t = tempfile::tempdir().unwrap();
        assert!(MemoryRepo::discover(t.path()).unwrap().is_none());
    }
}
