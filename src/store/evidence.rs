//! Evidence that outlives the transcript: what the reviewer saw beside each hunk a review
//! commit takes, kept as one JSON document (`dreamreview-evidence/1`) the repository layer
//! stores in a git note on that commit (`refs/notes/dreamreview`).
//!
//! Claude Code deletes session transcripts after `cleanupPeriodDays`; the notes they
//! explain stay. So for each taken hunk the document keeps the lines the commit wrote, the
//! CHANGES.md entries (or inline sources) that explain it, each cited transcript line as
//! the evidence pane rendered it (time, role, said text; secrets masked; at most
//! [`LINE_CAP`] bytes, the cut marked), every claim of the committed text with its verdict,
//! and the flags the reviewer accepted. `dreamreview why` reads it back.
//!
//! Nothing here knows git: [`build`] turns a review, its analysis and what the commit takes
//! into an [`Evidence`]; [`Evidence::to_json`] and [`Evidence::parse`] are the stored form.
//! The shape is documented in `docs/evidence.md`.

use crate::analysis::findings::ClaimReport;
use crate::analysis::result::Analysis;
use crate::analysis::result::ChangeReport;
use crate::analysis::result::CitationReport;
use crate::analysis::result::ContextLine;
use crate::base::secrets::mask;
use crate::base::text::strip_terminator;
use crate::model::diff::{Hunk, Op};
use crate::model::ids::{EntryId, HunkId};
use crate::model::review::Review;
use serde::{Deserialize, Serialize};

pub mod matching;

/// The `format` of the document this version writes and reads.
pub const FORMAT: &str = "dreamreview-evidence/1";

/// At most this many bytes of a kept transcript line's text (and of an entry's text); the
/// rest is cut and marked.
pub const LINE_CAP: usize = 4096;

/// At most this many bytes of kept transcript text in one document, each kept line counted
/// with [`LINE_OVERHEAD`]: an entry explaining many hunks is kept with each, and a hostile
/// dream must not make a commit write an unbounded note. A citation whose lines do not fit
/// in what is left keeps none of them and says how many it dropped
/// ([`CitationEvidence::not_kept`]).
pub const NOTE_BUDGET: usize = 2 << 20;

/// What a kept line costs the budget besides its text (its JSON fields).
const LINE_OVERHEAD: usize = 160;

/// How a hunk reached the commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Taken {
    /// Every changed line.
    Accepted,
    /// Some lines, chosen one by one.
    PartlyAccepted,
    /// The reviewer's own text.
    Edited,
}

impl Taken {
    /// `accepted`, `accepted line by line`, `edited by the reviewer`.
    pub fn describe(self) -> &'static str {
        match self {
            Taken::Accepted => "accepted",
            Taken::PartlyAccepted => "accepted line by line",
            Taken::Edited => "edited by the reviewer",
        }
    }
}

/// Everything one review commit keeps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// Always [`FORMAT`].
    pub format: String,
    /// The dream as the review named it (its folder name, or `in-place`).
    pub dream: String,
    /// The dream's content hash (the commit's `Dream-Id`).
    pub dream_id: String,
    /// The time zone `local_time` values are in (see [`crate::base::zone`]).
    pub time_zone: String,
    /// One per hunk the commit takes, in review order.
    pub hunks: Vec<HunkEvidence>,
}

/// What the reviewer saw beside one taken hunk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HunkEvidence {
    /// `database.md#2`.
    pub id: String,
    /// The note, memory-relative.
    pub path: String,
    /// How it was taken.
    pub taken: Taken,
    /// The lines the commit wrote into the note for this hunk (masked, terminators
    /// stripped): what `why` matches a note line against.
    pub lines: Vec<String>,
    /// The CHANGES.md entries or inline sources that explain it.
    pub entries: Vec<EntryEvidence>,
    /// Every claim of the committed lines and its verdict at review time.
    pub claims: Vec<ClaimReport>,
    /// Flags standing on what was taken, which the reviewer accepted.
    pub accepted_flags: Vec<FlagEvidence>,
}

