//! Commit messages: the review commit (summary, accepted and rejected hunks with their
//! CHANGES.md entries and citations, trailers), the snapshot and revert commits, and
//! reading dreamreview's trailers back. Every piece of note or entry text goes through
//! [`secrets::mask`] and is flattened to one line, so a message never carries a secret and
//! never breaks `git interpret-trailers --parse` (no stray `---` line, no multi-line value).

use crate::analysis::result::Analysis;
use crate::analysis::result::ChangeReport;
use crate::analysis::standing::StandingFlag;
use crate::base::secrets;
use crate::model::ids::HunkId;
use crate::model::review::Review;
use serde::Serialize;
use std::fmt::Write;

/// Summary of the commit that records uncommitted memory changes before a review.
pub const SNAPSHOT_SUMMARY: &str = "memory: snapshot before dream review";
/// Summary of the commit that records uncommitted memory changes before a revert.
pub const SNAPSHOT_BEFORE_REVERT: &str = "memory: snapshot before revert";
/// Summary of the commit `dreamreview snapshot` makes of what sessions wrote (the baseline
/// an in-place dream is reviewed against).
pub const SNAPSHOT_SESSIONS: &str = "memory: snapshot of what sessions wrote";

/// The counts a review commit's `Review:` trailer records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ReviewCounts {
    /// Hunks applied in whole, in part, or edited.
    pub accepted: usize,
    /// Hunks not applied (rejected, left pending, or not writable).
    pub rejected: usize,
    /// Accepted hunks the reviewer rewrote.
    pub edited: usize,
}

impl ReviewCounts {
    /// The trailer's counts of a tally: `accepted` is every hunk taken (edited ones too),
    /// `rejected` every hunk not taken (left pending included).
    pub fn of(t: &crate::model::decision::Tally) -> ReviewCounts {
        ReviewCounts { accepted: t.taken(), rejected: t.rejected + t.pending, edited: t.edited }
    }

    /// The tally the trailer records, to show (`4 accepted, 1 edited, 2 rejected`).
    pub fn tally(&self) -> crate::model::decision::Tally {
        crate::model::decision::Tally::from_trailer(self.accepted, self.rejected, self.edited)
    }

    /// The trailer value: `accepted=N rejected=M edited=K`.
    pub fn trailer(&self) -> String {
        format!("accepted={} rejected={} edited={}", self.accepted, self.rejected, self.edited)
    }

    /// Parses a trailer value; missing counts are 0, anything unreadable is `None`.
    pub fn parse(value: &str) -> Option<ReviewCounts> {
        let mut c = ReviewCounts::default();
        let mut any = false;
        for part in value.split_whitespace() {
            let (k, v) = part.split_once('=')?;
            let n: usize = v.parse().ok()?;
            match k {
                "accepted" => c.accepted = n,
                "rejected" => c.rejected = n,
                "edited" => c.edited = n,
                _ => continue,
            }
            any = true;
        }
        any.then_some(c)
    }
}

/// The trailers dreamreview writes, read back from a commit message.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Trailers {
    /// `Dream-Source:` the dream folder (or `in-place`).
    pub dream_source: Option<String>,
    /// `Dream-Id:` the hash of the dream's content.
    pub dream_id: Option<String>,
    /// `Review:` the counts.
    pub review: Option<ReviewCounts>,
    /// `Reverts:` the commit this one reverts.
    pub reverts: Option<String>,
}

/// Reads dreamreview's trailers (keys case-insensitive) from the message's trailer block,
/// the way `git interpret-trailers --parse` does.
pub fn parse_trailers(message: &str) -> Trailers {
    let mut t = Trailers::default();
    let Ok(found) = git2::message_trailers_strs(message) else {
        return t;
    };
    for (k, v) in found.iter() {
        let v = v.trim().to_string();
        match k.to_ascii_lowercase().as_str() {
            "dream-source" => t.dream_source = Some(v),
            "dream-id" => t.dream_id = Some(v),
            "review" => t.review = ReviewCounts::parse(&v),
            "reverts" => t.reverts = Some(v),
            _ => {}
        }
    }
    t
}

/// What became of one hunk in a review commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Every changed line applied.
    Accepted,
    /// Some lines applied.
    PartlyAccepted,
    /// The reviewer's own text applied.
    Edited,
    /// Not applied: rejected.
    Rejected,
    /// Not applied: never decided.
    Pending,
    /// Not applied although accepted: the reason (live changed, symlink, outside memory).
    Skipped(String),
}

