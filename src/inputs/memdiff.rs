//! `memory.diff`: the unified diff (`diff -ruN live proposed`, or `git diff`) a dream.sh run
//! leaves beside its proposal. Parsed to find the live folder it was taken against and to
//! recover the *base* the dream saw (`docs/review-model.md`, "Base and drift").

use crate::base::text::split_lines;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// One file section of a unified diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchFile {
    /// The `---` path, without its timestamp (and without git's `a/` prefix).
    pub old_path: String,
    /// The `+++` path, without its timestamp (and without git's `b/` prefix).
    pub new_path: String,
    /// The old side did not exist (`/dev/null`, or `diff -N`'s epoch timestamp with `-0,0`).
    pub old_absent: bool,
    /// The new side does not exist (the dream deleted the file).
    pub new_absent: bool,
    /// `Binary files … differ`: no hunks, contents unknown.
    pub binary: bool,
    /// The hunks, in order.
    pub hunks: Vec<PatchHunk>,
    /// 1-based line of this section's first header line in the diff.
    pub line: usize,
}

/// One `@@ -a,b +c,d @@` hunk. Line texts keep their terminators; `\ No newline at end of
/// file` has already been applied (the line before it has no terminator).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchHunk {
    /// Start line of the old side, unified-diff convention (the line before when empty).
    pub old_start: usize,
    /// Number of old-side lines.
    pub old_lines: usize,
    /// Start line of the new side, unified-diff convention.
    pub new_start: usize,
    /// Number of new-side lines.
    pub new_lines: usize,
    /// Lines as `(op, text)` with op one of `' '`, `'-'`, `'+'`.
    pub lines: Vec<(char, String)>,
}

impl PatchHunk {
    fn side(&self, keep: char) -> impl Iterator<Item = &str> {
        self.lines.iter().filter(move |(op, _)| *op == ' ' || *op == keep).map(|(_, t)| t.as_str())
    }
}

/// Why a `memory.diff` could not be read; carries the 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line of the diff where parsing failed (0: the whole file).
    pub line: usize,
    /// What is wrong, in one sentence.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 { write!(f, "{}", self.message) } else { write!(f, "line {}: {}", self.line, self.message) }
    }
}

/// Parses a unified diff. Lines outside file sections (`diff -ruN …`, `Only in …`, git's
/// `index`/mode lines) are skipped. Non-empty text with no file section at all is an error:
/// it is not a diff.
pub fn parse(text: &str) -> Result<Vec<PatchFile>, ParseError> {
    let lines = split_lines(text);
    let mut files: Vec<PatchFile> = Vec::new();
    let mut git_prefixes = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let no = i + 1;
        if line.starts_with("diff --git ") {
            git_prefixes = true;
        } else if let Some(rest) = line.strip_prefix("Binary files ") {
            if let Some((a, b)) = rest.trim_end().strip_suffix(" differ").and_then(|r| r.split_once(" and ")) {
                files.push(PatchFile {
                    old_path: strip_git_prefix(&unquote(a), git_prefixes, "a/"),
                    new_path: strip_git_prefix(&unquote(b), git_prefixes, "b/"),
                    old_absent: a == "/dev/null",
                    new_absent: b == "/dev/null",
                    binary: true,
                    hunks: Vec::new(),
                    line: no,
                });
            }
        } else if line.starts_with("--- ") && lines.get(i + 1).is_some_and(|l| l.starts_with("+++ ")) {
            let (old_path, old_epoch) = header_path(&line[4..]);
            let (new_path, new_epoch) = header_path(&lines[i + 1][4..]);
            let mut file = PatchFile {
                old_absent: old_path == "/dev/null",
                new_absent: new_path == "/dev/null",
                old_path: strip_git_prefix(&old_path, git_prefixes, "a/"),
                new_path: strip_git_prefix(&new_path, git_prefixes, "b/"),
                binary: false,
                hunks: Vec::new(),
                line: no,
            };
            i += 2;
            while i < lines.len() && lines[i].starts_with("@@") {
                let (hunk, next) = parse_hunk(&lines, i)?;
                file.hunks.push(hunk);
                i = next;
            }
            if file.hunks.is_empty() {
                return Err(ParseError { line: no, message: "file header without any @@ hunk".into() });
            }
            // `diff -N` marks a missing side with the epoch timestamp and an empty range.
            if old_epoch && file.hunks.len() == 1 && file.hunks[0].old_lines == 0 {
                file.old_absent = true;
            }
            if new_epoch && file.hunks.len() == 1 && file.hunks[0].new_lines == 0 {
                file.new_absent = true;
            }
            files.push(file);
            continue;
        } else if line.starts_with("@@") {
            return Err(ParseError { line: no, message: "hunk without a ---/+++ file header".into() });
        }
        i += 1;
    }
    if files.is_empty() && !text.trim().is_empty() {
        return Err(ParseError {
            line: 0,
            message: "not a unified diff: no `--- old` / `+++ new` file headers found".into(),
        });
    }
    Ok(files)
}

