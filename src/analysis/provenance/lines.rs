//! The transcript lines provenance reads for evidence: each read once per (file, line) and
//! shared by every citation of it, within one memory budget for the whole review.
//!
//! A CHANGES.md under its size limit can cite one line thousands of times, or thousands of
//! huge lines once each. So every cited message (its said text, its dates), every rendered
//! line, excerpt and evidence-pane context is built once and handed out as an `Arc`, and
//! what is held is counted against [`EVIDENCE_BUDGET`].
//!
//! Past the budget nothing is dropped silently: a cited message's said text is kept up to
//! what remains (its [`CitedText::cut`] is set) and the claims it states past that point
//! are left to the transcript scan, which finds them in that very line and reports them
//! weakly sourced (a verdict one step weaker, never a false `unsourced-claim`); the
//! excerpt and context of lines read past the budget are replaced by [`OVER_BUDGET`]; and
//! provenance adds a note saying how many cited messages were cut.

use super::cited_text::CitedText;
use crate::analysis::result::ContextLine;
use crate::base::secrets::mask;
use crate::base::zone::{LocalDay, Zone};
use crate::inputs::transcript::{LineKind, RenderedLine, SourceSet, Transcript, context_entries};
use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::sync::Arc;

/// The most bytes of evidence (said text, excerpts, context) held for one review: 48 MiB.
pub const EVIDENCE_BUDGET: usize = 48 << 20;

/// The most cited lines of one range shown in the evidence pane; the rest is summarised.
pub const CONTEXT_MAX_CITED: usize = 16;

/// Shown instead of an excerpt or context read after the budget was spent.
pub const OVER_BUDGET: &str = "[…] not kept: the review's evidence budget is spent";

/// The most bytes of rendered lines kept past [`EVIDENCE_BUDGET`]: 8 MiB.
///
/// A rendered line is small (its text is cut at 600 characters) but rendering it parses
/// the whole line, up to 4 MiB. Once the budget is spent the lines around each citation
/// would be parsed again for every citation (~95 ms each for 4 MiB lines); kept here they
/// are parsed once. What is kept here is not counted in the budget: what a report shows
/// (which excerpts and contexts are [`OVER_BUDGET`]) is the same with or without it.
pub const SPILL_BUDGET: usize = 8 << 20;

/// Cited lines read once and shared, and the budget they are held in.
pub struct CitedLines {
    files: HashMap<usize, Option<Arc<Transcript>>>,
    rendered: HashMap<(usize, usize), Arc<RenderedLine>>,
    /// Rendered lines that did not fit in the budget, within [`SPILL_BUDGET`].
    spilled: HashMap<(usize, usize), Arc<RenderedLine>>,
    /// Bytes held in `spilled`.
    spilled_bytes: usize,
    messages: HashMap<(usize, usize), Arc<CitedText>>,
    excerpts: HashMap<(usize, usize), Arc<str>>,
    contexts: HashMap<(usize, usize, usize), Arc<[ContextLine]>>,
    /// Bytes held so far, and the most that may be.
    held: usize,
    budget: usize,
    /// How many times a line was read from disk in full (instrumentation for tests).
    reads: usize,
    /// How many times a line was rendered (read and parsed; instrumentation for tests).
    renders: usize,
    /// Cited messages whose said text was cut by the budget.
    cut: usize,
    /// The user's zone: the local day of each line.
    zone: Zone,
}

/// The local day of a rendered line: a daily note's date exactly, a timestamp in `zone`.
pub fn line_day(zone: &Zone, r: &RenderedLine) -> Option<LocalDay> {
    if r.kind == LineKind::Note {
        return r.date.map(LocalDay::exact);
    }
    zone.local_day(r.date, r.instant)
}

impl Default for CitedLines {
    fn default() -> Self {
        CitedLines::with_budget(EVIDENCE_BUDGET)
    }
}

impl CitedLines {
    /// An empty cache holding at most `budget` bytes of evidence.
    pub fn with_budget(budget: usize) -> CitedLines {
        CitedLines {
            files: HashMap::new(),
            rendered: HashMap::new(),
            spilled: HashMap::new(),
            spilled_bytes: 0,
            messages: HashMap::new(),
            excerpts: HashMap::new(),
            contexts: HashMap::new(),
            held: 0,
            budget,
            reads: 0,
            renders: 0,
            cut: 0,
            zone: Zone::unknown(),
        }
    }

