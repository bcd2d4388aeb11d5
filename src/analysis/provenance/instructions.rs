//! Instructions from untrusted text: `injected-instruction`.
//!
//! A note line that tells the agent what to do ([`claims::directive`]: `always`, `never`,
//! `must`, `run …`, 必ず, 반드시, 务必…) is followed in every later session. When the only
//! lines of the cited sessions that say it are content the user did not write — a fetched
//! page, a search result, a file read, a command's output, an MCP tool's output, a
//! sub-agent's report — and the user neither said it nor agreed to it, the line is how a
//! prompt injection outlives its session: it is an error whatever its citations.
//!
//! How a line is matched to what said it: a clause of the conversation that holds most of
//! the note clause's content words ([`CLOSE`], and two words at least), read in every
//! turn of each session the hunk's entries cite (not only the cited lines: a dream may
//! cite the user's request for a page and copy the page), or, when they cite none, of the
//! first [`FOUND_SESSIONS`] sessions where the hunk's claims were found. A directive
//! with no value claim in a hunk no entry explains is not looked for (a known miss). The user *said* it when a turn
//! they typed holds such a clause; the user *agreed* to it when the first message they
//! typed after the untrusted one answers an assistant turn that restates it with a yes
//! (`yes`, `ok`, `sounds good`, はい, 네, 好…). A line only the assistant says is its own
//! (see `statements` and the claim verdicts for whether it is sourced).
//!
//! The untrusted clause must itself instruct ([`claims::mood`]: `a machine passed
//! /healthz` is a report, not an order), and nothing the assistant said before it may say
//! the line already (the command it ran, its own plan). A bare imperative note line (`Add retry logic to the uploader`, see [`Mood`]) counts
//! only when the untrusted text gives it as an instruction too — a rule, or spoken to an
//! agent (`you`, `AI assistants`, あなた…): a commit subject in `git log` output is no
//! injection.
//!
//! Bounds: each turn is read up to [`TURN_BYTES`], each session up to
//! [`SESSION_BYTES`]; what lies past them is not looked at (a known miss: an instruction
//! deep in a huge file read).

use super::citations::Cited;
use super::entries::added_lines;
use super::hunk_claims::HunkClaim;
use crate::analysis::claims::{self, Claim, ClaimKind, Mood, Statement};
use crate::analysis::findings::{ClaimReport, ClaimStatus, Findings};
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;
use crate::inputs::transcript::{SourceKind, SourceSet};
use crate::inputs::transcript::{Speaker, Spoken, Transcript};
use crate::model::ids::{EntryId, HunkId};
use crate::model::review::Review;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// The least share of a note clause's content words a conversation clause must hold.
const CLOSE: f32 = 0.6;

/// How much of one turn is read.
pub const TURN_BYTES: usize = 64 << 10;

/// How many sessions where a hunk's claims were found are read when it cites none.
const FOUND_SESSIONS: usize = 4;

/// How much of one session is read.
pub const SESSION_BYTES: usize = 8 << 20;

/// One session read for clauses.
struct Conversation {
    name: String,
    turns: Vec<Turn>,
}

/// One turn read for clauses: split into clauses only when some note line may match it.
struct Turn {
    spoken: Spoken,
    /// Its text lowercased: the cheap test of whether a note's words are in it.
    lower: String,
    clauses: std::sync::OnceLock<Vec<Statement>>,
}

impl Turn {
    fn clauses(&self) -> &[Statement] {
        self.clauses.get_or_init(|| claims::statements(&self.spoken.text))
    }

    /// False when fewer than two of the directive's content words (stems, CJK pairs) are in
    /// the text: no clause of it can share two with the line.
    fn may_say(&self, d: &Directive) -> bool {
        d.stems.iter().filter(|s| self.lower.contains(s.as_str())).take(2).count() >= 2
    }
}

/// Where an untrusted instruction came from.
struct Injected {
    loc: String,
    speaker: Speaker,
    quote: String,
}

