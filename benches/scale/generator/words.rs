//! Words, sentences, code and logs: the text a coding session is made of. Nothing here is
//! meant to state a planted fact; facts are written by [`super::facts`] only.

use super::rng::Rng;

#[rustfmt::skip]
pub const NOUNS: &[&str] = &[
    "config", "handler", "test", "suite", "build", "cache", "request", "response", "schema", "migration",
    "module", "function", "error", "branch", "commit", "query", "index", "router", "worker", "queue",
    "session", "token", "layout", "component", "fixture", "snapshot", "parser", "endpoint", "service", "client",
    "deploy", "pipeline", "container", "volume", "script", "template", "hook", "store", "reducer", "job",
    "benchmark", "logger", "timeout", "retry", "payload", "header", "cookie", "middleware", "adapter", "driver",
];
#[rustfmt::skip]
pub const VERBS: &[&str] = &[
    "check", "fix", "update", "run", "refactor", "rename", "move", "split", "merge", "inspect", "rewrite",
    "extract", "test", "debug", "profile", "trace", "replace", "remove", "add", "document", "wire", "mock",
    "review", "simplify", "cache", "validate", "parse", "format", "bump", "revert", "pin", "patch",
];
pub const VERBS3: &[&str] = &[
    "fails",
    "passes",
    "breaks",
    "works",
    "hangs",
    "returns",
    "throws",
    "crashes",
    "compiles",
    "retries",
    "loads",
    "blocks",
    "leaks",
    "times out",
    "recovers",
    "renders",
    "flakes",
    "stalls",
];
#[rustfmt::skip]
pub const ADJS: &[&str] = &[
    "new", "old", "flaky", "slow", "broken", "missing", "stale", "empty", "nested", "async", "shared",
    "global", "local", "cached", "typed", "generated", "legacy", "unused", "duplicate", "invalid",
];
#[rustfmt::skip]
pub const FILLER: &[&str] = &[
    "the", "the", "the", "a", "this", "that", "it", "and", "so", "but", "then", "now", "also", "still",
    "just", "again", "here", "there", "first", "maybe", "probably", "actually", "with", "from", "for",
    "in", "on", "to", "of", "is", "was", "should", "could", "when", "after", "before", "because",
];
#[rustfmt::skip]
pub const IDENTS: &[&str] = &[
    "user", "order", "cart", "item", "price", "total", "account", "invoice", "payment", "ctx", "req", "res",
    "config", "opts", "result", "value", "entry", "key", "state", "props", "data", "rows", "client", "pool",
    "conn", "span", "line", "buf", "path", "name", "count", "limit", "offset", "cursor", "page", "token",
];
#[rustfmt::skip]
pub const TYPES: &[&str] =
    &["String", "Vec<u8>", "Option<User>", "Result<()>", "Order", "Cart", "Config", "HashMap<String, Value>", "u64", "bool"];
#[rustfmt::skip]
pub const DIRS: &[&str] = &["src", "src/api", "src/lib", "src/components", "tests", "scripts", "app/models", "web/src", "crates/core/src"];
#[rustfmt::skip]
pub const EXTS: &[&str] = &["ts", "tsx", "rs", "py", "go", "js", "ex"];

#[rustfmt::skip]
const JA: &[&str] = &[
    "テストを実行してください", "設定ファイルを確認します", "デプロイは完了しました", "このエラーを調べてみます",
    "ビルドが失敗しています", "キャッシュを削除して再実行します", "型のエラーを修正しました", "変更をコミットしてください",
    "ログを見ると接続がタイムアウトしています", "依存関係を更新しました", "このテストは不安定です", "マイグレーションを追加します",
];

/// A sentence of plain prose (user or assistant talk).
pub fn sentence(r: &mut Rng) -> String {
    let n = NOUNS;
    match r.below(8) {
        0 => format!("Let me {} the {} in `{}` first.", r.pick(VERBS), r.pick(n), path(r)),
        1 => format!(
            "I'll {} the {} {} and then {} the {}.",
            r.pick(VERBS),
            r.pick(ADJS),
            r.pick(n),
            r.pick(VERBS),
            r.pick(n)
        ),
        2 => format!("The {} {} because the {} is {}.", r.pick(n), r.pick(VERBS3), r.pick(n), r.pick(ADJS)),
        3 => format!("Can you {} the {} {}? It {} again.", r.pick(VERBS), r.pick(ADJS), r.pick(n), r.pick(VERBS3)),
        4 => format!("Now the {} {} and {} {} tests pass.", r.pick(n), r.pick(VERBS3), r.range(2, 400), r.pick(n)),
        5 => format!("`{}` {} when the {} is {}.", ident_call(r), r.pick(VERBS3), r.pick(n), r.pick(ADJS)),
        _ => {
            let k = r.range(6, 16);
            let mut w: Vec<&str> = Vec::with_capacity(k);
            for _ in 0..k {
                w.push(match r.below(4) {
                    0 | 1 => *r.pick(FILLER),
                    2 => *r.pick(n),
                    _ => *r.pick(ADJS),
                });
            }
            let mut s = w.join(" ");
            if let Some(f) = s.get_mut(0..1) {
                f.make_ascii_uppercase();
            }
            s.push('.');
            s
        }
    }
}

/// A paragraph of `k` sentences.
pub fn paragraph(r: &mut Rng, k: usize) -> String {
    (0..k).map(|_| sentence(r)).collect::<Vec<_>>().join(" ")
}