    /// Reads line days in `zone` (the default is an unknown zone: UTC ±1 day).
    pub fn in_zone(mut self, zone: Zone) -> CitedLines {
        self.zone = zone;
        self
    }

    /// The transcript of source `i`, opened and indexed on first use (`None`: unreadable).
    pub fn transcript(&mut self, sources: &SourceSet, i: usize) -> Option<Arc<Transcript>> {
        self.files
            .entry(i)
            .or_insert_with(|| sources.get(i).and_then(|f| Transcript::open(f).ok()).map(Arc::new))
            .clone()
    }

    /// Opens and indexes the transcripts of sources `indices` not opened yet, in parallel
    /// (each is read whole once to find its lines).
    pub fn prefetch(&mut self, sources: &SourceSet, indices: &[usize]) {
        use rayon::prelude::*;
        let mut missing: Vec<usize> = indices.iter().copied().filter(|i| !self.files.contains_key(i)).collect();
        missing.sort_unstable();
        missing.dedup();
        let opened: Vec<(usize, Option<Arc<Transcript>>)> = missing
            .par_iter()
            .map(|&i| (i, sources.get(i).and_then(|f| Transcript::open(f).ok()).map(Arc::new)))
            .collect();
        self.files.extend(opened);
    }

    /// How many lines were read from disk in full so far.
    pub fn reads(&self) -> usize {
        self.reads
    }

    /// How many times a line was rendered so far (each parses the whole line).
    pub fn renders(&self) -> usize {
        self.renders
    }

    /// Bytes of evidence held.
    pub fn held(&self) -> usize {
        self.held
    }

    /// How many cited messages were kept only in part because the budget was spent.
    pub fn cut(&self) -> usize {
        self.cut
    }

    fn remaining(&self) -> usize {
        self.budget.saturating_sub(self.held)
    }

    /// The message holding line `n` of source `s` (of transcript `t`): what it says, its
    /// span and dates. Built once per (source, line).
    pub fn message(&mut self, s: usize, t: &Transcript, n: usize) -> Arc<CitedText> {
        if let Some(m) = self.messages.get(&(s, n)) {
            return Arc::clone(m);
        }
        let m = Arc::new(self.read_message(s, t, n));
        self.messages.insert((s, n), Arc::clone(&m));
        m
    }

    /// The rendered line, said text and dates of every line of the message at `n`, and of
    /// the lines tied to it (a tool call's result, a result's call, a slash command's
    /// output: one exchange); whether the user turned it down.
    fn read_message(&mut self, s: usize, t: &Transcript, n: usize) -> CitedText {
        let span = t.message_span(n).unwrap_or(n..=n);
        let last = *span.end();
        let overruled = super::overruled::of_message(t, span.clone());
        let speaker = t.speaker(*span.start());
        let awaiting = overruled.is_none() && super::overruled::awaits_answer(t, span.clone());
        let mut message =
            CitedText { loc: format!("{}:{n}", t.name()), last, overruled, speaker, awaiting, ..Default::default() };
        for x in span.clone().filter_map(|m| t.turn(m)) {
            message.replaced.extend(x.replaced);
            message.written.extend(x.written);
        }
        let tied = t.exchange(span.clone());
        message.delegated = super::overruled::unanswered_delegation(t, span.clone(), &tied);
        message.inputs = t
            .calls_answered(span.clone())
            .into_iter()
            .filter_map(|m| t.line(m).ok().flatten().map(|l| (m, t.said_text_of(&l))))
            .collect();
        let mut first = true;
        for m in span.chain(tied) {
            let Ok(Some(line)) = t.line(m) else { continue };
            self.reads += 1;
            let r = match self.kept_rendered(s, m) {
                Some(r) => r,
                None => {
                    let r = self.render(t, &line);
                    self.keep_rendered(s, m, r)
                }
            };
            let day = line_day(&self.zone, &r);
            if std::mem::take(&mut first) {
                (message.date, message.day, message.time) = (day.map(|d| d.day), day, r.time.clone());
                message.local_time = r.instant.map(|at| self.zone.local_time(at));
            }
            if let Some(d) = day {
                message.dates.push((format!("{}:{m}", t.name()), d));
            }
            let said = t.said_text_of(&line);
            drop(line);
            let before = message.text.len();
            self.append_said(&mut message, &said);
            if message.text.len() > before {
                let start = if before == 0 { 0 } else { before + 1 };
                message.parts.push((m, start.min(message.text.len())..message.text.len()));
            }
        }
        if message.cut {
            self.cut += 1;
        }
        message.text.shrink_to_fit();
        message
    }

