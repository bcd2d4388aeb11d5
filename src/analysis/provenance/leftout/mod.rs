//! What the dream left out: the user's lasting instructions and corrections in the
//! window's sessions that the resulting memory neither states nor contradicts, the
//! corrections it contradicts (`correction-lost` when an added line does), and the notes
//! it deletes with how many sessions read them.
//!
//! **The resulting memory** is the memory as the dream proposes it: every note of the
//! proposal (live notes it leaves alone included), each line split into sentences.
//!
//! **What the user said** is read from the turns they typed in every session of the window
//! (see `window`: never a tool's result, a skill's text, a sub-agent's prompt or the
//! assistant):
//! - a *lasting instruction* is a sentence that asks for something to last
//!   ([`claims::lasting_instruction`]: `remember …`, `from now on …`, `always run …`,
//!   今後…, 앞으로…, 以后…);
//! - a *correction* is a turn that corrects what came before it (the openers and phrases
//!   of `overruled`: `no`, `actually`, `instead`, いや, じゃなくて, 아니, 말고, 不是…)
//!   whose first sentence sets one thing against another: it denies a word and asserts
//!   another (`no, it's Postgres 16, not 15`, `don't add a cron job; use the queue`), or
//!   says `instead`/`rather than`/じゃなくて/말고/而是. The opener itself (`No,`) is
//!   dropped before the sentence is read, so it negates nothing.
//!
//! A memory sentence *speaks of* one when they share two content words or more and one
//! holds 60% of the other's, with no opposite between them (`polarity`); the memory
//! *states* it when the sentences that speak of it hold, together, every value it gives
//! (or one line holds them all), the side of each antonym pair it takes, half of its
//! words and a third of each of its parts (see `judge`); index entries and frontmatter
//! describe notes and are not read. A memory sentence *contradicts* a
//! correction when, as close (and each holding 40% of the other), it says the opposite
//! (`claims::Statement::opposite`) and no memory sentence states it. A contradicting line
//! the dream added is flagged `correction-lost` (error) on its hunk. A contradicting line
//! that live memory already held and the dream left unchanged is no flag (rejecting a hunk
//! cannot fix it): the correction is listed as contradicted, naming the note line, for the
//! reviewer to edit by hand.
//!
//! **Deleted notes** are listed first, each with the number of sessions (a sub-agent's
//! transcript counts with its session) whose tools read it (`Read` of a path ending in the
//! memory folder's name and the note's path).

use super::entries::added_lines;
use said::{Contrast, Item, holds_value, said_items};

mod report;
mod said;

pub use report::{LeftOut, LeftOutKind, LeftOutState};

use super::window::{Stems, Window};
use crate::analysis::claims::{self, Statement};
use crate::analysis::findings::Findings;
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;
use crate::model::diff::FileStatus;
use crate::model::ids::HunkId;
use crate::model::review::Review;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// The least share of one sentence's content words the other must hold.
const CLOSE: f32 = 0.6;

/// With [`CLOSE`] one way, the least share the other way for a contradiction.
const BOTH_WAYS: f32 = 0.4;

/// One line of the resulting memory.
struct MemoryLine {
    path: String,
    /// 1-based.
    number: usize,
    text: String,
    /// The hunk that adds it, when the dream adds it.
    added: Option<HunkId>,
    /// A frontmatter line, or an index entry pointing at a note ([`pointer`]): it describes
    /// a note rather than stating what the note holds, and is not read.
    describes: bool,
}

/// The resulting memory's lines and their sentences, indexed by content word.
struct Memory {
    lines: Vec<MemoryLine>,
    sentences: Vec<(usize, Statement)>,
    index: Stems<usize>,
}

