//! The audit of one folder: index budgets, dangling links, orphans and frontmatter, as
//! flags and as counts, and which index lines name which note.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Serialize;

use super::flagged::{AuditFlag, IndexRef};
use super::frontmatter::{self, Block, Problem};
use super::links::{self, RefKind, Reference};
use super::memory_index::{self, IndexBudget};
use super::paths::{is_hidden, is_index, is_note, parent_dir};
use super::resolve::{Resolution, Resolver};
use crate::analysis::flag::{Flag, FlagKind, Severity};
use crate::base::secrets;

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

/// Audits a folder and keeps which index lines name which note (for [`super::audit_change`]).
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
        let loaded = memory_index::loaded_lines(&content);
        let budget = memory_index::measure(ix, &loaded);
        audit.flags.extend(memory_index::budget_flags(&budget, &loaded));
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
        if ix == memory_index::INDEX_FILE {
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

#[cfg(test)]
mod tests {
    use super::*;

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
