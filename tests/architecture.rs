//! The import graph of `src/`, file by file, holds the layers the crate doc draws (base →
//! inputs → model → analysis → store → faces): every file lives in a layer's folder, uses
//! only files of its own layer or the layers below, no files import each other (directly or
//! through others), and the core never reaches the terminal (`faces/ui`) or the command line
//! (`faces/cli`). No source file is over 600 lines. How the imports are read is in
//! `architecture/reader.rs`; each rule is also seen failing on a small planted tree.

mod reader;

use reader::{Graph, Tree, circles, graph};
use std::path::Path;

/// The layers, lowest first: each is a folder of `src/`.
const LAYERS: &[&str] = &["base", "inputs", "model", "analysis", "store", "faces"];

/// The most lines a source file may have.
const MAX_LINES: usize = 600;

/// The layer of a file under `src/` (its first folder), if it has one.
fn layer(file: &str) -> Option<usize> {
    let (top, _) = file.split_once('/')?;
    LAYERS.iter().position(|l| *l == top)
}

/// The crate root's own files, which stand above the layers.
fn is_root(file: &str) -> bool {
    file == "lib.rs" || file == "main.rs"
}

/// Every `.rs` file under `src/`, by its path there.
fn real_tree() -> Tree {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut tree = Tree::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
                tree.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    tree
}

/// Rule (a): files outside every layer folder.
fn outside_layers(tree: &Tree) -> Vec<String> {
    tree.keys()
        .filter(|f| !is_root(f) && layer(f).is_none())
        .map(|f| format!("src/{f} is in no layer: move it into one of the folders {LAYERS:?} (and the lib.rs diagram)"))
        .collect()
}

/// Rule (b): imports of a higher layer (or of the crate root).
fn upward(g: &Graph) -> Vec<String> {
    let mut wrong = Vec::new();
    for (from, to) in g {
        let Some(lf) = layer(from) else { continue };
        for (target, path) in to {
            match layer(target) {
                Some(lt) if lt <= lf => {}
                Some(lt) => wrong.push(format!(
                    "src/{from} ({}) uses src/{target} ({}, a higher layer) through `{path}`: move what it needs down \
                     into {} or lower, or the user up",
                    LAYERS[lf], LAYERS[lt], LAYERS[lf]
                )),
                None => wrong.push(format!(
                    "src/{from} uses src/{target}, which is in no layer, through `{path}`: name the item by its \
                     layer's path (crate::<layer>::…)"
                )),
            }
        }
    }
    wrong
}

/// Rule (c): import circles between files.
fn circled(g: &Graph) -> Vec<String> {
    circles(g)
        .iter()
        .map(|c| {
            let steps: Vec<String> =
                c.windows(2).map(|w| format!("src/{} → src/{} (`{}`)", w[0], w[1], g[&w[0]][&w[1]])).collect();
            format!(
                "import circle: {}: move the piece they share down into its own file that each uses (or merge them \
                 if they are one concept)",
                steps.join(", ")
            )
        })
        .collect()
}

/// Rule (d): a file of the core (outside `faces/`) that reaches `faces/ui` or `faces/cli`,
/// directly or through other files.
fn core_reaching_faces(g: &Graph) -> Vec<String> {
    let face = |f: &str| f.starts_with("faces/ui/") || f.starts_with("faces/cli/");
    let mut wrong = Vec::new();
    for start in g.keys().filter(|f| !f.starts_with("faces/") && !is_root(f)) {
        // Breadth first, remembering the way, so the message shows the chain.
        let mut from = std::collections::BTreeMap::from([(start.clone(), String::new())]);
        let mut todo = std::collections::VecDeque::from([start.clone()]);
        while let Some(v) = todo.pop_front() {
            if face(&v) {
                let mut chain = vec![v.clone()];
                while let Some(p) = from.get(chain.last().unwrap()).filter(|p| !p.is_empty()) {
                    chain.push(p.clone());
                }
                chain.reverse();
                wrong.push(format!(
                    "src/{start} (the core) reaches the terminal or the command line: {}: give the core's caller what \
                     it needs instead, from a layer below the faces",
                    chain.iter().map(|c| format!("src/{c}")).collect::<Vec<_>>().join(" → ")
                ));
                break;
            }
            for t in g.get(&v).into_iter().flat_map(|e| e.keys()) {
                if !from.contains_key(t) {
                    from.insert(t.clone(), v.clone());
                    todo.push_back(t.clone());
                }
            }
        }
    }
    wrong
}

