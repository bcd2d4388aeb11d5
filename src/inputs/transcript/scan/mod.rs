//! Finding many needles in all sources in one pass, for provenance's weak sourcing
//! ("this claim occurs in some other source line").
//!
//! Design, for 1 GB of JSONL within 1.5× of `rg -F -f needles.txt`:
//! - a leftmost-first Aho-Corasick automaton (ASCII case-insensitive, SIMD prefilter)
//!   runs over the raw bytes to find the lines holding any needle, skipping the rest of
//!   each such line; a second, overlapping automaton then collects every needle on that
//!   line only (so a needle inside another needle's match is still seen);
//! - files are read in chunks of [`CHUNK_BYTES`] into a buffer reused across files; the
//!   partial last line is carried over to the next read, so memory per worker is bounded
//!   by one chunk plus one line of at most [`MAX_LINE_BYTES`] (longer lines are judged by
//!   that beginning, like [`super::Transcript`] does, and the rest is skipped unread by
//!   the automaton);
//! - line numbers are counted incrementally with memchr between matching lines, never
//!   from the start of the file;
//! - raw matches inside top-level envelope values (`cwd`, `timestamp`, `uuid`,
//!   `toolUseResult`…, see [`super::unsaid`]) are dropped by a byte-level walk, without
//!   parsing; only lines with a remaining match are parsed, and a hit is kept only when
//!   the needle occurs in the line's [`said_text`] (so `cwd`, `uuid`, `tool_use_id`,
//!   `version` or a `timestamp` never source a claim);
//! - the caller's verifier sees each such line once, with every needle it says, and can
//!   declare needles exhausted for the rest of a file (provenance needs a claim's first
//!   line per file only): a file where every needle is exhausted is not read further;
//! - rayon spreads files over the workers.
//!
//! Needles are matched ASCII case-insensitively (the caller lowercases them). A needle
//! with characters JSON escapes (`"`, `\`, control characters) or non-ASCII characters is
//! also looked for in escaped form (`\"`, `\u65e5`…) so that transcripts written by other
//! JSON encoders are searched too; the check against the said text is always on the
//! decoded text. A line whose raw bytes may hide a needle its decoded text holds (a
//! terminal escape sequence inside it, or `\/` for `/`: see [`matcher::MARKERS`]) is
//! searched again in its said text.

mod lines;
mod matcher;
mod reader;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use super::file::MAX_LINE_BYTES;
use super::source::SourceSet;
pub use matcher::scan_patterns;
use matcher::{Automaton, Needles};

/// Bytes read from a file at a time (2 MiB).
pub const CHUNK_BYTES: usize = 2 << 20;

/// A needle found in what a source line says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hit {
    /// Index of the source in [`SourceSet::files`].
    pub source: usize,
    /// 1-based physical line number.
    pub line: usize,
    /// Index of the needle in the slice given to [`scan`].
    pub needle: usize,
}

/// Progress of a running scan, shared with the UI (all methods take `&self`).
#[derive(Debug, Default)]
pub struct ScanProgress {
    done: AtomicU64,
    total: AtomicU64,
    cancelled: AtomicBool,
}

impl ScanProgress {
    /// A fresh counter.
    pub fn new() -> ScanProgress {
        ScanProgress::default()
    }

    /// Bytes read so far.
    pub fn bytes_done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Bytes to read in all (known once the scan has started).
    pub fn bytes_total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    /// Asks the scan to stop early; it returns what it found so far.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`ScanProgress::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    fn add(&self, n: usize) {
        self.done.fetch_add(n as u64, Ordering::Relaxed);
    }
}

/// Everything a scan found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScanReport {
    /// Hits sorted by (source, line, needle), without duplicates.
    pub hits: Vec<Hit>,
    /// Sources that could not be read (index, error), skipped.
    pub unreadable: Vec<(usize, String)>,
    /// True when the scan was cancelled before reading everything.
    pub cancelled: bool,
}

/// How much a scan looks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScanOptions {
    /// At most this many hits per (source, needle), the first lines of the file; 0 means
    /// all. Weak sourcing needs a few places a claim is said, not every one: with a
    /// limit, a needle already found enough in a file costs no more parsing there, and a
    /// file where every needle has reached it is not read further.
    pub per_source_limit: usize,
    /// The transcript index's folder ([`super::index`]): JSONL files are read through their
    /// index there, built or brought up to date on the way. `None`: every file read whole.
    pub index: Option<std::path::PathBuf>,
}

