//! Property tests of the diff/apply engine: for random pairs (and triples, for drift) of
//! texts with CRLF, missing final newlines, unicode and empty files, results computed from
//! decisions reproduce each side byte for byte, and any subset of hunks matches its patch.

use dreamreview::inputs::memdiff;
use dreamreview::inputs::snapshot::Entry;
use dreamreview::model::decision::{Decision, HunkDecision};
use dreamreview::model::diff::{FileDiff, diff_file, result, to_patch};
use proptest::prelude::*;

const WORDS: &[&str] = &["alpha", "beta", "", "  indented", "日本語のメモ", "한국어", "- [x](x.md)", "PERMANENT"];
const ENDINGS: &[&str] = &["\n", "\n", "\n", "\r\n"];

fn text() -> impl Strategy<Value = String> {
    (prop::collection::vec((0..WORDS.len(), 0..ENDINGS.len()), 0..24), any::<bool>()).prop_map(|(lines, cut)| {
        let mut s: String = lines.iter().map(|(w, e)| format!("{}{}", WORDS[*w], ENDINGS[*e])).collect();
        if cut && s.ends_with('\n') {
            s.pop();
            if s.ends_with('\r') {
                s.pop();
            }
        }
        s
    })
}

/// A text derived from `base` by random line edits, so diffs have shared structure.
fn mutate(base: String) -> impl Strategy<Value = String> {
    prop::collection::vec((0..4u8, 0..WORDS.len(), 0..32usize), 0..6).prop_map(move |edits| {
        let mut lines: Vec<String> =
            dreamreview::base::text::split_lines(&base).into_iter().map(str::to_string).collect();
        for (kind, w, at) in edits {
            let at = if lines.is_empty() { 0 } else { at % (lines.len() + 1) };
            match kind {
                0 if at < lines.len() => {
                    lines.remove(at);
                }
                1 => lines.insert(at.min(lines.len()), format!("{} new\n", WORDS[w])),
                2 if at < lines.len() => lines[at] = format!("{} changed\n", WORDS[w]),
                _ => {}
            }
        }
        lines.concat()
    })
}

fn pair() -> impl Strategy<Value = (String, String)> {
    prop_oneof![(text(), text()), text().prop_flat_map(|a| (Just(a.clone()), mutate(a))),]
}

fn entry(s: &Option<String>) -> Option<Entry> {
    s.as_ref().map(|t| Entry::File(t.as_bytes().to_vec()))
}

fn decide(file: &FileDiff, pick: impl Fn(usize) -> Decision) -> Vec<HunkDecision> {
    file.hunks.iter().enumerate().map(|(i, h)| HunkDecision { lines: vec![pick(i); h.slots()], edited: None }).collect()
}

