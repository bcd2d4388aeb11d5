//! Provenance — the heart of the product: every CHANGES.md citation (and
//! every inline OpenClaw source) resolved in the transcripts, every claim of every added
//! line checked against the lines its hunk cites, then against every other source line
//! (one parallel pass), then against live memory; and a flag for each claim, citation or
//! hunk that has no source.
//!
//! Rules, in order, for a claim of an added line:
//! 1. **sourced** — its normalised form is in a line a CHANGES.md entry of the hunk cites
//!    (the whole message that line belongs to), or it is a date the cited line states by
//!    its day: the *local* day it was said on ([`crate::base::zone`]: a daily note's file-name
//!    day, a transcript timestamp in the user's zone, its UTC day when that zone is
//!    unknown) — or, when the line says a relative phrase ("yesterday", 昨日, "last Friday",
//!    "in the last 30 days"), a date holding every day that phrase denotes said on that day
//!    (the line's own day then sources nothing);
//! 2. **weakly sourced** — it is in some other source line (the location is reported);
//! 3. **carried over** — it was already in live memory (this note first, then any note);
//! 4. otherwise flagged: `inferred-date` for dates, showing the arithmetic of the cited
//!    line's relative phrase (`«2026-03-10» — 昨日 said on 2026-03-10 means 2026-03-09`), or
//!    naming the phrase it was probably computed from ("last week" on a line of
//!    2026-11-01) when one overlaps; else `unsourced-claim`.
//!
//! Claims are never matched against the JSON envelope (`cwd`, `uuid`, `timestamp`…): the
//! transcript module only exposes what a line *says*. Thinking blocks are not evidence.
//! Frontmatter keys other than `description`, Markdown links and OpenClaw promotion
//! metadata are structure, not claims; so are references to the memory's own notes.

//! # The pipeline
//!
//! [`run`] is a list of stages, each in its own module with its own types:
//!
//! | stage | module | makes |
//! |---|---|---|
//! | 1–2. entries | `entries` ([`evidence`], [`lines`], [`mapping`]) | a `ChangeReport` per CHANGES.md entry and inline source, its cited lines, its hunks |
//! | 3. hunk claims | `hunk_claims` (`stated`) | the claims of added lines, each with its ordered evidence; sourced when a cited line states it |
//! | 4. pending | `pending` | entries checked against their own citations; what is still unsourced, in one table |
//! | 5. scan | `scan` (`reading`) | where each pending claim is said, and relative phrases near unsourced dates |
//! | 6–7. classify | `classify` | a verdict per claim; `unsourced-claim`, `inferred-date`, `citation-unsupported`, `contradicted`, `citation-overruled`, `citation-missing` flags |
//! | 7. statements | `statements`, `flipped`, `turned_down`, `instants` | added lines that turn a cited sentence, or the live line they replace, around, or restate an overruled proposal (what a correction turns down: `turned_down`) |
//! | 7. misplaced | `misplaced` | added sentences a line near the citation states and the cited lines do not |
//! | 7. instructions | `instructions` | `injected-instruction`: lines telling the agent what to do that only untrusted content says |
//! | 7. removals | `removals` | `removal-unsourced`: lines or notes removed that no cited line mentions |
//! | 8. window | `window` | every turn the user typed in the window, and the files its sessions read |
//! | 8. remarks | `remarks` | how often the user said each rule a line states; `one-off` |
//! | 8. left out | `leftout` | instructions and corrections the memory leaves out; `correction-lost`; deleted notes and their readers |

mod assigned;
mod choice;
pub mod citations;
pub mod cited_text;
mod classify;
mod entries;
mod flipped;
mod hunk_claims;
mod instants;
mod instructions;
mod leaning;
pub mod leftout;
pub mod lines;
mod live;
pub mod mapping;
mod misplaced;
mod mood;
mod order;
pub mod overruled;
mod pending;
mod planned;
mod reading;
mod rebound;
mod remarks;
mod removals;
mod reversed;
mod scan;
mod scope;
mod sentence_verdict;
mod stated;
mod statements;
mod turned_down;
mod window;
mod worded;

use crate::analysis::findings::Findings;
use crate::analysis::result::ChangeReport;
use crate::inputs::retention::Retention;
use crate::inputs::transcript::{ScanOptions, SourceSet};
use crate::model::review::Review;
use lines::CitedLines;
use pending::{Pending, check_entries};
use stated::Stated;

/// What provenance adds to a review besides hunk flags and claims (which go into
/// [`Findings`]).
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    /// CHANGES.md entries, then inline sources, with citations and flags.
    pub changes: Vec<ChangeReport>,
    /// Things the reviewer should know (an unreadable source folder, a non-UTF-8 CHANGES.md).
    pub notices: Vec<String>,
    /// What the dream left out (see [`leftout`]).
    pub left_out: Vec<leftout::LeftOut>,
}

/// Runs provenance on `review`, adding flags, entry links and claims to `findings`.
/// `progress(done, total)` reports transcript bytes scanned.
pub fn run(review: &Review, findings: &mut Findings, progress: &dyn Fn(u64, u64)) -> Provenance {
    analyze(review, findings, progress, None)
}

/// The needles [`run`]'s one pass over the transcripts looks for on `review` (lowercased
/// claim forms of every claim still unsourced after the cited lines, and the relative
/// time phrases when a date is among them), without scanning: for benchmarks (`rg -F -f`
/// over the same needles) and diagnostics.
pub fn scan_needles(review: &Review) -> Vec<String> {
    let mut needles = Vec::new();
    let mut findings = Findings::empty(review);
    analyze(review, &mut findings, &|_, _| {}, Some(&mut needles));
    needles
}