/// Prose of about `bytes` bytes, in paragraphs, sometimes with a Markdown list.
pub fn prose(r: &mut Rng, bytes: usize, japanese: bool) -> String {
    let mut out = String::new();
    while out.len() < bytes {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        if japanese && r.chance(0.6) {
            for _ in 0..r.range(1, 4) {
                let ja = r.pick(JA);
                out.push_str(ja);
                out.push('。');
            }
        } else if r.chance(0.2) {
            for _ in 0..r.range(2, 5) {
                out.push_str("- ");
                out.push_str(&sentence(r));
                out.push('\n');
            }
        } else {
            let k = r.range(1, 4);
            out.push_str(&paragraph(r, k));
        }
    }
    out
}

/// A source path such as `src/api/order_client.ts`.
pub fn path(r: &mut Rng) -> String {
    format!("{}/{}_{}.{}", r.pick(DIRS), r.pick(IDENTS), r.pick(NOUNS), r.pick(EXTS))
}

fn ident_call(r: &mut Rng) -> String {
    format!("{}.{}_{}()", r.pick(IDENTS), r.pick(VERBS), r.pick(IDENTS))
}

/// One line of code.
pub fn code_line(r: &mut Rng, depth: usize) -> String {
    let ind = "    ".repeat(depth);
    match r.below(9) {
        0 => format!(
            "{ind}fn {}_{}(&self, {}: {}) -> {} {{",
            r.pick(VERBS),
            r.pick(IDENTS),
            r.pick(IDENTS),
            r.pick(TYPES),
            r.pick(TYPES)
        ),
        1 => format!("{ind}let {} = {}.{}({})?;", r.pick(IDENTS), r.pick(IDENTS), r.pick(VERBS), r.range(0, 4096)),
        2 => format!(
            "{ind}const {} = await {}.{}(\"{}\");",
            r.pick(IDENTS),
            r.pick(IDENTS),
            r.pick(VERBS),
            r.pick(NOUNS)
        ),
        3 => format!("{ind}import {{ {}{} }} from \"./{}\";", r.pick(NOUNS), r.pick(NOUNS), r.pick(IDENTS)),
        4 => format!(
            "{ind}if {}.{}() > {} {{ return Err({}::{}); }}",
            r.pick(IDENTS),
            r.pick(IDENTS),
            r.range(0, 100),
            r.pick(TYPES),
            r.pick(NOUNS)
        ),
        5 => format!("{ind}// {}", sentence(r)),
        6 => format!("{ind}}}"),
        7 => format!("{ind}    {}: {}.{}.clone(),", r.pick(IDENTS), r.pick(IDENTS), r.pick(IDENTS)),
        _ => format!("{ind}self.{}.insert({}, {});", r.pick(IDENTS), r.pick(IDENTS), r.pick(IDENTS)),
    }
}

/// A file as the Read tool shows it: `     N→line`, about `bytes` long.
pub fn numbered_file(r: &mut Rng, bytes: usize, start: usize) -> String {
    let mut out = String::new();
    let mut n = start;
    while out.len() < bytes {
        let depth = r.below(3);
        out.push_str(&format!("{n:>6}\u{2192}{}\n", code_line(r, depth)));
        n += 1;
    }
    out
}

/// One line of tool output: test runners, compilers, servers.
pub fn log_line(r: &mut Rng) -> String {
    let t = format!("{:02}:{:02}:{:02}.{:03}", r.below(24), r.below(60), r.below(60), r.below(1000));
    match r.below(8) {
        0 => format!(" \u{2713} {} > {} {} ({} ms)", path(r), r.pick(VERBS), r.pick(NOUNS), r.range(1, 900)),
        1 => format!(" PASS  {} ({}.{} s)", path(r), r.below(9), r.below(1000)),
        2 => {
            format!("   Compiling {}-{} v{}.{}.{}", r.pick(NOUNS), r.pick(IDENTS), r.below(3), r.below(40), r.below(20))
        }
        3 => format!(
            "{t} INFO {}::{}: {} {} in {}ms",
            r.pick(IDENTS),
            r.pick(NOUNS),
            r.pick(NOUNS),
            r.pick(VERBS3),
            r.range(1, 3000)
        ),
        4 => format!("{t} WARN {}: {} {} {}", r.pick(NOUNS), r.pick(ADJS), r.pick(NOUNS), r.pick(VERBS3)),
        5 => format!("error[E0{}]: {} {} in `{}`", r.range(100, 799), r.pick(ADJS), r.pick(NOUNS), r.pick(IDENTS)),
        6 => format!("    at {} ({}:{}:{})", ident_call(r), path(r), r.range(1, 900), r.range(1, 80)),
        _ => format!("{} | {} {} {}", r.range(1, 9999), r.pick(NOUNS), r.pick(VERBS3), r.pick(FILLER)),
    }
}

/// `lines` lines of tool output.
pub fn log(r: &mut Rng, bytes: usize) -> String {
    let mut out = String::new();
    while out.len() < bytes {
        out.push_str(&log_line(r));
        out.push('\n');
    }
    out
}

/// A shell command the assistant might run.
pub fn command(r: &mut Rng) -> String {
    match r.below(7) {
        0 => format!("pnpm test -- {}", path(r)),
        1 => "cargo test --workspace".to_string(),
        2 => format!("rg -n \"{}\" {}", r.pick(IDENTS), r.pick(DIRS)),
        3 => format!("git diff {}", path(r)),
        4 => format!("npm run {}", r.pick(VERBS)),
        5 => format!("ls -la {}", r.pick(DIRS)),
        _ => format!("docker compose logs {} --tail {}", r.pick(NOUNS), r.range(20, 500)),
    }
}
