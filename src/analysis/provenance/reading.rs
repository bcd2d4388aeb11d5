//! A relative phrase ("yesterday", 昨日, "in the last 30 days") of a source line read
//! against a date claim: what it denotes said on that line's day, how the claim relates to
//! it, and the `inferred-date` message that shows the arithmetic.

use crate::analysis::claims::{self, Claim};
use crate::base::date::Date;
use crate::base::secrets::mask;
use crate::base::zone::{LocalDay, Zone};

/// A relative phrase of a source line read against a date claim: what it denotes said on
/// that line's day, and how the claim relates to it.
#[derive(Clone, Debug)]
pub(super) struct Reading {
    pub(super) phrase: String,
    /// A rolling window ("in the last 30 days").
    pub(super) window: bool,
    /// `name:line` of its line.
    pub(super) loc: String,
    /// The local day its line was said on.
    pub(super) day: LocalDay,
    /// `2026-11-01 09:14:03 UTC = 2026-11-01 18:14 Asia/Tokyo` for a transcript line.
    pub(super) when: Option<String>,
    /// Every day it can mean (widened by the day's slack).
    pub(super) range: (Date, Date),
    /// What it means said on the line's day as written (the range before the slack).
    pub(super) base: (Date, Date),
    /// Why that range is wider than the phrase names (`the calendar week …, or the days 6
    /// to 13 before`).
    pub(super) reason: Option<String>,
    /// The claim holds every day it denotes: the line states the claim.
    pub(super) covers: bool,
    /// The claim shares a day with it (else the claim lies outside it).
    pub(super) overlaps: bool,
}

impl Reading {
    /// `phrase` said on `day` (at `when`, on `loc`) read against `c`.
    pub(super) fn new(c: &Claim, r: &claims::Relative, day: LocalDay, loc: String, when: Option<String>) -> Reading {
        let range = r.resolve_around(day);
        Reading {
            base: r.resolve(day.day),
            reason: r.reason(day.day),
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
    pub(super) fn message(&self, claim: &str) -> String {
        let phrase = mask(&self.phrase);
        // A span of days is said with its weekdays (`last week` said on Wed 2026-06-17 is
        // Mon 2026-06-08 to Sun 2026-06-14), so a reader can follow which week it is.
        let (lo, hi) = self.base;
        let span = lo != hi;
        let day = |d: Date| if span { format!("{} {d}", WEEKDAYS[d.weekday() as usize % 7]) } else { d.to_string() };
        let said = if self.day.slack > 0 {
            format!("{} (±1 day: the time zone is unknown)", day(self.day.day))
        } else {
            day(self.day.day)
        };
        let mut means = if span { format!("{} to {}", day(lo), day(hi)) } else { lo.to_string() };
        if let Some(why) = &self.reason {
            means = format!("{means}: {why}");
        }
        if self.range != self.base {
            let (wlo, whi) = self.range;
            means = format!("{means}, or with the day either side {wlo} to {whi}");
        }
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

/// Short weekday names, Monday first (as `Date::weekday` counts).
const WEEKDAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// `2026-11-01 09:14:03 UTC = 2026-11-01 18:14 Asia/Tokyo`: a timestamp as written and in
/// the user's zone (when that is known and not UTC).
pub(super) fn when_said(zone: &Zone, time: Option<&str>, local: Option<&str>) -> Option<String> {
    let time = time?;
    match local {
        Some(l) if zone.source() != crate::base::zone::ZoneSource::Unknown && time.get(..16) != Some(l) => {
            Some(format!("{time} UTC = {l} {}", zone.name()))
        }
        _ => Some(format!("{time} UTC")),
    }
}