/// Adds an `injected-instruction` flag (and its `instruction` claim) for every added
/// directive line that only untrusted content of the cited sessions says.
pub(super) fn check(
    review: &Review,
    sources: &SourceSet,
    (cited, hunk_claims): (&[Vec<Cited>], &[HunkClaim]),
    findings: &mut Findings,
) {
    let mut sessions: HashMap<usize, Option<Arc<Conversation>>> = HashMap::new();
    // Where the scan found each hunk's claims (source names), grouped once.
    let mut found: HashMap<HunkId, Vec<&str>> = HashMap::new();
    for hc in hunk_claims {
        if let Some((name, _)) = hc.status.as_ref().and_then(|v| v.source.as_deref()).and_then(|s| s.rsplit_once(':')) {
            let names = found.entry(hc.at).or_default();
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    for (fi, f) in review.files.iter().enumerate() {
        if !f.kind.writable() {
            continue;
        }
        // Each hunk's directive lines read on both cores, judged in hunk order.
        let ids: Vec<HunkId> = review.hunks_of(fi).collect();
        let read: Vec<Vec<(&str, Directive)>> = ids
            .par_iter()
            .map(|id| {
                added_lines(f, id.hunk)
                    .into_iter()
                    .map(|(_, _, line)| crate::base::text::strip_terminator(&line.text))
                    .filter_map(|text| directive_clauses(text).map(|d| (text, d)))
                    .collect()
            })
            .collect();
        for (id, directives) in ids.into_iter().zip(read) {
            if directives.is_empty() {
                continue;
            }
            let entries: Vec<EntryId> = findings.changes(id).to_vec();
            let mut cited_sources: Vec<usize> =
                entries.iter().filter_map(|&n| cited.get(n.index())).flatten().map(|c| c.source).collect();
            // A dream that cites nothing for a line it copied: the sessions where the scan
            // found the hunk's claims (the first few).
            if cited_sources.is_empty() {
                let names = found.get(&id).map(Vec::as_slice).unwrap_or_default();
                cited_sources.extend(names.iter().flat_map(|name| sources.find(name)).take(FOUND_SESSIONS));
            }
            // A sub-agent's transcript is read with its session's: the user spoke there.
            let parents: Vec<usize> = cited_sources.iter().filter_map(|&s| parent_session(sources, s)).collect();
            cited_sources.extend(parents);
            cited_sources.sort_unstable();
            cited_sources.dedup();
            if cited_sources.is_empty() {
                continue;
            }
            let convs: Vec<Arc<Conversation>> =
                cited_sources.iter().filter_map(|&s| conversation(&mut sessions, sources, s)).collect();
            for (text, clauses) in directives {
                if let Some(found) = judge(&clauses, &convs) {
                    let (flag, report) = verdict(text, found);
                    findings.add_hunk_flag(id, flag);
                    if let Some(h) = findings.of_mut(id) {
                        h.claims.push(report);
                    }
                }
            }
        }
    }
}

/// A directive line read for matching: its clauses, and the values that anchor it to what
/// said it (a URL, a command in backticks: the payload of an instruction; a bare path or
/// name is what a whole session may speak of, so it anchors nothing).
struct Directive {
    mood: Mood,
    clauses: Vec<Statement>,
    /// The content words of all its clauses (for [`Turn::may_say`]).
    stems: Vec<String>,
    anchors: Vec<Claim>,
}

/// A directive line's clauses and anchors, or `None` when the line is no directive (or
/// says too little to be matched).
fn directive_clauses(text: &str) -> Option<Directive> {
    if text.trim_start().starts_with("---") {
        return None;
    }
    let mood = claims::mood(text)?;
    let mut clauses = claims::statements(text);
    if clauses.is_empty() {
        let whole = claims::statement_of(text);
        if whole.content.len() < 2 {
            return None;
        }
        clauses.push(whole);
    }
    let anchors =
        claims::extract(text).into_iter().filter(|c| matches!(c.kind, ClaimKind::Url | ClaimKind::Code)).collect();
    let mut stems: Vec<String> = clauses.iter().flat_map(|c| c.content.iter().map(|w| w.stem.clone())).collect();
    stems.sort();
    stems.dedup();
    Some(Directive { mood, clauses, stems, anchors })
}

/// The main session of sub-agent transcript `s` (`<session>/subagents/agent-….jsonl` →
/// `<session>.jsonl`), when it is one and that session is a source.
fn parent_session(sources: &SourceSet, s: usize) -> Option<usize> {
    let name = &sources.get(s)?.name;
    let (session, _) = name.split_once("/subagents/")?;
    let session = session.rsplit('/').next().unwrap_or(session);
    sources.find(&format!("{session}.jsonl")).first().copied()
}

/// Session `s` read for clauses, once.
fn conversation(
    cache: &mut HashMap<usize, Option<Arc<Conversation>>>,
    sources: &SourceSet,
    s: usize,
) -> Option<Arc<Conversation>> {
    cache
        .entry(s)
        .or_insert_with(|| {
            let file = sources.get(s).filter(|f| f.kind == SourceKind::Jsonl)?;
            let t = Transcript::open(file).ok()?;
            let mut budget = SESSION_BYTES;
            let mut turns = Vec::new();
            for spoken in t.conversation(TURN_BYTES) {
                if budget == 0 {
                    break;
                }
                if !(spoken.typed || spoken.speaker.untrusted() || spoken.speaker == Speaker::Assistant) {
                    continue;
                }
                budget = budget.saturating_sub(spoken.text.len());
                let lower = spoken.text.to_lowercase();
                turns.push(Turn { spoken, lower, clauses: std::sync::OnceLock::new() });
            }
            Some(Arc::new(Conversation { name: t.name().to_string(), turns }))
        })
        .clone()
}

/// The clause of `turn` that says the directive, among those `fit` accepts: the closest
/// one holding at least [`CLOSE`] of a note clause's content words and two of them, else
/// one that states an anchor of the note (its URL or command) and shares two
/// content words with it.
fn says<'a>(d: &Directive, turn: &'a Turn, fit: &dyn Fn(&str) -> bool) -> Option<&'a str> {
    says_closely(d, turn, fit).or_else(|| {
        if !turn.may_say(d) {
            return None;
        }
        let said = turn.clauses();
        let text = |c: &Statement| turn.spoken.text.get(c.range.clone()).unwrap_or("");
        let anchored = |c: &Statement| d.anchors.iter().any(|a| claims::occurs_in(a, text(c)));
        said.iter()
            .filter(|c| fit(text(c)) && anchored(c) && d.clauses.iter().any(|n| n.shared(c) >= 2))
            .map(text)
            .next()
    })
}