/// Finds every (source, line, needle) where the line says the needle. Sources that
/// cannot be read are skipped; use [`scan_with`] to learn which, to limit the hits, or
/// to show progress.
pub fn scan(sources: &SourceSet, needles: &[String]) -> Vec<Hit> {
    scan_with(sources, needles, &ScanOptions::default(), &ScanProgress::new()).hits
}

/// [`scan`] with `options`, reporting progress in `progress` (and stopping when it is
/// cancelled).
pub fn scan_with(
    sources: &SourceSet,
    needles: &[String],
    options: &ScanOptions,
    progress: &ScanProgress,
) -> ScanReport {
    let keep_all = |hit: &LineHit<'_>, verdict: &mut Verdict| verdict.keep.extend_from_slice(hit.needles);
    scan_lines(sources, needles, options, progress, &keep_all)
}

/// A line holding needles that its said text contains, as a [`VerifyLine`] sees it.
#[derive(Clone, Copy, Debug)]
pub struct LineHit<'a> {
    /// Index of the source in [`SourceSet::files`].
    pub source: usize,
    /// 1-based physical line number.
    pub line: usize,
    /// The needles (indexes, ascending) whose lowercased form occurs in `said`, ASCII
    /// case-insensitively, and that are not exhausted in this source.
    pub needles: &'a [usize],
    /// The raw line (cut at [`MAX_LINE_BYTES`]).
    pub raw: &'a [u8],
    /// What the line says ([`super::said_text`], or the line itself for Markdown).
    pub said: &'a str,
}

/// What a [`VerifyLine`] decides about a line (cleared before each call).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Needles of the line to report as hits.
    pub keep: Vec<usize>,
    /// Needles not worth looking for in the rest of this source: their later lines are
    /// skipped, and a source where every needle is exhausted is not read further.
    pub exhausted: Vec<usize>,
}

