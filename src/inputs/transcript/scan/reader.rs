//! Reading one file in chunks into a reused buffer and handing complete lines to the
//! line scanner; over-long lines are judged by their beginning and the rest skipped.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use memchr::{memchr, memrchr};

use super::hits::Hit;
use super::lines::LineScanner;
use super::matcher::{Automaton, Needles};
use super::progress::ScanProgress;
use super::shared::{ScanOpts, Shared, Worker};
use crate::inputs::transcript::source::SourceKind;

/// Matches of exhausted needles in one file above which the worker builds an automaton
/// without them (a build costs about as much as this many matches).
const REBUILD_AFTER_WASTED: u64 = 2_000;

/// Scans one file, returning its hits in line order. The worker's buffer is scratch
/// space, reused across files; it holds at most one chunk plus one capped line. Needles
/// the verifier says are exhausted before the file is read are left out of the
/// automaton (the worker's, or a smaller one built for this file), and a file where all
/// are exhausted is not read.
pub(super) fn scan_file(
    path: &Path,
    kind: SourceKind,
    source: usize,
    shared: &Shared<'_>,
    worker: &mut Worker,
) -> io::Result<Vec<Hit>> {
    let Shared { needles, opts, progress, verify, index, wanted, budget } = *shared;
    let ScanOpts { max_line, limit, .. } = opts;
    let mut file = File::open(path)?;
    let meta = file.metadata()?;
    let file_len = meta.len();
    let mut done = needles.blank.clone();
    verify.exhausted(source, &mut done);
    let open: Vec<bool> = done.iter().map(|d| !d).collect();
    if !open.iter().any(|&o| o) {
        // Nothing left to look for here.
        progress.add(file_len as usize);
        return Ok(Vec::new());
    }
    let plan = match (index, kind) {
        (Some(cache), SourceKind::Jsonl) => {
            plan(cache, path, (&file, &meta), (needles, wanted, budget), &open, progress)
        }
        _ => None,
    };
    if let Some((indexed, blocks)) = &plan
        && blocks.is_empty()
    {
        // The index says no line here can hold a needle: no automaton, no read.
        progress.add(file_len.saturating_sub(*indexed) as usize);
        return Ok(Vec::new());
    }
    // Rebuild when the automaton lacks a needle wanted here, or when matches of needles
    // already done cost the last file much work and some of them could be left out.
    // Through the index, few bytes are read: an automaton of every needle, built once per
    // worker, costs less than rebuilding one for each file's open needles.
    let fits = worker.automaton.as_ref().is_some_and(|a| a.serves(&open));
    let wasteful = plan.is_none()
        && worker.wasted > REBUILD_AFTER_WASTED
        && worker.automaton.as_ref().is_some_and(|a| a.included.iter().zip(&open).any(|(inc, o)| *inc && !o));
    if !fits || wasteful {
        let usable: Vec<bool>;
        let include = if plan.is_some() {
            usable = needles.blank.iter().map(|b| !b).collect();
            &usable
        } else {
            &open
        };
        worker.automaton = Automaton::build(needles, include);
        worker.wasted = 0;
    }
    let Some(automaton) = worker.automaton.as_ref() else {
        progress.add(file_len as usize);
        return Ok(Vec::new());
    };
    let mut lines = LineScanner::new(needles, automaton, kind, source, (max_line, limit), verify, done);
    let buf = &mut worker.buf;
    match plan {
        None => {
            let read = scan_range(&mut file, (0, file_len, 1), &mut lines, buf, opts, Some(progress))?;
            progress.add(file_len.saturating_sub(read) as usize);
        }
        Some((indexed, blocks)) => {
            for (range, wanted) in blocks {
                if progress.is_cancelled() || lines.saturated() {
                    break;
                }
                if wanted.is_empty() || wanted.iter().any(|&n| lines.open_needle(n)) {
                    let read = scan_range(&mut file, range, &mut lines, buf, opts, None)?;
                    crate::inputs::transcript::index::count_read(read);
                }
            }
            progress.add(file_len.saturating_sub(indexed) as usize);
        }
    }
    if buf.capacity() > opts.chunk.saturating_mul(2) {
        // A long line grew the buffer: do not keep its memory for the next files.
        *buf = Vec::new();
    }
    worker.wasted = lines.wasted;
    Ok(lines.hits)
}

/// Byte ranges (from, to, first line) to scan in a file, each with the needles that may
/// be said there (empty: any), from the file's index; and the bytes read to index it.
/// `None` when some needle has no keys, or the index cannot be had: scan it whole.
type Plan = (u64, Vec<((u64, u64, usize), Vec<usize>)>);

