//! Notes that can no longer be checked against their sources: the plain report type the
//! audit prints. Finding them needs the memory folder's git history (see
//! `crate::store::repo::unverifiable`); the audit is given them.
//!
//! A note is **unverifiable** when at least one of its lines was written by a review
//! commit (a line a revert put back counts for the review that first wrote it) that cites
//! a transcript which was found at review time, is gone now, and whose cited text that
//! review did not keep: the commit has no evidence note (made before dreamreview kept
//! evidence), an evidence note this version cannot read, or a citation whose cited lines
//! the note does not hold (its size budget was spent). A transcript the review could not
//! find either does not count (it was flagged then), nor does a line with no citation.

use serde::Serialize;

/// One unverifiable note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnverifiableNote {
    /// The note, relative to the memory folder.
    pub note: String,
    /// Its unverifiable lines (1-based, as on disk now).
    pub lines: Vec<usize>,
    /// The review commits that wrote them (7 hex digits), oldest line first.
    pub reviews: Vec<String>,
    /// The transcripts they cite that are gone with no kept text (names as cited, masked).
    pub gone: Vec<String>,
}

impl UnverifiableNote {
    /// `testing.md:2-3,7  written by review 1a2b3c4 — cited transcript gone, text not kept: s.jsonl`.
    pub fn describe(&self) -> String {
        let one = |n: usize, s: &str| if n == 1 { String::new() } else { s.to_string() };
        format!(
            "{}:{}  written by review{} {} — cited transcript{} gone, text not kept: {}",
            self.note,
            line_ranges(&self.lines),
            one(self.reviews.len(), "s"),
            self.reviews.join(", "),
            one(self.gone.len(), "s"),
            self.gone.join(", ")
        )
    }
}

/// `2-3,7` for lines 2, 3 and 7 (sorted, distinct).
fn line_ranges(lines: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let start = lines[i];
        let mut end = start;
        while i + 1 < lines.len() && lines[i + 1] == end + 1 {
            i += 1;
            end = lines[i];
        }
        parts.push(if end == start { start.to_string() } else { format!("{start}-{end}") });
        i += 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_ranges() {
        assert_eq!(line_ranges(&[2, 3, 7]), "2-3,7");
        assert_eq!(line_ranges(&[1]), "1");
        assert_eq!(line_ranges(&[]), "");
        let u = UnverifiableNote {
            note: "a.md".into(),
            lines: vec![1, 2],
            reviews: vec!["1a2b3c4".into()],
            gone: vec!["s.jsonl".into(), "t.jsonl".into()],
        };
        assert_eq!(
            u.describe(),
            "a.md:1-2  written by review 1a2b3c4 — cited transcripts gone, text not kept: s.jsonl, t.jsonl"
        );
    }
}
