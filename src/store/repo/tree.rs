//! A git tree built from a base tree and changes by path: blobs set, paths removed, folders
//! left empty gone.

use anyhow::{Context, Result};
use git2::{ObjectType, Oid, Tree};
use std::collections::BTreeMap;

/// The mode of a folder in a tree.
const MODE_TREE: i32 = 0o040000;

/// A blob id and file mode to put at a path (`None`: remove the path).
pub type TreeValue = Option<(Oid, i32)>;

/// `base` with each `(repo path, Some((blob, mode)) | None)` set or removed; folders left
/// empty disappear. Returns the new root tree.
pub fn build_tree(repo: &git2::Repository, base: Option<&Tree<'_>>, changes: &[(String, TreeValue)]) -> Result<Oid> {
    let refs: Vec<(&str, TreeValue)> = changes.iter().map(|(p, v)| (p.as_str(), *v)).collect();
    match rebuild(repo, base, &refs)? {
        Some(id) => Ok(id),
        None => Ok(repo.treebuilder(None)?.write()?),
    }
}

fn rebuild(repo: &git2::Repository, base: Option<&Tree<'_>>, changes: &[(&str, TreeValue)]) -> Result<Option<Oid>> {
    let mut tb = repo.treebuilder(base)?;
    let mut nested: BTreeMap<&str, Vec<(&str, TreeValue)>> = BTreeMap::new();
    for (path, v) in changes {
        match path.split_once('/') {
            Some((dir, rest)) => nested.entry(dir).or_default().push((rest, *v)),
            None => {
                if tb.get(*path)?.is_some() {
                    tb.remove(*path)?;
                }
                if let Some((oid, mode)) = v {
                    tb.insert(*path, *oid, *mode).with_context(|| format!("cannot put {path} in a tree"))?;
                }
            }
        }
    }
    for (dir, sub) in nested {
        let subtree = match base.and_then(|t| t.get_name(dir)) {
            Some(e) if e.kind() == Some(ObjectType::Tree) => Some(repo.find_tree(e.id())?),
            _ => None,
        };
        let new = rebuild(repo, subtree.as_ref(), &sub)?;
        if tb.get(dir)?.is_some() {
            tb.remove(dir)?;
        }
        if let Some(id) = new {
            tb.insert(dir, id, MODE_TREE)?;
        }
    }
    if tb.is_empty() {
        return Ok(None);
    }
    Ok(Some(tb.write()?))
}