fn plan(
    cache: &Path,
    path: &Path,
    (file, meta): (&File, &std::fs::Metadata),
    (needles, keys, budget): (&Needles, &[u32], &crate::inputs::transcript::index::Budget),
    open: &[bool],
    progress: &ScanProgress,
) -> Option<Plan> {
    use crate::inputs::transcript::index;
    let wanted: Vec<usize> = (0..open.len()).filter(|&n| open[n]).collect();
    let narrowable =
        |n: usize| needles.keys.get(n).is_some_and(|alts| !alts.is_empty() && alts.iter().all(|a| !a.is_empty()));
    if !wanted.iter().all(|&n| narrowable(n)) {
        index::FALLBACK_FILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        return None;
    }
    let indexed = std::cell::Cell::new(0u64);
    let add = |n: usize| {
        indexed.set(indexed.get() + n as u64);
        progress.add(n);
    };
    let ix = index::refresh(cache, path, SourceKind::Jsonl, (file, meta), &add, keys, budget)?;
    let mut out = candidate_blocks(&ix, needles, &wanted);
    if meta.len() > ix.indexed_end {
        out.push(((ix.indexed_end, meta.len(), ix.lines as usize + 1), Vec::new()));
    }
    Some((indexed.get(), out))
}

/// The blocks of `ix` to read for needles `wanted`, in order, each with the needles that
/// may be said there (empty: any, for a block holding a line the index could not read).
fn candidate_blocks(
    ix: &crate::inputs::transcript::index::FileIndex,
    needles: &Needles,
    wanted: &[usize],
) -> Vec<((u64, u64, usize), Vec<usize>)> {
    let words = ix.blocks.len().div_ceil(64);
    if words == 0 {
        return Vec::new();
    }
    // The blocks of each key the index holds (it holds only the keys asked for), decoded
    // once into one table: keys are shared by many needles.
    let mut table = vec![0u64; ix.keys.len() * words];
    for (i, bits) in table.chunks_exact_mut(words).enumerate() {
        ix.bits_at(i, bits);
    }
    let blocks_of = |k: u32| ix.keys.binary_search(&k).ok().and_then(|i| table.get(i * words..(i + 1) * words));
    let (mut any, mut all) = (vec![0u64; words], vec![0u64; words]);
    // (block, needle) for each needle's candidate blocks; needle `None`: every needle.
    let mut pairs: Vec<(usize, Option<usize>)> = Vec::new();
    for &n in wanted {
        any.fill(0);
        for keys in &needles.keys[n] {
            all.fill(u64::MAX);
            for &k in keys {
                match blocks_of(k) {
                    Some(b) => all.iter_mut().zip(b).for_each(|(a, x)| *a &= x),
                    None => all.fill(0),
                }
                if all.iter().all(|w| *w == 0) {
                    break;
                }
            }
            any.iter_mut().zip(&all).for_each(|(a, x)| *a |= x);
        }
        for (w, &word) in any.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                pairs.push((w * 64 + word.trailing_zeros() as usize, Some(n)));
                word &= word - 1;
            }
        }
    }
    // Blocks holding a line the index could not read are read for every needle.
    pairs.extend(ix.dirty.iter().enumerate().filter(|(_, d)| **d).map(|(b, _)| (b, None)));
    pairs.sort_unstable();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&(b, _)) = pairs.get(i) {
        let group: Vec<Option<usize>> =
            pairs.get(i..).unwrap_or(&[]).iter().take_while(|p| p.0 == b).map(|p| p.1).collect();
        i += group.len();
        // `None` sorts first: a dirty block is read for every needle.
        let dirty = group.first() == Some(&None);
        let line = ix.blocks.get(b).map_or(1, |x| x.1 as usize);
        let (from, to) = ix.range(b);
        out.push(((from, to, line), if dirty { Vec::new() } else { group.into_iter().flatten().collect() }));
    }
    out
}

/// Scans bytes `start..to` of `file` (whole lines; the first is line `first_line`) into
/// `lines`, reading chunks into `buf`; returns the bytes read. Reports them to `progress`
/// when given.
fn scan_range(
    file: &mut File,
    (start, to, first_line): (u64, u64, usize),
    lines: &mut LineScanner<'_>,
    buf: &mut Vec<u8>,
    opts: ScanOpts,
    progress: Option<&ScanProgress>,
) -> io::Result<u64> {
    let ScanOpts { chunk, max_line, .. } = opts;
    file.seek(SeekFrom::Start(start))?;
    let mut read_total = 0u64;
    buf.clear();
    let mut next_line = first_line; // number of the line starting at buf[0]
    let mut skipping = false; // buf[0] continues a line longer than max_line, already judged
    loop {
        if progress.is_some_and(|p| p.is_cancelled()) {
            break;
        }
        let left = to.saturating_sub(start + read_total);
        let room = (chunk.saturating_add(max_line).saturating_sub(buf.len()).min(chunk) as u64).min(left) as usize;
        buf.reserve(room);
        let n = (&mut *file).take(room as u64).read_to_end(buf)?;
        if let Some(p) = progress {
            p.add(n);
        }
        read_total += n as u64;
        let eof = n < room || start + read_total >= to;
        let data = buf.as_slice();

        let mut from = 0;
        if skipping {
            match memchr(b'\n', data) {
                Some(i) => {
                    from = i + 1;
                    next_line += 1;
                    skipping = false;
                }
                None => {
                    buf.clear();
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
            break;
        }
        // Carry the partial last line to the front.
        buf.drain(..end.min(buf.len()));
        if buf.len() >= max_line {
            // A line longer than the cap: judge its beginning, skip the rest.
            if let Some(head) = buf.get(..max_line) {
                lines.scan_region(head, next_line);
            }
            buf.clear();
            skipping = true;
        }
    }
    Ok(read_total)
}
