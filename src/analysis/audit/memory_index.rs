//! The load budget of a `MEMORY.md` index: Claude Code loads at most 200 lines and
//! 25,600 bytes of it, counted after stripping YAML frontmatter and whole-line HTML
//! comments; everything past the limit silently never reaches the model.

use serde::Serialize;

use super::flagged::AuditFlag;
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets;

/// File name of the index, at the root of a memory folder (or of a `team/` subfolder).
pub const INDEX_FILE: &str = "MEMORY.md";
/// Lines of the index Claude Code loads.
pub const MAX_LINES: usize = 200;
/// Bytes of the index Claude Code loads (25 KiB).
pub const MAX_BYTES: usize = 25_600;
/// Longest index line, in characters, the memory prompts ask for.
pub const MAX_LINE_CHARS: usize = 150;
/// Percentage of a limit from which the index is reported as near it.
pub const NEAR_PERCENT: usize = 80;

/// One line of the index that counts towards the budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadedLine<'a> {
    /// 1-based physical line number in the file.
    pub number: usize,
    /// The line without its terminator.
    pub text: &'a str,
    /// Its size in bytes, terminator included.
    pub bytes: usize,
}

/// Where an index stands against its limits, named by [`BudgetStatus::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, strum::IntoStaticStr)]
#[serde(into = "&'static str")]
#[strum(serialize_all = "lowercase")]
pub enum BudgetStatus {
    /// Under 80% of both limits.
    Ok,
    /// At 80% of a limit or more, within both.
    Near,
    /// Over a limit: the tail never loads.
    Over,
}

impl BudgetStatus {
    /// `ok`, `near` or `over`.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// An index line longer than [`MAX_LINE_CHARS`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LongLine {
    /// 1-based line number in the index.
    pub line: usize,
    /// Its length in characters (not bytes: CJK counts one per character).
    pub chars: usize,
}

/// The size of an index as Claude Code loads it, and where loading stops.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IndexBudget {
    /// Path of the index in the folder (`MEMORY.md`, `team/MEMORY.md`).
    pub path: String,
    /// Lines counted (after stripping frontmatter and whole-line HTML comments).
    pub lines: usize,
    /// Bytes counted, line terminators included.
    pub bytes: usize,
    /// Ok, near or over.
    pub status: BudgetStatus,
    /// The first physical line that does not (fully) load: line 201, or the line crossing
    /// 25,600 bytes, whichever comes first. `None` when everything loads.
    pub stops_at_line: Option<usize>,
    /// Counted lines from `stops_at_line` to the end, which never (fully) load.
    pub unloaded_lines: usize,
    /// Lines over [`MAX_LINE_CHARS`] characters.
    pub long_lines: Vec<LongLine>,
}

/// The lines of an index that count towards the budget: all but a leading `---` YAML block
/// and HTML comments that span whole lines (`<!-- … -->`, possibly over several lines).
/// An unterminated frontmatter block or comment is counted, as a loader would see it.
pub fn loaded_lines(text: &str) -> Vec<LoadedLine<'_>> {
    let raw: Vec<&str> = text.split_inclusive('\n').collect();
    let content = |i: usize| raw.get(i).map_or("", |l| crate::base::text::strip_terminator(l));
    // The frontmatter block as notes' frontmatter is read (closed by `---` or `...`).
    let mut i = match super::frontmatter::parse(text) {
        super::frontmatter::Block::Parsed(fm) => fm.end_line,
        _ => 0,
    };
    let mut out = Vec::with_capacity(raw.len());
    while let Some(line) = raw.get(i) {
        let c = content(i);
        if let Some(after_open) = c.trim_start().strip_prefix("<!--")
            && let Some(end) = comment_end(&raw, i, after_open)
        {
            i = end + 1;
            continue;
        }
        out.push(LoadedLine { number: i + 1, text: c, bytes: line.len() });
        i += 1;
    }
    out
}

