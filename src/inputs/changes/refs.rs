//! File and line references in free text ([`super::file_mentions`],
//! [`super::line_mentions`]), and how they pair up into [`Citation`]s.
//!
//! A *file mention* is a transcript (`abc.jsonl`, `<uuid>/subagents/agent-x.jsonl`), a bare
//! session id (a UUID), or a Markdown file (`memory/2026-06-02.md`, `testing.md`). A *line
//! mention* is `:3`, `:3-5`, `#L3-L5` right after a file, or anywhere: `line 3`,
//! `lines 3-5`, `lines 3, 7`, `L3`, `3行目`, `3〜5行目`, `第3行`, `3번째 줄`, `3행`.
//! Each line mention belongs to the previous source file of the text (else the only one,
//! else the next one, else the caller's default).

use std::ops::Range;

use super::citation::Citation;
use super::file_mentions::{FileKind, FileMention, file_mentions, is_dated_markdown};
use super::line_mentions::{LineMention, attached_line_mention, free_line_mentions};
use crate::base::ranges::{Ranges, Taken};

/// Citations and the Markdown mentions left over as notes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Refs {
    /// Citations in order of position.
    pub citations: Vec<Citation>,
    /// Markdown files named without a line reference and not date-named: notes.
    pub notes: Vec<Range<usize>>,
    /// The last source file named (for entries nested under this one).
    pub last_file: Option<String>,
    /// Byte ranges of the source files and line references (not of notes), sorted.
    pub spans: Vec<Range<usize>>,
}

/// Of items listed in order of position, which is the last (highest index) to end at or
/// before a position, in log time; items may overlap, so ends need not be sorted.
struct LastBefore {
    /// (end, index) sorted by end.
    by_end: Vec<(usize, usize)>,
    /// The highest index among the first k+1 of `by_end`.
    best: Vec<usize>,
}

impl LastBefore {
    fn new(ends: Vec<usize>) -> LastBefore {
        let mut by_end: Vec<(usize, usize)> = ends.into_iter().enumerate().map(|(i, e)| (e, i)).collect();
        by_end.sort_unstable();
        let best = by_end
            .iter()
            .scan(None, |m: &mut Option<usize>, &(_, i)| {
                *m = Some(m.map_or(i, |m| m.max(i)));
                *m
            })
            .collect();
        LastBefore { by_end, best }
    }

    fn last_ending_by(&self, at: usize) -> Option<usize> {
        let k = self.by_end.partition_point(|&(e, _)| e <= at);
        k.checked_sub(1).and_then(|k| self.best.get(k).copied())
    }
}

/// Ranges asked whether one lies wholly within `from..to`, in log time.
struct FirstEnd {
    /// Starts, sorted.
    starts: Vec<usize>,
    /// The smallest end among the ranges from the k-th start on.
    min_end: Vec<usize>,
}

impl FirstEnd {
    fn new(mut ranges: Vec<Range<usize>>) -> FirstEnd {
        ranges.sort_by_key(|r| r.start);
        let mut min_end: Vec<usize> = ranges.iter().rev().map(|r| r.end).collect();
        for k in 1..min_end.len() {
            min_end[k] = min_end[k].min(min_end[k - 1]);
        }
        min_end.reverse();
        FirstEnd { starts: ranges.iter().map(|r| r.start).collect(), min_end }
    }

    fn some_within(&self, from: usize, to: usize) -> bool {
        let k = self.starts.partition_point(|&s| s < from);
        self.min_end.get(k).is_some_and(|&e| e <= to)
    }
}

/// True when `gap` (text between a file name and a line reference) only joins them:
/// spaces, `(`, `,`, `:`, `の`, `at`, `on`.
fn is_connector(gap: &str) -> bool {
    let mut g = gap.trim().to_string();
    for w in ["(", "（", ",", "、", ":", "：", "の", "—", "-", "@"] {
        g = g.replace(w, " ");
    }
    g.split_whitespace().all(|w| matches!(w.to_ascii_lowercase().as_str(), "at" | "on"))
}

