//! Reading one source file by physical line number without loading it whole.
//!
//! [`Transcript::open`] streams the file once to record where each line starts (8 bytes
//! per line: a 200 MB transcript of 5 KB lines needs 320 KB), then [`Transcript::line`]
//! seeks to a line and reads just it, at most [`MAX_LINE_BYTES`] of it. The file is
//! reopened for each request, so a `Transcript` holds no descriptor and is `Send + Sync`;
//! a session still appending to its transcript does not disturb lines already indexed.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use memchr::{memchr, memchr_iter};

use super::render::{RenderedLine, render_jsonl, render_note};
use super::said::said_text_in;
use super::source::{SourceFile, SourceKind};
use super::text::strip_cr;
use crate::base::date::Date;

/// The most of one line dreamreview reads (4 MiB). A longer line (a huge tool output, an
/// inline image) is read up to this cap, marked truncated, and its content is judged by
/// that beginning only, the same way by the reader and by the scanner.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// Size of the reads used while indexing.
const INDEX_BUF: usize = 1 << 20;

/// One physical line of a source, as read from disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based physical line number.
    pub number: usize,
    /// The line's bytes without its terminator (`\n` or `\r\n`); at most the cap.
    pub bytes: Vec<u8>,
    /// True when the line is longer than the cap and `bytes` is only its beginning.
    pub truncated: bool,
    /// The line's full length in bytes, without its `\n` (a `\r` before it counts).
    pub len: u64,
}

/// An opened source file: its line index and how to read its lines.
#[derive(Clone, Debug)]
pub struct Transcript {
    path: PathBuf,
    name: String,
    kind: SourceKind,
    date: Option<Date>,
    /// Byte offset where each line starts.
    starts: Vec<u64>,
    /// File length when indexed.
    end: u64,
    /// Whether the file ended with `\n` when indexed.
    ends_with_newline: bool,
}