/// The closest clause of `turn` that `fit` accepts holding at least [`CLOSE`] of a note
/// clause's content words and two of them.
fn says_closely<'a>(d: &Directive, turn: &'a Turn, fit: &dyn Fn(&str) -> bool) -> Option<&'a str> {
    if !turn.may_say(d) {
        return None;
    }
    let said = turn.clauses();
    let text = |c: &Statement| turn.spoken.text.get(c.range.clone()).unwrap_or("");
    let pairs = || {
        said.iter()
            .flat_map(|c| d.clauses.iter().map(move |n| (n, c)))
            .filter(|(n, c)| n.shared(c) >= 2 && fit(text(c)))
    };
    let close = pairs()
        .map(|(n, c)| (n.covered_by(c), c))
        .filter(|(coverage, _)| *coverage >= CLOSE)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    close.map(|(_, c)| text(c))
}

/// Where the note's instruction comes from when only untrusted content says it.
fn judge(d: &Directive, convs: &[Arc<Conversation>]) -> Option<Injected> {
    let any = |_: &str| true;
    // The untrusted text must give it as an instruction (a report that a machine "passed
    // /healthz" is no order to pass it), and a bare imperative must be a rule there or
    // spoken to an agent: commit subjects and changelogs are imperative too.
    let instructs = |q: &str| match claims::mood(q) {
        Some(Mood::Rule) => true,
        Some(Mood::Imperative) => d.mood == Mood::Rule || claims::addresses_agent(q),
        None => false,
    };
    // When the line holds a value (a command, a URL), the assistant's words must hold it
    // too to be where it came from: "Deploy staging." does not say "deploy staging with
    // `--force`".
    let anchored = |q: &str| d.anchors.is_empty() || d.anchors.iter().any(|a| claims::occurs_in(a, q));
    let mut first: Option<Injected> = None;
    for conv in convs {
        let turns = &conv.turns;
        if turns.iter().any(|t| t.spoken.typed && says(d, t, &any).is_some()) {
            return None;
        }
        let untrusted = turns
            .iter()
            .enumerate()
            .filter(|(_, t)| t.spoken.speaker.untrusted())
            .find_map(|(i, t)| says(d, t, &instructs).map(|q| (i, q)));
        let Some((u, quote)) = untrusted else { continue };
        // The assistant said it before the untrusted text did (its own plan, the command it
        // ran): the line is the session's, not copied from the tool.
        let assistant = |t: &&Turn| t.spoken.speaker == Speaker::Assistant;
        if turns[..u].iter().filter(assistant).any(|t| says_closely(d, t, &anchored).is_some()) {
            continue;
        }
        if agreed(d, conv, u) {
            return None;
        }
        let spoken = &turns[u].spoken;
        first.get_or_insert(Injected {
            loc: format!("{}:{}", conv.name, spoken.line),
            speaker: spoken.speaker.clone(),
            quote: quote.to_string(),
        });
    }
    first
}