/// The line on which a comment opened on line `start` closes, if it closes at a line end.
fn comment_end(raw: &[&str], start: usize, after_open: &str) -> Option<usize> {
    let mut hay = after_open;
    let mut k = start;
    loop {
        if let Some(p) = hay.find("-->") {
            let rest = hay.get(p + 3..).unwrap_or("");
            return rest.trim().is_empty().then_some(k);
        }
        k += 1;
        hay = crate::base::text::strip_terminator(raw.get(k)?);
    }
}

/// Measures the index at `path` with content `text`.
pub fn budget(path: &str, text: &str) -> IndexBudget {
    measure(path, &loaded_lines(text))
}

/// Measures an index from its [`loaded_lines`].
pub fn measure(path: &str, loaded: &[LoadedLine<'_>]) -> IndexBudget {
    let lines = loaded.len();
    let bytes: usize = loaded.iter().map(|l| l.bytes).sum();
    let mut cut: Option<usize> = (lines > MAX_LINES).then_some(MAX_LINES);
    let mut total = 0;
    for (idx, l) in loaded.iter().enumerate() {
        total += l.bytes;
        if total > MAX_BYTES {
            cut = Some(cut.map_or(idx, |c| c.min(idx)));
            break;
        }
    }
    let near = |n: usize, max: usize| n * 100 >= max * NEAR_PERCENT;
    let status = if cut.is_some() {
        BudgetStatus::Over
    } else if near(lines, MAX_LINES) || near(bytes, MAX_BYTES) {
        BudgetStatus::Near
    } else {
        BudgetStatus::Ok
    };
    let long_lines = loaded
        .iter()
        .filter_map(|l| {
            let chars = l.text.chars().count();
            (chars > MAX_LINE_CHARS).then_some(LongLine { line: l.number, chars })
        })
        .collect();
    IndexBudget {
        path: path.to_string(),
        lines,
        bytes,
        status,
        stops_at_line: cut.and_then(|c| loaded.get(c)).map(|l| l.number),
        unloaded_lines: cut.map_or(0, |c| lines - c),
        long_lines,
    }
}

/// `27712` → `27,712`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{} {one}s", thousands(n)) }
}

