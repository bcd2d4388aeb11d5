//! The base a dream was written against: recovered from `memory.diff`, rebased past a
//! review commit that already took part of it, and the dream's id.

use super::history;
use crate::base::text::as_text;
use crate::inputs::dream::{self, DreamKind, Inputs};
use crate::inputs::memdiff;
use crate::inputs::snapshot::{Entry, Snapshot};
use crate::model::diff::{self, FileDiff};
use anyhow::{Context, Result, anyhow};
use sha2::{Digest, Sha256};

/// Recovers the base the dream saw from memory.diff (`docs/review-model.md`): each file the diff
/// names gets its old side back from the proposal; files it does not name were unchanged
/// by the dream, so their base is the proposal itself.
pub(super) fn base_from_diff(
    path: &std::path::Path,
    live: &Snapshot,
    proposed: &Snapshot,
    outside: &mut Vec<FileDiff>,
    notes: &mut Vec<String>,
) -> Result<Snapshot> {
    let text = dream::read_diff(path)?;
    let files = memdiff::parse(&text).map_err(|e| anyhow!("{}: {e}; {}", path.display(), dream::REGENERATE))?;
    let Some(layout) = memdiff::layout(&files, proposed) else {
        return Ok(live.clone());
    };
    let mut base: Snapshot = proposed.clone();
    for (f, rel) in files.iter().zip(&layout.paths) {
        let rel = match rel {
            Ok(r) => r.clone(),
            Err(raw) => {
                outside.push(diff::outside_file(raw, f));
                continue;
            }
        };
        if f.binary {
            // Contents unknown: the best base is live.
            set(&mut base, &rel, live.get(&rel).cloned());
            continue;
        }
        let new_text = match proposed.get(&rel) {
            Some(e) => e.bytes().and_then(as_text).map(str::to_string),
            None if f.new_absent => Some(String::new()),
            None => None,
        };
        let recovered = new_text.as_deref().and_then(|t| memdiff::reverse_apply(t, &f.hunks));
        match recovered {
            Some(_) if f.old_absent => {
                base.remove(&rel);
            }
            Some(old) => {
                base.insert(rel, Entry::File(old.into_bytes()));
            }
            None => {
                notes.push(format!(
                    "{}: memory.diff does not match the proposal for {rel}; comparing it with live memory as it is now",
                    path.display()
                ));
                set(&mut base, &rel, live.get(&rel).cloned());
            }
        }
    }
    Ok(base)
}

pub(super) fn set(s: &mut Snapshot, k: &str, v: Option<Entry>) {
    match v {
        Some(e) => s.insert(k.to_string(), e),
        None => s.remove(k),
    };
}

/// The notes the dream's last review commit (`entry`) wrote and nobody changed since take
/// their reviewed text as the base: what is left of the dream after a commit (the rejected
/// lines) is then shown as pending, not as `live-changed` — the review's own decisions are
/// no session's edit. A note changed after the review (a session's edit, a revert) keeps
/// the base the dream saw. Best effort: a commit that cannot be read changes nothing.
pub(super) fn rebase_on_review(changed: &[history::Changed], live: &Snapshot, base: &mut Snapshot) {
    for (path, before, after) in changed {
        if before == after || live.get(path) != after.as_ref() {
            continue;
        }
        match after {
            Some(e) => base.insert(path.clone(), e.clone()),
            None => base.remove(path),
        };
    }
}

pub(super) fn dream_id(inputs: &Inputs, proposed: &Snapshot, live: &Snapshot) -> Result<String> {
    let mut h = Sha256::new();
    let mut feed = |tag: &str, bytes: &[u8]| {
        h.update(tag.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    let hash_snap = |feed: &mut dyn FnMut(&str, &[u8]), s: &Snapshot| {
        for (k, e) in s {
            feed("path", k.as_bytes());
            match e {
                Entry::File(b) => feed("file", b),
                Entry::Symlink(t) => feed("link", t.as_os_str().as_encoded_bytes()),
            }
        }
    };
    hash_snap(&mut feed, proposed);
    if inputs.kind == DreamKind::InPlace {
        hash_snap(&mut feed, live);
    }
    for p in [&inputs.changes_md, &inputs.memory_diff].into_iter().flatten() {
        let bytes = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
        feed("meta", &bytes);
    }
    Ok(h.finalize().iter().take(12).map(|b| format!("{b:02x}")).collect())
}
