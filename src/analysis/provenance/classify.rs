//! Stages 6 and 7: what the scan found turned into verdicts and flags — each pending claim
//! sourced, weakly sourced, carried over from live memory or unsourced; each entry whose
//! citations say none of its claims; each hunk nothing explains.

use std::collections::HashMap;

use super::citations::Cited;
use super::hunk_claims::HunkClaim;
use super::live::LiveMemory;
use super::pending::{EntryClaims, Owner, Pending, PendingClaim, PendingId};
use super::reading::Reading;
use super::scan::{Found, Place, Scanned};
use super::stated::{Stated, Verdict, cited_reading};
use crate::analysis::claims::{self, Claim, ClaimKind};
use crate::analysis::findings::{ClaimReport, ClaimStatus, Findings};
use crate::analysis::flag::{Flag, FlagKind};
use crate::analysis::result::ChangeReport;
use crate::base::secrets::mask;
use crate::base::zone::Zone;
use crate::inputs::transcript::SourceSet;
use crate::model::ids::HunkId;
use crate::model::review::Review;

/// What classifying reads besides the claims.
pub(super) struct Context<'a> {
    pub(super) review: &'a Review,
    pub(super) sources: &'a SourceSet,
    pub(super) found: &'a Found,
    pub(super) stated: &'a Stated,
    pub(super) zone: &'a Zone,
}

impl Context<'_> {
    /// `name:line` of a place.
    fn loc(&self, at: Place) -> String {
        format!("{}:{}", self.sources.get(at.source).map(|f| f.name.as_str()).unwrap_or("?"), at.line)
    }
}

/// Stage 6: a verdict (and a flag when it is not sourced) for each pending hunk claim, and
/// the flags of the claims the cited lines overruled or contradicted. Live notes are
/// prepared once for all claims ([`LiveMemory`]).
pub(super) fn hunk_claims(cx: &Context<'_>, pending: &Pending<'_>, claims: &mut [HunkClaim], findings: &mut Findings) {
    // The claims that may come to the live-memory rule: every pending claim of a hunk.
    let asked: Vec<(&Claim, HunkId)> = pending
        .iter()
        .filter_map(|(_, p)| match p.owner {
            Owner::Hunk(i) => Some((&p.claim, claims[i].at)),
            Owner::Entry(_) => None,
        })
        .collect();
    let live = LiveMemory::new(cx.review, &asked);
    for (id, p) in pending.iter() {
        let Owner::Hunk(i) = p.owner else { continue };
        let hc = &mut claims[i];
        let (verdict, flag) = classify(cx, (id, p), hc, &live);
        hc.status = Some(verdict);
        if let Some(flag) = flag {
            findings.add_hunk_flag(hc.at, flag);
        }
    }
    for hc in claims.iter().filter(|hc| !hc.in_secret) {
        if let Some(flag) = hc.status.as_ref().and_then(|v| cited_flag(hc, v)) {
            findings.add_hunk_flag(hc.at, flag);
        }
    }
}

/// The flag of a claim the cited lines judged against it: `citation-overruled` naming the
/// line that turned its source down, `contradicted` quoting the source's sentence.
fn cited_flag(hc: &HunkClaim, v: &Verdict) -> Option<Flag> {
    let source = v.source.clone().unwrap_or_default();
    let quote = v.quote.clone().unwrap_or_default();
    let flag = match v.status {
        ClaimStatus::Overruled => Flag::new(
            FlagKind::CitationOverruled,
            format!(
                "«{}» comes from {source}, a proposal {}: «{}»",
                hc.shown,
                match &v.by {
                    Some(by) => format!("the user turned down at {by}"),
                    None => "the user turned down".to_string(),
                },
                crate::base::text::one_line_cut(&quote, 160)
            ),
        ),
        ClaimStatus::Contradicted => Flag::new(
            FlagKind::Contradicted,
            format!(
                "the note says «{}» but {source} says «{}»",
                crate::base::text::one_line_cut(&hc.line, 160),
                crate::base::text::one_line_cut(&quote, 160)
            ),
        ),
        _ => return None,
    };
    Some(flag.with_source(source).with_claim(hc.shown.clone()).with_line(hc.line.clone()))
}

