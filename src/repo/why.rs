//! `why`: for a line of a live note, the commit that wrote it (blame through libgit2) and
//! the review it came from, with what the reviewer saw then.
//!
//! [`explain`] is the one entry point: it blames the note as it is on disk now (lines not
//! committed yet are named so), follows a line a `dreamreview revert` restored back to the
//! commit that first wrote it, and for a review commit reads its evidence note
//! ([`super::notes`]): the hunk that wrote the line, its entries, the cited transcript
//! lines as they were kept, the claims and verdicts, the flags accepted. Each cited
//! transcript is looked at again: still there, deleted since, or changed since (the line
//! rendered again and compared with the kept text). A review commit made before evidence
//! was kept falls back to the `cites` lines of its message.
//!
//! The result is plain data ([`Explanation`], serializable as `why --json` prints it);
//! nothing here prints. Every text in it went through [`crate::secrets`] masking.

use super::MemoryRepo;
use super::history::{self, CommitKind};
use super::message::{self, one_line};
use super::notes::{self, Stored};
use crate::analysis::findings::ClaimReport;
use crate::evidence::{CitationEvidence, FlagEvidence, HunkEvidence, Taken};
use crate::transcript::{SourceFile, SourceSet, Transcript};
use anyhow::{Context, Result, anyhow, bail};
use git2::Oid;
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;

/// The `format` of `why --json`.
pub const FORMAT: &str = "dreamreview-why/1";

/// How many reverts deep a restored line is followed.
const MAX_RESTORES: usize = 8;

/// Why the lines of one note say what they say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// Always [`FORMAT`].
    pub format: &'static str,
    /// The note, memory-relative.
    pub note: String,
    /// How many lines the note has on disk.
    pub line_count: usize,
    /// The lines asked about, grouped by where they came from, in the order of their first
    /// line.
    pub groups: Vec<Group>,
}

/// Lines that came from the same place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    /// The lines (1-based numbers, masked text).
    pub lines: Vec<NoteLine>,
    /// Where they came from.
    pub origin: Origin,
}

/// One line of the note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NoteLine {
    /// 1-based line number in the note on disk.
    pub line: usize,
    /// Its text, terminator stripped, masked, control characters made visible.
    pub text: String,
}

/// The commit a line came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CommitInfo {
    /// Full id.
    pub id: String,
    /// 7 hex digits.
    pub short: String,
    /// Author name (masked).
    pub author: String,
    /// Author date in the author's zone, `YYYY-MM-DD HH:MM +ZZZZ`.
    pub date: String,
    /// Summary line (masked).
    pub summary: String,
}

/// Where lines came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Origin {
    /// A dreamreview review commit.
    Review(Box<ReviewOrigin>),
    /// A `dreamreview revert` commit put the lines back.
    Revert {
        /// The revert commit.
        commit: CommitInfo,
        /// The commit it reverts (full id, as its `Reverts:` trailer says).
        reverts: String,
        /// Where the restored lines first came from, when that can be known.
        restored: Option<Box<Origin>>,
    },
    /// A commit that is not a review: a hand edit, another tool, the first commit, or a
    /// snapshot of a session's edits dreamreview made before a review or revert.
    Outside {
        /// The commit.
        commit: CommitInfo,
        /// True for dreamreview's snapshot commits.
        snapshot: bool,
    },
    /// The lines are on disk but in no commit yet.
    Uncommitted,
}

impl Origin {
    /// The commit that wrote the lines (for a revert, the revert), if they are committed.
    pub fn commit(&self) -> Option<&CommitInfo> {
        match self {
            Origin::Review(r) => Some(&r.commit),
            Origin::Revert { commit, .. } | Origin::Outside { commit, .. } => Some(commit),
            Origin::Uncommitted => None,
        }
    }
}

/// How much of a review's evidence is there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kept {
    /// The commit's evidence note: the cited lines' text was kept.
    Kept,
    /// No evidence note (a review made before dreamreview kept evidence): only the
    /// message's `cites` lines.
    NotKept,
    /// A note this version cannot read: only the message's `cites` lines.
    Unreadable,
}

