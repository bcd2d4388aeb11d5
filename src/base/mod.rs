//! Base: what every layer above uses — text with its terminators, calendar dates, the
//! user's time zone, and finding and masking credentials. Knows nothing of dreams.

pub mod date;
pub mod fnv;
pub mod ranges;
pub mod secrets;
pub mod shown;
pub mod text;
pub mod walk;
pub mod zone;