impl Fate {
    /// The fate of a hunk whose decision has outcome `o` and which nothing keeps from being
    /// written.
    pub fn of(o: crate::model::decision::Outcome) -> Fate {
        use crate::model::decision::Outcome;
        match o {
            Outcome::Accepted => Fate::Accepted,
            Outcome::PartlyAccepted => Fate::PartlyAccepted,
            Outcome::Edited => Fate::Edited,
            Outcome::Rejected => Fate::Rejected,
            Outcome::Pending => Fate::Pending,
        }
    }

    /// True when the hunk changed the notes.
    pub fn applied(&self) -> bool {
        matches!(self, Fate::Accepted | Fate::PartlyAccepted | Fate::Edited)
    }
}

/// One hunk of the review and its fate, as the message lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HunkFate {
    /// Which hunk of the review.
    pub at: HunkId,
    /// The hunk's textual id (`testing.md#1`).
    pub id: String,
    /// What happened to it.
    pub fate: Fate,
}

/// Counts from a list of fates, by the one tally ([`crate::model::decision::Tally`]): a hunk not
/// written although accepted counts as rejected.
pub fn counts(fates: &[HunkFate]) -> ReviewCounts {
    use crate::model::decision::Outcome;
    let mut t = crate::model::decision::Tally::default();
    for f in fates {
        t.add(match f.fate {
            Fate::Accepted => Outcome::Accepted,
            Fate::PartlyAccepted => Outcome::PartlyAccepted,
            Fate::Edited => Outcome::Edited,
            Fate::Rejected | Fate::Skipped(_) => Outcome::Rejected,
            Fate::Pending => Outcome::Pending,
        });
    }
    ReviewCounts::of(&t)
}

/// Flattens text to one masked line, its other control characters made visible.
pub fn one_line(text: &str) -> String {
    let masked = secrets::mask(text);
    let mut out = String::with_capacity(masked.len());
    for c in masked.chars() {
        out.push(if c == '\n' || c == '\r' { ' ' } else { c });
    }
    crate::base::text::visible_controls(out.trim()).into_owned()
}

/// The review commit's summary line.
pub fn review_summary(review: &Review, c: &ReviewCounts) -> String {
    format!(
        "dream review: accept {} of {} changes from {}",
        c.accepted,
        c.accepted + c.rejected,
        one_line(&review.inputs.dream_name())
    )
}

/// The whole review commit message: summary, accepted and rejected hunks with their
/// CHANGES.md entries and citations, paths that could not be written (`outside`), then
/// the `Dream-Source`, `Dream-Id` and `Review` trailers.
///
/// `standing` is what the commit takes with it ([`crate::analysis::standing::commit_flags`]
/// of the applied hunks): each taken hunk lists its standing flags, and nothing else.
pub fn review_message(
    review: &Review,
    analysis: &Analysis,
    fates: &[HunkFate],
    standing: &[StandingFlag],
    outside: &[String],
) -> String {
    let c = counts(fates);
    let mut out = review_summary(review, &c);
    out.push_str("\n\n");
    let (applied, not): (Vec<&HunkFate>, Vec<&HunkFate>) = fates.iter().partition(|f| f.fate.applied());
    write_section(&mut out, "Accepted", &applied, review, analysis, standing);
    // Undecided hunks are not written either; the title says so when there are some.
    let undecided = not.iter().any(|f| f.fate == Fate::Pending);
    let title = if undecided { "Rejected or left undecided" } else { "Rejected" };
    write_section(&mut out, title, &not, review, analysis, &[]);
    if !outside.is_empty() {
        let _ = writeln!(out, "Not written (outside the memory folder):");
        for p in outside {
            let _ = writeln!(out, "- {}", one_line(p));
        }
        out.push('\n');
    }
    let source = match &review.inputs.dream {
        Some(d) => one_line(&d.display().to_string()),
        None => "in-place".to_string(),
    };
    let _ = writeln!(out, "Dream-Source: {source}");
    // The id is dreamreview's own hash, not user text: never masked.
    let _ = writeln!(out, "Dream-Id: {}", review.dream_id.replace(['\n', '\r'], ""));
    let _ = writeln!(out, "Review: {}", c.trailer());
    out
}

