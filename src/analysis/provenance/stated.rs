//! Whether the lines a hunk's entries cite state a claim: by its text, by the day a line
//! was said on, or by what a relative phrase of the line denotes on that day. Each
//! (message, claim) is decided once however many citations share the message.

use super::evidence::{Cited, CitedText};
use super::reading::{Reading, when_said};
use crate::analysis::claims::{self, Claim, ClaimKind};
use crate::analysis::findings::ClaimStatus;
use crate::zone::{LocalDay, Zone};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// Sourced by a cited message (or the day of a cited line), with the location.
pub(super) fn sourced_in(c: &Claim, evidence: &[&Cited], stated: &Stated) -> Option<(ClaimStatus, Option<String>)> {
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
pub(super) struct Stated {
    states: RefCell<HashMap<(usize, ClaimKind, String), bool>>,
    phrases: RefCell<HashMap<usize, Rc<Vec<claims::Relative>>>>,
}

impl Stated {
    /// True when the message says the claim; each (message, claim) is decided once.
    fn states(&self, t: &Arc<CitedText>, c: &Claim) -> bool {
        let key = (Arc::as_ptr(t) as usize, c.kind, c.text.clone());
        if let Some(&known) = self.states.borrow().get(&key) {
            return known;
        }
        let said = claims::Haystack::dated(&t.text, t.date).states(c);
        self.states.borrow_mut().insert(key, said);
        said
    }

    /// The relative phrases of a message, found once.
    fn phrases(&self, t: &Arc<CitedText>) -> Rc<Vec<claims::Relative>> {
        let key = Arc::as_ptr(t) as usize;
        if let Some(known) = self.phrases.borrow().get(&key) {
            return Rc::clone(known);
        }
        let found = Rc::new(claims::relative_phrases(&t.text));
        self.phrases.borrow_mut().insert(key, Rc::clone(&found));
        found
    }
}

/// The relative phrase of a cited message that tells most about a date claim: the first
/// whose days the claim overlaps (it was probably computed from it), else the first one said
/// (the claim lies outside what it denotes). `None` when no cited message says one.
pub(super) fn cited_reading(c: &Claim, evidence: &[&Cited], stated: &Stated, zone: &Zone) -> Option<Reading> {
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
