//! How long and how random a value must be to count as a credential, and how long a
//! secret must be for its mask to show its last characters.

/// Minimum Shannon entropy, in bits per character, of a value assigned to a credential key.
///
/// The key (`password:`, `token=`) is already most of the evidence; entropy only has to
/// reject degenerate values (`aaaaaaaa1111`, `abababab1212`). 2.5 bits keeps over 95% of
/// random 12-character hex tokens and over 99% of anything longer or base62, while the
/// structural rules (digit and letter, no identifiers, no placeholders) reject prose.
pub const CREDENTIAL_MIN_ENTROPY: f64 = 2.5;

/// Minimum length of a random value assigned to a credential key.
pub const CREDENTIAL_MIN_LEN: usize = 12;

/// Shortest secret whose mask shows its last 4 characters (`[credential …ter2]` would
/// give away most of `hunter2`).
pub const SHOWN_TAIL_MIN_LEN: usize = 12;
