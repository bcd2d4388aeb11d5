//! `why`: for a line of a live note, the commit that wrote it (blame through libgit2) and
//! the review it came from, with what the reviewer saw then.
//!
//! [`explain`] is the one entry point: it blames the note as it is on disk now (lines not
//! committed yet are named so), follows a line a `dreamreview revert` restored back to the
//! commit that first wrote it, and for a review commit reads its evidence note
//! ([`super::git_notes`]): the hunk that wrote the line, its entries, the cited transcript
//! lines as they were kept, the claims and verdicts, the flags accepted. Each cited
//! transcript is looked at again: still there, deleted since, or changed since (the line
//! rendered again and compared with the kept text). A review commit made before evidence
//! was kept falls back to the `cites` lines of its message.
//!
//! The result is plain data ([`Explanation`], serializable as `why --json` prints it);
//! nothing here prints. Every text in it went through [`crate::base::secrets`] masking.
//!
//! The answer's types are in [`types`]; the history walk in `walk`; a line as the TUI shows
//! it traced in `trace`; old review commits' `cites` lines read in `message`.

mod cites;
mod explain;
mod note;
mod trace;
pub mod types;
mod walk;

pub use cites::{accepted_in_message, cited_source};
pub use explain::{Shared, explain, explain_in};
pub use trace::{Gone, ShownLine, Traced, explain_at, find_line, trace};
pub use types::*;

use super::message::one_line;
use anyhow::{Result, anyhow};

/// Splits `NOTE[:LINE]` (`testing.md:3`); a name whose last `:` part is not a number is all note.
pub fn parse_target(arg: &str) -> Result<(String, Option<usize>)> {
    match arg.rsplit_once(':') {
        Some((note, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            let line = n.parse().map_err(|_| anyhow!("{}: line {n} is not a line number", one_line(note)))?;
            Ok((note.to_string(), Some(line)))
        }
        _ => Ok((arg.to_string(), None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shown_line_is_found_by_its_text_nearest_its_number() {
        let lines: Vec<String> = ["a", "x", "b", "x", "c", "x"].iter().map(|s| s.to_string()).collect();
        assert_eq!(find_line(&lines, "a", 5), Some(1));
        // Of several, the nearest; of two as near, the first.
        assert_eq!(find_line(&lines, "x", 1), Some(2));
        assert_eq!(find_line(&lines, "x", 4), Some(4));
        assert_eq!(find_line(&lines, "x", 5), Some(4));
        assert_eq!(find_line(&lines, "x", 99), Some(6));
        assert_eq!(find_line(&lines, "y", 1), None);
        // Exactly that text: no trimming, no prefix.
        assert_eq!(find_line(&lines, "a ", 1), None);
    }

    #[test]
    fn a_target_splits_at_its_line_number() {
        assert_eq!(parse_target("testing.md:3").unwrap(), ("testing.md".into(), Some(3)));
        assert_eq!(parse_target("testing.md").unwrap(), ("testing.md".into(), None));
        assert_eq!(parse_target("a:b.md").unwrap(), ("a:b.md".into(), None));
        assert!(parse_target("a.md:99999999999999999999999").is_err());
    }

    #[test]
    fn an_old_message_gives_the_cites_under_this_notes_accepted_hunks() {
        let msg = "dream review: accept 2 of 3 changes from d\n\n\
                   Accepted (2):\n\
                   - a.md#1 (+1 -0)\n  \
                   accepted with: inferred-date «x»\n  \
                   CHANGES.md #1: memory/a.md: added two\n    \
                   cites s.jsonl:3-5\n    \
                   cites gone.jsonl (whole file) (unresolved)\n\
                   - b.md#1 (+1 -0)\n  \
                   CHANGES.md #2: memory/b.md: x\n    \
                   cites t.jsonl:1\n\n\
                   Rejected (1):\n\
                   - a.md#2 (+1 -0)\n  \
                   CHANGES.md #3: memory/a.md: y\n    \
                   cites u.jsonl:9\n\n\
                   Dream-Id: x\n";
        let cite = |text: String| MessageCite { source: cited_source(&text), text, now: Now::StillThere };
        let got = accepted_in_message(msg, "a.md", cite);
        let cites = |texts: &[&str]| texts.iter().map(|t| cite(t.to_string())).collect::<Vec<_>>();
        assert_eq!(
            got,
            vec![MessageHunk {
                line: "a.md#1 (+1 -0)".into(),
                entries: vec![MessageEntry {
                    text: "CHANGES.md #1: memory/a.md: added two".into(),
                    cites: cites(&["s.jsonl:3-5", "gone.jsonl (whole file) (unresolved)"]),
                }],
            }]
        );
        assert_eq!(cited_source("s.jsonl:3-5"), "s.jsonl");
        assert_eq!(cited_source("gone.jsonl (whole file) (unresolved)"), "gone.jsonl");
        assert_eq!(cited_source("5b0e.jsonl:1 (2026-11-01 09:14 user) \"x\""), "5b0e.jsonl");
    }
}
