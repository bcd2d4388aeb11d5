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
//! - rayon spreads files over the workers.
//!
//! Needles are matched ASCII case-insensitively (the caller lowercases them). A needle
//! with characters JSON escapes (`"`, `\`, control characters) or non-ASCII characters is
//! also looked for in escaped form (`\"`, `\u65e5`…) so that transcripts written by other
//! JSON encoders are searched too; the check against the said text is always on the
//! decoded text.

use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, Input, MatchKind};
use memchr::{memchr, memchr_iter, memmem, memrchr};
use rayon::prelude::*;

use super::file::MAX_LINE_BYTES;
use super::said::said_text;
use super::source::{SourceKind, SourceSet};
use super::text::strip_cr;
use super::unsaid::{containing, unsaid_spans};

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScanOptions {
    /// At most this many hits per (source, needle), the first lines of the file; 0 means
    /// all. Weak sourcing needs a few places a claim is said, not every one: with a
    /// limit, a needle already found enough in a file costs no more parsing there, and a
    /// file where every needle has reached it is not read further.
    pub per_source_limit: usize,
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
    scan_verified(sources, needles, options, progress, &|_, _, _, _, _| true)
}

/// A check of a candidate hit: (source index, 1-based line, needle index, the raw line,
/// what the line says) → keep it.
pub type Verify<'a> = dyn Fn(usize, usize, usize, &[u8], &str) -> bool + Sync + 'a;

