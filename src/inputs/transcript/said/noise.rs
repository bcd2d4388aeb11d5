//! What tools add to the text they show, removed from said text: a claim must be sourced by
//! what a line says, never by a line number a tool printed beside it.
//!
//! Applied to each part of a line's said text (one JSON string: a tool result, a tool
//! input, a message), after terminal escape sequences are removed. What is removed:
//!
//! - **Line-number gutters** at line starts: Claude Code's `Read` (`     58→` in older
//!   versions, `58\t` now), `cat -n` (`     58\t`). A gutter padded to six columns as those
//!   tools pad it is one alone; an unpadded one when its run of lines numbered one after
//!   another opens the part, as a tool result does (for `→`, any such run of two lines).
//!   Rows of tab-separated data (`1\talice\tadmin`, or under a header line) stay.
//! - **grep / rg prefixes**: `src/db.rs:12:` (a path-like name: with a `/`, or a file
//!   extension; the name is kept, as its own line, only `:12:` goes), its context lines
//!   `src/db.rs-13-` (next to a line of the same file numbered one off), and the one-file
//!   form `12:` / `13-` when at least two such lines follow each other with rising numbers
//!   (or one follows a lone path heading, as `rg --heading` prints). `12:30` (a digit after
//!   the colon) is never a prefix, nor `example.com:443:` (a name ending in a common
//!   top-level domain is a host, and its number a port).
//! - **Unified-diff markers**: after a hunk header `@@ -a,b +c,d @@`, the first column
//!   (`+`, `-`, space) of the lines the hunk's counts cover, and `\ No newline at end of
//!   file`; the header's ranges (its section heading stays). `- item` outside a hunk stays.
//! - **Progress bars**: a line overwritten with `\r` says only its last segment (what the
//!   terminal shows; `\r\n` is a line end); a bar (`[=====>    ]`, `━━━━━━━━`, `████▌`, a
//!   tqdm `45%|…|`) goes with the figures beside it (`45%`, `12/40`, `1.2/3.4 MB`,
//!   `3.1 MB/s`, `eta 0:00:04`, `[00:03<00:04, 12.3it/s]`); a bar with no figure beside it
//!   is left (it holds no word or number).
//! - **JSON escaping in the text**: a line that is plainly JSON-encoded text (`{\"port\":
//!   5432}`: an escaped quote opening a string after `{`, `[` and one closing it before
//!   `:`, `,`, `]` or `}`) is unescaped (`\"`, `\\`, `\/`, `\n`, `\t`, `\r`, `\b`, `\f`,
//!   `\uXXXX`).
//!
//! In that order, JSON unescaping and `\r` overwrites first; then each line is given to at
//! most one of the prefix rules (a diff hunk's lines first, then gutters, then grep
//! prefixes: a `Read` of a patch file loses its gutter, not the patch's own `+`), and bars
//! are looked for in what is left of it.
//!
//! Everything else stays. Apart from the unescaping, every line of the result is a
//! substring of a line of the input (a prefix or suffix of it, or a piece between two cut
//! spans: a span cut from inside a line becomes a line break), so a needle a cleaned part
//! holds is in the raw line too (the scanner's pre-filter stays exact), and the index,
//! which cleans each decoded string with this same function, keys what the scanner checks.
//! Unescaped lines are found by the scanner through a marker (`scan::matcher::MARKERS`).
//!
//! Cheap when there is nothing to remove: a few `memchr` passes decide which rules can
//! apply (a `\r`; `\"`; `@@ -`; `→` or a tab after a digit; `:N:` or a line opening with
//! `N:`; a bar: three bar characters in a row, `[===>  ]`, or `%|`); most text has none of them,
//! only the rules whose mark is there run, and a part is copied only when something is
//! removed.

use std::borrow::Cow;

use memchr::{memchr, memchr_iter, memmem};

mod bars;
mod escapes;
mod grep;
mod gutters;
mod hunks;
mod lines;