/// One explaining entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryEvidence {
    /// `CHANGES.md #3` or `inline source MEMORY.md:9`.
    pub label: String,
    /// The entry's text (masked).
    pub text: String,
    /// Its citations with the lines they pointed at.
    pub citations: Vec<CitationEvidence>,
}

/// One citation and the transcript lines it pointed at when the review was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CitationEvidence {
    /// `5b0e….jsonl:3`, `…:3-5`, `… (whole file)` as the review showed it.
    pub location: String,
    /// The transcript's name as the review resolved it.
    pub source: String,
    /// Where the transcript was on disk (to tell later whether it is still there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// First cited line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Last cited line of a range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<usize>,
    /// The transcript and every cited line existed.
    pub resolved: bool,
    /// Who said the cited line (`user`, `assistant`, `tool WebFetch`…), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speaker: Option<String>,
    /// The cited lines with the context the evidence pane showed around them.
    pub lines: Vec<KeptLine>,
    /// Lines the pane showed that this note does not keep: its [`NOTE_BUDGET`] was spent on
    /// earlier hunks (0: all kept).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub not_kept: usize,
}

/// One transcript message as the evidence pane showed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptLine {
    /// First physical line (1-based).
    pub line: usize,
    /// Last physical line (a message may span several).
    pub last: usize,
    /// The timestamp as the transcript writes it (normally UTC), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// That moment in [`Evidence::time_zone`], `YYYY-MM-DD HH:MM`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_time: Option<String>,
    /// `user`, `assistant`, `tool`, `note`… when the line has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// What it said (masked, one line, at most [`LINE_CAP`] bytes).
    pub text: String,
    /// True for a cited line, false for context.
    pub cited: bool,
    /// Bytes of `text` not kept (0: whole).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cut: usize,
}

/// A flag the reviewer let through.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagEvidence {
    /// `inferred-date`, `unsourced-claim`…
    pub kind: String,
    /// `error` or `warning`.
    pub severity: String,
    /// The flag's sentence (masked).
    pub message: String,
    /// The claim it is about (masked), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Evidence {
    /// The stored form: pretty JSON ending in a newline, written through the one boundary
    /// ([`crate::base::shown::json`]): every string masked (a note named after a token keeps its
    /// name in git's tree, never in its evidence), unsafe characters escaped.
    pub fn to_json(&self) -> String {
        let mut s = crate::base::shown::json_string(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Reads a stored document; an error names what is wrong (another format, broken JSON).
    pub fn parse(text: &str) -> Result<Evidence, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        match v.get("format").and_then(|f| f.as_str()) {
            Some(FORMAT) => serde_json::from_value(v).map_err(|e| format!("not a {FORMAT} document: {e}")),
            Some(other) => Err(format!("format {other:?}, this dreamreview reads {FORMAT}")),
            None => Err(format!("no \"format\" field, this dreamreview reads {FORMAT}")),
        }
    }

    /// The hunks kept for note `path` (kept masked, as [`Evidence::to_json`] writes it).
    pub fn hunks_of<'a>(&'a self, path: &'a str) -> impl Iterator<Item = &'a HunkEvidence> {
        let masked = mask(path);
        self.hunks.iter().filter(move |h| h.path == path || h.path == masked)
    }
}

/// The evidence of a commit that takes `taken` (hunk, how) from `review`,
/// with `standing` the flags standing on it (the commit's own list, as its message has them).
pub fn build(
    review: &Review,
    analysis: &Analysis,
    taken: &[(HunkId, Taken)],
    standing: &[crate::analysis::standing::StandingFlag],
) -> Evidence {
    let mut budget = NOTE_BUDGET;
    let hunks = taken
        .iter()
        .filter_map(|&(at, how)| {
            let h = review.hunk(at)?;
            let flags = standing.iter().filter(|s| s.hunk == h.id).map(|s| flag_evidence(&s.flag)).collect();
            Some(hunk_evidence(review, analysis, (at, h, how), flags, &mut budget))
        })
        .collect();
    Evidence {
        format: FORMAT.to_string(),
        dream: one_line(&review.inputs.dream_name()),
        dream_id: review.dream_id.clone(),
        time_zone: review.zone.name().to_string(),
        hunks,
    }
}