/// The size rule: source files over [`MAX_LINES`] lines, tests included.
fn too_long(tree: &Tree) -> Vec<String> {
    tree.iter()
        .filter(|(_, text)| text.lines().count() > MAX_LINES)
        .map(|(f, text)| {
            format!(
                "src/{f} has {} lines (at most {MAX_LINES}): split it along a seam of its concept, one concept per file",
                text.lines().count()
            )
        })
        .collect()
}

fn fake(files: &[(&str, &str)]) -> Tree {
    files.iter().map(|(f, t)| (f.to_string(), t.to_string())).collect()
}

/// A small tree that holds every rule; each test plants one breach in it.
fn sound() -> Vec<(&'static str, &'static str)> {
    vec![
        ("lib.rs", "pub mod base;\npub mod inputs;\npub mod faces;\n"),
        ("base/mod.rs", "pub mod text;\n"),
        ("base/text.rs", "pub fn clean() {}\n"),
        ("inputs/mod.rs", "pub mod scan;\npub mod read;\n"),
        ("inputs/scan/mod.rs", "pub mod needle;\npub use needle::Needle;\nuse crate::base::text;\n"),
        ("inputs/scan/needle.rs", "pub struct Needle;\nfn f() { super::super::read::go(); }\n"),
        ("inputs/read.rs", "use crate::base::{text::clean};\npub fn go() { clean(); }\n"),
        ("faces/mod.rs", "pub mod ui;\n"),
        ("faces/ui/mod.rs", "use crate::inputs::scan::Needle;\n"),
    ]
}

fn with<'a>(change: &[(&'a str, &'a str)]) -> Tree {
    let mut files: Vec<(&'a str, &'a str)> = sound();
    for (f, t) in change {
        files.retain(|(g, _)| g != f);
        files.push((f, t));
    }
    fake(&files)
}

#[test]
fn the_planted_tree_is_sound() {
    let tree = fake(&sound());
    let g = graph(&tree);
    assert!(outside_layers(&tree).is_empty() && upward(&g).is_empty() && circled(&g).is_empty());
    assert!(core_reaching_faces(&g).is_empty() && too_long(&tree).is_empty());
}

#[test]
fn every_file_is_in_a_layer_folder() {
    let planted = with(&[("helpers.rs", "pub fn help() {}\n")]);
    let wrong = outside_layers(&planted);
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(wrong[0].contains("src/helpers.rs is in no layer"), "{wrong:?}");
    let wrong = outside_layers(&real_tree());
    assert!(wrong.is_empty(), "files outside the layers:\n{}", wrong.join("\n"));
}

#[test]
fn no_file_uses_a_higher_layer() {
    // A plain path in the code, a grouped import and a `super::` import, each reaching up.
    for (file, text) in [
        ("base/text.rs", "pub fn clean() { crate::inputs::read::go(); }\n"),
        ("base/text.rs", "use crate::{inputs::{scan::{Needle}, read}};\n"),
        ("base/text.rs", "use super::super::faces::ui;\n"),
        ("inputs/read.rs", "use crate::faces::{self};\nfn f() { faces::ui::draw(); }\n"),
    ] {
        let wrong = upward(&graph(&with(&[(file, text)])));
        assert!(!wrong.is_empty(), "not seen: {text}");
        assert!(wrong.iter().all(|w| w.starts_with(&format!("src/{file} ("))), "{wrong:?}");
        assert!(wrong.iter().any(|w| w.contains("a higher layer")), "{wrong:?}");
    }
    // Comments, strings and test items do not count.
    let quiet = "// crate::faces::ui\n/* crate::faces::ui */ fn f() -> &'static str { \"crate::faces::ui\" }\n\
                 #[cfg(test)]\nmod tests { use crate::faces::ui; }\n#[cfg(test)]\nmod more;\n";
    let planted = with(&[("base/text.rs", quiet), ("base/text/more.rs", "use crate::faces::ui;\n")]);
    assert_eq!(upward(&graph(&planted)), Vec::<String>::new());
    let wrong = upward(&graph(&real_tree()));
    assert!(wrong.is_empty(), "the layers do not hold:\n{}", wrong.join("\n"));
}

