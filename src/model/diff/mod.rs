//! The diff model: files, hunks and lines, and the exact bytes a file gets from the
//! reviewer's decisions.
//!
//! Every hunk is a change from the *live* file (what is on disk now) to the dream's
//! proposal rebased onto live. When live has not moved since the dream's base this is a
//! plain two-way diff; when it has (`docs/review-model.md`, "Base and drift"), dream changes that do not touch live's
//! own edits become ordinary hunks and the overlapping ones become `live_changed` hunks that
//! replace live's version and so can only be taken after editing. Results are computed from
//! the live lines and the decisions — never by re-applying patch text — so reject-all gives
//! live back byte for byte and accept-all gives the proposal.

mod compute;
pub mod file;
pub mod hunk;
pub mod masked;
mod regions;
mod result;

pub use compute::{diff_file, outside_file};
pub use file::{FileDiff, FileKind, FileStatus};
pub use hunk::{CONTEXT, Hunk, Line, MERGE_MARKERS, Op};
pub use result::{result, to_patch};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::snapshot::Entry;
    use crate::model::decision::{Decision, HunkDecision};

    fn f(s: &str) -> Entry {
        Entry::File(s.as_bytes().to_vec())
    }

    fn all(file: &FileDiff, d: Decision) -> Vec<HunkDecision> {
        file.hunks.iter().map(|h| HunkDecision { lines: vec![d; h.slots()], edited: None }).collect()
    }

    #[test]
    fn an_edited_hunk_is_live_against_the_reviewers_text() {
        let live = "a\nb\nc\nd\n";
        let file = diff_file("n.md", Some(&f(live)), Some(&f(live)), Some(&f("a\nB\nc\nd\n"))).unwrap();
        let h = &file.hunks[0];
        let e = h.edited("a\nb\nc\nX\nd\n");
        let shown: Vec<String> = e.lines.iter().map(|l| format!("{}{}", l.op.marker(), l.text.trim_end())).collect();
        assert_eq!(shown, [" a", " b", " c", "+X", " d"], "the dream's B is gone, the reviewer's X shown");
        assert_eq!((e.old_range.clone(), e.new_range.len(), e.id.as_str()), (h.old_range.clone(), 5, "n.md#1"));
        assert!(!e.live_changed);
        assert_eq!(h.old_side(), live);
    }

    #[test]
    fn a_merge_text_holds_both_sides_between_markers_until_they_are_removed() {
        let base = f("x\nold\ny\n");
        let live = f("x\nlive edit\ny\n");
        let file = diff_file("n.md", Some(&base), Some(&live), Some(&f("x\ndream edit\ny\n"))).unwrap();
        let h = &file.hunks[0];
        assert!(h.live_changed);
        let merge = h.merge_text();
        assert_eq!(merge, "x\n<<<<<<< live\nlive edit\n=======\ndream edit\n>>>>>>> dream\ny\n");
        assert_eq!(h.conflict_marker(&merge), Some((2, "<<<<<<< live".to_string())));
        assert_eq!(h.conflict_marker("x\nlive edit\n=======\ny\n"), Some((3, "=======".to_string())));
        assert_eq!(h.conflict_marker("x\nmerged\ny\n"), None);
        // A heading underline the note already had is no marker.
        let file = diff_file(
            "n.md",
            Some(&f("T\n=======\nold\n")),
            Some(&f("T\n=======\nlive\n")),
            Some(&f("T\n=======\ndream\n")),
        )
        .unwrap();
        assert_eq!(file.hunks[0].conflict_marker("T\n=======\nmerged\n"), None);
    }

    #[test]
    fn two_way_hunk_matches_diff_u() {
        let live = "---\nname: testing\ndescription: d\ntype: project\n---\n\nRun tests with `npm test`.\n";
        let prop = "---\nname: testing\ndescription: d\ntype: project\n---\n\nRun tests with `pnpm test`.\nNo Redis.\n";
        let file = diff_file("testing.md", Some(&f(live)), Some(&f(live)), Some(&f(prop))).unwrap();
        assert_eq!(file.hunks.len(), 1);
        let h = &file.hunks[0];
        assert_eq!(h.id, "testing.md#1");
        assert_eq!((h.old_start(), h.old_range.len(), h.new_start(), h.new_range.len()), (4, 4, 4, 5));
        let ops: String = h.lines.iter().map(|l| l.op.marker()).collect();
        assert_eq!(ops, "   -++");
        assert_eq!(result(&file, &all(&file, Decision::Accepted)), Some(f(prop)));
        assert_eq!(result(&file, &all(&file, Decision::Rejected)), Some(f(live)));
        assert_eq!(result(&file, &all(&file, Decision::Pending)), Some(f(live)));
    }

    #[test]
    fn a_hunk_names_the_changes_no_one_can_see() {
        let hunk = |old: &str, new: &str| diff_file("a.md", Some(&f(old)), Some(&f(old)), Some(&f(new))).unwrap();
        assert_eq!(hunk("a\r\nb\r\nc\r\n", "a\nb\nc\n").hunks[0].invisible_changes(), ["CRLF → LF"]);
        assert_eq!(hunk("a\nb\n", "a\nb").hunks[0].invisible_changes(), ["LF → no final newline"]);
        assert_eq!(hunk("a\nb  \n", "a\nb\n").hunks[0].invisible_changes(), ["trailing spaces"]);
        assert_eq!(hunk("a\r\nb \r\n", "a\nb\n").hunks[0].invisible_changes(), ["CRLF → LF", "trailing spaces"]);
        // A real text change is neither.
        assert!(hunk("a\nb\n", "a\nc\n").hunks[0].invisible_changes().is_empty());
    }

    #[test]
    fn unchanged_files_have_no_diff() {
        assert!(diff_file("a.md", Some(&f("x")), Some(&f("x")), Some(&f("x"))).is_none());
        // Live edited after the dream, dream left the file alone: not a dream change.
        assert!(diff_file("a.md", Some(&f("x")), Some(&f("y")), Some(&f("x"))).is_none());
    }

    #[test]
    fn added_and_deleted_files_exist_only_when_decided() {
        let add = diff_file("n.md", None, None, Some(&f("a\nb"))).unwrap();
        assert_eq!(add.status, FileStatus::Added);
        assert_eq!(result(&add, &all(&add, Decision::Rejected)), None);
        assert_eq!(result(&add, &all(&add, Decision::Accepted)), Some(f("a\nb")));
        let del = diff_file("o.md", Some(&f("a\r\n")), Some(&f("a\r\n")), None).unwrap();
        assert_eq!(result(&del, &all(&del, Decision::Accepted)), None);
        assert_eq!(result(&del, &all(&del, Decision::Rejected)), Some(f("a\r\n")));
        let empty = diff_file("e.md", None, None, Some(&f(""))).unwrap();
        assert!(empty.hunks[0].whole_file);
        assert_eq!(result(&empty, &all(&empty, Decision::Accepted)), Some(f("")));
        assert_eq!(result(&empty, &all(&empty, Decision::Rejected)), None);
    }

    #[test]
    fn binary_and_symlinks_are_whole_file() {
        let bin = diff_file("b.md", Some(&f("a")), Some(&f("a")), Some(&Entry::File(vec![0, 1]))).unwrap();
        assert_eq!(bin.kind, FileKind::Binary);
        assert_eq!(bin.hunks.len(), 1);
        assert_eq!(result(&bin, &all(&bin, Decision::Accepted)), Some(Entry::File(vec![0, 1])));
        let link = Entry::Symlink("/etc/hostname".into());
        let sym = diff_file("l.md", None, None, Some(&link)).unwrap();
        assert_eq!(sym.kind, FileKind::Symlink);
        assert_eq!(result(&sym, &all(&sym, Decision::Accepted)), None, "symlinks are never written");
    }

    #[test]
    fn line_decisions_pick_individual_lines() {
        let file = diff_file("a.md", Some(&f("1\n2\n")), Some(&f("1\n2\n")), Some(&f("1\nx\ny\n"))).unwrap();
        // lines: ' 1', '-2', '+x', '+y'
        let d = vec![HunkDecision {
            lines: vec![Decision::Accepted, Decision::Rejected, Decision::Accepted],
            edited: None,
        }];
        assert_eq!(result(&file, &d), Some(f("1\ny\n")));
        let e = vec![HunkDecision { lines: vec![Decision::Pending; 3], edited: Some("1\nmine\n".into()) }];
        assert_eq!(result(&file, &e), Some(f("1\nmine\n")));
    }

    #[test]
    fn drift_far_from_dream_hunk_applies_and_keeps_live_edit() {
        let base: String = (1..=20).map(|i| format!("l{i}\n")).collect();
        let live = base.replace("l2\n", "l2 edited by a session\n");
        let prop = base.replace("l15\n", "l15 by the dream\n");
        let file = diff_file("a.md", Some(&f(&base)), Some(&f(&live)), Some(&f(&prop))).unwrap();
        assert_eq!(file.hunks.len(), 1);
        assert!(!file.hunks[0].live_changed);
        let want = live.replace("l15\n", "l15 by the dream\n");
        assert_eq!(result(&file, &all(&file, Decision::Accepted)), Some(f(&want)));
        assert_eq!(result(&file, &all(&file, Decision::Rejected)), Some(f(&live)));
    }

    #[test]
    fn drift_inside_dream_hunk_is_live_changed_and_never_lost() {
        let base: String = (1..=20).map(|i| format!("l{i}\n")).collect();
        let live = base.replace("l10\n", "l10 session\n");
        let prop = base.replace("l10\n", "l10 dream\n").replace("l18\n", "l18 dream\n");
        let file = diff_file("a.md", Some(&f(&base)), Some(&f(&live)), Some(&f(&prop))).unwrap();
        assert_eq!(file.hunks.len(), 2);
        assert!(file.hunks[0].live_changed);
        assert!(!file.hunks[1].live_changed);
        // Accepting everything cannot drop the session's edit.
        let got = result(&file, &all(&file, Decision::Accepted)).unwrap();
        assert_eq!(got, f(&live.replace("l18\n", "l18 dream\n")));
        // Editing the conflicting hunk is how it is taken.
        let mut d = all(&file, Decision::Accepted);
        let h = &file.hunks[0];
        d[0].edited = Some(h.new_side().replace("l10 dream", "l10 merged"));
        let got = result(&file, &d).unwrap();
        assert_eq!(got, f(&live.replace("l10 session\n", "l10 merged\n").replace("l18\n", "l18 dream\n")));
    }

    #[test]
    fn patch_text_round_trips_through_line_counts() {
        let file = diff_file("a.md", Some(&f("a\nb")), Some(&f("a\nb")), Some(&f("a\nc"))).unwrap();
        let p = to_patch(&file, |_| true);
        assert_eq!(
            p,
            "--- a/a.md\n+++ b/a.md\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
        );
    }
}
