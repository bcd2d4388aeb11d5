//! Typed ids and the one home of per-hunk data.
//!
//! A hunk is named by its position in the review ([`HunkId`]: file index, hunk index);
//! everything known about hunks — the reviewer's decisions, the analyses' findings, what
//! the TUI derives for display — is kept in a [`PerHunk`] shaped like the review's files
//! and hunks, reached by id, never by a pair of loose indexes. A CHANGES.md entry is an
//! [`EntryId`]: 0-based inside, written as the 1-based number the outputs have always shown.

use crate::model::diff::FileDiff;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One hunk of a review: hunk `hunk` (0-based) of file `file` (0-based, in the review's
/// file order). Its text form is the hunk's own id, `<path>#<n>` ([`HunkId::name`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HunkId {
    /// Index of the file among the review's files.
    pub file: usize,
    /// Index of the hunk among its file's hunks.
    pub hunk: usize,
}

impl HunkId {
    /// Hunk `hunk` of file `file`.
    pub const fn new(file: usize, hunk: usize) -> HunkId {
        HunkId { file, hunk }
    }

    /// Another hunk of the same file.
    pub const fn with_hunk(self, hunk: usize) -> HunkId {
        HunkId { file: self.file, hunk }
    }

    /// The hunk's textual id (`note.md#2`) in `files`, what every output prints; `None`
    /// when `files` has no such hunk.
    pub fn name(self, files: &[FileDiff]) -> Option<&str> {
        files.get(self.file)?.hunks.get(self.hunk).map(|h| h.id.as_str())
    }

    /// The id as text in `files`, for `format!` (`""` when there is no such hunk).
    pub fn named(self, files: &[FileDiff]) -> Named<'_> {
        Named(self.name(files).unwrap_or_default())
    }
}

/// A [`HunkId`] displayed as its textual id ([`HunkId::named`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Named<'a>(&'a str);

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A CHANGES.md entry (or an inline source after them): 0-based inside, shown and
/// serialised as its 1-based number (`CHANGES.md #3`), as entries are numbered in outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EntryId(usize);

impl EntryId {
    /// The entry at 0-based position `index`.
    pub const fn at(index: usize) -> EntryId {
        EntryId(index)
    }

    /// The entry numbered `number` (1-based, as written); `None` for 0.
    pub fn from_number(number: usize) -> Option<EntryId> {
        number.checked_sub(1).map(EntryId)
    }

    /// Its 0-based position among the entries.
    pub const fn index(self) -> usize {
        self.0
    }

    /// Its 1-based number, as outputs show it.
    pub const fn number(self) -> usize {
        self.0 + 1
    }
}

impl fmt::Display for EntryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

impl Serialize for EntryId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.number() as u64)
    }
}

impl<'de> Deserialize<'de> for EntryId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<EntryId, D::Error> {
        let n = usize::deserialize(d)?;
        EntryId::from_number(n).ok_or_else(|| serde::de::Error::custom("entry numbers start at 1"))
    }
}

/// One `T` per hunk of a review, shaped like its files and their hunks: the one place
/// per-hunk data lives, reached by [`HunkId`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PerHunk<T> {
    files: Vec<Vec<T>>,
}

impl<T> PerHunk<T> {
    /// One value per hunk of `files`, made by `make` from the hunk's id and the hunk.
    pub fn build(files: &[FileDiff], mut make: impl FnMut(HunkId, &crate::model::diff::Hunk) -> T) -> PerHunk<T> {
        PerHunk {
            files: files
                .iter()
                .enumerate()
                .map(|(fi, f)| f.hunks.iter().enumerate().map(|(hi, h)| make(HunkId::new(fi, hi), h)).collect())
                .collect(),
        }
    }

    /// The value of hunk `id` (`None` when there is no such hunk).
    pub fn get(&self, id: HunkId) -> Option<&T> {
        self.files.get(id.file)?.get(id.hunk)
    }

    /// The value of hunk `id`, to change it.
    pub fn get_mut(&mut self, id: HunkId) -> Option<&mut T> {
        self.files.get_mut(id.file)?.get_mut(id.hunk)
    }

    /// The values of file `file`'s hunks, in order (empty for an unknown file).
    pub fn file(&self, file: usize) -> &[T] {
        self.files.get(file).map(Vec::as_slice).unwrap_or_default()
    }

    /// Every value with its hunk's id, in review order.
    pub fn iter(&self) -> impl Iterator<Item = (HunkId, &T)> {
        self.files
            .iter()
            .enumerate()
            .flat_map(|(fi, v)| v.iter().enumerate().map(move |(hi, t)| (HunkId::new(fi, hi), t)))
    }

    /// Every value with its hunk's id, to change them.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (HunkId, &mut T)> {
        self.files
            .iter_mut()
            .enumerate()
            .flat_map(|(fi, v)| v.iter_mut().enumerate().map(move |(hi, t)| (HunkId::new(fi, hi), t)))
    }

    /// Every value, in review order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.files.iter().flatten()
    }

    /// Every value, to change them.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.files.iter_mut().flatten()
    }

    /// Number of files.
    pub fn files(&self) -> usize {
        self.files.len()
    }

    /// The same shape, each value mapped by `f`.
    pub fn map<U>(&self, mut f: impl FnMut(HunkId, &T) -> U) -> PerHunk<U> {
        PerHunk {
            files: self
                .files
                .iter()
                .enumerate()
                .map(|(fi, v)| v.iter().enumerate().map(|(hi, t)| f(HunkId::new(fi, hi), t)).collect())
                .collect(),
        }
    }
}

