//! Where indexes live, how a file's identity is taken, and bringing an index up to date
//! with its file (load, extend, rebuild; write-then-rename; prune).

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use memchr::{memchr, memrchr};

use super::budget::{Budget, defer};
use super::format::{FileIndex, Identity, Part, checksum};
use super::grams::{KEYS, line_keys};
use super::limits::{block_bytes, max_file_bytes};
use super::stats::{INDEXED_BYTES, UNWRITABLE, note};
use crate::inputs::transcript::file::MAX_LINE_BYTES;
use crate::inputs::transcript::source::SourceKind;

/// Bytes read at a time while indexing.
const READ_BYTES: usize = 2 << 20;
/// The folder under the cache directory (its name carries the format version: v2 names
/// files and identifies them with XXH3-64).
const SUBDIR: &str = "index-v2";
/// The folders of earlier formats, removed by [`prune`]: their file names are hashes this
/// version no longer computes, so nothing would ever prune them.
const OLD_SUBDIRS: &[&str] = &["index-v1"];
/// Temporary files older than this are left by a crash and removed.
const STALE_SECS: u64 = 600;

/// `$XDG_CACHE_HOME/dreamreview`, else `~/.cache/dreamreview` (`None` without a home).
pub fn default_dir() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from).filter(|p| p.is_absolute());
    let base = xdg.or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("dreamreview"))
}

fn hash_name(bytes: &[u8]) -> String {
    format!("{:016x}", checksum(bytes))
}

/// The folder of this format's indexes under `cache`.
pub(crate) fn root(cache: &Path) -> PathBuf {
    cache.join(SUBDIR)
}

fn folder_of(cache: &Path, dir: &Path) -> PathBuf {
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    root(cache).join(hash_name(dir.as_os_str().as_encoded_bytes()))
}

/// The index file of transcript `path` under `cache`.
pub fn index_file_of(cache: &Path, path: &Path) -> PathBuf {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.as_encoded_bytes()).unwrap_or_default();
    folder_of(cache, dir).join(format!("{}.idx", hash_name(name)))
}

fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        let mut n = 0;
        while n < buf.len() {
            match file.read_at(&mut buf[n..], at + n as u64)? {
                0 => break,
                k => n += k,
            }
        }
        Ok(n)
    }
    #[cfg(not(unix))]
    {
        use std::io::{Seek, SeekFrom};
        let mut f = file;
        f.seek(SeekFrom::Start(at))?;
        let mut n = 0;
        while n < buf.len() {
            match f.read(&mut buf[n..])? {
                0 => break,
                k => n += k,
            }
        }
        Ok(n)
    }
}

/// The identity of `file` (of `size` bytes now).
pub fn identity(file: &File, meta: &fs::Metadata, size: u64) -> io::Result<Identity> {
    let head = head_hash(file, size)?;
    let tail = tail_hash(file, size)?;
    #[cfg(unix)]
    let (dev, inode) = {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    };
    #[cfg(not(unix))]
    let (dev, inode) = (0, 0);
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as u64);
    Ok(Identity { dev, inode, size, mtime, head, tail })
}

/// Hash of the first KiB of the file's first `size` bytes.
fn head_hash(file: &File, size: u64) -> io::Result<u64> {
    let mut buf = [0u8; 1024];
    let want = size.min(1024) as usize;
    let n = read_at(file, &mut buf[..want], 0)?;
    Ok(checksum(&buf[..n]))
}

/// Hash of the KiB ending at `size`.
fn tail_hash(file: &File, size: u64) -> io::Result<u64> {
    let mut buf = [0u8; 1024];
    let from = size.saturating_sub(1024);
    let n = read_at(file, &mut buf[..(size - from) as usize], from)?;
    Ok(checksum(&buf[..n]))
}