/// Finds what the dream left out, and flags added lines that contradict a correction.
pub(super) fn check(review: &Review, window: &Window, findings: &mut Findings) -> Vec<LeftOut> {
    let mut out = deleted_notes(review, window);
    let items = said_items(window);
    if items.is_empty() {
        return out;
    }
    let memory = memory(review);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut rest = Vec::new();
    for item in items {
        if !seen.insert(item.text.to_lowercase()) {
            continue;
        }
        match judge(&item, &memory) {
            Judged::Stated => {}
            // A first prompt's contrast that the memory leaves out corrected nothing, unless
            // it forbids the agent something (`please don't squash my branches`).
            Judged::Missing if item.kind == LeftOutKind::Correction && !item.replying && !said::forbids(&item.text) => {
            }
            Judged::Missing => rest.push(item.report(LeftOutState::Missing, None, false)),
            Judged::Contradicted(li) => {
                let line = &memory.lines[li];
                let at = format!("{}:{}", line.path, line.number);
                let flagged = item.kind == LeftOutKind::Correction
                    && line.added.is_some_and(|id| flag_lost(findings, id, &item, line, &at));
                rest.push(item.report(LeftOutState::Contradicted, Some(at), flagged));
            }
        }
    }
    rest.sort_by_key(|l| (l.kind, l.state != LeftOutState::Contradicted));
    out.extend(rest);
    out
}

/// Adds `correction-lost` to hunk `id` for `line`; false when a flag of its
/// own already says the line turns its source around.
fn flag_lost(findings: &mut Findings, id: HunkId, item: &Item, line: &MemoryLine, at: &str) -> bool {
    let text = crate::base::text::strip_terminator(&line.text);
    let said = findings.hunk(id).iter().any(|f| {
        matches!(f.kind, FlagKind::Contradicted | FlagKind::CitationOverruled)
            && f.line.as_deref() == Some(mask(text).as_ref())
    });
    if said {
        return false;
    }
    let shown = crate::base::text::one_line_cut(&mask(text.trim()), 200);
    let message = format!("«{shown}» ({at}) still says what the user corrected at {}: «{}»", item.source, item.text);
    let flag = Flag::new(FlagKind::CorrectionLost, message)
        .with_source(item.source.clone())
        .with_claim(shown)
        .with_line(mask(text).into_owned());
    findings.add_hunk_flag(id, flag);
    true
}

/// The notes the dream deletes, each with the sessions that read it.
fn deleted_notes(review: &Review, window: &Window) -> Vec<LeftOut> {
    let mut out = Vec::new();
    for f in review.files.iter().filter(|f| f.status == FileStatus::Deleted && f.kind.writable()) {
        let note = super::window::deleted_note(review, &f.path);
        let readers: BTreeSet<&str> = window
            .sessions
            .iter()
            .filter(|s| s.reads.iter().any(|r| Path::new(&r.path).ends_with(&note)))
            .map(|s| s.key.as_str())
            .collect();
        out.push(LeftOut {
            kind: LeftOutKind::DeletedNote,
            state: LeftOutState::Deleted,
            text: mask(&f.path).into_owned(),
            source: None,
            read_by: Some(readers.len()),
            contradicted_by: None,
            flagged: false,
        });
    }
    out.sort_by(|a, b| b.read_by.cmp(&a.read_by).then_with(|| a.text.cmp(&b.text)));
    out
}

/// The resulting memory (the proposal, with the live notes it leaves alone).
fn memory(review: &Review) -> Memory {
    let mut lines = Vec::new();
    let changed: BTreeSet<&str> = review.files.iter().map(|f| f.path.as_str()).collect();
    let note = |p: &str| p.ends_with(".md") && p.rsplit('/').next().is_none_or(|n| n != "CHANGES.md");
    let mut push = |path: &str, text: &str, added: &HashMap<usize, HunkId>| {
        for (i, l) in crate::base::text::split_lines(text).into_iter().enumerate() {
            let number = i + 1;
            lines.push(MemoryLine {
                path: path.to_string(),
                number,
                text: l.to_string(),
                added: added.get(&number).copied(),
                describes: false,
            });
        }
    };
    for (path, e) in &review.live {
        if changed.contains(path.as_str()) || !note(path) {
            continue;
        }
        if let Some(text) = e.bytes().and_then(|b| std::str::from_utf8(b).ok()) {
            push(path, text, &HashMap::new());
        }
    }
    for (fi, f) in review.files.iter().enumerate() {
        let text = f.proposed.as_ref().and_then(|e| e.bytes()).and_then(|b| std::str::from_utf8(b).ok());
        let Some(text) = text.filter(|_| f.kind.writable() && note(&f.path)) else { continue };
        let added: HashMap<usize, HunkId> = (0..f.hunks.len())
            .flat_map(|hi| added_lines(f, hi).into_iter().map(move |(n, _, _)| (n, HunkId::new(fi, hi))))
            .collect();
        push(&f.path, text, &added);
    }
    let mut sentences = Vec::new();
    let mut index = Stems::default();
    let mut frontmatter = false;
    for l in &mut lines {
        let fence = l.text.trim_end() == "---";
        frontmatter = if l.number == 1 { fence } else { frontmatter && !fence };
        l.describes = fence || frontmatter || pointer(l);
    }
    for (li, l) in lines.iter().enumerate() {
        if l.describes || l.text.trim_start().starts_with("---") {
            continue;
        }
        for s in claims::statements(&l.text) {
            index.add(sentences.len(), &s);
            sentences.push((li, s));
        }
    }
    Memory { lines, sentences, index }
}

