//! Where dreamreview's evidence notes live in git: their own ref, which `git log` and
//! other tools leave alone.

/// The ref holding dreamreview's notes.
pub const NOTES_REF: &str = "refs/notes/dreamreview";