impl<T: Default> PerHunk<T> {
    /// A default value per hunk of `files`.
    pub fn shaped(files: &[FileDiff]) -> PerHunk<T> {
        PerHunk::build(files, |_, _| T::default())
    }
}

impl<T> std::ops::Index<HunkId> for PerHunk<T> {
    type Output = T;

    fn index(&self, id: HunkId) -> &T {
        &self.files[id.file][id.hunk]
    }
}

impl<T> std::ops::IndexMut<HunkId> for PerHunk<T> {
    fn index_mut(&mut self, id: HunkId) -> &mut T {
        &mut self.files[id.file][id.hunk]
    }
}

/// One `T` per file of a review, in its file order, reached by file index.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PerFile<T> {
    files: Vec<T>,
}

impl<T: Default> PerFile<T> {
    /// A default value per file of `files`.
    pub fn shaped(files: &[FileDiff]) -> PerFile<T> {
        PerFile { files: files.iter().map(|_| T::default()).collect() }
    }
}

impl<T> PerFile<T> {
    /// The value of file `file` (`None` when there is no such file).
    pub fn get(&self, file: usize) -> Option<&T> {
        self.files.get(file)
    }

    /// The value of file `file`, to change it.
    pub fn get_mut(&mut self, file: usize) -> Option<&mut T> {
        self.files.get_mut(file)
    }

    /// Every value with its file's index, in review order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &T)> {
        self.files.iter().enumerate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::snapshot::Entry;
    use crate::model::diff::diff_file;

    fn files() -> Vec<FileDiff> {
        let f = |s: &str| Entry::File(s.as_bytes().to_vec());
        let old: String = (1..=30).map(|i| format!("l{i}\n")).collect();
        let new = old.replace("l2\n", "two\n").replace("l20\n", "twenty\n");
        vec![
            diff_file("a.md", Some(&f(&old)), Some(&f(&old)), Some(&f(&new))).unwrap(),
            diff_file("b/note.md", None, None, Some(&f("x\n"))).unwrap(),
        ]
    }

    #[test]
    fn a_hunk_id_is_shown_as_the_hunks_textual_id() {
        let files = files();
        assert_eq!(files[0].hunks.len(), 2);
        assert_eq!(HunkId::new(0, 1).named(&files).to_string(), "a.md#2");
        assert_eq!(format!("{}", HunkId::new(1, 0).named(&files)), "b/note.md#1");
        assert_eq!(HunkId::new(1, 0).name(&files), Some(files[1].hunks[0].id.as_str()));
        assert_eq!(HunkId::new(1, 1).name(&files), None);
        assert_eq!(HunkId::new(2, 0).named(&files).to_string(), "");
        // Review order: file first, then hunk.
        let mut ids = [HunkId::new(1, 0), HunkId::new(0, 1), HunkId::new(0, 0)];
        ids.sort();
        assert_eq!(ids, [HunkId::new(0, 0), HunkId::new(0, 1), HunkId::new(1, 0)]);
    }

    #[test]
    fn an_entry_id_is_written_as_its_one_based_number() {
        let e = EntryId::at(2);
        assert_eq!((e.index(), e.number(), e.to_string()), (2, 3, "3".to_string()));
        assert_eq!(EntryId::from_number(3), Some(e));
        assert_eq!(EntryId::from_number(0), None);
        assert_eq!(serde_json::to_string(&vec![EntryId::at(0), e]).unwrap(), "[1,3]");
        assert_eq!(serde_json::from_str::<EntryId>("3").unwrap(), e);
        assert!(serde_json::from_str::<EntryId>("0").is_err());
    }

    #[test]
    fn per_hunk_is_shaped_like_the_review_and_iterates_in_review_order() {
        let files = files();
        let mut per: PerHunk<String> = PerHunk::build(&files, |id, h| format!("{}:{}", id.file, h.id));
        let all: Vec<(HunkId, &String)> = per.iter().collect();
        let want = ["0:a.md#1", "0:a.md#2", "1:b/note.md#1"];
        assert_eq!(all.iter().map(|(_, s)| s.as_str()).collect::<Vec<_>>(), want);
        assert_eq!(
            all.iter().map(|(id, _)| *id).collect::<Vec<_>>(),
            [HunkId::new(0, 0), HunkId::new(0, 1), HunkId::new(1, 0)]
        );
        assert_eq!(per.get(HunkId::new(0, 1)).map(String::as_str), Some("0:a.md#2"));
        assert_eq!(per.get(HunkId::new(0, 2)), None);
        assert_eq!(per.get(HunkId::new(5, 0)), None);
        assert_eq!(per.file(0).len(), 2);
        assert!(per.file(9).is_empty());
        per.get_mut(HunkId::new(1, 0)).unwrap().push('!');
        per[HunkId::new(0, 0)].push('?');
        assert_eq!(per.values().cloned().collect::<Vec<_>>(), ["0:a.md#1?", "0:a.md#2", "1:b/note.md#1!"]);
        let lens = per.map(|_, s| s.len());
        assert_eq!(lens[HunkId::new(1, 0)], "1:b/note.md#1!".len());
        let shaped: PerHunk<u8> = PerHunk::shaped(&files);
        assert_eq!((shaped.files(), shaped.values().count()), (2, 3));
        let per_file: PerFile<Vec<u8>> = PerFile::shaped(&files);
        assert_eq!(per_file.iter().count(), 2);
    }
}
