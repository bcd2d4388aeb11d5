//! The import graph holds the layers the crate doc draws (inputs → model → analysis →
//! store → faces): a module uses only modules of its own layer or the layers below, the
//! modules of one layer form no cycle, and the core never reaches the terminal (`ui`) or
//! the command line (`cli`). Read from the `crate::` paths in `src/` (comments and unit
//! tests left out), so a new `use` that breaks a layer fails `cargo test` and CI.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every top-level module of `src/`, by layer (lowest first). A new module must be placed.
const LAYERS: &[(&str, &[&str])] = &[
    ("base", &["text", "date", "zone", "secrets"]),
    ("inputs", &["snapshot", "memdiff", "target", "dream", "transcript", "changes", "retention"]),
    ("model", &["decision", "diff", "review"]),
    ("analysis", &["analysis"]),
    ("store", &["evidence", "repo"]),
    ("faces", &["report", "why", "demo", "cli", "ui"]),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, mods)| mods.contains(&module))
}

/// `crate::X` paths used by the non-test, non-comment code of `text`.
fn uses(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut out = BTreeSet::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Module → the other top-level modules it uses.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(&src).unwrap();
            let top =
                rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
            if top == "lib" || top == "main" {
                continue;
            }
            let used = uses(&std::fs::read_to_string(&p).unwrap());
            g.entry(top.clone()).or_default().extend(used.into_iter().filter(|u| *u != top));
        }
    }
    g
}

#[test]
fn every_module_has_a_layer_and_uses_only_its_own_or_lower_ones() {
    let g = graph();
    let mut wrong = Vec::new();
    for (m, used) in &g {
        let Some(lm) = layer_of(m) else {
            wrong.push(format!("{m} is in no layer: add it to LAYERS (and the lib.rs diagram)"));
            continue;
        };
        for u in used {
            match layer_of(u) {
                Some(lu) if lu <= lm => {}
                Some(lu) => wrong.push(format!("{m} ({}) uses {u} ({}), a higher layer", LAYERS[lm].0, LAYERS[lu].0)),
                None => wrong.push(format!("{m} uses {u}, which is in no layer")),
            }
        }
    }
    assert!(wrong.is_empty(), "the layers do not hold:\n{}", wrong.join("\n"));
}

#[test]
fn the_core_never_reaches_the_terminal_or_the_command_line() {
    let g = graph();
    let faces = ["ui", "cli"];
    let bad: Vec<String> = g
        .iter()
        .filter(|(m, _)| !faces.contains(&m.as_str()))
        .flat_map(|(m, used)| used.iter().filter(|u| faces.contains(&u.as_str())).map(move |u| format!("{m} → {u}")))
        .collect();
    assert!(bad.is_empty(), "{bad:?}");
}

#[test]
fn no_two_modules_use_each_other_even_through_others() {
    let g = graph();
    // Every module's reach; a module that reaches itself is on a cycle.
    let mut cycles = Vec::new();
    for start in g.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = g[start].iter().collect();
        while let Some(m) = todo.pop() {
            if m == start {
                cycles.push(start.clone());
                break;
            }
            if seen.insert(m.clone()) {
                todo.extend(g.get(m).into_iter().flatten());
            }
        }
    }
    assert!(cycles.is_empty(), "modules on an import cycle: {cycles:?}");
}

#[test]
fn the_reader_sees_uses_and_skips_comments_and_tests() {
    let text = "use crate::diff::Hunk;\n// crate::ui is only named here\nfn f() { crate::zone::Zone::unknown(); }\n#[cfg(test)]\nmod tests { use crate::cli; }\n";
    assert_eq!(uses(text), ["diff", "zone"].iter().map(|s| s.to_string()).collect());
}
