//! Stage 4: what is still unsourced once the cited lines are read — the claims of added
//! lines, and the own claims of entries whose citations support none of them — as one
//! table for the scan, each claim with the sources where it matters.

use super::citations::Cited;
use super::entries::Entries;
use super::hunk_claims::{HunkClaim, entry_own_claims};
use super::stated::{Stated, cited_reading, judge_cited};
use crate::analysis::claims::{self, Claim, ClaimKind};
use crate::analysis::findings::ClaimStatus;
use crate::base::zone::Zone;
use crate::model::review::Review;
use std::collections::{HashMap, HashSet};

/// A pending claim: its place in [`Pending::claims`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct PendingId(pub(super) usize);

/// Whose claim a pending claim is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Owner {
    /// An added line's: the index of its [`HunkClaim`].
    Hunk(usize),
    /// Entries': the index of the distinct claim in [`EntryClaims::claims`].
    Entry(usize),
}

/// An entry's own claims (those of its hunks when its text has none) and whether its
/// citations support one of them.
pub(super) struct EntryCheck {
    /// Its claims, as indexes into [`EntryClaims::claims`] (none when its citations
    /// already support it: nothing is left to look for).
    pub(super) claims: Vec<usize>,
    pub(super) supported: bool,
}

/// The entries' checks, in entry order (`None`: nothing to check — no citation resolved,
/// or no claim), and the distinct claims left to look for.
pub(super) struct EntryClaims {
    pub(super) checks: Vec<Option<EntryCheck>>,
    /// One per distinct claim, however many entries state it: thousands of entries
    /// repeating one claim are one needle for the scan, not thousands.
    pub(super) claims: Vec<Claim>,
}

/// Checks each entry's own claims (or its hunks' when it makes none) against its own
/// citations: an entry whose cited lines state none of them (an overruled or
/// contradicting line states nothing) is unsupported. Each claim of the note gets its own
/// verdict besides, on its hunk.
pub(super) fn check_entries(
    review: &Review,
    entries: &Entries,
    hunk_claims: &[HunkClaim],
    notes: &HashSet<String>,
    (stated, zone): (&Stated, &Zone),
) -> EntryClaims {
    let mut out = EntryClaims { checks: Vec::new(), claims: Vec::new() };
    let mut ids: HashMap<(ClaimKind, String), usize> = HashMap::new();
    // The hunk claims of each hunk id, in order: an entry linked to every hunk of a note
    // finds its hunks' claims by id, not by testing every claim against every id.
    let mut of_hunk: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, hc) in hunk_claims.iter().enumerate() {
        of_hunk.entry(hc.at.name(&review.files).unwrap_or_default()).or_default().push(i);
    }
    for ((report, cited), references) in entries.reports.iter().zip(&entries.cited).zip(&entries.references) {
        if cited.is_empty() {
            out.checks.push(None);
            continue;
        }
        let mut claims = entry_own_claims(&report.text, references, notes);
        if claims.is_empty() {
            let mut linked: Vec<usize> =
                report.hunks.iter().filter_map(|id| of_hunk.get(id.as_str())).flatten().copied().collect();
            linked.sort_unstable();
            linked.dedup();
            claims = linked.into_iter().map(|i| hunk_claims[i].claim.clone()).collect();
        }
        if claims.is_empty() {
            out.checks.push(None);
            continue;
        }
        let refs: Vec<&Cited> = cited.iter().collect();
        // A cited relative phrase that resolves to one of the dates ("昨天" said the day
        // after) supports the entry too: the line says it, only in relative form.
        let supported = claims.iter().any(|c| {
            let sourced = judge_cited(c, &report.text, &refs, stated).is_some_and(|v| v.status == ClaimStatus::Sourced);
            sourced || cited_reading(c, &refs, stated, zone).is_some_and(|r| r.overlaps)
        });
        let claims = if supported {
            Vec::new()
        } else {
            claims
                .into_iter()
                .map(|c| {
                    *ids.entry((c.kind, c.text.clone())).or_insert_with(|| {
                        out.claims.push(c);
                        out.claims.len() - 1
                    })
                })
                .collect()
        };
        out.checks.push(Some(EntryCheck { claims, supported }));
    }
    out
}