fn parse_hunk(lines: &[&str], start: usize) -> Result<(PatchHunk, usize), ParseError> {
    let header = lines[start];
    let bad = |m: &str| ParseError { line: start + 1, message: m.to_string() };
    let inner = header
        .strip_prefix("@@ ")
        .and_then(|r| r.split_once(" @@"))
        .map(|(r, _)| r)
        .ok_or_else(|| bad("malformed hunk header"))?;
    let (old, new) = inner.split_once(' ').ok_or_else(|| bad("malformed hunk header"))?;
    let range = |s: Option<&str>| -> Option<(usize, usize)> {
        let s = s?;
        match s.split_once(',') {
            Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
            None => Some((s.parse().ok()?, 1)),
        }
    };
    let (old_start, old_lines) =
        range(old.strip_prefix('-')).ok_or_else(|| bad("malformed old range in hunk header"))?;
    let (new_start, new_lines) =
        range(new.strip_prefix('+')).ok_or_else(|| bad("malformed new range in hunk header"))?;
    let mut hunk = PatchHunk { old_start, old_lines, new_start, new_lines, lines: Vec::new() };
    let (mut old_seen, mut new_seen) = (0, 0);
    let mut i = start + 1;
    while old_seen < old_lines || new_seen < new_lines {
        let Some(line) = lines.get(i) else {
            return Err(bad("hunk ends before its line counts are reached (truncated diff?)"));
        };
        let (op, text) = match line.as_bytes().first() {
            Some(b' ') => (' ', &line[1..]),
            Some(b'-') => ('-', &line[1..]),
            Some(b'+') => ('+', &line[1..]),
            // Some tools drop the space of an empty context line.
            Some(b'\n') | Some(b'\r') => (' ', *line),
            Some(b'\\') => {
                strip_last_newline(&mut hunk);
                i += 1;
                continue;
            }
            _ => return Err(bad("hunk ends before its line counts are reached")),
        };
        match op {
            ' ' => {
                old_seen += 1;
                new_seen += 1;
            }
            '-' => old_seen += 1,
            _ => new_seen += 1,
        }
        if old_seen > old_lines || new_seen > new_lines {
            return Err(bad("hunk has more lines than its header says"));
        }
        hunk.lines.push((op, text.to_string()));
        i += 1;
    }
    // A trailing "\ No newline at end of file" belongs to this hunk's last line.
    if lines.get(i).is_some_and(|l| l.starts_with('\\')) {
        strip_last_newline(&mut hunk);
        i += 1;
    }
    Ok((hunk, i))
}

fn strip_last_newline(hunk: &mut PatchHunk) {
    if let Some((_, t)) = hunk.lines.last_mut() {
        // Only the `\n` goes: a `\r` before it is content of a line without terminator.
        if t.ends_with('\n') {
            t.pop();
        }
    }
}

/// Splits a `---`/`+++` header value into the path and whether its timestamp is the epoch
/// (`diff -N` for a missing file).
fn header_path(value: &str) -> (String, bool) {
    let value = crate::base::text::strip_terminator(value);
    let (path, stamp) = match value.split_once('\t') {
        Some((p, s)) => (p, s),
        None => (value, ""),
    };
    (unquote(path), stamp.starts_with("1970-01-01") || stamp.starts_with("1969-12-31"))
}

fn strip_git_prefix(path: &str, git: bool, prefix: &str) -> String {
    match path.strip_prefix(prefix) {
        Some(rest) if git => rest.to_string(),
        _ => path.to_string(),
    }
}