/// Judges the lines a scan finds (see [`scan_lines`]). Any
/// `Fn(&LineHit, &mut Verdict) + Sync` closure is one (it exhausts nothing up front);
/// [`WithExhausted`] adds the check made before a source is read.
pub trait Verifier: Sync {
    /// Called once per line holding candidate needles.
    fn line(&self, hit: &LineHit<'_>, verdict: &mut Verdict);

    /// Called before `source` is read: sets `done[needle]` for the needles with nothing
    /// left to find in it. They are not looked for there, and a source where every needle
    /// is done is not read at all.
    fn exhausted(&self, source: usize, done: &mut [bool]) {
        let _ = (source, done);
    }
}

impl<F: Fn(&LineHit<'_>, &mut Verdict) + Sync> Verifier for F {
    fn line(&self, hit: &LineHit<'_>, verdict: &mut Verdict) {
        self(hit, verdict)
    }
}

/// A [`Verifier`] made of two closures: the line check and the check before a source is
/// read ([`Verifier::exhausted`]).
pub struct WithExhausted<L, E> {
    /// The line check.
    pub line: L,
    /// The check before a source is read.
    pub exhausted: E,
}

impl<L, E> Verifier for WithExhausted<L, E>
where
    L: Fn(&LineHit<'_>, &mut Verdict) + Sync,
    E: Fn(usize, &mut [bool]) + Sync,
{
    fn line(&self, hit: &LineHit<'_>, verdict: &mut Verdict) {
        (self.line)(hit, verdict)
    }

    fn exhausted(&self, source: usize, done: &mut [bool]) {
        (self.exhausted)(source, done)
    }
}

/// A check of the candidate needles of a line, called once per line holding any.
pub type VerifyLine<'a> = dyn Verifier + 'a;

/// What a line must hold, in the index's keys, for a needle to be worth presenting on it:
/// every key of at least one of the sets ([`crate::inputs::transcript::index::grams`]). No set:
/// the index cannot narrow the needle, and a file where it is looked for is read whole.
pub type NeedleKeys = Vec<Vec<u32>>;

/// The keys any line whose said text contains `needle` holds (its grams): what
/// [`scan_lines`] uses for every needle.
pub fn substring_keys(needle: &str) -> NeedleKeys {
    let keys = super::index::grams::needle_keys(needle);
    if keys.is_empty() { Vec::new() } else { vec![keys] }
}

/// [`scan_lines`] with, per needle, keys a line must hold for the verifier to do anything
/// with that needle there (`keys[i]` for `needles[i]`; see [`NeedleKeys`]). The caller
/// vouches for them: a line it would keep or learn from must hold one key set of one of
/// its needles. With [`substring_keys`] for every needle this is [`scan_lines`].
pub fn scan_lines_keyed(
    sources: &SourceSet,
    needles: &[String],
    keys: &[NeedleKeys],
    options: &ScanOptions,
    progress: &ScanProgress,
    verify: &VerifyLine<'_>,
) -> ScanReport {
    scan_all(sources, needles, Some(keys), options, progress, verify)
}

/// The scan itself: [`scan_with`], with a verifier that sees each line once, with all
/// its candidate needles, and can exhaust needles per source (before reading it, and
/// after any line). The per-source limit of `options` counts kept hits; a needle at the
/// limit is exhausted too.
pub fn scan_lines(
    sources: &SourceSet,
    needles: &[String],
    options: &ScanOptions,
    progress: &ScanProgress,
    verify: &VerifyLine<'_>,
) -> ScanReport {
    scan_all(sources, needles, None, options, progress, verify)
}

fn scan_all(
    sources: &SourceSet,
    needles: &[String],
    keys: Option<&[NeedleKeys]>,
    options: &ScanOptions,
    progress: &ScanProgress,
    verify: &VerifyLine<'_>,
) -> ScanReport {
    let sizes: Vec<u64> = sources.files().iter().map(|f| std::fs::metadata(&f.path).map_or(0, |m| m.len())).collect();
    progress.total.store(sizes.iter().sum(), Ordering::Relaxed);
    let Some(mut needles) = Needles::new(needles) else {
        progress.done.store(progress.bytes_total(), Ordering::Relaxed);
        return ScanReport::default();
    };
    if let Some(keys) = keys {
        for (mine, given) in needles.keys.iter_mut().zip(keys) {
            mine.clone_from(given);
        }
    }
    let opts = ScanOpts { chunk: CHUNK_BYTES, max_line: MAX_LINE_BYTES, limit: options.per_source_limit };
    let cache = options.index.clone();
    let mut wanted: Vec<u32> = needles.keys.iter().flatten().flatten().copied().collect();
    wanted.sort_unstable();
    wanted.dedup();
    let budget = super::index::Budget::for_scan();
    let shared =
        Shared { needles: &needles, opts, progress, verify, index: cache.as_deref(), wanted: &wanted, budget: &budget };
    // One worker per thread for the whole scan (rayon's `map_init` would make one per
    // split of the work, each building its automaton again).
    let workers: Vec<std::sync::Mutex<Worker>> =
        (0..rayon::current_num_threads().max(1)).map(|_| std::sync::Mutex::new(Worker::default())).collect();
    let results: Vec<(usize, std::io::Result<Vec<Hit>>)> = sources
        .files()
        .par_iter()
        .enumerate()
        .map(|(i, f)| {
            let slot = rayon::current_thread_index().unwrap_or(0) % workers.len();
            let mut worker = workers[slot].lock().unwrap_or_else(|p| p.into_inner());
            (i, reader::scan_file(&f.path, f.kind, i, &shared, &mut worker))
        })
        .collect();
    let mut report = ScanReport { cancelled: progress.is_cancelled(), ..ScanReport::default() };
    for (i, result) in results {
        match result {
            Ok(hits) => report.hits.extend(hits),
            Err(e) => {
                let path = sources.get(i).map(|f| f.path.display().to_string());
                report.unreadable.push((i, format!("{}: {e}", path.unwrap_or_default())));
            }
        }
    }
    report.hits.sort_unstable();
    report.hits.dedup();
    if let Some(cache) = &cache {
        let mut dirs: Vec<std::path::PathBuf> = sources
            .files()
            .iter()
            .filter(|f| f.kind == super::source::SourceKind::Jsonl)
            .filter_map(|f| f.path.parent().map(|p| p.to_path_buf()))
            .collect();
        dirs.sort();
        dirs.dedup();
        super::index::prune(cache, &dirs);
    }
    report
}

/// What one rayon job keeps from file to file: the read buffer (one chunk plus the
/// partial line carried over; filled by reads only, never zeroed) and the automaton,
/// rebuilt smaller as needles are exhausted.
#[derive(Default)]
struct Worker {
    buf: Vec<u8>,
    automaton: Option<Automaton>,
    /// Matches of exhausted needles in the last file (see `reader`).
    wasted: u64,
}

/// Sizes used by the per-file scan (smaller in tests, to cross chunk boundaries).
#[derive(Clone, Copy)]
struct ScanOpts {
    chunk: usize,
    max_line: usize,
    /// Hits per needle in one file; 0 = all.
    limit: usize,
}

/// What every file of one scan shares.
struct Shared<'a> {
    needles: &'a Needles,
    opts: ScanOpts,
    progress: &'a ScanProgress,
    verify: &'a VerifyLine<'a>,
    /// The index folder, when scans use one.
    index: Option<&'a std::path::Path>,
    /// Every key of every needle, sorted: the keys an index is decoded with.
    wanted: &'a [u32],
    /// What may be indexed inline (the rest is left for the background build).
    budget: &'a super::index::Budget,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::transcript::source::SourceKind;
    use std::fs::File;
    use std::io::Write;

    fn scan_bytes(bytes: &[u8], kind: SourceKind, needles: &[&str], opts: ScanOpts) -> Vec<(usize, usize)> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        File::create(&path).unwrap().write_all(bytes).unwrap();
        let needles: Vec<String> = needles.iter().map(|s| s.to_string()).collect();
        let n = Needles::new(&needles).unwrap();
        let mut worker = Worker::default();
        let progress = ScanProgress::new();
        let keep_all = |h: &LineHit<'_>, v: &mut Verdict| v.keep.extend_from_slice(h.needles);
        let shared = Shared {
            needles: &n,
            opts,
            progress: &progress,
            verify: &keep_all,
            index: None,
            wanted: &[],
            budget: &crate::inputs::transcript::index::Budget::unlimited(),
        };
        let hits = reader::scan_file(&path, kind, 0, &shared, &mut worker).unwrap();
        hits.iter().map(|h| (h.line, h.needle)).collect()
    }

