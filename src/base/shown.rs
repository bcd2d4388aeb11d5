//! What leaves the process, made safe at one boundary: every credential masked
//! ([`crate::base::secrets::mask`], the one masking function) and no character that could drive
//! a terminal. Text goes through [`text`] (or a [`Guarded`] writer), JSON through [`json`]
//! (every string masked while it is serialized, and C1 controls, bidi controls and line
//! separators written as `\u` escapes, which JSON allows and a terminal cannot act on).
//! Commands print, commit messages and git notes are written only through these.

use std::borrow::Cow;
use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

/// A text as it may leave the process: credentials masked, control characters and bidi
/// controls shown as visible symbols (`␛`, `\u{9b}`, `\u{202e}`); `\n` and `\t` kept.
pub fn text(s: &str) -> Cow<'_, str> {
    match crate::base::secrets::mask(s) {
        Cow::Borrowed(b) => crate::base::text::visible_controls(b),
        Cow::Owned(o) => Cow::Owned(crate::base::text::visible_controls(&o).into_owned()),
    }
}

/// Writes `value` as pretty JSON: every string masked, unsafe characters escaped.
pub fn json<W: Write, T: Serialize + ?Sized>(out: W, value: &T) -> serde_json::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, Escaping(PrettyFormatter::new()));
    crate::base::secrets::Masked(value).serialize(&mut ser)
}

/// [`json`] into a string.
pub fn json_string<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::new();
    json(&mut out, value)?;
    // The serializer writes only UTF-8.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Whether a character is written as a `\u` escape in JSON: C1 controls (U+0080–U+009F,
/// which terminals read as CSI, OSC…), bidi controls, and the line and paragraph
/// separators. (serde_json escapes C0 controls itself.)
fn escaped_in_json(c: char) -> bool {
    matches!(c, '\u{80}'..='\u{9f}' | '\u{2028}' | '\u{2029}') || crate::base::text::is_bidi_control(c)
}

/// A JSON formatter that writes [`escaped_in_json`] characters as `\uXXXX`, and is
/// otherwise `F`.
struct Escaping<F>(F);

impl<F: Formatter> Formatter for Escaping<F> {
    fn write_string_fragment<W: ?Sized + Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        let mut rest = fragment;
        while let Some(i) = rest.find(escaped_in_json) {
            writer.write_all(&rest.as_bytes()[..i])?;
            let c = rest[i..].chars().next().unwrap_or_default();
            write!(writer, "\\u{:04x}", c as u32)?;
            rest = &rest[i + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// How much text a [`Guarded`] writer holds before it writes out its complete lines.
const CHUNK: usize = 1 << 20;

/// A writer that passes what it is given through [`text`] on its way to `W`, a chunk of
/// whole lines at a time (so a credential or a PEM block within a chunk is read whole).
/// Everything is written by [`Write::flush`] and on drop.
pub struct Guarded<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> Guarded<W> {
    /// Guards `inner`.
    pub fn new(inner: W) -> Guarded<W> {
        Guarded { inner, pending: Vec::new() }
    }

    /// Writes the first `n` pending bytes, shown safely.
    fn emit(&mut self, n: usize) -> io::Result<()> {
        let chunk: Vec<u8> = self.pending.drain(..n).collect();
        let s = String::from_utf8_lossy(&chunk);
        self.inner.write_all(text(&s).as_bytes())
    }
}

impl<W: Write> Write for Guarded<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if self.pending.len() >= CHUNK
            && let Some(last) = memchr::memrchr(b'\n', &self.pending)
        {
            self.emit(last + 1)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let n = self.pending.len();
        self.emit(n)?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for Guarded<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_c1_and_bidi_controls_and_masks_strings() {
        let v = serde_json::json!({"a\u{9b}": "x\u{9b}31m\u{202e}y\u{2028}", "k": "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"});
        let s = json_string(&v).unwrap();
        assert!(s.contains(r#""a\u009b""#) && s.contains(r#""x\u009b31m\u202ey\u2028""#), "{s}");
        assert!(s.contains("[github-token …OL8d]"), "{s}");
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["a\u{9b}"], "x\u{9b}31m\u{202e}y\u{2028}");
    }

    #[test]
    fn guarded_text_shows_controls_and_masks_across_writes() {
        let mut out = Vec::new();
        {
            let mut g = Guarded::new(&mut out);
            write!(g, "osc \x1b]52;c;aGk=\x07 csi \u{9b}2J key ghp_u8jzPde0IgxLd6").unwrap();
            writeln!(g, "GncfBAepfJBd0Kh8oOOL8d").unwrap();
        }
        let s = String::from_utf8(out).unwrap();
        assert_eq!(s, "osc ␛]52;c;aGk=␇ csi \\u{9b}2J key [github-token …OL8d]\n");
    }
}
