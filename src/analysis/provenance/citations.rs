//! Citations resolved against the sources: which file and lines each names, what those
//! lines say (a message split over several lines counts as one), the dates of their
//! timestamps, and the ±2-line context the evidence pane shows.

use super::cited_text::CitedText;
use super::lines::CitedLines;
use crate::analysis::flag::{Flag, FlagKind};
use crate::analysis::result::CitationReport;
use crate::base::secrets::mask;
use crate::inputs::changes::Citation;
use crate::inputs::transcript::SourceSet;
use std::sync::Arc;

/// Lines of context shown around a cited line.
pub const CONTEXT_RADIUS: usize = 2;

/// The most lines of a daily note cited whole that are read as cited lines.
pub const WHOLE_NOTE_LINES: usize = 2000;

/// Each cited message once, in order of first citation: many citations of one line share
/// its [`CitedText`], and what is read of a message (a 4 MiB line's numbers, its words) is
/// read once however often it is cited.
pub fn distinct<'a>(texts: impl IntoIterator<Item = &'a Arc<CitedText>>) -> Vec<&'a Arc<CitedText>> {
    let mut seen = std::collections::HashSet::new();
    texts.into_iter().filter(|t| seen.insert(Arc::as_ptr(t))).collect()
}

/// The cited messages of `evidence`, each once ([`distinct`]).
pub fn messages<'a>(evidence: &[&'a Cited]) -> Vec<&'a Arc<CitedText>> {
    distinct(evidence.iter().flat_map(|e| &e.texts))
}

/// What one resolved citation points at.
#[derive(Clone, Debug, Default)]
pub struct Cited {
    /// Source index.
    pub source: usize,
    /// Source name (`5b0e….jsonl`).
    pub name: String,
    /// What each cited message says, one per message (shared by every citation of it).
    pub texts: Vec<Arc<CitedText>>,
    /// The citation names the file without lines: any line of it counts as cited (the
    /// transcript scan tells which lines say a claim).
    pub whole_file: bool,
}

/// Resolves one citation: the report for JSON and the evidence pane, the evidence when it
/// resolves, and a `citation-unresolved` flag when it does not.
pub fn resolve(
    c: &Citation,
    sources: &SourceSet,
    lines: &mut CitedLines,
    entry_label: &str,
) -> (CitationReport, Option<Cited>, Option<Flag>) {
    let written = c.file.clone().unwrap_or_default();
    let at = match (c.start, c.end) {
        (Some(a), Some(b)) if b != a => format!(":{a}-{b}"),
        (Some(a), _) => format!(":{a}"),
        _ => String::new(),
    };
    let mut report = CitationReport {
        source: written.clone(),
        line: c.start,
        end: c.end.filter(|e| Some(*e) != c.start),
        ..Default::default()
    };
    let unresolved = |report: CitationReport, why: String| {
        let flag = Flag::new(FlagKind::CitationUnresolved, format!("{entry_label} cites {}: {why}", mask(&c.raw)))
            .with_source(format!("{written}{at}"));
        (report, None, Some(flag))
    };
    if let Some(bad) = &c.bad {
        return unresolved(report, bad.to_string());
    }
    let Some(file) = c.file.as_deref() else {
        return unresolved(report, "it names no transcript file".into());
    };
    let Some(&idx) = sources.find(file).first() else {
        let why = if sources.is_empty() {
            "no transcripts were found beside the memory folder; pass --sources DIR".to_string()
        } else {
            format!("no source file is called {file} (searched {} files)", sources.len())
        };
        return unresolved(report, why);
    };
    let name = sources.get(idx).map(|f| f.name.clone()).unwrap_or_default();
    report.source = name.clone();
    report.path = sources.get(idx).map(|f| f.path.clone());
    let Some(t) = lines.transcript(sources, idx) else {
        return unresolved(report, format!("{name} cannot be read"));
    };
    let count = t.line_count();
    let Some(start) = c.start else {
        report.resolved = true;
        // A whole daily note is read line by line: each line is dated by the note, and only
        // the line that states an event lends its day to a date (a transcript cited whole
        // is left to the scan).
        let texts = match t.kind() {
            crate::inputs::transcript::SourceKind::Markdown => {
                (1..=t.line_count().min(WHOLE_NOTE_LINES)).map(|n| lines.message(idx, &t, n)).collect()
            }
            crate::inputs::transcript::SourceKind::Jsonl => Vec::new(),
        };
        return (report, Some(Cited { source: idx, name, texts, whole_file: true }), None);
    };
    let end = c.end.unwrap_or(start).max(start);
    if start == 0 || end > count || count == 0 {
        let why = if count == 0 {
            format!("{name} is empty")
        } else {
            format!(
                "{name} has {count} line{}, so line {} does not exist",
                if count == 1 { "" } else { "s" },
                end.max(start)
            )
        };
        return unresolved(report, why);
    }
    report.resolved = true;
    let mut cited = Cited { source: idx, name: name.clone(), ..Default::default() };
    let mut n = start;
    while n <= end {
        let message = lines.message(idx, &t, n);
        n = message.last.max(n) + 1;
        cited.texts.push(message);
    }
    report.speaker = speakers(&cited.texts);
    report.excerpt = lines.excerpt(idx, &t, start);
    report.context = lines.context(idx, &t, start..=end, CONTEXT_RADIUS);
    (report, Some(cited), None)
}