impl Transcript {
    /// Opens `source` and indexes its lines (one streaming pass).
    pub fn open(source: &SourceFile) -> Result<Transcript> {
        let file = File::open(&source.path)
            .with_context(|| format!("transcript {}: cannot open it", source.path.display()))?;
        let (starts, end, ends_with_newline) =
            index_lines(file).with_context(|| format!("transcript {}: cannot read it", source.path.display()))?;
        Ok(Transcript {
            path: source.path.clone(),
            name: source.name.clone(),
            kind: source.kind,
            date: source.date,
            starts,
            end,
            ends_with_newline,
        })
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The source's name (relative to its root).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How its lines are read.
    pub fn kind(&self) -> SourceKind {
        self.kind
    }

    /// The date its file name gives (Markdown daily notes), if any.
    pub fn date(&self) -> Option<Date> {
        self.date
    }

    /// Number of lines; a last line without `\n` counts, an empty file has none.
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The last line of a chunk starting at line `first` (valid) of at most `lines` lines
    /// and, past its first line, at most `bytes` bytes: what is read at once when a whole
    /// file is walked (256 lines of 4 MiB would be 1 GiB held).
    pub fn chunk_end(&self, first: usize, lines: usize, bytes: u64) -> usize {
        let last = first.saturating_add(lines.max(1) - 1).min(self.line_count()).max(first);
        let offset = |n: usize| n.checked_sub(1).and_then(|i| self.starts.get(i)).copied().unwrap_or(self.end);
        let from = offset(first);
        // The first line past `first` that ends beyond `from + bytes`, less one.
        let over = (first + 1..=last).find(|&n| offset(n + 1).saturating_sub(from) > bytes);
        over.map_or(last, |n| n - 1)
    }

    /// Line `n` (1-based), `None` past the end.
    pub fn line(&self, n: usize) -> Result<Option<Line>> {
        Ok(self.lines(n..=n)?.pop())
    }

    /// Lines in `range` (1-based, inclusive), clamped to the lines that exist.
    pub fn lines(&self, range: RangeInclusive<usize>) -> Result<Vec<Line>> {
        self.lines_capped(range, MAX_LINE_BYTES)
    }

    /// Like [`Transcript::lines`], reading at most `cap` bytes of each line.
    pub(crate) fn lines_capped(&self, range: RangeInclusive<usize>, cap: usize) -> Result<Vec<Line>> {
        let first = (*range.start()).max(1);
        let last = (*range.end()).min(self.line_count());
        if first > last {
            return Ok(Vec::new());
        }
        let mut file = self.open_file()?;
        let mut out = Vec::with_capacity(last - first + 1);
        for n in first..=last {
            out.push(self.read_line_from(&mut file, n, cap)?);
        }
        Ok(out)
    }

    /// Opens the file for a series of [`Transcript::read_line_from`] calls.
    pub(crate) fn open_file(&self) -> Result<File> {
        File::open(&self.path).with_context(|| format!("transcript {}: cannot open it", self.path.display()))
    }

    /// Reads line `n` (which must exist) from `file`, at most `cap` bytes of it.
    pub(crate) fn read_line_from(&self, file: &mut File, n: usize, cap: usize) -> Result<Line> {
        self.read_line(file, n, cap)
            .with_context(|| format!("transcript {}: cannot read line {n}", self.path.display()))
    }

    /// Line `n` rendered for display, `None` past the end.
    pub fn render(&self, n: usize) -> Result<Option<RenderedLine>> {
        Ok(self.line(n)?.map(|l| self.render_line(&l)))
    }

    /// Renders a line read from this file (JSONL or note, truncation marked).
    pub fn render_line(&self, line: &Line) -> RenderedLine {
        let mut r = match self.kind {
            SourceKind::Jsonl => render_jsonl(&line.bytes, line.number),
            SourceKind::Markdown => render_note(&line.bytes, line.number, self.date),
        };
        if line.truncated && !r.truncated {
            r.truncated = true;
            r.text.push_str(" […]");
        }
        r
    }

    /// What line `n` says (see [`said_text`]; for a Markdown source, the line itself).
    pub fn said_text(&self, n: usize) -> Result<Option<String>> {
        Ok(self.line(n)?.map(|l| self.said_text_of(&l)))
    }

    /// What a line read from this file says.
    pub fn said_text_of(&self, line: &Line) -> String {
        said_text_in(self.kind, &line.bytes)
    }

    /// Reads line `n` (valid) from `file`.
    fn read_line(&self, file: &mut File, n: usize, cap: usize) -> io::Result<Line> {
        let start = n.checked_sub(1).and_then(|i| self.starts.get(i)).copied().unwrap_or(self.end);
        let next = self.starts.get(n).copied().unwrap_or(self.end);
        let has_newline = n < self.starts.len() || self.ends_with_newline;
        let len = next.saturating_sub(start).saturating_sub(u64::from(has_newline));
        let truncated = len > cap as u64;
        let want = len.min(cap as u64);
        file.seek(SeekFrom::Start(start))?;
        let mut bytes = Vec::with_capacity(want as usize);
        file.by_ref().take(want).read_to_end(&mut bytes)?;
        if let Some(nl) = memchr(b'\n', &bytes) {
            // The file was rewritten since it was indexed: never return two lines.
            bytes.truncate(nl);
        }
        if !truncated {
            let kept = strip_cr(&bytes).len();
            bytes.truncate(kept);
        }
        Ok(Line { number: n, bytes, truncated, len })
    }
}

/// Streams `file`, returning the start offset of each line, the total length and whether
/// the last byte is `\n`.
fn index_lines(mut file: File) -> io::Result<(Vec<u64>, u64, bool)> {
    let mut starts: Vec<u64> = Vec::new();
    let mut buf = vec![0u8; INDEX_BUF];
    let mut offset: u64 = 0;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if offset == 0 {
            starts.push(0);
        }
        let chunk = buf.get(..n).unwrap_or(&[]);
        starts.extend(memchr_iter(b'\n', chunk).map(|i| offset + i as u64 + 1));
        offset += n as u64;
    }
    // A '\n' at the very end does not start another line.
    let ends_with_newline = offset > 0 && starts.last() == Some(&offset);
    if ends_with_newline {
        starts.pop();
    }
    Ok((starts, offset, ends_with_newline))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn transcript_of(bytes: &[u8], name: &str) -> (tempfile::TempDir, Transcript) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        File::create(&path).unwrap().write_all(bytes).unwrap();
        let t = Transcript::open(&SourceFile::new(path, name.to_string())).unwrap();
        (dir, t)
    }

    #[test]
    fn a_chunk_stops_at_its_byte_size_but_holds_at_least_one_line() {
        // Lines of 10, 10, 100, 10 bytes (newlines included).
        let text = format!("{}\n{}\n{}\n{}\n", "a".repeat(9), "b".repeat(9), "c".repeat(99), "d".repeat(9));
        let (_d, t) = transcript_of(text.as_bytes(), "t.jsonl");
        assert_eq!(t.chunk_end(1, 256, 1 << 20), 4);
        assert_eq!(t.chunk_end(1, 2, 1 << 20), 2);
        assert_eq!(t.chunk_end(1, 256, 20), 2);
        assert_eq!(t.chunk_end(3, 256, 20), 3, "one line past the size still forms a chunk");
        assert_eq!(t.chunk_end(4, 256, 20), 4);
    }

    #[test]
    fn counts_lines_with_and_without_final_newline() {
        assert_eq!(transcript_of(b"", "a.jsonl").1.line_count(), 0);
        assert_eq!(transcript_of(b"\n", "a.jsonl").1.line_count(), 1);
        assert_eq!(transcript_of(b"a\nb", "a.jsonl").1.line_count(), 2);
        assert_eq!(transcript_of(b"a\nb\n", "a.jsonl").1.line_count(), 2);
        assert_eq!(transcript_of(b"a\n\n\nb\n", "a.jsonl").1.line_count(), 4);
    }

    #[test]
    fn fetches_lines_by_number() {
        let (_d, t) = transcript_of("one\r\ntwo\n\n日本語".as_bytes(), "n.md");
        let got: Vec<String> = t
            .lines(0..=9)
            .unwrap()
            .iter()
            .map(|l| format!("{}:{}", l.number, String::from_utf8_lossy(&l.bytes)))
            .collect();
        assert_eq!(got, ["1:one", "2:two", "3:", "4:日本語"]);
        assert_eq!(t.line(5).unwrap(), None);
        assert_eq!(t.line(0).unwrap(), None);
        let l = t.line(4).unwrap().unwrap();
        assert_eq!((l.truncated, l.len), (false, 9));
    }

    #[test]
    fn truncates_long_lines_at_the_cap() {
        let mut data = b"short\n".to_vec();
        data.extend(std::iter::repeat_n(b'x', 100));
        data.extend_from_slice(b"\nlast");
        let (_d, t) = transcript_of(&data, "n.md");
        let lines = t.lines_capped(1..=3, 10).unwrap();
        assert_eq!(lines[0].bytes, b"short");
        assert!(!lines[0].truncated);
        assert_eq!(lines[1].bytes, b"xxxxxxxxxx");
        assert!(lines[1].truncated);
        assert_eq!(lines[1].len, 100);
        assert_eq!(lines[2].bytes, b"last");
    }

    #[test]
    fn indexes_across_buffer_boundaries() {
        let mut data = Vec::new();
        for i in 0..300_000 {
            data.extend_from_slice(format!("{i}\n").as_bytes());
        }
        let (_d, t) = transcript_of(&data, "big.md");
        assert_eq!(t.line_count(), 300_000);
        assert_eq!(t.line(123_457).unwrap().unwrap().bytes, b"123456");
        assert_eq!(t.line(300_000).unwrap().unwrap().bytes, b"299999");
    }
}
