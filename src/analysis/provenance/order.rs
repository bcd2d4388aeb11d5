//! Steps put in another order: the note lists steps in a sequence (`stop API → run migrations
//! → restore dump`, `first A, then B`, `まずA、その後B`, `A 다음에 B`, `先A然后B`) that a cited
//! message gives the other way round (`stop the API, restore the dump, run migrations`,
//! `SRCREV を上げてから cleansstate`).
//!
//! Each step of the note line is found in a cited message by its words (two shared), at the
//! latest of the places the message first says each. A message that holds every step gives their order in its text, unless a word
//! between two steps turns it round (`after`, `before`, `once`; 前に, 전에, 之前). When no
//! cited message gives the note's order and one gives another, the line is `contradicted`,
//! quoting that message's stretch from the first step to the last.

use super::cited_text::CitedText;
use super::sentence_verdict::{Verdict, statement_verdict};
use crate::analysis::claims::{self, Statement};
use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;
use std::sync::Arc;

/// What separates two steps in order (lowercase).
const THEN: &[&str] = &[
    "→",
    "->",
    "=>",
    "⇒",
    ", then ",
    "; then ",
    " then ",
    ", and then ",
    ", after that ",
    "その後",
    "てから",
    "次に",
    "그 다음",
    "다음에",
    "하고 나서",
    "후에",
    "然后",
    "之后",
    "随后",
];

const ARROWS: &[&str] = &["→", "->", "=>", "⇒"];

/// True when the arrow at `from..to` of `text` stands between two values: a digit in the
/// word on either side (`512Mi → 1Gi`, `v1 -> v2`).
fn beside_value(text: &str, from: usize, to: usize) -> bool {
    let before = text[..from].trim_end().rsplit(char::is_whitespace).next().unwrap_or("");
    let after = text[to..].trim_start().split(char::is_whitespace).next().unwrap_or("");
    before.chars().any(|c| c.is_ascii_digit()) || after.chars().any(|c| c.is_ascii_digit())
}

/// Words that, between two steps, say the later-written one comes first (lowercase; Latin
/// ones as whole words).
const TURNED: &[&str] = &["after", "before", "once", "first", "前に", "まえに", "전에", "之前", "以前", "先"];

/// The `contradicted` flag of a note line whose steps a cited message orders otherwise.
pub(super) fn judge(line: &str, cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)]) -> Option<(Flag, ClaimReport)> {
    let steps = steps(line)?;
    let mut against = None;
    for (t, _) in cited {
        let lower = t.text.to_lowercase();
        let Some(places) = steps.iter().map(|s| place(s, &lower)).collect::<Option<Vec<usize>>>() else { continue };
        let inverted = places.windows(2).position(|w| w[0] > w[1]);
        match inverted {
            None if places.windows(2).all(|w| w[0] < w[1]) => return None,
            Some(i) if !turned(&lower, places[i + 1], places[i]) => {
                against.get_or_insert((t, places.clone()));
            }
            _ => {}
        }
    }
    let (t, places) = against?;
    let (from, to) = (*places.iter().min()?, *places.iter().max()?);
    let to = t.text[to..].find(['\n', '.', '。']).map_or(t.text.len(), |e| to + e);
    let said = line.trim();
    let source = t.line_at(from);
    let quote = crate::base::text::one_line_cut(&mask(t.text.get(from..to).unwrap_or("").trim()), 200);
    let shown = mask(said).into_owned();
    let message = format!("the note puts its steps in another order than {source}: «{quote}»");
    let v = Verdict { status: ClaimStatus::Contradicted, source, quote, by: None };
    Some(statement_verdict(FlagKind::Contradicted, message, line, shown, v))
}

/// The words a step is found by: its Latin words of three letters or more that are no
/// closed-class word (their first five letters: `migrations` is found as `migra`), and its
/// pairs of CJK characters.
type Step = Vec<String>;

fn words(text: &str) -> Step {
    let mut out: Step = text
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-')) || crate::base::text::is_cjk(c))
        .filter(|w| w.chars().count() >= 3 && w.is_ascii() && !claims::closed_class(w))
        .map(|w| w.chars().take(5).collect())
        .collect();
    let cjk: Vec<char> = text.chars().filter(|c| crate::base::text::is_cjk(*c)).collect();
    out.extend(cjk.windows(2).map(|w| w.iter().collect::<String>()));
    out.dedup();
    out
}