/// A claim the scan looks for.
pub(super) struct PendingClaim<'a> {
    /// A copy: the hunk claims get their verdicts while the table is read.
    pub(super) claim: Claim,
    /// Its needles ([`claims::needles`]), made once: every line the scan presents checks them.
    pub(super) needles: Vec<String>,
    pub(super) owner: Owner,
    /// The lines its hunk's entries cite, in the order they are read (none for an entry's
    /// claim: its entries' citations were read in [`check_entries`]).
    pub(super) evidence: &'a [&'a Cited],
    /// The sources its evidence cites as whole files (in evidence order): the only
    /// sources where its first line matters; elsewhere only its first place overall does.
    pub(super) whole: Vec<usize>,
    /// The sources its evidence cites: a relative phrase there explains a date better
    /// than one in an unrelated session.
    pub(super) cited_sources: Vec<usize>,
    /// A date whose cited messages say no relative phrase it overlaps: the scan looks for
    /// one (a cited phrase always wins over one the scan finds).
    pub(super) wants_phrase: bool,
}

/// What the scan looks for: the unsourced hunk claims (in [`HunkClaim`] order), then the
/// entry claims.
pub(super) struct Pending<'a> {
    pub(super) claims: Vec<PendingClaim<'a>>,
    /// The pending id of each entry claim.
    entry_ids: Vec<PendingId>,
}

impl<'a> Pending<'a> {
    /// The table for `hunk_claims` (with `evidence`, in the same order) and `entry_claims`.
    pub(super) fn new(
        hunk_claims: &[HunkClaim],
        evidence: &'a [Vec<&'a Cited>],
        (cited, entry_claims): (&[Vec<Cited>], &EntryClaims),
        (stated, zone): (&Stated, &Zone),
    ) -> Pending<'a> {
        let mut claims: Vec<PendingClaim<'a>> = hunk_claims
            .iter()
            .zip(evidence)
            .enumerate()
            .filter(|(_, (hc, _))| hc.status.is_none())
            .map(|(i, (hc, ev))| PendingClaim {
                claim: hc.claim.clone(),
                needles: claims::needles(&hc.claim),
                owner: Owner::Hunk(i),
                evidence: ev,
                whole: whole_files(ev.iter().copied()),
                cited_sources: ev.iter().map(|c| c.source).collect(),
                wants_phrase: hc.claim.kind == ClaimKind::Date
                    && !cited_reading(&hc.claim, ev, stated, zone).is_some_and(|r| r.overlaps),
            })
            .collect();
        let mut entry_ids = Vec::new();
        let mut entry_whole: Vec<Vec<usize>> = vec![Vec::new(); entry_claims.claims.len()];
        for (check, cited) in entry_claims.checks.iter().zip(cited) {
            let Some(check) = check else { continue };
            // A claim several entries state is open in the whole files any of them cites.
            for &c in &check.claims {
                let w = &mut entry_whole[c];
                w.extend(whole_files(cited.iter()));
                w.sort_unstable();
                w.dedup();
            }
        }
        for (i, (claim, whole)) in entry_claims.claims.iter().zip(entry_whole).enumerate() {
            entry_ids.push(PendingId(claims.len()));
            claims.push(PendingClaim {
                claim: claim.clone(),
                needles: claims::needles(claim),
                owner: Owner::Entry(i),
                evidence: &[],
                whole,
                cited_sources: Vec::new(),
                wants_phrase: false,
            });
        }
        Pending { claims, entry_ids }
    }

    /// The claim `id` stands for.
    pub(super) fn get(&self, id: PendingId) -> &PendingClaim<'a> {
        &self.claims[id.0]
    }

    /// Every pending claim with its id.
    pub(super) fn iter(&self) -> impl Iterator<Item = (PendingId, &PendingClaim<'a>)> {
        self.claims.iter().enumerate().map(|(i, c)| (PendingId(i), c))
    }

    /// The pending id of entry claim `c` (an index into [`EntryClaims::claims`]).
    pub(super) fn of_entry_claim(&self, c: usize) -> Option<PendingId> {
        self.entry_ids.get(c).copied()
    }

    /// The pending dates the scan looks for a relative phrase for, in order.
    pub(super) fn wanting_phrase(&self) -> Vec<PendingId> {
        self.iter().filter(|(_, c)| c.wants_phrase).map(|(id, _)| id).collect()
    }
}

/// The sources of the citations of whole files among `cited`, in order.
pub(super) fn whole_files<'c>(cited: impl Iterator<Item = &'c Cited>) -> Vec<usize> {
    cited.filter(|c| c.whole_file).map(|c| c.source).collect()
}
