//! Which Claude Code sessions a dream reads: the transcripts of one project folder
//! (`<projects>/<project>/<session>.jsonl` and its sub-agents'
//! `<session>/subagents/agent-*.jsonl`), each dated by the timestamp of its **last event**,
//! never by the file's modification time (a copy, a backup restore or a sync tool sets
//! mtimes that say nothing about when the session was active).
//!
//! A transcript is read from its end, in blocks, until a line with a `timestamp` is found:
//! a session of hundreds of MB costs one block.

use anyhow::{Context, Result};
use jiff::Timestamp;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Claude Code's projects folder: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`.
pub fn projects_dir() -> Option<PathBuf> {
    super::claude::projects_dir()
}

/// The project folder name Claude Code gives a working directory: every character that is
/// not an ASCII letter or digit becomes `-` (`/home/dev/my.app` → `-home-dev-my-app`).
pub fn project_name_of(cwd: &Path) -> String {
    cwd.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

/// One session of a project: its main transcript and its sub-agents' transcripts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// The session id (the main transcript's file stem).
    pub id: String,
    /// `<project>/<id>.jsonl`.
    pub main: PathBuf,
    /// `<project>/<id>/subagents/agent-*.jsonl`, sorted.
    pub subagents: Vec<PathBuf>,
    /// The latest event timestamp of the main transcript and its sub-agents (`None`: no
    /// line carries one).
    pub last_event: Option<Timestamp>,
}

/// Every session of the project folder `project`, sorted by id. A transcript that cannot
/// be read is an error naming it.
pub fn sessions(project: &Path) -> Result<Vec<Session>> {
    let mut out = Vec::new();
    let entries = std::fs::read_dir(project).with_context(|| format!("cannot list {}", project.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", project.display()))?;
        let path = entry.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        let Some(id) = name.strip_suffix(".jsonl") else { continue };
        if id.is_empty() || !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let subagents = subagents(&project.join(id))?;
        let mut last = last_event(&path)?;
        for s in &subagents {
            last = last.max(last_event(s)?);
        }
        out.push(Session { id: id.to_string(), main: path, subagents, last_event: last });
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

/// The sub-agent transcripts of a session folder, sorted; none when it has no folder.
fn subagents(session_dir: &Path) -> Result<Vec<PathBuf>> {
    let dir = session_dir.join("subagents");
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound || e.kind() == std::io::ErrorKind::NotADirectory => {
            return Ok(Vec::new());
        }
        Err(e) => return Err(anyhow::Error::new(e).context(format!("cannot list {}", dir.display()))),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("agent-") && name.ends_with(".jsonl") && entry.file_type().is_ok_and(|t| t.is_file()) {
            out.push(entry.path());
        }
    }
    out.sort();
    Ok(out)
}

/// The sessions whose last event is at or after `since` (a session with no dated line is
/// left out: nothing says it was active).
pub fn active_since(sessions: &[Session], since: Timestamp) -> Vec<&Session> {
    sessions.iter().filter(|s| s.last_event.is_some_and(|t| t >= since)).collect()
}

/// How much of a transcript is read per step from its end.
const BLOCK: u64 = 64 * 1024;

/// The timestamp of the last line of a JSONL transcript that carries one (`timestamp`, an
/// RFC 3339 string), read backwards from the end. `None` when no line has one.
pub fn last_event(path: &Path) -> Result<Option<Timestamp>> {
    let mut file = File::open(path).with_context(|| format!("cannot open transcript {}", path.display()))?;
    let len = file.metadata().with_context(|| format!("cannot stat {}", path.display()))?.len();
    let mut pos = len;
    // Bytes from `pos` to the start of the first complete line found so far (a partial line).
    let mut tail: Vec<u8> = Vec::new();
    while pos > 0 {
        let step = BLOCK.min(pos);
        pos -= step;
        let mut block = vec![0u8; step as usize];
        file.seek(SeekFrom::Start(pos))
            .and_then(|_| file.read_exact(&mut block))
            .with_context(|| format!("cannot read transcript {}", path.display()))?;
        block.extend_from_slice(&tail);
        // Every line after the first newline is whole; the part before it may go on
        // further back (unless this is the file's start).
        let cut = if pos == 0 { 0 } else { memchr::memchr(b'\n', &block).map_or(block.len(), |i| i + 1) };
        for line in block[cut..].split(|&b| b == b'\n').rev() {
            if let Some(t) = timestamp_of(line) {
                return Ok(Some(t));
            }
        }
        block.truncate(cut);
        tail = block;
    }
    Ok(None)
}

/// The `timestamp` of one JSONL line, when it is a JSON object carrying a valid one.
fn timestamp_of(line: &[u8]) -> Option<Timestamp> {
    memchr::memmem::find(line, b"\"timestamp\"")?;
    #[derive(serde::Deserialize)]
    struct Dated {
        timestamp: Option<String>,
    }
    let dated: Dated = serde_json::from_slice(line.trim_ascii()).ok()?;
    dated.timestamp?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(ts: &str) -> String {
        format!("{{\"type\":\"user\",\"timestamp\":\"{ts}\",\"message\":{{\"content\":\"hi\"}}}}\n")
    }

    #[test]
    fn the_last_dated_line_wins_whatever_follows() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("s.jsonl");
        let mut text = line("2026-11-01T10:00:00Z") + &line("2026-11-02T10:00:00.123Z");
        text.push_str("{\"type\":\"summary\"}\nnot json\n");
        std::fs::write(&p, &text).unwrap();
        assert_eq!(last_event(&p).unwrap(), Some("2026-11-02T10:00:00.123Z".parse().unwrap()));
    }

    #[test]
    fn a_long_last_line_spans_blocks() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("s.jsonl");
        let big = "x".repeat(200_000);
        let text = line("2026-11-01T10:00:00Z")
            + &format!("{{\"timestamp\":\"2026-11-03T00:00:00Z\",\"message\":{{\"content\":\"{big}\"}}}}");
        std::fs::write(&p, &text).unwrap();
        assert_eq!(last_event(&p).unwrap(), Some("2026-11-03T00:00:00Z".parse().unwrap()));
    }

    #[test]
    fn no_dated_line_is_none() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("s.jsonl");
        std::fs::write(&p, "{\"type\":\"summary\"}\n").unwrap();
        assert_eq!(last_event(&p).unwrap(), None);
        std::fs::write(&p, "").unwrap();
        assert_eq!(last_event(&p).unwrap(), None);
    }

    #[test]
    fn project_names_follow_claude_code() {
        assert_eq!(project_name_of(Path::new("/home/dev/my.app")), "-home-dev-my-app");
    }
}
