//! The headless view of a review: the `check --json` object and its readable text
//! form. Field names are stable; new fields may be added: each is documented in
//! `docs/check-json.md`, whose example `tests/docs_examples.rs` checks.

use crate::analysis::Analysis;
use crate::analysis::findings::RuleSupport;
use crate::analysis::flag::{Flag, FlagKind};
use crate::analysis::result::{ChangeReport, ContextLine, said_by};
use crate::analysis::review_audit::{AuditReport, IndexReport};
use crate::analysis::standing::{Summary, summary};
use crate::base::secrets;
use crate::base::text::{strip_terminator, visible_name};
use crate::model::decision::HunkState;
use crate::model::diff::FileKind;
use crate::model::diff::masked::{masked_lines, shown_lines};
use crate::model::ids::{EntryId, HunkId};
use crate::model::review::Review;
use crate::store::repo::journal::{self, Interrupted};
use crate::store::repo::lock;
use rayon::prelude::*;
use serde::Serialize;

/// The report; `H` is each file's `hunks` ([`HunksMark`] until they are rendered).
#[derive(Serialize)]
struct Json<'a, H> {
    dream: DreamJson,
    memory: MemoryJson<'a>,
    time_zone: ZoneJson,
    files: Vec<FileJson<'a, H>>,
    changes: &'a [ChangeReport],
    audit: &'a AuditReport,
    summary: Summary,
    notes: Vec<String>,
    interrupted: Option<&'a Interruption>,
    left_out: &'a [crate::analysis::provenance::leftout::LeftOut],
}

/// The time zone transcript timestamps were read in (see [`crate::base::zone`]).
#[derive(Serialize)]
struct ZoneJson {
    /// `Asia/Tokyo`, `+09:00`, `UTC`.
    name: String,
    /// `flag` (--tz), `machine` (TZ, /etc/localtime), `commits` (the memory repository's
    /// recent commit offset) or `unknown` (UTC, each transcript day ±1).
    source: crate::base::zone::ZoneSource,
    /// Days of doubt about a transcript line's day: 1 when the zone is unknown, else 0.
    slack_days: i64,
    /// The line `check` prints.
    description: String,
}

#[derive(Serialize)]
struct DreamJson {
    path: Option<String>,
    kind: crate::inputs::dream::DreamKind,
    id: String,
}

#[derive(Serialize)]
struct MemoryJson<'a> {
    path: String,
    repo: Option<String>,
    /// `--memory`, `memory.diff` or `current dir`.
    found_by: &'static str,
    /// Why `apply` may write there (`named`, `claude-memory`, `reviewed`), or `suggested`:
    /// only memory.diff names it, and `apply` refuses it.
    trust: crate::inputs::target::Trust,
    /// Whether `apply` and the TUI's commit write there.
    writable: bool,
    /// Why not, with the fix (`None` when writable).
    refusal: Option<String>,
    /// Signs that the folder is not a memory folder, each `{"kind", "detail"?}`.
    warnings: &'a [crate::inputs::target::Warning],
}

#[derive(Serialize)]
struct FileJson<'a, H> {
    path: &'a str,
    status: crate::model::diff::FileStatus,
    kind: FileKind,
    flags: &'a [Flag],
    hunks: H,
}

#[derive(Serialize)]
struct HunkJson<'a> {
    id: &'a str,
    old_start: usize,
    old_lines: usize,
    new_start: usize,
    new_lines: usize,
    whole_file: bool,
    live_changed: bool,
    decision: HunkState,
    lines: Vec<LineJson>,
    changes: &'a [EntryId],
    flags: Vec<&'a Flag>,
    claims: &'a [crate::analysis::findings::ClaimReport],
    rules: Vec<RuleJson<'a>>,
}

/// A hunk's line as `check --json` writes it: its op and its text masked (already masked
/// here, on both cores; the writer does not search a settled text again).
#[derive(Serialize)]
struct LineJson {
    op: crate::model::diff::Op,
    text: secrets::Shown,
}

