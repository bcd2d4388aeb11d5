//! What a path of a memory folder is: hidden, an index (`MEMORY.md`), a daily note named
//! by its date, an all-caps workspace file, or a memory note.

use super::memory_index;
use crate::base::date::Date;

/// Whether any component of `path` is hidden (`.git/…`, `.obsidian/…`, `.draft.md`).
pub fn is_hidden(path: &str) -> bool {
    path.split('/').any(|c| c.starts_with('.'))
}

pub(super) fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

pub(super) fn parent_dir(path: &str) -> &str {
    path.rfind('/').and_then(|i| path.get(..i)).unwrap_or("")
}

pub(super) fn md_stem(name: &str) -> Option<&str> {
    let cut = name.len().checked_sub(3)?;
    let ext = name.get(cut..)?;
    ext.eq_ignore_ascii_case(".md").then(|| name.get(..cut)).flatten()
}

/// Whether `path` is an index (`MEMORY.md` at the root or in a subfolder).
pub fn is_index(path: &str) -> bool {
    file_name(path) == memory_index::INDEX_FILE
}

/// Whether `path` is a daily note named by its date (`2026-06-02.md`, `2026-06-02-1406.md`).
pub fn is_daily_note(path: &str) -> bool {
    let Some(stem) = md_stem(file_name(path)) else {
        return false;
    };
    Date::parse_iso_prefix(stem).is_some()
        && stem.get(10..).is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '_', 'T', ' ']))
}

/// Whether `path` is an all-caps workspace file (`AGENTS.md`, `CLAUDE.md`, `USER.md`…):
/// a stem of four or more upper-case letters, digits, `_` or `-`.
pub fn is_workspace_file(path: &str) -> bool {
    md_stem(file_name(path)).is_some_and(|stem| {
        stem.len() >= 4
            && stem.bytes().any(|c| c.is_ascii_uppercase())
            && stem.bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_' || c == b'-')
    })
}

/// Whether `path` is a memory note: a `.md` file that is not hidden, not an index, not a
/// daily note, not a workspace file and not under a top-level `logs/` or `sessions/`.
pub fn is_note(path: &str) -> bool {
    md_stem(file_name(path)).is_some()
        && !is_hidden(path)
        && !is_index(path)
        && !is_daily_note(path)
        && !is_workspace_file(path)
        && !path.starts_with("logs/")
        && !path.starts_with("sessions/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn note_classification() {
        assert!(is_note("testing.md"));
        assert!(is_note("team/deploy.md"));
        assert!(is_note("API.md"));
        assert!(!is_note("MEMORY.md"));
        assert!(!is_note("team/MEMORY.md"));
        assert!(!is_note("memory/2026-06-02.md"));
        assert!(!is_note("memory/2026-06-02-1406.md"));
        assert!(!is_note("AGENTS.md"));
        assert!(!is_note("SOUL.md"));
        assert!(!is_note(".git/notes.md"));
        assert!(!is_note("logs/2026/06/02/abc-title.md"));
        assert!(!is_note("notes.txt"));
        assert!(is_note("2026-13-45-ideas.md"));
        assert!(is_note("メモ.md"));
    }
}
