//! `memory.diff` parser: `memdiff::parse`, `layout` and `reverse_apply` never panic, a
//! header path with `..` is never placed in the folder, and a parsed hunk reverse-applies
//! to its own new side.
#![no_main]

use dreamreview::inputs::memdiff::{layout, parse, reverse_apply};
use dreamreview::inputs::snapshot::{Entry, Snapshot};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(files) = parse(&text) else {
        return;
    };
    // A proposal holding every new-side name (and its last component), so `layout` has
    // something to vote with.
    let mut proposed = Snapshot::new();
    for f in &files {
        proposed.insert(f.new_path.clone(), Entry::File(Vec::new()));
        if let Some(base) = f.new_path.rsplit('/').next() {
            proposed.insert(base.to_string(), Entry::File(Vec::new()));
        }
    }
    if let Some(l) = layout(&files, &proposed) {
        assert_eq!(l.paths.len(), files.len());
        for p in l.paths.iter().flatten() {
            assert!(!p.split('/').any(|c| c == ".."), "relative path escapes: {p}");
        }
        // The live root is never moved up a level, and a header path with `..` is never
        // placed in the folder (`mem/../x.md` is outside, not `x.md`).
        let dotdot = |p: &str| std::path::Path::new(p).components().any(|c| c == std::path::Component::ParentDir);
        assert!(!dotdot(&l.live_root.to_string_lossy()), "live root with ..: {:?}", l.live_root);
        for (f, p) in files.iter().zip(&l.paths) {
            let raw = if f.old_path == "/dev/null" { &f.new_path } else { &f.old_path };
            assert!(p.is_err() || !dotdot(raw), "{raw} placed in the folder as {p:?}");
        }
    }
    for f in &files {
        for h in &f.hunks {
            let olds = h.lines.iter().filter(|(op, _)| *op != '+').count();
            let news = h.lines.iter().filter(|(op, _)| *op != '-').count();
            assert_eq!((olds, news), (h.old_lines, h.new_lines), "counts do not match the header");
        }
        // Rebuild a new side from a single hunk placed at line 1 and reverse-apply it:
        // the result must be exactly the hunk's old side.
        if let Some(h) = f.hunks.first() {
            let new: String = h.lines.iter().filter(|(op, _)| *op != '-').map(|(_, t)| t.as_str()).collect();
            let old: String = h.lines.iter().filter(|(op, _)| *op != '+').map(|(_, t)| t.as_str()).collect();
            let mut moved = h.clone();
            moved.new_start = if moved.new_lines == 0 { 0 } else { 1 };
            // Only when the lines split back as they were: every line but the last ends
            // with `\n` and none is empty (an empty unterminated line is no line at all).
            let news: Vec<&str> = h.lines.iter().filter(|(op, _)| *op != '-').map(|(_, t)| t.as_str()).collect();
            let splits_back = news.iter().rev().skip(1).all(|t| t.ends_with('\n')) && news.iter().all(|t| !t.is_empty());
            if splits_back {
                assert_eq!(reverse_apply(&new, std::slice::from_ref(&moved)), Some(old));
            }
        }
        let _ = reverse_apply(&text, &f.hunks);
    }
});
