//! The file a note write replaced: a process that had the note open (a live agent session
//! appending to it) keeps writing into that file after the rename, where the bytes would be
//! in no note and no commit. So:
//! - before anything is written, a note some process of this user holds open for writing
//!   refuses the write ([`open_writers`], through [`super::holders`]);
//! - right before the rename (or removal), the old file gets a second, hidden name beside
//!   the note ([`keep_old`]), so anything written to it later stays on disk;
//! - after the commit, [`settle`] removes that name when nobody holds the old file open for
//!   writing and it still holds what was replaced; otherwise it stays, and the write is
//!   reported as a [`Stray`] naming the note and the kept file (`apply` exits 2).

use super::holders;
use super::on_disk::{ChangedOnDisk, FileStamp, Identity, identity_now};
use super::temp_name::temp_name;
use anyhow::{Result, anyhow};
use std::path::{Path, PathBuf};

/// The file a write replaced or removed, still reachable under a hidden name beside the
/// note (`.dreamreview-<pid>-<n>.kept`, a hard link made right before the rename). A
/// process that had the note open keeps writing into that file after the rename; the link
/// keeps those bytes on disk, in a file that can be named, instead of in an unlinked one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The second name.
    pub path: PathBuf,
    /// The file's device and inode.
    pub id: holders::FileId,
    /// The memory folder: folders the note's removal emptied are removed up to it once the
    /// second name is gone.
    pub memory: PathBuf,
}

/// Bytes another process wrote, or may still write, into a note's old file after
/// dreamreview replaced it: in no note and no commit, kept at `kept`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stray {
    /// The note (memory-relative).
    pub note: String,
    /// Where the old file, with what was written to it, is kept.
    pub kept: PathBuf,
    /// True when its content is no longer what dreamreview replaced.
    pub written_to: bool,
    /// Processes that still hold it open for writing.
    pub held_by: Vec<holders::Holder>,
}

impl std::fmt::Display for Stray {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.kept.display();
        if self.written_to {
            write!(
                f,
                "{}: another process wrote to the note's old file after dreamreview replaced it; \
                 that file, with what was written, is kept in {kept} (the note holds the new \
                 text): compare them (`diff {kept} {}`) and copy what is missing into the note",
                self.note, self.note
            )?;
        } else {
            write!(f, "{}: its old file is kept in {kept}", self.note)?;
        }
        if !self.held_by.is_empty() {
            let who: Vec<String> = self.held_by.iter().map(holders::Holder::describe).collect();
            write!(
                f,
                "; {} still hold{} that old file open for writing, so what {} write{} next lands \
                 there too: once {} ended, copy it into the note and delete the kept file",
                who.join(", "),
                if who.len() == 1 { "s" } else { "" },
                if who.len() == 1 { "it" } else { "they" },
                if who.len() == 1 { "s" } else { "" },
                if who.len() == 1 { "it has" } else { "they have" }
            )?;
        }
        Ok(())
    }
}

/// Decides what becomes of a note's old file kept by a write: removed when no process of
/// this user holds it open for writing and it still holds `old` (what the write replaced),
/// else left where it is and returned as a [`Stray`] to report. The holders are looked at
/// before the content: a file nobody holds can no longer change, so the content read after
/// is final.
pub fn settle(rel: &str, kept: &Kept, old: Option<&[u8]>) -> Option<Stray> {
    settle_all(&[(rel, kept, old)]).pop()
}

/// [`settle`] for many kept files, with one look at the processes for all of them.
pub fn settle_all(items: &[(&str, &Kept, Option<&[u8]>)]) -> Vec<Stray> {
    if items.is_empty() {
        return Vec::new();
    }
    let seen = holders::of(&items.iter().map(|(_, k, _)| k.id).collect::<Vec<_>>());
    let mut strays = Vec::new();
    for ((rel, kept, old), seen) in items.iter().zip(seen) {
        let held_by: Vec<holders::Holder> = match seen {
            holders::Seen::Holders(h) => h.into_iter().filter(|h| h.writes).collect(),
            holders::Seen::Unknown => Vec::new(),
        };
        let same = std::fs::read(&kept.path).is_ok_and(|now| Some(now.as_slice()) == *old);
        if same && held_by.is_empty() {
            forget(kept);
        } else {
            strays.push(Stray { note: rel.to_string(), kept: kept.path.clone(), written_to: !same, held_by });
        }
    }
    strays
}

/// Removes the second name, and the folders a note's removal left holding only it (git
/// keeps no empty folders, neither does a removal).
fn forget(kept: &Kept) {
    let _ = std::fs::remove_file(&kept.path);
    let mut dir = kept.path.parent();
    while let Some(d) = dir {
        if d == kept.memory || !d.starts_with(&kept.memory) || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// Refuses notes of `rels` that a process of this user holds open for writing: what it
/// writes after the note is replaced would land in the old file. One sentence naming them.
pub fn open_writers(memory: &Path, rels: &[&str]) -> Result<(), String> {
    let ids: Vec<(&str, holders::FileId)> =
        rels.iter().filter_map(|r| holders::file_id(&memory.join(r)).map(|id| (*r, id))).collect();
    let seen = holders::of(&ids.iter().map(|(_, id)| *id).collect::<Vec<_>>());
    let mut held = Vec::new();
    for ((rel, _), seen) in ids.iter().zip(seen) {
        if let holders::Seen::Holders(h) = seen {
            let who: Vec<String> = h.iter().filter(|h| h.writes).map(holders::Holder::describe).collect();
            if !who.is_empty() {
                held.push(format!("{rel} (by {})", who.join(", ")));
            }
        }
    }
    if held.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} {} open for writing; what such a process writes after the note is replaced would land \
         in the old file, in no note and no commit. Close {} (end that session), then run this again",
        held.join(", "),
        if held.len() == 1 { "is" } else { "are" },
        if held.len() == 1 { "it" } else { "them" }
    ))
}

