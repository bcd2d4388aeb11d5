//! Where a note may be written: a memory-relative path checked before anything is
//! written (inside the memory folder, no `..`, no hidden component, no symlink on the way,
//! not in a forbidden folder, not read-only).

use crate::inputs::snapshot::is_hidden;
use std::path::{Path, PathBuf};

/// Checks that a memory-relative note path may be written and returns the absolute target.
/// `memory` must be canonical (as [`super::MemoryRepo::memory`] is); `forbidden` lists
/// folders that must never be written (the dream, the proposal, transcript folders). The
/// error is one sentence saying why the path is refused.
pub fn target(memory: &Path, rel: &str, forbidden: &[PathBuf]) -> Result<PathBuf, String> {
    let parts = components(rel)?;
    let mut cur = memory.to_path_buf();
    let last = parts.len().saturating_sub(1);
    let mut exists = true;
    for (i, part) in parts.iter().enumerate() {
        cur.push(part);
        if !exists {
            continue;
        }
        match std::fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(format!("{} is a symlink; dreamreview never writes through symlinks", shown(memory, &cur)));
            }
            Ok(m) if i < last && !m.is_dir() => {
                return Err(format!("{} is not a folder", shown(memory, &cur)));
            }
            Ok(m) if i == last && m.is_dir() => {
                return Err(format!("{} is a folder, not a note", shown(memory, &cur)));
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => exists = false,
            Err(e) => return Err(format!("cannot inspect {}: {e}", cur.display())),
        }
    }
    for f in forbidden {
        let f = f.canonicalize().unwrap_or_else(|_| f.clone());
        if cur.starts_with(&f) {
            return Err(format!("{} is inside {}, which dreamreview never modifies", rel, f.display()));
        }
    }
    Ok(cur)
}

/// Checks that the note at `rel` may be replaced or removed without overriding a
/// permission the user set: the file, if it exists, must not be read-only, and the folder
/// it is in (or the nearest existing one above) must not be either, whatever the process
/// could force (root ignores permission bits). Call it after [`target`] accepted the path.
/// The error is one sentence naming the path.
pub fn writable(memory: &Path, rel: &str) -> Result<(), String> {
    let path = memory.join(rel);
    if let Ok(m) = std::fs::symlink_metadata(&path)
        && m.is_file()
        && m.permissions().readonly()
    {
        return Err(format!("{rel} is read-only"));
    }
    let mut dir = path.parent();
    while let Some(d) = dir {
        if let Ok(m) = std::fs::metadata(d) {
            if m.permissions().readonly() {
                return Err(format!("the folder {} holding {rel} is read-only", d.display()));
            }
            break;
        }
        if d == memory {
            break;
        }
        dir = d.parent();
    }
    Ok(())
}

/// Splits a note path into components, refusing anything that could leave the folder or
/// touch a non-note: empty, absolute, `.`/`..`, hidden (`.git`), backslashes, NUL.
fn components(rel: &str) -> Result<Vec<&str>, String> {
    if rel.is_empty() {
        return Err("empty note path".into());
    }
    if rel.contains('\0') || rel.contains('\\') {
        return Err(format!("{rel:?} contains a NUL or backslash; not a note path dreamreview writes"));
    }
    let parts: Vec<&str> = rel.split('/').collect();
    for p in &parts {
        if p.is_empty() {
            return Err(format!("{rel} is absolute or has an empty component; it would leave the memory folder"));
        }
        if *p == "." || *p == ".." {
            return Err(format!("{rel} contains `{p}`; it would leave the memory folder"));
        }
        if is_hidden(p) {
            return Err(format!("{rel} has a hidden component ({p}); hidden files are not notes"));
        }
    }
    Ok(parts)
}

fn shown(memory: &Path, p: &Path) -> String {
    p.strip_prefix(memory).map(|r| r.display().to_string()).unwrap_or_else(|_| p.display().to_string())
}
