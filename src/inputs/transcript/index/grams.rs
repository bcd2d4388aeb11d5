//! The keys of the index: hashed three-byte grams of the words a line says.
//!
//! A line's said text (see [`crate::inputs::transcript::said_text`]) is ASCII-lowercased and cut
//! into *runs*: maximal sequences of ASCII letters and digits and non-ASCII bytes (so a
//! CJK run is its UTF-8 bytes). Every three consecutive bytes of a run are a gram; a gram
//! is folded to a [`KEY_BITS`]-bit key by a fixed mixing hash. A needle's keys are the
//! grams of its own runs: if a line's said text contains the needle (ASCII
//! case-insensitively, the scanner's test), each of those runs lies inside a run of the
//! line, so each of their grams is a gram of the line. The keys of a needle are therefore
//! a necessary condition, for every kind of claim, with no knowledge of claim matching.
//!
//! Besides grams, two kinds of number keys narrow what grams cannot: a whole digit run
//! with the bytes around it, and every five digits and dots in a row (see
//! [`needle_keys`]).
//!
//! The line is not parsed: its raw bytes are walked once. Top-level values `said_text`
//! never reads (the envelope: `transcript::unsaid`) are skipped, and inside the
//! rest only JSON *string values* count (keys, numbers and literals are never said), with
//! their escapes decoded (`\n` separates words, `\u65e5` is `日`), and each decoded
//! string cleaned as said text cleans it (`said::noise`: a `Read` gutter's number, a grep
//! prefix, a diff marker is not said, so it is no key; JSON-encoded text is keyed
//! decoded) before its case is folded. Values that are never
//! said wherever they are (`id`, `tool_use_id`, `signature`, `data`, `cache_control` below
//! the top level, the text of a `thinking` block) are skipped too. What the walk cannot
//! follow exactly marks the line *dirty*, and a block holding a dirty line is a candidate
//! for every needle: a terminal escape sequence (`strip_escapes` joins the words around
//! it), a line that is not a well-formed object, and a detected credential (its words are
//! never indexed, see [`crate::base::secrets`]). A string cut by the line's end (a line over the
//! reading cap) is cleaned as said text cleans it: said text keeps the same beginning of
//! it (less a cut escape or character, which no rule of `said::noise` reads).

use memchr::{memchr, memmem};

use crate::inputs::transcript::partial::content_start;
use crate::inputs::transcript::said::strip_noise_bytes;
use crate::inputs::transcript::source::SourceKind;
use crate::inputs::transcript::text::strip_cr;
use crate::inputs::transcript::unsaid::{string_end, unsaid_spans};

/// Bits of a key: a key stands for about 2^(24 - KEY_BITS) = 64 grams, so the index cannot
/// be read back into the grams, let alone the words, of a block.
pub const KEY_BITS: u32 = 18;

/// Number of distinct keys.
pub const KEYS: usize = 1 << KEY_BITS;

/// Keys of values under these keys (below the top level) are never said.
const NOT_SAID: &[&[u8]] = &[b"id", b"tool_use_id", b"signature", b"data", b"cache_control"];

/// The key of a gram (three bytes, already lowercased).
#[inline]
pub fn key(a: u8, b: u8, c: u8) -> u32 {
    let g = (u32::from(a) << 16) | (u32::from(b) << 8) | u32::from(c);
    mix(g)
}

/// Fibonacci hashing to [`KEY_BITS`] bits.
#[inline(always)]
fn mix(g: u32) -> u32 {
    g.wrapping_mul(0x9E37_79B1) >> (32 - KEY_BITS)
}

/// The key of a number as written: digits, or digit groups joined by single dots
/// (`18`, `9.81`, `3.11.4`). `None` for anything else.
pub fn number_key(number: &str) -> Option<u32> {
    let b = number.as_bytes();
    let ok = !b.is_empty()
        && b.first().is_some_and(u8::is_ascii_digit)
        && b.last().is_some_and(u8::is_ascii_digit)
        && b.iter().all(|c| c.is_ascii_digit() || *c == b'.')
        && !number.contains("..");
    ok.then(|| number_hash(b.iter().fold(NUMBER_SEED, |h, &c| number_step(h, c))))
}