/// [`run`]; with `needles_only`, stops before the scan and stores its needles there.
fn analyze(
    review: &Review,
    findings: &mut Findings,
    progress: &dyn Fn(u64, u64),
    needles_only: Option<&mut Vec<String>>,
) -> Provenance {
    let mut notes = Vec::new();
    let zone = &review.zone;
    let sources = discover_sources(review, &mut notes);
    let mut lines = CitedLines::default().in_zone(zone.clone());

    // 1–2. CHANGES.md entries and inline sources, resolved and linked to their hunks.
    let mut entries = entries::collect(review, &sources, &mut lines, findings, &mut notes);
    mark_expiring(&mut entries.reports, &mut notes, &sources, &Retention::of_user());

    // 3. The claims of every added line, checked against the lines its hunk cites.
    let note_names = hunk_claims::note_names(review);
    let mut hunk_claims = hunk_claims::collect(review, &note_names);
    let evidence =
        hunk_claims::evidence(&hunk_claims, findings, (&entries.reports, &entries.cited, &entries.references));
    let stated = Stated::default();
    hunk_claims::source_in_cited(&mut hunk_claims, &evidence, &stated);

    // 4. Each entry's own claims against its own citations; what is left, in one table.
    let entry_claims = check_entries(review, &entries, &hunk_claims, &note_names, (&stated, zone));
    let pending = Pending::new(&hunk_claims, &evidence, (&entries.cited, &entry_claims), (&stated, zone));
    if let Some(needles) = needles_only {
        *needles = scan::needles(&pending);
        return Provenance { changes: entries.reports, notices: notes, left_out: Vec::new() };
    }

    // 5. One pass over every source for what is still unsourced.
    let options = ScanOptions { index: review.inputs.index.clone(), ..ScanOptions::default() };
    let found = scan::run(&sources, &pending, zone, &options, progress);
    for (s, e) in &found.unreadable {
        let name = sources.get(*s).map_or("?", |f| f.name.as_str());
        notes.push(format!("{name}: could not be read ({e}); no claim was looked for in it"));
    }

    // 6–7. Verdicts and flags.
    let cx = classify::Context { review, sources: &sources, found: &found, stated: &stated, zone };
    classify::hunk_claims(&cx, &pending, &mut hunk_claims, findings);
    classify::entries(&cx, &pending, &entry_claims, (&mut entries.reports, &entries.cited), &hunk_claims);
    classify::unexplained_hunks(review, findings);
    removals::check(review, &entries, findings);
    statements::check(review, &entries.cited, &hunk_claims, findings);
    misplaced::check(review, &sources, (&entries.reports, &entries.cited), &mut lines, findings);
    instructions::check(review, &sources, (&entries.cited, &hunk_claims), findings);
    classify::report_claims(hunk_claims, findings);

    // 8. The window read as a conversation: rules' support, what the dream left out.
    let rules = remarks::rule_lines(review);
    let (window, failed) = window::Window::read(&sources, zone, &wanted(review, &rules));
    for (name, e) in failed {
        notes.push(format!("{name}: could not be read ({e}); what the user typed there was not read"));
    }
    remarks::check(&rules, &window, findings);
    let left_out = leftout::check(review, &window, findings);
    Provenance { changes: entries.reports, notices: notes, left_out }
}

/// What `remarks` and `leftout` will ask of the window for `review`.
fn wanted(review: &Review, rules: &remarks::RuleLines) -> window::Wanted {
    let deleted = review
        .files
        .iter()
        .filter(|f| f.status == crate::model::diff::FileStatus::Deleted && f.kind.writable())
        .map(|f| window::deleted_note(review, &f.path))
        .collect();
    window::Wanted { rule_stems: remarks::rule_stems(rules), deleted }
}

/// The transcript folders and daily notes to read; what cannot be read is said in `notes`.
fn discover_sources(review: &Review, notes: &mut Vec<String>) -> SourceSet {
    let inputs = &review.inputs;
    let root = inputs.memory.parent().map(|p| p.to_path_buf());
    let sources = match SourceSet::discover(root.as_deref(), &inputs.sources, Some(&inputs.memory)) {
        Ok(s) => s,
        Err(e) => {
            notes.push(format!("{e:#}"));
            SourceSet::default()
        }
    };
    for skipped in sources.skipped() {
        notes.push(format!("{}: folder could not be read; its transcripts were not searched", skipped.display()));
    }
    sources
}

/// Marks each resolved citation of a transcript that `retention` says Claude Code deletes
/// soon, and says so once per transcript in the notes.
fn mark_expiring(reports: &mut [ChangeReport], notes: &mut Vec<String>, sources: &SourceSet, retention: &Retention) {
    let now = std::time::SystemTime::now();
    let mut left: std::collections::BTreeMap<String, Option<i64>> = std::collections::BTreeMap::new();
    for c in reports.iter_mut().flat_map(|c| c.citations.iter_mut()).filter(|c| c.resolved) {
        let days = *left.entry(c.source.clone()).or_insert_with(|| {
            let path = sources.find(&c.source).first().and_then(|&i| sources.get(i)).map(|f| f.path.clone());
            path.and_then(|p| retention.expiring(&p, now))
        });
        c.deleted_in_days = days;
    }
    for (name, days) in left {
        if let Some(days) = days {
            notes.push(retention.warning(&name, days));
        }
    }
}
