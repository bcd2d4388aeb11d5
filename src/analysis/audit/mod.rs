//! Memory hygiene: MEMORY.md load budget, links, orphans, frontmatter.
//!
//! Everything here is a pure function over a folder's files, given as a map from relative
//! '/'-separated path to bytes: the live folder, or the result of the reviewer's decisions.
//! [`audit`] reports one folder; [`audit_change`] reports what a change (a dream, a review)
//! made worse, pointing each flag at the line a reviewer's hunk touches.
//!
//! What counts as a note: `.md` files other than the indexes (`MEMORY.md`, at the root or
//! in a subfolder such as `team/`), OpenClaw daily notes named by date
//! (`memory/2026-06-02.md`, `2026-06-02-1406.md`), all-caps workspace files of four or more
//! characters (`AGENTS.md`, `SOUL.md`, `CLAUDE.md`, `USER.md`…) and session logs under a
//! top-level `logs/` or `sessions/` folder. Hidden paths (`.git/…`) are ignored.
//!
//! Orphan and dangling checks run only under an index: a note is an orphan when no index
//! names it, and it is checked when an index sits in its folder or an ancestor. Frontmatter
//! checks run only when at least one note of the folder has a frontmatter block: an OpenClaw
//! workspace, whose notes have none, is not flooded with `frontmatter-invalid`.

pub mod change;
pub mod folder;
pub mod frontmatter;
pub mod index;
pub mod links;
pub mod loss;
pub mod report;
mod resolve;
pub mod unverifiable;

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Serialize;

pub use change::audit_change;
pub use folder::{FolderRead, ReadProblem, read_folder};
pub use frontmatter::{is_permanent_line, is_permanent_note};
pub use index::{BudgetStatus, IndexBudget, LongLine};
pub use links::RefKind;
pub use report::{Options, default_dirs, run};
pub use unverifiable::UnverifiableNote;

use crate::analysis::flag::{Flag, FlagKind, Severity};
use crate::base::date::Date;
use crate::base::secrets;
use frontmatter::{Block, Problem};
use links::Reference;
use resolve::{Resolution, Resolver};

/// A line of an index that names a note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IndexRef {
    /// Path of the index (`MEMORY.md`).
    pub path: String,
    /// 1-based line number in that index.
    pub line: usize,
    /// The line's text, terminator stripped, secrets masked.
    pub text: String,
}

/// One audit finding, located so the reviewer (or the lead's hunk mapper) can find the
/// change that caused it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuditFlag {
    /// The file the flag is about: the index for budget and dangling flags, the note for
    /// orphan and frontmatter flags.
    pub path: String,
    /// 1-based line in `path`, when the flag is about one line.
    pub line: Option<usize>,
    /// For an orphan reported by [`audit_change`]: the index line that named the note in
    /// the "before" folder (the line a hunk removed or changed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub named_by: Option<IndexRef>,
    /// The flag itself (kind, severity, message…).
    pub flag: Flag,
}

impl AuditFlag {
    /// A flag about `path` (and `line`), not tied to a before-side index line.
    pub fn new(path: &str, line: Option<usize>, flag: Flag) -> AuditFlag {
        AuditFlag { path: path.to_string(), line, named_by: None, flag }
    }
}

/// An index line naming a note that does not exist.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DanglingLink {
    /// Path of the index.
    pub index: String,
    /// 1-based line number in the index.
    pub line: usize,
    /// How the name is written.
    pub kind: RefKind,
    /// The target as written (`old.md`, `[[old-name]]` without brackets).
    pub target: String,
}

/// A note whose frontmatter is missing, unterminated or lacks required keys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InvalidFrontmatter {
    /// Path of the note.
    pub path: String,
    /// What is wrong.
    #[serde(flatten)]
    pub problem: Problem,
}

