//! A line as the TUI shows it, traced to the commit that wrote it: found in today's note,
//! or gone from it and explained as of the commit shown.

use super::explain::{explain, plural};
use super::note::{normalise, read_note, shown_lines, split_lines};
use super::types::{CommitInfo, Explanation, FORMAT, Group, NoteLine};
use super::walk::{Blamed, Walk, commit_info};
use crate::store::repo::MemoryRepo;
use crate::store::repo::history;
use crate::store::repo::message::one_line;
use anyhow::{Result, bail};

/// A line as a diff showed it: `why` for it is asked of the note as it is today.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownLine {
    /// The note, memory-relative.
    pub note: String,
    /// The line's text (a terminator is ignored).
    pub text: String,
    /// Its 1-based number on the side the diff showed.
    pub line: usize,
    /// The commit whose version of the note that side is (a commit opened in the history);
    /// `None`: the note on disk (the review's live side).
    pub commit: Option<String>,
}

/// Why a line a diff showed says what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Traced {
    /// The line is in the note today: explained where it is now.
    Today(Explanation),
    /// The line is not in the note today any more.
    Gone(Box<Gone>),
}

/// A line shown in a diff that the note no longer has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gone {
    /// The note, memory-relative.
    pub note: String,
    /// The line's 1-based number on the side the diff showed.
    pub line: usize,
    /// Its text (masked, one line).
    pub text: String,
    /// The commit whose version of the note showed it (`None`: the note on disk, which
    /// changed since).
    pub at: Option<CommitInfo>,
    /// Why that line said what it said as of `at` ([`explain_at`]), or why that cannot be
    /// told.
    pub then: std::result::Result<Explanation, String>,
}

/// Explains a line a diff showed: found in the note today by its text (the first line with
/// exactly that text; of several, the one nearest the line's number), it is explained
/// there; otherwise it is [`Traced::Gone`], explained as of the commit that showed it.
pub fn trace(repo: &MemoryRepo, shown: &ShownLine) -> Result<Traced> {
    let note = normalise(repo, &shown.note);
    let want = crate::base::text::strip_terminator(&shown.text);
    if let Some(today) = today_lines(repo, &note)?
        && let Some(n) = find_line(&today, want, shown.line)
    {
        return Ok(Traced::Today(explain(repo, &note, Some(n))?));
    }
    let text = shown_lines(&[want.to_string()]).pop().unwrap_or_default();
    let (at, then) = match &shown.commit {
        None => (None, Err(format!("{} changed on disk since it was shown", one_line(&note)))),
        Some(spec) => {
            let commit = history::find_commit(repo, spec)?;
            let summary =
                String::from_utf8_lossy(commit.message_bytes()).lines().next().unwrap_or_default().to_string();
            let then = explain_at(repo, &note, &commit, shown.line).map_err(|e| format!("{e:#}"));
            (Some(commit_info(&commit, &summary)), then)
        }
    };
    Ok(Traced::Gone(Box::new(Gone { note, line: shown.line, text, at, then })))
}

/// The 1-based number of the line of `lines` reading exactly `text`: the first, or of
/// several the one nearest `near`.
pub fn find_line(lines: &[String], text: &str, near: usize) -> Option<usize> {
    lines.iter().enumerate().filter(|(_, l)| l.as_str() == text).map(|(i, _)| i + 1).min_by_key(|n| n.abs_diff(near))
}

/// The note's lines on disk, terminators stripped; `None` when it is not there any more.
pub(super) fn today_lines(repo: &MemoryRepo, note: &str) -> Result<Option<Vec<String>>> {
    if !repo.memory.join(note).is_file() {
        return Ok(None);
    }
    Ok(Some(split_lines(&read_note(repo, note)?)))
}

/// Explains line `line` of note `note` as commit `at` has it: the commit that wrote that
/// line there (blamed from `at`, followed through reverts) and the review it came from.
pub fn explain_at(repo: &MemoryRepo, note: &str, at: &git2::Commit<'_>, line: usize) -> Result<Explanation> {
    let mut walk = Walk::new(repo, note, None);
    let Blamed { lines: texts, commits } = walk.blame_at(at, Some(line))?;
    if line == 0 || line > texts.len() {
        bail!(
            "{} has {} line{} at commit {}; line {line} is out of range",
            repo.repo_path(note),
            texts.len(),
            plural(texts.len()),
            crate::store::repo::short_id(at.id())
        );
    }
    let chain = walk.chain(commits[line - 1], &texts[line - 1])?;
    let shown = shown_lines(&texts);
    let origin = walk.origin(&chain, &[shown[line - 1].as_str()])?;
    let lines = vec![NoteLine { line, text: shown[line - 1].clone() }];
    Ok(Explanation {
        format: FORMAT,
        note: note.to_string(),
        line_count: texts.len(),
        groups: vec![Group { lines, origin }],
    })
}
