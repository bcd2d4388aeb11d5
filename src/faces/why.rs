//! The words of `dreamreview why`: an [`Explanation`] as lines of plain text, for the
//! command line and for any screen that shows why a line of a note says what it says.
//!
//! Every piece of text goes through [`one_line`] (secrets masked, one line, control
//! characters visible) again here: an evidence note is data anyone with write access to the
//! repository could have written.

use crate::store::evidence::KeptLine;
use crate::store::repo::message::one_line;
use crate::store::repo::why::{
    CommitInfo, EntryWhy, Explanation, Gone, Group, HunkWhy, Kept, MessageHunk, NoteLine, Origin, ReviewOrigin, Traced,
};

/// The explanation as lines (no terminators): a head line, then each group of lines with
/// where it came from.
pub fn lines(e: &Explanation) -> Vec<String> {
    let mut out = Vec::new();
    let single = e.groups.len() == 1 && e.groups[0].lines.len() == 1;
    if single {
        let l = &e.groups[0].lines[0];
        out.push(format!("{}:{}  {}", one_line(&e.note), l.line, one_line(&l.text)));
    } else {
        let places = e.groups.len();
        out.push(format!(
            "{}: {} line{}, from {places} place{}",
            one_line(&e.note),
            e.line_count,
            plural(e.line_count),
            plural(places)
        ));
    }
    for g in &e.groups {
        out.push(String::new());
        group(&mut out, g, single);
    }
    out
}

/// Why a line a diff showed says what it says, as lines: [`lines`] for a line the note
/// still has; for one it no longer has, that first, then why it said so as of the commit
/// that showed it (or why that cannot be told).
pub fn traced(t: &Traced) -> Vec<String> {
    match t {
        Traced::Today(e) => lines(e),
        Traced::Gone(g) => gone(g),
    }
}

fn gone(g: &Gone) -> Vec<String> {
    let note = one_line(&g.note);
    let written = g.then.as_ref().ok().and_then(|e| e.groups.first()).and_then(|x| x.origin.commit());
    let mut out = vec![match written {
        Some(c) => format!("this line is no longer in {note}; it was written by commit {}", c.short),
        None => format!("this line is no longer in {note}"),
    }];
    let at = g.at.as_ref().map(|c| format!(" as of commit {}", c.short)).unwrap_or_default();
    out.push(format!("{note}:{}{at}  {}", g.line, one_line(&g.text)));
    match &g.then {
        Ok(e) => {
            for x in &e.groups {
                out.push(String::new());
                group(&mut out, x, true);
            }
        }
        Err(why) => {
            out.push(String::new());
            out.push(format!("where it came from cannot be told: {}", one_line(why)));
        }
    }
    out
}

