//! Line numbers as a citation writes them: read exactly, or the reason they cite nothing.
//! A number no file can have, line 0 and a negative number are bad citations, reported
//! with what was written; never rounded to a nearby line or read as the whole file. A
//! range written backwards (`lines 5 to 3`) is put in order, as people write ranges both
//! ways (docs/changes-citations.md).

use serde::Serialize;
use std::fmt;

/// Why the lines a citation writes cite nothing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "problem", rename_all = "kebab-case")]
pub enum BadLines {
    /// A number larger than any line count (`:18446744073709551616`), as written.
    TooLarge { written: String },
    /// Line 0 (`:0`, `:2-0`): lines are numbered from 1.
    Zero,
    /// A negative number (`:-1`), as written.
    Negative { written: String },
}

impl fmt::Display for BadLines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadLines::TooLarge { written } => {
                write!(f, "line {written} is not a line number (larger than any file's line count)")
            }
            BadLines::Zero => f.write_str("line 0 does not exist (lines are numbered from 1)"),
            BadLines::Negative { written } => {
                write!(f, "{written} is not a line number (lines are numbered from 1)")
            }
        }
    }
}

/// A digit string (ASCII or full-width digits) as a line number; `None` when it does not
/// fit in `usize`.
pub fn parse(digits: &str) -> Option<usize> {
    let mut n: usize = 0;
    for c in digits.chars() {
        let d = match c {
            '0'..='9' => c as usize - '0' as usize,
            '０'..='９' => c as usize - '０' as usize,
            _ => continue,
        };
        n = n.checked_mul(10)?.checked_add(d)?;
    }
    Some(n)
}

/// The lines `start..=end` as written (`end` equal to `start` for one line): checked, and
/// in order.
pub fn span(start: &str, end: Option<&str>) -> Result<(usize, usize), BadLines> {
    let number = |s: &str| parse(s).ok_or_else(|| BadLines::TooLarge { written: s.trim().to_string() });
    let a = number(start)?;
    let b = match end {
        Some(e) => number(e)?,
        None => a,
    };
    if a == 0 || b == 0 {
        return Err(BadLines::Zero);
    }
    Ok((a.min(b), a.max(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_exactly_or_refused_with_their_reason() {
        assert_eq!(span("3", None), Ok((3, 3)));
        assert_eq!(span("３", Some("5")), Ok((3, 5)));
        assert_eq!(span("18446744073709551615", None), Ok((usize::MAX, usize::MAX)));
        let big = "18446744073709551616";
        assert_eq!(span(big, None), Err(BadLines::TooLarge { written: big.into() }));
        assert_eq!(span("2", Some("0")), Err(BadLines::Zero));
        assert_eq!(span("5", Some("3")), Ok((3, 5)));
        assert!(BadLines::TooLarge { written: big.into() }.to_string().contains(big));
    }
}
