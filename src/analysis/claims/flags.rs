//! Command-line options written in prose (`builds use -O2`, `run it with --no-verify`): a
//! value as specific as code in backticks, claimed as code.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// The command-line options of `line`: a `-` or `--` starting a token (after a space, an
/// opening bracket or quote), then a letter, then letters, digits, `-` and `_`, and an
/// `=value` (`-mcpu=xr32v2`, `--jobs=8`). Not a list marker (`- item`), a dash between
/// words (`a - b`), a negative number or a word's hyphen (`e-mail`). A trailing sentence
/// mark is not part of it.
pub(super) fn options(line: &str) -> Vec<Range<usize>> {
    static OPTION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:^|[\s(\["'])(--?[A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*(?:=[^\s)\]"'`,;]+)?)"#)
            .expect("the option pattern is valid")
    });
    OPTION
        .captures_iter(line)
        .filter_map(|c| c.get(1))
        .filter_map(|m| {
            let text = m.as_str().trim_end_matches(['.', ':', '!', '?']);
            let body = text.trim_start_matches('-');
            // Two characters at least after the dashes (`-O2`, `-j8`, `--all`), and not a
            // lone dash-prefixed word of prose (`-ish`): an option has a digit, a capital,
            // an `=`, two dashes or is short.
            // A capitalised word after a stray dash (`Mon -Fri`, `-Don't`) is prose, unless
            // its letter starts options that take a word (`-Werror`, `-Iinclude`, `-Llib`).
            let word_like = body.len() > 2
                && body.starts_with(|c: char| c.is_ascii_uppercase() && !"WIL".contains(c))
                && body[1..].chars().all(|c| c.is_ascii_lowercase());
            let optionish = !word_like
                && (text.starts_with("--")
                    || body.contains(['=', '_'])
                    || body.chars().any(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
                    || body.len() <= 2);
            // A token that goes on past it (`-ab:c`) is something else.
            let mut after = line[m.start() + text.len()..].chars();
            let goes_on =
                matches!(after.next(), Some('.' | ':' | '-' | '_')) && after.next().is_some_and(char::is_alphanumeric);
            (body.len() >= 2 && optionish && !goes_on && text.len() <= 64).then(|| m.start()..m.start() + text.len())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(line: &str) -> Vec<&str> {
        options(line).into_iter().map(|r| &line[r]).collect()
    }

    #[test]
    fn options_in_prose_are_found() {
        assert_eq!(found("Release builds use -O2 and -mcpu=xr32v2."), ["-O2", "-mcpu=xr32v2"]);
        assert_eq!(found("run it with --no-verify (never --force)"), ["--no-verify", "--force"]);
        assert_eq!(found("make -j8"), ["-j8"]);
        assert_eq!(found("-ABCv1.2 and -std=c++17."), ["-ABCv1.2", "-std=c++17"]);
    }

    #[test]
    fn dashes_of_prose_are_not_options() {
        assert!(found("- Firmware release builds").is_empty());
        assert!(found("a - b, e-mail, -3 degrees, self-hosted").is_empty());
        assert!(found("the -ish suffix").is_empty());
        assert!(found("—O2").is_empty());
        assert!(found("-ab:c").is_empty());
        assert!(found("Mon -Fri, -Don't").is_empty());
        assert_eq!(found("build with -Werror"), ["-Werror"]);
    }
}