/// The flags of a measured index: over or near a limit, and each long line.
pub fn budget_flags(b: &IndexBudget, loaded: &[LoadedLine<'_>]) -> Vec<AuditFlag> {
    let mut flags = Vec::new();
    let line_text = |n: usize| loaded.iter().find(|l| l.number == n).map(|l| secrets::mask(l.text).into_owned());
    let over_lines = b.lines > MAX_LINES;
    let over_bytes = b.bytes > MAX_BYTES;
    match b.status {
        BudgetStatus::Over => {
            let mut parts = Vec::new();
            if over_lines {
                parts.push(format!(
                    "{} (limit {MAX_LINES}, {} over)",
                    plural(b.lines, "line"),
                    thousands(b.lines - MAX_LINES)
                ));
            }
            if over_bytes {
                parts.push(format!(
                    "{} bytes (limit {}, {} over)",
                    thousands(b.bytes),
                    thousands(MAX_BYTES),
                    thousands(b.bytes - MAX_BYTES)
                ));
            }
            let stop = b.stops_at_line.unwrap_or(0);
            let message = format!(
                "{} is {}: loading stops at line {stop}, so the last {} never {} — move detail into topic files and keep one short line per note.",
                b.path,
                parts.join(" and "),
                plural(b.unloaded_lines, "line"),
                if b.unloaded_lines == 1 { "loads" } else { "load" },
            );
            let mut flag = Flag::new(FlagKind::IndexOverLimit, message);
            if let Some(text) = line_text(stop) {
                flag = flag.with_line(text);
            }
            flags.push(AuditFlag::new(&b.path, Some(stop), flag));
        }
        BudgetStatus::Near => {
            let mut parts = Vec::new();
            if b.lines * 100 >= MAX_LINES * NEAR_PERCENT {
                parts.push(format!(
                    "{} ({}% of the {MAX_LINES}-line limit)",
                    plural(b.lines, "line"),
                    b.lines * 100 / MAX_LINES
                ));
            }
            if b.bytes * 100 >= MAX_BYTES * NEAR_PERCENT {
                parts.push(format!(
                    "{} bytes ({}% of the {}-byte limit)",
                    thousands(b.bytes),
                    b.bytes * 100 / MAX_BYTES,
                    thousands(MAX_BYTES)
                ));
            }
            let message = format!(
                "{} is {} — compact it before the tail stops loading: one short line per note, detail in topic files.",
                b.path,
                parts.join(" and "),
            );
            flags.push(AuditFlag::new(&b.path, None, Flag::new(FlagKind::IndexNearLimit, message)));
        }
        BudgetStatus::Ok => {}
    }
    for long in &b.long_lines {
        let message = format!(
            "{} line {} is {} characters (limit {MAX_LINE_CHARS}) — shorten it to a one-line hook and move the detail into the topic file.",
            b.path, long.line, long.chars
        );
        let mut flag = Flag::new(FlagKind::IndexLongLine, message);
        if let Some(text) = line_text(long.line) {
            flag = flag.with_line(text);
        }
        flags.push(AuditFlag::new(&b.path, Some(long.line), flag));
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_frontmatter_and_whole_line_comments() {
        let text = "---\ntitle: x\n---\n# Memory\n<!-- one -->\n<!--\nmulti\n-->\n- a <!-- inline --> b\n<!-- open\n";
        let got: Vec<(usize, &str)> = loaded_lines(text).iter().map(|l| (l.number, l.text)).collect();
        assert_eq!(got, vec![(4, "# Memory"), (9, "- a <!-- inline --> b"), (10, "<!-- open")]);
    }

    #[test]
    fn frontmatter_is_read_as_notes_read_it() {
        // Closed by `...` (YAML's document end), with a BOM: not counted, like a note's.
        let got = loaded_lines("\u{feff}---\nname: x\n...\n# Memory\n");
        assert_eq!(got.iter().map(|l| (l.number, l.text)).collect::<Vec<_>>(), vec![(4, "# Memory")]);
        // Unterminated: every line counts, as a loader would see it.
        assert_eq!(loaded_lines("---\nname: x\n# Memory\n").len(), 3);
    }

    #[test]
    fn comment_followed_by_text_is_counted() {
        let got = loaded_lines("<!-- a\nb --> text\n");
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn crlf_bytes_count_terminators() {
        let b = budget("MEMORY.md", "a\r\nbb\n");
        assert_eq!((b.lines, b.bytes, b.status), (2, 6, BudgetStatus::Ok));
    }

    #[test]
    fn near_at_eighty_percent_of_lines() {
        let text = "- x\n".repeat(160);
        assert_eq!(budget("MEMORY.md", &text).status, BudgetStatus::Near);
        let text = "- x\n".repeat(159);
        assert_eq!(budget("MEMORY.md", &text).status, BudgetStatus::Ok);
    }

    #[test]
    fn line_limit_cut_is_physical_line_after_frontmatter() {
        let text = format!("---\na: b\n---\n{}", "- x\n".repeat(201));
        let b = budget("MEMORY.md", &text);
        assert_eq!((b.lines, b.status, b.stops_at_line, b.unloaded_lines), (201, BudgetStatus::Over, Some(204), 1));
    }

    #[test]
    fn byte_limit_cut_is_the_crossing_line() {
        // 100 lines of 300 bytes: line 86 ends at 25,800 > 25,600.
        let line = format!("{}\n", "x".repeat(299));
        let b = budget("MEMORY.md", &line.repeat(100));
        assert_eq!((b.bytes, b.stops_at_line, b.unloaded_lines), (30_000, Some(86), 15));
    }

    #[test]
    fn long_lines_count_characters_not_bytes() {
        let ko = format!("- {}\n", "가".repeat(148)); // 150 chars, 446 bytes
        let ja = format!("- {}\n", "メ".repeat(149)); // 151 chars
        let b = budget("MEMORY.md", &format!("{ko}{ja}"));
        assert_eq!(b.long_lines, vec![LongLine { line: 2, chars: 151 }]);
    }

    #[test]
    fn thousands_separator() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(25_600), "25,600");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
