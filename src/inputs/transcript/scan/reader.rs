//! Reading one file in chunks into a reused buffer and handing complete lines to the
//! line scanner; over-long lines are judged by their beginning and the rest skipped.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use memchr::{memchr, memrchr};

use super::lines::LineScanner;
use super::{Automaton, Hit, ScanOpts, Shared, Worker};
use crate::transcript::source::SourceKind;

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
    let Shared { needles, opts, progress, verify } = *shared;
    let ScanOpts { chunk, max_line, limit } = opts;
    let mut file = File::open(path)?;
    let file_len = file.metadata()?.len();
    let mut done = needles.blank.clone();
    verify.exhausted(source, &mut done);
    let open: Vec<bool> = done.iter().map(|d| !d).collect();
    // Rebuild when the automaton lacks a needle wanted here, or when matches of needles
    // already done cost the last file much work and some of them could be left out.
    let fits = worker.automaton.as_ref().is_some_and(|a| a.serves(&open));
    let wasteful = worker.wasted > REBUILD_AFTER_WASTED
        && worker.automaton.as_ref().is_some_and(|a| a.included.iter().zip(&open).any(|(inc, o)| *inc && !o));
    if !fits || wasteful {
        worker.automaton = Automaton::build(needles, &open);
        worker.wasted = 0;
    }
    let Some(automaton) = worker.automaton.as_ref() else {
        // Nothing left to look for here.
        progress.add(file_len as usize);
        return Ok(Vec::new());
    };
    let mut read_total = 0u64;
    let mut lines = LineScanner::new(needles, automaton, kind, source, (max_line, limit), verify, done);
    let buf = &mut worker.buf;
    buf.clear();
    let mut next_line = 1usize; // number of the line starting at buf[0]
    let mut skipping = false; // buf[0] continues a line longer than max_line, already judged
    loop {
        if progress.is_cancelled() {
            break;
        }
        let room = chunk.saturating_add(max_line).saturating_sub(buf.len()).min(chunk);
        buf.reserve(room);
        let n = (&mut file).take(room as u64).read_to_end(buf)?;
        progress.add(n);
        read_total += n as u64;
        let eof = n < room;
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
            progress.add(file_len.saturating_sub(read_total) as usize);
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
    if buf.capacity() > chunk.saturating_mul(2) {
        // A long line grew the buffer: do not keep its memory for the next files.
        *buf = Vec::new();
    }
    worker.wasted = lines.wasted;
    Ok(lines.hits)
}