/// One section of hunks; `standing` are the flags the reviewer accepted, listed under their
/// hunk (`accepted with: …`) so history shows what was waved through.
fn write_section(
    out: &mut String,
    title: &str,
    fates: &[&HunkFate],
    review: &Review,
    analysis: &Analysis,
    standing: &[StandingFlag],
) {
    if fates.is_empty() {
        return;
    }
    let _ = writeln!(out, "{title} ({}):", fates.len());
    for f in fates {
        let (plus, minus) = review.hunk(f.at).map(|h| (h.added().count(), h.removed().count())).unwrap_or_default();
        let whole = review.hunk(f.at).is_some_and(|h| h.whole_file);
        let mut size = if whole { "whole file".to_string() } else { format!("+{plus} -{minus}") };
        if f.fate == Fate::PartlyAccepted
            && let (Some(h), Some(d)) = (review.hunk(f.at), review.decision(f.at))
        {
            // What the commit really takes: the accepted lines only.
            let taken: Vec<_> = h.taken_lines(d).collect();
            let a = taken.iter().filter(|l| l.op == crate::model::diff::Op::Add).count();
            let r = taken.len() - a;
            size = format!("+{a} -{r} of +{plus} -{minus}");
        }
        if f.fate == Fate::Edited
            && let (Some(h), Some(text)) = (review.hunk(f.at), review.decision(f.at).and_then(|d| d.edited.as_deref()))
        {
            // What the commit really takes: live against the reviewer's text.
            let e = h.edited(text);
            let (a, r) = (e.added().count(), e.removed().count());
            if (a, r) != (plus, minus) {
                size = format!("+{a} -{r}, the dream's +{plus} -{minus}");
            }
        }
        let live_changed = review.hunk(f.at).is_some_and(|h| h.live_changed);
        let note = match &f.fate {
            Fate::Rejected | Fate::Pending if live_changed => ", live memory changed here after the dream".into(),
            Fate::Accepted | Fate::Rejected => String::new(),
            Fate::PartlyAccepted => ", some lines".into(),
            Fate::Edited => ", edited by the reviewer".into(),
            Fate::Pending => ", left undecided".into(),
            Fate::Skipped(why) => format!(", not written: {}", one_line(why)),
        };
        let _ = writeln!(out, "- {} ({size}{note})", one_line(&f.id));
        let waved: Vec<String> = standing.iter().filter(|s| s.hunk == f.id).map(|s| one_line(&s.label())).collect();
        if !waved.is_empty() {
            let _ = writeln!(out, "  accepted with: {}", waved.join("; "));
        }
        let entries = analysis.findings.changes(f.at);
        if entries.is_empty() && !analysis.changes.is_empty() {
            let _ = writeln!(out, "  (no CHANGES.md entry)");
        }
        for &idx in entries {
            if let Some(entry) = analysis.entry(idx) {
                write_entry(out, review, entry);
            }
        }
    }
    out.push('\n');
}

fn write_entry(out: &mut String, review: &Review, e: &ChangeReport) {
    let _ = writeln!(out, "  {}: {}", e.label(), one_line(&e.text));
    // An entry whose cited lines say none of its claims: they are where it points, not its
    // source, and the message must not read as if they were.
    let unsupported = e.flags.iter().any(|f| f.kind == crate::analysis::flag::FlagKind::CitationUnsupported);
    for c in &e.citations {
        let state = match (c.resolved, unsupported) {
            (false, _) => " (unresolved)",
            (true, true) => " (does not state the entry's claims)",
            (true, false) => "",
        };
        let said = c.context.iter().find(|l| l.cited).map(|l| said_excerpt(review, l)).unwrap_or_default();
        let _ = writeln!(out, "    cites {}{state}{said}", one_line(&c.location()));
    }
}

/// At most this many characters of a cited line go into the message.
const EXCERPT_CHARS: usize = 72;

/// ` (2026-11-01 09:14 user) "we moved to pnpm last week"`: when (in the review's zone),
/// who, and the beginning of what the cited line said (masked, one line, cut with `…`).
fn said_excerpt(review: &Review, l: &crate::analysis::result::ContextLine) -> String {
    let kept = crate::store::evidence::kept_line(review, l);
    let who: Vec<&str> = [kept.local_time.as_deref(), kept.role.as_deref()].into_iter().flatten().collect();
    let who = if who.is_empty() { String::new() } else { format!(" ({})", who.join(" ")) };
    let text = one_line(&kept.text);
    let cut: String = text.chars().take(EXCERPT_CHARS).collect();
    let ellipsis = if cut.len() < text.len() { "…" } else { "" };
    format!("{who} \"{}{ellipsis}\"", cut.replace('"', "'"))
}

