//! One cited message as read from its transcript: what it says, the day and time it was
//! said, who said it, and which line of it states a claim.

use crate::analysis::claims::{self, Statement};
use crate::base::date::Date;
use crate::base::zone::LocalDay;
use std::collections::HashMap;
use std::sync::Arc;

impl CitedText {
    /// `name:line` of the line of the message that states `claim` on its own: the cited
    /// line when it does (or when only the message as a whole does), else the first other
    /// line of the message that does (a split assistant message cited at its text block
    /// whose tool call states the path).
    pub fn line_stating(&self, claim: &crate::analysis::claims::Claim) -> String {
        let name = self.loc.rsplit_once(':').map_or(self.loc.as_str(), |(n, _)| n);
        let cited = self.loc.rsplit_once(':').and_then(|(_, l)| l.parse::<usize>().ok());
        let states = |r: &std::ops::Range<usize>| {
            self.text
                .get(r.clone())
                .is_some_and(|t| crate::analysis::claims::Haystack::dated(t, self.date).states(claim))
        };
        if self.parts.len() < 2 || self.parts.iter().any(|(l, r)| Some(*l) == cited && states(r)) {
            let in_text = crate::analysis::claims::Haystack::dated(&self.text, self.date).states(claim);
            if !in_text
                && let Some((l, _)) = self.inputs.iter().find(|(_, t)| crate::analysis::claims::occurs_in(claim, t))
            {
                return format!("{name}:{l}");
            }
            return self.loc.clone();
        }
        match self.parts.iter().find(|(_, r)| states(r)) {
            Some((l, _)) => format!("{name}:{l}"),
            None => self.loc.clone(),
        }
    }

    /// True when this message's refusal bears on the claim: a refused edit refuses what it
    /// would have written (`new_string`, a write's `content`), not what it names or would have
    /// replaced (`old_string`), which stand; any other refusal or correction bears on the
    /// whole message.
    pub fn refuses(&self, c: &claims::Claim) -> bool {
        if self.written.is_empty() {
            return true;
        }
        claims::Haystack::dated(&self.written.join("\n"), self.date).states(c)
            && !claims::Haystack::dated(&self.replaced.join("\n"), self.date).states(c)
    }

    /// True when the clause of `text` ending at byte `end` is a question: a question mark
    /// follows it (through closing emphasis, quotes or a bracket).
    pub fn asks_at(&self, end: usize) -> bool {
        let after = self.text.get(end..).unwrap_or("");
        after.trim_start_matches(['*', '_', '`', '"', '\'', ')']).starts_with(['?', '？'])
    }
}

impl CitedText {
    /// The session file's name and the first line of the message (`loc` read).
    pub fn place(&self) -> Option<(&str, usize)> {
        let (name, line) = self.loc.rsplit_once(':')?;
        Some((name, line.parse().ok()?))
    }

    /// True when one of `others` is a message of the same session after this one that
    /// edited or wrote a file.
    pub fn edited_after<'a>(&self, mut others: impl Iterator<Item = &'a CitedText>) -> bool {
        let Some((name, _)) = self.place() else { return false };
        others.any(|t| !t.written.is_empty() && t.place().is_some_and(|(n, line)| n == name && line > self.last))
    }

    /// `name:line` of the line of the message whose said text holds byte `at` of `text`.
    pub fn line_at(&self, at: usize) -> String {
        let name = self.loc.rsplit_once(':').map_or(self.loc.as_str(), |(n, _)| n);
        match self.parts.iter().find(|(_, r)| r.start <= at && at <= r.end) {
            Some((l, _)) => format!("{name}:{l}"),
            None => self.loc.clone(),
        }
    }
}

