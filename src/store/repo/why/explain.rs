//! [`explain`]: blaming a note as it is on disk now, following each line back to the
//! commit that first wrote it, and reading what the review that wrote it kept.

use super::super::MemoryRepo;
use super::note::{normalise, read_note, shown_lines, split_lines};
use super::types::*;
use super::walk::{Walk, transcript_exists};
use crate::inputs::transcript::SourceSet;
use anyhow::{Result, bail};
use git2::Oid;

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

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
