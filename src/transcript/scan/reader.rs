//! Reading one file in chunks into a reused buffer and handing complete lines to the
//! line scanner; over-long lines are judged by their beginning and the rest skipped.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use memchr::{memchr, memrchr};

use super::lines::LineScanner;
use super::{Hit, ScanOpts, Shared};
use crate::transcript::source::SourceKind;

/// Scans one file, returning its hits in line order.
pub(super) fn scan_file(
    path: &Path,
    kind: SourceKind,
    source: usize,
    shared: &Shared<'_>,
    buf: &mut Vec<u8>,
) -> io::Result<Vec<Hit>> {
    let Shared { matcher, opts, progress, verify } = *shared;
    let ScanOpts { chunk, max_line, limit } = opts;
    let mut file = File::open(path)?;
    let file_len = file.metadata()?.len();
    let mut read_total = 0u64;
    let mut lines = LineScanner::new(matcher, kind, source, (max_line, limit), verify);
    let size = chunk.saturating_add(max_line);
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
        let want = (filled + chunk).min(buf.len());
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
        if filled >= max_line {
            // A line longer than the cap: judge its beginning, skip the rest.
            if let Some(head) = buf.get(..max_line) {
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