/// How often the user said a standing rule of the hunk (see [`RuleSupport`]).
#[derive(Serialize)]
struct RuleJson<'a> {
    #[serde(flatten)]
    support: &'a RuleSupport,
    /// `said once, in one session`, `said in 3 sessions over 2 days`…
    phrase: String,
}

/// A write of the memory repository that a process began and did not finish (or is
/// finishing right now), as `check` reports it: text and the `interrupted` JSON object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Interruption {
    /// What the journal says and how far the write got.
    #[serde(flatten)]
    pub found: Interrupted,
    /// True when a dreamreview holds the repository's lock now: the write is still going
    /// on, not interrupted.
    pub writing_now: bool,
    /// What happened and what the next `apply` does about it, in sentences.
    pub message: String,
}

impl Interruption {
    /// Looks for an unfinished write in the repository of the memory folder `memory`,
    /// changing nothing (no lock taken, no file created).
    pub fn find(memory: &std::path::Path) -> anyhow::Result<Option<Interruption>> {
        let Some(repo) = crate::store::repo::MemoryRepo::discover(memory)? else { return Ok(None) };
        let Some(found) = journal::pending(&repo)? else { return Ok(None) };
        let holder = lock::holder(&repo)?;
        let message = match &holder {
            Some(h) => format!(
                "{} is writing the notes now ({}, holding {}); run check again when it has finished",
                found.writer.as_ref().map(|w| w.describe()).unwrap_or_else(|| "a dreamreview".into()),
                h.describe(),
                lock::lock_path(&repo).display()
            ),
            None => found.describe(),
        };
        Ok(Some(Interruption { found, writing_now: holder.is_some(), message }))
    }
}

/// The `check --json` object, pretty-printed, as a string (see [`write_json`]).
pub fn to_json(review: &Review, analysis: &Analysis, interrupted: Option<&Interruption>) -> String {
    let mut out = Vec::new();
    match write_json(&mut out, review, analysis, interrupted) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(e) => format!("{{\"error\": \"{e}\"}}"),
    }
}

/// Writes the `check --json` object, pretty-printed, to `out`, every string in it masked
/// ([`secrets::Masked`]): paths and hunk ids too, since a file may be named after a secret
/// (`apply --accept` takes a hunk id as shown, see [`Review::find_hunk`]). The hunks, most
/// of a large report, are rendered on both cores a chunk at a time and written as they
/// come, so memory does not grow with their number; the rest is rendered first, with a
/// mark where each file's hunks go ([`HUNKS_MARK`]).
pub fn write_json(
    mut out: impl std::io::Write,
    review: &Review,
    analysis: &Analysis,
    interrupted: Option<&Interruption>,
) -> serde_json::Result<()> {
    let json = document(review, analysis, interrupted, |_| HunksMark);
    let mut doc = Vec::new();
    crate::base::shown::json(&mut doc, &json)?;
    // Each file's mark, in order: only a file's `hunks` is a number that large (a string
    // cannot hold the mark: its quotes are escaped there).
    let mut rest = doc.as_slice();
    for fi in 0..review.files.len() {
        let Some(at) = memchr::memmem::find(rest, HUNKS_MARK) else {
            return Err(serde::ser::Error::custom("the report lost the place of a file's hunks"));
        };
        let key_end = at + HUNKS_MARK.len() - HUNKS_MARK_VALUE.len();
        // The file's keys are indented as its line is: its hunks one level more.
        let line = rest[..at].iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
        let indent = rest[line..at].iter().take_while(|&&b| b == b' ').count();
        out.write_all(&rest[..key_end]).map_err(serde_json::Error::io)?;
        write_hunks(&mut out, review, analysis, fi, indent)?;
        rest = &rest[at + HUNKS_MARK.len()..];
    }
    out.write_all(rest).map_err(serde_json::Error::io)
}