const NUMBER_SEED: u64 = 0xcbf2_9ce4_8422_2325;
/// Seed of the key of a digit run with the bytes around it (0 at the edge of a piece).
const RUN_SEED: u64 = 0x8422_2325_cbf2_9ce4;

#[inline]
fn number_step(h: u64, c: u8) -> u64 {
    (h ^ u64::from(c)).wrapping_mul(0x0100_0000_01b3)
}

#[inline]
fn number_hash(h: u64) -> u32 {
    let h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - KEY_BITS)) as u32
}

/// Turns said text into keys, a part at a time (a said text joins its parts with
/// newlines, so no key spans two): every gram of each piece of a part between newlines,
/// and for the digits of a piece the keys of [`numbers`].
struct Runs<F: FnMut(u32)> {
    out: F,
    /// The current part so far, escapes decoded (lowercased when it ends).
    text: Vec<u8>,
    /// What tools add is removed from each part, as said text does (JSONL, not Markdown).
    clean: bool,
    /// The grams of a piece, hashed in one pass before being handed out.
    batch: Vec<u32>,
    /// A character that case-insensitive regexes equate with an ASCII letter (U+017F ſ,
    /// U+212A Kelvin sign) was seen: the line is dirty.
    folds: bool,
}

impl<F: FnMut(u32)> Runs<F> {
    fn new(out: F, clean: bool) -> Runs<F> {
        Runs { out, text: Vec::new(), clean, batch: Vec::new(), folds: false }
    }

    /// Adds bytes to the current part.
    #[inline]
    fn bytes(&mut self, bytes: &[u8]) {
        self.text.extend_from_slice(bytes);
    }

    fn byte(&mut self, b: u8) {
        self.text.push(b);
    }

    fn char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.bytes(c.encode_utf8(&mut buf).as_bytes());
    }

    /// Ends the current part: removes what tools add (the part is one JSON string, as
    /// each part of said text is, and is cleaned by the same function before its case is
    /// folded) and hands out the keys of its pieces.
    fn split(&mut self) {
        let mut text = std::mem::take(&mut self.text);
        if self.clean
            && let Some(clean) = strip_noise_bytes(&text)
        {
            text = clean;
        }
        text.make_ascii_lowercase();
        for piece in text.split(|&b| b == b'\n') {
            self.piece(piece);
        }
        self.text = text;
        self.text.clear();
    }

    fn piece(&mut self, p: &[u8]) {
        let grams = p.len().saturating_sub(2);
        self.batch.clear();
        self.batch.resize(grams, 0);
        for (i, k) in self.batch.iter_mut().enumerate() {
            if let (Some(&a), Some(&b), Some(&c)) = (p.get(i), p.get(i + 1), p.get(i + 2)) {
                *k = key(a, b, c);
            }
        }
        for &k in &self.batch {
            (self.out)(k);
        }
        if p.iter().any(u8::is_ascii_digit) {
            numbers(p, &mut self.out);
        }
        if !p.is_ascii() {
            self.folds |= has_fold(p);
        }
    }
}

/// The number keys of a piece (lowercased, without newlines), from its spans of digits
/// and dots that hold a digit:
/// - each five bytes of such a span holding a digit ([`dotted_key`]);
/// - each digit run with the bytes around it (0 at the edge of the piece);
/// - each prefix ending a digit run of a number chain ([`number_key`]): a chain starts at
///   a digit run not preceded by a digit and a dot, and continues over `.digits`.
fn numbers(p: &[u8], out: &mut impl FnMut(u32)) {
    let numeric = |b: &u8| b.is_ascii_digit() || *b == b'.';
    let mut from = 0;
    while let Some(k) = p.get(from..).and_then(|rest| rest.iter().position(u8::is_ascii_digit)) {
        let digit = from + k;
        // The span: dots right before its first digit, then digits and dots.
        let mut start = digit;
        while start > from && p.get(start - 1) == Some(&b'.') {
            start -= 1;
        }
        let end = digit + p.get(digit..).map_or(0, |rest| rest.iter().take_while(|b| numeric(b)).count());
        let span = p.get(start..end).unwrap_or(&[]);
        for w in span.windows(5) {
            if w.iter().any(u8::is_ascii_digit) {
                out(dotted_key(w.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))));
            }
        }
        span_runs(p, digit, end, out);
        from = end;
    }
}

