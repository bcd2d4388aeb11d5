//! A note sentence's verdict: what a source says of a sentence it does not support, turned
//! into the flag on the note line and the `statement` claim report `check --json` carries.
//! Shared by the sentence judges (`statements`, `flipped`, `planned`, `leaning`, `scope`).

use super::cited_text::CitedText;
use crate::analysis::claims::Statement;
use crate::analysis::findings::{ClaimReport, ClaimStatus};
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets::mask;

/// What a source says of a note sentence it does not support.
pub(super) struct Verdict {
    pub(super) status: ClaimStatus,
    pub(super) source: String,
    pub(super) quote: String,
    pub(super) by: Option<String>,
}

/// The flag on the note line and the `statement` claim report of one sentence's verdict.
pub(super) fn statement_verdict(
    kind: FlagKind,
    message: String,
    line: &str,
    shown: String,
    v: Verdict,
) -> (Flag, ClaimReport) {
    let flag = Flag::new(kind, message)
        .with_source(v.source.clone())
        .with_claim(shown.clone())
        .with_line(mask(line).into_owned());
    let report = ClaimReport {
        text: shown,
        kind: "statement".into(),
        status: v.status,
        source: Some(v.source),
        quote: Some(v.quote),
        by: v.by,
        speaker: None,
    };
    (flag, report)
}

/// What a cited clause says, masked, on one line of at most 200 characters.
pub(super) fn clause_quote(t: &CitedText, c: &Statement) -> String {
    crate::base::text::one_line_cut(&mask(t.text.get(c.range.clone()).unwrap_or("").trim()), 200)
}

/// The verdict of note sentence `said` (of `line`) against the cited clause `c` of `t`,
/// which it quotes; `message` gets the sentence as shown, the clause's line and the quote.
pub(super) fn quoted(
    (kind, status): (FlagKind, ClaimStatus),
    (line, said): (&str, &str),
    (t, c): (&CitedText, &Statement),
    message: impl Fn(&str, &str, &str) -> String,
) -> (Flag, ClaimReport) {
    let source = t.line_at(c.range.start);
    let quote = clause_quote(t, c);
    let shown = mask(said).into_owned();
    let message = message(&shown, &source, &quote);
    statement_verdict(kind, message, line, shown, Verdict { status, source, quote, by: None })
}
