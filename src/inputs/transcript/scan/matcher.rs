//! The automata a scan runs: the needles, their JSON-escaped forms, and which needle each
//! pattern stands for. A worker builds its automaton for the needles still worth looking
//! for, and builds a smaller one when most of them are exhausted.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

/// What marks a line whose raw bytes may hide a needle its said text holds: a terminal
/// escape sequence (raw, or JSON-escaped as `\u001b`) can sit inside a needle (a test
/// runner colouring the file name in a path), `\/` is legal JSON for `/` (PHP and
/// some loggers write it), and an escaped quote inside a string (`\\\"` raw, or written
/// with `\u005c` / `\u0022`) may be JSON-encoded text that said text unescapes
/// (`{\"port\": 5432}` says `{"port": 5432}`, see `said::noise`). Such a line is searched
/// again in its decoded said text. (The automaton is ASCII case-insensitive, so `\u001B`
/// is a marker too.)
pub const MARKERS: &[&str] = &["\\u001b", "\x1b", "\\/", "\\\\\\\"", "\\u005c", "\\u0022"];

/// The needles of one scan: their patterns and lowercased forms.
pub(super) struct Needles {
    /// Each needle, ASCII-lowercased, for the check against the said text.
    pub(super) lowered: Vec<Vec<u8>>,
    /// Per needle: blank, so never looked for.
    pub(super) blank: Vec<bool>,
    /// Per needle: the sets of index keys one of which a line must hold all of to be worth
    /// presenting (see [`super::keys::NeedleKeys`]); none: the index cannot narrow it.
    pub(super) keys: Vec<super::keys::NeedleKeys>,
    /// Every automaton pattern (needles and their escaped forms).
    patterns: Vec<String>,
    /// Needle index of each pattern.
    pattern_needle: Vec<usize>,
}

impl Needles {
    /// `None` when no needle is usable (all empty or blank).
    pub(super) fn new(needles: &[String]) -> Option<Needles> {
        let (patterns, pattern_needle) = patterns_of(needles);
        if patterns.is_empty() {
            return None;
        }
        let blank = needles.iter().map(|n| is_blank(n)).collect();
        let lowered = needles.iter().map(|n| n.as_bytes().to_ascii_lowercase()).collect();
        let keys = needles.iter().map(|n| super::keys::substring_keys(n)).collect();
        Some(Needles { lowered, blank, keys, patterns, pattern_needle })
    }

    /// How many needles there are (blank ones included).
    pub(super) fn len(&self) -> usize {
        self.lowered.len()
    }
}

/// An automaton over the patterns of some of the needles (those still worth looking for).
pub(super) struct Automaton {
    /// Leftmost-first: finds the lines holding any of its needles, then every match on
    /// such a line (searching again from each match's start + 1; the patterns a
    /// leftmost-first match hides at its own start are in `related`).
    pub(super) finder: AhoCorasick,
    /// Needle index (into the scan's needles) of each automaton pattern; `None` for the
    /// [`MARKERS`], which belong to no needle.
    pub(super) pattern_needle: Vec<Option<usize>>,
    /// Each pattern, ASCII-lowercased.
    pub(super) patterns: Vec<Vec<u8>>,
    /// Per pattern: the other patterns one of which is a prefix of the other (ASCII
    /// case-insensitively), so that they can match at the same start.
    pub(super) related: Vec<Vec<usize>>,
    /// Length in bytes of the longest pattern.
    pub(super) max_len: usize,
    /// Per needle: whether its patterns are in the automaton.
    pub(super) included: Vec<bool>,
}

impl Automaton {
    /// The automaton for the needles marked in `include`; `None` when there is none.
    pub(super) fn build(needles: &Needles, include: &[bool]) -> Option<Automaton> {
        let mut patterns: Vec<&str> = Vec::new();
        let mut pattern_needle = Vec::new();
        for (p, &n) in needles.patterns.iter().zip(&needles.pattern_needle) {
            if include.get(n) == Some(&true) {
                patterns.push(p);
                pattern_needle.push(Some(n));
            }
        }
        if patterns.is_empty() {
            return None;
        }
        for m in MARKERS {
            patterns.push(m);
            pattern_needle.push(None);
        }
        // A DFA when it stays small: several times faster than the NFA per byte, and every
        // line holding a needle is searched again for all its matches.
        let kind = if patterns.iter().map(|p| p.len()).sum::<usize>() <= 64 * 1024 {
            Some(AhoCorasickKind::DFA)
        } else {
            None
        };
        let finder = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostFirst)
            .kind(kind)
            .build(&patterns)
            .ok()?;
        let lowered: Vec<Vec<u8>> = patterns.iter().map(|p| p.as_bytes().to_ascii_lowercase()).collect();
        let related = related(&lowered);
        let max_len = patterns.iter().map(|p| p.len()).max().unwrap_or(0);
        let included = (0..needles.len()).map(|n| include.get(n) == Some(&true) && !needles.blank[n]).collect();
        Some(Automaton { finder, pattern_needle, patterns: lowered, related, max_len, included })
    }

    /// Whether this automaton looks for every needle in `open` (it may look for more:
    /// their matches are dropped).
    pub(super) fn serves(&self, open: &[bool]) -> bool {
        open.iter().enumerate().all(|(i, &want)| !want || self.included.get(i) == Some(&true))
    }
}