/// The verdict on pending hunk claim `id`, and the flag it earns: sourced in a cited whole
/// file; carried over from live memory; stated elsewhere (flagged when its hunk cites
/// something: the citation points at the wrong place); unsourced.
fn classify(
    cx: &Context<'_>,
    (id, p): (PendingId, &PendingClaim<'_>),
    hc: &HunkClaim,
    live: &LiveMemory<'_>,
) -> (Verdict, Option<Flag>) {
    let found = cx.found;
    // A relative phrase in a cited whole file that denotes the date states it.
    let stated_relative = found.relative.get(&id).filter(|s| s.reading.covers && p.whole.contains(&s.rank.at.source));
    if let Some(at) =
        p.whole.iter().find_map(|&s| found.per_source.get(&(id, s)).map(|&line| Place { source: s, line }))
    {
        return (Verdict::at(ClaimStatus::Sourced, Some(cx.loc(at))), None);
    }
    if let Some(s) = stated_relative {
        return (Verdict::at(ClaimStatus::Sourced, Some(s.reading.loc.clone())), None);
    }
    let first = found.first.get(&id).copied();
    // A cited message whose text the evidence budget cut: the scan found the claim on it.
    if let Some(at) = first.filter(|at| on_cited_line(cx, p.evidence, *at) || between_cited_lines(cx, p.evidence, *at))
    {
        return (Verdict::at(ClaimStatus::Sourced, Some(cx.loc(at))), None);
    }
    if live.carried(&hc.claim, hc.at.file) {
        return (Verdict::at(ClaimStatus::Carried, None), None);
    }
    if let Some(note) = indexed_note(cx.review, hc) {
        return (Verdict::at(ClaimStatus::Carried, Some(note)), None);
    }
    if let Some(at) = first {
        let cites = !p.evidence.is_empty() || !p.whole.is_empty();
        let flag = contradicted_date(cx, p.evidence, hc, at)
            .or_else(|| (cites && !hc.in_secret).then(|| elsewhere_flag(cx, p, hc, at)));
        return (Verdict::at(ClaimStatus::Elsewhere, Some(cx.loc(at))), flag);
    }
    // A number the line works out beside operands the cited lines state (`260 tests (212
    // unit + 48 integration)`) is as sourced as they are.
    if let Some(at) = worked_out(hc, p.evidence) {
        return (Verdict::at(ClaimStatus::Sourced, Some(at)), None);
    }
    // A credential's `secret` flag is its verdict.
    let flag = (!hc.in_secret).then(|| {
        let cited = cited_reading(&hc.claim, p.evidence, cx.stated, cx.zone);
        unsourced_flag(hc, cited, found.relative.get(&id))
    });
    (Verdict::at(ClaimStatus::Unsourced, None), flag)
}

/// Where the cited lines state the operands a number of the note line is worked out from
/// (see `claims::operands`), when they state both.
fn worked_out(hc: &HunkClaim, evidence: &[&Cited]) -> Option<String> {
    let (a, b) = claims::operands(&hc.line, &hc.claim)?;
    let texts = || evidence.iter().flat_map(|c| c.texts.iter());
    let holds = |t: &super::cited_text::CitedText, v: &str| t.text.contains(v) || t.text.contains(&v.replace(',', ""));
    let first = texts().find(|t| holds(t, &a))?;
    texts().any(|t| holds(t, &b)).then(|| first.loc.clone())
}

/// True when `at` is a line of one of the cited messages.
fn on_cited_line(cx: &Context<'_>, evidence: &[&Cited], at: Place) -> bool {
    let name = cx.sources.get(at.source).map(|f| f.name.as_str());
    evidence.iter().filter(|e| e.source == at.source || Some(e.name.as_str()) == name).any(|e| {
        e.texts.iter().any(|t| t.parts.iter().any(|(l, _)| *l == at.line) || t.loc.ends_with(&format!(":{}", at.line)))
    })
}

/// True when `at` is the one line between two lines of its file that citations name (`:4`
/// and `:6` cite the exchange around line 5: the dream read it, as a reader of the
/// citations does). Only the lines written in the citations count, not the other lines of
/// a cited message.
fn between_cited_lines(cx: &Context<'_>, evidence: &[&Cited], at: Place) -> bool {
    let name = cx.sources.get(at.source).map(|f| f.name.as_str());
    let lines: Vec<usize> = evidence
        .iter()
        .filter(|e| !e.whole_file && (e.source == at.source || Some(e.name.as_str()) == name))
        .flat_map(|e| e.texts.iter().filter_map(|t| t.loc.rsplit_once(':').and_then(|(_, l)| l.parse().ok())))
        .collect();
    at.line > 0 && lines.contains(&(at.line - 1)) && lines.contains(&(at.line + 1))
}

/// `name:first-last` of the lines a citation covers.
fn span_of(e: &Cited) -> String {
    let lines = e.texts.iter().flat_map(|t| {
        let cited = t.loc.rsplit_once(':').and_then(|(_, l)| l.parse::<usize>().ok());
        cited.into_iter().chain(std::iter::once(t.last))
    });
    let (lo, hi) = lines.fold((usize::MAX, 0), |(lo, hi), l| (lo.min(l), hi.max(l)));
    match (lo, hi) {
        (lo, hi) if lo == hi => format!("{}:{lo}", e.name),
        (lo, hi) if lo < hi => format!("{}:{lo}-{hi}", e.name),
        _ => e.name.clone(),
    }
}

/// `citation-unsupported` for a claim its hunk's citations do not state, said at `at`.
fn elsewhere_flag(cx: &Context<'_>, p: &PendingClaim<'_>, hc: &HunkClaim, at: Place) -> Flag {
    let mut cited: Vec<String> = p.evidence.iter().filter(|e| !e.whole_file).map(|e| span_of(e)).collect();
    cited.extend(p.whole.iter().filter_map(|&s| cx.sources.get(s)).map(|f| f.name.clone()));
    cited.dedup();
    let cited = match cited.len() {
        0 => "the cited lines".to_string(),
        1..=3 => cited.join(", "),
        n => format!("{} and {} more", cited[..3].join(", "), n - 3),
    };
    Flag::new(
        FlagKind::CitationUnsupported,
        format!("«{}» is not stated at the cited lines ({cited}); it is said at {}", hc.shown, cx.loc(at)),
    )
    .with_source(cx.loc(at))
    .with_claim(hc.shown.clone())
    .with_line(hc.line.clone())
}

/// A date written elsewhere (at `at`) while a cited line's relative phrase denotes other
/// days ("yesterday" in a daily note whose heading has the date): the phrase contradicts it.
fn contradicted_date(cx: &Context<'_>, evidence: &[&Cited], hc: &HunkClaim, at: Place) -> Option<Flag> {
    if hc.claim.kind != ClaimKind::Date || hc.in_secret {
        return None;
    }
    let r = cited_reading(&hc.claim, evidence, cx.stated, cx.zone).filter(|r| !r.overlaps)?;
    let message = format!("{}; the date itself is only written on {}", r.message(&hc.shown), cx.loc(at));
    Some(
        Flag::new(FlagKind::InferredDate, message)
            .with_source(r.loc.clone())
            .with_claim(hc.shown.clone())
            .with_line(hc.line.clone()),
    )
}

/// Stage 6 for entries: `citation-unsupported` on each entry whose citations support none
/// of its claims, and whose cited whole files do not say one either.
///
/// A claim gets one flag: an entry whose every claim is a claim of its hunks that already
/// has its own flag there (said elsewhere, nowhere, contradicted, overruled) is not
/// flagged again.
pub(super) fn entries(
    cx: &Context<'_>,
    pending: &Pending<'_>,
    entry_claims: &EntryClaims,
    (reports, cited): (&mut [ChangeReport], &[Vec<Cited>]),
    hunk_claims: &[HunkClaim],
) {
    // The hunk claims of each value, found once: an entry linked to every hunk of a big
    // note would otherwise compare each of its claims with every hunk claim.
    let mut by_value: HashMap<&claims::ClaimValue, Vec<&HunkClaim>> = HashMap::new();
    for hc in hunk_claims {
        by_value.entry(&hc.claim.value).or_default().push(hc);
    }
    let of_value = |c: &Claim| by_value.get(&c.value).map(Vec::as_slice).unwrap_or_default().iter().copied();
    for (ei, check) in entry_claims.checks.iter().enumerate() {
        let Some(check) = check else { continue };
        let whole = super::pending::whole_files(cited[ei].iter());
        let in_whole_file = check
            .claims
            .iter()
            .filter_map(|&c| pending.of_entry_claim(c))
            .any(|id| whole.iter().any(|s| cx.found.per_source.contains_key(&(id, *s))));
        let refs: Vec<&Cited> = cited[ei].iter().collect();
        let between = check
            .claims
            .iter()
            .filter_map(|&c| pending.of_entry_claim(c))
            .filter_map(|id| cx.found.first.get(&id))
            .any(|&at| between_cited_lines(cx, &refs, at));
        if check.supported || in_whole_file || between {
            continue;
        }
        let claims: Vec<&Claim> = check.claims.iter().map(|&c| &entry_claims.claims[c]).collect();
        let flagged_on_hunk = |c: &Claim| {
            of_value(c).any(|hc| {
                let bad = hc.status.as_ref().is_some_and(|v| {
                    matches!(
                        v.status,
                        ClaimStatus::Elsewhere
                            | ClaimStatus::Unsourced
                            | ClaimStatus::Contradicted
                            | ClaimStatus::Overruled
                    )
                });
                bad && hc.claim.kind == c.kind
                    && hc.at.name(&cx.review.files).is_some_and(|name| reports[ei].hunks.iter().any(|h| h == name))
            })
        };
        // A number the hunk's line works out from what the cited lines state is supported
        // by them (see `worked_out`).
        let worked_on_hunk = |c: &Claim| {
            of_value(c).any(|hc| {
                hc.status.as_ref().is_some_and(|v| v.status == ClaimStatus::Sourced)
                    && claims::operands(&hc.line, &hc.claim).is_some()
            })
        };
        if claims.iter().all(|c| flagged_on_hunk(c)) || claims.iter().any(|c| worked_on_hunk(c)) {
            continue;
        }
        let report = &mut reports[ei];
        let flag = unsupported_flag(report, &claims);
        report.flags.push(flag);
    }
}

/// The `citation-unsupported` flag of an entry whose citations say none of `claims`.
fn unsupported_flag(report: &ChangeReport, claims: &[&Claim]) -> Flag {
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
    let claims: Vec<String> = claims.iter().map(|c| format!("«{}»", mask(&c.text))).collect();
    let label = match &report.note {
        Some(_) => format!("the {}", report.label()),
        None => report.label(),
    };
    Flag::new(
        FlagKind::CitationUnsupported,
        format!("{label} cites {}, which says none of {}", cites.join(", "), claims.join(", ")),
    )
    .with_source(cites.join(", "))
}

/// Stage 7: `citation-missing` on each hunk no entry explains (when there is a CHANGES.md).
pub(super) fn unexplained_hunks(review: &Review, findings: &mut Findings) {
    if review.inputs.changes_md.is_none() {
        return;
    }
    for id in review.hunk_ids() {
        if findings.changes(id).is_empty() {
            let flag = Flag::new(
                FlagKind::CitationMissing,
                format!("no CHANGES.md entry explains {}", id.named(&review.files)),
            );
            findings.add_hunk_flag(id, flag);
        }
    }
}

/// Lists each hunk claim with its verdict in its hunk's findings. A credential is no claim
/// to show as sourced or not: its `secret` flag is the verdict.
pub(super) fn report_claims(claims: Vec<HunkClaim>, findings: &mut Findings) {
    for hc in claims.into_iter().filter(|hc| !hc.in_secret) {
        let v = hc.status.unwrap_or(Verdict::at(ClaimStatus::Unsourced, None));
        let Some(found) = findings.of_mut(hc.at) else { continue };
        let kind = hc.claim.kind.name().to_string();
        found.claims.push(ClaimReport {
            text: hc.shown,
            kind,
            status: v.status,
            source: v.source,
            quote: v.quote,
            by: v.by,
            speaker: None,
        });
    }
}

/// For a claim of an index line (`MEMORY.md`), the proposed note that states it too: the
/// index repeats its notes, and each note's claims are judged there.
fn indexed_note(review: &Review, hc: &HunkClaim) -> Option<String> {
    let index = &review.files[hc.at.file].path;
    if index.rsplit('/').next() != Some("MEMORY.md") {
        return None;
    }
    review.files.iter().filter(|f| f.path != *index).find_map(|f| {
        let text = f.proposed.as_ref().and_then(note_text)?;
        claims::occurs_in(&hc.claim, &text).then(|| f.path.clone())
    })
}

/// A note's text, when it is text.
fn note_text(e: &crate::inputs::snapshot::Entry) -> Option<String> {
    e.bytes().and_then(crate::base::text::as_text).map(str::to_string)
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
    let scanned_cited = scanned.filter(|s| !s.rank.uncited).map(|s| s.reading.clone());
    let scanned_elsewhere = scanned.filter(|s| s.rank.uncited).map(|s| s.reading.clone());
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