    /// Appends one line's said text to a message (newline-separated), as far as the budget
    /// allows.
    fn append_said(&mut self, message: &mut CitedText, said: &str) {
        if said.is_empty() || message.cut {
            return;
        }
        let sep = usize::from(!message.text.is_empty());
        let room = self.remaining().saturating_sub(sep);
        let kept = floor_char_boundary(said, room);
        if kept < said.len() {
            message.cut = true;
        }
        if kept == 0 {
            return;
        }
        if sep == 1 {
            message.text.push('\n');
        }
        message.text.push_str(&said[..kept]);
        self.held += kept + sep;
    }

    /// Line `n` of source `s` rendered for display, read once.
    fn rendered(&mut self, s: usize, t: &Transcript, n: usize) -> Option<Arc<RenderedLine>> {
        if let Some(r) = self.kept_rendered(s, n) {
            return Some(r);
        }
        let line = t.line(n).ok().flatten()?;
        self.reads += 1;
        let r = self.render(t, &line);
        Some(self.keep_rendered(s, n, r))
    }

    /// Renders a line read from `t`, counted.
    fn render(&mut self, t: &Transcript, line: &crate::inputs::transcript::Line) -> RenderedLine {
        self.renders += 1;
        t.render_line(line)
    }

    /// Line `n` of source `s` rendered, when kept (in the budget or spilled past it).
    fn kept_rendered(&self, s: usize, n: usize) -> Option<Arc<RenderedLine>> {
        self.rendered.get(&(s, n)).or_else(|| self.spilled.get(&(s, n))).map(Arc::clone)
    }

    /// Stores a rendered line and hands it out: in the budget (its bytes counted) when it
    /// fits, else past it within [`SPILL_BUDGET`] (uncounted), else not at all. A line that
    /// does not fit never will: what is held only grows.
    fn keep_rendered(&mut self, s: usize, n: usize, r: RenderedLine) -> Arc<RenderedLine> {
        if let Some(kept) = self.kept_rendered(s, n) {
            return kept;
        }
        let r = Arc::new(r);
        let size = rendered_size(&r);
        if size <= self.remaining() {
            self.held += size;
            self.rendered.insert((s, n), Arc::clone(&r));
        } else if self.spilled_bytes + size <= SPILL_BUDGET {
            self.spilled_bytes += size;
            self.spilled.insert((s, n), Arc::clone(&r));
        }
        r
    }

    /// The excerpt of line `n` (`time · role · text`, secrets masked), shared.
    pub fn excerpt(&mut self, s: usize, t: &Transcript, n: usize) -> Option<Arc<str>> {
        if let Some(x) = self.excerpts.get(&(s, n)) {
            return Some(Arc::clone(x));
        }
        let r = self.rendered(s, t, n)?;
        let text = mask(&r.display()).into_owned();
        if text.len() > self.remaining() {
            // Kept: what did not fit never will, and the line is not rendered again.
            let marker: Arc<str> = Arc::from(OVER_BUDGET);
            self.excerpts.insert((s, n), Arc::clone(&marker));
            return Some(marker);
        }
        self.held += text.len();
        let x: Arc<str> = Arc::from(text);
        self.excerpts.insert((s, n), Arc::clone(&x));
        Some(x)
    }