use bars::{bar_at, bracketed_figure, progress_bars};
use escapes::{overwritten, unescape_json_lines};
use grep::grep_prefixes;
use gutters::gutters;
use hunks::diff_hunks;
use lines::{Edit, lines_of};

/// `text` without what tools add (see the module docs); borrowed when nothing is removed.
pub(crate) fn strip_noise(text: &str) -> Cow<'_, str> {
    // The line rules cut at ASCII bytes and after whole characters: their result is made
    // of slices of the text, with no UTF-8 to check again.
    let lines = |t: &str| line_pieces(t.as_bytes()).map(|p| assemble_str(t, &p));
    match overwrite_and_unescape(text.as_bytes()) {
        None => lines(text).map_or(Cow::Borrowed(text), Cow::Owned),
        Some(b) => {
            // Only whole characters are removed and only valid UTF-8 is inserted.
            let t = String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            Cow::Owned(lines(&t).unwrap_or(t))
        }
    }
}

/// [`strip_noise`] on bytes (the index's decoded strings, which may hold invalid UTF-8);
/// `None` when nothing is removed.
pub(crate) fn strip_noise_bytes(text: &[u8]) -> Option<Vec<u8>> {
    let pre = overwrite_and_unescape(text);
    let cur = pre.as_deref().unwrap_or(text);
    match line_pieces(cur) {
        Some(p) => Some(assemble_bytes(cur, &p)),
        None => pre,
    }
}

/// The passes over the whole text: JSON-encoded lines unescaped, then `\r` overwrites.
fn overwrite_and_unescape(text: &[u8]) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    if memmem::find(text, b"\\\"").is_some()
        && let Some(v) = unescape_json_lines(text)
    {
        out = Some(v);
    }
    let cur = out.as_deref().unwrap_or(text);
    if memchr(b'\r', cur).is_some()
        && let Some(v) = overwritten(cur)
    {
        out = Some(v);
    }
    out
}

/// The line rules' result as pieces of `text`, `None` when they remove nothing.
fn line_pieces(text: &[u8]) -> Option<Vec<Piece>> {
    let rules = Rules::of(text);
    if rules.any() { strip_lines(text, rules) } else { None }
}

/// A piece of a result: a range of the text, or a line break.
enum Piece {
    Text(usize, usize),
    Break,
}

fn assemble_bytes(text: &[u8], pieces: &[Piece]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for p in pieces {
        match *p {
            Piece::Text(a, b) => out.extend_from_slice(text.get(a..b).unwrap_or(&[])),
            Piece::Break => out.push(b'\n'),
        }
    }
    out
}

