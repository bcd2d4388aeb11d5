//! The YAML frontmatter of a memory note. The block is read by a YAML parser
//! (`yaml-rust2`: flow maps such as `metadata: {type: project}`, escapes, block scalars,
//! anchors left unexpanded); when it is not valid YAML — a model wrote it — a lenient line
//! scan of the subset Claude Code writes (`key: value`, a nested `metadata:` block, quoted
//! values, block scalars, CRLF) reads what it can instead.
//!
//! Both generations are valid: `type:` at the top level (Claude Code up to 2.1.138) or under
//! `metadata:` (from 2.1.139). Anything neither reader understands is skipped, never an
//! error: a note is only reported for a missing key or an unterminated block. Values are
//! compared as one line: a block scalar's lines are joined by spaces.

use serde::Serialize;

/// The keys every Claude Code memory note needs, in the order they are reported.
pub const REQUIRED_KEYS: [&str; 3] = ["name", "description", "type"];

/// The parsed frontmatter block of a note.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frontmatter {
    /// Top-level `key: value` pairs in order; a block value (`key:` followed by indented
    /// lines) holds those lines, trimmed and joined by spaces.
    pub top: Vec<(String, String)>,
    /// The `key: value` pairs directly under `metadata:`.
    pub metadata: Vec<(String, String)>,
    /// 1-based line number of the closing `---`.
    pub end_line: usize,
}

impl Frontmatter {
    /// The non-empty value of `key` at the top level, else under `metadata:`.
    pub fn get(&self, key: &str) -> Option<&str> {
        fn find<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
            pairs.iter().find(|(k, v)| k == key && !v.is_empty()).map(|(_, v)| v.as_str())
        }
        find(&self.top, key).or_else(|| find(&self.metadata, key))
    }

    /// The [`REQUIRED_KEYS`] this block lacks (or leaves empty), in order.
    pub fn missing_keys(&self) -> Vec<&'static str> {
        REQUIRED_KEYS.into_iter().filter(|k| self.get(k).is_none()).collect()
    }

    /// Whether the block says `permanent: true` (or `yes`/`on`), top level or under
    /// `metadata:`.
    pub fn is_permanent(&self) -> bool {
        self.get("permanent").is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "yes" | "on"))
    }
}

/// What the top of a note holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// The note does not start with a `---` line.
    Absent,
    /// It starts with `---` but no closing `---` (or `...`) line follows.
    Unterminated,
    /// A complete block.
    Parsed(Frontmatter),
}

/// What is wrong with a note's frontmatter, as reported by the audit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "kebab-case")]
pub enum Problem {
    /// The note has no frontmatter block at all.
    Absent,
    /// The block is opened by `---` and never closed.
    Unterminated,
    /// The block lacks these required keys (or leaves them empty).
    Missing {
        /// The missing keys, in the order `name`, `description`, `type`.
        keys: Vec<String>,
    },
}

/// Splits `text` into lines without their terminators (`\n` or `\r\n`).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive('\n').map(|l| {
        let l = l.strip_suffix('\n').unwrap_or(l);
        l.strip_suffix('\r').unwrap_or(l)
    })
}

/// Whether a line (terminator stripped) opens or closes a block.
fn is_fence(line: &str, closing: bool) -> bool {
    let t = line.trim_end();
    t == "---" || (closing && t == "...")
}

/// Parses the frontmatter at the top of `text` (a leading BOM is ignored).
pub fn parse(text: &str) -> Block {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut it = lines(text).enumerate();
    match it.next() {
        Some((_, first)) if is_fence(first, false) => {}
        _ => return Block::Absent,
    }
    let mut body: Vec<&str> = Vec::new();
    for (i, line) in it {
        if is_fence(line, true) {
            let mut fm = parse_body(&body);
            fm.end_line = i + 1;
            return Block::Parsed(fm);
        }
        body.push(line);
    }
    Block::Unterminated
}

