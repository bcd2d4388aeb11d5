//! The import graph holds the layers the crate doc draws (inputs → model → analysis →
//! store → faces): a module uses only modules of its own layer or the layers below, the
//! modules of one layer form no cycle, and the core never reaches the terminal (`ui`) or
//! the command line (`cli`). A module's layer is the folder of `src/` it lives in (`src/inputs/
//! transcript/` is in `inputs`). Read from the `crate::` paths in `src/` (comments and unit
//! tests left out), so a new `use` that breaks a layer fails `cargo test` and CI.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first: each is a folder of `src/` holding its modules (`analysis` is
/// one module and its own layer).
const LAYERS: &[&str] = &["base", "inputs", "model", "analysis", "store", "faces"];

/// A module's layer: the folder of `src/` it lives in.
type Graph = BTreeMap<String, (usize, BTreeSet<String>)>;

fn layer_of(g: &Graph, module: &str) -> Option<usize> {
    g.get(module).map(|(l, _)| *l)
}

/// `crate::X` paths used by the non-test, non-comment code of `text` (`crate::inputs::X`
/// counts as `X`).
fn uses(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut out = BTreeSet::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let segment =
                |r: &str| -> String { r.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect() };
            let mut name = segment(rest);
            if name != "analysis" && LAYERS.contains(&name.as_str()) {
                name = rest.get(name.len() + 2..).map(segment).unwrap_or_default();
            }
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Module → its layer and the other modules it uses. Files of `src/` outside a layer
/// folder (other than `lib.rs` and `main.rs`) are reported as modules in no layer.
fn graph() -> (Graph, Vec<String>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut g = Graph::new();
    let mut outside = Vec::new();
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
            let parts: Vec<String> =
                rel.components().map(|c| c.as_os_str().to_string_lossy().trim_end_matches(".rs").to_string()).collect();
            let (layer, module) = match parts.as_slice() {
                [top] if top == "lib" || top == "main" => continue,
                [top, ..] if top == "analysis" => (top.clone(), top.clone()),
                [layer, module, ..] if LAYERS.contains(&layer.as_str()) => (layer.clone(), module.clone()),
                _ => {
                    outside.push(rel.display().to_string());
                    continue;
                }
            };
            if module == "mod" {
                continue; // the layer's own list of its modules
            }
            let l = LAYERS.iter().position(|x| *x == layer).unwrap();
            let used = uses(&std::fs::read_to_string(&p).unwrap());
            let entry = g.entry(module.clone()).or_insert((l, BTreeSet::new()));
            entry.1.extend(used.into_iter().filter(|u| *u != module));
        }
    }
    (g, outside)
}

#[test]
fn every_module_has_a_layer_and_uses_only_its_own_or_lower_ones() {
    let (g, outside) = graph();
    let mut wrong: Vec<String> = outside
        .iter()
        .map(|f| format!("src/{f} is in no layer: move it into one of {LAYERS:?} (and the lib.rs diagram)"))
        .collect();
    for (m, (lm, used)) in &g {
        for u in used {
            match layer_of(&g, u) {
                Some(lu) if lu <= *lm => {}
                Some(lu) => wrong.push(format!("{m} ({}) uses {u} ({}), a higher layer", LAYERS[*lm], LAYERS[lu])),
                None => wrong.push(format!("{m} uses {u}, which is in no layer")),
            }
        }
    }
    assert!(wrong.is_empty(), "the layers do not hold:\n{}", wrong.join("\n"));
}

#[test]
fn the_core_never_reaches_the_terminal_or_the_command_line() {
    let (g, _) = graph();
    let faces = ["ui", "cli"];
    let bad: Vec<String> = g
        .iter()
        .filter(|(m, _)| !faces.contains(&m.as_str()))
        .flat_map(|(m, (_, used))| {
            used.iter().filter(|u| faces.contains(&u.as_str())).map(move |u| format!("{m} → {u}"))
        })
        .collect();
    assert!(bad.is_empty(), "{bad:?}");
}

#[test]
fn no_two_modules_use_each_other_even_through_others() {
    let (g, _) = graph();
    // Every module's reach; a module that reaches itself is on a cycle.
    let mut cycles = Vec::new();
    for start in g.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = g[start].1.iter().collect();
        while let Some(m) = todo.pop() {
            if m == start {
                cycles.push(start.clone());
                break;
            }
            if seen.insert(m.clone()) {
                todo.extend(g.get(m).into_iter().flat_map(|(_, used)| used));
            }
        }
    }
    assert!(cycles.is_empty(), "modules on an import cycle: {cycles:?}");
}

#[test]
fn the_reader_sees_uses_and_skips_comments_and_tests() {
    let text = "use crate::model::diff::Hunk;\n// crate::faces::ui is only named here\nfn f() { crate::base::zone::Zone::unknown(); }\nuse crate::analysis::Analysis;\n#[cfg(test)]\nmod tests { use crate::faces::cli; }\n";
    assert_eq!(uses(text), ["analysis", "diff", "zone"].iter().map(|s| s.to_string()).collect());
}