/// The digit run and number chain keys of the digits and dots `p[digit..end]` (see
/// [`numbers`]); `digit` is a digit, and what precedes it is not.
fn span_runs(p: &[u8], digit: usize, end: usize, out: &mut impl FnMut(u32)) {
    // The chain so far, and where a run must start to continue it (just after its dot).
    let mut chain: Option<(u64, usize)> = None;
    let mut i = digit;
    while i < end {
        if !p.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
            continue;
        }
        let start = i;
        while p.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let digits = p.get(start..i).unwrap_or(&[]);
        let before = if start > 0 { p.get(start - 1).copied().unwrap_or(0) } else { 0 };
        let after = p.get(i).copied().unwrap_or(0);
        let seed = match chain {
            Some((h, at)) if at == start => h,
            _ => NUMBER_SEED,
        };
        let h = digits.iter().fold(seed, |h, &c| number_step(h, c));
        out(number_hash(h));
        let run = digits.iter().fold(number_step(RUN_SEED, before), |h, &c| number_step(h, c));
        out(number_hash(number_step(run, after)));
        chain = (after == b'.').then(|| (number_step(h, b'.'), i + 1));
    }
}

/// The key of five digits and dots (the last five bytes of `window`): numbers and dotted
/// numbers (`24528`, `2026.10.12`, `3.11.4`) are made of common grams (a block of
/// figures holds most of the thousand digit grams), and a claim may match them anywhere
/// in a word, so only longer keys narrow them.
#[inline]
fn dotted_key(window: u64) -> u32 {
    let five = (window & 0xff_ffff_ffff) ^ 0x5bd1_e995_0000_0000;
    (five.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - KEY_BITS)) as u32
}

/// The keys a line must hold to say `needle` (sorted, deduplicated): the grams of its
/// pieces between newlines, the key of each digit run inside a piece with the bytes
/// around it (`.10.` in `2026.10.12`), and of every five digits and dots in a row
/// (`26.10` in it). Empty for a needle of two bytes or less: such a needle cannot
/// use the index by itself. Grams holding a byte of U+FFFD are left out, and digit runs
/// beside one ask for no run key (an invalid byte of a line reads as U+FFFD, while the
/// line's walk sees the byte).
pub fn needle_keys(needle: &str) -> Vec<u32> {
    let lower = needle.as_bytes().to_ascii_lowercase();
    let mut keys = Vec::new();
    for piece in lower.split(|&b| b == b'\n') {
        for w in piece.windows(3) {
            if !w.iter().any(|b| matches!(b, 0xEF | 0xBF | 0xBD)) {
                keys.push(key(w[0], w[1], w[2]));
            }
        }
        for w in piece.windows(5) {
            if w.iter().all(|b| b.is_ascii_digit() || *b == b'.') && w.iter().any(u8::is_ascii_digit) {
                keys.push(dotted_key(w.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))));
            }
        }
        // A digit run inside the needle, with the bytes around it: in a line that says
        // the needle, a whole digit run with those neighbours.
        let mut i = 0;
        while i < piece.len() {
            if !piece[i].is_ascii_digit() {
                i += 1;
                continue;
            }
            let start = i;
            while piece.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            // Not beside a U+FFFD: what an invalid byte of a line reads as, while its walk
            // sees the byte itself.
            if start > 0 && i < piece.len() && piece[start - 1] != 0xBD && piece[i] != 0xEF {
                let h = piece[start..i].iter().fold(number_step(RUN_SEED, piece[start - 1]), |h, &c| number_step(h, c));
                keys.push(number_hash(number_step(h, piece[i])));
            }
        }
    }
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The keys of plain text (what a test expects to find, or not): every gram of it.
pub fn text_keys(text: &str, out: impl FnMut(u32)) {
    let mut runs = Runs::new(out, false);
    runs.bytes(text.as_bytes());
    runs.split();
}

