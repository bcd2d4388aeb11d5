//! `memory.diff` as GNU `diff -ruN LIVE PROPOSED` writes it (with `LC_ALL=C`): files in
//! depth-first order of their names' bytes, a `diff -ruN A B` line and `---`/`+++` headers
//! with modification times (`%Y-%m-%d %H:%M:%S.%N %z`, local time; the epoch for a side
//! that does not exist), hunks of 3 context lines (`@@ -a,b +c,d @@`, a one-line range
//! without its count, an empty one as the line before and `,0`), `\ No newline at end of
//! file` after a line without a terminator, and `Binary files A and B differ` for a file
//! holding a NUL byte. Lines are compared as bytes (similar's Myers diff).

use similar::{Algorithm, TextDiff};
use std::collections::BTreeMap;

/// One side of a file: its bytes and its modification time (seconds, nanoseconds since
/// the Unix epoch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Its modification time.
    pub mtime: (i64, u32),
}

/// The files of one tree, keyed by '/'-separated relative path.
pub type Tree = BTreeMap<String, Side>;

/// The whole `diff -ruN old_root new_root` output of two trees.
pub fn tree_diff(old_root: &str, new_root: &str, old: &Tree, new: &Tree, zone: &jiff::tz::TimeZone) -> Vec<u8> {
    let mut paths: Vec<&String> = old.keys().chain(new.keys()).collect();
    // diff -r visits each folder's names in byte order and descends into a folder where
    // its name stands: `a/x.md` comes before `a.md`.
    paths.sort_by(|a, b| a.split('/').cmp(b.split('/')));
    paths.dedup();
    let mut out = Vec::new();
    for p in paths {
        let o = old.get(p);
        let n = new.get(p);
        let (ob, nb) = (o.map_or(&[][..], |s| &s.bytes[..]), n.map_or(&[][..], |s| &s.bytes[..]));
        if ob == nb {
            continue;
        }
        let old_label = format!("{old_root}/{p}");
        let new_label = format!("{new_root}/{p}");
        if memchr::memchr(0, ob).is_some() || memchr::memchr(0, nb).is_some() {
            out.extend_from_slice(format!("Binary files {old_label} and {new_label} differ\n").as_bytes());
            continue;
        }
        out.extend_from_slice(format!("diff -ruN {old_label} {new_label}\n").as_bytes());
        out.extend_from_slice(format!("--- {old_label}\t{}\n", stamp(o.map(|s| s.mtime), zone)).as_bytes());
        out.extend_from_slice(format!("+++ {new_label}\t{}\n", stamp(n.map(|s| s.mtime), zone)).as_bytes());
        hunks(&mut out, ob, nb);
    }
    out
}

/// A header's time: the file's modification time in `zone`, or the epoch for a side that
/// does not exist (what `diff -N` prints).
fn stamp(mtime: Option<(i64, u32)>, zone: &jiff::tz::TimeZone) -> String {
    let (secs, nanos) = mtime.unwrap_or((0, 0));
    let ts = jiff::Timestamp::new(secs, nanos as i32).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    let z = ts.to_zoned_datetime(zone.clone());
    format!("{}.{:09} {}", z.strftime("%Y-%m-%d %H:%M:%S"), ts.subsec_nanosecond(), z.strftime("%z"))
}

/// The `@@` hunks of two texts.
fn hunks(out: &mut Vec<u8>, old: &[u8], new: &[u8]) {
    let diff = TextDiff::configure().algorithm(Algorithm::Myers).diff_lines(old, new);
    for group in diff.grouped_ops(3) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else { continue };
        let o = first.old_range().start..last.old_range().end;
        let n = first.new_range().start..last.new_range().end;
        out.extend_from_slice(format!("@@ -{} +{} @@\n", range(&o), range(&n)).as_bytes());
        for op in &group {
            for change in diff.iter_changes(op) {
                let mark = match change.tag() {
                    similar::ChangeTag::Equal => b' ',
                    similar::ChangeTag::Delete => b'-',
                    similar::ChangeTag::Insert => b'+',
                };
                out.push(mark);
                let line: &[u8] = change.value();
                out.extend_from_slice(line);
                if !line.ends_with(b"\n") {
                    out.extend_from_slice(b"\n\\ No newline at end of file\n");
                }
            }
        }
    }
}

/// A unified range: `start,count`, `start` alone for one line, `before,0` when empty.
fn range(r: &std::ops::Range<usize>) -> String {
    match r.len() {
        0 => format!("{},0", r.start),
        1 => format!("{}", r.start + 1),
        n => format!("{},{n}", r.start + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(s: &str) -> Side {
        Side { bytes: s.as_bytes().to_vec(), mtime: (0, 0) }
    }

    #[test]
    fn ranges_follow_gnu_diff() {
        assert_eq!(range(&(0..0)), "0,0");
        assert_eq!(range(&(4..4)), "4,0");
        assert_eq!(range(&(2..3)), "3");
        assert_eq!(range(&(0..5)), "1,5");
    }

    #[test]
    fn folders_come_where_their_name_sorts() {
        let old = Tree::from([("a.md".into(), side("1\n")), ("a/x.md".into(), side("1\n"))]);
        let new = Tree::from([("a.md".into(), side("2\n")), ("a/x.md".into(), side("2\n"))]);
        let out = String::from_utf8(tree_diff("L", "P", &old, &new, &jiff::tz::TimeZone::UTC)).unwrap();
        let x = out.find("L/a/x.md").unwrap();
        let a = out.find("L/a.md").unwrap();
        assert!(x < a, "{out}");
    }

    #[test]
    fn a_missing_final_newline_is_marked() {
        let old = Tree::from([("n.md".into(), side("a\nb"))]);
        let new = Tree::from([("n.md".into(), side("a\nc\n"))]);
        let out = String::from_utf8(tree_diff("L", "P", &old, &new, &jiff::tz::TimeZone::UTC)).unwrap();
        assert!(out.ends_with("@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"), "{out}");
        assert!(out.contains("--- L/n.md\t1970-01-01 00:00:00.000000000 +0000\n"), "{out}");
    }
}