/// The hygiene report of one memory folder.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FolderAudit {
    /// The budget of the root `MEMORY.md`, when there is one.
    pub index: Option<IndexBudget>,
    /// Budgets of indexes in subfolders (`team/MEMORY.md`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_indexes: Vec<IndexBudget>,
    /// Index lines naming notes that do not exist.
    pub dangling: Vec<DanglingLink>,
    /// Notes no index names (paths).
    pub orphans: Vec<String>,
    /// Notes with bad frontmatter.
    pub frontmatter_invalid: Vec<InvalidFrontmatter>,
    /// Every finding above as a flag, in that order.
    pub flags: Vec<AuditFlag>,
}

impl FolderAudit {
    /// Whether any flag is error-level (an index over its limit).
    pub fn has_errors(&self) -> bool {
        self.flags.iter().any(|f| f.flag.severity == Severity::Error)
    }
}

/// Whether any component of `path` is hidden (`.git/…`, `.obsidian/…`, `.draft.md`).
pub fn is_hidden(path: &str) -> bool {
    path.split('/').any(|c| c.starts_with('.'))
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn parent_dir(path: &str) -> &str {
    path.rfind('/').and_then(|i| path.get(..i)).unwrap_or("")
}

fn md_stem(name: &str) -> Option<&str> {
    let cut = name.len().checked_sub(3)?;
    let ext = name.get(cut..)?;
    ext.eq_ignore_ascii_case(".md").then(|| name.get(..cut)).flatten()
}

/// Whether `path` is an index (`MEMORY.md` at the root or in a subfolder).
pub fn is_index(path: &str) -> bool {
    file_name(path) == index::INDEX_FILE
}

/// Whether `path` is a daily note named by its date (`2026-06-02.md`, `2026-06-02-1406.md`).
pub fn is_daily_note(path: &str) -> bool {
    let Some(stem) = md_stem(file_name(path)) else {
        return false;
    };
    Date::parse_iso_prefix(stem).is_some()
        && stem.get(10..).is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '_', 'T', ' ']))
}

/// Whether `path` is an all-caps workspace file (`AGENTS.md`, `CLAUDE.md`, `USER.md`…):
/// a stem of four or more upper-case letters, digits, `_` or `-`.
pub fn is_workspace_file(path: &str) -> bool {
    md_stem(file_name(path)).is_some_and(|stem| {
        stem.len() >= 4
            && stem.bytes().any(|c| c.is_ascii_uppercase())
            && stem.bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_' || c == b'-')
    })
}

/// Whether `path` is a memory note: a `.md` file that is not hidden, not an index, not a
/// daily note, not a workspace file and not under a top-level `logs/` or `sessions/`.
pub fn is_note(path: &str) -> bool {
    md_stem(file_name(path)).is_some()
        && !is_hidden(path)
        && !is_index(path)
        && !is_daily_note(path)
        && !is_workspace_file(path)
        && !path.starts_with("logs/")
        && !path.starts_with("sessions/")
}

/// An audit plus, for each note, the index lines that name it.
pub(crate) struct Analysis {
    /// The folder's report.
    pub(crate) audit: FolderAudit,
    /// Note path → the index lines naming it, in index order.
    pub(crate) named: BTreeMap<String, Vec<IndexRef>>,
}

/// Audits one folder: index budgets, dangling links, orphans and frontmatter.
pub fn audit(notes: &BTreeMap<String, Vec<u8>>) -> FolderAudit {
    analyse(notes).audit
}

/// The index path relative to which `note` is checked: the deepest index in its folder or
/// an ancestor folder.
fn governing_index<'a>(indexes: &[&'a str], note: &str) -> Option<&'a str> {
    let dir = parent_dir(note);
    indexes
        .iter()
        .copied()
        .filter(|ix| {
            let d = parent_dir(ix);
            d.is_empty() || dir == d || dir.starts_with(&format!("{d}/"))
        })
        .max_by_key(|ix| ix.len())
}

