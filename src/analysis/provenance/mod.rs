//! Provenance — the heart of the product: every CHANGES.md citation (and
//! every inline OpenClaw source) resolved in the transcripts, every claim of every added
//! line checked against the lines its hunk cites, then against every other source line
//! (one parallel pass), then against live memory; and a flag for each claim, citation or
//! hunk that has no source.
//!
//! Rules, in order, for a claim of an added line:
//! 1. **sourced** — its normalised form is in a line a CHANGES.md entry of the hunk cites
//!    (the whole message that line belongs to), or it is a date the cited line states by
//!    its day: the *local* day it was said on ([`crate::zone`]: a daily note's file-name
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

pub mod evidence;
pub mod lines;
pub mod mapping;

use crate::analysis::claims::{self, Claim, ClaimKind};
use crate::analysis::findings::{ClaimReport, ClaimStatus, Findings};
use crate::analysis::flag::{Flag, FlagKind};
use crate::analysis::result::ChangeReport;
use crate::changes::{self, ChangeEntry, Citation};
use crate::date::Date;
use crate::diff::{FileDiff, Op};
use crate::review::Review;
use crate::secrets::mask;
use crate::transcript::{
    LineHit, ScanOptions, ScanProgress, SourceKind, SourceSet, Verdict, WithExhausted, line_stamp, scan_lines,
};
use crate::zone::{LocalDay, Zone};
use evidence::Cited;
use lines::CitedLines;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Mutex;

/// What provenance adds to a review besides hunk flags and claims (which go into
/// [`Findings`]).
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    /// CHANGES.md entries, then inline sources, with citations and flags.
    pub changes: Vec<ChangeReport>,
    /// Things the reviewer should know (an unreadable source folder, a non-UTF-8 CHANGES.md).
    pub notes: Vec<String>,
}

/// A claim of an added line, with where it stands.
struct HunkClaim {
    file: usize,
    hunk: usize,
    claim: Claim,
    /// The claim as outputs show it: masked, and for a claim inside a credential (a piece of
    /// a private key's body) what masking shows there.
    shown: String,
    /// The line as outputs show it (credentials masked, a private key block as a whole).
    line: String,
    /// The claim lies inside a credential: its `secret` flag already says all there is to
    /// say, so it gets no `unsourced-claim` flag of its own and is not listed.
    in_secret: bool,
    status: Option<(ClaimStatus, Option<String>)>,
}

/// An entry's own claims and whether its citations support one of them.
struct EntryCheck {
    /// Its claims, as ids of the distinct entry claims the scan looks for (none when its
    /// citations already support it).
    claims: Vec<usize>,
    supported: bool,
}

/// Where the scan found each pending claim, and relative phrases near unsourced dates.
#[derive(Default)]
struct Found {
    first: HashMap<usize, (usize, usize)>,
    per_source: HashMap<(usize, usize), usize>,
    relative: HashMap<usize, Scanned>,
    /// Sources the scan could not read (index, error): not searched, and said so.
    unreadable: Vec<(usize, String)>,
}

/// A relative phrase the scan found that may explain a date claim.
struct Scanned {
    /// Lower is better: (0 in a source the hunk's entries cite, else 1; 0 when the phrase
    /// denotes days the date holds (the line states it), else 1; for cited sources, the
    /// width in days of what the phrase can mean, so 어제 beats 지난주; source; line).
    rank: (u8, u8, i64, usize, usize),
    reading: Reading,
}

/// A relative phrase of a source line read against a date claim: what it denotes said on
/// that line's day, and how the claim relates to it.
#[derive(Clone, Debug)]
struct Reading {
    phrase: String,
    /// A rolling window ("in the last 30 days").
    window: bool,
    /// `name:line` of its line.
    loc: String,
    /// The local day its line was said on.
    day: LocalDay,
    /// `2026-11-01 09:14:03 UTC = 2026-11-01 18:14 Asia/Tokyo` for a transcript line.
    when: Option<String>,
    /// Every day it can mean (widened by the day's slack).
    range: (Date, Date),
    /// The claim holds every day it denotes: the line states the claim.
    covers: bool,
    /// The claim shares a day with it (else the claim lies outside it).
    overlaps: bool,
}

impl Reading {
    /// `phrase` said on `day` (at `when`, on `loc`) read against `c`.
    fn new(c: &Claim, r: &claims::Relative, day: LocalDay, loc: String, when: Option<String>) -> Reading {
        let range = r.resolve_around(day);
        Reading {
            phrase: r.phrase.clone(),
            window: r.is_window(),
            loc,
            day,
            when,
            range,
            covers: r.readings(day).any(|(_, denoted)| claims::covers(c, denoted)),
            overlaps: claims::overlaps(c, range),
        }
    }

    /// The `inferred-date` message for `claim` (as shown): the arithmetic, and when the
    /// claim overlaps the phrase, that it was probably computed from it.
    fn message(&self, claim: &str) -> String {
        let phrase = mask(&self.phrase);
        let said = if self.day.slack > 0 {
            format!("{} (±1 day: the time zone is unknown)", self.day.day)
        } else {
            self.day.day.to_string()
        };
        let (lo, hi) = self.range;
        let means = if lo == hi { lo.to_string() } else { format!("{lo} to {hi}") };
        let at = match &self.when {
            Some(w) => format!("{}, {w}", self.loc),
            None => self.loc.clone(),
        };
        let arithmetic = format!("{phrase} said on {said} means {means} ({at})");
        if self.overlaps {
            let what = if self.window { "the rolling window " } else { "" };
            format!("«{claim}» is stated by no source: probably inferred from {what}«{phrase}» — {arithmetic}")
        } else {
            format!("«{claim}» — {arithmetic}")
        }
    }
}