/// The review that wrote some lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewOrigin {
    /// The review commit.
    pub commit: CommitInfo,
    /// The dream as the review named it (evidence), else its `Dream-Source` (masked).
    pub dream: Option<String>,
    /// The `Dream-Id` trailer.
    pub dream_id: Option<String>,
    /// Whether the evidence was kept.
    pub evidence: Kept,
    /// Why the evidence note could not be read ([`Kept::Unreadable`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreadable: Option<String>,
    /// The kept evidence of the hunks that wrote these lines ([`Kept::Kept`]).
    pub hunks: Vec<HunkWhy>,
    /// Otherwise, the accepted hunks of this note as the commit message lists them.
    pub message_hunks: Vec<MessageHunk>,
}

/// The kept evidence of one hunk, each citation with what became of its transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HunkWhy {
    /// `testing.md#1`.
    pub id: String,
    /// How it was taken.
    pub taken: Taken,
    /// The lines the commit wrote for it (masked).
    pub lines: Vec<String>,
    /// The entries that explain it.
    pub entries: Vec<EntryWhy>,
    /// Its claims and their verdicts at review time.
    pub claims: Vec<ClaimReport>,
    /// Flags the reviewer accepted on it.
    pub accepted_flags: Vec<FlagEvidence>,
}

/// One explaining entry and its citations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryWhy {
    /// `CHANGES.md #3`, `inline source MEMORY.md:9`.
    pub label: String,
    /// Its text (masked).
    pub text: String,
    /// Its citations.
    pub citations: Vec<CitationWhy>,
}

/// A citation as kept, and its transcript now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CitationWhy {
    /// What the review kept (location, path, lines…).
    #[serde(flatten)]
    pub kept: CitationEvidence,
    /// The transcript now.
    pub now: Now,
}

/// A cited transcript now, against what the review kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Now {
    /// It exists and its cited lines say what was kept (without kept text: it exists).
    StillThere,
    /// It is gone (Claude Code's cleanup, or by hand).
    DeletedSince,
    /// It exists but a cited line now says something else, or is gone.
    ChangedSince,
    /// The review could not find it either.
    NotFoundAtReview,
}

impl Now {
    /// `still there`, `deleted since — kept text shown`…
    pub fn describe(self, kept_text: bool) -> &'static str {
        match (self, kept_text) {
            (Now::StillThere, _) => "still there",
            (Now::DeletedSince, true) => "deleted since — kept text shown",
            (Now::DeletedSince, false) => "deleted since",
            (Now::ChangedSince, _) => "changed since — kept text shown",
            (Now::NotFoundAtReview, _) => "not found at review time either",
        }
    }
}

/// An accepted hunk of this note as an old review commit's message lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageHunk {
    /// The message's line for it (`testing.md#1 (+2 -1)`).
    pub line: String,
    /// Its entries (`CHANGES.md #2: …`) with their `cites` lines.
    pub entries: Vec<MessageEntry>,
}

/// An entry under a hunk in a review message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageEntry {
    /// `CHANGES.md #2: memory/testing.md: …` as the message has it.
    pub text: String,
    /// Its `cites` lines.
    pub cites: Vec<MessageCite>,
}

/// A `cites` line of a review message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageCite {
    /// The rest of the line after `cites ` (location, and for newer messages an excerpt).
    pub text: String,
    /// The transcript name it cites.
    pub source: String,
    /// Whether a transcript of that name is there now ([`Now::StillThere`] or
    /// [`Now::DeletedSince`]: without kept text, a change cannot be told).
    pub now: Now,
}

/// Explains line `line` of note `note` (memory-relative, as on disk now), or every line of
/// it. Errors name the note and the folder: no such note, a line out of range, a history
/// that cannot be read.
pub fn explain(repo: &MemoryRepo, note: &str, line: Option<usize>) -> Result<Explanation> {
    explain_in(repo, note, line, &mut Shared::default())
}

/// What explaining several notes of one repository shares: the transcripts findable now.
#[derive(Default)]
pub struct Shared {
    sources: Option<SourceSet>,
}

impl Shared {
    /// Whether a transcript named `source` (as a `cites` line names it) is findable now.
    pub fn transcript_exists(&mut self, repo: &MemoryRepo, source: &str) -> bool {
        transcript_exists(repo, &mut self.sources, source)
    }
}

