//! A note as `why` reads it: its name as given made memory-relative, its bytes on disk,
//! its lines, and its lines as shown (masked, one line each).

use super::super::MemoryRepo;
use super::super::message::one_line;
use anyhow::{Context, Result, bail};
use std::path::Path;

/// `./a.md`, `proj/memory/a.md` (repository-relative) and `a.md` name the same note.
pub(super) fn normalise(repo: &MemoryRepo, note: &str) -> String {
    let p = note.trim_start_matches("./").replace('\\', "/");
    if !repo.prefix.is_empty()
        && let Some(rest) = p.strip_prefix(&format!("{}/", repo.prefix))
        && repo.memory.join(rest).is_file()
    {
        return rest.to_string();
    }
    p
}

/// The note's bytes on disk; an error names it and the folder.
pub(super) fn read_note(repo: &MemoryRepo, note: &str) -> Result<Vec<u8>> {
    let inside = !note.is_empty()
        && Path::new(note).components().all(|c| matches!(c, std::path::Component::Normal(_)))
        && !crate::inputs::snapshot::is_hidden(note.rsplit('/').next().unwrap_or(note));
    let path = repo.memory.join(note);
    if !inside || !path.is_file() {
        bail!(
            "no note {} in the memory folder {} (give its path relative to that folder, e.g. MEMORY.md)",
            one_line(note),
            repo.memory.display()
        );
    }
    std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))
}

/// The note's lines, terminators stripped.
pub(super) fn split_lines(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    crate::base::text::split_lines(&text).iter().map(|l| crate::base::text::strip_terminator(l).to_string()).collect()
}

/// Lines as shown: masked as one text (a key spanning lines leaves no piece on any line),
/// one line each, control characters visible.
pub(super) fn shown_lines(texts: &[String]) -> Vec<String> {
    // Each with its line break back: lines glued together are not the note's text.
    let lines: Vec<String> = texts.iter().map(|t| format!("{t}\n")).collect();
    crate::base::secrets::mask_lines(&lines)
        .iter()
        .map(|l| crate::base::text::visible_controls(crate::base::text::strip_terminator(l)).into_owned())
        .collect()
}
