//! Reads the import graph of a tree of Rust sources, file by file: every path a file's
//! code names (`use` trees, grouped and nested, and paths in the code itself, through
//! `crate::`, `super::`, `self::`, a child module or a name a `use` brought in) mapped to
//! the file that defines the deepest module it names, following `pub use` re-exports to
//! where the item lives. Comments, string literals and test items (`#[cfg(test)]` and the
//! item it guards, and the files of a `#[cfg(test)] mod x;`) are left out. `mod x;` is a
//! declaration, not an import.

use std::collections::{BTreeMap, BTreeSet};

/// A tree of sources: path under `src/` (`inputs/transcript/mod.rs`) → text.
pub type Tree = BTreeMap<String, String>;

/// File → the files it imports, each with one path that names it (for the messages).
pub type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The module path of a file under `src/`: `a/b/mod.rs` and `a/b.rs` are both `a::b`;
/// `lib.rs` and `main.rs` are the crate root.
pub fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.split('/').map(str::to_string).collect();
    let last = parts.pop().unwrap_or_default();
    match last.as_str() {
        "mod.rs" => {}
        "lib.rs" | "main.rs" if parts.is_empty() => {}
        _ => parts.push(last.trim_end_matches(".rs").to_string()),
    }
    parts
}

/// `text` with comments and the insides of string and char literals blanked out.
pub fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        if at(i) == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if at(i) == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
            continue;
        }
        let starts_word = i == 0 || !ident(c[i - 1]);
        // Raw strings: r"…", r#"…"#, br#"…"#, cr"…".
        let prefix = if starts_word && (at(i) == 'b' || at(i) == 'c') && at(i + 1) == 'r' {
            2
        } else if starts_word && at(i) == 'r' {
            1
        } else {
            0
        };
        if prefix > 0 {
            let mut j = i + prefix;
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) == '"' {
                j += 1;
                loop {
                    if j >= c.len() {
                        break;
                    }
                    if c[j] == '"' && (1..=hashes).all(|h| at(j + h) == '#') {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                out.push_str("\"\"");
                i = j;
                continue;
            }
        }
        if at(i) == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
            continue;
        }
        if at(i) == '\'' {
            // A char literal ('x', '\n', '\u{1F600}'), not a lifetime ('a).
            if at(i + 1) == '\\' {
                let mut j = i + 2;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                out.push_str("' '");
                i = j + 1;
                continue;
            }
            if at(i + 2) == '\'' {
                out.push_str("' '");
                i += 3;
                continue;
            }
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Path,
    Punct(char),
}

fn tokens(code: &str) -> Vec<Tok> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphanumeric() || ch == '_' || (ch == '$' && c.get(i + 1).is_some_and(|n| n.is_alphabetic())) {
            let start = i;
            i += 1;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            out.push(Tok::Ident(word.trim_start_matches('$').to_string()));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok::Path);
            i += 2;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