/// Undoes git's C-style quoting of paths with special characters.
fn unquote(path: &str) -> String {
    let Some(inner) = path.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
        return path.to_string();
    };
    let mut out = Vec::new();
    let mut chars = inner.bytes().peekable();
    while let Some(c) = chars.next() {
        if c != b'\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(b'n') => out.push(b'\n'),
            Some(b't') => out.push(b'\t'),
            Some(d @ b'0'..=b'7') => {
                let mut v = u32::from(d - b'0');
                for _ in 0..2 {
                    if let Some(&n @ b'0'..=b'7') = chars.peek() {
                        v = v * 8 + u32::from(n - b'0');
                        chars.next();
                    }
                }
                out.push(v as u8);
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Rebuilds a file's old side from its new side and the hunks that produced it. Returns
/// `None` when `new_text` does not match the hunks' new side (the proposal was edited after
/// the diff was taken).
pub fn reverse_apply(new_text: &str, hunks: &[PatchHunk]) -> Option<String> {
    let new_lines = split_lines(new_text);
    let mut out = String::with_capacity(new_text.len());
    let mut pos = 0usize;
    for h in hunks {
        let start = if h.new_lines == 0 { h.new_start } else { h.new_start.checked_sub(1)? };
        if start < pos || start > new_lines.len() {
            return None;
        }
        out.extend(new_lines[pos..start].iter().copied());
        let side: Vec<&str> = h.side('+').collect();
        let end = start + side.len();
        if new_lines.get(start..end)? != side.as_slice() {
            return None;
        }
        out.extend(h.side('-'));
        pos = end;
    }
    out.extend(new_lines[pos..].iter().copied());
    Some(out)
}

/// Where the diff's two sides live: the live folder root, the proposal's root, and each
/// section's path relative to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The live folder the diff was taken against, as written in the headers (may be
    /// relative, may not exist on this machine).
    pub live_root: PathBuf,
    /// The proposal folder as written in the headers (usually a temp dir of the dream run).
    pub proposed_root: PathBuf,
    /// For each file section (same order as the parse), its path relative to the live folder,
    /// or `Err(raw path)` when the path escapes it (`..`, another absolute root).
    pub paths: Vec<Result<String, String>>,
}

/// Works out both roots from the headers. `proposed` holds the relative paths of the
/// proposal's notes: a section's relative path is the longest common tail of its `---` and
/// `+++` paths that names a proposed note (or, for deletions, an existing live file).
pub fn layout(files: &[PatchFile], proposed: &BTreeMap<String, crate::inputs::snapshot::Entry>) -> Option<Layout> {
    let mut votes: BTreeMap<(PathBuf, PathBuf), usize> = BTreeMap::new();
    // A path with `..` never votes: `memory/../evil.md` is outside the folder, not a note
    // of its parent (and never moves the live root up a level).
    let votable = |f: &&PatchFile| {
        f.old_path != "/dev/null" && f.new_path != "/dev/null" && !escapes(&f.old_path) && !escapes(&f.new_path)
    };
    for f in files.iter().filter(votable) {
        let old = components(&f.old_path);
        let new = components(&f.new_path);
        let common = old.iter().rev().zip(new.iter().rev()).take_while(|(a, b)| a == b).count();
        for j in (1..=common).rev() {
            let rel = old[old.len() - j..].join("/");
            let root = root_of(&f.old_path, &old[..old.len() - j]);
            if proposed.contains_key(&rel) || (f.new_absent && root.join(&rel).exists()) {
                let new_root = root_of(&f.new_path, &new[..new.len() - j]);
                *votes.entry((root, new_root)).or_default() += 1;
                break;
            }
        }
    }
    let (live_root, proposed_root) = match votes.into_iter().max_by_key(|(_, n)| *n) {
        Some((roots, _)) => roots,
        None => {
            // Nothing resolved (e.g. every section is a deletion): assume a flat folder.
            let f = files.first()?;
            // The folder a path names, cut before any `..`.
            let parent = |p: &str| {
                let c = components(p);
                let end = c.iter().position(|x| *x == "..").unwrap_or(c.len().saturating_sub(1));
                root_of(p, &c[..end])
            };
            (parent(&f.old_path), parent(&f.new_path))
        }
    };
    let paths = files
        .iter()
        .map(|f| {
            if f.old_path == "/dev/null" {
                relative_to(&proposed_root, &f.new_path)
            } else {
                relative_to(&live_root, &f.old_path)
            }
        })
        .collect();
    Some(Layout { live_root, proposed_root, paths })
}

fn relative_to(root: &Path, raw: &str) -> Result<String, String> {
    let root_s = root.to_string_lossy();
    let root_c = components(&root_s);
    let path_c = components(raw);
    let absolute_mismatch = root.is_absolute() != raw.starts_with('/');
    // Any `..`, in the root or the path, is an escape: paths are compared as written,
    // never normalised into the folder.
    let dotdot = root_c.contains(&"..") || path_c.contains(&"..");
    if !absolute_mismatch && !dotdot && path_c.len() > root_c.len() && path_c[..root_c.len()] == root_c[..] {
        return Ok(path_c[root_c.len()..].join("/"));
    }
    Err(raw.to_string())
}

/// Whether a header path has a `..` component.
fn escapes(raw: &str) -> bool {
    components(raw).contains(&"..")
}

fn root_of(original: &str, comps: &[&str]) -> PathBuf {
    let joined = comps.join("/");
    if original.starts_with('/') { PathBuf::from(format!("/{joined}")) } else { PathBuf::from(joined) }
}

/// Path components as strings, without empty parts, `.` kept out, `..` kept (so escapes show).
fn components(path: &str) -> Vec<&str> {
    Path::new(path)
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str(),
            Component::ParentDir => Some(".."),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::snapshot::Entry;

    const PNPM: &str = "diff -ruN /home/dev/p/memory/testing.md /tmp/tmp.Q/memory/testing.md
--- /home/dev/p/memory/testing.md\t2026-11-02 03:00:41.118204311 +0000
+++ /tmp/tmp.Q/memory/testing.md\t2026-11-02 03:00:41.118204311 +0000
@@ -4,4 +4,5 @@
 type: project
 ---
 
-Run tests with `npm test`; the suite needs a local Redis on port 6379.
+Run tests with `pnpm test`.
+No Redis needed.
";

    #[test]
    fn parses_diff_run_and_recovers_base() {
        let files = parse(PNPM).unwrap();
        assert_eq!(files.len(), 1);
        let f = &files[0];
        assert_eq!(f.old_path, "/home/dev/p/memory/testing.md");
        assert!(!f.old_absent && !f.new_absent);
        assert_eq!((f.hunks[0].old_start, f.hunks[0].old_lines), (4, 4));
        let new = "---\nname: t\ndescription: d\ntype: project\n---\n\nRun tests with `pnpm test`.\nNo Redis needed.\n";
        let old = reverse_apply(new, &f.hunks).unwrap();
        assert_eq!(
            old,
            "---\nname: t\ndescription: d\ntype: project\n---\n\nRun tests with `npm test`; the suite needs a local Redis on port 6379.\n"
        );
        assert_eq!(reverse_apply("something else\n", &f.hunks), None);
    }

    #[test]
    fn finds_live_root_from_headers() {
        let files = parse(PNPM).unwrap();
        let mut proposed = BTreeMap::new();
        proposed.insert("testing.md".to_string(), Entry::File(vec![]));
        let layout = layout(&files, &proposed).unwrap();
        assert_eq!(layout.live_root, PathBuf::from("/home/dev/p/memory"));
        assert_eq!(layout.paths, vec![Ok("testing.md".to_string())]);
    }

    #[test]
    fn no_newline_markers_and_absent_sides() {
        let d = "--- a/x.md\t1970-01-01 00:00:00.000000000 +0000\n+++ b/x.md\t2026-01-01\n@@ -0,0 +1 @@\n+hi\n\\ No newline at end of file\n--- /m/y.md\t2026\n+++ /n/y.md\t1970-01-01 00:00:00 +0000\n@@ -1,2 +0,0 @@\n-a\n-b\n";
        let files = parse(d).unwrap();
        assert!(files[0].old_absent);
        assert_eq!(files[0].hunks[0].lines, vec![('+', "hi".to_string())]);
        assert_eq!(reverse_apply("hi", &files[0].hunks).unwrap(), "");
        assert!(files[1].new_absent);
        assert_eq!(reverse_apply("", &files[1].hunks).unwrap(), "a\nb\n");
    }

    #[test]
    fn git_style_and_escapes() {
        let d = "diff --git a/m/x.md b/m/x.md\nindex 1..2 100644\n--- a/m/x.md\n+++ b/m/x.md\n@@ -1 +1 @@\n-a\n+b\n--- \"/r/a\\303\\251.md\"\n+++ \"/s/a\\303\\251.md\"\n@@ -1 +1 @@\n-x\n+y\n";
        let files = parse(d).unwrap();
        assert_eq!(files[0].old_path, "m/x.md");
        assert_eq!(files[1].old_path, "/r/aé.md");
    }

    #[test]
    fn rejects_what_is_not_a_diff() {
        assert_eq!(parse("").unwrap(), vec![]);
        let e = parse("hello\nworld\n").unwrap_err();
        assert!(e.message.contains("not a unified diff"));
        let e = parse("--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(parse("@@ -1 +1 @@\n-a\n+b\n").is_err());
        assert!(parse("--- a\n+++ b\n@@ garbage @@\n").is_err());
    }

    #[test]
    fn escaping_paths_are_reported() {
        let d = "--- /live/mem/a.md\n+++ /tmp/p/mem/a.md\n@@ -1 +1 @@\n-a\n+b\n--- /live/mem/../../etc/passwd\n+++ /tmp/p/mem/../../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n";
        let files = parse(d).unwrap();
        let mut proposed = BTreeMap::new();
        proposed.insert("a.md".to_string(), Entry::File(vec![]));
        let layout = layout(&files, &proposed).unwrap();
        assert_eq!(layout.live_root, PathBuf::from("/live/mem"));
        assert_eq!(layout.paths[1], Err("/live/mem/../../etc/passwd".to_string()));
    }

    #[test]
    fn a_dotdot_is_outside_even_when_it_lands_back_inside() {
        // `mem/../evil.md` names a file beside the folder; the proposal holding an
        // `evil.md` of its own must not pull it in, nor move the live root up a level.
        let evil = "--- /live/mem/../evil.md\n+++ /tmp/p/mem/../evil.md\n@@ -1 +1 @@\n-a\n+b\n";
        let good = "--- /live/mem/a.md\n+++ /tmp/p/mem/a.md\n@@ -1 +1 @@\n-a\n+b\n";
        let round = "--- /live/mem/sub/../a.md\n+++ /tmp/p/mem/sub/../a.md\n@@ -1 +1 @@\n-a\n+b\n";
        let mut proposed = BTreeMap::new();
        for n in ["a.md", "evil.md"] {
            proposed.insert(n.to_string(), Entry::File(vec![]));
        }
        for d in [format!("{good}{evil}"), format!("{evil}{good}")] {
            let l = layout(&parse(&d).unwrap(), &proposed).unwrap();
            assert_eq!(l.live_root, PathBuf::from("/live/mem"), "{d}");
            let raw_evil = Err("/live/mem/../evil.md".to_string());
            assert!(l.paths.contains(&Ok("a.md".to_string())) && l.paths.contains(&raw_evil), "{:?}", l.paths);
        }
        let l = layout(&parse(evil).unwrap(), &proposed).unwrap();
        assert_eq!(l.live_root, PathBuf::from("/live/mem"));
        assert_eq!(l.paths, vec![Err("/live/mem/../evil.md".to_string())]);
        let l = layout(&parse(&format!("{good}{round}")).unwrap(), &proposed).unwrap();
        assert_eq!(l.paths[1], Err("/live/mem/sub/../a.md".to_string()));
    }

    fn header_path() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let part = prop_oneof![Just("mem"), Just("a.md"), Just(".."), Just("."), Just("sub"), Just("memory")];
        (any::<bool>(), proptest::collection::vec(part, 1..6))
            .prop_map(|(abs, parts)| format!("{}{}", if abs { "/" } else { "" }, parts.join("/")))
    }

    proptest::proptest! {
        /// Whatever the headers say, a path with `..` is never placed in the folder, and
        /// the live root never holds a `..` (it is never moved up a level).
        #[test]
        fn a_dotdot_never_lands_inside(sections in proptest::collection::vec((header_path(), header_path()), 1..5)) {
            let text: String = sections
                .iter()
                .map(|(old, new)| format!("--- {old}\n+++ {new}\n@@ -1 +1 @@\n-a\n+b\n"))
                .collect();
            let files = parse(&text).unwrap();
            let mut proposed = BTreeMap::new();
            for (_, new) in &sections {
                for tail in [new.as_str(), new.rsplit('/').next().unwrap_or("")] {
                    proposed.insert(tail.to_string(), Entry::File(vec![]));
                }
            }
            let l = layout(&files, &proposed).unwrap();
            proptest::prop_assert!(!components(&l.live_root.to_string_lossy()).contains(&".."), "{:?}", l.live_root);
            for ((old, _), rel) in sections.iter().zip(&l.paths) {
                if let Ok(rel) = rel {
                    proptest::prop_assert!(!escapes(old) && !escapes(rel), "{old} placed as {rel}");
                }
            }
        }
    }
}