#[test]
fn no_files_import_each_other_even_through_others() {
    // Directly, through a re-export, and through a third file.
    for change in [
        vec![("base/text.rs", "use super::text2::x;\n"), ("base/text2.rs", "use crate::base::text::clean;\n")],
        vec![
            (
                "inputs/scan/needle.rs",
                "pub struct Needle;\nuse crate::inputs::scan::Needle as N;\nfn f() { super::super::read::go(); }\n",
            ),
            ("inputs/read.rs", "pub fn go() { crate::inputs::scan::Needle; }\n"),
        ],
        vec![
            ("inputs/read.rs", "pub fn go() { self::help(); crate::inputs::scan::helper::h(); }\n"),
            ("inputs/scan/helper.rs", "use super::needle::Needle;\n"),
        ],
    ] {
        let wrong = circled(&graph(&with(&change)));
        assert_eq!(wrong.len(), 1, "{change:?}: {wrong:?}");
        assert!(wrong[0].starts_with("import circle: src/"), "{wrong:?}");
    }
    // A parent listing its children (`mod x;`) is no import; using a child's item is.
    let parent = with(&[("inputs/scan/needle.rs", "pub struct Needle;\nuse super::Thing;\n")]);
    assert_eq!(circled(&graph(&parent)).len(), 1);
    let wrong = circled(&graph(&real_tree()));
    assert!(wrong.is_empty(), "{} import circles:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn the_core_never_reaches_the_terminal_or_the_command_line() {
    let planted = with(&[
        ("inputs/read.rs", "pub fn go() { crate::faces::helper::h(); }\n"),
        ("faces/helper.rs", "use super::ui::draw;\n"),
    ]);
    let wrong = core_reaching_faces(&graph(&planted));
    assert_eq!(wrong.len(), 3, "{wrong:?}"); // read.rs, and needle.rs and scan/mod.rs through it
    assert!(wrong.iter().any(|w| w.contains("src/inputs/read.rs → src/faces/helper.rs → src/faces/ui/mod.rs")));
    let wrong = core_reaching_faces(&graph(&real_tree()));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_source_file_is_over_600_lines() {
    let long = "fn f() {}\n".repeat(MAX_LINES + 1);
    let wrong = too_long(&with(&[("base/text.rs", long.as_str())]));
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(wrong[0].starts_with("src/base/text.rs has 601 lines"));
    assert!(too_long(&with(&[("base/text.rs", &long[10..])])).is_empty());
    let wrong = too_long(&real_tree());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_reader_maps_each_path_to_the_file_of_its_deepest_module() {
    let tree = fake(&[
        ("lib.rs", "pub mod inputs;\n"),
        ("inputs/mod.rs", "pub mod transcript;\n"),
        ("inputs/transcript/mod.rs", "pub mod scan;\npub mod said;\nuse self::said::Said;\n"),
        ("inputs/transcript/scan/mod.rs", "pub struct Needle;\n"),
        ("inputs/transcript/said.rs", "pub mod noise;\nuse noise::clean;\n"),
        ("inputs/transcript/said/noise.rs", "use crate::{inputs::{transcript::scan::{self, Needle}}};\n"),
        (
            "inputs/other.rs",
            "fn f() { let s = 'x'; let t = r#\"crate::inputs::transcript\"#; crate::inputs::transcript::scan::Needle::new(); }\n",
        ),
    ]);
    let g = graph(&tree);
    let edges = |f: &str| g[f].keys().cloned().collect::<Vec<_>>();
    assert_eq!(edges("inputs/other.rs"), ["inputs/transcript/scan/mod.rs"]);
    assert_eq!(edges("inputs/transcript/said/noise.rs"), ["inputs/transcript/scan/mod.rs"]);
    assert_eq!(edges("inputs/transcript/said.rs"), ["inputs/transcript/said/noise.rs"]);
    assert_eq!(edges("inputs/transcript/mod.rs"), ["inputs/transcript/said.rs"]);
    assert!(edges("inputs/mod.rs").is_empty() && edges("lib.rs").is_empty());
}