fn assemble_str(text: &str, pieces: &[Piece]) -> String {
    let mut out = String::with_capacity(text.len());
    for p in pieces {
        match *p {
            Piece::Text(a, b) => match text.get(a..b) {
                Some(t) => out.push_str(t),
                // Never: every cut is at an ASCII byte or after a whole character.
                None => out.push_str(&String::from_utf8_lossy(text.as_bytes().get(a..b).unwrap_or(&[]))),
            },
            Piece::Break => out.push('\n'),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Which line rules can apply.

#[derive(Clone, Copy, Default)]
struct Rules {
    /// `→` or a tab: gutters.
    gutter: bool,
    /// `@@ -`: a hunk header.
    diff: bool,
    /// A colon beside a digit: grep prefixes.
    grep: bool,
    /// A bar character: progress bars.
    bar: bool,
}

impl Rules {
    fn of(text: &[u8]) -> Rules {
        // `→` is E2 86 92; the bar characters (U+2500–U+25B1) are E2 94..96 xx.
        let (mut arrow, mut glyph) = (false, false);
        for i in memchr_iter(0xE2, text) {
            match text.get(i + 1) {
                Some(0x86) => arrow |= text.get(i + 2) == Some(&0x92),
                Some(0x94..=0x96) => glyph = true,
                _ => {}
            }
            if arrow && glyph {
                break;
            }
        }
        let digit_at = |i: Option<usize>| i.and_then(|i| text.get(i)).is_some_and(u8::is_ascii_digit);
        // A tab after a digit (`     58\t`).
        let tab = memchr_iter(b'\t', text).any(|i| digit_at(i.checked_sub(1)));
        // `:N:` (after a file name), or `N:` opening a line.
        let grep = memchr_iter(b':', text).any(|i| {
            let after = text.get(i + 1..).map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count());
            if after > 0 && text.get(i + 1 + after) == Some(&b':') {
                return true;
            }
            let before = text.get(..i).map_or(0, |r| r.iter().rev().take_while(|b| b.is_ascii_digit()).count());
            before > 0 && (before == i || text.get(i - before - 1) == Some(&b'\n'))
        });
        // A bar itself (`[===>  ]`, three bar characters in a row), not any `[` or `━`.
        let bracket = memchr_iter(b'[', text)
            .any(|i| text.get(i + 1).is_some_and(|b| b"=#>-".contains(b)) && bar_at(text, i).is_some());
        let glyph = glyph && memchr_iter(0xE2, text).any(|i| bar_at(text, i).is_some());
        // A bracketed figure opening a line (`[ 45%] Building`, `[12/40] Compiling`) or a
        // percentage closing one (pytest's `.... [ 45%]`).
        let figure = memchr_iter(b'[', text).any(|i| {
            let start = text.get(..i).and_then(|b| memchr::memrchr(b'\n', b)).map_or(0, |k| k + 1);
            let end = text.get(i..).and_then(|b| memchr(b'\n', b)).map_or(text.len(), |k| i + k);
            text.get(start..end).is_some_and(|line| bracketed_figure(line, i - start, 0).is_some())
        });
        Rules {
            gutter: arrow || tab,
            diff: memmem::find(text, b"@@ -").is_some(),
            grep,
            bar: glyph || bracket || figure || memmem::find(text, b"%|").is_some(),
        }
    }

    fn any(self) -> bool {
        self.gutter || self.diff || self.grep || self.bar
    }
}

// ---------------------------------------------------------------------------------------
// Line rules.

fn strip_lines(text: &[u8], rules: Rules) -> Option<Vec<Piece>> {
    let lines = lines_of(text);
    let mut edits: Vec<Edit> = (0..lines.len()).map(|_| Edit::default()).collect();
    // Lines a rule owns (a hunk's lines): no other prefix rule touches them.
    let mut owned = vec![false; lines.len()];
    if rules.diff {
        diff_hunks(&lines, &mut edits, &mut owned);
    }
    if rules.gutter {
        gutters(&lines, &mut edits, &mut owned);
    }
    if rules.grep {
        grep_prefixes(&lines, &mut edits, &mut owned);
    }
    if rules.bar {
        for (line, edit) in lines.iter().zip(edits.iter_mut()) {
            if !edit.drop {
                let from = edit.start();
                progress_bars(line, from, &mut edit.bars);
            }
        }
    }
    if edits.iter().all(Edit::is_noop) {
        return None;
    }
    let mut out = Vec::with_capacity(lines.len() * 2);
    let mut first = true;
    let mut line_start = 0;
    for (line, edit) in lines.iter().zip(&edits) {
        let base = line_start;
        line_start += line.len() + 1;
        if edit.drop {
            continue;
        }
        if !first {
            out.push(Piece::Break);
        }
        first = false;
        let mut at = edit.prefix.min(line.len());
        for &(start, end) in edit.split.iter().chain(&edit.bars) {
            if start > at {
                out.push(Piece::Text(base + at, base + start));
                // A line break only between two kept pieces of text.
                if end < line.len() {
                    out.push(Piece::Break);
                }
            }
            at = at.max(end).min(line.len());
        }
        if line.len() > at {
            out.push(Piece::Text(base + at, base + line.len()));
        }
    }
    Some(out)
}

// Gutters ---------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn clean(s: &str) -> String {
        strip_noise(s).into_owned()
    }

    #[track_caller]
    fn untouched(s: &str) {
        assert!(matches!(strip_noise(s), Cow::Borrowed(_)), "{s:?} became {:?}", clean(s));
    }

    #[test]
    fn read_gutters_go_the_text_stays() {
        // Claude Code's Read: six columns, then `→` (older) or a tab (newer); `cat -n` too.
        let read = "     1→import \"phoenix_html\"\n     2→\n    58→  users.insert(a)\n";
        assert_eq!(clean(read), "import \"phoenix_html\"\n\n  users.insert(a)\n");
        assert_eq!(clean("     1\tpackage cache\n     2\t\n     3\timport ("), "package cache\n\nimport (");
        assert_eq!(clean("   999→a\n  1000→b"), "a\nb");
        // Unpadded (newer Read): numbered one after another, or the part's first line.
        assert_eq!(clean("57→a\n58→b"), "a\nb");
        assert_eq!(clean("58→  users.insert(a)"), "  users.insert(a)");
        assert_eq!(clean("1234567→x\n1234568→y"), "x\ny");
        // The current Read: an unpadded number and a tab, from the part's first line.
        assert_eq!(clean("1\t# agentic-console"), "# agentic-console");
        assert_eq!(clean("80\t        return hooks\n81\t\n82\t    x = 58"), "        return hooks\n\n    x = 58");
        let reminder = "1\tPROBE 58\n2\t\n\n<system-reminder>\n3\tunrelated\n</system-reminder>";
        assert_eq!(clean(reminder), "PROBE 58\n\n\n<system-reminder>\n3\tunrelated\n</system-reminder>");
    }

    #[test]
    fn prose_and_data_that_look_like_gutters_stay() {
        untouched("We went 3→4 replicas");
        untouched("Scaling:\n3→4 replicas");
        // Numbered rows under a header, rows of tab-separated columns, a number that does not
        // open the part.
        untouched("id\tname\n1\talice\n2\tbob");
        untouched("1\talice\tadmin\n2\tbob\tuser\n3\tcarol\tuser");
        untouched("Rows:\n58\tusers");
        untouched("  58 → users");
    }

    #[test]
    fn grep_prefixes_go_the_file_name_stays() {
        let out = "src/db.rs-11-fn seed() {\nsrc/db.rs:12:    users.insert(58);\nsrc/db.rs-13-}\n--\nlib/a.py:3:x = 1";
        assert_eq!(
            clean(out),
            "src/db.rs\nfn seed() {\nsrc/db.rs\n    users.insert(58);\nsrc/db.rs\n}\n--\nlib/a.py\nx = 1"
        );
        assert_eq!(clean("db.rs:12:users"), "db.rs\nusers");
        // One file: `N:` lines with rising numbers, context `N-` lines one off.
        assert_eq!(
            clean("11-fn seed() {\n12:    users.insert(58);\n40:    count"),
            "fn seed() {\n    users.insert(58);\n    count"
        );
        // rg --heading: the file alone on a line, then its matches.
        assert_eq!(clean("src/db.rs\n12:users.insert(58)"), "src/db.rs\nusers.insert(58)");
        // A dash inside the file name.
        assert_eq!(clean("my-db.rs:12:a\nmy-db.rs-13-b"), "my-db.rs\na\nmy-db.rs\nb");
    }

    #[test]
    fn clock_times_hosts_and_lists_are_not_grep_output() {
        untouched("12:30 standup\n13:00 lunch");
        untouched("Meeting at 12:30, 58 users");
        untouched("example.com:443: connection refused");
        untouched("127.0.0.1:8080: connection refused");
        untouched("localhost:3000: ready");
        untouched("12:users");
        untouched("200: OK\n404: Not Found\n500: Internal Server Error");
        untouched("1: install\n2: run the seed");
        untouched("Note: 3:1 ratio");
        // Falling numbers are no grep run.
        untouched("40:a\n12:b");
        // A context-only run, or a context line not next to its match line.
        untouched("2024-01-05 release\n2025-02-03 release");
        untouched("src/db.rs-13-x");
    }

    #[test]
    fn diff_markers_go_inside_hunks_only() {
        let diff = "diff --git a/seed.rs b/seed.rs\nindex 83db48f..bf269f4 100644\n--- a/seed.rs\n+++ b/seed.rs\n\
                    @@ -10,3 +10,3 @@ fn seed() {\n     let n = 1;\n-    insert(57);\n+    insert(58);\n }\n\\ No newline at end of file\n- item after";
        assert_eq!(
            clean(diff),
            "diff --git a/seed.rs b/seed.rs\nindex 83db48f..bf269f4 100644\n--- a/seed.rs\n+++ b/seed.rs\nfn seed() {\n    let n = 1;\n    insert(57);\n    insert(58);\n}\n- item after"
        );
        // Counts end the hunk: a list after it stays a list.
        assert_eq!(clean("@@ -1 +1 @@\n-a\n+b\n- item\n+ more"), "\na\nb\n- item\n+ more");
        // An empty context line (trailing spaces trimmed by the tool) counts.
        assert_eq!(clean("@@ -1,3 +1,3 @@\n a\n\n-b\n+c"), "\na\n\nb\nc");
    }

    #[test]
    fn lists_outside_a_hunk_stay() {
        untouched("- item one\n- item two\n+ plus\n  indented");
        untouched("We changed @@ handling");
        untouched("@@ -a +b @@\n-x");
    }

    #[test]
    fn progress_bars_and_their_figures_go() {
        assert_eq!(clean("[=====>    ] 45%"), "");
        assert_eq!(clean("Downloading seed.sql [=====>    ] 45%"), "Downloading seed.sql");
        assert_eq!(clean("    Building [=======>     ] 12/40: serde"), "    Building\n: serde");
        assert_eq!(clean("━━━━━━━━━━━━━━━━━━━━ 12/40"), "");
        assert_eq!(clean("   ━━━━━━━━━━━━━━━━━━━━╸━━━ 1.2/3.4 MB 3.1 MB/s eta 0:00:04"), "");
        assert_eq!(clean("45%|████▌     | 45/100 [00:03<00:04, 12.3it/s]"), "");
        assert_eq!(clean("seeding:  45%|████▌     | 45/100 [00:03<00:04, 12.3it/s]"), "seeding:");
        assert_eq!(clean("abc123: Downloading [==>   ]  12.3MB/45.6MB"), "abc123: Downloading");
        // A bar with no figure holds no word: it stays.
        untouched("━━━━━━━━━━━━━━━━━━━━");
        untouched("[x] done, [ ] 58 users");
        untouched("a[i] = 58; [...] 45%");
        untouched("50% of 58 users");
        // A bracketed figure at a line's edge is a progress counter: pytest, CMake, Ninja.
        assert_eq!(
            clean("tests/test_api.py ..........F.. [  5%]\n.... [100%]"),
            "tests/test_api.py ..........F..\n...."
        );
        assert_eq!(clean("[ 45%] Building CXX object src/db.o"), "Building CXX object src/db.o");
        assert_eq!(clean("  [12/40] Compiling serde v1.0.2"), "Compiling serde v1.0.2");
        untouched("coverage is [85%] of lines, see [1/2] below");
        untouched("see the footnote [1/2]");
        untouched("[abc] 5%");
    }

    #[test]
    fn a_line_overwritten_with_cr_says_its_last_segment() {
        let tqdm = "  0%|          | 0/100\r 45%|████▌     | 45/100\rDone: 58 users\nnext";
        assert_eq!(clean(tqdm), "Done: 58 users\nnext");
        assert_eq!(clean("Downloading 45%\rDownloading 100%\r\n"), "Downloading 100%\n");
        assert_eq!(clean("a\r\nb\r\n"), "a\nb\n");
        assert_eq!(clean("done\r   \r"), "done");
    }

    #[test]
    fn json_encoded_text_is_unescaped() {
        assert_eq!(clean(r#"{\"port\": 5432, \"name\": \"caf\u00e9\"}"#), r#"{"port": 5432, "name": "café"}"#);
        assert_eq!(clean(r#""[\"a\\b\", \"x\ny\"]""#), "\"[\"a\\b\", \"x\ny\"]\"");
        assert_eq!(clean(r#"ok {\"e\": \"\ud83d\ude00 \u001b[31mred\u001b[0m\"}"#), r#"ok {"e": "😀 red"}"#);
        // Only the encoded line.
        assert_eq!(clean("C:\\new\\table\n{\\\"a\\\": 1}"), "C:\\new\\table\n{\"a\": 1}");
    }

    #[test]
    fn backslashes_that_are_not_json_encoding_stay() {
        untouched(r"C:\new\table");
        untouched(r#"she said \"hi\" and left"#);
        untouched(r#"printf("%d\n", 58)"#);
        untouched(r#"{"path": "C:\\"}"#);
    }

    #[test]
    fn only_one_layer_per_line() {
        // A Read of a patch file: its gutter goes, its `+` is the file's text.
        assert_eq!(clean("     1→@@ -1 +1 @@\n     2→-a\n     3→+b"), "@@ -1 +1 @@\n-a\n+b");
    }

    fn noisy_line() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z0-9 ]{0,12}",
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("{n:>6}→{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("{n:>6}\t{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("{n}→{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("src/db.rs:{n}:{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("src/db.rs-{n}-{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("{n}:{t}")),
            (1u32..200, "[a-z ]{0,8}").prop_map(|(n, t)| format!("{n}-{t}")),
            (0u32..9, 0u32..9).prop_map(|(a, b)| format!("@@ -1,{a} +1,{b} @@ fn x")),
            "[-+ ][a-z ]{0,8}",
            Just("\\ No newline at end of file".to_string()),
            (0u32..101, "[a-z]{0,6}").prop_map(|(p, t)| format!("{t} [=====>    ] {p}%")),
            (0u32..101).prop_map(|p| format!("{p}%|████▌     | {p}/100 [00:03<00:04, 12.3it/s]")),
            "[a-z ]{0,6}\r[a-z ]{0,6}\r?",
            Just("━━━━━━━━━━ 12/40 eta 0:00:04".to_string()),
            "[a-z ]{0,6}[→\t:@%|\\[\\]━█=#>-]{0,4}[0-9]{0,3}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

        /// Without unescaping, every line of the result is a substring of a line of the
        /// input: what the scanner's raw pre-filter and the index's keys rely on.
        #[test]
        fn every_line_left_is_part_of_a_line(lines in prop::collection::vec(noisy_line(), 0..8)) {
            let text = lines.join("\n");
            let out = clean(&text);
            let input: Vec<&str> = text.split('\n').collect();
            for line in out.split('\n') {
                prop_assert!(input.iter().any(|l| l.contains(line)), "{line:?} of {out:?} from {text:?}");
            }
        }

        /// Bytes and text agree, and nothing panics on any input.
        #[test]
        fn bytes_and_text_agree(s in "\\PC{0,80}", lines in prop::collection::vec(noisy_line(), 0..6)) {
            for text in [s, lines.join("\n")] {
                let bytes = strip_noise_bytes(text.as_bytes()).unwrap_or_else(|| text.as_bytes().to_vec());
                prop_assert_eq!(clean(&text).into_bytes(), bytes);
            }
        }

        #[test]
        fn any_bytes(b in prop::collection::vec(any::<u8>(), 0..200)) {
            let _ = strip_noise_bytes(&b);
        }
    }
}