/// The steps of a note line in its order (two or more, each saying something), when it
/// lists them with a word or arrow of sequence.
fn steps(line: &str) -> Option<Vec<Step>> {
    let lower = line.to_lowercase();
    let mut cuts = vec![0];
    let mut i = 0;
    let mut worded = false;
    while i < lower.len() {
        match THEN.iter().find(|m| lower[i..].starts_with(*m)) {
            // An arrow between two values is a change (`512Mi → 1Gi`), no sequence.
            Some(m) if ARROWS.contains(m) && beside_value(&lower, i, i + m.len()) => i += m.len(),
            Some(m) => {
                worded |= !ARROWS.contains(m);
                cuts.push(i);
                cuts.push(i + m.len());
                i += m.len();
            }
            None => i += lower[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    cuts.push(lower.len());
    let steps: Vec<Step> = cuts
        .chunks(2)
        .filter_map(|c| lower.get(c[0]..c[1]))
        .enumerate()
        .map(|(i, s)| {
            // The first step starts after a label (`Restore runbook: stop API`).
            let s = match i {
                0 => s.rsplit_once([':', '：']).map_or(s, |(_, rest)| rest),
                _ => s,
            };
            words(s)
        })
        .collect();
    // A step is an act and what it acts on (`run migrations`): a lone word after an arrow
    // is a value (`default renderer → Vulkan`), a long stretch no step.
    let acts = steps.iter().all(|s| (2..=12).contains(&s.len()));
    // Two things joined by an arrow alone are as often a change as a sequence (`old → new`).
    let listed = steps.len() >= 3 || worded;
    (steps.len() >= 2 && acts && listed).then_some(steps)
}

/// Where `text` (lowercase) says the step: the latest of the first places of its words (a
/// word two steps share, `API` of `stop API` and `start API`, does not pull the later one
/// back), when it says two of them.
fn place(step: &Step, text: &str) -> Option<usize> {
    let found: Vec<usize> = step
        .iter()
        .filter_map(|w| {
            let at = text.match_indices(w.as_str()).map(|(at, _)| at).find(|&at| {
                w.chars().next().is_some_and(crate::base::text::is_cjk)
                    || !text[..at].chars().next_back().is_some_and(char::is_alphanumeric)
            })?;
            Some(at)
        })
        .collect();
    (found.len() >= 2).then(|| found.iter().copied().max().unwrap_or(0))
}

/// True when a word between byte `a` and byte `b` of `text` turns the written order round.
fn turned(text: &str, a: usize, b: usize) -> bool {
    let between = text.get(a.min(b)..a.max(b)).unwrap_or("");
    TURNED.iter().any(|w| claims::has_phrase(between, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cited(texts: &[&str]) -> Vec<(Arc<CitedText>, Arc<Vec<Statement>>)> {
        texts
            .iter()
            .map(|text| {
                let t = CitedText { loc: "s.jsonl:3".into(), text: (*text).into(), ..Default::default() };
                (Arc::new(t), Arc::new(claims::statements(text)))
            })
            .collect()
    }

    #[test]
    fn steps_reordered_in_each_language() {
        let flagged = |note: &str, said: &[&str]| judge(note, &cited(said)).is_some();
        let recap = ["Staging is back. Order was: stop the API, restore the dump, run migrations, start the API. \
                      Migrations have to come after the restore."];
        assert!(flagged("- Restore runbook: stop API → run migrations → restore dump → start API.", &recap));
        assert!(!flagged("- Restore runbook: stop API → restore dump → run migrations → start API.", &recap));
        let ja =
            ["bbappend の SRCREV を 9be21d0 に上げてから bitbake -c cleansstate linux-custom、再ビルドも通りました。"];
        assert!(flagged("- 手順: まず bitbake -c cleansstate linux-custom、その後 bbappend の SRCREV を上げる。", &ja));
        assert!(!flagged("- 手順: まず bbappend の SRCREV を上げ、その後 bitbake -c cleansstate linux-custom。", &ja));
        // A word between them turns the written order round: no order to set against.
        let after = ["Run the migrations after the restore of the dump."];
        assert!(!flagged("- Restore the dump, then run the migrations.", &after));
        assert!(!flagged("- Run the migrations, then restore the dump.", &after));
        // A change of value is no sequence.
        let limit = ["limits: memory: 512Mi. Bump the limit to 1Gi, leave requests alone (256Mi)."];
        assert!(!flagged("- memory limit raised 512Mi → 1Gi after OOMKills; requests unchanged (256Mi).", &limit));
        let yocto =
            ["じゃあ手順は、先に bbappend で SRCREV を上げて、そのあとで bitbake -c cleansstate linux-custom、で。"];
        assert!(flagged(
            "- SRCREV 更新手順: まず bitbake -c cleansstate linux-custom、その後 bbappend の SRCREV を上げる。",
            &yocto
        ));
        let zh = ["先备份数据库，然后升级 schema。"];
        assert!(flagged("- 升级 schema，然后备份数据库。", &zh));
    }
}
