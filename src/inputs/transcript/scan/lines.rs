//! Finding the needles on complete lines of one file and keeping the ones a line says.

use std::ops::Range;

use aho_corasick::Input;
use memchr::{memchr, memchr_iter, memmem, memrchr};

use super::hits::{Hit, LineHit, Verdict, VerifyLine};
use super::matcher::{Automaton, Needles};
use crate::inputs::transcript::said::said_text_in;
use crate::inputs::transcript::source::SourceKind;
use crate::inputs::transcript::unsaid::{containing, unsaid_spans};

/// Per-file state: raw matches in complete lines, the said-text check, the verdicts.
pub(super) struct LineScanner<'a> {
    needles: &'a Needles,
    matcher: &'a Automaton,
    verify: &'a VerifyLine<'a>,
    kind: SourceKind,
    source: usize,
    max_line: usize,
    /// Hits per needle in this file; 0 = all.
    limit: usize,
    /// Per needle: hits so far.
    found: Vec<usize>,
    /// Per needle: nothing more to look for in this file (blank, at the limit, or declared
    /// exhausted by the verifier).
    done: Vec<bool>,
    /// Needles not done yet.
    open: usize,
    /// Per needle: the last line it was noted on (0 = never), to note it once per line.
    seen: Vec<usize>,
    /// Needles with a raw match on the pending line.
    candidates: Vec<usize>,
    /// The pending line's said text, ASCII-lowercased (reused).
    lower: Vec<u8>,
    /// The pending line holds a [`super::matcher::MARKERS`] marker: its said text is
    /// searched for needles too.
    dirty: bool,
    verdict: Verdict,
    pub(super) hits: Vec<Hit>,
    /// Matches of needles already done: work a smaller automaton would not do.
    pub(super) wasted: u64,
}

impl<'a> LineScanner<'a> {
    pub(super) fn new(
        needles: &'a Needles,
        matcher: &'a Automaton,
        kind: SourceKind,
        source: usize,
        (max_line, limit): (usize, usize),
        verify: &'a VerifyLine<'a>,
        done: Vec<bool>,
    ) -> Self {
        LineScanner {
            needles,
            matcher,
            verify,
            kind,
            source,
            max_line,
            limit,
            found: vec![0; needles.len()],
            open: done.iter().filter(|d: &&bool| !**d).count(),
            done,
            seen: vec![0; needles.len()],
            candidates: Vec::new(),
            lower: Vec::new(),
            dirty: false,
            verdict: Verdict::default(),
            hits: Vec::new(),
            wasted: 0,
        }
    }

    /// Whether every needle is done (nothing left to find in this file).
    pub(super) fn saturated(&self) -> bool {
        self.open == 0
    }

    /// Whether `needle` is still looked for in this file.
    pub(super) fn open_needle(&self, needle: usize) -> bool {
        self.done.get(needle) == Some(&false)
    }

    fn mark_done(&mut self, needle: usize) {
        if let Some(d) = self.done.get_mut(needle)
            && !*d
        {
            *d = true;
            self.open = self.open.saturating_sub(1);
        }
    }

    /// Scans `region` (whole lines; the first is line `first_line`) and returns the
    /// number of the line that follows it.
    pub(super) fn scan_region(&mut self, region: &[u8], first_line: usize) -> usize {
        let mut line_no = first_line;
        let mut counted = 0usize; // newlines before `counted` are in `line_no`
        let mut at = 0usize; // always the start of a line
        while at < region.len() && !self.saturated() {
            let input = Input::new(region).range(at..);
            let Ok(Some(m)) = self.matcher.finder.try_find(input) else {
                break;
            };
            let before = region.get(..m.start()).unwrap_or(&[]);
            let start = memrchr(b'\n', before).map_or(0, |i| i + 1).max(at);
            let seg = region.get(counted..start).unwrap_or(&[]);
            line_no += memchr_iter(b'\n', seg).count();
            counted = start;
            let rest = region.get(m.start()..).unwrap_or(&[]);
            let end = memchr(b'\n', rest).map_or(region.len(), |i| m.start() + i);
            let line = region.get(start..end).unwrap_or(&[]);
            let line = line.get(..line.len().min(self.max_line)).unwrap_or(&[]);
            let envelope = match self.kind {
                SourceKind::Jsonl => unsaid_spans(line),
                SourceKind::Markdown => None,
            };
            if self.said_match(line, m.start() - start, m.end() - start, envelope.as_deref()) {
                // Nothing matches before the first match: search from there.
                self.check_line(line, line_no, envelope.as_deref(), m.start() - start);
            }
            at = end + 1;
        }
        let rest = region.get(counted..).unwrap_or(&[]);
        line_no + memchr_iter(b'\n', rest).count()
    }