/// A review message split before its trailer block (`Dream-Source:` …): (the part the
/// reviewer may rewrite, the trailers dreamreview keeps whatever they type).
pub fn split_trailers(message: &str) -> (&str, &str) {
    match message.rfind("\nDream-Source: ") {
        Some(i) => (message[..i].trim_end(), &message[i + 1..]),
        None => (message.trim_end(), ""),
    }
}

/// What the editor opens for `C`: the message without its trailers, then `#` lines saying
/// what happens to it.
pub fn text_to_edit(message: &str) -> String {
    let (body, trailers) = split_trailers(message);
    let kept: Vec<&str> = trailers.lines().filter_map(|l| l.split_once(':').map(|(k, _)| k)).collect();
    format!(
        "{body}\n\n# The review commit's message. Lines starting with # are dropped; an empty\n\
         # message cancels the commit. The trailers ({}) are added back\n\
         # whatever you write, and a credential you type is masked.\n",
        kept.join(", ")
    )
}

/// The message a review commit takes after the reviewer edited `message` into `edited`
/// (what [`text_to_edit`] gave them): the `#` lines dropped, credentials masked, control
/// characters shown, and `message`'s trailers appended. `None` when nothing is left: the
/// commit is cancelled.
pub fn edited_message(message: &str, edited: &str) -> Option<String> {
    let (_, trailers) = split_trailers(message);
    let kept: Vec<&str> = edited.lines().filter(|l| !l.starts_with('#')).collect();
    let body = secrets::mask(kept.join("\n").trim()).into_owned();
    if body.is_empty() {
        return None;
    }
    let body: Vec<String> =
        body.lines().map(|l| crate::base::text::visible_controls(l.trim_end()).into_owned()).collect();
    Some(format!("{}\n\n{trailers}", body.join("\n")))
}

/// What part of a commit a revert undoes, for its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RevertScope {
    /// The whole commit (its memory paths).
    Commit,
    /// One file of it (memory-relative path).
    File(String),
    /// One hunk of it (id as in the commit's diff).
    Hunk(String),
}