    /// The evidence pane's lines for `cited` with `radius` lines either side (at most
    /// [`CONTEXT_MAX_CITED`] cited lines shown, the rest summarised), shared.
    pub fn context(
        &mut self,
        s: usize,
        t: &Transcript,
        cited: RangeInclusive<usize>,
        radius: usize,
    ) -> Arc<[ContextLine]> {
        let key = (s, *cited.start(), *cited.end());
        if let Some(c) = self.contexts.get(&key) {
            return Arc::clone(c);
        }
        let (start, end) = (*cited.start(), *cited.end());
        let shown_end = end.min(start.saturating_add(CONTEXT_MAX_CITED - 1));
        let lo = start.saturating_sub(radius).max(1);
        let hi = shown_end.saturating_add(radius).min(t.line_count());
        let rendered: Vec<RenderedLine> =
            (lo..=hi).filter_map(|n| self.rendered(s, t, n)).map(|r| RenderedLine::clone(&r)).collect();
        let mut lines: Vec<ContextLine> = context_entries(&rendered, &(start..=shown_end))
            .into_iter()
            .map(|e| ContextLine {
                line: *e.lines.start(),
                last: *e.lines.end(),
                text: mask(&e.rendered).into_owned(),
                cited: e.cited,
            })
            .collect();
        if shown_end < end {
            let text = format!("[…] cited lines {}-{end} not shown", shown_end + 1);
            lines.push(ContextLine { line: shown_end + 1, last: end, text, cited: true });
        }
        let size: usize = lines.iter().map(|l| l.text.len() + size_of::<ContextLine>()).sum();
        if size > self.remaining() {
            // Kept: what did not fit never will, and its lines are not rendered again.
            let marker = ContextLine { line: start, last: end, text: OVER_BUDGET.to_string(), cited: true };
            let marker: Arc<[ContextLine]> = Arc::from(vec![marker]);
            self.contexts.insert(key, Arc::clone(&marker));
            return marker;
        }
        self.held += size;
        let c: Arc<[ContextLine]> = Arc::from(lines);
        self.contexts.insert(key, Arc::clone(&c));
        c
    }
}

/// Bytes a rendered line holds.
fn rendered_size(r: &RenderedLine) -> usize {
    size_of::<RenderedLine>()
        + r.text.len()
        + r.role.len()
        + r.time.as_ref().map_or(0, String::len)
        + r.message_id.as_ref().map_or(0, String::len)
}

/// The largest char boundary of `s` not past `at`.
fn floor_char_boundary(s: &str, at: usize) -> usize {
    if at >= s.len() {
        return s.len();
    }
    (0..=at).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::transcript::SourceFile;

    /// A transcript whose line 2 says `port 6379` followed by `filler` bytes.
    fn transcript(filler: usize) -> (tempfile::TempDir, Transcript) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let said = format!("port 6379 {}", "a".repeat(filler));
        let line = |t: &str| {
            format!(
                r#"{{"type":"user","timestamp":"2026-11-01T09:00:00Z","message":{{"role":"user","content":"{t}"}}}}"#
            )
        };
        std::fs::write(&path, format!("{}\n{}\n{}\n", line("hi"), line(&said), line("bye"))).unwrap();
        let t = Transcript::open(&SourceFile::new(path, "s.jsonl".into())).unwrap();
        (dir, t)
    }

    #[test]
    fn a_line_cited_a_thousand_times_is_read_once_and_held_once() {
        let (_d, t) = transcript(1 << 20);
        let mut lines = CitedLines::default();
        let mut texts = Vec::new();
        for _ in 0..1000 {
            texts.push(lines.message(0, &t, 2));
            lines.excerpt(0, &t, 2);
            lines.context(0, &t, 2..=2, 2);
        }
        // Line 2 for its message, lines 1 and 3 for the context: each once.
        assert_eq!(lines.reads(), 3);
        assert!(texts.iter().all(|m| Arc::ptr_eq(m, &texts[0])));
        assert!(texts[0].text.starts_with("port 6379"));
        assert!(lines.held() < (1 << 20) + (64 << 10), "held {}", lines.held());
    }

    #[test]
    fn past_the_budget_evidence_is_cut_and_marked() {
        let (_d, t) = transcript(1 << 20);
        let mut lines = CitedLines::with_budget(64 << 10);
        let m = lines.message(0, &t, 2);
        assert!(m.cut);
        assert!(m.text.starts_with("port 6379"));
        assert!(lines.held() <= 64 << 10);
        assert_eq!(lines.cut(), 1);
    }
}
