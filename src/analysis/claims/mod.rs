//! Claims: the checkable facts (dates, numbers, versions, code, paths, URLs, names) in a line.
//!
//! [`extract`] finds the claims of one note line; [`needles`] gives the strings a source
//! line must contain to possibly state a claim (for a fast multi-pattern pre-filter), and
//! [`occurs_in`] decides whether a source text states it ([`Corpus`]: the same for many
//! claims against a few long texts, in linear time). [`relative_phrases`] finds "last
//! week", "昨日", "지난주"… in a source line so that an absolute date nobody stated can be
//! traced to the phrase it was probably derived from ([`overlaps`]).
//!
//! Precision comes first: a clean, well-sourced dream must produce no flag, so only what a
//! reviewer would call a checkable fact becomes a claim. Plain lowercase words never do
//! (in "moved from npm to pnpm", neither `npm` nor `pnpm` is a claim; in backticks they are).

mod assignment;
mod binding;
mod bound;
pub mod claim;
mod clause;
mod clock;
mod closed;
mod conversion;
mod corpus;
mod dates;
mod derived;
mod directive;
mod edits;
mod endpoints;
mod extract;
mod flags;
mod ids;
pub mod instants;
mod keys;
mod lasting;
mod matching;
mod memo;
mod names;
mod negations;
mod numbers;
mod occurs;
mod paths;
mod polarity;
mod qualifier;
mod rates;
mod relation;
mod relative;
mod status;
mod stems;
mod text;
pub use text::bracketed;
mod totals;
mod versions;
mod weekday;
mod words;
mod written;

pub use assignment::{Setting, settings};
pub use binding::Label;
pub use bound::{another_value, contradiction};
pub use claim::{Claim, ClaimKind, ClaimValue, Subject};
pub(crate) use closed::english as closed_english;
pub use corpus::{Ask, Corpus};
pub use dates::{DateSpec, MonthPart};
pub(crate) use dates::{ordinal_dates, ordinal_days};
pub use derived::operands;
pub use directive::{Mood, addresses_agent, directive, hedged, mood};
pub use edits::replaced_word;
pub use extract::extract;
pub use ids::commit_ids;
pub use keys::keys_of;
pub use lasting::{lasting, lasting_instruction, marker_stems, may_hold_lasting_marker, phrased_as_rule};
pub use matching::{Haystack, covers, date_stated_by, needles, occurs_in, overlaps};
pub use memo::memoized;
pub use numbers::{amounts, counts_in_digits};
pub use polarity::{
    Opposite, Statement, Word, calm, clauses, content_stems, each_content_stem, negated, parts, rule_phrasing,
    shares_content, statement_of, statements,
};
pub use qualifier::{Qualifier, qualifier_of, qualifiers_in};
pub use rates::{rate_of, rates_in};
pub use relation::relation;
pub use relative::{Relative, RelativeKind, relative_needles, relative_phrases};
pub use status::{Undone, decided, done, planned, states, tentative, undone};
pub use totals::total_stated;
pub use weekday::{WrongWeekday, wrong_weekday};

/// True when the lowercase `text` holds `phrase` (Latin as whole words, CJK anywhere).
pub fn has_phrase(text: &str, phrase: &str) -> bool {
    text::has_phrase(text, phrase)
}

/// True when the lowercase English word is closed-class (a preposition, conjunction,
/// determiner, pronoun, auxiliary or quantity adverb): it says nothing about what a text
/// is about, and is never a number's unit.
pub fn closed_class(word: &str) -> bool {
    closed::english(word)
}