/// The index of `file` (at `path`, `meta` its metadata), brought up to date: loaded when
/// current (with only the keys `wanted`), extended when the file grew, rebuilt
/// otherwise, and written back when it changed. `progress` is told the bytes read to
/// index. `None` when the file cannot be read (the caller scans it whole and reports the
/// error), or when indexing it would take more than is left of `budget`: then it is
/// left for the background build ([`super::background`]).
pub fn refresh(
    cache: &Path,
    path: &Path,
    kind: SourceKind,
    (file, meta): (&File, &fs::Metadata),
    progress: &dyn Fn(usize),
    wanted: &[u32],
    budget: &Budget,
) -> Option<FileIndex> {
    if UNWRITABLE.load(std::sync::atomic::Ordering::Relaxed) {
        // An index that cannot be kept would be built again on every run: scan whole.
        return None;
    }
    let size = meta.len();
    if size > max_file_bytes() {
        // Building its index would hold about twice its size in memory: read it whole.
        return None;
    }
    let id = identity(file, meta, size).ok()?;
    let at = index_file_of(cache, path);
    let bytes = fs::read(&at).ok();
    let stored =
        bytes.as_deref().map(|b| FileIndex::body(b).and_then(|body| Some((body, FileIndex::identity_of(body)?))));
    let corrupt = || note(format!("the index of {} was corrupt or of another version: rebuilt", path.display()));
    let mut ix = match stored {
        // Current: decoded with only the keys asked for.
        Some(Some((body, (old, _)))) if old == id => match FileIndex::decode_keys(body, Some(wanted)) {
            Some(ix) => return Some(ix),
            None => {
                corrupt();
                rebuild(file, kind, size, (path, progress, budget))?
            }
        },
        // Grown with the same beginning: extended, or used as it is for what it covers
        // (the scan reads the rest) when the extension is left for later.
        Some(Some((body, (old, end)))) if appended(file, &id, &old, end) => {
            // Extending merges the whole index again: it costs what the whole file does.
            let extend = budget.take(size);
            if !extend {
                defer(path);
            }
            match FileIndex::decode_keys(body, (!extend).then_some(wanted)) {
                Some(ix) if !extend => return Some(ix),
                Some(mut ix) => {
                    let part = build(file, kind, ix.indexed_end, ix.lines, size, progress).ok()?;
                    ix.extend(part);
                    ix
                }
                None => {
                    corrupt();
                    rebuild(file, kind, size, (path, progress, budget))?
                }
            }
        }
        Some(None) => {
            // An index an older dreamreview wrote is replaced without a word.
            if !bytes.as_deref().is_some_and(FileIndex::other_version) {
                corrupt();
            }
            rebuild(file, kind, size, (path, progress, budget))?
        }
        _ => rebuild(file, kind, size, (path, progress, budget))?,
    };
    ix.identity = id;
    if let Err(e) = write_atomically(&at, &ix.encode())
        && !UNWRITABLE.swap(true, std::sync::atomic::Ordering::Relaxed)
    {
        // Said once per run, not once per transcript; the other transcripts are scanned
        // whole rather than indexed for nothing.
        note(format!(
            "cannot write the transcript index under {} ({e}): transcripts are scanned whole; \
             make that folder writable, set XDG_CACHE_HOME, or pass --no-index",
            cache.display()
        ));
    }
    Some(ix)
}

/// Whether the file `id` describes (now) is the one `old` described grown: same device,
/// inode and first KiB, and the same bytes ending at its old size; `end` (where its index
/// stopped) within that size.
fn appended(file: &File, id: &Identity, old: &Identity, end: u64) -> bool {
    old.dev == id.dev
        && old.inode == id.inode
        && id.size >= old.size
        && end <= old.size
        && head_hash(file, old.size).ok() == Some(old.head)
        && tail_hash(file, old.size).ok() == Some(old.tail)
}

/// A new index of the whole file, when `budget` allows (else it is left for the
/// background build: `None`).
fn rebuild(
    file: &File,
    kind: SourceKind,
    size: u64,
    (path, progress, budget): (&Path, &dyn Fn(usize), &Budget),
) -> Option<FileIndex> {
    if !budget.take(size) {
        defer(path);
        return None;
    }
    let mut ix = FileIndex::default();
    ix.extend(build(file, kind, 0, 0, size, progress).ok()?);
    Some(ix)
}

