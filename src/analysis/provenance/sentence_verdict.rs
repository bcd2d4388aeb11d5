//! A note sentence's verdict: what a source says of a sentence it does not support, turned
//! into the flag on the note line and the `statement` claim report `check --json` carries.
//! Shared by the sentence judges (`statements`, `flipped`).

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