/// [`scan_with`], keeping only hits `verify` accepts. `verify` sees what the line says, so
/// the caller can apply rules a substring cannot (a number's unit elsewhere in the line, a
/// relative date anchored at the line's timestamp) in the same single pass, without
/// storing or re-reading lines. Hits it rejects do not count toward the per-source limit.
pub fn scan_verified(
    sources: &SourceSet,
    needles: &[String],
    options: &ScanOptions,
    progress: &ScanProgress,
    verify: &Verify<'_>,
) -> ScanReport {
    let sizes: Vec<u64> = sources.files().iter().map(|f| std::fs::metadata(&f.path).map_or(0, |m| m.len())).collect();
    progress.total.store(sizes.iter().sum(), Ordering::Relaxed);
    let Some(matcher) = Matcher::new(needles) else {
        progress.done.store(progress.bytes_total(), Ordering::Relaxed);
        return ScanReport::default();
    };
    let results: Vec<(usize, io::Result<Vec<Hit>>)> = sources
        .files()
        .par_iter()
        .enumerate()
        .map_init(Vec::new, |buf, (i, f)| {
            let opts = ScanOpts { chunk: CHUNK_BYTES, max_line: MAX_LINE_BYTES, limit: options.per_source_limit };
            let shared = Shared { matcher: &matcher, opts, progress, verify };
            (i, scan_file(&f.path, f.kind, i, &shared, buf))
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
    report
}

/// Sizes used by the per-file scan (smaller in tests, to cross chunk boundaries).
#[derive(Clone, Copy)]
struct ScanOpts {
    chunk: usize,
    max_line: usize,
    /// Hits per needle in one file; 0 = all.
    limit: usize,
}

/// The automaton and the needles it stands for.
struct Matcher {
    /// Leftmost-first (SIMD-accelerated): finds the lines holding any needle.
    finder: AhoCorasick,
    /// Overlapping: every needle on one of those lines.
    ac: AhoCorasick,
    /// Needle index of each automaton pattern (a needle may have escaped variants).
    pattern_needle: Vec<usize>,
    /// Each needle, ASCII-lowercased, for the check against the said text.
    needles: Vec<Vec<u8>>,
    /// How many needles are not blank.
    usable: usize,
}

impl Matcher {
    /// `None` when no needle is usable (all empty or blank).
    fn new(needles: &[String]) -> Option<Matcher> {
        let (patterns, pattern_needle) = patterns_of(needles);
        if patterns.is_empty() {
            return None;
        }
        let build =
            |kind| AhoCorasickBuilder::new().ascii_case_insensitive(true).match_kind(kind).build(&patterns).ok();
        let finder = build(MatchKind::LeftmostFirst)?;
        let ac = build(MatchKind::Standard)?;
        let usable = needles.iter().filter(|n| !n.trim().is_empty()).count();
        let needles = needles.iter().map(|n| n.as_bytes().to_ascii_lowercase()).collect();
        Some(Matcher { finder, ac, pattern_needle, needles, usable })
    }
}

/// The automaton's patterns for `needles`: each usable needle and its JSON-escaped forms
/// (deduplicated), with the needle each pattern stands for.
fn patterns_of(needles: &[String]) -> (Vec<String>, Vec<usize>) {
    let mut patterns: Vec<String> = Vec::new();
    let mut pattern_needle = Vec::new();
    for (i, n) in needles.iter().enumerate() {
        if n.trim().is_empty() {
            continue;
        }
        let mut variants = vec![n.clone(), json_escape(n, false), json_escape(n, true)];
        variants.sort();
        variants.dedup();
        for v in variants {
            patterns.push(v);
            pattern_needle.push(i);
        }
    }
    (patterns, pattern_needle)
}

/// The literal patterns a scan for `needles` searches the raw bytes for: every usable
/// needle and its JSON-escaped forms. What `rg -F -f` should be given to do the same
/// search (the benchmarks' anchor).
pub fn scan_patterns(needles: &[String]) -> Vec<String> {
    patterns_of(needles).0
}

/// `s` as it appears inside a JSON string: `"`, `\` and control characters escaped the
/// way JavaScript's `JSON.stringify` does; with `ascii`, non-ASCII characters as `\uXXXX`
/// too (Python's `json.dumps` default).
fn json_escape(s: &str, ascii: bool) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (ascii && !c.is_ascii()) => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// What every file of one scan shares.
struct Shared<'a> {
    matcher: &'a Matcher,
    opts: ScanOpts,
    progress: &'a ScanProgress,
    verify: &'a Verify<'a>,
}

/// Scans one file, returning its hits in line order.
fn scan_file(
    path: &Path,
    kind: SourceKind,
    source: usize,
    shared: &Shared<'_>,
    buf: &mut Vec<u8>,
) -> io::Result<Vec<Hit>> {
    let Shared { matcher, opts, progress, verify } = *shared;
    let mut file = File::open(path)?;
    let file_len = file.metadata()?.len();
    let mut read_total = 0u64;
    let mut lines = LineScanner::new(matcher, kind, source, opts, verify);
    let size = opts.chunk.saturating_add(opts.max_line);
    if buf.len() < size {
        // Zeroed lazily by the allocator: pages count only once a long line touches them.
        *buf = vec![0u8; size];
    }
    let mut filled = 0usize; // valid bytes at the start of `buf`
    let mut next_line = 1usize; // number of the line starting at buf[0]
    let mut skipping = false; // buf[0] continues a line longer than max_line, already judged
    loop {
        if progress.is_cancelled() {
            break;
        }
        let want = (filled + opts.chunk).min(buf.len());
        let n = read_full(&mut file, buf.get_mut(filled..want).unwrap_or(&mut []))?;
        progress.add(n);
        read_total += n as u64;
        let eof = filled + n < want;
        filled += n;
        let data = buf.get(..filled).unwrap_or(&[]);

        let mut from = 0;
        if skipping {
            match memchr(b'\n', data) {
                Some(i) => {
                    from = i + 1;
                    next_line += 1;
                    skipping = false;
                }
                None => {
                    filled = 0;
                    if eof {
                        break;
                    }
                    continue;
                }
            }
        }
        let rest = data.get(from..).unwrap_or(&[]);
        let end = if eof { data.len() } else { memrchr(b'\n', rest).map_or(from, |i| from + i + 1) };
        if let Some(region) = data.get(from..end)
            && !region.is_empty()
        {
            next_line = lines.scan_region(region, next_line);
        }
        if eof {
            break;
        }
        if lines.saturated() {
            progress.add(file_len.saturating_sub(read_total) as usize);
            break;
        }
        // Carry the partial last line to the front.
        buf.copy_within(end..filled, 0);
        filled -= end;
        if filled >= opts.max_line {
            // A line longer than the cap: judge its beginning, skip the rest.
            if let Some(head) = buf.get(..opts.max_line) {
                lines.scan_region(head, next_line);
            }
            filled = 0;
            skipping = true;
        }
    }
    Ok(lines.hits)
}

/// Reads until `buf` is full or the file ends; returns the bytes read.
fn read_full(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut total = 0;
    while total < buf.len() {
        let Some(rest) = buf.get_mut(total..) else {
            break;
        };
        match file.read(rest) {
            Ok(0) => break,
            Ok(n) => total += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(total)
}

/// Finds raw matches in complete lines and keeps the ones the line says.
struct LineScanner<'a> {
    matcher: &'a Matcher,
    verify: &'a Verify<'a>,
    kind: SourceKind,
    source: usize,
    max_line: usize,
    /// Hits per needle in this file; 0 = all.
    limit: usize,
    /// Per needle: hits so far.
    found: Vec<usize>,
    /// Needles that have not reached the limit yet.
    open: usize,
    /// Per needle: the last line it was noted on (0 = never), to note it once per line.
    seen: Vec<usize>,
    /// Needles with a raw match on the pending line.
    candidates: Vec<usize>,
    hits: Vec<Hit>,
}

impl<'a> LineScanner<'a> {
    fn new(matcher: &'a Matcher, kind: SourceKind, source: usize, opts: ScanOpts, verify: &'a Verify<'a>) -> Self {
        LineScanner {
            matcher,
            verify,
            kind,
            source,
            max_line: opts.max_line,
            limit: opts.limit,
            found: vec![0; matcher.needles.len()],
            open: matcher.usable,
            seen: vec![0; matcher.needles.len()],
            candidates: Vec::new(),
            hits: Vec::new(),
        }
    }

    /// Whether every needle has reached the limit (nothing left to find in this file).
    fn saturated(&self) -> bool {
        self.limit > 0 && self.open == 0
    }

    /// Scans `region` (whole lines; the first is line `first_line`) and returns the
    /// number of the line that follows it.
    fn scan_region(&mut self, region: &[u8], first_line: usize) -> usize {
        let mut line_no = first_line;
        let mut counted = 0usize; // newlines before `counted` are in `line_no`
        let mut at = 0usize; // always the start of a line
        while at < region.len() {
            let input = Input::new(region).range(at..);
            let Ok(Some(m)) = self.matcher.finder.try_find(input) else {
                break;
            };
            let before = region.get(..m.start()).unwrap_or(&[]);
            let start = memrchr(b'\n', before).map_or(0, |i| i + 1).max(at);
            let seg = region.get(counted..start).unwrap_or(&[]);
            line_no += memchr_iter(b'\n', seg).count();
            counted = start;
            let rest = region.get(m.start()..).unwrap_or(&[]);
            let end = memchr(b'\n', rest).map_or(region.len(), |i| m.start() + i);
            let line = region.get(start..end).unwrap_or(&[]);
            let line = line.get(..line.len().min(self.max_line)).unwrap_or(&[]);
            let envelope = match self.kind {
                SourceKind::Jsonl => unsaid_spans(line),
                SourceKind::Markdown => None,
            };
            if self.said_match(line, m.start() - start, m.end() - start, envelope.as_deref()) {
                self.check_line(line, line_no, envelope.as_deref());
            }
            at = end + 1;
        }
        let rest = region.get(counted..).unwrap_or(&[]);
        line_no + memchr_iter(b'\n', rest).count()
    }

    /// Whether `line` has a match outside its envelope, given a first match at
    /// `start..end`: matches inside an envelope value are skipped by resuming the search
    /// after that value (an occurrence the line says has its own match outside it).
    fn said_match(&self, line: &[u8], mut start: usize, mut end: usize, envelope: Option<&[Range<usize>]>) -> bool {
        let Some(spans) = envelope else {
            return end <= line.len();
        };
        loop {
            if end > line.len() {
                return false; // past the cap: never judged
            }
            let Some(span) = containing(spans, start, end) else {
                return true;
            };
            let input = Input::new(line).range(span.end..);
            match self.matcher.finder.try_find(input) {
                Ok(Some(m)) => (start, end) = (m.start(), m.end()),
                _ => return false,
            }
        }
    }

    /// Collects every needle with a raw match in `line` (line `number`) outside the
    /// `envelope` spans, and keeps those the line says.
    fn check_line(&mut self, line: &[u8], number: usize, envelope: Option<&[Range<usize>]>) {
        let matcher = self.matcher;
        let matches = matcher.ac.try_find_overlapping_iter(Input::new(line));
        for m in matches.into_iter().flatten() {
            let Some(&needle) = matcher.pattern_needle.get(m.pattern().as_usize()) else {
                continue;
            };
            let full = self.limit > 0 && self.found.get(needle) >= Some(&self.limit);
            if full || self.seen.get(needle) == Some(&number) {
                continue;
            }
            if envelope.is_some_and(|s| containing(s, m.start(), m.end()).is_some()) {
                continue;
            }
            if let Some(seen) = self.seen.get_mut(needle) {
                *seen = number;
                self.candidates.push(needle);
            }
        }
        if self.candidates.is_empty() {
            return;
        }
        let said = match self.kind {
            SourceKind::Jsonl => said_text(line),
            SourceKind::Markdown => String::from_utf8_lossy(strip_cr(line)).into_owned(),
        };
        let said_lower = said.as_bytes().to_ascii_lowercase();
        self.candidates.sort_unstable();
        for &needle in &self.candidates {
            let Some(n) = self.matcher.needles.get(needle) else {
                continue;
            };
            if memmem::find(&said_lower, n).is_some() && (self.verify)(self.source, number, needle, line, &said) {
                self.hits.push(Hit { source: self.source, line: number, needle });
                if let Some(count) = self.found.get_mut(needle) {
                    *count += 1;
                    if *count == self.limit {
                        self.open = self.open.saturating_sub(1);
                    }
                }
            }
        }
        self.candidates.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn scan_bytes(bytes: &[u8], kind: SourceKind, needles: &[&str], opts: ScanOpts) -> Vec<(usize, usize)> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        File::create(&path).unwrap().write_all(bytes).unwrap();
        let needles: Vec<String> = needles.iter().map(|s| s.to_string()).collect();
        let m = Matcher::new(&needles).unwrap();
        let mut buf = Vec::new();
        let progress = ScanProgress::new();
        let shared = Shared { matcher: &m, opts, progress: &progress, verify: &|_, _, _, _, _| true };
        let hits = scan_file(&path, kind, 0, &shared, &mut buf).unwrap();
        hits.iter().map(|h| (h.line, h.needle)).collect()
    }

    const SMALL: ScanOpts = ScanOpts { chunk: 7, max_line: 16, limit: 0 };

    #[test]
    fn escapes_like_json_encoders() {
        assert_eq!(json_escape(r#"say "hi"\"#, false), r#"say \"hi\"\\"#);
        assert_eq!(json_escape("a\nb", false), "a\\nb");
        assert_eq!(json_escape("先週", false), "先週");
        assert_eq!(json_escape("先週", true), "\\u5148\\u9031");
        assert_eq!(json_escape("😀", true), "\\ud83d\\ude00");
    }

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

    #[test]
    fn blank_needles_match_nothing() {
        assert!(Matcher::new(&["".to_string(), "  ".to_string()]).is_none());
    }
}