/// The report, each file's `hunks` as `hunks` gives it for the file's index.
fn document<'a, H>(
    review: &'a Review,
    analysis: &'a Analysis,
    interrupted: Option<&'a Interruption>,
    hunks: impl Fn(usize) -> H,
) -> Json<'a, H> {
    let repo = crate::store::repo::MemoryRepo::discover(&review.inputs.memory)
        .ok()
        .flatten()
        .map(|r| r.workdir().display().to_string());
    let files = review
        .files
        .iter()
        .enumerate()
        .map(|(fi, f)| FileJson {
            path: &f.path,
            status: f.status,
            kind: f.kind,
            flags: analysis.findings.file(fi),
            hunks: hunks(fi),
        })
        .collect();
    Json {
        dream: DreamJson {
            path: review.inputs.dream.as_ref().map(|p| p.display().to_string()),
            kind: review.inputs.kind,
            id: review.dream_id.clone(),
        },
        memory: MemoryJson {
            path: review.inputs.memory.display().to_string(),
            repo,
            found_by: review.target.origin.label(),
            trust: review.target.trust,
            writable: review.target.trust.writable(),
            refusal: review.target.refusal(),
            warnings: &review.target.warnings,
        },
        time_zone: ZoneJson {
            name: review.zone.name().to_string(),
            source: review.zone.source(),
            slack_days: review.zone.slack(),
            description: review.zone.describe(),
        },
        files,
        changes: &analysis.changes,
        audit: &analysis.audit,
        summary: summary(review, analysis),
        notes: review.notices.iter().chain(&analysis.notices).cloned().collect(),
        interrupted,
        left_out: &analysis.left_out,
    }
}

/// What a file's `hunks` is rendered as until its hunks replace it: a number no file's
/// `hunks` (an array) is, and that the summary's count of hunks never reaches.
const HUNKS_MARK_VALUE: &[u8] = b"18446744073709551615";
const HUNKS_MARK: &[u8] = b"\"hunks\": 18446744073709551615";

/// A file's hunks before they are rendered: [`HUNKS_MARK_VALUE`].
struct HunksMark;

impl Serialize for HunksMark {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::MAX)
    }
}

/// Hunks rendered at a time (on both cores), then written.
const HUNK_CHUNK: usize = 2048;

/// File `fi`'s hunks as the array a pretty [`crate::base::shown::json`] of the whole
/// report writes where its keys are indented by `indent` spaces: each hunk rendered alone,
/// its lines indented to their depth (a JSON string holds no line break, so every one is
/// the printer's), each line of each hunk masked on both cores.
fn write_hunks(
    out: &mut impl std::io::Write,
    review: &Review,
    analysis: &Analysis,
    fi: usize,
    indent: usize,
) -> serde_json::Result<()> {
    let Some(f) = review.files.get(fi) else { return Ok(()) };
    if f.hunks.is_empty() {
        return out.write_all(b"[]").map_err(serde_json::Error::io);
    }
    let inner = format!("\n{}", " ".repeat(indent + 2));
    out.write_all(b"[").map_err(serde_json::Error::io)?;
    for (c, chunk) in f.hunks.chunks(HUNK_CHUNK).enumerate() {
        let rendered: Vec<serde_json::Result<Vec<u8>>> = chunk
            .par_iter()
            .enumerate()
            .map(|(k, h)| {
                let hi = c * HUNK_CHUNK + k;
                let mut alone = Vec::new();
                crate::base::shown::json(&mut alone, &hunk_json(review, analysis, HunkId::new(fi, hi), h))?;
                let mut indented = Vec::with_capacity(alone.len() + alone.len() / 8);
                // As the printer begins an array's value: `\n` before the first, `,\n` after.
                if hi > 0 {
                    indented.push(b',');
                }
                indented.extend_from_slice(inner.as_bytes());
                for piece in alone.split_inclusive(|&b| b == b'\n') {
                    indented.extend_from_slice(piece);
                    if piece.ends_with(b"\n") {
                        indented.extend_from_slice(&inner.as_bytes()[1..]);
                    }
                }
                Ok(indented)
            })
            .collect();
        for r in rendered {
            out.write_all(&r?).map_err(serde_json::Error::io)?;
        }
    }
    write!(out, "\n{}]", " ".repeat(indent)).map_err(serde_json::Error::io)
}

