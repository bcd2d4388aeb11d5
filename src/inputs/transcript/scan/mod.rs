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

pub mod hits;
pub mod keys;
mod lines;
mod matcher;
pub mod progress;
mod reader;
mod shared;

use std::sync::atomic::Ordering;

use rayon::prelude::*;

use super::file::MAX_LINE_BYTES;
use super::source::SourceSet;
pub use hits::{Hit, LineHit, Verdict, Verifier, VerifyLine, WithExhausted};
pub use keys::{NeedleKeys, substring_keys};
use matcher::Needles;
pub use matcher::scan_patterns;
pub use progress::ScanProgress;
use shared::{ScanOpts, Shared, Worker};

/// Bytes read from a file at a time (2 MiB).
pub const CHUNK_BYTES: usize = 2 << 20;

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