/// The revert commit's message: summary, what it undoes, the files it touches, and the
/// `Reverts: <sha>` trailer.
pub fn revert_message(original_summary: &str, commit: &str, scope: &RevertScope, files: &[String]) -> String {
    let orig = one_line(original_summary);
    let mut out = match scope {
        RevertScope::Commit => format!("Revert \"{orig}\"\n\nThis reverts commit {commit}.\n"),
        RevertScope::File(p) => format!(
            "Revert {} from \"{orig}\"\n\nThis reverts {} as commit {commit} changed it.\n",
            one_line(p),
            one_line(p)
        ),
        RevertScope::Hunk(id) => format!(
            "Revert {} from \"{orig}\"\n\nThis reverts hunk {} of commit {commit}.\n",
            one_line(id),
            one_line(id)
        ),
    };
    if !files.is_empty() {
        out.push_str("\nFiles:\n");
        for f in files {
            let _ = writeln!(out, "- {}", one_line(f));
        }
    }
    let _ = write!(out, "\nReverts: {commit}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_round_trip_through_the_trailer() {
        let c = ReviewCounts { accepted: 2, rejected: 5, edited: 1 };
        assert_eq!(ReviewCounts::parse(&c.trailer()), Some(c));
        assert_eq!(ReviewCounts::parse("nonsense"), None);
        assert_eq!(ReviewCounts::parse(""), None);
    }

    #[test]
    fn trailers_are_read_from_the_last_paragraph() {
        let msg = "dream review: accept 1 of 2 changes from d\n\nAccepted (1):\n- a.md#1 (+1 -0)\n\nDream-Source: /tmp/d\nDream-Id: abc123\nReview: accepted=1 rejected=1 edited=0\n";
        let t = parse_trailers(msg);
        assert_eq!(t.dream_source.as_deref(), Some("/tmp/d"));
        assert_eq!(t.dream_id.as_deref(), Some("abc123"));
        assert_eq!(t.review, Some(ReviewCounts { accepted: 1, rejected: 1, edited: 0 }));
        assert_eq!(t.reverts, None);
        assert_eq!(parse_trailers("just a summary"), Trailers::default());
    }

    #[test]
    fn revert_message_ends_with_its_trailer() {
        let m = revert_message(
            "dream review: x",
            "0123456789abcdef",
            &RevertScope::Hunk("a.md#2".into()),
            &["a.md".into()],
        );
        assert!(m.starts_with("Revert a.md#2 from \"dream review: x\"\n\n"), "{m}");
        assert_eq!(parse_trailers(&m).reverts.as_deref(), Some("0123456789abcdef"));
    }

    #[test]
    fn review_message_lists_entries_and_citations_then_trailers() {
        use crate::analysis::result::ChangeReport;
        use crate::analysis::result::CitationReport;
        use crate::model::decision::Decision;
        let t = tempfile::tempdir().unwrap();
        let live = t.path().join("memory");
        let dream = t.path().join("dream");
        std::fs::create_dir_all(&live).unwrap();
        std::fs::create_dir_all(&dream).unwrap();
        std::fs::write(live.join("a.md"), "one\n").unwrap();
        std::fs::write(dream.join("a.md"), "one\ntwo\n").unwrap();
        std::fs::write(dream.join("b.md"), "new\n").unwrap();
        let inputs = crate::inputs::dream::discover(Some(&dream), Some(&live), &[]).unwrap();
        let mut review = crate::store::repo::load_review(inputs).unwrap();
        review.set_hunk(HunkId::new(0, 0), Decision::Accepted).unwrap();
        review.set_hunk(HunkId::new(1, 0), Decision::Rejected).unwrap();
        let mut analysis =
            Analysis { findings: crate::analysis::findings::Findings::empty(&review), ..Analysis::default() };
        analysis.findings.of_mut(HunkId::new(0, 0)).unwrap().changes = vec![crate::model::ids::EntryId::at(0)];
        analysis.changes = vec![ChangeReport {
            index: crate::model::ids::EntryId::at(0),
            line: 3,
            text: "memory/a.md: added two\n--- (s.jsonl line 3)".into(),
            citations: vec![
                CitationReport {
                    source: "s.jsonl".into(),
                    line: Some(3),
                    end: Some(5),
                    resolved: true,
                    excerpt: None,
                    ..Default::default()
                },
                CitationReport {
                    source: "gone.jsonl".into(),
                    line: None,
                    end: None,
                    resolved: false,
                    excerpt: None,
                    ..Default::default()
                },
            ],
            ..ChangeReport::default()
        }];
        let fates = vec![
            HunkFate { at: HunkId::new(0, 0), id: "a.md#1".into(), fate: Fate::Accepted },
            HunkFate { at: HunkId::new(1, 0), id: "b.md#1".into(), fate: Fate::Rejected },
        ];
        let m = review_message(&review, &analysis, &fates, &[], &["../x.md".into()]);
        let want = format!(
            "dream review: accept 1 of 2 changes from dream\n\n\
             Accepted (1):\n\
             - a.md#1 (+1 -0)\n  \
             CHANGES.md #1: memory/a.md: added two --- (s.jsonl line 3)\n    \
             cites s.jsonl:3-5\n    \
             cites gone.jsonl (whole file) (unresolved)\n\n\
             Rejected (1):\n\
             - b.md#1 (+1 -0)\n  \
             (no CHANGES.md entry)\n\n\
             Not written (outside the memory folder):\n\
             - ../x.md\n\n\
             Dream-Source: {}\n\
             Dream-Id: {}\n\
             Review: accepted=1 rejected=1 edited=0\n",
            dream.display(),
            review.dream_id
        );
        assert_eq!(m, want);
        let t = parse_trailers(&m);
        assert_eq!(t.dream_id.as_deref(), Some(review.dream_id.as_str()));
        assert_eq!(t.review.map(|c| c.accepted), Some(1));
    }

    #[test]
    fn one_line_flattens() {
        assert_eq!(one_line("a\r\n--- b\n"), "a  --- b");
        assert_eq!(one_line("x\u{1b}[2J\u{7}"), "x\u{241b}[2J\u{2407}");
    }
}
