//! A claim: one checkable fact found in a line (a date, a number, a version, code, a path,
//! a URL, a name or a link), its normalised value and what a value claim is about.

use super::binding::Label;
use super::dates::DateSpec;

/// What sort of fact a claim is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum ClaimKind {
    /// A calendar date, month, part of a month, quarter or year (`2026-11-01`, `late Oct 2026`).
    Date,
    /// A number with its unit word (`214 tests`, `3 GB`, `9.81s`), a port (`port 6379`,
    /// `localhost:3000`), a literal in another base (`0x1F40`) or a bare number followed by a
    /// closed-class word (`4,310 between`).
    Number,
    /// A software version (`v3.2.4`, `1.4.0`, `Python 3.11`).
    Version,
    /// A backticked span (`` `pnpm test` ``); the claim covers the text inside the backticks.
    Code,
    /// A file system path (`src/cart.test.ts`, `~/.claude/x`, `/etc/hosts`, `config.yaml`).
    Path,
    /// A URL, bare domain or e-mail address.
    Url,
    /// A proper name (`Redis`, `GitHub`, `AWS`, a Latin word inside CJK text).
    Name,
    /// A Markdown link (`[T](file.md)`), wikilink (`[[name]]`) or bare reference to a note
    /// (`testing.md`, `memory/x.md`): structure, returned so the caller can skip it.
    Link,
}

impl ClaimKind {
    /// The lowercase name used in output (`date`, `number`…).
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The normalised value of a claim, what matching compares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClaimValue {
    /// A date of some precision.
    Date(DateSpec),
    /// A number: `value` is its digits without thousands separators (`1200`, `9.81`) or a
    /// literal in another base in canonical form (`0x1f40`), `unit` its unit word lowercased
    /// as written (`tests`, `gb`, `s`, `%`, `件`, `$`); `None` for a literal or a bare number.
    Number {
        /// Digits (and decimal point) without separators.
        value: String,
        /// The unit word, lowercased.
        unit: Option<String>,
    },
    /// A port, with its host when the claim names one (`localhost:3000`); `port 8443`,
    /// `ポート 8443` and `:8443` are all `Port { host: None, port: "8443" }`.
    Port {
        /// The host, lowercase, every loopback spelling as `localhost`.
        host: Option<String>,
        /// The port's digits.
        port: String,
    },
    /// Normalised lowercase text: a version without `v`, code, a path without a leading
    /// `./` or `~/`, a URL without scheme and `www.`, a name, a link target.
    Text(String),
}

/// One checkable fact found in a line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Claim {
    /// What sort of fact it is.
    pub kind: ClaimKind,
    /// The claim exactly as written: always `&line[start..end]`.
    pub text: String,
    /// Byte offset of the claim in the line (on a char boundary).
    pub start: usize,
    /// Byte offset just past the claim (on a char boundary).
    pub end: usize,
    /// The normalised value matching compares.
    pub value: ClaimValue,
    /// What the value is about, when the line says it and matching must hold the source to
    /// it: the product of a version (`Postgres` in `Postgres 16`), the label of a measure
    /// (`timeout` in `timeout 30s`). A count's unit (`64 rows`) is in its value instead.
    pub subject: Option<Subject>,
}

/// What a value claim is about (see [`Claim::subject`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Subject {
    /// The word that names it.
    pub label: Label,
    /// The comparable content words of the claim's clause: a source that labels the value
    /// with one of them (`the build took 12 minutes` for `builds take 12 minutes`) speaks
    /// of the same thing.
    pub context: Vec<String>,
    /// The value is a claim only through its label (`exit code 7`, `fontSize: 14`): a
    /// source states it only where it gives the value the same label.
    pub required: bool,
}

impl Claim {
    /// The claim's date, when it is a date claim.
    pub fn date(&self) -> Option<&DateSpec> {
        match &self.value {
            ClaimValue::Date(spec) => Some(spec),
            _ => None,
        }
    }
}