/// What walking a line found besides its keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineFlags {
    /// The keys may miss something the line says: its block must always be read.
    pub dirty: bool,
}

/// Calls `out` with the key of every gram and number line `line` of a source of `kind`
/// may say (duplicates included). A line holding a credential gives no key at all and
/// is dirty, like a line the walk cannot follow (see the module docs).
pub fn line_keys(kind: SourceKind, line: &[u8], out: impl FnMut(u32)) -> LineFlags {
    let line = strip_cr(line);
    let dirty = LineFlags { dirty: true };
    if memchr(0x1b, line).is_some() || has_escaped_esc(line) {
        return dirty;
    }
    match kind {
        SourceKind::Markdown => {
            if std::str::from_utf8(line).is_err() || has_secret(line) {
                return dirty;
            }
            let mut runs = Runs::new(out, false);
            runs.bytes(line);
            runs.split();
            LineFlags { dirty: runs.folds }
        }
        SourceKind::Jsonl => {
            let start = content_start(line);
            match line.get(start) {
                None => return LineFlags::default(),
                Some(b'{') => {}
                // Plain text says itself; `[…]` or a bare string says nothing but is
                // rare enough to be read.
                Some(_) => return dirty,
            }
            let Some(spans) = unsaid_spans(line) else { return dirty };
            // Credentials are looked for where the walk reads: outside the envelope.
            let mut from = start + 1;
            for s in spans.iter().chain(std::iter::once(&(line.len()..line.len()))) {
                if s.start > from && line.get(from..s.start).is_some_and(has_secret) {
                    return dirty;
                }
                from = from.max(s.end);
            }
            let mut runs = Runs::new(out, true);
            let mut walk = Walk::default();
            let mut from = start + 1; // inside the top-level object
            for s in spans.iter().chain(std::iter::once(&(line.len()..line.len()))) {
                if s.start > from {
                    walk.gap(line, from, s.start, &mut runs);
                }
                from = from.max(s.end);
            }
            runs.split();
            LineFlags { dirty: walk.broken || runs.folds }
        }
    }
}

/// `\u001b` (any case) in the line: a JSON-escaped terminal escape.
fn has_escaped_esc(line: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memmem::Finder::new(b"\\u001"));
    FINDER.find_iter(line).any(|i| line.get(i + 5).is_some_and(|b| b.eq_ignore_ascii_case(&b'b')))
}

/// U+017F ſ or U+212A (Kelvin sign) in UTF-8 text.
fn has_fold(text: &[u8]) -> bool {
    memchr::memchr2_iter(0xC5, 0xE2, text)
        .any(|i| matches!(text.get(i..), Some([0xC5, 0xBF, ..] | [0xE2, 0x84, 0xAA, ..])))
}

/// Whether raw line text holds a credential.
fn has_secret(text: &[u8]) -> bool {
    match std::str::from_utf8(text) {
        Ok(t) => !crate::base::secrets::find(t).is_empty(),
        Err(_) => !crate::base::secrets::find(&String::from_utf8_lossy(text)).is_empty(),
    }
}

/// One open container of the walk below the top-level object.
#[derive(Clone, Copy, Default)]
struct Frame {
    /// Its strings are never said.
    skip: bool,
    /// An object whose `type` is `thinking`/`redacted_thinking`.
    thinking: bool,
    /// An object (keys and values alternate) rather than an array.
    object: bool,
}

/// The walk over the said top-level values of a line, gap by gap (a gap holds whole
/// keys and values).
#[derive(Default)]
struct Walk {
    /// Containers opened inside the top-level object.
    stack: Vec<Frame>,
    /// The last key read, by position in the line, when the next value belongs to it.
    key: Option<(usize, usize)>,
    /// Something unexpected: the line is dirty.
    broken: bool,
}