/// Audits a folder and keeps which index lines name which note (for [`audit_change`]).
pub(crate) fn analyse(files: &BTreeMap<String, Vec<u8>>) -> Analysis {
    let paths: Vec<&str> = files.keys().map(String::as_str).filter(|p| !is_hidden(p)).collect();
    let text = |p: &str| -> Cow<'_, str> { files.get(p).map_or(Cow::Borrowed(""), |b| String::from_utf8_lossy(b)) };
    let notes: Vec<&str> = paths.iter().copied().filter(|p| is_note(p)).collect();
    let blocks: BTreeMap<&str, Block> = notes.iter().map(|&p| (p, frontmatter::parse(&text(p)))).collect();
    let resolver = Resolver::new(&paths, &blocks);
    let mut indexes: Vec<&str> = paths.iter().copied().filter(|p| is_index(p)).collect();
    indexes.sort_by_key(|p| (p.matches('/').count(), *p));

    let mut audit = FolderAudit::default();
    let mut named: BTreeMap<String, Vec<IndexRef>> = BTreeMap::new();
    let mut dangling_flags = Vec::new();
    for &ix in &indexes {
        let content = text(ix);
        let loaded = index::loaded_lines(&content);
        let budget = index::measure(ix, &loaded);
        audit.flags.extend(index::budget_flags(&budget, &loaded));
        let dir = parent_dir(ix);
        let code = links::code_block_lines(&content);
        let spanning = links::spanning_links(&content);
        for line in loaded.iter().filter(|l| !code.contains(&l.number)) {
            let mut refs = links::references_in_line(line.number, line.text);
            // A link whose text runs over lines is the parser's, read on its first line; the
            // pieces of it the line reader sees (its target as a bare name) are not read again.
            for s in spanning.iter().filter(|s| s.lines.contains(&line.number)) {
                refs.retain(|r| r.target != s.reference.target);
                if *s.lines.start() == line.number {
                    refs.push(s.reference.clone());
                }
            }
            for r in refs {
                match resolver.resolve(dir, &r) {
                    Resolution::Found(p) => named.entry(p).or_default().push(IndexRef {
                        path: ix.to_string(),
                        line: line.number,
                        text: secrets::mask(line.text).into_owned(),
                    }),
                    Resolution::Missing => {
                        dangling_flags.push(dangling_flag(ix, line.number, line.text, &r));
                        audit.dangling.push(DanglingLink {
                            index: ix.to_string(),
                            line: line.number,
                            kind: r.kind,
                            target: r.target,
                        });
                    }
                    Resolution::Ignored => {}
                }
            }
        }
        if ix == index::INDEX_FILE {
            audit.index = Some(budget);
        } else {
            audit.other_indexes.push(budget);
        }
    }
    audit.flags.extend(dangling_flags);

    for &note in &notes {
        let Some(ix) = governing_index(&indexes, note) else {
            continue;
        };
        if named.contains_key(note) {
            continue;
        }
        audit.orphans.push(note.to_string());
        let rel = note.strip_prefix(parent_dir(ix)).map(|r| r.trim_start_matches('/')).unwrap_or(note);
        let message = format!(
            "{note} is not named in {ix}, so it is never found — add a line like `- [Title]({rel}) — one-line hook` to {ix}, or delete the note if it is stale."
        );
        audit.flags.push(AuditFlag::new(note, None, Flag::new(FlagKind::OrphanNote, message).with_claim(note)));
    }

    let any_frontmatter = blocks.values().any(|b| !matches!(b, Block::Absent));
    if any_frontmatter {
        for &note in &notes {
            let Some(problem) = frontmatter::problem(&text(note)) else {
                continue;
            };
            audit.flags.push(AuditFlag::new(
                note,
                Some(1),
                Flag::new(FlagKind::FrontmatterInvalid, frontmatter_message(note, &problem)),
            ));
            audit.frontmatter_invalid.push(InvalidFrontmatter { path: note.to_string(), problem });
        }
    }
    Analysis { audit, named }
}

fn dangling_flag(ix: &str, line: usize, text: &str, r: &Reference) -> AuditFlag {
    let target = secrets::mask(&r.target).into_owned();
    let message = match r.kind {
        RefKind::Wikilink => format!(
            "{ix} line {line} links to [[{target}]], but no note has that file name or frontmatter name — fix the link or remove the line."
        ),
        RefKind::Link => {
            format!("{ix} line {line} links to {target}, which does not exist — fix the link or remove the line.")
        }
        RefKind::Code | RefKind::Bare => {
            format!("{ix} line {line} names {target}, which does not exist — fix the name or remove the line.")
        }
    };
    AuditFlag::new(
        ix,
        Some(line),
        Flag::new(FlagKind::DanglingLink, message).with_claim(target).with_line(secrets::mask(text).into_owned()),
    )
}