/// One hunk's evidence: its committed lines, entries, claims and accepted flags.
fn hunk_evidence(
    review: &Review,
    analysis: &Analysis,
    (at, h, how): (HunkId, &Hunk, Taken),
    accepted_flags: Vec<FlagEvidence>,
    budget: &mut usize,
) -> HunkEvidence {
    let edit = (how == Taken::Edited).then(|| analysis.edits.iter().find(|e| e.id == at)).flatten();
    let lines = committed_lines(review, at, h, how);
    let entry_ids: Vec<EntryId> = match edit {
        Some(e) => e.changes.clone(),
        None => analysis.findings.changes(at).to_vec(),
    };
    let entries =
        entry_ids.iter().filter_map(|&id| analysis.entry(id)).map(|c| entry_evidence(review, c, budget)).collect();
    let claims: &[ClaimReport] = match edit {
        Some(e) => &e.claims,
        None => analysis.findings.claims(at),
    };
    // Line by line, only the claims of lines the commit took.
    let claims: Vec<ClaimReport> = claims
        .iter()
        .filter(|c| how != Taken::PartlyAccepted || lines.iter().any(|l| l.contains(&c.text)))
        .cloned()
        .collect();
    HunkEvidence {
        id: h.id.clone(),
        path: review.files[at.file].path.clone(),
        taken: how,
        lines,
        entries,
        claims,
        accepted_flags,
    }
}

/// The lines the commit writes for hunk `h`: all its added lines, the accepted ones, or
/// the reviewer's text's added lines; masked, terminators stripped.
fn committed_lines(review: &Review, at: HunkId, h: &Hunk, how: Taken) -> Vec<String> {
    let d = review.decision(at);
    let texts: Vec<String> = match (how, d) {
        (Taken::Edited, Some(d)) => match d.edited.as_deref() {
            Some(text) => h.edited(text).added().map(|l| l.text.clone()).collect(),
            None => Vec::new(),
        },
        (Taken::PartlyAccepted, Some(d)) => {
            h.taken_lines(d).filter(|l| l.op == Op::Add).map(|l| l.text.clone()).collect()
        }
        _ => h.added().map(|l| l.text.clone()).collect(),
    };
    // Masked as one text: a PEM block or a token cut over two lines is not recognisable
    // line by line.
    crate::base::secrets::mask_lines(&texts).iter().map(|t| strip_terminator(t).to_string()).collect()
}

fn entry_evidence(review: &Review, c: &ChangeReport, budget: &mut usize) -> EntryEvidence {
    EntryEvidence {
        label: c.label(),
        text: cap(&mask(&c.text)).0,
        citations: c.citations.iter().map(|cit| citation_evidence(review, cit, budget)).collect(),
    }
}

fn citation_evidence(review: &Review, c: &CitationReport, budget: &mut usize) -> CitationEvidence {
    let lines: Vec<KeptLine> = c.context.iter().map(|l| kept_line(review, l)).collect();
    let cost: usize = lines.iter().map(|l| l.text.len() + LINE_OVERHEAD).sum();
    let (lines, not_kept) = if cost <= *budget {
        *budget -= cost;
        (lines, 0)
    } else {
        (Vec::new(), lines.len())
    };
    CitationEvidence {
        location: c.location(),
        source: c.source.clone(),
        path: c.path.as_ref().map(|p| p.display().to_string()),
        line: c.line,
        end: c.end,
        resolved: c.resolved,
        speaker: c.speaker.clone(),
        lines,
        not_kept,
    }
}

/// A context line split back into time, role and text (the pane renders `time · role ·
/// text`), its time read in the review's zone, its text capped.
pub fn kept_line(review: &Review, l: &ContextLine) -> KeptLine {
    let (time, role, text) = split_rendered(&l.text);
    let local_time = time.as_deref().and_then(crate::base::zone::parse_instant).map(|at| review.zone.local_time(at));
    let (text, cut) = cap(&mask(text));
    KeptLine { line: l.line, last: l.last, time, local_time, role, text, cited: l.cited, cut }
}

