//! The script names a project's manifests list: package.json `scripts`, Makefile targets,
//! justfile recipes and aliases, Cargo.toml binaries. `None` where a manifest cannot be
//! read whole with certainty (a Makefile that includes others or has pattern rules, a
//! justfile that imports): a name missing from it would prove nothing.

use std::collections::BTreeSet;

/// The scripts of a package.json (`None` when it is no JSON object).
pub fn package_scripts(text: &str) -> Option<BTreeSet<String>> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let obj = value.as_object()?;
    Some(obj.get("scripts").and_then(|s| s.as_object()).map(|s| s.keys().cloned().collect()).unwrap_or_default())
}

/// The explicit targets of a Makefile; `None` when it includes other files, has pattern
/// rules or computes target names.
pub fn make_targets(text: &str) -> Option<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with('\t') || line.trim_start().starts_with('#') {
            continue;
        }
        let t = line.trim_start();
        if t.starts_with("include ") || t.starts_with("-include ") || t.starts_with("sinclude ") {
            return None;
        }
        let Some((head, rest)) = t.split_once(':') else {
            continue;
        };
        // `X := v`, `X ::= v` and `X = a:b` are assignments, not rules.
        if rest.starts_with('=') || rest.starts_with(":=") || head.contains('=') {
            continue;
        }
        if head.contains('%') || head.contains("$(") || head.contains("${") {
            return None;
        }
        out.extend(head.split_whitespace().filter(|w| !w.starts_with('.')).map(str::to_string));
    }
    Some(out)
}

/// The recipes and aliases of a justfile; `None` when it imports or loads modules.
pub fn just_recipes(text: &str) -> Option<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with([' ', '\t']) || line.starts_with('#') {
            continue;
        }
        let t = line.trim_end();
        if t.starts_with("import ") || t.starts_with("mod ") || t.starts_with("import?") || t.starts_with("mod?") {
            return None;
        }
        if let Some(alias) = t.strip_prefix("alias ") {
            if let Some((name, _)) = alias.split_once(":=") {
                out.insert(name.trim().to_string());
            }
            continue;
        }
        let body = t.trim_start_matches('@');
        let name: String = body.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-').collect();
        if name.is_empty() || name == "set" || name == "export" {
            continue;
        }
        let after = &body[name.len()..];
        // `name params: deps`, never `name := value`.
        if let Some(colon) = after.find(':')
            && !after[colon..].starts_with(":=")
        {
            out.insert(name);
        }
    }
    Some(out)
}

/// The binaries a Cargo.toml names: each `[[bin]]`'s `name` and the package's own name.
pub fn cargo_bins(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut section = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            section = t.to_string();
            continue;
        }
        if (section == "[[bin]]" || section == "[package]")
            && let Some((key, value)) = t.split_once('=')
            && key.trim() == "name"
        {
            out.insert(value.trim().trim_matches('"').trim_matches('\'').to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_list_their_names() {
        let pkg = r#"{"name":"shop","scripts":{"build":"vite build","test:unit":"vitest"}}"#;
        assert_eq!(package_scripts(pkg).unwrap().into_iter().collect::<Vec<_>>(), ["build", "test:unit"]);
        let make = "VERSION := 1\n.PHONY: build test\nbuild: deps\n\tgo build\ntest lint:\n\tgo test\nX = a:b\n";
        assert_eq!(make_targets(make).unwrap().into_iter().collect::<Vec<_>>(), ["build", "lint", "test"]);
        assert!(make_targets("include common.mk\nbuild:\n").is_none());
        assert!(make_targets("%.o: %.c\n\tcc\n").is_none());
        let just = "set shell := [\"bash\"]\nversion := \"1\"\n# lint\nlint:\n  cargo clippy\n@deploy env='prod': build\n  ./d\nalias b := build\nbuild:\n  cargo build\n";
        assert_eq!(just_recipes(just).unwrap().into_iter().collect::<Vec<_>>(), ["b", "build", "deploy", "lint"]);
        assert!(just_recipes("import 'other.just'\n").is_none());
        let cargo = "[package]\nname = \"shop\"\n[[bin]]\nname = \"seed\"\npath = \"src/seed.rs\"\n[dependencies]\nname = \"x\"\n";
        assert_eq!(cargo_bins(cargo).into_iter().collect::<Vec<_>>(), ["seed", "shop"]);
    }
}