/// Writes `bytes` to a temporary file beside `at` and renames it over `at`, so a reader
/// sees the whole old file or the whole new one. It is not synced: an index is a cache,
/// and one a crash leaves short or empty fails its checksum and is rebuilt (an fsync
/// per transcript cost a cold run about 5%).
fn write_atomically(at: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = at.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.persist(at).map_err(|e| e.error)?;
    Ok(())
}

/// Indexes `file` from byte `from` (a line start, after `lines` lines) to the last
/// newline before `size`.
fn build(
    file: &File,
    kind: SourceKind,
    from: u64,
    lines: u64,
    size: u64,
    progress: &dyn Fn(usize),
) -> io::Result<Part> {
    let part = Part { end: from, lines, ..Part::default() };
    let mut blocks =
        Blocks { seen: vec![0u64; KEYS / 64], keys: Vec::new(), fresh: 0, dirty: false, start: None, part };
    let mut buf: Vec<u8> = Vec::with_capacity(READ_BYTES + 4096);
    let mut offset = from; // file offset of buf[0]
    let mut skipping = false; // buf[0] continues an over-long line already judged
    let mut pos = from;
    while pos < size {
        let want = READ_BYTES.min((size - pos) as usize);
        let old = buf.len();
        buf.resize(old + want, 0);
        let n = read_at(file, &mut buf[old..], pos)?;
        buf.truncate(old + n);
        progress(n);
        INDEXED_BYTES.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        pos += n as u64;
        if n == 0 {
            break;
        }
        let mut at = 0usize;
        if skipping {
            match memchr(b'\n', &buf) {
                Some(i) => {
                    at = i + 1;
                    skipping = false;
                    blocks.line_end(offset + at as u64);
                }
                None => {
                    offset += buf.len() as u64;
                    buf.clear();
                    continue;
                }
            }
        }
        let last = memrchr(b'\n', &buf[at..]).map(|i| at + i + 1);
        if let Some(end) = last {
            while at < end {
                let nl = memchr(b'\n', &buf[at..end]).map_or(end, |i| at + i);
                let line = &buf[at..nl];
                blocks.line(kind, &line[..line.len().min(MAX_LINE_BYTES)], offset + at as u64);
                at = nl + 1;
                blocks.line_end(offset + at as u64);
            }
        }
        buf.drain(..at);
        offset += at as u64;
        if buf.len() >= MAX_LINE_BYTES {
            blocks.line(kind, &buf[..MAX_LINE_BYTES], offset);
            offset += buf.len() as u64;
            buf.clear();
            skipping = true;
        }
    }
    Ok(blocks.finish())
}

/// Blocks being built.
struct Blocks {
    /// Keys already in the current block (a bit per key).
    seen: Vec<u64>,
    /// Keys of the current block: the first `fresh` entries (the rest is room to write
    /// the next key into before knowing whether it is new, so the walk does not branch
    /// on it).
    keys: Vec<u32>,
    fresh: usize,
    dirty: bool,
    /// Start and first line of the current block, once it has a line.
    start: Option<(u64, u64)>,
    part: Part,
}

impl Blocks {
    fn line(&mut self, kind: SourceKind, line: &[u8], at: u64) {
        if self.start.is_none() {
            self.start = Some((at, self.part.lines + 1));
        }
        let (seen, keys, fresh) = (&mut self.seen, &mut self.keys, &mut self.fresh);
        let flags = line_keys(kind, line, |k| {
            let (w, b) = ((k >> 6) as usize, 1u64 << (k & 63));
            if *fresh >= keys.len() {
                keys.resize(keys.len() * 2 + 4096, 0);
            }
            if let (Some(word), Some(slot)) = (seen.get_mut(w), keys.get_mut(*fresh)) {
                *slot = k;
                *fresh += usize::from(*word & b == 0);
                *word |= b;
            }
        });
        self.dirty |= flags.dirty;
    }

    /// The line that started with the last [`Blocks::line`] ends before `end`.
    fn line_end(&mut self, end: u64) {
        self.part.lines += 1;
        self.part.end = end;
        if let Some((start, _)) = self.start
            && end - start >= block_bytes()
        {
            self.close();
        }
    }