/// Hunk `at` (`h`) as `check --json` writes it.
fn hunk_json<'a>(
    review: &'a Review,
    analysis: &'a Analysis,
    at: HunkId,
    h: &'a crate::model::diff::Hunk,
) -> HunkJson<'a> {
    HunkJson {
        id: &h.id,
        old_start: h.old_start(),
        old_lines: h.old_range.len(),
        new_start: h.new_start(),
        new_lines: h.new_range.len(),
        whole_file: h.whole_file,
        live_changed: h.live_changed,
        decision: review.decision(at).map_or(HunkState::Pending, |d| d.state()),
        lines: h.lines.iter().zip(shown_lines(h)).map(|(l, text)| LineJson { op: l.op, text }).collect(),
        changes: analysis.findings.changes(at),
        flags: analysis.hunk_flags(at).collect(),
        claims: analysis.findings.claims(at),
        rules: analysis
            .findings
            .of(at)
            .map(|h| h.rules.iter().map(|r| RuleJson { support: r, phrase: r.phrase() }).collect())
            .unwrap_or_default(),
    }
}

/// The readable text form of `check`: a header, then per file and hunk its lines and flags,
/// then the CHANGES.md entries and the audit. Every credential is masked, file names
/// included, and control characters are shown, never sent (see
/// [`crate::base::text::visible_controls`]; a newline in a file name shows as `␊`).
pub fn to_text(review: &Review, analysis: &Analysis, interrupted: Option<&Interruption>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let i = &review.inputs;
    let dream =
        i.dream.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "(in-place: work tree vs HEAD)".into());
    let _ = writeln!(out, "dream   {dream} [{}]", kind_name(i.kind));
    let _ = writeln!(out, "memory  {} (from {})", i.memory.display(), review.target.origin.label());
    let _ = writeln!(out, "zone    {}", review.zone.describe());
    for w in &review.target.warnings {
        let _ = writeln!(out, "warning the memory folder may not be one: {w}");
    }
    if let Some(r) = review.target.refusal() {
        let _ = writeln!(out, "warning apply will not write there: {r}");
    }
    if let Some(x) = interrupted {
        let _ = writeln!(out, "interrupted: {}", x.message);
    }
    for n in review.notices.iter().chain(&analysis.notices) {
        let _ = writeln!(out, "note    {n}");
    }
    let s = summary(review, analysis);
    let _ = writeln!(
        out,
        "{} changed file{}, {} hunk{}, {} error{}, {} warning{}",
        s.files,
        plural(s.files),
        s.hunks,
        plural(s.hunks),
        s.flags.error,
        plural(s.flags.error),
        s.flags.warning,
        plural(s.flags.warning)
    );
    if s.flags.info > 0 {
        let _ = writeln!(
            out,
            "{} info flag{} (one-off rules: not errors, not warnings)",
            s.flags.info,
            plural(s.flags.info)
        );
    }
    for (fi, f) in review.files.iter().enumerate() {
        let status = f.status.name();
        let kind = match f.kind {
            FileKind::Text => String::new(),
            FileKind::Binary => " (binary)".into(),
            FileKind::Symlink => " (symlink)".into(),
            FileKind::Outside => " (outside the memory folder)".into(),
        };
        let _ = writeln!(out, "\n{status} {}{kind}", visible_name(&f.path));
        write_flags(&mut out, "  ", analysis.findings.file(fi));
        for (at, h) in review.hunks_of(fi).zip(&f.hunks) {
            let entries = analysis.findings.changes(at).to_vec();
            let cites = if entries.is_empty() {
                String::new()
            } else {
                let inline = entries.iter().all(|&e| analysis.entry(e).is_some_and(|c| c.note.is_some()));
                let what = if inline { "sources" } else { "CHANGES.md" };
                format!("  ({what} {})", entries.iter().map(|e| format!("#{e}")).collect::<Vec<_>>().join(", "))
            };
            if h.whole_file {
                let _ = writeln!(out, "  {}  whole file{cites}", visible_name(&h.id));
            } else {
                let _ = writeln!(
                    out,
                    "  {}  @@ -{},{} +{},{} @@{cites}",
                    visible_name(&h.id),
                    h.old_start(),
                    h.old_range.len(),
                    h.new_start(),
                    h.new_range.len()
                );
            }
            if h.live_changed {
                let _ = writeln!(out, "    ! live memory changed here after the dream: edit to merge");
            }
            for change in h.invisible_changes() {
                let _ = writeln!(out, "    ~ {change}: lines that look the same differ in it");
            }
            for (l, masked) in h.lines.iter().zip(masked_lines(h)) {
                let text = strip_terminator(&masked);
                let eol = if l.text.ends_with('\n') { "" } else { "  ⏎ no newline at end of file" };
                let _ = writeln!(out, "    {}{text}{eol}", l.op.marker());
            }
            let claims = analysis.findings.claims(at);
            if !claims.is_empty() {
                let list: Vec<String> = claims
                    .iter()
                    .map(|c| {
                        let mark = c.status.mark();
                        let by = c.by.as_deref().map(|b| format!(", overruled at {b}")).unwrap_or_default();
                        match &c.source {
                            Some(s) => format!("{mark} {} ({s}{by})", c.text),
                            None => format!("{mark} {}", c.text),
                        }
                    })
                    .collect();
                let _ = writeln!(out, "    claims: {}", list.join(" · "));
            }
            for r in analysis.findings.of(at).map(|h| h.rules.as_slice()).unwrap_or_default() {
                let at = if r.said.is_empty() { String::new() } else { format!(" ({})", r.said.join(", ")) };
                let _ = writeln!(out, "    rule: «{}» — {}{at}", r.line, r.phrase());
            }
            let flags: Vec<Flag> = analysis.hunk_flags(at).cloned().collect();
            write_flags(&mut out, "    ", &flags);
        }
    }
    if !analysis.changes.is_empty() {
        let inline = analysis.changes.iter().all(|c| c.note.is_some());
        let _ = writeln!(out, "\n{}", if inline { "inline sources" } else { "CHANGES.md" });
        for c in &analysis.changes {
            match &c.note {
                Some(n) => writeln!(out, "  #{} ({n} line {}) {}", c.index, c.line, c.text),
                None => writeln!(out, "  #{} (line {}) {}", c.index, c.line, c.text),
            }
            .ok();
            for cit in &c.citations {
                let state = if cit.resolved { "" } else { "  [unresolved]" };
                let who = said_by(cit.speaker.as_deref()).map(|s| format!(" · {s}")).unwrap_or_default();
                let _ = writeln!(out, "    ↳ {}{who}{state}", cit.location());
                if let Some(left) = cit.deleted_in_days {
                    let _ = writeln!(out, "      ⌛ {}", crate::inputs::retention::beside_citation(left));
                }
                // A cited range shows every cited line (message), each marked like the
                // evidence pane's; a single line shows its excerpt.
                let cited: Vec<&ContextLine> = cit.context.iter().filter(|cx| cx.cited).collect();
                if cit.end.is_some() && !cited.is_empty() {
                    for cx in cited {
                        let num =
                            if cx.last > cx.line { format!("{}-{}", cx.line, cx.last) } else { cx.line.to_string() };
                        let _ = writeln!(out, "      ▶ {num} {}", cx.text);
                    }
                } else if let Some(x) = &cit.excerpt {
                    let _ = writeln!(out, "      {x}");
                }
            }
            write_flags(&mut out, "    ", &c.flags);
        }
    }
    if !analysis.left_out.is_empty() {
        let _ = writeln!(out, "\nleft out");
        for l in &analysis.left_out {
            let mark = if l.flagged { "✗" } else { "·" };
            let _ = writeln!(out, "  {mark} {}", visible_name(&l.describe()));
        }
    }
    let a = &analysis.audit;
    if a.before.is_some() || a.after.is_some() || !a.flags.is_empty() {
        let _ = writeln!(out, "\naudit");
        let side = |r: &Option<IndexReport>| match r {
            Some(r) => {
                let s = |n: usize| if n == 1 { "" } else { "s" };
                format!("{} line{}, {} byte{} ({})", r.lines, s(r.lines), r.bytes, s(r.bytes), r.status)
            }
            None => "no MEMORY.md".into(),
        };
        let _ = writeln!(out, "  MEMORY.md before: {}", side(&a.before));
        let _ = writeln!(out, "  MEMORY.md after:  {}", side(&a.after));
        // A flag already printed under its hunk is counted here, not printed again (a
        // dream that writes 90 long index lines would otherwise list 180 warnings).
        let shown: std::collections::HashSet<(FlagKind, &str)> = (0..review.files.len())
            .flat_map(|fi| {
                analysis.findings.file(fi).iter().chain(review.hunks_of(fi).flat_map(|at| analysis.hunk_flags(at)))
            })
            .map(|f| (f.kind, f.message.as_str()))
            .collect();
        let rest: Vec<Flag> =
            a.flags.iter().filter(|f| !shown.contains(&(f.kind, f.message.as_str()))).cloned().collect();
        write_flags(&mut out, "  ", &rest);
        if rest.len() < a.flags.len() {
            let _ = writeln!(out, "  ({} more shown with their hunks above)", a.flags.len() - rest.len());
        }
    }
    // Notes, CHANGES.md, transcripts and file names are untrusted text: no credential and
    // no control sequence of theirs reaches the terminal. Hunk lines are already masked
    // side by side (a PEM block spans lines); this catches names, paths and messages.
    crate::base::text::visible_controls(&secrets::mask(&out)).into_owned()
}

