//! The credential finder's own cost: `secrets::find` over every line of every `*.jsonl`
//! under a folder (what the transcript index does to each line it keeps), single-threaded,
//! timed. For BENCHMARKS.md (credential coverage: scan time before → after).
//!
//! ```sh
//! cargo run --release --example secrets_scan -- /tmp/dr-1g/project
//! ```

use std::io::BufRead;
use std::time::Instant;

fn main() {
    let root = std::env::args().nth(1).expect("usage: secrets_scan DIR");
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("read_dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "jsonl") {
                files.push(p);
            }
        }
    }
    files.sort();
    let (mut bytes, mut lines, mut found) = (0usize, 0usize, 0usize);
    let start = Instant::now();
    for f in &files {
        let reader = std::io::BufReader::with_capacity(1 << 21, std::fs::File::open(f).expect("open"));
        for line in reader.split(b'\n') {
            let line = line.expect("read");
            bytes += line.len() + 1;
            lines += 1;
            found += dreamreview::base::secrets::find(&String::from_utf8_lossy(&line)).len();
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let mib = bytes as f64 / (1024.0 * 1024.0);
    println!(
        "{} files, {lines} lines, {mib:.1} MiB, {found} secrets: {secs:.2} s, {:.0} MiB/s",
        files.len(),
        mib / secs
    );
}
