//! Where a value occurs in lowercase text: every start of it, as a version token
//! (`3.11` in `3.11.4`, not in `13.11`) and as a word (`npm test` is not in `pnpm test`).

use super::text::is_word_char;

/// Every start of `needle` in `hay`, overlapping ones included (`match_indices` skips a
/// match that overlaps an earlier one: in `https://ps://p` the `ps://p` at 8 hides behind
/// the one at 3).
pub(super) fn starts<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        if needle.is_empty() {
            return None;
        }
        let i = from + hay.get(from..)?.find(needle)?;
        // Next search from the following char boundary.
        from = i + hay.get(i..)?.chars().next().map_or(1, char::len_utf8);
        Some(i)
    })
}

/// True when `lower` holds version `value` as a token (`3.11` in `3.11.4`, not in `13.11`).
pub(crate) fn version_token(value: &str, lower: &str) -> bool {
    starts(lower, value).any(|i| {
        let b = lower.as_bytes();
        let prev = if i > 0 { b.get(i - 1).copied() } else { None };
        let prev2 = if i > 1 { b.get(i - 2).copied() } else { None };
        let next = b.get(i + value.len()).copied();
        let after_digit = prev.is_some_and(|c| c.is_ascii_digit());
        let after_decimal = prev == Some(b'.') && prev2.is_some_and(|c| c.is_ascii_digit());
        let left = !after_digit && !after_decimal;
        left && !next.is_some_and(|c| c.is_ascii_digit())
    })
}

/// Substring match that does not start or end inside a word: `npm test` is not in
/// `pnpm test`, `redis` is in `redis-server`, `config.yaml` is in `/app/config.yaml`.
/// An end of the value that is itself not a word character needs no boundary.
/// Like [`word_occurs`], for a path, a URL or code: an occurrence the source's token goes on
/// past (`config/runtime.exs` in `config/runtime.exs.example`, `npm run build` in `npm run
/// build:prod`, `--force` in `--force-with-lease`) is another name, not this one. A full
/// stop or colon that ends a sentence or a label (`.` or `:` before a space) is no part of it;
/// `colon`: a `:` and a letter go on (code: `build:prod`), not for a path, which ends at `:`
/// (`src/db.rs:12`, `/srv/app:ro`).
pub(crate) fn token_occurs(value: &str, lower: &str, colon: bool) -> bool {
    let first_word = value.chars().next().is_some_and(is_word_char);
    let last_word = value.chars().next_back().is_some_and(is_word_char);
    starts(lower, value).any(|i| {
        let before = lower.get(..i).and_then(|s| s.chars().next_back());
        let mut after = lower.get(i + value.len()..).unwrap_or("").chars();
        let (next, then) = (after.next(), after.next());
        let starts_inside = first_word && before.is_some_and(is_word_char);
        let goes_on = match next {
            Some('.' | '-' | '_') => then.is_some_and(is_word_char),
            // `build:prod` goes on; a path's `:12` is its line, and a path ends at `:`.
            Some(':') => colon && then.is_some_and(char::is_alphabetic),
            _ => false,
        };
        // A short commit id is stated by the full one it begins (`0b1c2d3` in `0b1c2d3e4f…`).
        let rest = lower.get(i + value.len()..).unwrap_or("");
        let run: usize = rest.chars().take_while(|c| is_word_char(*c)).map(char::len_utf8).sum();
        let id_goes_on =
            hex_id(value) && run > 0 && value.len() + run <= 40 && rest[..run].bytes().all(|b| b.is_ascii_hexdigit());
        let ends_inside = last_word && (next.is_some_and(is_word_char) && !id_goes_on || goes_on);
        !starts_inside && !ends_inside
    })
}

/// True when `value` may be a commit id: 7 to 40 hexadecimal digits, one a digit.
fn hex_id(value: &str) -> bool {
    (7..=40).contains(&value.len())
        && value.bytes().all(|b| b.is_ascii_hexdigit())
        && value.bytes().any(|b| b.is_ascii_digit())
}

pub(crate) fn word_occurs(value: &str, lower: &str) -> bool {
    let first_word = value.chars().next().is_some_and(is_word_char);
    let last_word = value.chars().next_back().is_some_and(is_word_char);
    starts(lower, value).any(|i| {
        let before = lower.get(..i).and_then(|s| s.chars().next_back());
        let after = lower.get(i + value.len()..).and_then(|s| s.chars().next());
        let starts_inside = first_word && before.is_some_and(is_word_char);
        let ends_inside = last_word && after.is_some_and(is_word_char);
        !starts_inside && !ends_inside
    })
}

/// True when `lower` states the name `value` (lowercase): as a word, or in its other
/// number (`devDependency` for `devDependencies`, `pipelines` for `pipeline`).
pub(crate) fn name_occurs(value: &str, lower: &str) -> bool {
    word_occurs(value, lower) || value.len() >= 4 && other_forms(value).iter().any(|v| word_occurs(v, lower))
}

/// The other ways a name may be written: in its other grammatical number, and a hyphenated
/// name with spaces (`Quinlan-branch` for `the Quinlan branch`).
pub(crate) fn other_forms(value: &str) -> Vec<String> {
    let mut out = other_numbers(value);
    if value.contains('-') {
        out.push(value.replace('-', " "));
    }
    out
}

/// The other grammatical numbers a name may be written in (`dependency` ↔ `dependencies`,
/// `pipeline` ↔ `pipelines`).
pub(crate) fn other_numbers(value: &str) -> Vec<String> {
    if let Some(stem) = value.strip_suffix("ies") {
        vec![format!("{stem}y")]
    } else if let Some(stem) = value.strip_suffix('y') {
        vec![format!("{stem}ies")]
    } else if let Some(stem) = value.strip_suffix('s').filter(|s| s.len() >= 3) {
        vec![stem.to_string()]
    } else {
        vec![format!("{value}s"), format!("{value}es")]
    }
}
