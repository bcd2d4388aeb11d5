//! The parts of a Latin sentence a negation bears on: `the suite takes 20 minutes | so
//! don't run it on every push`, `tests use Postgres | rather than SQLite`, `switched CI |
//! from GitHub Actions | to Buildkite`.

use super::super::text::is_cjk;

/// Words after `and` (or `but`…) that start a clause of its own: the negation of one
/// half does not reach the other (`the failure is intentional and must not be retried`),
/// where a list stays one (`don't touch the lockfile and the cache`).
const CLAUSE_STARTS: &[&str] = &[
    "must", "should", "is", "are", "was", "were", "will", "would", "can", "could", "does", "do", "did", "has", "have",
    "had", "it", "they", "we", "he", "she", "i", "you", "there", "this", "that", "may", "might", "shall", "nothing",
    "nobody", "none", "no",
];

/// Conjunctions that join two assertions.
const JOINERS: &[&str] = &["and", "but", "while", "whereas", "although", "though", "however", "yet", "so"];

/// Words that always open a clause of their own: a negation on one side of them does not
/// reach the other (`the suite takes 20 minutes so don't run it on every push`, `we moved
/// sessions to ETS because Redis wasn't worth it`).
const SUBORDINATORS: &[&str] = &[
    "so",
    "because",
    "since",
    "therefore",
    "otherwise",
    "unless",
    "if",
    "when",
    "whenever",
    "until",
    "whereas",
    "although",
    "though",
    "thus",
    "hence",
];

/// The parts of a lowercase text a negation bears on: cut at commas, colons, semicolons,
/// dashes and brackets, at a conjunction that starts a clause of its own, before a
/// subordinating word (`so`, `because`, `if`…), before `rather than` / `instead of`, and
/// around what a move leaves (`switched CI | from GitHub Actions | to Buildkite`).
pub(super) fn latin_parts<'a>(lower: &'a str) -> Vec<LatinPart<'a>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev_joiner: Option<usize> = None;
    let mut word_start: Option<usize> = None;
    // A verb of moving seen in this part (`switched CI`), and then `from` (what it left).
    let mut moving = false;
    let mut leaving = false;
    let cut = |out: &mut Vec<LatinPart<'a>>, at: usize, start: &mut usize, left: bool| {
        out.push(LatinPart { text: &lower[*start..at], left });
        *start = at;
    };
    let bytes: Vec<(usize, char)> = lower.char_indices().collect();
    for (k, &(i, c)) in bytes.iter().enumerate() {
        if is_word_part(c) {
            word_start.get_or_insert(i);
            let end = bytes.get(k + 1).map_or(lower.len(), |&(e, _)| e);
            let next_is_word = bytes.get(k + 1).is_some_and(|&(_, n)| is_word_part(n));
            if !next_is_word {
                let ws = word_start.take().unwrap_or(i);
                let word = &lower[ws..end];
                let contrast = matches!(word, "rather" | "instead")
                    && lower[end..].trim_start().starts_with(if word == "rather" { "than" } else { "of" });
                if let Some(j) = prev_joiner.take()
                    && CLAUSE_STARTS.contains(&word)
                {
                    cut(&mut out, j, &mut start, leaving);
                    (moving, leaving) = (false, false);
                } else if (SUBORDINATORS.contains(&word) || contrast) && ws > start {
                    cut(&mut out, ws, &mut start, leaving);
                    (moving, leaving) = (false, false);
                } else if moving && word == "from" {
                    cut(&mut out, ws, &mut start, false);
                    (moving, leaving) = (false, true);
                } else if leaving && matches!(word, "to" | "into" | "for") {
                    cut(&mut out, ws, &mut start, true);
                    leaving = false;
                }
                moving |= MOVES.contains(&word);
                if JOINERS.contains(&word) {
                    prev_joiner = Some(ws);
                }
            }
            continue;
        }
        let dash = c == '-' && lower[..i].ends_with(' ') && lower[i + 1..].starts_with(' ');
        if matches!(c, ',' | ':' | ';' | '(' | ')' | '—' | '–') || dash {
            cut(&mut out, i, &mut start, leaving);
            start = i + c.len_utf8();
            (moving, leaving) = (false, false);
            prev_joiner = None;
        }
    }
    cut(&mut out, lower.len(), &mut start, leaving);
    out.retain(|p| !p.text.trim().is_empty());
    out
}

/// A part of a lowercase text (see [`latin_parts`]).
pub(super) struct LatinPart<'a> {
    pub(super) text: &'a str,
    /// It is what a move left (`from GitHub Actions` in `switched CI from GitHub Actions to
    /// Buildkite`): it denies its words.
    pub(super) left: bool,
}

/// Verbs of moving from one thing to another: what follows their `from` is left behind.
const MOVES: &[&str] = &[
    "switch",
    "switched",
    "switching",
    "move",
    "moved",
    "moving",
    "migrate",
    "migrated",
    "migrating",
    "change",
    "changed",
    "went",
    "transitioned",
    "ported",
];

/// True for a character of a Latin word: a letter or digit outside CJK, `_`, an apostrophe.
pub(super) fn is_word_part(c: char) -> bool {
    (c.is_alphanumeric() && !is_cjk(c)) || matches!(c, '\'' | '’' | '_')
}
