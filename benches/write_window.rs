//! The window that remains when `apply` replaces a note: between the last check that the
//! note is still the file the review was computed from (an `lstat` of its path, compared
//! with the identity taken when its content was verified) and the `rename` that puts the
//! new file in its place. An edit landing inside it is overwritten; one landing before it
//! stops the write, one landing after it is seen by the check before the commit.
//!
//! ```text
//! cargo bench --bench write_window -- [DIR] [ROUNDS]
//! ```
//!
//! Measures that pair of system calls exactly as `src/store/repo/write.rs` issues them
//! (`symlink_metadata`, then `rename` of a flushed temp file in the same folder), on files
//! in DIR (default: a temp folder), and prints the median, 99th percentile and maximum in
//! microseconds. The temp file is written and flushed before the clock starts, as in
//! dreamreview.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let keep = tempfile_dir(args.first().map(PathBuf::from))?;
    let dir = keep.0.clone();
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(5_000);
    let note = dir.join("note.md");
    std::fs::write(&note, b"note\n")?;
    let mut windows = Vec::with_capacity(rounds);
    for i in 0..rounds {
        let tmp = dir.join(format!(".note.md.bench-{i}.tmp"));
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(format!("note {i}\n").as_bytes())?;
        f.sync_all()?;
        let start = Instant::now();
        let _identity = std::fs::symlink_metadata(&note)?;
        std::fs::rename(&tmp, &note)?;
        windows.push(start.elapsed());
    }
    windows.sort();
    let at = |q: f64| windows[((windows.len() - 1) as f64 * q) as usize];
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "{rounds} replacements in {}: check-to-rename window p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs",
        dir.display(),
        us(at(0.5)),
        us(at(0.99)),
        us(at(1.0))
    );
    Ok(())
}

/// The folder to measure in (under DIR, or the temp folder), removed at the end.
struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tempfile_dir(given: Option<PathBuf>) -> std::io::Result<Dir> {
    let root = given.unwrap_or_else(std::env::temp_dir);
    let d = root.join(format!("dreamreview-window-{}", std::process::id()));
    std::fs::create_dir_all(&d)?;
    Ok(Dir(d))
}