/// True when `line` is an index entry that points at a note (`- [Testing](feedback_testing.md)
/// — how Dana wants the suite run`): it says what the note holds, so the note must hold it.
/// A note's frontmatter (`description: …`) is read the same way.
fn pointer(line: &MemoryLine) -> bool {
    let index = line.path.rsplit('/').next().is_some_and(|n| n.eq_ignore_ascii_case("MEMORY.md"));
    index && line.text.contains("](") && line.text.contains(".md")
}

/// What the memory does with an item.
enum Judged {
    Stated,
    Missing,
    /// The line (an index into `Memory::lines`) that says the opposite.
    Contradicted(usize),
}

/// Whether the memory states, contradicts or leaves out `item`.
///
/// Each memory sentence close to one of its clauses states that much of it; the item is
/// stated when those sentences together hold [`CLOSE`] of what it asks for ([`Asked`]):
/// a memory that keeps one half of `Omar owns the payments app from now on, and Dana still
/// reviews every migration`, or only the `Django upgrade` of `Coverage must stay above 85%
/// (87% after the Django upgrade)`, leaves the rest out.
fn judge(item: &Item, memory: &Memory) -> Judged {
    if let Some(c) = &item.contrast {
        return judge_values(c, memory);
    }
    let asked = Asked::of(item);
    let mut held = Held::default();
    let mut against = None;
    for c in &item.clauses {
        for si in memory.index.near(c) {
            let Some((li, m)) = memory.sentences.get(si) else { continue };
            if m.shared(c) < 2 {
                continue;
            }
            let text = memory.lines.get(*li).map_or("", |l| l.text.as_str());
            if !item.values.is_empty() && item.values.iter().all(|v| claims::occurs_in(v, text)) {
                return Judged::Stated;
            }
            let (one, other) = (c.covered_by(m), m.covered_by(c));
            let opposite = m.opposite(c).is_some() || c.opposite(m).is_some();
            // Stated, also in other words: three words shared and 40% one way (CJK pairs
            // of a paraphrase share few: 值班交接…改成了每周一 / 值班轮换改为每周一…交接).
            let loose = m.shared(c) >= 3 && one.max(other) >= BOTH_WAYS;
            if !opposite && (one.max(other) >= CLOSE || loose) {
                held.add(&asked, m, text);
                if held.states(&asked) {
                    return Judged::Stated;
                }
                continue;
            }
            if one.max(other) < CLOSE {
                continue;
            }
            // The line must hold the correction's whole clause, or three of its words: `Kim
            // turned the nightly cron job down` shares only `cron job` with `don't add a cron
            // job`.
            let holds_it = m.shared(c) >= 3 || one >= 1.0;
            if holds_it && one.min(other) >= BOTH_WAYS && against.is_none() {
                against = Some(*li);
            }
        }
    }
    match against {
        Some(li) if item.kind == LeftOutKind::Correction => Judged::Contradicted(li),
        // An instruction the memory turns around is left to the claim checks: listed as
        // contradicted, never flagged here.
        Some(li) => Judged::Contradicted(li),
        None => Judged::Missing,
    }
}

