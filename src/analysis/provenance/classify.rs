//! Stages 6 and 7: what the scan found turned into verdicts and flags — each pending claim
//! sourced, weakly sourced, carried over from live memory or unsourced; each entry whose
//! citations say none of its claims; each hunk nothing explains.

use super::evidence::Cited;
use super::hunk_claims::HunkClaim;
use super::live::LiveMemory;
use super::pending::{EntryClaims, Owner, Pending, PendingClaim, PendingId};
use super::reading::Reading;
use super::scan::{Found, Place, Scanned};
use super::stated::{Stated, cited_reading};
use crate::analysis::claims::{Claim, ClaimKind};
use crate::analysis::findings::{ClaimReport, ClaimStatus, Findings};
use crate::analysis::flag::{Flag, FlagKind};
use crate::analysis::result::ChangeReport;
use crate::review::Review;
use crate::secrets::mask;
use crate::transcript::SourceSet;
use crate::zone::Zone;

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

/// Stage 6: a status (and a flag when it is not sourced) for each pending hunk claim.
/// Live notes are prepared once for all claims ([`LiveMemory`]).
pub(super) fn hunk_claims(cx: &Context<'_>, pending: &Pending<'_>, claims: &mut [HunkClaim], findings: &mut Findings) {
    // The claims that may come to the live-memory rule: those no source states.
    let asked: Vec<(&Claim, usize)> = pending
        .iter()
        .filter(|(id, _)| !cx.found.first.contains_key(id))
        .filter_map(|(_, p)| match p.owner {
            Owner::Hunk(i) => Some((&p.claim, claims[i].file)),
            Owner::Entry(_) => None,
        })
        .collect();
    let live = LiveMemory::new(cx.review, &asked);
    for (id, p) in pending.iter() {
        let Owner::Hunk(i) = p.owner else { continue };
        let hc = &mut claims[i];
        let (status, flag) = classify(cx, (id, p), hc, &live);
        hc.status = Some(status);
        if let Some(flag) = flag {
            findings.add_hunk_flag(hc.file, hc.hunk, flag);
        }
    }
}

/// The status of pending hunk claim `id`, and the flag it earns.
fn classify(
    cx: &Context<'_>,
    (id, p): (PendingId, &PendingClaim<'_>),
    hc: &HunkClaim,
    live: &LiveMemory<'_>,
) -> ((ClaimStatus, Option<String>), Option<Flag>) {
    let found = cx.found;
    // A relative phrase in a cited whole file that denotes the date states it.
    let stated_relative = found.relative.get(&id).filter(|s| s.reading.covers && p.whole.contains(&s.rank.at.source));
    if let Some(at) =
        p.whole.iter().find_map(|&s| found.per_source.get(&(id, s)).map(|&line| Place { source: s, line }))
    {
        return ((ClaimStatus::Sourced, Some(cx.loc(at))), None);
    }
    if let Some(s) = stated_relative {
        return ((ClaimStatus::Sourced, Some(s.reading.loc.clone())), None);
    }
    if let Some(&at) = found.first.get(&id) {
        return ((ClaimStatus::Weak, Some(cx.loc(at))), contradicted_date(cx, p.evidence, hc, at));
    }
    if live.carried(&hc.claim, hc.file) {
        return ((ClaimStatus::Carried, None), None);
    }
    // A credential's `secret` flag is its verdict.
    let flag = (!hc.in_secret).then(|| {
        let cited = cited_reading(&hc.claim, p.evidence, cx.stated, cx.zone);
        unsourced_flag(hc, cited, found.relative.get(&id))
    });
    ((ClaimStatus::Unsourced, None), flag)
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
pub(super) fn entries(
    cx: &Context<'_>,
    pending: &Pending<'_>,
    entry_claims: &EntryClaims,
    (reports, cited): (&mut [ChangeReport], &[Vec<Cited>]),
) {
    for (ei, check) in entry_claims.checks.iter().enumerate() {
        let Some(check) = check else { continue };
        let whole = super::pending::whole_files(cited[ei].iter());
        let in_whole_file = check
            .claims
            .iter()
            .filter_map(|&c| pending.of_entry_claim(c))
            .any(|id| whole.iter().any(|s| cx.found.per_source.contains_key(&(id, *s))));
        if check.supported || in_whole_file {
            continue;
        }
        let claims: Vec<&Claim> = check.claims.iter().map(|&c| &entry_claims.claims[c]).collect();
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
    for (fi, f) in review.files.iter().enumerate() {
        for (hi, h) in f.hunks.iter().enumerate() {
            if findings.changes(fi, hi).is_empty() {
                let flag = Flag::new(FlagKind::CitationMissing, format!("no CHANGES.md entry explains {}", h.id));
                findings.add_hunk_flag(fi, hi, flag);
            }
        }
    }
}

/// Lists each hunk claim with its status in its hunk's findings. A credential is no claim
/// to show as sourced or not: its `secret` flag is the verdict.
pub(super) fn report_claims(claims: Vec<HunkClaim>, findings: &mut Findings) {
    for hc in claims.into_iter().filter(|hc| !hc.in_secret) {
        let (status, source) = hc.status.unwrap_or((ClaimStatus::Unsourced, None));
        let Some(found) = findings.of_mut(hc.file, hc.hunk) else { continue };
        found.claims.push(ClaimReport { text: hc.shown, kind: hc.claim.kind.name().to_string(), status, source });
    }
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