/// Whether a transcript named `source` is findable now among the memory folder's sources
/// (found once, kept in `sources`).
fn transcript_exists(repo: &MemoryRepo, sources: &mut Option<SourceSet>, source: &str) -> bool {
    let sources = sources.get_or_insert_with(|| {
        let root = repo.memory.parent();
        SourceSet::discover(root, &[], Some(&repo.memory)).unwrap_or_default()
    });
    !sources.find(source).is_empty()
}

/// [`explain`], sharing what can be shared with the other notes explained with `shared`.
pub fn explain_in(repo: &MemoryRepo, note: &str, line: Option<usize>, shared: &mut Shared) -> Result<Explanation> {
    let note = normalise(repo, note);
    let raw = read_note(repo, &note)?;
    let texts = split_lines(&raw);
    let wanted: Vec<usize> = match line {
        Some(0) => bail!("{}: lines are numbered from 1", repo.memory.join(&note).display()),
        Some(n) if n > texts.len() => bail!(
            "{} has {} line{}; line {n} is out of range",
            repo.memory.join(&note).display(),
            texts.len(),
            plural(texts.len())
        ),
        Some(n) => vec![n],
        None => (1..=texts.len()).collect(),
    };
    let mut walk = Walk::new(repo, &note, shared.sources.take());
    let blamed = walk.blame_now(&raw, texts.len(), line)?;
    let shown = shown_lines(&texts);
    // Group the lines by the chain of commits that explains them.
    let mut groups: Vec<(Vec<Oid>, Vec<usize>)> = Vec::new();
    for n in wanted {
        let chain = walk.chain(blamed[n - 1], &texts[n - 1])?;
        match groups.iter_mut().find(|(c, _)| *c == chain) {
            Some((_, lines)) => lines.push(n),
            None => groups.push((chain, vec![n])),
        }
    }
    let mut out = Vec::with_capacity(groups.len());
    for (chain, lines) in groups {
        let masked: Vec<&str> = lines.iter().map(|&n| shown[n - 1].as_str()).collect();
        let origin = walk.origin(&chain, &masked)?;
        let lines = lines.into_iter().map(|n| NoteLine { line: n, text: shown[n - 1].clone() }).collect();
        out.push(Group { lines, origin });
    }
    shared.sources = walk.sources.take();
    Ok(Explanation { format: FORMAT, note, line_count: texts.len(), groups: out })
}

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
    let want = crate::text::strip_terminator(&shown.text);
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
fn today_lines(repo: &MemoryRepo, note: &str) -> Result<Option<Vec<String>>> {
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
            super::short_id(at.id())
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

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `./a.md`, `proj/memory/a.md` (repository-relative) and `a.md` name the same note.
fn normalise(repo: &MemoryRepo, note: &str) -> String {
    let p = note.trim_start_matches("./").replace('\\', "/");
    if !repo.prefix.is_empty()
        && let Some(rest) = p.strip_prefix(&format!("{}/", repo.prefix))
        && repo.memory.join(rest).is_file()
    {
        return rest.to_string();
    }
    p
}

/// The note's bytes on disk; an error names it and the folder.
fn read_note(repo: &MemoryRepo, note: &str) -> Result<Vec<u8>> {
    let inside = !note.is_empty()
        && Path::new(note).components().all(|c| matches!(c, std::path::Component::Normal(_)))
        && !crate::snapshot::is_hidden(note.rsplit('/').next().unwrap_or(note));
    let path = repo.memory.join(note);
    if !inside || !path.is_file() {
        bail!(
            "no note {} in the memory folder {} (give its path relative to that folder, e.g. MEMORY.md)",
            one_line(note),
            repo.memory.display()
        );
    }
    std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))
}

/// The note's lines, terminators stripped.
fn split_lines(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    crate::text::split_lines(&text).iter().map(|l| crate::text::strip_terminator(l).to_string()).collect()
}

/// Lines as shown: masked as one text (a key spanning lines leaves no piece on any line),
/// one line each, control characters visible.
fn shown_lines(texts: &[String]) -> Vec<String> {
    crate::secrets::mask_lines(texts)
        .iter()
        .map(|l| crate::text::visible_controls(crate::text::strip_terminator(l)).into_owned())
        .collect()
}

/// The note's text at one commit, line by line, with the commit that wrote each line.
struct Blamed {
    lines: Vec<String>,
    commits: Vec<Oid>,
}

