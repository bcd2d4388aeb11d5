//! Making a memory folder that is not under git a repository, its notes committed as
//! they are.

use super::filtered;
use super::memory_repo::{MemoryRepo, signature};
use anyhow::{Context, Result, anyhow};
use git2::Repository;
use std::path::Path;

/// Makes `memory` a git repository and commits its notes as they are (nothing changed,
/// nothing lost). Hidden files are not committed.
pub fn init_with_snapshot(memory: &Path) -> Result<MemoryRepo> {
    let git_dir = memory.join(".git");
    let existed = git_dir.symlink_metadata().is_ok();
    let repo = Repository::init(memory).with_context(|| format!("cannot git init {}", memory.display()))?;
    {
        crate::inputs::limits::check_folder(memory)?;
        let snap = crate::inputs::snapshot::read_folder(memory)?;
        // A filter driver the notes' attributes name (global configuration counts) would be
        // skipped by libgit2: refused as for any commit, and the repository just made goes.
        let fresh = MemoryRepo { repo: Repository::open(memory)?, memory: memory.to_path_buf(), prefix: String::new() };
        if let Err(e) = filtered::supported(&fresh, &snap.keys().cloned().collect::<Vec<_>>()) {
            if !existed {
                let _ = std::fs::remove_dir_all(&git_dir);
            }
            return Err(e);
        }
        let mut index = repo.index().context("cannot open the new repository's index")?;
        for rel in snap.keys() {
            index.add_path(Path::new(rel)).with_context(|| format!("cannot stage {rel}"))?;
        }
        index.write().context("cannot write the index")?;
        let tree = repo.find_tree(index.write_tree().context("cannot write tree")?)?;
        let sig = signature(&repo);
        repo.commit(Some("HEAD"), &sig, &sig, "memory: notes as they were before dreamreview", &tree, &[])
            .context("cannot create the first commit")?;
    }
    MemoryRepo::discover(memory)?.ok_or_else(|| anyhow!("{} is not a repository after git init", memory.display()))
}
