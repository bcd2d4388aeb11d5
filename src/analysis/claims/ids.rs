//! Commit ids: the hexadecimal name of a commit a note records (`fixed in b6b63ee`,
//! `커밋 9071411`, `コミット a1b2c3d4`). A commit id is a fact a dream copies or invents like
//! any other, so it is a claim: stated where a source holds it (a short id is stated by the
//! full one it begins).
//!
//! Only a run of 7 to 40 hexadecimal digits named as a commit is taken: a word for commit
//! (in any language the product reads) stands at most three words before it, or it is
//! written `commit:`/`sha=`. A bare hex run is left alone — session ids, hashes of content
//! and colours are no commit ids, and the words around them are judged as usual.

use std::ops::Range;

/// Words that name a commit (lowercase; a CJK word may carry a particle after it).
const COMMIT_WORDS: &[&str] = &[
    "commit",
    "commits",
    "committed",
    "sha",
    "sha1",
    "hash",
    "revision",
    "rev",
    "head",
    "merge",
    "merged",
    "revert",
    "reverted",
    "cherry-pick",
    "cherry-picked",
    "changeset",
    "커밋",
    "コミット",
    "提交",
    "修订",
];

/// How many words may stand between the commit word and the id.
const REACH: usize = 3;

/// The byte ranges of the commit ids of `line`.
pub fn commit_ids(line: &str) -> Vec<Range<usize>> {
    let words = words(line);
    let mut out = Vec::new();
    for (i, (r, w)) in words.iter().enumerate() {
        if !is_commit_id(w) {
            continue;
        }
        let named = words[i.saturating_sub(REACH)..i].iter().any(|(_, before)| names_commit(before));
        if named {
            out.push(r.clone());
        }
    }
    out
}

/// The words of `line` with their byte ranges: runs of letters, digits, `-` and `_`.
fn words(line: &str) -> Vec<(Range<usize>, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain(std::iter::once((line.len(), ' '))) {
        let part = c.is_alphanumeric() || c == '-' || c == '_';
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s..i, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// True when `word` is a commit id: 7 to 40 hexadecimal digits in one case, with a digit
/// (`deadbeef` and `facade` are words).
fn is_commit_id(word: &str) -> bool {
    let hex = word.chars().all(|c| c.is_ascii_hexdigit());
    let one_case = !(word.chars().any(|c| c.is_ascii_lowercase()) && word.chars().any(|c| c.is_ascii_uppercase()));
    (7..=40).contains(&word.len()) && hex && one_case && word.chars().any(|c| c.is_ascii_digit())
}

/// True when `word` names a commit (`commit`, `커밋`, `コミット`, `已提交`): a CJK word may
/// hold the word with what is glued to it.
fn names_commit(word: &str) -> bool {
    let lower = word.to_lowercase();
    COMMIT_WORDS.iter().any(|w| lower == *w || (!w.is_ascii() && lower.contains(w)))
}

#[cfg(test)]
mod tests {
    use super::commit_ids;

    fn ids(line: &str) -> Vec<&str> {
        commit_ids(line).into_iter().map(|r| &line[r]).collect()
    }

    #[test]
    fn a_commit_id_is_a_hex_run_named_as_a_commit() {
        assert_eq!(ids("fixed in commit b6b63ee, deployed"), ["b6b63ee"]);
        assert_eq!(ids("mock-data.ts 에 추가해서 해결, 커밋 9071411"), ["9071411"]);
        assert_eq!(ids("コミット: a1b2c3d4e5"), ["a1b2c3d4e5"]);
        assert_eq!(ids("已提交 7b0e602 并推送"), ["7b0e602"]);
        assert_eq!(ids("the commit (sha 4f2a9c1e0b7d) reverted it"), ["4f2a9c1e0b7d"]);
        assert_eq!(ids("HEAD is at 0123abc"), ["0123abc"]);
    }

    #[test]
    fn other_hex_runs_are_no_commit_ids() {
        assert!(ids("session 30499b10 ran the fixture").is_empty());
        assert!(ids("the colour is ffaa00 and the commit message says deadbeef").is_empty());
        assert!(ids("commit 1234 of 5678").is_empty(), "too short");
        assert!(ids("commit the change in a1b2c3d4-e5f6").is_empty(), "part of a longer token");
        assert!(ids("committed: ABCdef1234").is_empty(), "mixed case");
    }
}