/// Gives the file at `path`, which must still be `found`, a second name beside it, and
/// returns it with the path's identity now (a link changes the file's ctime). An edit in
/// between fails with [`ChangedOnDisk`]. Where hard links are not supported nothing is kept.
pub(super) fn keep_old(memory: &Path, path: &Path, rel: &str, found: Identity) -> Result<(Option<Kept>, Identity)> {
    let Identity::File(stamp) = found else { return Ok((None, found)) };
    let parent = path.parent().ok_or_else(|| anyhow!("{} has no parent folder", path.display()))?;
    let link = parent.join(temp_name("kept"));
    if std::fs::hard_link(path, &link).is_err() {
        return Ok((None, found));
    }
    let kept = Kept { path: link, id: (stamp.dev, stamp.ino), memory: memory.to_path_buf() };
    let now = identity_now(path)?;
    let same = |a: &FileStamp, b: &FileStamp| (a.dev, a.ino, a.size, a.mtime) == (b.dev, b.ino, b.size, b.mtime);
    match (now, holders::file_id(&kept.path)) {
        (Identity::File(n), Some(id)) if same(&n, &stamp) && id == kept.id => Ok((Some(kept), now)),
        _ => {
            let _ = std::fs::remove_file(&kept.path);
            Err(anyhow::Error::new(ChangedOnDisk { path: rel.to_string() }))
        }
    }
}

/// Second names a crashed write left in the folders of `rels` (`.dreamreview-*.kept`):
/// each is removed when no process of this user holds it open for writing and it holds one
/// of `known` (a journaled old or new text: nothing was written to it since); the others
/// stay, and are returned to be named.
pub fn clean_left(memory: &Path, rels: &[String], known: &[Vec<u8>]) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = rels.iter().filter_map(|r| memory.join(r).parent().map(Path::to_path_buf)).collect();
    dirs.sort();
    dirs.dedup();
    let mut left = Vec::new();
    for d in dirs {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !(name.starts_with(".dreamreview-") && name.ends_with(".kept")) {
                continue;
            }
            let path = e.path();
            let Some(id) = holders::file_id(&path) else { continue };
            let kept = Kept { path: path.clone(), id, memory: memory.to_path_buf() };
            let now = std::fs::read(&path).unwrap_or_default();
            let old = known.iter().find(|k| **k == now).map(Vec::as_slice);
            if old.is_none() || settle("", &kept, old).is_some() {
                left.push(path);
            }
        }
    }
    left
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::{BufRead, Write};
    use std::process::{Command, Stdio};

    /// A session that opened the note for append before it was replaced, and writes after:
    /// its bytes land in the kept old file, which stays and is reported (held, written to),
    /// and is removed once the session ended and nothing new was written.
    #[test]
    fn a_write_into_the_replaced_file_is_kept_and_reported() {
        let t = tempfile::tempdir().unwrap();
        let m = t.path().canonicalize().unwrap();
        std::fs::write(m.join("x.md"), "old\n").unwrap();
        let mut session = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "exec 3>>'{}'; echo ready; read _; printf 'late\\n' >&3; echo wrote; read _",
                m.join("x.md").display()
            ))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = std::io::BufReader::new(session.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        assert_eq!(
            open_writers(&m, &["x.md"]).unwrap_err().split(" is open").next().unwrap(),
            format!("x.md (by pid {} (sh))", session.id())
        );
        let w = super::super::write::put(&m, "x.md", Some(b"old\n"), Some(b"new\n"), &[]).unwrap();
        let kept = w.1.clone().unwrap();
        let mut input = session.stdin.take().unwrap();
        input.write_all(b"go\n").unwrap();
        line.clear();
        out.read_line(&mut line).unwrap();
        let stray = settle("x.md", &kept, Some(b"old\n")).unwrap();
        assert!(stray.written_to && stray.held_by.iter().any(|h| h.pid == session.id()), "{stray:?}");
        assert_eq!(std::fs::read(&kept.path).unwrap(), b"old\nlate\n");
        assert_eq!(std::fs::read(m.join("x.md")).unwrap(), b"new\n");
        let said = stray.to_string();
        assert!(said.contains(&kept.path.display().to_string()) && said.contains("still holds"), "{said}");
        drop(input);
        session.wait().unwrap();
        // Ended, but written to: still kept. Nothing written and nobody holding: removed.
        assert!(settle("x.md", &kept, Some(b"old\n")).is_some_and(|s| s.held_by.is_empty()));
        assert_eq!(settle("x.md", &kept, Some(b"old\nlate\n")), None);
        assert!(!kept.path.exists());
    }
}
