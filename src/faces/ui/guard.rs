//! The stop before an accept that would take an error-level flag into the notes (a secret,
//! a deleted PERMANENT note): which flags an accepting key would newly take, and the
//! question the reviewer answers first. Pure: reads the state, changes nothing.

use super::keymap::Action;
use super::state::{App, Progress};
use crate::analysis::flag::{Flag, FlagKind, Severity};
use crate::model::decision::{Decision, HunkDecision};
use crate::model::diff::FileStatus;
use crate::model::ids::HunkId;

/// The question to ask before `action` (one line per entry), or `None` when it takes no
/// error-level flag that is not already taken. Refused accepts (`outside-memory`, an
/// unedited `live-changed`) take nothing, so they are refused as before, not asked about.
pub fn question(app: &App, action: Action) -> Option<Vec<String>> {
    let stops = stops(app, action);
    match stops.as_slice() {
        [] => None,
        [(id, claims)] => Some(vec![format!("{id} {claims}: accept anyway? y/N")]),
        many => {
            let mut lines = vec![format!("This accepts {} hunks carrying error flags:", many.len())];
            lines.extend(many.iter().map(|(id, claims)| format!("  {id} {claims}")));
            lines.push("Accept anyway? y/N".to_string());
            Some(lines)
        }
    }
}

/// Per hunk the key would newly take error flags on: its id, and what they say. Until the
/// background analysis is in, the hunks' hygiene flags (a credential, a PERMANENT line)
/// are computed here on the spot, so a key pressed early asks as it would later.
fn stops(app: &App, action: Action) -> Vec<(String, String)> {
    let Some(file) = app.current_file() else { return Vec::new() };
    let proposed = proposed(app, action);
    let early: Vec<(usize, Vec<Flag>)> = if app.progress == Progress::Done {
        Vec::new()
    } else {
        let hunks: Vec<usize> = proposed.iter().map(|(at, _)| at.hunk).collect();
        crate::analysis::hygiene::hunk_flags(file, &hunks)
    };
    proposed
        .into_iter()
        .filter_map(|(at, after)| {
            let now = app.review.decision(at)?;
            let known: Vec<&Flag> = app.analysis.hunk_flags(at).collect();
            let spot = early.iter().filter(|(h, _)| *h == at.hunk).flat_map(|(_, f)| f.iter());
            let flags: Vec<&Flag> = known
                .iter()
                .copied()
                .chain(spot.filter(|f| !known.iter().any(|k| k.kind == f.kind && k.line == f.line)))
                .collect();
            let taken =
                |d: &HunkDecision| crate::analysis::standing::flags_taken(&app.review, flags.iter().copied(), at, d);
            let before = taken(now);
            let new: Vec<String> = taken(&after)
                .into_iter()
                .filter(|f| f.severity == Severity::Error && !before.contains(f))
                .map(|f| claim(file.status, f))
                .collect();
            let id = at.name(&app.review.files)?;
            (!new.is_empty()).then(|| (id.to_string(), new.join("; ")))
        })
        .collect()
}

/// The decisions an accepting key would leave on the hunks it touches in the current file,
/// as (hunk, decisions after); nothing for a key that accepts nothing.
fn proposed(app: &App, action: Action) -> Vec<(HunkId, HunkDecision)> {
    let Some(h) = app.current_hunk() else { return Vec::new() };
    match action {
        Action::Accept if app.anchor.is_none() => whole(app, &[app.at(h)]),
        Action::Accept => lines(app, &app.selected_slots()),
        Action::ToggleLine => {
            let slots = app.selected_slots();
            if app.toggle_target(&slots) == Decision::Accepted { lines(app, &slots) } else { Vec::new() }
        }
        Action::AcceptRest => whole(app, &app.review.rest_of_file(app.at(h), Decision::Accepted)),
        _ => Vec::new(),
    }
}

/// Each of `hunks` accepted whole.
fn whole(app: &App, hunks: &[HunkId]) -> Vec<(HunkId, HunkDecision)> {
    hunks
        .iter()
        .filter_map(|&at| {
            let mut d = app.review.decision(at)?.clone();
            d.set_all(Decision::Accepted);
            Some((at, d))
        })
        .collect()
}