/// One cited message: where, what it says, and the day it was said.
#[derive(Clone, Debug, Default)]
pub struct CitedText {
    /// `name:line` of its first cited line.
    pub loc: String,
    /// What the message says (text, tool inputs and results; never the JSON envelope).
    pub text: String,
    /// The local day it was said on (see [`crate::base::zone`]): its first line's timestamp in
    /// the user's zone, or the daily note's date.
    pub date: Option<Date>,
    /// [`CitedText::date`] with its slack (±1 day when the user's zone is unknown).
    pub day: Option<LocalDay>,
    /// `YYYY-MM-DD HH:MM:SS` of its timestamp as written (UTC), for messages.
    pub time: Option<String>,
    /// `YYYY-MM-DD HH:MM` of its timestamp in the user's zone, for messages.
    pub local_time: Option<String>,
    /// (location, local day) of each of its lines (or a daily note's date).
    pub dates: Vec<(String, LocalDay)>,
    /// Its last physical line (a message may span several).
    pub last: usize,
    /// (physical line, byte range in `text`) of what each line of the message says: the
    /// line that states a claim is the one to show.
    pub parts: Vec<(usize, std::ops::Range<usize>)>,
    /// The evidence budget was spent while reading it: `text` is only its beginning.
    pub cut: bool,
    /// The user turned it down later in the session: a note built from it records what
    /// was not decided.
    pub overruled: Option<super::overruled::Overruling>,
    /// The assistant asks the user something at the end of the session and nobody answered
    /// (see `overruled::awaits_answer`): what it proposes was not decided.
    pub awaiting: bool,
    /// The sub-agent tool (`Task`) of a call in it that hands work on and that nothing in
    /// the session answered (see `overruled::unanswered_delegation`): what it asks for was
    /// not done as far as the session shows.
    pub delegated: Option<String>,
    /// Who said its first line (a tool's result named by its call's tool), when known.
    pub speaker: Option<crate::inputs::transcript::Speaker>,
    /// (line, said text) of the tool calls its results answer: what was read or fetched
    /// (a path, a URL) is stated by a cited result through its call.
    pub inputs: Vec<(usize, String)>,
    /// What its edit calls replace (an `old_string`): text that stood before the edit.
    pub replaced: Vec<String>,
    /// What its edit calls write (a `new_string`, a write's `content`): what they propose.
    pub written: Vec<String>,
}

/// How much of a cited message is read for sentences (tool output beyond it is data, not
/// sentences a note restates).
const READ_BYTES: usize = 64 << 10;

/// The statements of each cited message, split once.
#[derive(Default)]
pub(super) struct CitedStatements {
    split: HashMap<usize, Arc<Vec<Statement>>>,
    finer: HashMap<usize, Arc<Vec<Statement>>>,
}

impl CitedStatements {
    pub(super) fn of(&mut self, t: &Arc<CitedText>) -> Arc<Vec<Statement>> {
        let key = Arc::as_ptr(t) as usize;
        let text = cut(&t.text, READ_BYTES);
        Arc::clone(self.split.entry(key).or_insert_with(|| Arc::new(claims::statements(text))))
    }

    /// The statements of a cited message and, for a sentence that says two things, its
    /// parts between commas ([`claims::parts`]), split once.
    pub(super) fn finer_of(&mut self, t: &Arc<CitedText>) -> Arc<Vec<Statement>> {
        let key = Arc::as_ptr(t) as usize;
        let text = cut(&t.text, READ_BYTES);
        let whole = self.of(t);
        Arc::clone(self.finer.entry(key).or_insert_with(|| {
            let mut all: Vec<Statement> = whole.as_ref().clone();
            all.extend(claims::parts(text));
            Arc::new(all)
        }))
    }
}

/// The longest prefix of `s` of at most `max` bytes ending on a char boundary.
pub(super) fn cut(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// One cited message of `text`, read into statements and parts as `statements::check` reads
/// it: what the sentence judges' unit tests cite.
#[cfg(test)]
pub(super) fn cited_for_test(text: &str) -> Vec<(Arc<CitedText>, Arc<Vec<claims::Statement>>)> {
    let t = CitedText { loc: "s.jsonl:3".into(), text: text.into(), ..Default::default() };
    let mut all = claims::statements(text);
    all.extend(claims::parts(text));
    vec![(Arc::new(t), Arc::new(all))]
}
