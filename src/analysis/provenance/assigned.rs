//! Values bound to the wrong record. A setting: the note writes a key with a value (`DEBUG = True`)
//! where every cited line that sets the same key gives it another (`DEBUG = False` in the
//! file read; a refused edit sets nothing, though what it would have replaced stands), or a
//! later cited edit replaced the note's value with another (`BATCH_SIZE =
//! 500` edited to `BATCH_SIZE = 200`) and nothing after it set it back. The line is `contradicted`, quoting the cited setting. A key the cited lines
//! set to the note's value anywhere (a file with two sections that both set
//! `timeout_secs`) is not judged; one they never set is left to the claims.
//!
//! A state (see `claims::states`): the note says a thing it names (a claim: `PR #482`,
//! `api-7d9f`, `ledger::tests::vat_at`) is in a state (`merged`) where every cited line
//! naming it gives another state of the same family (`#482 … OPEN`): a row of `gh pr
//! list`, `kubectl get pods`, a test run read as the note's. The line is `contradicted`,
//! quoting that line. Lines naming two things are not read (which one a state is of is
//! not known).

use super::cited_text::CitedText;
use super::sentence_verdict::{Verdict, statement_verdict};
use crate::analysis::claims::{self, Statement};
use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;
use std::sync::Arc;

/// The `contradicted` flag of a note line whose setting the cited lines give another value.
pub(super) fn judge(line: &str, cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)]) -> Option<(Flag, ClaimReport)> {
    let mine = claims::settings(line);
    if mine.is_empty() {
        return None;
    }
    // What a refused edit would have set is set nowhere; what it would have replaced stands.
    let theirs: Vec<(&CitedText, claims::Setting)> = cited
        .iter()
        .flat_map(|(t, _)| claims::settings(&t.text).into_iter().map(move |s| (t.as_ref(), s)))
        .filter(|(t, s)| t.overruled.is_none() || replaced_at(t).iter().any(|r| r.contains(&s.at)))
        .collect();
    for s in &mine {
        let same_key: Vec<&(&CitedText, claims::Setting)> =
            theirs.iter().filter(|(_, o)| o.key.eq_ignore_ascii_case(&s.key)).collect();
        if let Some((t, other)) = same_key.first()
            && same_key.iter().all(|(_, o)| o.value != s.value)
        {
            return Some(verdict(line, s, t, other));
        }
        if let Some((t, other)) = edited_away(s, cited) {
            return Some(verdict(line, s, t, &other));
        }
    }
    None
}

/// Where in the message's text stands what its edits replace (their `old_string`).
fn replaced_at(t: &CitedText) -> Vec<std::ops::Range<usize>> {
    t.replaced.iter().flat_map(|r| t.text.match_indices(r.as_str()).map(|(at, m)| at..at + m.len())).collect()
}

/// The last cited edit that replaced the note's setting (`BATCH_SIZE = 500` in its
/// `old_string`) with another value of the key, when no cited line after it sets the note's
/// value again: what the note says no longer holds.
fn edited_away<'a>(
    mine: &claims::Setting,
    cited: &'a [(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<(&'a CitedText, claims::Setting)> {
    let same = |o: &claims::Setting| o.key.eq_ignore_ascii_case(&mine.key);
    let mut away = None;
    for (t, _) in cited {
        let t = t.as_ref();
        let replaced = replaced_at(t);
        let was = |o: &claims::Setting| replaced.iter().any(|r| r.contains(&o.at));
        let sets = claims::settings(&t.text);
        let old = sets.iter().any(|o| same(o) && was(o) && o.value == mine.value);
        let new = sets.iter().find(|o| same(o) && !was(o) && o.value != mine.value);
        match new {
            Some(n) if old && t.overruled.is_none() => away = Some((t, n.clone())),
            _ if sets.iter().any(|o| same(o) && !was(o) && o.value == mine.value) => away = None,
            _ => {}
        }
    }
    away
}

/// The `contradicted` flag of a note line that gives a thing it names (one of `sourced`)
/// another state than every cited line naming it.
pub(super) fn judge_state(
    line: &str,
    sourced: &[&claims::Claim],
    cited: &[(Arc<CitedText>, Arc<Vec<Statement>>)],
) -> Option<(Flag, ClaimReport)> {
    for part in line.split([';', '；', '。']) {
        let lower = part.to_lowercase();
        let said = claims::states(&lower);
        let named: Vec<&&claims::Claim> = sourced.iter().filter(|c| part.contains(c.text.as_str())).collect();
        // One thing in one state: which state is whose is otherwise not known.
        let ([(family, state)], [c]) = (said.as_slice(), named.as_slice()) else { continue };
        let mut other = None;
        for (t, _) in cited {
            let mut at = 0;
            for row in t.text.split_inclusive('\n') {
                let start = at;
                at += row.len();
                let row_lower = row.to_lowercase();
                if !claims::occurs_in(c, row) {
                    continue;
                }
                let theirs = claims::states(&row_lower);
                let of_family: Vec<_> = theirs.iter().filter(|(f, _)| f == family).collect();
                if of_family.iter().any(|(_, s)| s == state) {
                    return None;
                }
                if of_family.len() == 1 && other.is_none() {
                    other = Some((t.as_ref(), start, row.trim().to_string()));
                }
            }
        }
        if let Some((t, start, row)) = other {
            let source = t.line_at(start);
            let quote = crate::base::text::one_line_cut(&mask(&row), 200);
            let shown = mask(part.trim()).into_owned();
            let message =
                format!("the note says «{shown}», but {source}, about {}, says otherwise: «{quote}»", mask(&c.text));
            let v = Verdict { status: ClaimStatus::Contradicted, source, quote, by: None };
            return Some(statement_verdict(FlagKind::Contradicted, message, line, shown, v));
        }
    }
    None
}

fn verdict(line: &str, mine: &claims::Setting, t: &CitedText, other: &claims::Setting) -> (Flag, ClaimReport) {
    let source = t.line_at(other.at);
    let start = t.text[..other.at].rfind('\n').map_or(0, |i| i + 1);
    let end = t.text[other.at..].find('\n').map_or(t.text.len(), |i| other.at + i);
    let quote = crate::base::text::one_line_cut(&mask(t.text[start..end].trim()), 200);
    let shown = mask(line.trim()).into_owned();
    let message = format!(
        "the note sets «{}» to «{}», but {source} sets it to «{}»: «{quote}»",
        mine.key,
        mask(&mine.value),
        mask(&other.value)
    );
    let v = Verdict { status: ClaimStatus::Contradicted, source, quote, by: None };
    statement_verdict(FlagKind::Contradicted, message, line, shown, v)
}