/// The hunks of `slots` with those lines accepted (an edit is dropped, as setting lines does).
fn lines(app: &App, slots: &[(HunkId, usize)]) -> Vec<(HunkId, HunkDecision)> {
    let mut out: Vec<(HunkId, HunkDecision)> = Vec::new();
    for &(at, slot) in slots {
        if out.last().is_none_or(|(h, _)| *h != at) {
            let Some(d) = app.review.decision(at) else { continue };
            out.push((at, HunkDecision { lines: d.lines.clone(), edited: None }));
        }
        if let Some(line) = out.last_mut().and_then(|(_, d)| d.lines.get_mut(slot)) {
            *line = Decision::Accepted;
        }
    }
    out
}

/// What a flag says the hunk does, for the question: `holds [anthropic-key …Z9AA]`,
/// `deletes a PERMANENT note («…»)`. Masked, and cut short when long.
fn claim(status: FileStatus, flag: &Flag) -> String {
    let text = flag.claim.as_deref().or(flag.line.as_deref()).unwrap_or(&flag.message);
    let text = short(crate::base::secrets::mask(text.trim()).as_ref());
    match flag.kind {
        FlagKind::Secret => format!("holds {text}"),
        FlagKind::PermanentDeleted if status == FileStatus::Deleted => format!("deletes a PERMANENT note («{text}»)"),
        FlagKind::PermanentDeleted => format!("removes a PERMANENT line («{text}»)"),
        kind => format!("carries {} «{text}»", kind.name()),
    }
}

/// `text` cut to 60 characters, with `…` when cut; cut between grapheme clusters, so no
/// emoji sequence or accented letter is split.
fn short(text: &str) -> String {
    use unicode_segmentation::UnicodeSegmentation;
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let mut cut = String::new();
    let mut chars = 0;
    for g in text.graphemes(true) {
        chars += g.chars().count();
        if chars > MAX - 1 {
            break;
        }
        cut.push_str(g);
    }
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_cuts_between_grapheme_clusters() {
        let family = "👨\u{200d}👩\u{200d}👧";
        let text = format!("{}{family}{}", "a".repeat(57), "b".repeat(10));
        assert_eq!(short(&text), format!("{}…", "a".repeat(57)));
    }
    use crate::faces::ui::theme::{Theme, ThemeName};

    fn demo(dir: &std::path::Path) -> App {
        let app = crate::faces::ui::script::open_demo(dir, (100, 30), Theme::new(ThemeName::Dark));
        app.unwrap_or_else(|e| panic!("demo: {e:#}"))
    }

    fn goto(app: &mut App, path: &str) {
        while app.current_file().is_some_and(|f| f.path != path) {
            crate::faces::ui::update::act(app, Action::NextFile);
        }
    }

    #[test]
    fn the_question_names_the_hunk_the_flag_and_the_claim() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut app = demo(dir.path());
        goto(&mut app, "database.md");
        let q = question(&app, Action::Accept);
        assert_eq!(q, Some(vec!["database.md#1 holds [anthropic-key …Z9AA]: accept anyway? y/N".to_string()]));
        assert_eq!(question(&app, Action::Reject), None, "rejecting never asks");
        goto(&mut app, "git-rules.md");
        let q = question(&app, Action::Accept);
        let want =
            "git-rules.md#1 deletes a PERMANENT note («PERMANENT: never force-push to main.»): accept anyway? y/N";
        assert_eq!(q, Some(vec![want.to_string()]));
        goto(&mut app, "deploy.md");
        assert_eq!(question(&app, Action::Accept), None, "a refused accept is refused, not asked about");
    }

    /// A key pressed before the background analysis is in asks exactly as it would after:
    /// the hunk's hygiene flags are computed on the spot.
    #[test]
    fn an_accept_before_the_analysis_is_in_still_asks() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let demo = crate::faces::demo::materialize(dir.path()).unwrap_or_else(|e| panic!("{e:#}"));
        let inputs = crate::inputs::dream::discover(Some(&demo.dream), Some(&demo.memory), &[])
            .unwrap_or_else(|e| panic!("{e:#}"));
        let review = crate::store::repo::load_review(inputs).unwrap_or_else(|e| panic!("{e:#}"));
        let mut app = App::new(review, Theme::new(ThemeName::Dark), (100, 30));
        assert_ne!(app.progress, Progress::Done);
        goto(&mut app, "database.md");
        let q = question(&app, Action::Accept);
        assert_eq!(q, Some(vec!["database.md#1 holds [anthropic-key …Z9AA]: accept anyway? y/N".to_string()]));
        goto(&mut app, "git-rules.md");
        assert!(question(&app, Action::AcceptRest).is_some_and(|q| q[0].contains("deletes a PERMANENT note")));
    }
}