fn write_flags(out: &mut String, indent: &str, flags: &[Flag]) {
    use std::fmt::Write;
    for f in flags {
        let _ = writeln!(out, "{indent}{}[{}]: {}", f.severity.name(), f.kind.name(), visible_name(&f.message));
    }
}

fn kind_name(k: crate::inputs::dream::DreamKind) -> &'static str {
    match k {
        crate::inputs::dream::DreamKind::DreamFolder => "dream folder",
        crate::inputs::dream::DreamKind::PlainFolder => "folder of proposed notes",
        crate::inputs::dream::DreamKind::InPlace => "in-place",
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `check --json` of the demo (several notes, a credential, a deleted PERMANENT note)
    /// as `write_json` writes it in pieces is the report serialized whole, every hunk in
    /// its place.
    #[test]
    fn the_hunks_rendered_apart_make_the_report_serialized_whole() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let demo = crate::faces::demo::materialize(dir.path()).unwrap_or_else(|e| panic!("{e:#}"));
        let inputs = crate::inputs::dream::discover(Some(&demo.dream), Some(&demo.memory), &[])
            .unwrap_or_else(|e| panic!("{e:#}"));
        let review = crate::store::repo::load_review(inputs).unwrap_or_else(|e| panic!("{e:#}"));
        let analysis = crate::analysis::analyze(&review);
        let whole = document(&review, &analysis, None, |fi| {
            let hunks = &review.files[fi].hunks;
            hunks
                .iter()
                .enumerate()
                .map(|(hi, h)| hunk_json(&review, &analysis, HunkId::new(fi, hi), h))
                .collect::<Vec<_>>()
        });
        let mut expected = Vec::new();
        crate::base::shown::json(&mut expected, &whole).unwrap_or_else(|e| panic!("{e}"));
        let mut written = Vec::new();
        write_json(&mut written, &review, &analysis, None).unwrap_or_else(|e| panic!("{e}"));
        assert!(review.files.len() > 3 && expected.len() > 10_000, "{} bytes", expected.len());
        assert_eq!(String::from_utf8_lossy(&written), String::from_utf8_lossy(&expected));
    }
}