/// The history walk of one note, with what it has read cached.
struct Walk<'r> {
    repo: &'r MemoryRepo,
    note: String,
    /// The note as it was before a reverted commit, blamed (per reverted commit).
    before: HashMap<Oid, Option<Blamed>>,
    /// The evidence notes, listed when the first is read.
    notes: Option<notes::Index>,
    /// Evidence notes read (per commit).
    stored: HashMap<Oid, Stored>,
    /// The commit each commit reverts, if it is a revert (per commit).
    reverts: HashMap<Oid, Option<Oid>>,
    /// The transcripts findable now, for citations named without a path.
    sources: Option<SourceSet>,
}

impl<'r> Walk<'r> {
    fn new(repo: &'r MemoryRepo, note: &str, sources: Option<SourceSet>) -> Walk<'r> {
        Walk {
            repo,
            note: note.to_string(),
            before: HashMap::new(),
            notes: None,
            stored: HashMap::new(),
            reverts: HashMap::new(),
            sources,
        }
    }

    /// The commit of each line of the note on disk (`Oid::ZERO_SHA1`: not committed).
    /// With `only` a line, only that line is looked for.
    fn blame_now(&self, disk: &[u8], count: usize, only: Option<usize>) -> Result<Vec<Oid>> {
        let Some(head) = self.repo.head_commit()? else {
            return Ok(vec![Oid::ZERO_SHA1; count]);
        };
        let wanted: Vec<usize> = match only {
            Some(n) => vec![n - 1],
            None => (0..count).collect(),
        };
        super::blame::blame(&self.repo.repo, &self.repo.repo_path(&self.note), head.id(), disk, &wanted)
    }

    /// `commit`, then for a revert the commit that first wrote the line it restored, and so on.
    fn chain(&mut self, commit: Oid, text: &str) -> Result<Vec<Oid>> {
        let mut chain = vec![commit];
        let mut at = commit;
        while !at.is_zero() && chain.len() <= MAX_RESTORES {
            let Some(reverted) = self.reverted_by(at)? else { break };
            let Some(before) = self.before_commit(reverted)? else { break };
            let Some(i) = before.lines.iter().position(|l| l == text) else { break };
            at = before.commits[i];
            chain.push(at);
        }
        Ok(chain)
    }

    /// The commit a revert commit reverts.
    fn reverted_by(&mut self, commit: Oid) -> Result<Option<Oid>> {
        if let Some(&known) = self.reverts.get(&commit) {
            return Ok(known);
        }
        let reverted = self.read_reverted(commit)?;
        self.reverts.insert(commit, reverted);
        Ok(reverted)
    }

    fn read_reverted(&self, commit: Oid) -> Result<Option<Oid>> {
        let c = self.repo.repo.find_commit(commit)?;
        let msg = String::from_utf8_lossy(c.message_bytes());
        let Some(spec) = message::parse_trailers(&msg).reverts else { return Ok(None) };
        Ok(self.repo.repo.revparse_single(&spec).ok().and_then(|o| o.peel_to_commit().ok()).map(|c| c.id()))
    }

    /// The note as the first parent of `reverted` had it, blamed there.
    fn before_commit(&mut self, reverted: Oid) -> Result<Option<&Blamed>> {
        if !self.before.contains_key(&reverted) {
            let b = self.blame_at_parent(reverted)?;
            self.before.insert(reverted, b);
        }
        Ok(self.before.get(&reverted).and_then(Option::as_ref))
    }

    fn blame_at_parent(&self, reverted: Oid) -> Result<Option<Blamed>> {
        let commit = self.repo.repo.find_commit(reverted)?;
        let Ok(parent) = commit.parent(0) else { return Ok(None) };
        let path = self.repo.repo_path(&self.note);
        let is_blob = |e: git2::TreeEntry<'_>| e.kind() == Some(git2::ObjectType::Blob);
        if !parent.tree()?.get_path(Path::new(&path)).is_ok_and(is_blob) {
            return Ok(None);
        }
        self.blame_at(&parent, None).map(Some)
    }

    /// The note as commit `at` has it, blamed there (with `only` a line of it, only that
    /// line: the others are `Oid::ZERO_SHA1`).
    fn blame_at(&self, at: &git2::Commit<'_>, only: Option<usize>) -> Result<Blamed> {
        let path = self.repo.repo_path(&self.note);
        let short = super::short_id(at.id());
        let entry = at.tree()?.get_path(Path::new(&path)).with_context(|| format!("commit {short} has no {path}"))?;
        let blob = self.repo.repo.find_blob(entry.id()).with_context(|| format!("cannot read {path} at {short}"))?;
        let lines = split_lines(blob.content());
        let wanted: Vec<usize> = match only.filter(|n| (1..=lines.len()).contains(n)) {
            Some(n) => vec![n - 1],
            None => (0..lines.len()).collect(),
        };
        let commits = super::blame::blame(&self.repo.repo, &path, at.id(), blob.content(), &wanted)
            .with_context(|| format!("as of {short}"))?;
        Ok(Blamed { lines, commits })
    }

    /// The origin a chain of commits names, for lines showing `masked`.
    fn origin(&mut self, chain: &[Oid], masked: &[&str]) -> Result<Origin> {
        let Some((&first, rest)) = chain.split_first() else { return Ok(Origin::Uncommitted) };
        if first.is_zero() {
            return Ok(Origin::Uncommitted);
        }
        let commit = self.repo.repo.find_commit(first)?;
        let msg = String::from_utf8_lossy(commit.message_bytes()).into_owned();
        let summary = msg.lines().next().unwrap_or_default().to_string();
        let trailers = message::parse_trailers(&msg);
        let info = commit_info(&commit, &summary);
        Ok(match history::kind_of(&summary, &trailers) {
            CommitKind::Revert => {
                let restored = match rest.is_empty() {
                    true => None,
                    false => Some(Box::new(self.origin(rest, masked)?)),
                };
                Origin::Revert { commit: info, reverts: one_line(&trailers.reverts.unwrap_or_default()), restored }
            }
            CommitKind::Review => Origin::Review(Box::new(self.review(first, info, &msg, &trailers, masked)?)),
            CommitKind::Snapshot => Origin::Outside { commit: info, snapshot: true },
            CommitKind::Other => Origin::Outside { commit: info, snapshot: false },
        })
    }

    /// The review commit `id` and what it keeps about the hunks that wrote `masked`.
    fn review(
        &mut self,
        id: Oid,
        commit: CommitInfo,
        msg: &str,
        trailers: &message::Trailers,
        masked: &[&str],
    ) -> Result<ReviewOrigin> {
        if !self.stored.contains_key(&id) {
            if self.notes.is_none() {
                self.notes = Some(notes::Index::load(self.repo)?);
            }
            let s = self.notes.as_ref().map_or(Ok(Stored::Missing), |n| n.read(self.repo, id))?;
            self.stored.insert(id, s);
        }
        let mut out = ReviewOrigin {
            commit,
            dream: trailers.dream_source.as_deref().map(one_line),
            dream_id: trailers.dream_id.clone(),
            evidence: Kept::NotKept,
            unreadable: None,
            hunks: Vec::new(),
            message_hunks: Vec::new(),
        };
        match self.stored.get(&id).cloned() {
            Some(Stored::Evidence(e)) => {
                out.evidence = Kept::Kept;
                out.dream = Some(one_line(&e.dream));
                let mine: Vec<&HunkEvidence> = e.hunks_of(&self.note).collect();
                let matched: Vec<&HunkEvidence> =
                    mine.iter().copied().filter(|h| h.lines.iter().any(|l| masked.contains(&l.as_str()))).collect();
                let chosen = if matched.is_empty() { mine } else { matched };
                out.hunks = chosen.into_iter().map(hunk_why).collect();
            }
            Some(Stored::Unreadable(why)) => {
                out.evidence = Kept::Unreadable;
                out.unreadable = Some(one_line(&why));
                out.message_hunks = self.message_hunks(msg);
            }
            _ => out.message_hunks = self.message_hunks(msg),
        }
        Ok(out)
    }

    /// The accepted hunks of this note in an old review message, with their `cites` lines.
    fn message_hunks(&mut self, msg: &str) -> Vec<MessageHunk> {
        let note = self.note.clone();
        accepted_in_message(msg, &note, |cite| self.message_cite(cite))
    }

    /// A `cites` line and whether its transcript is there now.
    fn message_cite(&mut self, text: String) -> MessageCite {
        let source = cited_source(&text);
        let now =
            if transcript_exists(self.repo, &mut self.sources, &source) { Now::StillThere } else { Now::DeletedSince };
        MessageCite { text, source, now }
    }
}

/// A kept hunk, each citation with its transcript now.
fn hunk_why(h: &HunkEvidence) -> HunkWhy {
    let entries = h
        .entries
        .iter()
        .map(|e| EntryWhy {
            label: e.label.clone(),
            text: e.text.clone(),
            citations: e.citations.iter().map(|c| CitationWhy { kept: c.clone(), now: now(c) }).collect(),
        })
        .collect();
    HunkWhy {
        id: h.id.clone(),
        taken: h.taken,
        lines: h.lines.clone(),
        entries,
        claims: h.claims.clone(),
        accepted_flags: h.accepted_flags.clone(),
    }
}

fn commit_info(commit: &git2::Commit<'_>, summary: &str) -> CommitInfo {
    let author = commit.author();
    let when = author.when();
    let id = commit.id().to_string();
    CommitInfo {
        short: super::short_id(&id),
        id,
        author: one_line(&String::from_utf8_lossy(author.name_bytes())),
        date: history::format_time(when.seconds(), when.offset_minutes()),
        summary: one_line(summary),
    }
}

/// The transcript of a kept citation now: gone, there and saying what was kept, or changed.
fn now(c: &CitationEvidence) -> Now {
    let Some(path) = c.path.as_deref() else {
        return if c.resolved { Now::DeletedSince } else { Now::NotFoundAtReview };
    };
    let path = Path::new(path);
    if !path.is_file() {
        return Now::DeletedSince;
    }
    let Ok(t) = Transcript::open(&SourceFile::new(path.to_path_buf(), c.source.clone())) else {
        return Now::DeletedSince;
    };
    let same = c.lines.iter().filter(|l| l.cited && l.role.is_some()).all(|l| {
        let Ok(entries) = t.context_range(l.line..=l.last, 0) else { return false };
        entries.iter().find(|e| *e.lines.start() == l.line).is_some_and(|e| {
            let (text, cut) = crate::evidence::kept_text(&e.rendered);
            text == l.text && cut == l.cut
        })
    });
    if same { Now::StillThere } else { Now::ChangedSince }
}

/// The accepted hunks of `note` in a review message: each hunk's line (`note#1 (+2 -1)`)
/// with its entries and their `cites` lines (made by `cite`), in message order.
pub fn accepted_in_message(msg: &str, note: &str, mut cite: impl FnMut(String) -> MessageCite) -> Vec<MessageHunk> {
    let mut out: Vec<MessageHunk> = Vec::new();
    let head = format!("- {}#", one_line(note));
    let mut in_accepted = false;
    let mut mine = false;
    for line in msg.lines() {
        if !line.starts_with(' ') && !line.starts_with('-') {
            in_accepted = line.starts_with("Accepted (");
            mine = false;
            continue;
        }
        if !in_accepted {
            continue;
        }
        if let Some(rest) = line.strip_prefix("- ") {
            mine = line.starts_with(&head);
            if mine {
                out.push(MessageHunk { line: one_line(rest), entries: Vec::new() });
            }
            continue;
        }
        let Some(hunk) = out.last_mut().filter(|_| mine) else { continue };
        if let Some(text) = line.strip_prefix("    cites ") {
            if let Some(entry) = hunk.entries.last_mut() {
                entry.cites.push(cite(one_line(text)));
            }
        } else if let Some(entry) = line.strip_prefix("  ")
            && !entry.starts_with(' ')
            && !entry.starts_with("accepted with:")
            && !entry.starts_with("(no CHANGES.md entry)")
        {
            hunk.entries.push(MessageEntry { text: one_line(entry), cites: Vec::new() });
        }
    }
    out
}

/// The transcript name a `cites` line names: its first word without `:LINE[-END]`.
pub fn cited_source(cite: &str) -> String {
    let loc = cite.split_whitespace().next().unwrap_or_default();
    match loc.rsplit_once(':') {
        Some((name, lines)) if !lines.is_empty() && lines.bytes().all(|b| b.is_ascii_digit() || b == b'-') => {
            name.to_string()
        }
        _ => loc.to_string(),
    }
}

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