/// The tokens of `toks` with every test item left out: an item under an attribute that
/// holds `cfg(test)` (to the end of its braces, or its `;`). Also the names of the
/// `#[cfg(test)] mod x;` the file declares.
fn without_tests(toks: Vec<Tok>) -> (Vec<Tok>, Vec<String>) {
    let mut out = Vec::with_capacity(toks.len());
    let mut test_mods = Vec::new();
    let mut i = 0;
    // The end (exclusive) of the attribute starting at `i` (`#` `[` … `]`) and whether it
    // is `cfg(test)`.
    let attribute = |i: usize| -> Option<(usize, bool)> {
        if toks.get(i) != Some(&Tok::Punct('#')) || toks.get(i + 1) != Some(&Tok::Punct('[')) {
            return None;
        }
        let mut depth = 0;
        let mut j = i + 1;
        while j < toks.len() {
            match toks[j] {
                Tok::Punct('[') => depth += 1,
                Tok::Punct(']') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let inside = &toks[i + 2..j.min(toks.len())];
        let test = inside.windows(4).any(|w| {
            w[0] == Tok::Ident("cfg".into())
                && w[1] == Tok::Punct('(')
                && w[2] == Tok::Ident("test".into())
                && w[3] == Tok::Punct(')')
        });
        Some((j + 1, test))
    };
    while i < toks.len() {
        let Some((end, true)) = attribute(i) else {
            out.push(toks[i].clone());
            i += 1;
            continue;
        };
        let mut j = end;
        while let Some((next, _)) = attribute(j) {
            j = next;
        }
        // The item: to a `;` outside brackets, or to its closing brace (and a `;` after it).
        let item = j;
        let mut depth = 0i32;
        while j < toks.len() {
            match toks[j] {
                Tok::Punct('{' | '(' | '[') => depth += 1,
                Tok::Punct('}' | ')' | ']') => {
                    depth -= 1;
                    if depth == 0 && toks[j] == Tok::Punct('}') {
                        if toks.get(j + 1) == Some(&Tok::Punct(';')) {
                            j += 1;
                        }
                        break;
                    }
                }
                Tok::Punct(';') if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        let words: Vec<&Tok> = toks[item..j.min(toks.len())].iter().collect();
        if let Some(k) = words.iter().position(|t| **t == Tok::Ident("mod".into()))
            && let Some(Tok::Ident(name)) = words.get(k + 1)
            && k + 2 == words.len()
        {
            test_mods.push(name.clone());
        }
        i = j + 1;
    }
    (out, test_mods)
}

/// One path of a `use` tree: its segments, the name it binds (`None` for a glob or
/// `as _`) and whether the `use` is `pub` (a re-export).
#[derive(Debug)]
struct Used {
    path: Vec<String>,
    binds: Option<String>,
    public: bool,
}

/// Reads the `use` tree at `toks[*i]` under `prefix`.
fn use_tree(toks: &[Tok], i: &mut usize, prefix: &[String], public: bool, out: &mut Vec<Used>) {
    let mut path = prefix.to_vec();
    if toks.get(*i) == Some(&Tok::Path) {
        *i += 1;
    }
    loop {
        match toks.get(*i) {
            Some(Tok::Ident(w)) if w != "as" => {
                path.push(w.clone());
                *i += 1;
                if toks.get(*i) == Some(&Tok::Path) {
                    *i += 1;
                    continue;
                }
                break;
            }
            Some(Tok::Punct('*')) => {
                *i += 1;
                out.push(Used { path, binds: None, public });
                return;
            }
            Some(Tok::Punct('{')) => {
                *i += 1;
                while *i < toks.len() && toks[*i] != Tok::Punct('}') {
                    if toks[*i] == Tok::Punct(',') {
                        *i += 1;
                        continue;
                    }
                    let before = *i;
                    use_tree(toks, i, &path, public, out);
                    if *i == before {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            _ => break,
        }
    }
    if path.last().is_some_and(|s| s == "self") {
        path.pop();
    }
    let mut binds = path.last().cloned();
    if toks.get(*i) == Some(&Tok::Ident("as".into())) {
        binds = match toks.get(*i + 1) {
            Some(Tok::Ident(a)) if a != "_" => Some(a.clone()),
            _ => None,
        };
        *i += 2;
    }
    if path.len() > prefix.len() || !path.is_empty() {
        out.push(Used { path, binds, public });
    }
}

/// One file read: its module, its `use` paths, the other paths its code names, and the
/// test modules it declares.
#[derive(Debug, Default)]
struct File {
    module: Vec<String>,
    uses: Vec<Used>,
    paths: Vec<Vec<String>>,
    test_mods: Vec<String>,
}

fn read(file: &str, text: &str) -> File {
    let (toks, test_mods) = without_tests(tokens(&strip(text)));
    let mut uses = Vec::new();
    let mut paths = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == Tok::Ident("use".into()) {
            let public = matches!(i.checked_sub(1).map(|k| &toks[k]), Some(Tok::Ident(w)) if w == "pub")
                || (toks.get(i.wrapping_sub(1)) == Some(&Tok::Punct(')'))
                    && toks[..i].iter().rev().take(6).any(|t| *t == Tok::Ident("pub".into())));
            i += 1;
            use_tree(&toks, &mut i, &[], public, &mut uses);
            continue;
        }
        // A path in the code: a word followed by `::` and more words, not itself the tail
        // of a longer path.
        if let Tok::Ident(w) = &toks[i]
            && toks.get(i + 1) == Some(&Tok::Path)
            && (i == 0 || toks[i - 1] != Tok::Path)
        {
            let mut path = vec![w.clone()];
            let mut j = i + 1;
            while toks.get(j) == Some(&Tok::Path)
                && let Some(Tok::Ident(next)) = toks.get(j + 1)
            {
                path.push(next.clone());
                j += 2;
            }
            paths.push(path);
            i = j;
            continue;
        }
        i += 1;
    }
    File { module: module_of(file), uses, paths, test_mods }
}

/// The files read and the modules they define.
struct Crate {
    files: BTreeMap<String, File>,
    modules: BTreeMap<Vec<String>, String>,
}

impl Crate {
    fn new(tree: &Tree) -> Crate {
        let mut files: BTreeMap<String, File> = tree.iter().map(|(f, t)| (f.clone(), read(f, t))).collect();
        // Files of `#[cfg(test)] mod x;` (and everything under them) are test code.
        let test_roots: Vec<Vec<String>> = files
            .values()
            .flat_map(|f| f.test_mods.iter().map(|m| [f.module.clone(), vec![m.clone()]].concat()))
            .collect();
        files.retain(|_, f| !test_roots.iter().any(|r| f.module.starts_with(r)));
        let modules = files.iter().map(|(name, f)| (f.module.clone(), name.clone())).collect();
        Crate { files, modules }
    }

    /// The file that `path`, named in `file`, leads to: the deepest module it names, or
    /// where that module's `pub use` re-export of the next name leads.
    fn resolve(&self, file: &str, path: &[String], depth: usize) -> Option<String> {
        let f = self.files.get(file)?;
        let first = path.first()?;
        let (mut module, rest): (Vec<String>, &[String]) = match first.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (f.module.clone(), &path[1..]),
            "super" => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                let m = &f.module;
                (m[..m.len().saturating_sub(ups)].to_vec(), &path[ups..])
            }
            name => {
                let child = [f.module.clone(), vec![name.to_string()]].concat();
                if self.modules.contains_key(&child) {
                    (child, &path[1..])
                } else if depth < 8
                    && let Some(u) = f.uses.iter().find(|u| u.binds.as_deref() == Some(name))
                {
                    let whole = [u.path.clone(), path[1..].to_vec()].concat();
                    return self.resolve(file, &whole, depth + 1);
                } else {
                    return None; // std, a dependency, a local type
                }
            }
        };
        let mut k = 0;
        while let Some(seg) = rest.get(k) {
            let next = [module.clone(), vec![seg.clone()]].concat();
            if !self.modules.contains_key(&next) {
                break;
            }
            module = next;
            k += 1;
        }
        let target = self.modules.get(&module)?;
        if let Some(name) = rest.get(k)
            && depth < 8
            && let Some(u) = self.files[target].uses.iter().find(|u| u.public && u.binds.as_deref() == Some(name))
        {
            let whole = [u.path.clone(), rest[k + 1..].to_vec()].concat();
            return self.resolve(target, &whole, depth + 1).or_else(|| Some(target.clone()));
        }
        Some(target.clone())
    }
}

/// The import graph of `tree` (test files left out).
pub fn graph(tree: &Tree) -> Graph {
    let krate = Crate::new(tree);
    let mut g = Graph::new();
    for (name, f) in &krate.files {
        let edges = g.entry(name.clone()).or_default();
        let named = f.uses.iter().map(|u| &u.path).chain(&f.paths);
        for path in named {
            if let Some(to) = krate.resolve(name, path, 0)
                && to != *name
            {
                edges.entry(to).or_insert_with(|| path.join("::"));
            }
        }
    }
    g
}

/// The circles of `g`: every strongly connected set of more than one file, each as one
/// shortest circle through its first file.
pub fn circles(g: &Graph) -> Vec<Vec<String>> {
    // Tarjan's algorithm, iterative.
    let names: Vec<&String> = g.keys().collect();
    let at: BTreeMap<&String, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let next: Vec<Vec<usize>> =
        names.iter().map(|n| g[*n].keys().filter_map(|t| at.get(t).copied()).collect()).collect();
    let n = names.len();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut sets, mut counter) = (Vec::new(), Vec::new(), 0);
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if *e == 0 && index[v] == usize::MAX {
                index[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(&w) = next[v].get(*e) {
                *e += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut set = BTreeSet::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    set.insert(w);
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    sets.push(set);
                }
            }
        }
    }
    let mut out: Vec<Vec<String>> = sets
        .iter()
        .map(|set| {
            // The shortest way from the set's first file back to itself, inside the set.
            let start = *set.iter().next().unwrap();
            let mut from = BTreeMap::new();
            let mut todo = std::collections::VecDeque::from([start]);
            'search: while let Some(v) = todo.pop_front() {
                for &w in &next[v] {
                    if !set.contains(&w) {
                        continue;
                    }
                    if w == start {
                        from.insert(usize::MAX, v);
                        break 'search;
                    }
                    if let std::collections::btree_map::Entry::Vacant(e) = from.entry(w) {
                        e.insert(v);
                        todo.push_back(w);
                    }
                }
            }
            let mut circle = vec![names[start].clone()];
            let mut v = from[&usize::MAX];
            while v != start {
                circle.push(names[v].clone());
                v = from[&v];
            }
            circle.push(names[start].clone());
            let last = circle.len() - 1;
            circle[1..last].reverse();
            circle
        })
        .collect();
    out.sort();
    out
}