impl Walk {
    fn gap<F: FnMut(u32)>(&mut self, line: &[u8], from: usize, to: usize, runs: &mut Runs<F>) {
        let mut i = from;
        while i < to {
            let Some(&b) = line.get(i) else { break };
            match b {
                b'"' => {
                    let end = string_end(line, i + 1).unwrap_or(line.len()).min(to);
                    let mut j = end + 1;
                    while line.get(j).is_some_and(|c| c.is_ascii_whitespace()) {
                        j += 1;
                    }
                    let is_key = line.get(j) == Some(&b':') && self.stack.last().is_none_or(|f| f.object);
                    if is_key {
                        self.key = Some((i + 1, end));
                    } else {
                        let key = self.key.take().and_then(|(s, e)| line.get(s..e)).unwrap_or(&[]);
                        let body = line.get(i + 1..end).unwrap_or(&[]);
                        self.value(key, body, runs);
                    }
                    i = end + 1;
                }
                b'{' | b'[' => {
                    let key = self.key.take().and_then(|(s, e)| line.get(s..e)).unwrap_or(&[]);
                    let parent = self.stack.last().copied();
                    let skip = parent.is_some_and(|p| p.skip || self.skips(p, key));
                    self.stack.push(Frame { skip, thinking: false, object: b == b'{' });
                    i += 1;
                }
                b'}' | b']' => {
                    if self.stack.pop().is_none() && b == b']' {
                        self.broken = true;
                    }
                    i += 1;
                }
                b',' | b':' => {
                    if b == b',' {
                        self.key = None;
                    }
                    i += 1;
                }
                _ => i += 1,
            }
        }
    }

    /// Whether the value of `key` in container `parent` is never said.
    fn skips(&self, parent: Frame, key: &[u8]) -> bool {
        parent.object && (NOT_SAID.contains(&key) || (parent.thinking && key == b"thinking"))
    }

    /// A string value (raw body) under `key` in the innermost container.
    fn value<F: FnMut(u32)>(&mut self, key: &[u8], body: &[u8], runs: &mut Runs<F>) {
        let Some(top) = self.stack.last().copied() else {
            // A top-level string value (`"summary":"…"`, `"content":"…"`).
            self.broken |= !decode(body, runs);
            runs.split();
            return;
        };
        if top.object
            && key == b"type"
            && (body == b"thinking" || body == b"redacted_thinking")
            && let Some(f) = self.stack.last_mut()
        {
            f.thinking = true;
        }
        if top.skip || self.skips(top, key) {
            return;
        }
        self.broken |= !decode(body, runs);
        runs.split();
    }
}

/// Feeds the decoded text of a JSON string body to `runs`; false on an escape JSON does
/// not allow (the line is then not read the way this walk reads it).
fn decode<F: FnMut(u32)>(body: &[u8], runs: &mut Runs<F>) -> bool {
    let mut i = 0;
    while i < body.len() {
        let plain = memchr(b'\\', body.get(i..).unwrap_or(&[])).map_or(body.len(), |k| i + k);
        runs.bytes(body.get(i..plain).unwrap_or(&[]));
        i = plain;
        if i >= body.len() {
            break;
        }
        match body.get(i + 1) {
            Some(b'u') => {
                let Some(u) = hex4(body, i + 2) else {
                    // Cut short at the end of a cut line; anywhere else, not JSON.
                    return body.len() < i + 6;
                };
                i += 6;
                let c = if (0xD800..0xDC00).contains(&u) {
                    match (body.get(i), body.get(i + 1), hex4(body, i + 2)) {
                        (Some(b'\\'), Some(b'u'), Some(lo)) if (0xDC00..0xE000).contains(&lo) => {
                            i += 6;
                            char::from_u32(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00))
                        }
                        _ => None,
                    }
                } else {
                    char::from_u32(u)
                };
                runs.char(c.unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            Some(&e) => {
                let c = match e {
                    b'n' => b'\n',
                    b't' => b'\t',
                    b'r' => b'\r',
                    b'b' => 0x08,
                    b'f' => 0x0c,
                    other => other,
                };
                runs.byte(c);
                i += 2;
            }
            None => return true,
        }
    }
    true
}

fn hex4(body: &[u8], at: usize) -> Option<u32> {
    let h = body.get(at..at + 4)?;
    let s = std::str::from_utf8(h).ok()?;
    u32::from_str_radix(s, 16).ok()
}

#[cfg(test)]
mod tests;