    /// Whether `line` has a match outside its envelope, given a first match at
    /// `start..end`: matches inside an envelope value are skipped by resuming the search
    /// after that value (an occurrence the line says has its own match outside it).
    fn said_match(&self, line: &[u8], mut start: usize, mut end: usize, envelope: Option<&[Range<usize>]>) -> bool {
        let Some(spans) = envelope else {
            return end <= line.len();
        };
        loop {
            if end > line.len() {
                return false; // past the cap: never judged
            }
            let Some(span) = containing(spans, start, end) else {
                return true;
            };
            let input = Input::new(line).range(span.end..);
            match self.matcher.finder.try_find(input) {
                Ok(Some(m)) => (start, end) = (m.start(), m.end()),
                _ => return false,
            }
        }
    }

    /// Notes pattern `p` matched at `start..end` of line `number`: its needle becomes a
    /// candidate unless it is done, already noted on this line, or the match is inside
    /// an envelope value.
    fn note(&mut self, p: usize, start: usize, end: usize, number: usize, envelope: Option<&[Range<usize>]>) {
        let Some(&needle) = self.matcher.pattern_needle.get(p) else { return };
        let Some(needle) = needle else {
            // A marker: the line's said text is searched again.
            self.dirty |= envelope.is_none_or(|s| containing(s, start, end).is_none());
            return;
        };
        if self.done.get(needle) != Some(&false) {
            self.wasted += 1;
            return;
        }
        if self.seen.get(needle) == Some(&number) {
            return;
        }
        if envelope.is_some_and(|s| containing(s, start, end).is_some()) {
            return;
        }
        if let Some(seen) = self.seen.get_mut(needle) {
            *seen = number;
            self.candidates.push(needle);
        }
    }

    /// Notes every (pattern, start) in `text[range]`, as an overlapping search would
    /// report them: the leftmost-first match at each start where one begins, plus the
    /// patterns it hides there.
    fn note_all(&mut self, text: &[u8], range: Range<usize>, number: usize, envelope: Option<&[Range<usize>]>) {
        let matcher = self.matcher;
        let mut from = range.start;
        while from < range.end {
            let Ok(Some(m)) = matcher.finder.try_find(Input::new(text).range(from..range.end)) else {
                break;
            };
            let p = m.pattern().as_usize();
            self.note(p, m.start(), m.end(), number, envelope);
            for &q in matcher.related.get(p).map_or(&[][..], Vec::as_slice) {
                let Some(qb) = matcher.patterns.get(q) else { continue };
                let end = m.start() + qb.len();
                if end <= range.end && text.get(m.start()..end).is_some_and(|t| t.eq_ignore_ascii_case(qb)) {
                    self.note(q, m.start(), end, number, envelope);
                }
            }
            from = m.start() + 1;
        }
    }