/// Who said the cited messages, in order, each once (`tool Bash, assistant` for a range
/// whose first line is a command's output and whose second is the assistant's reply).
fn speakers(texts: &[Arc<CitedText>]) -> Option<String> {
    let mut said: Vec<String> = Vec::new();
    for label in texts.iter().filter_map(|m| m.speaker.as_ref()).map(|s| s.label()) {
        if !said.contains(&label) {
            said.push(label);
        }
    }
    (!said.is_empty()).then(|| said.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::transcript::SourceFile;

    /// A source `s.jsonl` of `n` user lines, each saying `port 6379` and `filler` bytes.
    fn sources(n: usize, filler: usize) -> (tempfile::TempDir, SourceSet) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let said = format!("port 6379 {}", "a".repeat(filler));
        let line = format!(
            r#"{{"type":"user","timestamp":"2026-11-01T09:00:00Z","message":{{"role":"user","content":"{said}"}}}}"#
        );
        std::fs::write(&path, format!("{line}\n").repeat(n)).unwrap();
        let set = SourceSet::from_files(vec![SourceFile::new(path, "s.jsonl".into())]);
        (dir, set)
    }

    /// Lines read to resolve `entries` entries each citing every line of a 40-line source
    /// whose said text is four times the evidence budget.
    fn reads_for(entries: usize) -> usize {
        let (_d, set) = sources(40, 16 << 10);
        let mut lines = CitedLines::with_budget(160 << 10);
        let entry: Vec<String> = (1..=40).map(|i| format!("s.jsonl:{i}")).collect();
        let citations = crate::inputs::changes::citations_in(&entry.join(" "));
        assert_eq!(citations.len(), 40);
        for _ in 0..entries {
            for c in &citations {
                let (report, cited, flag) = resolve(c, &set, &mut lines, "CHANGES.md #1");
                assert!(report.resolved && cited.is_some() && flag.is_none());
            }
        }
        assert!(lines.cut() > 0, "the budget is spent");
        lines.reads()
    }

    #[test]
    fn past_the_budget_citing_a_line_again_reads_nothing_again() {
        // The work grows with the distinct lines cited, not with the citations: once the
        // budget is spent, each citation used to render its line and context again.
        let (one, four) = (reads_for(1), reads_for(4));
        assert_eq!(four, one, "1 entry: {one} lines read; 4 entries: {four}");
        assert!(one <= 40 * 3, "{one} lines read for 40 citations");
    }
}