fn maybe(s: String, present: bool) -> Option<String> {
    if present { Some(s) } else { None }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

    #[test]
    fn accept_all_is_new_reject_all_is_old((old, new) in pair(), old_present in prop::bool::weighted(0.9), new_present in prop::bool::weighted(0.9)) {
        let old = maybe(old, old_present);
        let new = maybe(new, new_present);
        let (o, n) = (entry(&old), entry(&new));
        match diff_file("n.md", o.as_ref(), o.as_ref(), n.as_ref()) {
            None => prop_assert_eq!(&o, &n),
            Some(file) => {
                prop_assert_eq!(result(&file, &decide(&file, |_| Decision::Accepted)), n.clone());
                prop_assert_eq!(result(&file, &decide(&file, |_| Decision::Rejected)), o.clone());
                prop_assert_eq!(result(&file, &decide(&file, |_| Decision::Pending)), o.clone());
                // Accepting every line one by one is accepting the hunk.
                let per_line: Vec<HunkDecision> = file.hunks.iter().map(|h| {
                    let mut d = HunkDecision::pending(h.slots());
                    for l in d.lines.iter_mut() { *l = Decision::Accepted; }
                    d
                }).collect();
                prop_assert_eq!(result(&file, &per_line), n);
            }
        }
    }

    #[test]
    fn any_subset_of_hunks_matches_its_patch((old, new) in pair(), mask in any::<u32>()) {
        let o = Entry::File(old.as_bytes().to_vec());
        let n = Entry::File(new.as_bytes().to_vec());
        let Some(file) = diff_file("n.md", Some(&o), Some(&o), Some(&n)) else { return Ok(()) };
        if file.hunks.iter().any(|h| h.whole_file) { return Ok(()) }
        let chosen = |i: usize| mask & (1 << (i % 32)) != 0;
        let got = result(&file, &decide(&file, |i| if chosen(i) { Decision::Accepted } else { Decision::Rejected }));
        let got = String::from_utf8(got.unwrap().bytes().unwrap().to_vec()).unwrap();
        // Reversing exactly the chosen hunks' patch (an independent code path) gives old back.
        let patch = to_patch(&file, chosen);
        if !patch.contains("\n@@") {
            prop_assert_eq!(got, old);
            return Ok(());
        }
        let parsed = memdiff::parse(&patch).unwrap();
        let hunks = parsed.first().map(|f| f.hunks.clone()).unwrap_or_default();
        prop_assert_eq!(memdiff::reverse_apply(&got, &hunks), Some(old));
    }

    #[test]
    fn drift_never_loses_live_edits((base, live) in pair(), proposed in text(), mask in any::<u32>()) {
        let (b, l, p) = (Entry::File(base.into_bytes()), Entry::File(live.into_bytes()), Entry::File(proposed.into_bytes()));
        let Some(file) = diff_file("n.md", Some(&b), Some(&l), Some(&p)) else { return Ok(()) };
        prop_assert_eq!(result(&file, &decide(&file, |_| Decision::Rejected)), Some(l.clone()));
        // Accepting a live-changed hunk changes nothing: it is taken only when edited.
        let some = decide(&file, |i| if mask & (1 << (i % 32)) != 0 { Decision::Accepted } else { Decision::Rejected });
        let without_conflicts = decide(&file, |i| if mask & (1 << (i % 32)) != 0 && !file.hunks[i].live_changed { Decision::Accepted } else { Decision::Rejected });
        prop_assert_eq!(result(&file, &some), result(&file, &without_conflicts));
        // Accept-all keeps every line the live edit added (a dream hunk touching it is
        // live-changed, so it is not taken).
        let (bt, lt) = (String::from_utf8_lossy(b.bytes().unwrap()).into_owned(), String::from_utf8_lossy(l.bytes().unwrap()).into_owned());
        let all = result(&file, &decide(&file, |_| Decision::Accepted)).unwrap();
        let all = String::from_utf8_lossy(all.bytes().unwrap()).into_owned();
        let kept: std::collections::HashSet<&str> = all.lines().collect();
        for change in similar::TextDiff::from_lines(&bt, &lt).iter_all_changes() {
            if change.tag() == similar::ChangeTag::Insert {
                let line = change.value().trim_end_matches(['\n', '\r']);
                prop_assert!(kept.contains(line), "live added {:?}, accept-all lost it: {:?}", line, all);
            }
        }
    }

    #[test]
    fn no_drift_three_way_equals_two_way((old, new) in pair()) {
        let (o, n) = (Entry::File(old.clone().into_bytes()), Entry::File(new.clone().into_bytes()));
        let a = diff_file("n.md", Some(&o), Some(&o), Some(&n));
        prop_assert_eq!(a.is_none(), old == new);
        if let Some(file) = a {
            prop_assert!(file.hunks.iter().all(|h| !h.live_changed));
            prop_assert_eq!(result(&file, &decide(&file, |_| Decision::Accepted)), Some(n));
        }
    }
}

/// A live edit inside the lines a dream hunk changes: the hunk is live-changed, and accepting
/// it keeps the live edit.
#[test]
fn an_overlapping_live_edit_is_flagged_and_kept() {
    let (b, l, p) =
        (Entry::File(b"a\nb\nc\n".to_vec()), Entry::File(b"a\nB\nc\n".to_vec()), Entry::File(b"a\nX\nc\n".to_vec()));
    let file = diff_file("n.md", Some(&b), Some(&l), Some(&p)).unwrap();
    assert!(file.hunks[0].live_changed);
    assert_eq!(result(&file, &decide(&file, |_| Decision::Accepted)), Some(l));
}
