//! The repository's own rules for what a note's blob is: the blob a commit records for a
//! note is made the way `git add` makes it, through the repository's attributes and
//! configuration (`text`, `eol`, `ident`, `core.autocrlf`: libgit2's built-in filters), and a
//! note whose attributes name a filter driver git would run (`filter=crypt` from git-crypt,
//! `filter=lfs`) is refused: dreamreview runs no programs, and committing its plain text
//! where `git add` stores the driver's output would leak it (git-crypt) or break the
//! repository's contract.
//!
//! The journal keeps the bytes on disk unfiltered (they are what a rollback puts back);
//! only the committed tree holds filtered blobs.

use super::MemoryRepo;
use crate::inputs::snapshot::Entry;
use anyhow::{Context, Result, bail};
use git2::{AttrCheckFlags, AttrValue, Oid};
use std::io::Write;
use std::path::Path;

/// The blob `git add` would store for `entry` at the repository path `repo_path`.
pub fn blob(repo: &MemoryRepo, repo_path: &str, entry: &Entry) -> Result<Oid> {
    let cannot = || format!("cannot store {repo_path} in the git object database");
    match entry {
        Entry::Symlink(t) => repo.repo.blob(t.as_os_str().as_encoded_bytes()).with_context(cannot),
        Entry::File(bytes) if !converts(repo, repo_path) => repo.repo.blob(bytes).with_context(cannot),
        Entry::File(bytes) => {
            let mut w = repo.repo.blob_writer(Some(Path::new(repo_path))).with_context(cannot)?;
            w.write_all(bytes).with_context(cannot)?;
            w.commit().with_context(cannot)
        }
    }
}

/// True when a built-in filter may change the note's bytes on `git add`: `core.autocrlf`
/// is on, or the path has a `text`, `eol`, `crlf`, `ident` or `working-tree-encoding`
/// attribute. (The stream that applies them costs a temp file per note; a plain blob does
/// not.) When in doubt, true.
fn converts(repo: &MemoryRepo, repo_path: &str) -> bool {
    let autocrlf = repo.repo.config().ok().and_then(|c| c.get_string("core.autocrlf").ok());
    if autocrlf.is_some_and(|v| !v.eq_ignore_ascii_case("false")) {
        return true;
    }
    ["text", "eol", "crlf", "ident", "working-tree-encoding"].iter().any(|a| {
        match repo.repo.get_attr(Path::new(repo_path), a, AttrCheckFlags::FILE_THEN_INDEX) {
            Ok(v) => !matches!(AttrValue::from_string(v), AttrValue::Unspecified),
            Err(_) => true,
        }
    })
}

/// Fails, naming the attribute, when a note of `paths` (memory-relative) would go through a
/// filter driver that git runs on `git add` and the repository configures.
pub fn supported(repo: &MemoryRepo, paths: &[String]) -> Result<()> {
    let config = repo.repo.config().context("cannot read the repository's git configuration")?;
    for rel in paths {
        let rp = repo.repo_path(rel);
        let value = repo
            .repo
            .get_attr(Path::new(&rp), "filter", AttrCheckFlags::FILE_THEN_INDEX)
            .with_context(|| format!("cannot read the git attributes of {rp}"))?;
        let AttrValue::String(driver) = AttrValue::from_string(value) else { continue };
        let configured: Vec<String> = ["clean", "process"]
            .iter()
            .map(|k| format!("filter.{driver}.{k}"))
            .filter(|k| config.get_string(k).is_ok_and(|v| !v.trim().is_empty()))
            .collect();
        let required = config.get_bool(&format!("filter.{driver}.required")).unwrap_or(false);
        if configured.is_empty() && !required {
            // Git itself passes a note through a driver it has no command for.
            continue;
        }
        bail!(
            "refusing to write: {rp} has the git attribute `filter={driver}` (from .gitattributes) \
             and the repository configures that driver ({}); `git add` would store what the \
             driver makes of the note, but dreamreview runs no programs, so its commit would store \
             the note's plain text instead. Nothing was written. Review and commit this folder's \
             dreams with git itself, or remove the attribute for the memory folder",
            if configured.is_empty() { format!("filter.{driver}.required") } else { configured.join(", ") }
        );
    }
    Ok(())
}