    /// Collects every needle not done yet with a raw match in `line` (line `number`, no
    /// match before byte `first`) outside the `envelope` spans, keeps those the line
    /// says, and asks the verifier.
    fn check_line(&mut self, line: &[u8], number: usize, envelope: Option<&[Range<usize>]>, first: usize) {
        for range in outside(envelope, line.len(), self.matcher.max_len) {
            let range = range.start.max(first)..range.end;
            self.note_all(line, range, number, envelope);
        }
        let dirty = std::mem::take(&mut self.dirty);
        if self.candidates.is_empty() && !dirty {
            return;
        }
        let said = said_text_in(self.kind, line);
        self.lower.clear();
        self.lower.extend(said.bytes().map(|b| b.to_ascii_lowercase()));
        if dirty {
            // The raw bytes may hide a needle the decoded text holds: search that too.
            let lower = std::mem::take(&mut self.lower);
            self.note_all(&lower, 0..lower.len(), number, None);
            self.lower = lower;
            self.dirty = false;
        }
        let lower = &self.lower;
        let lowered = &self.needles.lowered;
        self.candidates.retain(|&n| lowered.get(n).is_some_and(|nd| memmem::find(lower, nd).is_some()));
        if !self.candidates.is_empty() {
            self.candidates.sort_unstable();
            self.verdict.keep.clear();
            self.verdict.exhausted.clear();
            let hit = LineHit { source: self.source, line: number, needles: &self.candidates, raw: line, said: &said };
            self.verify.line(&hit, &mut self.verdict);
            let mut keep = std::mem::take(&mut self.verdict.keep);
            keep.sort_unstable();
            keep.dedup();
            for &needle in &keep {
                if self.candidates.binary_search(&needle).is_err() || self.done.get(needle) != Some(&false) {
                    continue;
                }
                self.hits.push(Hit { source: self.source, line: number, needle });
                if let Some(count) = self.found.get_mut(needle) {
                    *count += 1;
                    if *count == self.limit {
                        self.mark_done(needle);
                    }
                }
            }
            self.verdict.keep = keep;
            let exhausted = std::mem::take(&mut self.verdict.exhausted);
            for &needle in &exhausted {
                self.mark_done(needle);
            }
            self.verdict.exhausted = exhausted;
        }
        self.candidates.clear();
    }
}

/// The parts of a line of `len` bytes worth searching for matches that are not inside
/// an envelope span: the gaps between the (sorted, disjoint) spans, and the boundary of
/// two adjacent spans, each widened by `max_len - 1` bytes on both sides so that a match
/// straddling a span's edge is found too, merged. Without spans, the whole line.
fn outside(envelope: Option<&[Range<usize>]>, len: usize, max_len: usize) -> Vec<Range<usize>> {
    let Some(spans) = envelope else {
        return std::iter::once(0..len).collect();
    };
    let pad = max_len.saturating_sub(1);
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut push = |gap_start: usize, gap_end: usize| {
        let r = gap_start.saturating_sub(pad)..gap_end.saturating_add(pad).min(len);
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ if r.start < r.end => out.push(r),
            _ => {}
        }
    };
    let mut prev_end = 0usize;
    for s in spans {
        if s.start > prev_end || (s.start == prev_end && prev_end > 0) {
            push(prev_end, s.start);
        }
        prev_end = prev_end.max(s.end);
    }
    if len > prev_end {
        push(prev_end, len);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::outside;

    #[test]
    #[allow(clippy::single_range_in_vec_init)]
    fn gaps_between_spans_widened_and_merged() {
        // Spans 2..10 and 12..30 in a 40-byte line.
        let spans = [2..10, 12..30];
        assert_eq!(outside(Some(&spans), 40, 3), vec![0..4, 8..14, 28..40]);
        assert_eq!(outside(Some(&spans), 40, 6), vec![0..17, 25..40]);
        assert_eq!(outside(None, 9, 3), vec![0..9]);
        assert_eq!(outside(Some(&[]), 9, 3), vec![0..9]);
        // A span running to the end of a cut line leaves only the gap before it.
        assert_eq!(outside(Some(&[4..9]), 9, 2), vec![0..5]);
        assert!(outside(Some(&[0..9]), 9, 2).is_empty());
        // Two adjacent spans: their boundary is searched for straddling matches.
        assert_eq!(outside(Some(&[0..4, 4..9]), 9, 2), vec![3..5]);
    }
}
