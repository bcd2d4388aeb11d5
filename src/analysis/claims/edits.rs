//! What an edit replaced: the words of its old text that its new text writes something
//! else in place of (`"-O2 -g0"` edited to `"-O1 -g0"` replaced `-O2` with `-O1`).

use similar::{DiffOp, TextDiff};

use super::Claim;

/// The word `claim` stands in, in place of which the edit from `old` to `new` wrote
/// another word (a value replaced, not one deleted or only moved): `Some(new word)`.
/// A claim the new text still writes outside what it inserted (kept elsewhere) is not
/// replaced; a mention inside an inserted comment (`# back to -O2 later`) does not keep it.
pub fn replaced_word(claim: &Claim, old: &str, new: &str) -> Option<String> {
    let want = claim.text.to_lowercase();
    if want.len() < 2 {
        return None;
    }
    // Cheap first: most edits do not touch the claim.
    if !token_in(&want, &old.to_lowercase()) || token_in(&want, &new.to_lowercase()) && kept(&want, &new.to_lowercase())
    {
        return None;
    }
    let diff = TextDiff::configure().diff_words(old, new);
    let old_words: Vec<&str> = diff.iter_old_slices().collect();
    let new_words: Vec<&str> = diff.iter_new_slices().collect();
    let holds = |w: &str| token_in(&want, &w.to_lowercase());
    let mut replaced = None;
    // A deletion right before an insertion replaces, as a `Replace` does.
    let mut gone: &[&str] = &[];
    for op in diff.ops() {
        let (deleted, inserted) = match *op {
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                (&old_words[old_index..old_index + old_len], &new_words[new_index..new_index + new_len])
            }
            DiffOp::Delete { old_index, old_len, .. } => {
                gone = &old_words[old_index..old_index + old_len];
                continue;
            }
            DiffOp::Insert { new_index, new_len, .. } => (gone, &new_words[new_index..new_index + new_len]),
            DiffOp::Equal { old_index, len, .. } => {
                if old_words[old_index..old_index + len].iter().any(|w| holds(w)) {
                    return None;
                }
                (&[][..], &[][..])
            }
        };
        gone = &[];
        if deleted.iter().any(|w| holds(w)) && !inserted.iter().any(|w| holds(w)) {
            // What is new in it: its tokens the deleted words do not have (`5.2.8` of
            // `Django==5.2.8` in place of `Django==5.1.4`).
            let token = |c: char| !(c.is_alphanumeric() || matches!(c, '.' | '_' | '-'));
            let had: Vec<&str> = deleted.iter().flat_map(|w| w.split(token)).collect();
            let new_tokens = inserted.iter().flat_map(|w| w.split(token));
            // Of the claim's shape (an option for an option, a figure for a figure): other
            // text written there (`# moved to toolchain.cmake`) moved it, not replaced it.
            let shaped = |t: &str| {
                t.starts_with('-') == want.starts_with('-')
                    && t.chars().any(|c| c.is_ascii_digit()) == want.chars().any(|c| c.is_ascii_digit())
            };
            let fresh =
                new_tokens.map(|t| t.trim_matches('.')).find(|t| !t.is_empty() && !had.contains(t) && shaped(t));
            if let Some(instead) = fresh {
                replaced.get_or_insert_with(|| instead.to_string());
            }
        }
    }
    replaced
}

/// True when `text` (lowercase) holds `want` as a token: not inside a longer word or
/// figure (`30s` is not in `130s`, `redis` not in `rediscluster`).
fn token_in(want: &str, text: &str) -> bool {
    let bounded = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(want)
        .any(|(i, _)| bounded(text[..i].chars().next_back()) && bounded(text[i + want.len()..].chars().next()))
}

/// True when `new` (lowercase) writes `want` as a token outside a comment: the edit moved
/// or kept it (`requires: [a, b]` → `requires: [a] recommends: [b]`).
fn kept(want: &str, new: &str) -> bool {
    let mut at = 0;
    while let Some(i) = new[at..].find(want).map(|i| i + at) {
        at = i + want.len();
        let line_start = new[..i].rfind('\n').map_or(0, |n| n + 1);
        let before = &new[line_start..i];
        let in_comment = ["#", "//", "/*", "<!--", " -- ", ";;"].iter().any(|m| before.contains(m));
        let bounded = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        if !in_comment && bounded(new[..i].chars().next_back()) && bounded(new[at..].chars().next()) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> Claim {
        super::super::extract(text).into_iter().find(|c| c.text == text.trim_matches('`')).expect("a claim")
    }

    #[test]
    fn a_flag_edited_to_another_is_replaced() {
        let old = r#"set(CMAKE_C_FLAGS_RELEASE "-O2 -g0 -mcpu=xr32v2")"#;
        let new = r#"set(CMAKE_C_FLAGS_RELEASE "-O1 -g0 -mcpu=xr32v2")  # TODO: back to -O2 once fixed"#;
        assert_eq!(replaced_word(&code("-O2"), old, new).as_deref(), Some("-O1"));
        let pin = replaced_word(&code("`5.1.4`"), "Django==5.1.4", "Django==5.2.8");
        assert_eq!(pin.as_deref(), Some("5.2.8"), "what is new in the word");
        assert_eq!(replaced_word(&code("-g0"), old, new), None, "kept as it was");
    }

    #[test]
    fn a_value_only_deleted_or_kept_is_not_replaced() {
        assert_eq!(replaced_word(&code("--frozen"), "npm ci --frozen --silent", "npm ci --silent"), None);
        assert_eq!(replaced_word(&code("--frozen"), "npm ci --frozen", "npm ci --frozen --silent"), None);
        // A longer figure holding the claim's digits is not the claim.
        assert_eq!(replaced_word(&code("`30s`"), "timeout: 130s", "timeout: 60s"), None);
        // Other text written in its place moved it.
        assert_eq!(replaced_word(&code("-O2"), "CFLAGS += -O2", "# moved to toolchain.cmake"), None);
        // Moved to another key, not replaced.
        let moved =
            replaced_word(&code("`SkyUI`"), "requires: [SKSE64, SkyUI]", "requires: [SKSE64]\nrecommends: [SkyUI]");
        assert_eq!(moved, None);
    }
}
