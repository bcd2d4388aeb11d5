//! Resolving index references to files of the folder: paths relative to the index (case
//! differences tolerated, as on macOS), wikilinks by file stem or frontmatter `name`, and
//! bare mentions by base name anywhere in the folder.

use std::collections::{BTreeMap, BTreeSet};

use super::frontmatter::Block;
use super::links::RefKind;
use super::links::{self, Reference};
use super::paths::{file_name, is_workspace_file, md_stem};

/// Looks up what index references point at.
pub(crate) struct Resolver {
    exact: BTreeSet<String>,
    lower: BTreeMap<String, String>,
    basename: BTreeMap<String, String>,
    wiki: BTreeMap<String, String>,
}

/// The outcome of resolving one reference.
pub(crate) enum Resolution {
    /// The path of the file it names.
    Found(String),
    /// Nothing matches: a dangling link.
    Missing,
    /// Outside the folder, or a mention of a file that need not be a note.
    Ignored,
}

impl Resolver {
    pub(crate) fn new(paths: &[&str], blocks: &BTreeMap<&str, Block>) -> Resolver {
        let mut r = Resolver {
            exact: BTreeSet::new(),
            lower: BTreeMap::new(),
            basename: BTreeMap::new(),
            wiki: BTreeMap::new(),
        };
        for &p in paths {
            r.exact.insert(p.to_string());
            r.lower.entry(p.to_lowercase()).or_insert_with(|| p.to_string());
            r.basename.entry(file_name(p).to_lowercase()).or_insert_with(|| p.to_string());
            if let Some(stem) = md_stem(p) {
                r.wiki.entry(stem.to_lowercase()).or_insert_with(|| p.to_string());
                if let Some(s) = md_stem(file_name(p)) {
                    r.wiki.entry(s.to_lowercase()).or_insert_with(|| p.to_string());
                }
            }
        }
        for (&p, block) in blocks {
            if let Block::Parsed(fm) = block
                && let Some(name) = fm.get("name")
            {
                r.wiki.entry(name.to_lowercase()).or_insert_with(|| p.to_string());
            }
        }
        r
    }

    fn lookup(&self, path: &str) -> Option<String> {
        if self.exact.contains(path) {
            return Some(path.to_string());
        }
        self.lower.get(&path.to_lowercase()).cloned()
    }

    pub(crate) fn resolve(&self, dir: &str, r: &Reference) -> Resolution {
        match r.kind {
            RefKind::Wikilink => {
                let key = r.target.to_lowercase();
                let in_dir = links::normalize(dir, &r.target).map(|p| p.to_lowercase());
                match in_dir.and_then(|p| self.wiki.get(&p)).or_else(|| self.wiki.get(&key)) {
                    Some(p) => Resolution::Found(p.clone()),
                    None => Resolution::Missing,
                }
            }
            RefKind::Link => match links::normalize(dir, &r.target) {
                None => Resolution::Ignored,
                Some(p) => self.lookup(&p).map_or(Resolution::Missing, Resolution::Found),
            },
            RefKind::Code | RefKind::Bare => {
                let Some(p) = links::normalize(dir, &r.target) else {
                    return Resolution::Ignored;
                };
                if let Some(found) = self.lookup(&p) {
                    return Resolution::Found(found);
                }
                if !r.target.contains('/')
                    && let Some(found) = self.basename.get(&r.target.to_lowercase())
                {
                    return Resolution::Found(found.clone());
                }
                if r.entry && !is_workspace_file(&p) { Resolution::Missing } else { Resolution::Ignored }
            }
        }
    }
}
