//! A setting bound to the wrong value: the note writes a key with a value (`DEBUG = True`)
//! where every cited line that sets the same key gives it another (`DEBUG = False` in the
//! file read). The line is `contradicted`, quoting the cited setting. A key the cited lines
//! set to the note's value anywhere (a file with two sections that both set
//! `timeout_secs`) is not judged; one they never set is left to the claims.

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
    let theirs: Vec<(&CitedText, claims::Setting)> =
        cited.iter().flat_map(|(t, _)| claims::settings(&t.text).into_iter().map(move |s| (t.as_ref(), s))).collect();
    for s in &mine {
        let same_key: Vec<&(&CitedText, claims::Setting)> =
            theirs.iter().filter(|(_, o)| o.key.eq_ignore_ascii_case(&s.key)).collect();
        if let Some((t, other)) = same_key.first()
            && same_key.iter().all(|(_, o)| o.value != s.value)
        {
            return Some(verdict(line, s, t, other));
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