/// The problem with a note's frontmatter, or `None` when it is complete.
pub fn problem(text: &str) -> Option<Problem> {
    match parse(text) {
        Block::Absent => Some(Problem::Absent),
        Block::Unterminated => Some(Problem::Unterminated),
        Block::Parsed(fm) => {
            let keys = fm.missing_keys();
            (!keys.is_empty()).then(|| Problem::Missing { keys: keys.into_iter().map(String::from).collect() })
        }
    }
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// Splits `key: value` (the key may be quoted); `None` when the line is not a mapping entry.
fn key_value(line: &str) -> Option<(String, &str)> {
    let t = line.trim();
    if t.starts_with('#') || t.starts_with('-') {
        return None;
    }
    let (key, rest) = if let Some(q @ ('"' | '\'')) = t.chars().next() {
        let inner = t.get(1..)?;
        let close = inner.find(q)?;
        let rest = inner.get(close + 1..)?.trim_start().strip_prefix(':')?;
        (inner.get(..close)?.to_string(), rest)
    } else {
        let colon = t.find(": ").or_else(|| t.strip_suffix(':').map(|k| k.len()))?;
        (t.get(..colon)?.trim_end().to_string(), t.get(colon + 1..)?)
    };
    if key.is_empty() {
        return None;
    }
    Some((key, rest.trim()))
}

/// A scalar value without quotes and trailing comment; block indicators become empty.
fn scalar(raw: &str) -> String {
    let raw = raw.trim();
    if let Some(inner) = raw.strip_prefix('"') {
        let end = inner.rfind('"').unwrap_or(inner.len());
        return inner.get(..end).unwrap_or("").replace("\\\"", "\"").replace("\\\\", "\\");
    }
    if let Some(inner) = raw.strip_prefix('\'') {
        let end = inner.rfind('\'').unwrap_or(inner.len());
        return inner.get(..end).unwrap_or("").replace("''", "'");
    }
    let no_comment = match raw.find(" #") {
        Some(i) => raw.get(..i).unwrap_or(raw),
        None => raw,
    };
    let v = no_comment.trim();
    if matches!(v, "|" | ">" | "|-" | ">-" | "|+" | ">+") || v == "~" || v == "null" {
        String::new()
    } else {
        v.to_string()
    }
}

/// At most this many bytes of frontmatter are given to the YAML parser; a larger block
/// (no note needs one) is read by the line scan only.
const YAML_MAX: usize = 64 << 10;

/// The block's keys: as YAML when it parses as a mapping, else by the line scan.
fn parse_body(body: &[&str]) -> Frontmatter {
    yaml_body(body).unwrap_or_else(|| scan_body(body))
}

/// The block read as a YAML mapping; `None` when it is not one (broken YAML, a list, too big).
fn yaml_body(body: &[&str]) -> Option<Frontmatter> {
    use yaml_rust2::{Yaml, YamlLoader};
    let text = body.join("\n");
    if text.len() > YAML_MAX {
        return None;
    }
    let docs = YamlLoader::load_from_str(&text).ok()?;
    let Yaml::Hash(map) = docs.into_iter().next()? else { return None };
    let mut fm = Frontmatter::default();
    for (k, v) in &map {
        let Some(key) = yaml_text(k) else { continue };
        if key == "metadata"
            && let Yaml::Hash(meta) = v
        {
            fm.metadata
                .extend(meta.iter().filter_map(|(k, v)| Some((yaml_text(k)?, yaml_text(v).unwrap_or_default()))));
        }
        fm.top.push((key, yaml_text(v).unwrap_or_default()));
    }
    Some(fm)
}

/// A YAML value as one line of text: scalars as written (a block scalar's lines joined by
/// spaces, null empty), a list's items joined by `, `, a mapping's `key: value` pairs by
/// spaces (so a non-empty nested block is not an empty value); `None` for an alias.
fn yaml_text(v: &yaml_rust2::Yaml) -> Option<String> {
    use yaml_rust2::Yaml;
    let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    Some(match v {
        Yaml::String(s) | Yaml::Real(s) => one_line(s),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        Yaml::Null => String::new(),
        Yaml::Array(items) => items.iter().filter_map(yaml_text).collect::<Vec<_>>().join(", "),
        Yaml::Hash(map) => map
            .iter()
            .filter_map(|(k, v)| Some(format!("{}: {}", yaml_text(k)?, yaml_text(v).unwrap_or_default())))
            .collect::<Vec<_>>()
            .join(" "),
        Yaml::Alias(_) | Yaml::BadValue => return None,
    })
}

/// The lenient line scan of the block (see the module docs).
fn scan_body(body: &[&str]) -> Frontmatter {
    let mut fm = Frontmatter::default();
    let mut i = 0;
    while let Some(&line) = body.get(i) {
        i += 1;
        if line.trim().is_empty() || indent(line) > 0 {
            continue;
        }
        let Some((key, raw)) = key_value(line) else {
            continue;
        };
        // The indented lines that follow belong to this key.
        let start = i;
        while body.get(i).is_some_and(|l| l.trim().is_empty() || indent(l) > 0) {
            i += 1;
        }
        let children = body.get(start..i).unwrap_or(&[]);
        let mut value = scalar(raw);
        if key == "metadata" && value.is_empty() {
            let child_indent = children.iter().filter(|l| !l.trim().is_empty()).map(|l| indent(l)).min().unwrap_or(0);
            for child in children {
                if indent(child) == child_indent
                    && let Some((k, v)) = key_value(child)
                {
                    fm.metadata.push((k, scalar(v)));
                }
            }
        }
        if value.is_empty() {
            let joined: Vec<&str> = children.iter().map(|l| l.trim()).filter(|l| !l.is_empty()).collect();
            value = joined.join(" ");
        }
        fm.top.push((key, value));
    }
    fm
}

/// Whether `line` contains the word `PERMANENT` (upper case, not part of a longer ASCII
/// word: `PERMANENTLY` and `NONPERMANENT` do not count, `【PERMANENT】` and `PERMANENT:` do).
pub fn is_permanent_line(line: &str) -> bool {
    let b = line.as_bytes();
    let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    line.match_indices("PERMANENT").any(|(i, m)| {
        let before = i.checked_sub(1).and_then(|p| b.get(p));
        !before.is_some_and(word) && !b.get(i + m.len()).is_some_and(word)
    })
}

/// Whether a note is permanent: frontmatter `permanent: true` (top level or under
/// `metadata:`) or any line tagged [`is_permanent_line`].
pub fn is_permanent_note(text: &str) -> bool {
    if let Block::Parsed(fm) = parse(text)
        && fm.is_permanent()
    {
        return true;
    }
    lines(text).any(is_permanent_line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_generation_type_at_top_level() {
        let text = "---\nname: Testing\ndescription: how to run the suite\ntype: project\n---\nbody\n";
        let Block::Parsed(fm) = parse(text) else {
            panic!("not parsed");
        };
        assert_eq!(fm.missing_keys(), Vec::<&str>::new());
        assert_eq!(fm.get("type"), Some("project"));
        assert_eq!(fm.end_line, 5);
    }

    #[test]
    fn new_generation_type_under_metadata_with_crlf_and_quotes() {
        let text = "---\r\nname: \"deploy-flow\"\r\ndescription: 'staging deploys: from the staging branch'\r\nmetadata:\r\n  type: reference  # kind\r\n  permanent: true\r\n---\r\n";
        let Block::Parsed(fm) = parse(text) else {
            panic!("not parsed");
        };
        assert_eq!(fm.get("name"), Some("deploy-flow"));
        assert_eq!(fm.get("description"), Some("staging deploys: from the staging branch"));
        assert_eq!(fm.get("type"), Some("reference"));
        assert!(fm.is_permanent());
        assert_eq!(fm.missing_keys(), Vec::<&str>::new());
    }

    #[test]
    fn missing_keys_and_empty_values() {
        let text = "---\nname: x\ndescription:\nmetadata:\n  other: 1\n---\n";
        assert_eq!(problem(text), Some(Problem::Missing { keys: vec!["description".into(), "type".into()] }));
    }

    #[test]
    fn block_scalar_description_counts() {
        let text = "---\nname: x\ndescription: >\n  folded\n  text\ntype: user\n---\n";
        assert_eq!(problem(text), None);
    }

    #[test]
    fn absent_and_unterminated() {
        assert_eq!(problem("# Title\n"), Some(Problem::Absent));
        assert_eq!(problem(""), Some(Problem::Absent));
        assert_eq!(problem("---\nname: x\ntype: user\n"), Some(Problem::Unterminated));
    }

    #[test]
    fn permanent_word_rules() {
        assert!(is_permanent_line("- PERMANENT: never force-push main"));
        assert!(is_permanent_line("【PERMANENT】本番DBは触らない"));
        assert!(is_permanent_line("本番はPERMANENTです"));
        assert!(!is_permanent_line("本番DBPERMANENT"));
        assert!(!is_permanent_line("PERMANENTLY moved"));
        assert!(!is_permanent_line("NONPERMANENT"));
        assert!(!is_permanent_line("permanent storage"));
        assert!(!is_permanent_line("PERMANENT_ID"));
    }

    #[test]
    fn permanent_note_by_frontmatter_or_line() {
        assert!(is_permanent_note("---\nname: a\npermanent: yes\n---\nbody\n"));
        assert!(is_permanent_note("---\nname: a\nmetadata:\n  permanent: \"true\"\n---\n"));
        assert!(is_permanent_note("plain\nPERMANENT fact\n"));
        assert!(!is_permanent_note("---\npermanent: false\n---\nbody\n"));
    }

    #[test]
    fn flow_maps_and_escapes_are_read_as_yaml() {
        let note =
            "---\nname: \"caf\\u00e9\\tbar\"\ndescription: d\nmetadata: {type: project, permanent: true}\n---\nbody\n";
        let Block::Parsed(fm) = parse(note) else { panic!("{:?}", parse(note)) };
        assert_eq!(fm.get("name"), Some("café bar"));
        assert_eq!(fm.get("type"), Some("project"));
        assert!(fm.missing_keys().is_empty(), "{fm:?}");
        assert!(fm.is_permanent());
        assert_eq!(fm.end_line, 5);
    }

    #[test]
    fn broken_yaml_falls_back_to_the_line_scan() {
        // An unclosed flow map and a tab-indented key: no YAML, but the keys are there.
        let note = "---\nname: a\ndescription: [unclosed\ntype: project\n\tx: y\n---\n";
        let Block::Parsed(fm) = parse(note) else { panic!() };
        assert_eq!(fm.get("name"), Some("a"));
        assert_eq!(fm.get("type"), Some("project"));
        assert_eq!(fm.get("description"), Some("[unclosed"));
    }

    #[test]
    fn a_block_value_is_one_line_and_a_nested_block_is_not_empty() {
        let note = "---\nname: a\ndescription: |\n  first\n  second\ntype:\n  kind: project\n---\n";
        let Block::Parsed(fm) = parse(note) else { panic!() };
        assert_eq!(fm.get("description"), Some("first second"));
        assert_eq!(fm.get("type"), Some("kind: project"));
    }
}
