//! Where Claude Code keeps its files: its configuration folder (`$CLAUDE_CONFIG_DIR`, else
//! `~/.claude`) and the projects folder inside it (`<config>/projects/<project>/`, each with
//! its session transcripts and its `memory/` folder). Every Claude Code path dreamreview uses
//! starts here, so `CLAUDE_CONFIG_DIR` moves all of them at once.

use std::path::{Path, PathBuf};

/// Claude Code's configuration folder: `$CLAUDE_CONFIG_DIR` when set and not empty, else
/// `$HOME/.claude`; `None` when neither is known.
pub fn config_dir() -> Option<PathBuf> {
    config_dir_from(std::env::var_os("CLAUDE_CONFIG_DIR"), std::env::var_os("HOME"))
}

/// [`config_dir`] from given values of `CLAUDE_CONFIG_DIR` and `HOME` (for tests).
pub fn config_dir_from(config: Option<std::ffi::OsString>, home: Option<std::ffi::OsString>) -> Option<PathBuf> {
    config
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| home.filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".claude")))
}

/// Claude Code's projects folder: `<config>/projects`.
pub fn projects_dir() -> Option<PathBuf> {
    config_dir().map(|c| projects_in(&c))
}

/// The projects folder of the configuration folder `config`.
pub fn projects_in(config: &Path) -> PathBuf {
    config.join("projects")
}

/// How messages name the projects folder: `$CLAUDE_CONFIG_DIR/projects` when that is set,
/// else `~/.claude/projects`.
pub fn projects_label() -> &'static str {
    if std::env::var_os("CLAUDE_CONFIG_DIR").is_some_and(|v| !v.is_empty()) {
        "$CLAUDE_CONFIG_DIR/projects"
    } else {
        "~/.claude/projects"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_wins_over_home_and_an_empty_one_is_unset() {
        let some = |s: &str| Some(std::ffi::OsString::from(s));
        assert_eq!(config_dir_from(some("/cfg"), some("/home/a")), Some(PathBuf::from("/cfg")));
        assert_eq!(config_dir_from(some(""), some("/home/a")), Some(PathBuf::from("/home/a/.claude")));
        assert_eq!(config_dir_from(None, some("/home/a")), Some(PathBuf::from("/home/a/.claude")));
        assert_eq!(config_dir_from(None, some("")), None);
        assert_eq!(projects_in(Path::new("/cfg")), PathBuf::from("/cfg/projects"));
    }
}
