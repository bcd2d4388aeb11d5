//! The project of the sessions, read only: the git repository holding the folder a session
//! ran in (its transcript's `cwd`), opened through libgit2 (no hooks, no `git` process) and
//! never written — not its index, not its objects, not its config. Everything here answers
//! one question about the repository as it is now: is this path, commit, branch or file
//! there.

use git2::{ObjectType, Oid, Repository, RepositoryOpenFlags, TreeWalkMode, TreeWalkResult};
use std::cell::OnceCell;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The most paths of HEAD listed for the suffix and file-name look-ups: a larger tree is
/// looked up by exact path only.
const MAX_TREE_PATHS: usize = 200_000;

/// The most refs a commit is looked for from.
const MAX_REFS: usize = 2000;

/// How many commits back a missing path is looked for, to say which commit deleted it.
const DELETION_DEPTH: usize = 200;

/// Where a path stands in the project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathState {
    /// In the work tree or in HEAD's tree.
    Present,
    /// In neither; `deleted_in` names the commit (short id) that removed it, when a recent one did.
    Missing {
        /// The short id of the commit whose parent held the path and which does not.
        deleted_in: Option<String>,
    },
}

/// A git repository opened read-only.
pub struct Project {
    repo: Repository,
    root: PathBuf,
    /// Every path of HEAD's tree (files and folders), when it is small enough to list.
    tree: OnceCell<Option<HashSet<String>>>,
}

impl Project {
    /// The repository holding `folder` (searched upward, never up to `$HOME` or above it),
    /// or `None` when there is none, it is the home folder itself (dotfiles kept in git), it
    /// is bare or it cannot be read.
    pub fn open(folder: &Path) -> Option<Project> {
        if !folder.is_dir() {
            return None;
        }
        // A home folder kept in git (dotfiles) is not the project of a session run below it.
        let ceiling: Vec<PathBuf> = std::env::var_os("HOME").map(PathBuf::from).into_iter().collect();
        let repo = Repository::open_ext(folder, RepositoryOpenFlags::empty(), &ceiling).ok()?;
        let root = repo.workdir()?.to_path_buf();
        let root = root.canonicalize().unwrap_or(root);
        let home = ceiling.first().map(|h| h.canonicalize().unwrap_or_else(|_| h.clone()));
        if home.is_some_and(|h| h == root) {
            return None;
        }
        Some(Project { repo, root, tree: OnceCell::new() })
    }

    /// The work tree's root folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// HEAD's commit, abbreviated to 7 digits (`None` on an unborn branch).
    pub fn head(&self) -> Option<String> {
        let oid = self.repo.head().ok()?.peel_to_commit().ok()?.id();
        Some(oid.to_string()[..7].to_string())
    }

    /// True when `rel` (relative to the root, `/`-separated) names a file or folder of the
    /// work tree or of HEAD's tree.
    fn exists(&self, rel: &str) -> bool {
        let rel = rel.trim_end_matches('/');
        if rel.is_empty() || self.root.join(rel).symlink_metadata().is_ok() {
            return true;
        }
        let Some(tree) = self.repo.head().ok().and_then(|h| h.peel_to_tree().ok()) else {
            return false;
        };
        tree.get_path(Path::new(rel)).is_ok()
    }

    /// Where `rel` stands; `ends` also takes a path of HEAD that ends with `/rel` (a path
    /// written from a sub-folder).
    pub fn path(&self, rel: &str, ends: bool) -> PathState {
        let rel = rel.trim_end_matches('/');
        if self.exists(rel) {
            return PathState::Present;
        }
        if ends && let Some(tree) = self.tree() {
            let suffix = format!("/{rel}");
            if tree.iter().any(|p| p.ends_with(&suffix)) {
                return PathState::Present;
            }
        }
        PathState::Missing { deleted_in: self.deleted_in(rel) }
    }

