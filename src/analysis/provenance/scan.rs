//! Stage 5: one pass over every source for the pending claims, and for relative phrases an
//! unsourced date may come from. The transcript module finds the lines holding a needle;
//! this stage decides which of them state a claim, and keeps only what can still matter:
//! each claim's first place overall, its first line in each whole file its entries cite,
//! and for each date the best-ranked phrase.

use super::pending::{Pending, PendingId};
use super::reading::{Reading, when_said};
use crate::analysis::claims::{self, ClaimKind};
use crate::base::date::Date;
use crate::base::zone::{LocalDay, Zone};
use crate::inputs::transcript::{
    LineHit, NeedleKeys, ScanOptions, ScanProgress, SourceKind, SourceSet, Verdict, WithExhausted, line_stamp,
    scan_lines_keyed,
};
use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

/// A line of a source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Place {
    pub(super) source: usize,
    pub(super) line: usize,
}

/// Where the scan found each pending claim, and relative phrases near unsourced dates.
#[derive(Default)]
pub(super) struct Found {
    /// Each claim's first place overall.
    pub(super) first: HashMap<PendingId, Place>,
    /// Each claim's first line in each source where it was found.
    pub(super) per_source: HashMap<(PendingId, usize), usize>,
    /// The best-ranked relative phrase found for each date.
    pub(super) relative: HashMap<PendingId, Scanned>,
    /// Sources the scan could not read (index, error): not searched, and said so.
    pub(super) unreadable: Vec<(usize, String)>,
}

/// How well a relative phrase explains a date; lower is better, field by field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Rank {
    /// The phrase is in a source none of the hunk's entries cites.
    pub(super) uncited: bool,
    /// The phrase denotes days the date does not hold (the line does not state it).
    pub(super) not_covering: bool,
    /// In a cited source, the width in days of what the phrase can mean (어제 beats 지난주);
    /// 0 elsewhere.
    pub(super) width: i64,
    pub(super) at: Place,
}

impl Rank {
    /// The best rank a phrase at `at` could have for a date whose evidence cites `cited`:
    /// a phrase already found with a lower rank cannot be beaten there.
    fn bound(cited: &[usize], at: Place) -> Rank {
        Rank { uncited: !cited.contains(&at.source), not_covering: false, width: 0, at }
    }
}

/// A relative phrase the scan found that may explain a date claim.
pub(super) struct Scanned {
    pub(super) rank: Rank,
    pub(super) reading: Reading,
}

/// Who a needle is looked for on behalf of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NeedleOwner {
    Claim(PendingId),
    /// The relative time phrases, for the dates that want one.
    Relative,
}

/// The scan's needles (deduplicated, in first-seen order) and, per needle, who it is
/// looked for on behalf of.
struct NeedleTable {
    needles: Vec<String>,
    owners: Vec<Vec<NeedleOwner>>,
}

impl NeedleTable {
    /// Each pending claim's needles, and the relative phrases' when `dates`.
    fn new(pending: &Pending<'_>, dates: bool) -> NeedleTable {
        let mut index: BTreeMap<String, usize> = BTreeMap::new();
        let mut owners: Vec<Vec<NeedleOwner>> = Vec::new();
        let mut add = |n: String, owner: NeedleOwner| {
            let next = index.len();
            let i = *index.entry(n).or_insert(next);
            if i == owners.len() {
                owners.push(Vec::new());
            }
            owners[i].push(owner);
        };
        for (id, c) in pending.iter() {
            for n in c.needles.iter().cloned() {
                add(n, NeedleOwner::Claim(id));
            }
        }
        if dates {
            for n in claims::relative_needles() {
                add(n.to_lowercase(), NeedleOwner::Relative);
            }
        }
        let mut needles = vec![String::new(); index.len()];
        for (n, i) in index {
            needles[i] = n;
        }
        NeedleTable { needles, owners }
    }
}

impl NeedleTable {
    /// Per needle, the index keys a line must hold for its owners to learn from it.
    fn keys(&self, pending: &Pending<'_>) -> Vec<NeedleKeys> {
        let claim = |o: &NeedleOwner| match o {
            NeedleOwner::Claim(id) => Some(&pending.get(*id).claim),
            NeedleOwner::Relative => None,
        };
        self.needles.iter().zip(&self.owners).map(|(n, who)| claims::keys_of(n, who.iter().map(claim))).collect()
    }
}

/// The needles [`run`] looks for on `pending` (lowercased claim forms, and the relative
/// time phrases when a date wants one).
pub(super) fn needles(pending: &Pending<'_>) -> Vec<String> {
    NeedleTable::new(pending, !pending.wanting_phrase().is_empty()).needles
}