/// The said text a [`KeptLine`] keeps of a line rendered `time · role · text`: masked,
/// capped, with the bytes cut. `why` compares a transcript line rendered again with this.
pub fn kept_text(rendered: &str) -> (String, usize) {
    let (_, _, text) = split_rendered(rendered);
    cap(&mask(text))
}

/// `time · role · text` → its parts; `role · text` has no time; anything else is text.
fn split_rendered(s: &str) -> (Option<String>, Option<String>, &str) {
    const SEP: &str = " · ";
    let looks_like_time = |t: &str| t.len() >= 10 && t.as_bytes()[..4].iter().all(u8::is_ascii_digit);
    let mut parts = s.splitn(3, SEP);
    let (first, second, third) = (parts.next().unwrap_or_default(), parts.next(), parts.next());
    if looks_like_time(first)
        && let (Some(role), Some(rest)) = (second, third)
        && is_role(role)
    {
        return (Some(first.to_string()), Some(role.to_string()), rest);
    }
    if second.is_some() && is_role(first) {
        return (None, Some(first.to_string()), &s[first.len() + SEP.len()..]);
    }
    (None, None, s)
}

/// A role word: a short lower-case identifier (`user`, `assistant`, `tool`, `file-history-snapshot`).
fn is_role(s: &str) -> bool {
    !s.is_empty() && s.len() <= 40 && s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-' || b == b'_')
}

/// `text` cut at [`LINE_CAP`] bytes on a character boundary, with how many bytes were cut.
fn cap(text: &str) -> (String, usize) {
    if text.len() <= LINE_CAP {
        return (text.to_string(), 0);
    }
    let mut end = LINE_CAP;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let cut = text.len() - end;
    (format!("{} [… {cut} bytes not kept]", &text[..end]), cut)
}

/// Masked text on one line, control characters made visible.
fn one_line(text: &str) -> String {
    let flat: String = mask(text).chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect();
    crate::base::text::visible_controls(flat.trim()).into_owned()
}

fn flag_evidence(f: &crate::analysis::flag::Flag) -> FlagEvidence {
    FlagEvidence {
        kind: f.kind.name().to_string(),
        severity: f.severity.name().to_string(),
        message: mask(&f.message).into_owned(),
        claim: f.claim.as_deref().map(|c| mask(c).into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rendered_line_splits_into_time_role_and_text() {
        let (t, r, x) = split_rendered("2026-11-26 10:02:11 · user · we moved · to pnpm");
        assert_eq!((t.as_deref(), r.as_deref(), x), (Some("2026-11-26 10:02:11"), Some("user"), "we moved · to pnpm"));
        let (t, r, x) = split_rendered("2026-06-02 · note · standup at 9");
        assert_eq!((t.as_deref(), r.as_deref(), x), (Some("2026-06-02"), Some("note"), "standup at 9"));
        let (t, r, x) = split_rendered("raw · {not json");
        assert_eq!((t, r.as_deref(), x), (None, Some("raw"), "{not json"));
        assert_eq!(split_rendered("[…] cited lines 5-9 not shown"), (None, None, "[…] cited lines 5-9 not shown"));
    }

    #[test]
    fn a_long_line_is_cut_on_a_character_boundary_and_marked() {
        let long = "é".repeat(LINE_CAP);
        let (text, cut) = cap(&long);
        assert_eq!(cut, long.len() - LINE_CAP);
        assert!(text.ends_with(&format!("[… {cut} bytes not kept]")), "{}", &text[text.len() - 40..]);
        assert_eq!(cap("short"), ("short".to_string(), 0));
    }

    #[test]
    fn another_format_is_refused_by_name() {
        assert!(Evidence::parse("{\"format\":\"x/2\"}").unwrap_err().contains("x/2"));
        assert!(Evidence::parse("nope").unwrap_err().contains("not JSON"));
        assert!(Evidence::parse("{}").unwrap_err().contains("no \"format\""));
    }
}
