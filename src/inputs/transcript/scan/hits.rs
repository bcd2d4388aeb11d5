//! What a scan finds ([`Hit`]) and how a caller judges the lines it finds: the line as a
//! verifier sees it ([`LineHit`]), what it decides ([`Verdict`]) and the [`Verifier`].

/// A needle found in what a source line says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hit {
    /// Index of the source in [`crate::inputs::transcript::source::SourceSet::files`].
    pub source: usize,
    /// 1-based physical line number.
    pub line: usize,
    /// Index of the needle in the slice given to [`super::scan`].
    pub needle: usize,
}

/// A line holding needles that its said text contains, as a [`VerifyLine`] sees it.
#[derive(Clone, Copy, Debug)]
pub struct LineHit<'a> {
    /// Index of the source in [`crate::inputs::transcript::source::SourceSet::files`].
    pub source: usize,
    /// 1-based physical line number.
    pub line: usize,
    /// The needles (indexes, ascending) whose lowercased form occurs in `said`, ASCII
    /// case-insensitively, and that are not exhausted in this source.
    pub needles: &'a [usize],
    /// The raw line (cut at [`crate::inputs::transcript::file::MAX_LINE_BYTES`]).
    pub raw: &'a [u8],
    /// What the line says ([`super::super::said_text`], or the line itself for Markdown).
    pub said: &'a str,
}

/// What a [`VerifyLine`] decides about a line (cleared before each call).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Needles of the line to report as hits.
    pub keep: Vec<usize>,
    /// Needles not worth looking for in the rest of this source: their later lines are
    /// skipped, and a source where every needle is exhausted is not read further.
    pub exhausted: Vec<usize>,
}

/// Judges the lines a scan finds (see [`super::scan_lines`]). Any
/// `Fn(&LineHit, &mut Verdict) + Sync` closure is one (it exhausts nothing up front);
/// [`WithExhausted`] adds the check made before a source is read.
pub trait Verifier: Sync {
    /// Called once per line holding candidate needles.
    fn line(&self, hit: &LineHit<'_>, verdict: &mut Verdict);

    /// Called before `source` is read: sets `done[needle]` for the needles with nothing
    /// left to find in it. They are not looked for there, and a source where every needle
    /// is done is not read at all.
    fn exhausted(&self, source: usize, done: &mut [bool]) {
        let _ = (source, done);
    }
}

impl<F: Fn(&LineHit<'_>, &mut Verdict) + Sync> Verifier for F {
    fn line(&self, hit: &LineHit<'_>, verdict: &mut Verdict) {
        self(hit, verdict)
    }
}

/// A [`Verifier`] made of two closures: the line check and the check before a source is
/// read ([`Verifier::exhausted`]).
pub struct WithExhausted<L, E> {
    /// The line check.
    pub line: L,
    /// The check before a source is read.
    pub exhausted: E,
}

impl<L, E> Verifier for WithExhausted<L, E>
where
    L: Fn(&LineHit<'_>, &mut Verdict) + Sync,
    E: Fn(usize, &mut [bool]) + Sync,
{
    fn line(&self, hit: &LineHit<'_>, verdict: &mut Verdict) {
        (self.line)(hit, verdict)
    }

    fn exhausted(&self, source: usize, done: &mut [bool]) {
        (self.exhausted)(source, done)
    }
}

/// A check of the candidate needles of a line, called once per line holding any.
pub type VerifyLine<'a> = dyn Verifier + 'a;