/// What an item asks for: the content stems of its clauses less the words that only say
/// it should last (`remember`, `must`, 覚えて…), the sides of antonym pairs it asserts
/// (`必須` of `承認が必須` is a pole, not a content word), and its values.
struct Asked<'a> {
    stems: BTreeSet<String>,
    /// The stems of each part of it ([`Item::pieces`]), markers aside.
    pieces: Vec<BTreeSet<String>>,
    sides: BTreeSet<(usize, bool)>,
    values: &'a [claims::Claim],
    /// Whether its words are CJK character pairs (see [`Held::states`]).
    cjk: bool,
}

impl Asked<'_> {
    fn of(item: &Item) -> Asked<'_> {
        let markers = claims::marker_stems();
        let asked = |c: &Statement| -> BTreeSet<String> {
            c.content.iter().map(|w| &w.stem).filter(|s| !markers.contains(*s)).cloned().collect()
        };
        let stems: BTreeSet<String> = item.clauses.iter().flat_map(asked).collect();
        let pieces = item.pieces.iter().map(asked).filter(|p| p.len() >= 2).collect();
        let sides = item
            .clauses
            .iter()
            .flat_map(|c| c.poles.iter().filter_map(move |p| c.asserted_side(p.pair).map(|side| (p.pair, side))))
            .filter(|&(pair, side)| !claims::rule_phrasing(pair, side))
            .collect();
        let cjk = 2 * stems.iter().filter(|s| s.chars().any(crate::base::text::is_cjk)).count() > stems.len();
        Asked { stems, pieces, sides, values: &item.values, cjk }
    }
}

/// What the memory sentences close to an item hold of what it asks for.
#[derive(Default)]
struct Held {
    stems: BTreeSet<String>,
    sides: BTreeSet<(usize, bool)>,
    values: BTreeSet<usize>,
}

/// The least share of an item's words the memory must hold to state it, and of each of its
/// parts; of CJK character pairs, half that (about half of a clause's pairs straddle two
/// words, `天值` `班交` of 昨天值班交接, and a paraphrase shares none of those).
const HELD: f32 = 0.5;
const HELD_PART: f32 = 1.0 / 3.0;

impl Held {
    /// Adds what memory sentence `m` of line `text` holds.
    fn add(&mut self, asked: &Asked, m: &Statement, text: &str) {
        self.stems.extend(asked.stems.iter().filter(|s| m.word(s).is_some()).cloned());
        self.sides.extend(asked.sides.iter().filter(|&&(pair, side)| m.asserted_side(pair) == Some(side)).copied());
        self.values.extend((0..asked.values.len()).filter(|&i| claims::occurs_in(&asked.values[i], text)));
    }

    /// True when what is held states the item: each of its values, each side it takes,
    /// [`HELD`] of its words and [`HELD_PART`] of each part's.
    fn states(&self, asked: &Asked) -> bool {
        let scale = if asked.cjk { 0.5 } else { 1.0 };
        let holds = |words: &BTreeSet<String>, least: f32| {
            let held = words.iter().filter(|w| self.stems.contains(*w)).count();
            words.is_empty() || held as f32 >= least * scale * words.len() as f32
        };
        holds(&asked.stems, HELD)
            && asked.pieces.iter().all(|p| holds(p, HELD_PART))
            && self.sides.len() == asked.sides.len()
            && self.values.len() == asked.values.len()
    }
}

/// A value correction: stated by a line that holds every asserted value and speaks of its
/// subject; contradicted by one that speaks of its subject and holds a denied value but not
/// every asserted one.
fn judge_values(c: &Contrast, memory: &Memory) -> Judged {
    let mut against = None;
    for (li, l) in memory.lines.iter().enumerate() {
        if l.describes || l.text.trim_start().starts_with("---") {
            continue;
        }
        let lower = l.text.to_lowercase();
        let has = |v: &String| holds_value(&lower, v);
        let (said, denied) = (c.asserted.iter().all(has), c.denied.iter().any(has));
        if !said && !denied {
            continue;
        }
        let stems = claims::content_stems(&l.text);
        if !c.subject.iter().any(|s| stems.binary_search(s).is_ok()) {
            continue;
        }
        if said {
            return Judged::Stated;
        }
        if against.is_none() && !claims::negated(&l.text) {
            against = Some(li);
        }
    }
    against.map_or(Judged::Missing, Judged::Contradicted)
}
