//! The bundled demo: a small Claude Code project (live memory, transcripts, a sub-agent)
//! and the dream a night's run proposed for it, embedded in the binary so `dreamreview demo`
//! works from any directory. It is written to a temp folder and its memory made a real git
//! repository, exactly like a user's.

use crate::store::repo;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The live folder as `memory.diff` names it on the machine where the demo dream ran.
const DREAMED_LIVE: &str = "/home/dev/.claude/projects/-home-dev-ledger/memory";

/// Every demo file, relative to `assets/demo/`.
pub const FILES: &[(&str, &[u8])] = &[
    ("dream-2026-11-28/CHANGES.md", include_bytes!("../../assets/demo/dream-2026-11-28/CHANGES.md")),
    ("dream-2026-11-28/memory.diff", include_bytes!("../../assets/demo/dream-2026-11-28/memory.diff")),
    ("dream-2026-11-28/memory/MEMORY.md", include_bytes!("../../assets/demo/dream-2026-11-28/memory/MEMORY.md")),
    ("dream-2026-11-28/memory/ci.md", include_bytes!("../../assets/demo/dream-2026-11-28/memory/ci.md")),
    ("dream-2026-11-28/memory/database.md", include_bytes!("../../assets/demo/dream-2026-11-28/memory/database.md")),
    ("dream-2026-11-28/memory/deploy.md", include_bytes!("../../assets/demo/dream-2026-11-28/memory/deploy.md")),
    ("dream-2026-11-28/memory/review-ja.md", include_bytes!("../../assets/demo/dream-2026-11-28/memory/review-ja.md")),
    ("dream-2026-11-28/memory/testing.md", include_bytes!("../../assets/demo/dream-2026-11-28/memory/testing.md")),
    ("dream-2026-11-28/run.log", include_bytes!("../../assets/demo/dream-2026-11-28/run.log")),
    (
        "project/3f1c9a52-7d4e-4b8a-9c1e-5a2f8e6d4b71.jsonl",
        include_bytes!("../../assets/demo/project/3f1c9a52-7d4e-4b8a-9c1e-5a2f8e6d4b71.jsonl"),
    ),
    (
        "project/8b2d4e6f-1a3c-4e5f-8a7b-9c0d1e2f3a4b.jsonl",
        include_bytes!("../../assets/demo/project/8b2d4e6f-1a3c-4e5f-8a7b-9c0d1e2f3a4b.jsonl"),
    ),
    (
        "project/8b2d4e6f-1a3c-4e5f-8a7b-9c0d1e2f3a4b/subagents/agent-a1b2c3d.jsonl",
        include_bytes!("../../assets/demo/project/8b2d4e6f-1a3c-4e5f-8a7b-9c0d1e2f3a4b/subagents/agent-a1b2c3d.jsonl"),
    ),
    (
        "project/c4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70.jsonl",
        include_bytes!("../../assets/demo/project/c4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70.jsonl"),
    ),
    ("project/memory/MEMORY.md", include_bytes!("../../assets/demo/project/memory/MEMORY.md")),
    ("project/memory/ci.md", include_bytes!("../../assets/demo/project/memory/ci.md")),
    ("project/memory/database.md", include_bytes!("../../assets/demo/project/memory/database.md")),
    ("project/memory/deploy.md", include_bytes!("../../assets/demo/project/memory/deploy.md")),
    ("project/memory/git-rules.md", include_bytes!("../../assets/demo/project/memory/git-rules.md")),
    ("project/memory/review-ja.md", include_bytes!("../../assets/demo/project/memory/review-ja.md")),
    ("project/memory/testing.md", include_bytes!("../../assets/demo/project/memory/testing.md")),
];

/// Where a materialised demo lives.
#[derive(Clone, Debug)]
pub struct Demo {
    /// The dream folder (`dream-2026-11-28`).
    pub dream: PathBuf,
    /// The live memory folder, a git repository with one commit.
    pub memory: PathBuf,
}

/// Writes the demo under `dest` (which must exist), points `memory.diff` at the copy's live
/// folder, and makes that folder a git repository with one commit of its notes.
pub fn materialize(dest: &Path) -> Result<Demo> {
    let memory = dest.join("project/memory");
    for (rel, bytes) in FILES {
        let path = dest.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let bytes = if rel.ends_with("memory.diff") {
            String::from_utf8_lossy(bytes).replace(DREAMED_LIVE, &memory.to_string_lossy()).into_bytes()
        } else {
            bytes.to_vec()
        };
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    repo::init_with_snapshot(&memory)?;
    Ok(Demo { dream: dest.join("dream-2026-11-28"), memory })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_list_matches_the_assets_folder() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
        let mut on_disk = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    on_disk.push(p.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/"));
                }
            }
        }
        on_disk.sort();
        let embedded: Vec<String> = FILES.iter().map(|(p, _)| p.to_string()).collect();
        assert_eq!(embedded, on_disk, "assets/demo changed: update demo::FILES");
    }
}
