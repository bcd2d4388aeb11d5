//! Diffing one path: live against the proposal (two-way), or against the proposal rebased
//! onto live when a session changed live after the dream's base (three-way); changes grouped
//! into hunks with their context and content keys.

use super::file::{FileDiff, FileKind, FileStatus, entry_text};
use super::hunk::{CONTEXT, Hunk, Line, Op};
use super::regions::regions;
use crate::base::text::split_lines;
use crate::inputs::snapshot::Entry;
use sha2::{Digest, Sha256};
use std::ops::Range;

/// Diffs one path given its base (what the dream saw), live and proposed entries. Returns
/// `None` when the dream did not change the file (base == proposed), whatever live did.
pub fn diff_file(path: &str, base: Option<&Entry>, live: Option<&Entry>, proposed: Option<&Entry>) -> Option<FileDiff> {
    if base == proposed || live == proposed {
        return None;
    }
    let status = match (live, proposed) {
        (None, Some(_)) => FileStatus::Added,
        (Some(_), None) => FileStatus::Deleted,
        (Some(_), Some(_)) => FileStatus::Modified,
        (None, None) => return None,
    };
    let is_symlink = |e: Option<&Entry>| matches!(e, Some(Entry::Symlink(_)));
    let texts = (entry_text(base), entry_text(live), entry_text(proposed));
    let text_ok = |e: Option<&Entry>, t: Option<&str>| e.is_none() || t.is_some();
    let kind = if is_symlink(live) || is_symlink(proposed) || is_symlink(base) {
        FileKind::Symlink
    } else if text_ok(base, texts.0) && text_ok(live, texts.1) && text_ok(proposed, texts.2) {
        FileKind::Text
    } else {
        FileKind::Binary
    };
    let mut file = FileDiff {
        path: path.to_string(),
        status,
        kind,
        live: live.cloned(),
        proposed: proposed.cloned(),
        hunks: Vec::new(),
    };
    let drifted = base != live;
    let live_text = texts.1.unwrap_or("");
    let prop_text = texts.2.unwrap_or("");
    if kind != FileKind::Text || (live_text.is_empty() && prop_text.is_empty()) {
        file.hunks.push(whole_file_hunk(path, live, proposed, drifted));
        return Some(file);
    }
    let live_lines = split_lines(live_text);
    let (changes, target) = if drifted {
        three_way(&split_lines(texts.0.unwrap_or("")), &live_lines, &split_lines(prop_text))
    } else {
        let prop_lines = split_lines(prop_text);
        (two_way(&live_lines, &prop_lines), prop_lines)
    };
    file.hunks = group(path, &changes, &live_lines, &target);
    if file.hunks.is_empty() {
        // Live already equals the proposal's effect (e.g. the same edit made in both).
        return None;
    }
    Some(file)
}

fn whole_file_hunk(path: &str, live: Option<&Entry>, proposed: Option<&Entry>, drifted: bool) -> Hunk {
    let mut h = Hasher::new(path);
    h.part(live.map(entry_bytes).unwrap_or(b"\0absent"));
    h.part(proposed.map(entry_bytes).unwrap_or(b"\0absent"));
    Hunk {
        id: format!("{path}#1"),
        index: 1,
        old_range: 0..0,
        new_range: 0..0,
        lines: Vec::new(),
        whole_file: true,
        live_changed: drifted,
        key: h.finish(),
    }
}

fn entry_bytes(e: &Entry) -> &[u8] {
    match e {
        Entry::File(b) => b,
        Entry::Symlink(t) => t.as_os_str().as_encoded_bytes(),
    }
}

/// A file `memory.diff` names outside the live folder, shown from the diff's own hunks so
/// the reviewer sees what the dream tried to write. It can never be accepted or written.
pub fn outside_file(raw_path: &str, patch: &crate::inputs::memdiff::PatchFile) -> FileDiff {
    let status = match (patch.old_absent, patch.new_absent) {
        (true, _) => FileStatus::Added,
        (_, true) => FileStatus::Deleted,
        _ => FileStatus::Modified,
    };
    let range = |start: usize, len: usize| {
        let begin = if len == 0 { start } else { start.saturating_sub(1) };
        begin..begin + len
    };
    let hunks = patch
        .hunks
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let lines: Vec<Line> = h
                .lines
                .iter()
                .map(|(op, text)| Line {
                    op: match op {
                        '-' => Op::Remove,
                        '+' => Op::Add,
                        _ => Op::Context,
                    },
                    text: text.clone(),
                })
                .collect();
            let mut hasher = Hasher::new(raw_path);
            for l in &lines {
                hasher.part(l.op.marker().as_bytes());
                hasher.part(l.text.as_bytes());
            }
            Hunk {
                id: format!("{raw_path}#{}", i + 1),
                index: i + 1,
                old_range: range(h.old_start, h.old_lines),
                new_range: range(h.new_start, h.new_lines),
                lines,
                whole_file: false,
                live_changed: false,
                key: hasher.finish(),
            }
        })
        .collect::<Vec<_>>();
    let mut file =
        FileDiff { path: raw_path.to_string(), status, kind: FileKind::Outside, live: None, proposed: None, hunks };
    if file.hunks.is_empty() {
        file.hunks.push(whole_file_hunk(raw_path, None, None, false));
    }
    file
}

/// A contiguous replacement of live lines `old` by target lines `new`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Change {
    old: Range<usize>,
    new: Range<usize>,
    conflict: bool,
}

fn two_way(live: &[&str], proposed: &[&str]) -> Vec<Change> {
    regions(live, proposed).into_iter().map(|(old, new)| Change { old, new, conflict: false }).collect()
}

