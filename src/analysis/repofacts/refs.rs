//! What a note line says about the project's repository: file paths, commit ids, branch
//! names and script names (`pnpm run build`, `make deploy`, `just lint`, `cargo run --bin
//! x`). Precision first: a reference is taken only where it can only mean the project —
//! a path that names a file or a source folder, a commit id named as one, a branch name in
//! backticks beside the word for branch, a script run by its runner. Globs, placeholders,
//! home-folder and parent-folder paths, URLs and routes are left alone.

use crate::analysis::claims::{self, ClaimKind};

/// A script runner whose names a manifest of the project lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runner {
    /// `npm`/`pnpm`/`yarn`/`bun`: `scripts` of a package.json.
    Node,
    /// `make`: a Makefile's targets.
    Make,
    /// `just`: a justfile's recipes.
    Just,
    /// `cargo run --bin`: a Cargo.toml's binaries.
    CargoBin,
}

/// One thing a line says about the repository.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reference {
    /// A path, as written (`src/auth/token.ts`, `/home/dev/shop/src/x.ts`).
    Path(String),
    /// A commit id (7–40 hex digits).
    Commit(String),
    /// A branch name.
    Branch(String),
    /// A script of a runner: the command as written and the script's name.
    Script {
        /// Which manifest lists it.
        runner: Runner,
        /// The command as written (`pnpm run deploy`).
        command: String,
        /// The script's name (`deploy`).
        name: String,
    },
}

impl Reference {
    /// The text of the note the reference is (the flag's claim).
    pub fn text(&self) -> &str {
        match self {
            Reference::Path(s) | Reference::Commit(s) | Reference::Branch(s) => s,
            Reference::Script { command, .. } => command,
        }
    }
}

/// Words for a branch (lowercase; a CJK word may carry a particle).
const BRANCH_WORDS: &[&str] = &["branch", "branches", "ブランチ", "브랜치", "分支"];

/// Words that say a thing is gone or was (`removed`, `no longer`, 削除, 삭제, 删除): a line
/// holding one may name a path, branch or script that is rightly not there any more.
const GONE_WORDS: &[&str] = &[
    "removed",
    "remove",
    "deleted",
    "delete",
    "outdated",
    "obsolete",
    "deprecated",
    "renamed",
    "formerly",
    "previously",
    "old",
    "legacy",
    "replaced",
    "replace",
    "gone",
    "instead",
    "used",
    "was",
    "were",
    "dropped",
    "retired",
    "moved",
    "migrated",
    "不再",
    "删除",
    "删掉",
    "废弃",
    "旧",
    "以前",
    "原来",
    "削除",
    "廃止",
    "以前",
    "元の",
    "なくなっ",
    "삭제",
    "폐기",
    "이전",
    "예전",
    "더 이상",
    "no longer",
];

/// True when `line` says something is gone or was.
fn says_gone(line: &str) -> bool {
    let lower = line.to_lowercase();
    // Words as written between spaces and punctuation: a path's part (`app_old.js`) is no word.
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && !"_-./`".contains(c))
        .map(|w| w.trim_matches(|c: char| ".`".contains(c)))
        .filter(|w| !w.is_empty())
        .collect();
    GONE_WORDS.iter().any(|g| if g.is_ascii() && !g.contains(' ') { words.contains(g) } else { lower.contains(g) })
}

/// The references of `line`, with the byte range of each claim they come from. A line that
/// says something is gone or was (`src/old.ts was removed`) names no path, branch or
/// script the project must hold; its commit ids still count.
pub fn references(line: &str) -> Vec<Reference> {
    let ids = claims::commit_ids(line);
    let gone = says_gone(line);
    let mut out = Vec::new();
    for c in claims::extract(line) {
        let text = c.text.as_str();
        match c.kind {
            ClaimKind::Path if !gone && !near_branch_word(line, c.start, c.end) && project_path(text) => {
                out.push(Reference::Path(text.to_string()));
            }
            ClaimKind::Code if ids.iter().any(|r| r.start < c.end && c.start < r.end) => {
                out.push(Reference::Commit(text.to_string()));
            }
            ClaimKind::Code if !gone => {
                if near_branch_word(line, c.start, c.end) && branch_name(text) {
                    out.push(Reference::Branch(text.to_string()));
                } else if let Some(s) = script(text) {
                    out.push(s);
                } else if whole_path(text) && project_path(text) {
                    out.push(Reference::Path(text.to_string()));
                }
            }
            _ => {}
        }
    }
    out
}

