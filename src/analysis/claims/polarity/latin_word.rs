//! A Latin word as a statement reads it: a negation, its stem, the antonym pole its form
//! says, whether it is a content word; remembered per thread.

use super::super::binding::stem;
use super::super::closed;
use super::super::negations::{EN_NEGATIONS, NEGATES_BEFORE};
use super::latin_parts::is_word_part;
use super::poles::pole_of;
use crate::base::fnv::Fnv;
use std::collections::HashMap;
use std::rc::Rc;

/// Negations that bear on the words after them (`not`, `no`, `never`, `refuses to`).
fn negates_after(word: &str) -> bool {
    EN_NEGATIONS.contains(&word) && !NEGATES_BEFORE.contains(&word) || word.ends_with("n't")
}

/// What a Latin word (lowercase) is to a statement.
#[derive(Clone)]
pub(super) struct LatinWord {
    /// A negation (`not`, `gone`).
    pub(super) negation: bool,
    /// Its stem.
    pub(super) stem: String,
    /// The antonym pair and side it says, if any.
    pub(super) pole: Option<(usize, bool)>,
    /// A content word: no closed-class word, and no number (a value, judged as a claim,
    /// not what a sentence is about).
    pub(super) content: bool,
}

/// How many words [`LatinWord::read`] remembers per thread before it starts over.
const WORD_MEMO: usize = 1 << 16;

impl LatinWord {
    /// `word` read, remembered per thread: texts repeat their words, and reading them was
    /// most of the time spent on a long note's sentences.
    pub(super) fn read(word: &str) -> Rc<LatinWord> {
        // Numbers are many and each read once or twice: not worth a place in the memo
        // (20,000 hunks of `keep 1`…`keep 20000` grew it by megabytes).
        if word.starts_with(|c: char| c.is_ascii_digit()) {
            return Rc::new(LatinWord::new(word));
        }
        thread_local! {
            static READ: std::cell::RefCell<HashMap<String, Rc<LatinWord>, Fnv>> = Default::default();
        }
        READ.with_borrow_mut(|memo| {
            if let Some(known) = memo.get(word) {
                return Rc::clone(known);
            }
            if memo.len() >= WORD_MEMO {
                memo.clear();
            }
            let read = Rc::new(LatinWord::new(word));
            memo.insert(word.to_string(), Rc::clone(&read));
            read
        })
    }

    fn new(word: &str) -> LatinWord {
        let negation = NEGATES_BEFORE.contains(&word) || negates_after(word);
        if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
            // What the general reading below makes of it, the lookups it repeats left out: a
            // number is its own stem and no content word.
            return LatinWord { negation, stem: word.to_string(), pole: pole_of(word), content: false };
        }
        let stem = stem(word);
        let pole = pole_of(&stem).or_else(|| pole_of(word));
        let number = stem.chars().count() < 2 || stem.chars().all(|c| c.is_ascii_digit());
        let content = !closed::english(word) && !number;
        LatinWord { negation, stem, pole, content }
    }
}

/// The Latin words of a lowercase text (apostrophes kept inside: `don't`).
pub(super) fn latin_words(lower: &str) -> impl Iterator<Item = &str> {
    lower.split(|c: char| !is_word_part(c)).map(|w| w.trim_matches(['\'', '’'])).filter(|w| !w.is_empty())
}