/// Merges base→live and base→proposed. Returns changes over live lines and the target
/// lines (live with every dream change applied, conflicts taking the dream's side).
fn three_way<'a>(base: &[&'a str], live: &[&'a str], proposed: &[&'a str]) -> (Vec<Change>, Vec<&'a str>) {
    // (base range, side range, is_live)
    let mut all: Vec<(Range<usize>, Range<usize>, bool)> = regions(base, live)
        .into_iter()
        .map(|(b, l)| (b, l, true))
        .chain(regions(base, proposed).into_iter().map(|(b, p)| (b, p, false)))
        .collect();
    all.sort_by_key(|(b, _, is_live)| (b.start, b.end, !*is_live));
    let mut changes = Vec::new();
    let mut target: Vec<&str> = Vec::with_capacity(live.len());
    let (mut dl, mut dd) = (0isize, 0isize); // live/proposed index minus base index outside regions
    let mut live_pos = 0usize;
    let mut i = 0;
    while i < all.len() {
        // Cluster regions that overlap or touch in base coordinates.
        let (cs, mut ce) = (all[i].0.start, all[i].0.end);
        let mut j = i;
        let (mut has_live, mut has_dream) = (false, false);
        let (mut sum_l, mut sum_d) = (0isize, 0isize);
        while j < all.len() && (j == i || all[j].0.start <= ce) {
            let (b, s, is_live) = &all[j];
            ce = ce.max(b.end);
            let delta = s.len() as isize - b.len() as isize;
            if *is_live {
                has_live = true;
                sum_l += delta;
            } else {
                has_dream = true;
                sum_d += delta;
            }
            j += 1;
        }
        let shift = |x: usize, d: isize| (x as isize + d).max(0) as usize;
        let live_r = shift(cs, dl)..shift(ce, dl + sum_l);
        let prop_r = shift(cs, dd)..shift(ce, dd + sum_d);
        if has_dream {
            target.extend(live.get(live_pos..live_r.start).unwrap_or_default());
            let new_start = target.len();
            target.extend(proposed.get(prop_r.clone()).unwrap_or_default());
            changes.push(Change { old: live_r.clone(), new: new_start..target.len(), conflict: has_live });
            live_pos = live_r.end;
        }
        dl += sum_l;
        dd += sum_d;
        i = j;
    }
    target.extend(live.get(live_pos..).unwrap_or_default());
    // A conflict whose dream side equals live's is no change at all.
    changes.retain(|c| live.get(c.old.clone()) != target.get(c.new.clone()));
    (changes, target)
}

/// Groups changes into hunks with [`CONTEXT`] lines around them. Changes closer than
/// 2×CONTEXT share a hunk, except that a conflict never shares with a clean change (their
/// gap is split between the two hunks' context instead), so hunk ranges stay disjoint.
fn group(path: &str, changes: &[Change], live: &[&str], target: &[&str]) -> Vec<Hunk> {
    let mut groups: Vec<Vec<&Change>> = Vec::new();
    for c in changes {
        match groups.last_mut() {
            Some(g) if g[0].conflict == c.conflict && c.old.start - g[g.len() - 1].old.end <= 2 * CONTEXT => g.push(c),
            _ => groups.push(vec![c]),
        }
    }
    let mut hunks = Vec::with_capacity(groups.len());
    for (gi, g) in groups.iter().enumerate() {
        let first = g[0];
        let last = g[g.len() - 1];
        let lead = match gi.checked_sub(1).map(|p| &groups[p]) {
            Some(prev) => {
                let gap = first.old.start - prev[prev.len() - 1].old.end;
                if gap > 2 * CONTEXT { CONTEXT } else { gap - gap / 2 }
            }
            None => CONTEXT.min(first.old.start),
        };
        let trail = match groups.get(gi + 1) {
            Some(next) => {
                let gap = next[0].old.start - last.old.end;
                if gap > 2 * CONTEXT { CONTEXT } else { gap / 2 }
            }
            None => CONTEXT.min(live.len() - last.old.end),
        };
        let old_range = first.old.start - lead..last.old.end + trail;
        let new_range = first.new.start - lead..last.new.end + trail;
        let mut lines = Vec::new();
        let mut pos = old_range.start;
        let mut hasher = Hasher::new(path);
        let ctx = |r: Range<usize>, lines: &mut Vec<Line>| {
            lines.extend(live[r].iter().map(|t| Line { op: Op::Context, text: t.to_string() }));
        };
        for c in g {
            ctx(pos..c.old.start, &mut lines);
            for t in &live[c.old.clone()] {
                hasher.part(t.as_bytes());
                lines.push(Line { op: Op::Remove, text: t.to_string() });
            }
            hasher.part(b"\0+");
            for t in &target[c.new.clone()] {
                hasher.part(t.as_bytes());
                lines.push(Line { op: Op::Add, text: t.to_string() });
            }
            hasher.part(b"\0-");
            pos = c.old.end;
        }
        ctx(pos..old_range.end, &mut lines);
        let index = hunks.len() + 1;
        hunks.push(Hunk {
            id: format!("{path}#{index}"),
            index,
            old_range,
            new_range,
            lines,
            whole_file: false,
            live_changed: g[0].conflict,
            key: hasher.finish(),
        });
    }
    hunks
}

struct Hasher(Sha256);

impl Hasher {
    fn new(path: &str) -> Hasher {
        let mut h = Sha256::new();
        h.update(path.as_bytes());
        h.update([0u8]);
        Hasher(h)
    }
    fn part(&mut self, bytes: &[u8]) {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }
    fn finish(self) -> String {
        self.0.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect()
    }
}