/// Per pattern, the other patterns one of which is a prefix of the other, in index order.
/// Linear in the patterns' bytes plus the pairs found (n log n for the sort), not in the
/// square of the patterns (a dream with 50,000 changed lines has ~150,000 of them): a
/// pattern's prefixes are looked up by each of its lengths, and the patterns it is a
/// prefix of follow it in sorted order.
fn related(lowered: &[Vec<u8>]) -> Vec<Vec<usize>> {
    let mut by_text: std::collections::HashMap<&[u8], Vec<usize>> = std::collections::HashMap::new();
    for (i, p) in lowered.iter().enumerate() {
        by_text.entry(p.as_slice()).or_default().push(i);
    }
    let mut sorted: Vec<&[u8]> = by_text.keys().copied().collect();
    sorted.sort_unstable();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); lowered.len()];
    for (k, p) in sorted.iter().enumerate() {
        let ids = &by_text[p];
        // Its prefixes, itself included (equal patterns are related), by length.
        let mut shared: Vec<usize> = (0..=p.len()).filter_map(|n| by_text.get(&p[..n])).flatten().copied().collect();
        // The patterns it is a proper prefix of.
        for q in sorted[k + 1..].iter().take_while(|q| q.starts_with(p)) {
            shared.extend(&by_text[q]);
        }
        shared.sort_unstable();
        for &i in ids {
            out[i] = shared.iter().copied().filter(|&j| j != i).collect();
        }
    }
    out
}

/// The automaton's patterns for `needles`: each usable needle and its JSON-escaped forms
/// (deduplicated), with the needle each pattern stands for.
fn patterns_of(needles: &[String]) -> (Vec<String>, Vec<usize>) {
    let mut patterns: Vec<String> = Vec::new();
    let mut pattern_needle = Vec::new();
    for (i, n) in needles.iter().enumerate() {
        if is_blank(n) {
            continue;
        }
        let mut variants = vec![n.clone(), json_escape(n, false), json_escape(n, true)];
        variants.sort();
        variants.dedup();
        for v in variants {
            patterns.push(v);
            pattern_needle.push(i);
        }
    }
    (patterns, pattern_needle)
}

/// A needle that is empty or only whitespace: looked for nowhere.
fn is_blank(needle: &str) -> bool {
    needle.trim().is_empty()
}

/// The literal patterns a scan for `needles` searches the raw bytes for: every usable
/// needle and its JSON-escaped forms, then the [`MARKERS`]. What `rg -F -f` should be
/// given to do the same search (the benchmarks' anchor).
pub fn scan_patterns(needles: &[String]) -> Vec<String> {
    let mut patterns = patterns_of(needles).0;
    patterns.extend(MARKERS.iter().map(|m| m.to_string()));
    patterns
}

/// `s` as it appears inside a JSON string: `"`, `\` and control characters escaped the
/// way JavaScript's `JSON.stringify` does; with `ascii`, non-ASCII characters as `\uXXXX`
/// too (Python's `json.dumps` default).
pub(super) fn json_escape(s: &str, ascii: bool) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (ascii && !c.is_ascii()) => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_json_encoders() {
        assert_eq!(json_escape(r#"say "hi"\"#, false), r#"say \"hi\"\\"#);
        assert_eq!(json_escape("a\nb", false), "a\\nb");
        assert_eq!(json_escape("先週", false), "先週");
        assert_eq!(json_escape("先週", true), "\\u5148\\u9031");
        assert_eq!(json_escape("😀", true), "\\ud83d\\ude00");
    }

    #[test]
    fn patterns_carry_escaped_forms_once() {
        let n = vec!["pnpm".to_string(), " ".to_string(), "先週".to_string(), "say \"x\"".to_string()];
        assert_eq!(
            scan_patterns(&n),
            vec![
                "pnpm",
                "\\u5148\\u9031",
                "先週",
                "say \"x\"",
                "say \\\"x\\\"",
                "\\u001b",
                "\x1b",
                "\\/",
                "\\\\\\\"",
                "\\u005c",
                "\\u0022"
            ]
        );
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn patterns_sharing_a_start_are_related() {
        let n = Needles::new(&strings(&["oct 5", "OCT", "5th", "oct 5th"])).unwrap();
        let a = Automaton::build(&n, &[true; 4]).unwrap();
        assert_eq!(a.related[..4], [vec![1, 3], vec![0, 3], vec![], vec![0, 1]]);
        assert!(a.related[4..].iter().all(Vec::is_empty), "markers share no start with these");
    }

    #[test]
    fn automaton_for_some_needles() {
        let n = Needles::new(&strings(&["alpha", " ", "先週", "beta"])).unwrap();
        let a = Automaton::build(&n, &[false, true, true, false]).unwrap();
        assert_eq!(a.pattern_needle, [vec![Some(2), Some(2)], vec![None; MARKERS.len()]].concat());
        assert_eq!(a.included, vec![false, false, true, false]);
        assert!(a.serves(&[false, false, true, false]));
        assert!(!a.serves(&[true, false, true, false]));
        assert!(Automaton::build(&n, &[false, true, false, false]).is_none());
        let all = Automaton::build(&n, &[true; 4]).unwrap();
        assert!(all.serves(&[false, false, true, false]));
        assert!(all.serves(&[true, false, true, true]));
    }

    #[test]
    fn blank_needles_match_nothing() {
        assert!(Needles::new(&strings(&["", "  "])).is_none());
    }
}
