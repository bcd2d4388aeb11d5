//! The memory folder's repository: finding it from the folder, its work tree and state
//! folder, and `HEAD` or any tree read as a snapshot of the notes; the commit signature
//! and the short form of a commit id.

use crate::inputs::snapshot::{Entry, Snapshot, is_hidden};
use anyhow::{Context, Result, anyhow, bail};
use git2::{ObjectType, Repository, TreeWalkMode, TreeWalkResult};
use std::path::{Path, PathBuf};

/// A memory folder inside a git work tree.
pub struct MemoryRepo {
    /// The open repository.
    pub repo: Repository,
    /// The memory folder (absolute).
    pub memory: PathBuf,
    /// The memory folder relative to the work tree root, '/'-separated ("" at the root).
    pub prefix: String,
}

impl MemoryRepo {
    /// Finds the repository holding `memory` (the folder itself or a parent). `Ok(None)`
    /// when there is none.
    pub fn discover(memory: &Path) -> Result<Option<MemoryRepo>> {
        let memory =
            memory.canonicalize().with_context(|| format!("cannot resolve memory folder {}", memory.display()))?;
        // `open_ext` searches upward like `git` does and keeps the work tree a `.git` file
        // names (`git init --separate-git-dir`); `Repository::discover` reopens the git
        // directory alone and takes its parent for the work tree.
        let repo = match Repository::open_ext(&memory, git2::RepositoryOpenFlags::empty(), &[] as &[&std::ffi::OsStr]) {
            Ok(r) => r,
            Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(None),
            Err(e) => {
                return Err(anyhow!(e).context(format!("cannot open the git repository of {}", memory.display())));
            }
        };
        let Some(workdir) = repo.workdir() else {
            bail!("{} is inside a bare git repository; dreamreview needs a work tree", memory.display());
        };
        let workdir = workdir.canonicalize().with_context(|| format!("cannot resolve {}", workdir.display()))?;
        let rel = memory
            .strip_prefix(&workdir)
            .map_err(|_| anyhow!("{} is not inside the work tree {}", memory.display(), workdir.display()))?;
        let prefix = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        Ok(Some(MemoryRepo { repo, memory, prefix }))
    }

    /// The work tree root (absolute).
    pub fn workdir(&self) -> PathBuf {
        self.repo.workdir().map(Path::to_path_buf).unwrap_or_else(|| self.memory.clone())
    }

    /// dreamreview's own folder inside the git directory (`<gitdir>/dreamreview`): the
    /// lock, the journal and saved decisions live there, never in the work tree.
    pub fn state_dir(&self) -> PathBuf {
        self.repo.path().join("dreamreview")
    }

    /// The commit `HEAD` points to; `None` while the branch is unborn (no commit yet).
    pub fn head_commit(&self) -> Result<Option<git2::Commit<'_>>> {
        match self.repo.head() {
            Ok(h) => Ok(Some(h.peel_to_commit().context("cannot read HEAD's commit")?)),
            Err(e) if e.code() == git2::ErrorCode::UnbornBranch || e.code() == git2::ErrorCode::NotFound => Ok(None),
            Err(e) => {
                Err(anyhow!(e).context(format!("cannot read HEAD of the repository of {}", self.memory.display())))
            }
        }
    }

    /// The memory folder's subtree in a commit tree (`None`: the folder is not there).
    pub fn memory_tree<'r>(&'r self, tree: &git2::Tree<'r>) -> Result<Option<git2::Tree<'r>>> {
        if self.prefix.is_empty() {
            return Ok(Some(tree.clone()));
        }
        match tree.get_path(Path::new(&self.prefix)) {
            Ok(e) if e.kind() == Some(ObjectType::Tree) => Ok(Some(self.repo.find_tree(e.id())?)),
            _ => Ok(None),
        }
    }

    /// Repository-relative path of a memory-relative note path.
    pub fn repo_path(&self, rel: &str) -> String {
        if self.prefix.is_empty() { rel.to_string() } else { format!("{}/{rel}", self.prefix) }
    }

    /// The memory folder's notes as `HEAD` has them (hidden names skipped, symlinks as
    /// targets). An unborn `HEAD` (no commit yet) is an error saying what to do.
    pub fn head_snapshot(&self) -> Result<Snapshot> {
        let head = self.repo.head().map_err(|_| {
            anyhow!(
                "the repository of {} has no commit yet, so there is no HEAD to review against; \
                 commit the notes first",
                self.memory.display()
            )
        })?;
        let tree = head.peel_to_tree().context("cannot read HEAD's tree")?;
        self.tree_snapshot(&tree)
    }

    /// The memory folder's notes in any commit tree.
    pub fn tree_snapshot(&self, tree: &git2::Tree<'_>) -> Result<Snapshot> {
        let sub = if self.prefix.is_empty() {
            tree.clone()
        } else {
            match tree.get_path(Path::new(&self.prefix)) {
                Ok(e) if e.kind() == Some(ObjectType::Tree) => self.repo.find_tree(e.id())?,
                _ => return Ok(Snapshot::new()),
            }
        };
        let mut out = Snapshot::new();
        let mut failure: Option<anyhow::Error> = None;
        sub.walk(TreeWalkMode::PreOrder, |dir, entry| {
            let Ok(name) = entry.name() else {
                return TreeWalkResult::Skip;
            };
            if is_hidden(name) {
                return TreeWalkResult::Skip;
            }
            if entry.kind() != Some(ObjectType::Blob) {
                return TreeWalkResult::Ok;
            }
            let rel = format!("{dir}{name}");
            match self.repo.find_blob(entry.id()) {
                Ok(blob) => {
                    let bytes = blob.content().to_vec();
                    let e = if entry.filemode() == 0o120000 {
                        Entry::Symlink(PathBuf::from(String::from_utf8_lossy(&bytes).into_owned()))
                    } else {
                        Entry::File(bytes)
                    };
                    out.insert(rel, e);
                    TreeWalkResult::Ok
                }
                Err(e) => {
                    failure = Some(anyhow!(e).context(format!("cannot read {rel} from git")));
                    TreeWalkResult::Abort
                }
            }
        })
        .ok();
        match failure {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }
}

/// The commit signature: the repository's `user.name`/`user.email`, or
/// `dreamreview <dreamreview@localhost>` when they are not configured.
pub fn signature(repo: &Repository) -> git2::Signature<'static> {
    repo.signature()
        .map(|s| s.to_owned())
        .or_else(|_| git2::Signature::now("dreamreview", "dreamreview@localhost"))
        .unwrap_or_else(|_| {
            git2::Signature::new("dreamreview", "dreamreview@localhost", &git2::Time::new(0, 0))
                .expect("static signature is valid")
        })
}

/// The short form of a commit id shown to people (its first 7 characters).
pub fn short_id(id: impl std::fmt::Display) -> String {
    let s = id.to_string();
    s.get(..7).unwrap_or(&s).to_string()
}