/// True when a word for branch stands just before `start` (at most two words) or just
/// after `end` in `line`.
fn near_branch_word(line: &str, start: usize, end: usize) -> bool {
    let before = line.get(..start).unwrap_or("").to_lowercase();
    let after = line.get(end..).unwrap_or("").to_lowercase();
    let words_before: Vec<&str> =
        before.split(|c: char| c.is_whitespace() || "`'\"(:,".contains(c)).filter(|w| !w.is_empty()).collect();
    let last_two = words_before.iter().rev().take(2);
    let word_after =
        after.split(|c: char| c.is_whitespace() || "`'\").,:;".contains(c)).find(|w| !w.is_empty()).unwrap_or("");
    let is_branch = |w: &str| BRANCH_WORDS.iter().any(|b| w == *b || (!b.is_ascii() && w.contains(b)));
    let cjk_after = BRANCH_WORDS.iter().any(|b| !b.is_ascii() && after.trim_start().starts_with(b));
    last_two.into_iter().any(|w| is_branch(w)) || is_branch(word_after) || cjk_after
}

/// True when `s` can be a git branch name (`main`, `feature/login-page`).
fn branch_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 200
        && !s.starts_with(['-', '/', '.'])
        && !s.ends_with(['/', '.'])
        && !s.contains("..")
        && !s.contains("//")
        && s.chars().all(|c| c.is_alphanumeric() || "._/-+".contains(c))
}

/// True when the whole of a code span is one path claim (`` `src/auth/token.ts` ``).
fn whole_path(s: &str) -> bool {
    let claims = claims::extract(s);
    claims.len() == 1 && claims[0].kind == ClaimKind::Path && claims[0].start == 0 && claims[0].end == s.len()
}

/// Top folders of a path that the build or a package manager makes (never in git, gone
/// after a clean): a path under one proves nothing about the project.
const GENERATED: &[&str] = &[
    "node_modules",
    "target",
    "dist",
    "build",
    "out",
    ".next",
    ".nuxt",
    "coverage",
    ".cache",
    "tmp",
    ".venv",
    "venv",
    "__pycache__",
    ".git",
    ".claude",
    "memory",
];

/// True when a path claim can only mean a file or folder of a project: no glob, no
/// placeholder, no home or parent folder, no Windows path; a file with an extension or a
/// folder written with its `/`, with at least one folder in it (a bare file name is often
/// a file elsewhere: `settings.json`).
pub fn project_path(s: &str) -> bool {
    let s = s.strip_prefix("./").unwrap_or(s);
    if s.len() < 3
        || s.contains(['*', '?', '[', ']', '{', '}', '<', '>', '$', '%', '\\', '|', '#', '@', '='])
        || s.contains("...")
        || s.contains('…')
        || s.contains("://")
        || s.starts_with(['~', '.'])
        || s.split('/').any(|x| x == "..")
        || !s.contains('/')
    {
        return false;
    }
    let trimmed = s.trim_end_matches('/');
    let segments: Vec<&str> = trimmed.split('/').filter(|x| !x.is_empty()).collect();
    let Some(last) = segments.last() else {
        return false;
    };
    // Placeholders: `path/to/file.ts`, `foo/bar.ts`, `XXX`, `your-project`.
    const PLACEHOLDERS: &[&str] = &["path", "to", "foo", "bar", "baz", "xxx", "example", "your", "my", "some"];
    let placeholder = segments.iter().filter(|x| PLACEHOLDERS.contains(&x.to_ascii_lowercase().as_str())).count() >= 2
        || segments.iter().any(|x| x.eq_ignore_ascii_case("xxx") || x.starts_with("your-") || x.starts_with("your_"));
    if placeholder {
        return false;
    }
    let absolute = s.starts_with('/');
    let first = if absolute { "" } else { segments[0] };
    if GENERATED.contains(&first) {
        return false;
    }
    let file = last.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=10).contains(&ext.len())
            && ext.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
    });
    let folder = s.ends_with('/');
    absolute || file || folder
}

