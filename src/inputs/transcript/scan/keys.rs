//! The index keys a line must hold for a needle to be worth presenting on it.

/// What a line must hold, in the index's keys, for a needle to be worth presenting on it:
/// every key of at least one of the sets ([`crate::inputs::transcript::index::grams`]). No set:
/// the index cannot narrow the needle, and a file where it is looked for is read whole.
pub type NeedleKeys = Vec<Vec<u32>>;

/// The keys any line whose said text contains `needle` holds (its grams): what
/// [`super::scan_lines`] uses for every needle.
pub fn substring_keys(needle: &str) -> NeedleKeys {
    let keys = super::super::index::grams::needle_keys(needle);
    if keys.is_empty() { Vec::new() } else { vec![keys] }
}