/// One pass over every source: where each pending claim is said (its first place, and its
/// first line in each source), and for each date that wants one a relative phrase whose
/// meaning, anchored at its line's day, overlaps it. `progress(done, total)` reports
/// transcript bytes scanned; `options` say where the transcript index is, if one is used.
pub(super) fn run(
    sources: &SourceSet,
    pending: &Pending<'_>,
    zone: &Zone,
    options: &ScanOptions,
    progress: &dyn Fn(u64, u64),
) -> Found {
    let dates = pending.wanting_phrase();
    let table = NeedleTable::new(pending, !dates.is_empty());
    if table.needles.is_empty() || sources.is_empty() {
        progress(1, 1);
        return Found::default();
    }
    let scanner = Scanner {
        sources,
        pending,
        dates: &dates,
        owners: &table.owners,
        zone,
        file_dates: sources
            .files()
            .iter()
            .map(|f| if f.kind == SourceKind::Markdown { f.date } else { None })
            .collect(),
        found: Mutex::new(Found::default()),
    };
    let verifier = WithExhausted {
        line: |hit: &LineHit<'_>, v: &mut Verdict| scanner.line(hit, v),
        exhausted: |s, d: &mut [bool]| scanner.exhausted(s, d),
    };
    let state = ScanProgress::new();
    let unreadable = std::thread::scope(|scope| {
        // The scan says when it is done, so the wait ends then (not at the next tick).
        let (done, finished) = std::sync::mpsc::channel::<()>();
        let (table, state, verifier) = (&table, &state, &verifier);
        let worker = scope.spawn(move || {
            let report = scan_lines_keyed(sources, &table.needles, &table.keys(pending), options, state, verifier);
            let _ = done.send(());
            report
        });
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
            finished.recv_timeout(std::time::Duration::from_millis(50))
        {
            progress(state.bytes_done(), state.bytes_total());
        }
        worker.join().map(|report| report.unreadable).unwrap_or_default()
    });
    progress(state.bytes_total(), state.bytes_total());
    let mut found = scanner.found.into_inner().unwrap_or_else(|p| p.into_inner());
    found.unreadable = unreadable;
    found
}

/// The scan's judge of lines: what it looks for, and what it found so far.
///
/// Each line is seen once, with all its needles. A claim's hit can matter only as its first
/// place overall or as its first line in one of its cited whole files, and a relative
/// phrase only for a date without one at an earlier place (both keep minimums, and a file
/// is read in line order): whatever cannot improve them is skipped, and needles with
/// nothing left to find are exhausted for the source.
struct Scanner<'s, 'p> {
    sources: &'s SourceSet,
    pending: &'s Pending<'p>,
    /// The dates that want a relative phrase.
    dates: &'s [PendingId],
    owners: &'s [Vec<NeedleOwner>],
    zone: &'s Zone,
    /// A daily note's file-name day, per source.
    file_dates: Vec<Option<Date>>,
    found: Mutex<Found>,
}

impl Scanner<'_, '_> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Found> {
        self.found.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// True when nothing `id` could find in `source` matters any more.
    fn claim_done(&self, f: &Found, id: PendingId, source: usize) -> bool {
        f.per_source.contains_key(&(id, source))
            || (f.first.get(&id).is_some_and(|p| p.source < source) && !self.pending.get(id).whole.contains(&source))
    }

    /// True when date `id` already has a phrase no phrase at `at` can beat.
    fn date_settled(&self, f: &Found, id: PendingId, at: Place) -> bool {
        f.relative.get(&id).is_some_and(|e| e.rank < Rank::bound(&self.pending.get(id).cited_sources, at))
    }

    /// Before a source is read: needles all of whose claims are already found at an
    /// earlier source (and do not cite this one as a whole file), relative needles when
    /// every date is already explained at an earlier source.
    fn exhausted(&self, source: usize, done: &mut [bool]) {
        let f = self.lock();
        let dates_done = self.dates.iter().all(|&d| self.date_settled(&f, d, Place { source, line: 0 }));
        for (needle, who) in self.owners.iter().enumerate() {
            let all = who.iter().all(|o| match *o {
                NeedleOwner::Relative => dates_done,
                NeedleOwner::Claim(id) => self.claim_done(&f, id, source),
            });
            if all && let Some(d) = done.get_mut(needle) {
                *d = true;
            }
        }
    }

    /// Judges one line holding needles.
    fn line(&self, hit: &LineHit<'_>, verdict: &mut Verdict) {
        let at = Place { source: hit.source, line: hit.line };
        let (claims_open, dates_open) = self.open_at(hit, at, verdict);
        let day = LineDay::new(self, hit);
        let stating = self.stating(hit, claims_open, &day);
        let relative = self.phrases(hit, at, &dates_open, &day);
        if stating.is_empty() && relative.is_empty() {
            return;
        }
        let mut f = self.lock();
        for id in stating {
            let first = f.first.entry(id).or_insert(at);
            *first = (*first).min(at);
            let l = f.per_source.entry((id, at.source)).or_insert(at.line);
            *l = (*l).min(at.line);
        }
        for (d, s) in relative {
            if f.relative.get(&d).is_none_or(|e| s.rank < e.rank) {
                f.relative.insert(d, s);
            }
        }
        // Needles whose claims now have nothing left to find here (relative needles stay
        // open: a later line may explain another date).
        for &needle in hit.needles {
            let Some(who) = self.owners.get(needle) else { continue };
            if who.iter().all(|o| matches!(*o, NeedleOwner::Claim(id) if self.claim_done(&f, id, at.source))) {
                verdict.exhausted.push(needle);
            }
        }
    }