/// The explanation as one text, each line ending in `\n`.
pub fn to_text(e: &Explanation) -> String {
    lines(e).into_iter().map(|l| l + "\n").collect()
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn group(out: &mut Vec<String>, g: &Group, single: bool) {
    let head = headline(&g.origin);
    if single {
        out.push(head);
    } else {
        out.push(format!("{} — {head}", ranges(&g.lines)));
        for l in &g.lines {
            out.push(format!("  {:>4}  {}", l.line, one_line(&l.text)));
        }
    }
    details(out, &g.origin, "  ");
}

/// `line 3`, `lines 1-2, 5`.
fn ranges(lines: &[NoteLine]) -> String {
    let mut parts: Vec<(usize, usize)> = Vec::new();
    for l in lines {
        match parts.last_mut() {
            Some((_, end)) if *end + 1 == l.line => *end = l.line,
            _ => parts.push((l.line, l.line)),
        }
    }
    let text: Vec<String> =
        parts.iter().map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") }).collect();
    let word = if lines.len() == 1 { "line" } else { "lines" };
    format!("{word} {}", text.join(", "))
}

/// One sentence naming where the lines came from.
fn headline(o: &Origin) -> String {
    match o {
        Origin::Review(r) => {
            let dream = r.dream.as_deref().map(|d| format!(" of {}", one_line(d))).unwrap_or_default();
            format!("from review {}{dream}, {}", r.commit.short, by(&r.commit))
        }
        Origin::Revert { commit, reverts, .. } => {
            format!(
                "restored by revert {} of {}, {}",
                commit.short,
                crate::store::repo::short_id(one_line(reverts)),
                by(commit)
            )
        }
        Origin::Outside { commit, snapshot: true } => {
            format!("written outside a review: snapshot {} of a session's edits, {}", commit.short, by(commit))
        }
        Origin::Outside { commit, snapshot: false } => {
            format!(
                "written outside a review, commit {} by {} ({})",
                commit.short,
                one_line(&commit.author),
                commit.date
            )
        }
        Origin::Uncommitted => "written outside a review, not committed yet".to_string(),
    }
}

/// `2026-11-28 10:02 +0100 by NAME`.
fn by(c: &CommitInfo) -> String {
    format!("{} by {}", c.date, one_line(&c.author))
}

fn details(out: &mut Vec<String>, o: &Origin, ind: &str) {
    match o {
        Origin::Review(r) => review(out, r, ind),
        Origin::Revert { restored: Some(r), .. } => {
            out.push(format!("{ind}it restored lines {}", headline(r)));
            details(out, r, &format!("{ind}  "));
        }
        Origin::Revert { restored: None, .. } => {
            out.push(format!("{ind}where the restored lines first came from cannot be told"));
        }
        Origin::Outside { commit, .. } => out.push(format!("{ind}{}", one_line(&commit.summary))),
        Origin::Uncommitted => {}
    }
}

fn review(out: &mut Vec<String>, r: &ReviewOrigin, ind: &str) {
    match r.evidence {
        Kept::Kept => {
            if r.hunks.is_empty() {
                out.push(format!("{ind}its evidence note keeps nothing about this note"));
            }
            for h in &r.hunks {
                hunk(out, h, ind);
            }
        }
        Kept::NotKept | Kept::Unreadable => {
            let why = match &r.unreadable {
                Some(w) => format!("its evidence note cannot be read ({})", one_line(w)),
                None => "this review was made before dreamreview kept evidence".to_string(),
            };
            out.push(format!("{ind}the cited text was not kept: {why}; its message says:"));
            if r.message_hunks.is_empty() {
                out.push(format!("{ind}  (no accepted hunk of this note in the message)"));
            }
            for h in &r.message_hunks {
                message_hunk(out, h, ind);
            }
        }
    }
}

fn hunk(out: &mut Vec<String>, h: &HunkWhy, ind: &str) {
    out.push(format!("{ind}{}, {}", one_line(&h.id), h.taken.describe()));
    if h.entries.is_empty() {
        out.push(format!("{ind}  no CHANGES.md entry explained it"));
    }
    for e in &h.entries {
        entry(out, e, ind);
    }
    if !h.claims.is_empty() {
        out.push(format!("{ind}  claims:"));
        for c in &h.claims {
            let status = serde_json::to_value(c.status).ok().and_then(|v| v.as_str().map(str::to_string));
            let source = c.source.as_deref().map(|s| format!(" — {}", one_line(s))).unwrap_or_default();
            out.push(format!("{ind}    {:<9} «{}»{source}", status.unwrap_or_default(), one_line(&c.text)));
        }
    }
    if !h.accepted_flags.is_empty() {
        out.push(format!("{ind}  flags accepted:"));
        for f in &h.accepted_flags {
            out.push(format!("{ind}    {} {}: {}", one_line(&f.severity), one_line(&f.kind), one_line(&f.message)));
        }
    }
}

fn entry(out: &mut Vec<String>, e: &EntryWhy, ind: &str) {
    out.push(format!("{ind}  {}: {}", one_line(&e.label), one_line(&e.text)));
    for c in &e.citations {
        let who = crate::analysis::result::said_by(c.kept.speaker.as_deref());
        let who = who.map(|s| format!(" ({})", one_line(&s))).unwrap_or_default();
        out.push(format!("{ind}    cites {}{who} — {}", one_line(&c.kept.location), c.now.describe(true)));
        for l in &c.kept.lines {
            out.push(format!("{ind}      {}", kept_line(l)));
        }
    }
}

/// `▶ 1  2026-11-01 09:14 user  Heads up: …` (context lines without the arrow).
fn kept_line(l: &KeptLine) -> String {
    let mark = if l.cited { "▶" } else { " " };
    let at = if l.last > l.line { format!("{}-{}", l.line, l.last) } else { l.line.to_string() };
    let when = l.local_time.as_deref().or(l.time.as_deref());
    let who: Vec<String> = [when, l.role.as_deref()].into_iter().flatten().map(one_line).collect();
    let who = if who.is_empty() { String::new() } else { format!("{}  ", who.join(" ")) };
    format!("{mark} {at}  {who}{}", one_line(&l.text))
}

fn message_hunk(out: &mut Vec<String>, h: &MessageHunk, ind: &str) {
    out.push(format!("{ind}  - {}", one_line(&h.line)));
    for e in &h.entries {
        out.push(format!("{ind}    {}", one_line(&e.text)));
        for c in &e.cites {
            out.push(format!("{ind}      cites {} — {}", one_line(&c.text), c.now.describe(false)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_named_as_ranges() {
        let l = |n| NoteLine { line: n, text: String::new() };
        assert_eq!(ranges(&[l(3)]), "line 3");
        assert_eq!(ranges(&[l(1), l(2), l(5)]), "lines 1-2, 5");
    }

    #[test]
    fn a_line_from_outside_a_review_names_its_commit_and_author() {
        let commit = CommitInfo {
            id: "3c2e1a0ffff".into(),
            short: "3c2e1a0".into(),
            author: "Ana".into(),
            date: "2026-11-20 10:00 +0000".into(),
            summary: "notes".into(),
        };
        let e = Explanation {
            format: crate::store::repo::why::FORMAT,
            note: "a.md".into(),
            line_count: 1,
            groups: vec![Group {
                lines: vec![NoteLine { line: 1, text: "x".into() }],
                origin: Origin::Outside { commit, snapshot: false },
            }],
        };
        assert_eq!(
            lines(&e),
            ["a.md:1  x", "", "written outside a review, commit 3c2e1a0 by Ana (2026-11-20 10:00 +0000)", "  notes"]
        );
    }
}
