//! Credentials in text: detection and masking.