    /// The claims and dates still open at `at` among the owners of the line's needles;
    /// needles with none open are exhausted.
    fn open_at(&self, hit: &LineHit<'_>, at: Place, verdict: &mut Verdict) -> (Vec<PendingId>, Vec<PendingId>) {
        let mut claims_open: Vec<PendingId> = Vec::new();
        let mut dates_open: Vec<PendingId> = Vec::new();
        let f = self.lock();
        for &needle in hit.needles {
            let Some(who) = self.owners.get(needle) else { continue };
            let mut open = false;
            for o in who {
                match *o {
                    NeedleOwner::Relative => {
                        if dates_open.is_empty() {
                            dates_open =
                                self.dates.iter().copied().filter(|&d| !self.date_settled(&f, d, at)).collect();
                        }
                        open |= !dates_open.is_empty();
                    }
                    NeedleOwner::Claim(id) if !self.claim_done(&f, id, at.source) => {
                        claims_open.push(id);
                        open = true;
                    }
                    NeedleOwner::Claim(_) => {}
                }
            }
            if !open {
                verdict.exhausted.push(needle);
            }
        }
        claims_open.sort_unstable();
        claims_open.dedup();
        (claims_open, dates_open)
    }

    /// The open claims the line's said text states (lowercased and its dates found once
    /// for all of them).
    fn stating(&self, hit: &LineHit<'_>, open: Vec<PendingId>, day: &LineDay<'_, '_, '_>) -> Vec<PendingId> {
        if open.is_empty() {
            return Vec::new();
        }
        // A yearless date on the line takes the year nearest the line's day.
        let anchor =
            open.iter().any(|&id| self.pending.get(id).claim.kind == ClaimKind::Date).then(|| day.get().0).flatten();
        let said = claims::Haystack::dated(hit.said, anchor.map(|d| d.day));
        open.into_iter()
            .filter(|&id| {
                let c = self.pending.get(id);
                said.states_with(&c.claim, &c.needles)
            })
            .collect()
    }

    /// The line's relative phrases read against each open date they overlap, ranked.
    fn phrases(
        &self,
        hit: &LineHit<'_>,
        at: Place,
        open: &[PendingId],
        day: &LineDay<'_, '_, '_>,
    ) -> Vec<(PendingId, Scanned)> {
        let mut out = Vec::new();
        if open.is_empty() {
            return out;
        }
        let (Some(said_on), when) = day.get() else { return out };
        let name = self.sources.get(at.source).map_or("?", |f| f.name.as_str());
        for r in claims::relative_phrases(hit.said) {
            let range = r.resolve_around(said_on);
            for &d in open.iter().filter(|&&d| claims::overlaps(&self.pending.get(d).claim, range)) {
                let date = self.pending.get(d);
                let uncited = Rank::bound(&date.cited_sources, at).uncited;
                let width = if uncited { 0 } else { (range.1.to_days() - range.0.to_days()).abs() };
                let reading = Reading::new(&date.claim, &r, said_on, format!("{name}:{}", at.line), when.clone());
                let rank = Rank { uncited, not_covering: !reading.covers, width, at };
                out.push((d, Scanned { rank, reading }));
            }
        }
        out
    }
}

/// The local day a line was said on (a daily note's file-name day; a timestamp in the
/// user's zone) and its time as written and local, read only when a date asks.
struct LineDay<'a, 's, 'p> {
    scanner: &'a Scanner<'s, 'p>,
    hit: &'a LineHit<'a>,
}

impl<'a, 's, 'p> LineDay<'a, 's, 'p> {
    fn new(scanner: &'a Scanner<'s, 'p>, hit: &'a LineHit<'a>) -> Self {
        LineDay { scanner, hit }
    }

    fn get(&self) -> (Option<LocalDay>, Option<String>) {
        let zone = self.scanner.zone;
        match self.scanner.file_dates.get(self.hit.source).copied().flatten() {
            Some(day) => (Some(LocalDay::exact(day)), None),
            None => {
                let stamp = line_stamp(self.hit.raw);
                let local = stamp.instant.map(|at| zone.local_time(at));
                (zone.local_day(stamp.date, stamp.instant), when_said(zone, stamp.time.as_deref(), local.as_deref()))
            }
        }
    }
}
