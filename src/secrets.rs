//! Credentials in text: detection and masking.

/// Masks credentials in `text` (replaced by the `secrets` work; identity until it lands).
pub fn mask(text: &str) -> std::borrow::Cow<'_, str> {
    std::borrow::Cow::Borrowed(text)
}