    const SMALL: ScanOpts = ScanOpts { chunk: 7, max_line: 16, limit: 0 };

    #[test]
    fn counts_lines_across_tiny_chunks() {
        let text = b"alpha\nbeta gamma\n\nalpha beta\nzeta";
        let got = scan_bytes(text, SourceKind::Markdown, &["alpha", "beta", "zeta"], SMALL);
        assert_eq!(got, vec![(1, 0), (2, 1), (4, 0), (4, 1), (5, 2)]);
    }

    #[test]
    fn overlapping_needles_are_all_seen() {
        let got = scan_bytes(
            b"run pnpm test now\n",
            SourceKind::Markdown,
            &["pnpm test", "pnpm", "test"],
            ScanOpts { chunk: 64, max_line: 64, limit: 0 },
        );
        assert_eq!(got, vec![(1, 0), (1, 1), (1, 2)]);
    }

    #[test]
    fn limit_keeps_the_first_hits_and_stops_early() {
        let text = b"a b
a
a
a b
a
b
b
"
        .repeat(3);
        let opts = ScanOpts { limit: 2, ..SMALL };
        let got = scan_bytes(&text, SourceKind::Markdown, &["a", "b", ""], opts);
        assert_eq!(got, vec![(1, 0), (1, 1), (2, 0), (4, 1)]);
        let unlimited = scan_bytes(&text, SourceKind::Markdown, &["a", "b"], SMALL);
        assert_eq!(unlimited.len(), 3 * 9);
    }

    #[test]
    fn long_lines_are_judged_by_their_beginning() {
        // Line 2 is 40 bytes, over the 16-byte cap: "late" is in its beginning, "far" is
        // past the cap; line 3 must still be numbered 3.
        let text = b"x\nlate aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa far\nfar\n";
        let got = scan_bytes(text, SourceKind::Markdown, &["late", "far"], SMALL);
        assert_eq!(got, vec![(2, 0), (3, 1)]);
    }

    #[test]
    fn case_insensitive_ascii() {
        let got = scan_bytes(b"Uses PNPM\n", SourceKind::Markdown, &["pnpm"], SMALL);
        assert_eq!(got, vec![(1, 0)]);
    }
}