/// `2026-11-01 09:14:03 UTC = 2026-11-01 18:14 Asia/Tokyo`: a timestamp as written and in
/// the user's zone (when that is known and not UTC).
fn when_said(zone: &Zone, time: Option<&str>, local: Option<&str>) -> Option<String> {
    let time = time?;
    match local {
        Some(l) if zone.source() != crate::zone::ZoneSource::Unknown && time.get(..16) != Some(l) => {
            Some(format!("{time} UTC = {l} {}", zone.name()))
        }
        _ => Some(format!("{time} UTC")),
    }
}

/// The best rank a phrase on `line` of `source` could have for a date whose hunk cites
/// `cited`: a phrase already found with a lower rank cannot be beaten there.
fn rank_bound(cited: Option<&Vec<usize>>, source: usize, line: usize) -> (u8, u8, i64, usize, usize) {
    (u8::from(!cited.is_some_and(|c| c.contains(&source))), 0, 0, source, line)
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

/// Marks each resolved citation of a transcript that `retention` says Claude Code deletes
/// soon, and says so once per transcript in the notes.
fn mark_expiring(out: &mut Provenance, sources: &SourceSet, retention: &crate::retention::Retention) {
    let now = std::time::SystemTime::now();
    let mut left: std::collections::BTreeMap<String, Option<i64>> = std::collections::BTreeMap::new();
    for c in out.changes.iter_mut().flat_map(|c| c.citations.iter_mut()).filter(|c| c.resolved) {
        let days = *left.entry(c.source.clone()).or_insert_with(|| {
            let path = sources.find(&c.source).first().and_then(|&i| sources.get(i)).map(|f| f.path.clone());
            path.and_then(|p| retention.expiring(&p, now))
        });
        c.deleted_in_days = days;
    }
    for (name, days) in left {
        if let Some(days) = days {
            out.notes.push(retention.warning(&name, days));
        }
    }
}

/// [`run`]; with `needles_only`, stops before the scan and stores its needles there.
fn analyze(
    review: &Review,
    findings: &mut Findings,
    progress: &dyn Fn(u64, u64),
    needles_only: Option<&mut Vec<String>>,
) -> Provenance {
    let mut out = Provenance::default();
    let inputs = &review.inputs;
    let root = inputs.memory.parent().map(|p| p.to_path_buf());
    let sources = match SourceSet::discover(root.as_deref(), &inputs.sources, Some(&inputs.memory)) {
        Ok(s) => s,
        Err(e) => {
            out.notes.push(format!("{e:#}"));
            SourceSet::default()
        }
    };
    for skipped in sources.skipped() {
        out.notes.push(format!("{}: folder could not be read; its transcripts were not searched", skipped.display()));
    }
    let zone = &review.zone;
    let mut lines = CitedLines::default().in_zone(zone.clone());

    // 1. CHANGES.md entries and their citations.
    let entries: Vec<ChangeEntry> = match &inputs.changes_md {
        Some(path) => match std::fs::read(path) {
            Ok(bytes) if memchr::memchr(0, &bytes).is_some() => {
                out.notes.push(format!(
                    "{}: binary (it holds NUL bytes), not a change log; ignored, so no change has a \
                     CHANGES.md entry. Check that the dream run finished writing it",
                    path.display()
                ));
                Vec::new()
            }
            Ok(bytes) => {
                if std::str::from_utf8(&bytes).is_err() {
                    out.notes.push(format!("{}: not valid UTF-8; read with replacement characters", path.display()));
                }
                changes::parse(&String::from_utf8_lossy(&bytes))
            }
            Err(e) => {
                out.notes.push(format!("cannot read {}: {e}", path.display()));
                Vec::new()
            }
        },
        None => Vec::new(),
    };
    let mut cited: Vec<Vec<Cited>> = Vec::new();
    for e in &entries {
        let label = format!("CHANGES.md #{} (line {})", e.index, e.line);
        let (report, evidence) = entry_report(e, &label, &sources, &mut lines, None);
        out.changes.push(report);
        cited.push(evidence);
    }
    let index = mapping::Index::new(&review.files, &entries);
    for (ei, e) in entries.iter().enumerate() {
        for (fi, hi) in index.hunks_of(e) {
            findings.of_mut(fi, hi).into_iter().for_each(|h| h.changes.push(e.index));
            out.changes[ei].hunks.push(review.files[fi].hunks[hi].id.clone());
        }
    }

    // 2. Inline sources (OpenClaw promotions) cite their own hunk.
    for (fi, f) in review.files.iter().enumerate() {
        for (hi, h) in f.hunks.iter().enumerate() {
            let added = added_lines(f, hi);
            for (k, (line_no, _, l)) in added.iter().enumerate() {
                let line_no = *line_no;
                let mut cits: Vec<Citation> = changes::inline_citations(&l.text);
                let mut seen = HashSet::new();
                cits.retain(|c| seen.insert((c.file.clone(), c.start, c.end)));
                // A promotion comment alone on its line repeats the source of the line after
                // it: that line's entry speaks for both.
                let comment_only = l.text.trim().starts_with("<!--") && l.text.trim().ends_with("-->");
                let next: Vec<Citation> =
                    added.get(k + 1).map(|(_, _, n)| changes::inline_citations(&n.text)).unwrap_or_default();
                if comment_only
                    && cits
                        .iter()
                        .all(|c| next.iter().any(|n| n.file == c.file && n.start == c.start && n.end == c.end))
                {
                    continue;
                }
                if cits.is_empty() {
                    continue;
                }
                let index = out.changes.len() + 1;
                let entry = ChangeEntry {
                    index,
                    line: line_no,
                    text: crate::text::strip_terminator(&l.text).to_string(),
                    notes: vec![f.path.clone()],
                    citations: cits,
                    snippets: Vec::new(),
                };
                let label = format!("{}:{line_no} (inline source)", f.path);
                let (mut report, evidence) = entry_report(&entry, &label, &sources, &mut lines, Some(f.path.clone()));
                report.hunks.push(h.id.clone());
                findings.of_mut(fi, hi).into_iter().for_each(|h| h.changes.push(index));
                out.changes.push(report);
                cited.push(evidence);
            }
        }
    }

    // Cited transcripts Claude Code is about to delete.
    mark_expiring(&mut out, &sources, &crate::retention::Retention::of_user());

    // 3. The claims of every added line, checked against the hunk's cited lines.
    let notes: HashSet<String> = review.live.keys().chain(review.files.iter().map(|f| &f.path)).cloned().collect();
    let mut hunk_claims: Vec<HunkClaim> = Vec::new();
    for (fi, f) in review.files.iter().enumerate() {
        if !f.kind.writable() && f.kind != crate::diff::FileKind::Outside {
            continue;
        }
        let fm_end = frontmatter_end(f);
        for (hi, h) in f.hunks.iter().enumerate() {
            let mut seen = HashSet::new();
            // Lines and claims are shown masked with the hunk's side read as one text: a
            // private key's body lines are no secret on their own.
            let secret = crate::diff::masked::secret_spans(h);
            let masked = crate::diff::masked::masked_lines(h);
            for (line_no, i, l) in added_lines(f, hi) {
                let text = crate::text::strip_terminator(&l.text);
                let inside = secret.get(i).map_or(&[][..], Vec::as_slice);
                let shown_line = crate::text::strip_terminator(masked.get(i).map_or("", String::as_str));
                if line_no <= fm_end && !text.trim_start().starts_with("description:") {
                    continue;
                }
                for claim in note_claims(text, &notes) {
                    let in_secret = inside.iter().any(|(r, _)| r.start <= claim.start && claim.end <= r.end);
                    let shown = match inside.iter().find(|(r, _)| r.start < claim.end && claim.start < r.end) {
                        Some((_, label)) => label.clone(),
                        None => mask(&claim.text).into_owned(),
                    };
                    if seen.insert((claim.kind, claim.text.to_lowercase())) {
                        let line = shown_line.to_string();
                        hunk_claims.push(HunkClaim { file: fi, hunk: hi, claim, shown, line, in_secret, status: None });
                    }
                }
            }
        }
    }
    let hunk_entries = findings.clone();
    // A claim's evidence: the citations of its hunk's entries, those of an entry that states
    // the claim itself first — its source is the one to show ("214 tests passed on
    // 2026-11-01 (… line 4)" → line 4), and its relative phrase the one a date came from.
    // Then those of the entries that speak of the claim's line most.
    let evidence_of = |hc: &HunkClaim| -> Vec<&Cited> {
        let entries = hunk_entries.changes(hc.file, hc.hunk);
        let text = |n: usize| out.changes.get(n - 1).map_or("", |c| c.text.as_str());
        let (mut stating, mut others): (Vec<usize>, Vec<usize>) =
            entries.iter().partition(|&&n| claims::occurs_in(&hc.claim, text(n)));
        // Several entries may state a date (inline sources are their lines): the one
        // speaking of the claim's line first there too.
        stating.sort_by_key(|&n| std::cmp::Reverse(mapping::line_overlap(text(n), &hc.line)));
        others.sort_by_key(|&n| std::cmp::Reverse(mapping::line_overlap(text(n), &hc.line)));
        stating.iter().chain(&others).filter_map(|n| cited.get(n - 1)).flatten().collect()
    };
    // Whether a cited message states a claim, decided once per (message, claim): thousands
    // of citations of one message are one check, not thousands.
    let stated = Stated::default();
    // Ordered once per claim: steps 3, 5 and 6 all read it.
    let evidence: Vec<Vec<&Cited>> = hunk_claims.iter().map(evidence_of).collect();
    for (hc, ev) in hunk_claims.iter_mut().zip(&evidence) {
        hc.status = sourced_in(&hc.claim, ev, &stated);
    }

    // 4. Each entry's own claims (or its hunks') against its own citations.
    let mut entry_claims: Vec<Claim> = Vec::new();
    let mut entry_claim_ids: HashMap<(ClaimKind, String), usize> = HashMap::new();
    let mut checks: Vec<Option<EntryCheck>> = Vec::new();
    for (ei, report) in out.changes.iter().enumerate() {
        let evidence = &cited[ei];
        if evidence.is_empty() {
            checks.push(None);
            continue;
        }
        let own = entry_own_claims(&report.text, &notes);
        let claims: Vec<Claim> = if own.is_empty() {
            hunk_claims
                .iter()
                .filter(|hc| report.hunks.contains(&review.files[hc.file].hunks[hc.hunk].id))
                .map(|hc| hc.claim.clone())
                .collect()
        } else {
            own
        };
        if claims.is_empty() {
            checks.push(None);
            continue;
        }
        let refs: Vec<&Cited> = evidence.iter().collect();
        // A cited relative phrase that resolves to one of the dates ("昨天" said the day after)
        // supports the entry too: the line says it, only in relative form.
        let supported = claims.iter().any(|c| {
            sourced_in(c, &refs, &stated).is_some()
                || cited_reading(c, &refs, &stated, zone).is_some_and(|r| r.overlaps)
        });
        if supported {
            // Nothing left to look for: its claims do not go to the scan.
            checks.push(Some(EntryCheck { claims: Vec::new(), supported }));
            continue;
        }
        // One pending claim per distinct claim, however many entries state it: thousands
        // of entries repeating one claim are one needle for the scan, not thousands.
        let ids = claims
            .into_iter()
            .map(|c| {
                *entry_claim_ids.entry((c.kind, c.text.clone())).or_insert_with(|| {
                    entry_claims.push(c);
                    entry_claims.len() - 1
                })
            })
            .collect();
        checks.push(Some(EntryCheck { claims: ids, supported }));
    }

    // 5. One pass over every source for what is still unsourced, and for relative phrases
    //    an unsourced date may come from.
    let pending: Vec<&Claim> =
        hunk_claims.iter().filter(|hc| hc.status.is_none()).map(|hc| &hc.claim).chain(entry_claims.iter()).collect();
    // The evidence of each pending hunk claim, in `pending` order.
    let pending_evidence: Vec<&Vec<&Cited>> =
        hunk_claims.iter().zip(&evidence).filter(|(hc, _)| hc.status.is_none()).map(|(_, ev)| ev).collect();
    // Relative phrases are looked for only for dates whose cited messages say none the date
    // overlaps: such a cited phrase always wins over one the scan finds.
    let dates: Vec<usize> = (0..pending_evidence.len())
        .filter(|&i| {
            pending[i].kind == ClaimKind::Date
                && !cited_reading(pending[i], pending_evidence[i], &stated, zone).is_some_and(|r| r.overlaps)
        })
        .collect();
    if let Some(needles) = needles_only {
        *needles = needle_table(&pending, !dates.is_empty()).0;
        return out;
    }
    // The cited whole files of each pending claim: the only sources where its first line
    // matters (step 6); elsewhere only its first place overall does.
    let whole_files = |ev: &[&Cited]| -> Vec<usize> { ev.iter().filter(|c| c.whole_file).map(|c| c.source).collect() };
    let mut whole: Vec<Vec<usize>> = pending_evidence.iter().map(|ev| whole_files(ev)).collect();
    let mut entry_whole: Vec<Vec<usize>> = vec![Vec::new(); entry_claims.len()];
    for (ei, check) in checks.iter().enumerate() {
        let Some(check) = check else { continue };
        let refs: Vec<&Cited> = cited[ei].iter().collect();
        for &c in &check.claims {
            // A claim several entries state is open in the whole files any of them cites.
            if let Some(w) = entry_whole.get_mut(c) {
                w.extend(whole_files(&refs));
                w.sort_unstable();
                w.dedup();
            }
        }
    }
    whole.extend(entry_whole);
    // The sources each pending hunk claim's entries cite: a relative phrase there explains
    // a date better than one in an unrelated session.
    let cited_sources: Vec<Vec<usize>> =
        pending_evidence.iter().map(|ev| ev.iter().map(|c| c.source).collect()).collect();
    let found = scan(&sources, &pending, (&dates, &cited_sources), &whole, zone, progress);
    for (s, e) in &found.unreadable {
        let name = sources.get(*s).map_or("?", |f| f.name.as_str());
        out.notes.push(format!("{name}: could not be read ({e}); no claim was looked for in it"));
    }

    // 6. Classify what is left and flag it. Live notes are prepared once for all claims.
    let live_texts: Vec<String> = review.live.values().filter_map(note_text).collect();
    let live: Vec<claims::Haystack<'_>> = live_texts.iter().map(|t| claims::Haystack::new(t)).collect();
    let mut pend_id = 0;
    for hc in &mut hunk_claims {
        if hc.status.is_some() {
            continue;
        }
        let id = pend_id;
        pend_id += 1;
        let loc = |(s, l): (usize, usize)| format!("{}:{l}", sources.get(s).map(|f| f.name.as_str()).unwrap_or("?"));
        let cited_whole = whole.get(id).map_or(&[][..], Vec::as_slice);
        // A relative phrase in a cited whole file that denotes the date states it.
        let stated_relative = found.relative.get(&id).filter(|s| s.reading.covers && cited_whole.contains(&s.rank.3));
        if let Some(at) = cited_whole.iter().find_map(|&s| found.per_source.get(&(id, s)).map(|&l| (s, l))) {
            hc.status = Some((ClaimStatus::Sourced, Some(loc(at))));
        } else if let Some(s) = stated_relative {
            hc.status = Some((ClaimStatus::Sourced, Some(s.reading.loc.clone())));
        } else if let Some(&at) = found.first.get(&id) {
            hc.status = Some((ClaimStatus::Weak, Some(loc(at))));
            // A cited line's relative phrase denotes other days ("yesterday" in a daily note
            // whose heading has the date): it contradicts the date wherever else it is written.
            if hc.claim.kind == ClaimKind::Date
                && !hc.in_secret
                && let Some(r) = cited_reading(&hc.claim, pending_evidence[id], &stated, zone).filter(|r| !r.overlaps)
            {
                let message = format!("{}; the date itself is only written on {}", r.message(&hc.shown), loc(at));
                let flag = Flag::new(FlagKind::InferredDate, message)
                    .with_source(r.loc.clone())
                    .with_claim(hc.shown.clone())
                    .with_line(hc.line.clone());
                findings.add_hunk_flag(hc.file, hc.hunk, flag);
            }
        } else if carried(&hc.claim, &review.files[hc.file], &live) {
            hc.status = Some((ClaimStatus::Carried, None));
        } else {
            hc.status = Some((ClaimStatus::Unsourced, None));
            if hc.in_secret {
                continue;
            }
            let cited = cited_reading(&hc.claim, pending_evidence[id], &stated, zone);
            let flag = unsourced_flag(hc, cited, found.relative.get(&id));
            findings.add_hunk_flag(hc.file, hc.hunk, flag);
        }
    }
    let pending_hunk = pend_id;
    for (ei, check) in checks.iter().enumerate() {
        let Some(check) = check else { continue };
        let whole: Vec<usize> = cited[ei].iter().filter(|c| c.whole_file).map(|c| c.source).collect();
        let by_scan =
            check.claims.iter().any(|c| whole.iter().any(|s| found.per_source.contains_key(&(pending_hunk + c, *s))));
        if check.supported || by_scan {
            continue;
        }
        let report = &mut out.changes[ei];
        let cites: Vec<String> = report
            .citations
            .iter()
            .filter(|c| c.resolved)
            .map(|c| match (c.line, c.end) {
                (Some(a), Some(b)) => format!("{}:{a}-{b}", c.source),
                (Some(a), None) => format!("{}:{a}", c.source),
                _ => c.source.clone(),
            })
            .collect();
        let claims: Vec<String> = check.claims.iter().map(|&c| format!("«{}»", mask(&entry_claims[c].text))).collect();
        let label = report_label(report);
        report.flags.push(
            Flag::new(
                FlagKind::CitationUnsupported,
                format!("{label} cites {}, which says none of {}", cites.join(", "), claims.join(", ")),
            )
            .with_source(cites.join(", ")),
        );
    }

    // 7. Hunks nothing explains.
    if inputs.changes_md.is_some() {
        for (fi, f) in review.files.iter().enumerate() {
            for (hi, h) in f.hunks.iter().enumerate() {
                if findings.changes(fi, hi).is_empty() {
                    findings.add_hunk_flag(
                        fi,
                        hi,
                        Flag::new(FlagKind::CitationMissing, format!("no CHANGES.md entry explains {}", h.id)),
                    );
                }
            }
        }
    }
    // A credential is no claim to show as sourced or not: its `secret` flag is the verdict.
    for hc in hunk_claims.into_iter().filter(|hc| !hc.in_secret) {
        let (status, source) = hc.status.unwrap_or((ClaimStatus::Unsourced, None));
        let Some(found) = findings.of_mut(hc.file, hc.hunk) else { continue };
        found.claims.push(ClaimReport {
            text: hc.shown.clone(),
            kind: hc.claim.kind.name().to_string(),
            status,
            source,
        });
    }
    out
}

fn report_label(r: &ChangeReport) -> String {
    match &r.note {
        Some(_) => format!("the {}", r.label()),
        None => r.label(),
    }
}

/// Builds an entry's report and resolves its citations.
fn entry_report(
    e: &ChangeEntry,
    label: &str,
    sources: &SourceSet,
    lines: &mut CitedLines,
    note: Option<String>,
) -> (ChangeReport, Vec<Cited>) {
    let mut report = ChangeReport {
        index: e.index,
        line: e.line,
        text: mask(&e.text).into_owned(),
        notes: e.notes.clone(),
        note,
        ..Default::default()
    };
    let mut evidence = Vec::new();
    for c in &e.citations {
        let (r, cited, flag) = evidence::resolve(c, sources, lines, label);
        report.citations.push(r);
        evidence.extend(cited);
        report.flags.extend(flag);
    }
    (report, evidence)
}

/// Added lines of hunk `hi` with their 1-based line numbers in the accept-all result.
fn added_lines(f: &FileDiff, hi: usize) -> Vec<(usize, usize, &crate::diff::Line)> {
    let h = &f.hunks[hi];
    let mut n = h.new_range.start;
    let mut out = Vec::new();
    for (i, l) in h.lines.iter().enumerate() {
        if l.op != Op::Remove {
            n += 1;
        }
        if l.op == Op::Add {
            out.push((n, i, l));
        }
    }
    out
}

/// Last line of the proposal's frontmatter block (0: none).
fn frontmatter_end(f: &FileDiff) -> usize {
    let text = f.proposed.as_ref().and_then(|e| e.bytes()).and_then(crate::text::as_text).unwrap_or("");
    match crate::analysis::audit::frontmatter::parse(text) {
        crate::analysis::audit::frontmatter::Block::Parsed(fm) => fm.end_line,
        _ => 0,
    }
}

/// True when a path-like claim names one of the memory's own notes.
fn is_note_reference(c: &Claim, notes: &HashSet<String>) -> bool {
    if !matches!(c.kind, ClaimKind::Path | ClaimKind::Code) {
        return false;
    }
    let t = c.text.trim_start_matches("./").trim_start_matches("memory/");
    notes.contains(t) || notes.iter().any(|n| n.rsplit('/').next() == Some(t))
}

/// The claims of a note line: links, promotion metadata and references to notes left out.
fn note_claims(line: &str, notes: &HashSet<String>) -> Vec<Claim> {
    let structure = changes::structure_spans(line);
    claims::extract(line)
        .into_iter()
        .filter(|c| c.kind != ClaimKind::Link)
        .filter(|c| !structure.iter().any(|r| r.start < c.end && c.start < r.end))
        .filter(|c| !is_note_reference(c, notes))
        .collect()
}

/// The claims of an entry's own text: its citations, the notes it names and links left out.
fn entry_own_claims(text: &str, notes: &HashSet<String>) -> Vec<Claim> {
    let refs = changes::reference_spans(text);
    claims::extract(text)
        .into_iter()
        .filter(|c| c.kind != ClaimKind::Link)
        .filter(|c| !refs.iter().any(|r| r.start < c.end && c.start < r.end))
        .filter(|c| !is_note_reference(c, notes))
        .collect()
}

/// Sourced by a cited message (or the day of a cited line), with the location.
fn sourced_in(c: &Claim, evidence: &[&Cited], stated: &Stated) -> Option<(ClaimStatus, Option<String>)> {
    for e in evidence {
        if let Some(t) = e.texts.iter().find(|t| stated.states(t, c)) {
            return Some((ClaimStatus::Sourced, Some(t.line_stating(c))));
        }
    }
    if c.kind == ClaimKind::Date {
        // The day rule takes the line's day as it is: with an unknown zone that is its UTC
        // day, no slack (a day of slack would let `late Oct 2026` be "stated" by any line of
        // 2026-11-01). The slack widens only what relative phrases denote.
        let by_day = |day: &LocalDay| claims::date_stated_by(c, day.day);
        for e in evidence {
            if let Some((loc, _)) = e.dates.iter().find(|(_, d)| by_day(d)) {
                return Some((ClaimStatus::Sourced, Some(loc.clone())));
            }
            for t in &e.texts {
                let phrases = stated.phrases(t);
                if phrases.is_empty() {
                    // No relative phrase: the line states the day it was said on.
                    if let Some((loc, _)) = t.dates.iter().find(|(_, d)| by_day(d)) {
                        return Some((ClaimStatus::Sourced, Some(loc.clone())));
                    }
                } else if let Some(day) = t.day
                    && phrases.iter().any(|r| r.readings(day).any(|(_, denoted)| claims::covers(c, denoted)))
                {
                    // A relative phrase: the days it denotes are what the line states.
                    return Some((ClaimStatus::Sourced, Some(t.loc.clone())));
                }
            }
        }
    }
    None
}

/// Memo of which shared cited message states which claim, and of each message's relative
/// phrases.
#[derive(Default)]
struct Stated {
    states: std::cell::RefCell<HashMap<(usize, ClaimKind, String), bool>>,
    phrases: std::cell::RefCell<HashMap<usize, std::rc::Rc<Vec<claims::Relative>>>>,
}

impl Stated {
    /// True when the message says the claim; each (message, claim) is decided once.
    fn states(&self, t: &std::sync::Arc<evidence::CitedText>, c: &Claim) -> bool {
        let key = (std::sync::Arc::as_ptr(t) as usize, c.kind, c.text.clone());
        if let Some(&known) = self.states.borrow().get(&key) {
            return known;
        }
        let said = claims::Haystack::dated(&t.text, t.date).states(c);
        self.states.borrow_mut().insert(key, said);
        said
    }

    /// The relative phrases of a message, found once.
    fn phrases(&self, t: &std::sync::Arc<evidence::CitedText>) -> std::rc::Rc<Vec<claims::Relative>> {
        let key = std::sync::Arc::as_ptr(t) as usize;
        if let Some(known) = self.phrases.borrow().get(&key) {
            return std::rc::Rc::clone(known);
        }
        let found = std::rc::Rc::new(claims::relative_phrases(&t.text));
        self.phrases.borrow_mut().insert(key, std::rc::Rc::clone(&found));
        found
    }
}

/// The relative phrase of a cited message that tells most about a date claim: the first
/// whose days the claim overlaps (it was probably computed from it), else the first one said
/// (the claim lies outside what it denotes). `None` when no cited message says one.
fn cited_reading(c: &Claim, evidence: &[&Cited], stated: &Stated, zone: &Zone) -> Option<Reading> {
    if c.kind != ClaimKind::Date {
        return None;
    }
    let mut outside: Option<Reading> = None;
    for e in evidence {
        for t in &e.texts {
            let Some(day) = t.day else { continue };
            for r in stated.phrases(t).iter() {
                let when = when_said(zone, t.time.as_deref(), t.local_time.as_deref());
                let reading = Reading::new(c, r, day, t.loc.clone(), when);
                if reading.overlaps {
                    return Some(reading);
                }
                outside.get_or_insert(reading);
            }
        }
    }
    outside
}

/// True when live memory already says the claim: this note first, then any note.
fn carried(c: &Claim, f: &FileDiff, live: &[claims::Haystack<'_>]) -> bool {
    if let Some(t) = f.live.as_ref().and_then(note_text)
        && claims::occurs_in(c, &t)
    {
        return true;
    }
    live.iter().any(|h| h.states(c))
}

/// A note's text, when it is text.
fn note_text(e: &crate::snapshot::Entry) -> Option<String> {
    e.bytes().and_then(crate::text::as_text).map(str::to_string)
}

/// The flag for a claim found nowhere. A date's flag shows the arithmetic of the relative
/// phrase it probably came from: one a cited message says that the date overlaps, else one
/// the scan found in a cited source, else the phrase a cited message says (the date lies
/// outside it), else one the scan found anywhere; without any, it says no source states it.
fn unsourced_flag(hc: &HunkClaim, cited: Option<Reading>, scanned: Option<&Scanned>) -> Flag {
    let claim = hc.shown.clone();
    let line = hc.line.clone();
    if hc.claim.kind != ClaimKind::Date {
        return Flag::new(FlagKind::UnsourcedClaim, format!("«{claim}» is in no transcript and not in live memory"))
            .with_claim(claim)
            .with_line(line);
    }
    let (cited_overlap, cited_outside) = match cited {
        Some(r) if r.overlaps => (Some(r), None),
        other => (None, other),
    };
    let scanned_cited = scanned.filter(|s| s.rank.0 == 0).map(|s| s.reading.clone());
    let scanned_elsewhere = scanned.filter(|s| s.rank.0 != 0).map(|s| s.reading.clone());
    let flag = match (cited_overlap.or(scanned_cited), cited_outside, scanned_elsewhere) {
        (Some(r), ..) | (None, None, Some(r)) => {
            Flag::new(FlagKind::InferredDate, r.message(&claim)).with_source(r.loc.clone())
        }
        // The cited phrase denotes other days; a phrase elsewhere may be where the date came
        // from: both are shown, and the evidence pane opens on the latter.
        (None, Some(cited), Some(elsewhere)) => {
            let probably = elsewhere.message(&claim);
            let probably = probably.strip_prefix(&format!("«{claim}» is stated by no source: ")).unwrap_or(&probably);
            Flag::new(FlagKind::InferredDate, format!("{}; {probably}", cited.message(&claim)))
                .with_source(elsewhere.loc.clone())
        }
        (None, Some(r), None) => Flag::new(FlagKind::InferredDate, r.message(&claim)).with_source(r.loc.clone()),
        (None, None, None) => Flag::new(
            FlagKind::InferredDate,
            format!("«{claim}» is an absolute date no source states, and live memory does not have it"),
        ),
    };
    flag.with_claim(claim).with_line(line)
}

/// Marks a needle owned by the relative time phrases rather than a claim.
const RELATIVE: usize = usize::MAX;

/// The scan's needles (deduplicated, in first-seen order) and, per needle, the pending
/// claims it stands for ([`RELATIVE`] for a relative-phrase needle, added when `dates`).
fn needle_table(pending: &[&Claim], dates: bool) -> (Vec<String>, Vec<Vec<usize>>) {
    let mut needle_index: BTreeMap<String, usize> = BTreeMap::new();
    let mut owners: Vec<Vec<usize>> = Vec::new();
    let mut add = |n: String, owner: usize, owners: &mut Vec<Vec<usize>>| {
        let next = needle_index.len();
        let i = *needle_index.entry(n).or_insert(next);
        if i == owners.len() {
            owners.push(Vec::new());
        }
        owners[i].push(owner);
    };
    for (id, c) in pending.iter().enumerate() {
        for n in claims::needles(c) {
            add(n, id, &mut owners);
        }
    }
    if dates {
        for n in claims::relative_needles() {
            add(n.to_lowercase(), RELATIVE, &mut owners);
        }
    }
    let mut needles = vec![String::new(); needle_index.len()];
    for (n, i) in needle_index {
        needles[i] = n;
    }
    (needles, owners)
}

/// One pass over every source: where each pending claim is said (its first location, and
/// its first line in each source), and for each pending date claim (`dates`: indexes into
/// the hunk claims still pending, which come first in `pending`) a relative phrase whose
/// meaning, anchored at its line's day, overlaps it.
fn scan(
    sources: &SourceSet,
    pending: &[&Claim],
    (dates, cited): (&[usize], &[Vec<usize>]),
    whole: &[Vec<usize>],
    zone: &Zone,
    progress: &dyn Fn(u64, u64),
) -> Found {
    let (needles, owners) = needle_table(pending, !dates.is_empty());
    if needles.is_empty() || sources.is_empty() {
        progress(1, 1);
        return Found::default();
    }

    let found = Mutex::new(Found::default());
    let file_dates: Vec<Option<Date>> =
        sources.files().iter().map(|f| if f.kind == SourceKind::Markdown { f.date } else { None }).collect();
    // Each line once, with all its needles. A claim's hit can matter only as its first
    // place overall (`first`) or as its first line in one of its cited whole files
    // (`per_source`), and a relative phrase only for a date without one at an earlier
    // place (both keep minimums, and a file is read in line order): whatever cannot
    // improve them is skipped, and needles with nothing left to find are exhausted for
    // the source.
    let claim_done = |f: &Found, owner: usize, source: usize| {
        f.per_source.contains_key(&(owner, source))
            || (f.first.get(&owner).is_some_and(|&(s, _)| s < source)
                && !whole.get(owner).is_some_and(|w| w.contains(&source)))
    };
    let verify = |hit: &LineHit<'_>, verdict: &mut Verdict| {
        let (source, line) = (hit.source, hit.line);
        let mut claims_open: Vec<usize> = Vec::new();
        let mut dates_open: Vec<usize> = Vec::new();
        {
            let f = found.lock().unwrap_or_else(|p| p.into_inner());
            for &needle in hit.needles {
                let Some(who) = owners.get(needle) else { continue };
                let mut open = false;
                for &owner in who {
                    if owner == RELATIVE {
                        let settled = |d: &usize| {
                            f.relative.get(d).is_some_and(|e| e.rank < rank_bound(cited.get(*d), source, line))
                        };
                        if dates_open.is_empty() {
                            dates_open = dates.iter().copied().filter(|d| !settled(d)).collect();
                        }
                        open |= !dates_open.is_empty();
                    } else if !claim_done(&f, owner, source) {
                        claims_open.push(owner);
                        open = true;
                    }
                }
                if !open {
                    verdict.exhausted.push(needle);
                }
            }
        }
        claims_open.sort_unstable();
        claims_open.dedup();
        // The local day of the line (a daily note's file-name day; a timestamp in the user's
        // zone) and its time as written and local, read only when a date asks.
        let said_on = || -> (Option<LocalDay>, Option<String>) {
            match file_dates.get(source).copied().flatten() {
                Some(day) => (Some(LocalDay::exact(day)), None),
                None => {
                    let stamp = line_stamp(hit.raw);
                    let local = stamp.instant.map(|at| zone.local_time(at));
                    (
                        zone.local_day(stamp.date, stamp.instant),
                        when_said(zone, stamp.time.as_deref(), local.as_deref()),
                    )
                }
            }
        };
        // The said text lowercased and its dates found once, for all the claims open here.
        let hits: Vec<usize> = if claims_open.is_empty() {
            Vec::new()
        } else {
            // A yearless date on the line takes the year nearest the line's day.
            let anchor = claims_open.iter().any(|&o| pending[o].kind == ClaimKind::Date).then(|| said_on().0).flatten();
            let said = claims::Haystack::dated(hit.said, anchor.map(|d| d.day));
            claims_open.into_iter().filter(|&o| said.states(pending[o])).collect()
        };
        let mut relative: Vec<(usize, Scanned)> = Vec::new();
        if !dates_open.is_empty()
            && let (Some(day), when) = said_on()
        {
            let name = sources.get(source).map_or("?", |f| f.name.as_str());
            for r in claims::relative_phrases(hit.said) {
                let range = r.resolve_around(day);
                for &d in dates_open.iter().filter(|&&d| claims::overlaps(pending[d], range)) {
                    let (tier, ..) = rank_bound(cited.get(d), source, line);
                    let width = if tier == 0 { (range.1.to_days() - range.0.to_days()).abs() } else { 0 };
                    let reading = Reading::new(pending[d], &r, day, format!("{name}:{line}"), when.clone());
                    let rank = (tier, u8::from(!reading.covers), width, source, line);
                    relative.push((d, Scanned { rank, reading }));
                }
            }
        }
        if hits.is_empty() && relative.is_empty() {
            return;
        }
        let at = (source, line);
        let mut f = found.lock().unwrap_or_else(|p| p.into_inner());
        for owner in hits {
            let first = f.first.entry(owner).or_insert(at);
            *first = (*first).min(at);
            let l = f.per_source.entry((owner, source)).or_insert(line);
            *l = (*l).min(line);
        }
        for (d, s) in relative {
            if f.relative.get(&d).is_none_or(|e| s.rank < e.rank) {
                f.relative.insert(d, s);
            }
        }
        // Needles whose claims now have nothing left to find here (relative needles stay
        // open: a later line may explain another date).
        for &needle in hit.needles {
            let Some(who) = owners.get(needle) else { continue };
            if who.iter().all(|&o| o != RELATIVE && claim_done(&f, o, source)) {
                verdict.exhausted.push(needle);
            }
        }
    };
    // Before a source is read: needles all of whose claims are already found at an
    // earlier source (and do not cite this one as a whole file), relative needles when
    // every date is already explained at an earlier source.
    let exhausted = |source: usize, done: &mut [bool]| {
        let f = found.lock().unwrap_or_else(|p| p.into_inner());
        let dates_done =
            dates.iter().all(|d| f.relative.get(d).is_some_and(|e| e.rank < rank_bound(cited.get(*d), source, 0)));
        for (needle, who) in owners.iter().enumerate() {
            let all = who.iter().all(|&o| if o == RELATIVE { dates_done } else { claim_done(&f, o, source) });
            if all && let Some(d) = done.get_mut(needle) {
                *d = true;
            }
        }
    };
    let verifier = WithExhausted { line: verify, exhausted };
    let state = ScanProgress::new();
    let unreadable = std::thread::scope(|scope| {
        let worker = scope.spawn(|| scan_lines(sources, &needles, &ScanOptions::default(), &state, &verifier));
        while !worker.is_finished() {
            progress(state.bytes_done(), state.bytes_total());
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        worker.join().map(|report| report.unreadable).unwrap_or_default()
    });
    progress(state.bytes_total(), state.bytes_total());
    let mut found = found.into_inner().unwrap_or_else(|p| p.into_inner());
    found.unreadable = unreadable;
    found
}