    /// The paths of HEAD's tree, listed once; `None` when over [`MAX_TREE_PATHS`].
    fn tree(&self) -> Option<&HashSet<String>> {
        self.tree
            .get_or_init(|| {
                let tree = self.repo.head().ok()?.peel_to_tree().ok()?;
                let mut out = HashSet::new();
                let mut over = false;
                let _ = tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
                    if out.len() >= MAX_TREE_PATHS {
                        over = true;
                        return TreeWalkResult::Abort;
                    }
                    if let Ok(name) = entry.name() {
                        out.insert(format!("{dir}{name}"));
                    }
                    TreeWalkResult::Ok
                });
                (!over).then_some(out)
            })
            .as_ref()
    }

    /// The paths of HEAD's tree whose file name is `name` (at most `cap`).
    pub fn files_named(&self, name: &str, cap: usize) -> Vec<String> {
        let Some(tree) = self.tree() else {
            return if self.exists(name) { vec![name.to_string()] } else { Vec::new() };
        };
        let suffix = format!("/{name}");
        let mut out: Vec<String> = tree
            .iter()
            .filter(|p| (p.as_str() == name || p.ends_with(&suffix)) && !p.contains("node_modules/"))
            .cloned()
            .collect();
        out.sort_by_key(|p| (p.matches('/').count(), p.clone()));
        out.truncate(cap);
        out
    }

    /// The texts of `rel`: the work tree's file and HEAD's blob (when they differ, both).
    pub fn read(&self, rel: &str) -> Vec<String> {
        let mut out = Vec::new();
        let path = self.root.join(rel);
        // Only a regular file of reasonable size: never follow a FIFO or read a huge blob.
        if let Ok(meta) = std::fs::metadata(&path)
            && meta.is_file()
            && meta.len() < 4 << 20
            && let Ok(bytes) = std::fs::read(&path)
        {
            out.push(String::from_utf8_lossy(&bytes).into_owned());
        }
        let blob = self
            .repo
            .head()
            .ok()
            .and_then(|h| h.peel_to_tree().ok())
            .and_then(|t| t.get_path(Path::new(rel)).ok())
            .filter(|e| e.kind() == Some(ObjectType::Blob))
            .and_then(|e| self.repo.find_blob(e.id()).ok());
        if let Some(blob) = blob.filter(|b| b.size() < 4 << 20) {
            let text = String::from_utf8_lossy(blob.content()).into_owned();
            if !out.contains(&text) {
                out.push(text);
            }
        }
        out
    }

    /// Whether `hex` (7–40 hex digits) names a commit reachable from HEAD or any ref:
    /// `Some(true)` when it does or is ambiguous, `Some(false)` when no object of the
    /// repository has that name or it is reachable from no ref, `None` when the repository
    /// cannot say.
    pub fn commit(&self, hex: &str) -> Option<bool> {
        let obj = match self.repo.revparse_single(hex) {
            Ok(o) => o,
            Err(e) if e.code() == git2::ErrorCode::Ambiguous => return Some(true),
            Err(e) if e.code() == git2::ErrorCode::NotFound => return Some(false),
            Err(_) => return None,
        };
        let Ok(commit) = obj.peel_to_commit() else {
            return Some(false);
        };
        let id = commit.id();
        let refs = self.repo.references().ok()?;
        // A repository with thousands of refs (a tag for every release) is asked about the
        // first MAX_REFS only: past them the answer is "cannot say".
        let all: Vec<_> = refs.flatten().take(MAX_REFS + 1).collect();
        if all.len() > MAX_REFS {
            return None;
        }
        let tips: Vec<Oid> = all.into_iter().filter_map(|r| r.resolve().ok()?.target()).collect();
        let head = self.repo.head().ok().and_then(|h| h.target());
        Some(
            head.into_iter()
                .chain(tips)
                .any(|tip| tip == id || self.repo.graph_descendant_of(tip, id).unwrap_or(false)),
        )
    }

    /// True when a local or remote branch (or tag) is named `name` (`feature/x`,
    /// `origin/feature/x`).
    pub fn branch(&self, name: &str) -> bool {
        let Ok(refs) = self.repo.references() else {
            return true;
        };
        let names: Vec<String> = refs.flatten().filter_map(|r| r.name().ok().map(str::to_string)).collect();
        names.iter().any(|r| {
            r == &format!("refs/heads/{name}")
                || r == &format!("refs/remotes/{name}")
                || r == &format!("refs/tags/{name}")
                || (r.starts_with("refs/remotes/")
                    && r.ends_with(&format!("/{name}"))
                    && r.matches('/').count() == name.matches('/').count() + 3)
        })
    }

    /// The recent commit (first-parent history of HEAD, [`DELETION_DEPTH`] deep) whose
    /// parent's tree holds `rel` and whose tree does not.
    fn deleted_in(&self, rel: &str) -> Option<String> {
        let mut commit = self.repo.head().ok()?.peel_to_commit().ok()?;
        for _ in 0..DELETION_DEPTH {
            let parent = commit.parent(0).ok()?;
            let here = commit.tree().ok()?.get_path(Path::new(rel)).is_ok();
            let before = parent.tree().ok()?.get_path(Path::new(rel)).is_ok();
            if before && !here {
                return Some(commit.id().to_string()[..7].to_string());
            }
            commit = parent;
        }
        None
    }
}