/// The script a code span runs, when it names one by its runner.
fn script(code: &str) -> Option<Reference> {
    let words: Vec<&str> = code.split_whitespace().skip_while(|w| w.contains('=') && !w.starts_with('-')).collect();
    let (&tool, rest) = words.split_first()?;
    let name = |w: Option<&&str>| w.filter(|w| plain_name(w)).map(|w| w.to_string());
    let (runner, named) = match tool {
        "npm" | "pnpm" | "yarn" | "bun" => match rest {
            [run, n, ..] if matches!(*run, "run" | "run-script") => (Runner::Node, name(Some(n))),
            [t, ..] if *t == "test" && tool != "bun" => (Runner::Node, Some("test".to_string())),
            _ => return None,
        },
        "make" | "just" => {
            let first = rest.first()?;
            let runner = if tool == "make" { Runner::Make } else { Runner::Just };
            (runner, name(Some(first)).filter(|n| !n.contains('.')))
        }
        "cargo" => {
            let at = rest.iter().position(|w| *w == "--bin")?;
            (Runner::CargoBin, name(rest.get(at + 1)))
        }
        _ => return None,
    };
    Some(Reference::Script { runner, command: code.to_string(), name: named? })
}

/// True when `w` is a plain script, target or binary name (`build`, `test:unit`, `db-migrate`).
fn plain_name(w: &str) -> bool {
    !w.is_empty()
        && !w.starts_with('-')
        && w.len() <= 100
        && w.chars().all(|c| c.is_alphanumeric() || "_-:.".contains(c))
        && w.chars().any(char::is_alphabetic)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(line: &str) -> Vec<Reference> {
        references(line)
    }

    #[test]
    fn paths_commits_branches_and_scripts_are_found() {
        assert_eq!(refs("The token is refreshed in src/auth/token.ts"), [Reference::Path("src/auth/token.ts".into())]);
        assert_eq!(refs("Settings live in src/old_settings.ts"), [Reference::Path("src/old_settings.ts".into())]);
        assert_eq!(refs("see `packages/web/vite.config.ts`"), [Reference::Path("packages/web/vite.config.ts".into())]);
        assert_eq!(refs("fixed in commit b6b63ee"), [Reference::Commit("b6b63ee".into())]);
        assert_eq!(refs("커밋 9071411 에서 해결"), [Reference::Commit("9071411".into())]);
        assert_eq!(refs("work happens on branch `feat/login`"), [Reference::Branch("feat/login".into())]);
        assert_eq!(refs("`release-2` ブランチで作業"), [Reference::Branch("release-2".into())]);
        let deploy =
            Reference::Script { runner: Runner::Node, command: "pnpm run deploy".into(), name: "deploy".into() };
        assert_eq!(refs("Deploy with `pnpm run deploy`"), [deploy]);
        assert!(
            matches!(&refs("run `make release` first")[..], [Reference::Script { runner: Runner::Make, name, .. }] if name == "release")
        );
        assert!(matches!(&refs("`just lint` before pushing")[..], [Reference::Script { runner: Runner::Just, .. }]));
        assert!(
            matches!(&refs("`cargo run --bin seed`")[..], [Reference::Script { runner: Runner::CargoBin, name, .. }] if name == "seed")
        );
    }

    #[test]
    fn what_may_not_mean_the_project_is_left_alone() {
        for line in [
            "Settings live in ~/.claude/settings.json",
            "globs like src/**/*.ts are linted",
            "edit path/to/file.ts as needed",
            "the API serves api/v1/users",
            "see https://github.com/acme/shop/blob/main/src/x.ts",
            "config.yaml holds the port",
            "`pnpm install` then `pnpm vitest`",
            "`npm start` serves it",
            "e.g. the build output in dist/app.js",
            "../other/src/x.ts is the sibling",
            "src/../../etc/passwd.txt holds it",
            "the branch protection rule for main",
            "session 30499b10 ran the fixture",
            "`cargo test` and `cargo nextest run`",
            "see [testing](testing.md) and memory/x.md",
            "src/legacy/auth.ts was removed in the refactor",
            "`npm run build:old` is no longer used",
            "`src/old.ts` は削除した",
            "`feat/x` 브랜치는 삭제됨",
            "the old handler is src/auth/handler.ts",
        ] {
            assert!(refs(line).is_empty(), "{line}: {:?}", refs(line));
        }
    }
}
