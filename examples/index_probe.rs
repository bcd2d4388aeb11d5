//! Probe: per needle, the share of index blocks that are candidates (benchmark aid).
use dreamreview::transcript::index::{FileIndex, grams::needle_keys};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cache = std::path::Path::new(&args[1]);
    let needles: Vec<String> = std::fs::read_to_string(&args[2]).unwrap().lines().map(str::to_string).collect();
    let mut idx = Vec::new();
    let mut stack = vec![cache.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "idx") {
                idx.push(FileIndex::decode(&std::fs::read(&p).unwrap()).unwrap());
            }
        }
    }
    let total: usize = idx.iter().map(|i| i.blocks.len()).sum();
    let dirty: usize = idx.iter().map(|i| i.dirty.iter().filter(|d| **d).count()).sum();
    let keys: usize = idx.iter().map(|i| i.keys.len()).sum();
    let post: usize = idx.iter().map(|i| i.postings.len()).sum();
    println!("files {} blocks {total} dirty {dirty} keys {keys} postings {post}", idx.len());
    let mut rows = Vec::new();
    for n in &needles {
        let keys = needle_keys(n);
        let mut c = 0usize;
        for ix in &idx {
            let lists: Vec<&[u32]> = keys.iter().map(|&k| ix.blocks_of(k)).collect();
            for b in 0..ix.blocks.len() as u32 {
                if !keys.is_empty() && lists.iter().all(|l| l.binary_search(&b).is_ok()) {
                    c += 1;
                }
            }
        }
        rows.push((c, n.clone(), keys.len()));
    }
    rows.sort();
    rows.reverse();
    for (c, n, k) in rows.iter().take(40) {
        println!("{:6.2}% {k:3} {n:?}", 100.0 * *c as f64 / total as f64);
    }
}
