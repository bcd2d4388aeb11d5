//! How long Claude Code keeps a session transcript. Claude Code deletes transcripts whose
//! last write is older than `cleanupPeriodDays` (its `settings.json`, default 30),
//! silently, at its next start; the memory notes that cite them stay. A citation of a
//! transcript that is about to go is worth saying at review time, while the reviewer can
//! still read it.
//!
//! Only transcripts under Claude Code's own `projects/` folder are counted: a file given with
//! `--sources` elsewhere is not Claude Code's to delete.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Claude Code's default `cleanupPeriodDays`.
pub const DEFAULT_DAYS: i64 = 30;

/// A transcript with this many days or fewer left is named.
pub const WARN_DAYS: i64 = 7;

/// The retention in force and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retention {
    /// Days a transcript is kept after its last write.
    pub days: i64,
    /// Where `days` came from, for messages (`the default: ~/.claude/settings.json has no
    /// cleanupPeriodDays`).
    pub origin: String,
    /// Claude Code's transcript folder (`<config>/projects`), when known.
    pub projects: Option<PathBuf>,
}

impl Retention {
    /// The retention of this user's Claude Code: its configuration folder is
    /// `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub fn of_user() -> Retention {
        match crate::inputs::claude::config_dir() {
            Some(dir) => Retention::in_config(&dir),
            None => {
                Retention { days: DEFAULT_DAYS, origin: "the default: no home folder is known".into(), projects: None }
            }
        }
    }

    /// The retention set in `config/settings.json`; absent or invalid settings are the
    /// default, and `origin` says which.
    pub fn in_config(config: &Path) -> Retention {
        let settings = config.join("settings.json");
        let shown = settings.display();
        let (days, origin) = match std::fs::read(&settings) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                (DEFAULT_DAYS, format!("the default: {shown} does not exist"))
            }
            Err(e) => (DEFAULT_DAYS, format!("the default: {shown} cannot be read ({e})")),
            Ok(bytes) => match serde_json::from_slice::<serde_json::Value>(&bytes) {
                Err(_) => (DEFAULT_DAYS, format!("the default: {shown} is not valid JSON")),
                Ok(v) => match v.get("cleanupPeriodDays") {
                    None => (DEFAULT_DAYS, format!("the default: {shown} sets no cleanupPeriodDays")),
                    Some(n) => match n.as_i64().filter(|d| *d >= 0) {
                        Some(d) => (d, format!("set in {shown}")),
                        None => {
                            (DEFAULT_DAYS, format!("the default: cleanupPeriodDays in {shown} is not a whole number"))
                        }
                    },
                },
            },
        };
        Retention { days, origin, projects: Some(crate::inputs::claude::projects_in(config)) }
    }

    /// Days left before Claude Code deletes the transcript at `path` (0 or less: due now),
    /// when it is one of Claude Code's transcripts (`.jsonl` under its projects folder) and
    /// has [`WARN_DAYS`] or fewer left; `None` otherwise.
    pub fn expiring(&self, path: &Path, now: SystemTime) -> Option<i64> {
        let projects = self.projects.as_ref()?;
        if !path.extension().is_some_and(|e| e.eq_ignore_ascii_case("jsonl")) {
            return None;
        }
        let projects = projects.canonicalize().ok()?;
        let real = path.canonicalize().ok()?;
        if !real.starts_with(&projects) {
            return None;
        }
        let modified = std::fs::metadata(&real).and_then(|m| m.modified()).ok()?;
        let left = self.days_left(modified, now);
        (left <= WARN_DAYS).then_some(left)
    }

    /// Whole days left for a file last written at `modified`.
    pub fn days_left(&self, modified: SystemTime, now: SystemTime) -> i64 {
        let age = now.duration_since(modified).map(|d| d.as_secs()).unwrap_or(0);
        let age_days = i64::try_from(age / 86_400).unwrap_or(i64::MAX);
        self.days.saturating_sub(age_days)
    }

    /// What a citation of a transcript with `left` days left tells the reviewer, once per
    /// transcript (`check`'s notes): the file, when, and the setting with its origin.
    pub fn warning(&self, name: &str, left: i64) -> String {
        format!(
            "{name}: {} (cleanupPeriodDays {}, {}); the review commit keeps the cited lines",
            when(left),
            self.days,
            self.origin
        )
    }
}

/// Beside one citation (`check` text, the evidence pane): `this transcript is deleted by
/// Claude Code in 4 days; the review commit keeps the cited lines`.
pub fn beside_citation(left: i64) -> String {
    format!("this transcript {}; the review commit keeps the cited lines", when(left))
}

/// The shortest form, for a pane with little room: `deleted by Claude Code in 4 days`.
pub fn short(left: i64) -> String {
    when(left).trim_start_matches("is ").to_string()
}

fn when(left: i64) -> String {
    match left {
        ..=0 => "is due for deletion by Claude Code (its next start deletes it)".to_string(),
        1 => "is deleted by Claude Code in 1 day".to_string(),
        n => format!("is deleted by Claude Code in {n} days"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn config(settings: Option<&str>) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("projects/p")).unwrap();
        if let Some(s) = settings {
            std::fs::write(dir.path().join("settings.json"), s).unwrap();
        }
        dir
    }

    #[test]
    fn settings_give_the_days_and_bad_settings_are_the_named_default() {
        for (settings, days, origin) in [
            (None, 30, "does not exist"),
            (Some("{\"cleanupPeriodDays\": 90}"), 90, "set in"),
            (Some("{\"model\": \"opus\"}"), 30, "sets no cleanupPeriodDays"),
            (Some("{not json"), 30, "is not valid JSON"),
            (Some("{\"cleanupPeriodDays\": \"soon\"}"), 30, "is not a whole number"),
            (Some("{\"cleanupPeriodDays\": -4}"), 30, "is not a whole number"),
            (Some("[1, 2]"), 30, "sets no cleanupPeriodDays"),
        ] {
            let dir = config(settings);
            let r = Retention::in_config(dir.path());
            assert_eq!(r.days, days, "{settings:?}");
            assert!(r.origin.contains(origin), "{settings:?}: {}", r.origin);
        }
    }

    #[test]
    fn only_claude_codes_own_transcripts_near_their_end_are_named() {
        let dir = config(None);
        let r = Retention::in_config(dir.path());
        let now = SystemTime::now();
        let day = Duration::from_secs(86_400);
        let put = |path: &Path, age_days: u32| {
            std::fs::write(path, "{}\n").unwrap();
            let f = std::fs::File::options().write(true).open(path).unwrap();
            f.set_modified(now - day * age_days).unwrap();
        };
        let old = dir.path().join("projects/p/old.jsonl");
        put(&old, 26);
        assert_eq!(r.expiring(&old, now), Some(4));
        let due = dir.path().join("projects/p/due.jsonl");
        put(&due, 45);
        assert_eq!(r.expiring(&due, now), Some(-15));
        let fresh = dir.path().join("projects/p/fresh.jsonl");
        put(&fresh, 10);
        assert_eq!(r.expiring(&fresh, now), None, "23 days left");
        let note = dir.path().join("projects/p/2026-01-01.md");
        put(&note, 60);
        assert_eq!(r.expiring(&note, now), None, "not a transcript");
        let elsewhere = tempfile::tempdir().unwrap();
        let outside = elsewhere.path().join("s.jsonl");
        put(&outside, 60);
        assert_eq!(r.expiring(&outside, now), None, "not under projects/");
        assert!(r.warning("old.jsonl", 4).contains("in 4 days"));
        assert!(r.warning("due.jsonl", -15).contains("due for deletion"));
    }
}