/// Finds the citations of `text`. `default_file` is used for line references when the
/// text names no source file (an entry nested under one that does).
pub(crate) fn find_refs(text: &str, default_file: Option<&str>) -> Refs {
    let mentions = Mentions::find(text);
    Refs {
        citations: mentions.citations(default_file),
        notes: mentions.notes(),
        last_file: mentions.last_file(),
        spans: mentions.spans(),
    }
}

/// [`Refs::spans`] of `text` alone: the mentions are found and paired, but no citation is
/// built (an entry of 160,000 citations would hold ~60 MB of them only to drop them).
pub(crate) fn find_spans(text: &str) -> Vec<Range<usize>> {
    Mentions::find(text).spans()
}

/// The file and line mentions of a text, each line mention paired with the file it is
/// glued or joined to, and which files are sources.
struct Mentions<'t> {
    text: &'t str,
    files: Vec<FileMention>,
    /// Attached line mentions first (in file order), then free ones (in text order).
    lines: Vec<LineMention>,
    /// The file each line mention is attached to, by index into `files`.
    attached_to: Vec<Option<usize>>,
    /// Indexes into `files` of the sources (transcripts, session ids, dated notes,
    /// Markdown with a line reference), in order.
    source_idx: Vec<usize>,
    /// Per file: whether it is a source.
    is_source: Vec<bool>,
}