    fn close(&mut self) {
        let Some((start, line)) = self.start.take() else { return };
        let b = self.part.blocks.len() as u32;
        self.part.blocks.push((start, line));
        self.part.dirty.push(std::mem::take(&mut self.dirty));
        for &k in self.keys.get(..self.fresh).unwrap_or(&[]) {
            self.part.pairs.push((k, b));
            if let Some(w) = self.seen.get_mut((k >> 6) as usize) {
                *w = 0;
            }
        }
        self.fresh = 0;
    }

    fn finish(mut self) -> Part {
        // A last line without its newline is not indexed: read every time, until complete.
        if let Some((start, _)) = self.start
            && start >= self.part.end
        {
            self.start = None;
            self.keys.get(..self.fresh).unwrap_or(&[]).iter().for_each(|&k| {
                if let Some(w) = self.seen.get_mut((k >> 6) as usize) {
                    *w = 0;
                }
            });
            self.fresh = 0;
            self.dirty = false;
        }
        self.close();
        self.part
    }
}

/// Removes the indexes of transcripts that no longer exist: in each folder of `dirs`,
/// those whose file is gone, and every folder's whose transcript folder is gone; and
/// temporary files a crash left. A transcript folder is listed again only when its
/// modification time (which a file added, removed or renamed in it changes) differs from
/// the one its last pruning recorded (`listed`, beside the `folder` marker).
pub fn prune(cache: &Path, dirs: &[PathBuf]) {
    for old in OLD_SUBDIRS {
        let old = cache.join(old);
        if fs::symlink_metadata(&old).is_ok_and(|m| m.is_dir()) {
            let _ = fs::remove_dir_all(old);
        }
    }
    let root = cache.join(SUBDIR);
    let mut wanted: HashSet<PathBuf> = HashSet::new();
    for dir in dirs {
        let folder = folder_of(cache, dir);
        if !wanted.insert(folder.clone()) {
            continue;
        }
        // A transcript folder whose modification time is the one its last pruning saw has
        // had no file added, removed or renamed since: nothing of it to prune.
        let listed = folder.join("listed");
        let seen = fs::metadata(dir)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok().map(|d| d.as_nanos().to_le_bytes()));
        if seen.is_some() && fs::read(&listed).ok().as_deref() == seen.as_ref().map(|s| s.as_slice()) {
            continue;
        }
        let Ok(entries) = fs::read_dir(&folder) else { continue };
        let names: HashSet<String> = fs::read_dir(dir)
            .map(|rd| rd.flatten().map(|e| format!("{}.idx", hash_name(e.file_name().as_encoded_bytes()))).collect())
            .unwrap_or_default();
        let abs = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
        let marker = folder.join("folder");
        if fs::read(&marker).ok().as_deref() != Some(abs.as_os_str().as_encoded_bytes()) {
            let _ = write_atomically(&marker, abs.as_os_str().as_encoded_bytes());
        }
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let stale_tmp = name.starts_with(".tmp-")
                && e.metadata()
                    .ok()
                    .and_then(|m| m.modified().ok())
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|d| d.as_secs() > STALE_SECS);
            if (name.ends_with(".idx") && !names.contains(&name)) || stale_tmp {
                let _ = fs::remove_file(e.path());
            }
        }
        // Taken before the folder was listed: a change since then is seen next time.
        if let Some(seen) = seen {
            let _ = write_atomically(&listed, &seen);
        }
    }
    // Folders whose transcript folder is gone.
    let Ok(entries) = fs::read_dir(&root) else { return };
    for e in entries.flatten() {
        let path = e.path();
        if wanted.contains(&path) {
            continue;
        }
        let Ok(mut f) = File::open(path.join("folder")) else { continue };
        let mut bytes = Vec::new();
        if f.read_to_end(&mut bytes).is_ok() {
            #[cfg(unix)]
            let dir = {
                use std::os::unix::ffi::OsStrExt;
                PathBuf::from(std::ffi::OsStr::from_bytes(&bytes))
            };
            #[cfg(not(unix))]
            let dir = PathBuf::from(String::from_utf8_lossy(&bytes).into_owned());
            if !dir.exists() {
                let _ = fs::remove_dir_all(&path);
            }
        }
    }
}