/// "name, description and type".
fn join_keys(keys: &[String]) -> String {
    match keys {
        [] => String::new(),
        [one] => format!("`{one}`"),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(|k| format!("`{k}`")).collect();
            format!("{} and `{last}`", init.join(", "))
        }
    }
}

fn frontmatter_message(note: &str, problem: &Problem) -> String {
    match problem {
        Problem::Absent => {
            format!("{note} has no frontmatter — start it with a `---` block giving `name`, `description` and `type`.")
        }
        Problem::Unterminated => {
            format!("{note} has an unterminated frontmatter block — close it with a `---` line after its last key.")
        }
        Problem::Missing { keys } => {
            let hint = if keys.iter().any(|k| k == "type") { " (`type` may also sit under `metadata:`)" } else { "" };
            format!(
                "{note} frontmatter lacks {} — add {} to its `---` block{hint}.",
                join_keys(keys),
                if keys.len() == 1 { "it" } else { "them" }
            )
        }
    }
}

/// Credentials stored in the folder's text files: one `secret` flag per secret, located
/// at its line, with the value masked. Files holding NUL bytes (binary) are skipped.
pub fn scan_secrets(files: &BTreeMap<String, Vec<u8>>) -> Vec<AuditFlag> {
    let mut flags = Vec::new();
    for (path, bytes) in files {
        if is_hidden(path) || bytes.contains(&0) {
            continue;
        }
        let text = String::from_utf8_lossy(bytes);
        let found = secrets::find(&text);
        if found.is_empty() {
            continue;
        }
        // Each line masked as part of the note: a secret cut over two lines is masked on both.
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let shown = secrets::mask_lines(&lines);
        for s in found {
            let before = text.get(..s.start).unwrap_or("");
            let line_no = before.matches('\n').count() + 1;
            let line = shown.get(line_no - 1).map_or("", |l| crate::base::text::strip_terminator(l));
            let masked = s.masked(&text);
            let message =
                format!("{path} line {line_no} holds a credential ({masked}) — remove it from memory and rotate it.");
            flags.push(AuditFlag::new(
                path,
                Some(line_no),
                Flag::new(FlagKind::Secret, message).with_claim(masked).with_line(line.to_string()),
            ));
        }
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn note_classification() {
        assert!(is_note("testing.md"));
        assert!(is_note("team/deploy.md"));
        assert!(is_note("API.md"));
        assert!(!is_note("MEMORY.md"));
        assert!(!is_note("team/MEMORY.md"));
        assert!(!is_note("memory/2026-06-02.md"));
        assert!(!is_note("memory/2026-06-02-1406.md"));
        assert!(!is_note("AGENTS.md"));
        assert!(!is_note("SOUL.md"));
        assert!(!is_note(".git/notes.md"));
        assert!(!is_note("logs/2026/06/02/abc-title.md"));
        assert!(!is_note("notes.txt"));
        assert!(is_note("2026-13-45-ideas.md"));
        assert!(is_note("メモ.md"));
    }

    #[test]
    fn governing_index_is_the_deepest_ancestor() {
        let ix = ["MEMORY.md", "team/MEMORY.md"];
        assert_eq!(governing_index(&ix, "a.md"), Some("MEMORY.md"));
        assert_eq!(governing_index(&ix, "team/b.md"), Some("team/MEMORY.md"));
        assert_eq!(governing_index(&ix, "teamwork/c.md"), Some("MEMORY.md"));
        assert_eq!(governing_index(&["team/MEMORY.md"], "c.md"), None);
    }

    #[test]
    fn join_keys_reads_as_english() {
        let k = |v: &[&str]| join_keys(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(k(&["type"]), "`type`");
        assert_eq!(k(&["name", "type"]), "`name` and `type`");
        assert_eq!(k(&["name", "description", "type"]), "`name`, `description` and `type`");
    }
}