impl<'t> Mentions<'t> {
    fn find(text: &'t str) -> Mentions<'t> {
        let files = file_mentions(text);
        let mut lines: Vec<LineMention> = Vec::new();
        let mut attached_to: Vec<Option<usize>> = Vec::new();
        for (fi, f) in files.iter().enumerate() {
            if let Some(lm) = attached_line_mention(text, f.range.end) {
                lines.push(lm);
                attached_to.push(Some(fi));
            }
        }
        // Every question below about what lies before or after a mention is answered by a
        // binary search: an entry with n citations costs n log n.
        let file_ranges = Ranges::new(files.iter().map(|f| f.range.clone()).collect());
        let mut taken = Taken::default();
        for lm in &lines {
            taken.insert(&lm.range);
        }
        for lm in free_line_mentions(text) {
            if !file_ranges.overlaps(&lm.range) && !taken.overlaps(&lm.range) {
                taken.insert(&lm.range);
                lines.push(lm);
                attached_to.push(None);
            }
        }
        attach_following(text, &files, &lines, &mut attached_to);
        // Which files are sources: transcripts, session ids, dated notes, Markdown with a line ref.
        let mut has_lines = vec![false; files.len()];
        for fi in attached_to.iter().flatten() {
            if let Some(h) = has_lines.get_mut(*fi) {
                *h = true;
            }
        }
        let is_source: Vec<bool> = files
            .iter()
            .enumerate()
            .map(|(fi, f)| match f.kind {
                FileKind::Jsonl | FileKind::SessionId => true,
                FileKind::AgentId => has_lines[fi],
                FileKind::Markdown => {
                    let name = text.get(f.range.clone()).unwrap_or("");
                    is_dated_markdown(name) || has_lines[fi]
                }
            })
            .collect();
        let source_idx: Vec<usize> = (0..files.len()).filter(|i| is_source.get(*i) == Some(&true)).collect();
        Mentions { text, files, lines, attached_to, source_idx, is_source }
    }

    fn name_of(&self, fi: usize) -> Option<String> {
        self.files.get(fi).and_then(|f| self.text.get(f.range.clone())).map(str::to_string)
    }

    /// One citation per span of each line mention (by the file it is attached to, else
    /// the source before it, else the only or next one, else `default_file`), and one
    /// for each source cited by no line, in order of position.
    fn citations(&self, default_file: Option<&str>) -> Vec<Citation> {
        let (text, files, lines, source_idx) = (self.text, &self.files, &self.lines, &self.source_idx);
        let sources_before = LastBefore::new(source_idx.iter().map(|&i| files[i].range.end).collect());
        let mut order: Vec<usize> = (0..lines.len()).collect();
        order.sort_by_key(|i| lines.get(*i).map(|l| l.range.start));
        let mut cited = vec![false; files.len()];
        let spans = lines.iter().map(|l| l.spans.len()).sum::<usize>();
        let mut citations: Vec<(usize, Citation)> = Vec::with_capacity(spans + source_idx.len());
        for li in order {
            let Some(lm) = lines.get(li) else { continue };
            let owner = match self.attached_to.get(li).copied().flatten() {
                Some(fi) => Some(fi),
                None => {
                    let before = sources_before.last_ending_by(lm.range.start).and_then(|k| source_idx.get(k));
                    let first_after = source_idx.partition_point(|&i| files[i].range.start < lm.range.end);
                    let after = source_idx.get(first_after);
                    before.or(if source_idx.len() == 1 { source_idx.first() } else { after }).copied()
                }
            };
            let attached = self.attached_to.get(li).copied().flatten().is_some();
            let (file, raw_range) = match owner {
                Some(fi) => {
                    if let Some(c) = cited.get_mut(fi) {
                        *c = true;
                    }
                    let fr = files.get(fi).map(|f| f.range.clone()).unwrap_or(0..0);
                    let mut raw = if attached { fr.start..lm.range.end } else { lm.range.clone() };
                    // Keep the closing parenthesis of `abc.jsonl (lines 3-5)` (the gap is read
                    // only when attached: an owner found far before is no neighbour).
                    let gap = if attached { text.get(fr.end..lm.range.start).unwrap_or("") } else { "" };
                    let closer = text.get(lm.range.end..).and_then(|r| r.chars().next());
                    if attached
                        && gap.contains(['(', '（'])
                        && let Some(c @ (')' | '）')) = closer
                    {
                        raw.end += c.len_utf8();
                    }
                    (self.name_of(fi), raw)
                }
                None => (default_file.map(str::to_string), lm.range.clone()),
            };
            let raw = text.get(raw_range.clone()).unwrap_or("").to_string();
            for span in &lm.spans {
                let (start, end, bad) = match span {
                    Ok((a, b)) => (Some(*a), Some(*b), None),
                    Err(bad) => (None, None, Some(bad.clone())),
                };
                citations.push((raw_range.start, Citation { raw: raw.clone(), file: file.clone(), start, end, bad }));
            }
        }
        for fi in source_idx {
            if cited.get(*fi) == Some(&false)
                && let Some(f) = files.get(*fi)
            {
                let name = text.get(f.range.clone()).unwrap_or("").to_string();
                citations.push((
                    f.range.start,
                    Citation { raw: name.clone(), file: Some(name), start: None, end: None, bad: None },
                ));
            }
        }
        citations.sort_by_key(|(pos, _)| *pos);
        let mut citations: Vec<Citation> = citations.into_iter().map(|(_, c)| c).collect();
        // Collected in place: without this the list would keep its pairs' larger size.
        citations.shrink_to_fit();
        citations
    }

    /// Markdown files named without a line reference and not date-named: notes.
    fn notes(&self) -> Vec<Range<usize>> {
        self.files
            .iter()
            .enumerate()
            .filter(|(i, f)| f.kind == FileKind::Markdown && self.is_source.get(*i) == Some(&false))
            .map(|(_, f)| f.range.clone())
            .collect()
    }

    /// The last source file named.
    fn last_file(&self) -> Option<String> {
        self.source_idx.last().and_then(|i| self.name_of(*i))
    }

    /// Byte ranges of the source files and line references, sorted by start.
    fn spans(&self) -> Vec<Range<usize>> {
        let mut spans: Vec<Range<usize>> = self
            .source_idx
            .iter()
            .filter_map(|i| self.files.get(*i).map(|f| f.range.clone()))
            .chain(self.lines.iter().map(|l| l.range.clone()))
            .collect();
        spans.sort_by_key(|r| r.start);
        spans
    }
}

/// Attaches a free line reference right after a file (only connectors between) to it.
fn attach_following(text: &str, files: &[FileMention], lines: &[LineMention], attached_to: &mut [Option<usize>]) {
    let all_files = LastBefore::new(files.iter().map(|f| f.range.end).collect());
    let between = FirstEnd::new(lines.iter().map(|l| l.range.clone()).collect());
    for (li, lm) in lines.iter().enumerate() {
        if attached_to.get(li).copied().flatten().is_some() {
            continue;
        }
        let prev = all_files.last_ending_by(lm.range.start).and_then(|fi| files.get(fi).map(|f| (fi, f)));
        if let Some((fi, f)) = prev {
            let gap = text.get(f.range.end..lm.range.start).unwrap_or("x");
            let nothing_between = !between.some_within(f.range.end, lm.range.start);
            // A note name is only a citation when the line reference follows it closely
            // (`testing.md line 4`, `testing.md (L4)`), not after a colon (`testing.md: L4`).
            let joined = match f.kind {
                FileKind::Markdown => gap.chars().all(|c| c.is_whitespace() || "(（の".contains(c)),
                _ => is_connector(gap),
            };
            if nothing_between
                && joined
                && let Some(slot) = attached_to.get_mut(li)
            {
                *slot = Some(fi);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::file_mentions::*;
    use super::super::line_mentions::*;
    use super::*;

    fn cites(text: &str) -> Vec<(Option<String>, Option<usize>, Option<usize>)> {
        find_refs(text, None).citations.into_iter().map(|c| (c.file, c.start, c.end)).collect()
    }

    fn c(f: &str, a: usize, b: usize) -> (Option<String>, Option<usize>, Option<usize>) {
        (Some(f.to_string()), Some(a), Some(b))
    }

    #[test]
    fn regexes_compile() {
        assert!(
            UUID.is_some()
                && AGENT_ID.is_some()
                && EN_LINES.is_some()
                && L_FORM.is_some()
                && CJK_LINES.is_some()
                && NUM.is_some()
        );
    }

    #[test]
    fn lists() {
        assert_eq!(parse_list("3"), vec![Ok((3, 3))]);
        assert_eq!(parse_list("3-5"), vec![Ok((3, 5))]);
        assert_eq!(parse_list("3, 7"), vec![Ok((3, 3)), Ok((7, 7))]);
        assert_eq!(parse_list("3–5 and 9"), vec![Ok((3, 5)), Ok((9, 9))]);
        assert_eq!(parse_list("5 to 3"), vec![Ok((3, 5))]);
        assert_eq!(parse_list("3-L5"), vec![Ok((3, 5))]);
    }

    #[test]
    fn forms() {
        assert_eq!(cites("a.jsonl:3"), vec![c("a.jsonl", 3, 3)]);
        assert_eq!(cites("a.jsonl:3-5"), vec![c("a.jsonl", 3, 5)]);
        assert_eq!(cites("a.jsonl#L3-L5"), vec![c("a.jsonl", 3, 5)]);
        assert_eq!(cites("(a.jsonl lines 3, 7)"), vec![c("a.jsonl", 3, 3), c("a.jsonl", 7, 7)]);
        assert_eq!(cites("a.jsonl の3行目"), vec![c("a.jsonl", 3, 3)]);
        assert_eq!(cites("see L4 in a.jsonl"), vec![c("a.jsonl", 4, 4)]);
        assert_eq!(cites("a.jsonl"), vec![(Some("a.jsonl".into()), None, None)]);
        assert_eq!(cites("line 9"), vec![(None, Some(9), Some(9))]);
        assert_eq!(cites("x.jsonl:99999999999999999999999"), vec![(Some("x.jsonl".into()), None, None)]);
    }

    #[test]
    fn prose_glued_to_a_file_name_is_not_part_of_it_in_any_cjk_script() {
        // Half-width katakana is Japanese prose too (`crate::base::text::is_cjk`).
        assert_eq!(cites("ﾒﾓa.jsonl:3"), vec![c("a.jsonl", 3, 3)]);
        assert_eq!(cites("メモa.jsonl:3"), vec![c("a.jsonl", 3, 3)]);
        // A name that is CJK through and through is still one name.
        assert_eq!(cites("ﾃｽﾄ.jsonl:3"), vec![c("ﾃｽﾄ.jsonl", 3, 3)]);
    }

    #[test]
    fn dated_markdown() {
        assert!(is_dated_markdown("memory/2026-06-02.md"));
        assert!(is_dated_markdown("2026-06-02-1406.md"));
        assert!(!is_dated_markdown("testing.md"));
        assert!(!is_dated_markdown("2026-06.md"));
    }
}