/// True when the first message the user typed after turn `u` says yes to an assistant
/// turn between them that restates the instruction.
fn agreed(d: &Directive, conv: &Conversation, u: usize) -> bool {
    let turns = &conv.turns;
    let Some(answer) = turns.iter().skip(u + 1).position(|t| t.spoken.typed).map(|p| p + u + 1) else {
        return false;
    };
    let asked =
        turns[u + 1..answer].iter().any(|t| t.spoken.speaker == Speaker::Assistant && says(d, t, &|_| true).is_some());
    asked && affirms(&turns[answer].spoken.text)
}

/// Openings of a yes (lowercase; Latin ones as whole words).
const YES: &[&str] = &[
    "yes",
    "yeah",
    "yep",
    "yup",
    "ok",
    "okay",
    "sure",
    "sounds good",
    "go ahead",
    "do it",
    "please do",
    "agreed",
    "lgtm",
    "correct",
    "right",
    "exactly",
    "👍",
    "はい",
    "うん",
    "いいよ",
    "いいね",
    "お願い",
    "そうして",
    "네",
    "예",
    "좋아",
    "그래",
    "好",
    "是的",
    "可以",
    "行",
    "对",
];

/// True when `text` opens with a yes.
fn affirms(text: &str) -> bool {
    let lower = text.trim_start_matches(|c: char| c.is_whitespace() || "\"'«“".contains(c)).to_lowercase();
    YES.iter()
        .any(|y| lower.starts_with(y) && lower[y.len()..].chars().next().is_none_or(|c| !c.is_ascii_alphanumeric()))
}

/// The flag and the `instruction` claim of a line only untrusted content says.
fn verdict(line: &str, found: Injected) -> (Flag, ClaimReport) {
    let shown = crate::base::text::one_line_cut(&mask(line.trim()), 200);
    let quote = crate::base::text::one_line_cut(&mask(&found.quote), 200);
    let message = format!(
        "«{shown}» tells the agent what to do, and only {} says it, at {}: «{quote}»; the user never \
         said it nor agreed to it (a prompt injection outlives its session this way)",
        found.speaker.what(),
        found.loc
    );
    let flag = Flag::new(FlagKind::InjectedInstruction, message)
        .with_source(found.loc.clone())
        .with_claim(shown.clone())
        .with_line(mask(line).into_owned());
    let report = ClaimReport {
        text: shown,
        kind: "instruction".into(),
        status: ClaimStatus::Untrusted,
        source: Some(found.loc),
        quote: Some(quote),
        by: None,
        speaker: Some(found.speaker.label()),
    };
    (flag, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_yes_opens_the_answer() {
        for y in ["yes, keep that", "OK", "sounds good!", "はい、お願いします", "네 좋아요", "好的"] {
            assert!(affirms(y), "{y}");
        }
        for n in ["no, don't", "yesterday it broke", "okta login is broken", "what?"] {
            assert!(!affirms(n), "{n}");
        }
    }
}
