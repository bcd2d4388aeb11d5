//! `dreamreview hooks install|uninstall`: a Claude Code `SessionEnd` hook that runs
//! `dreamreview snapshot --hook`, so that what sessions write to a memory folder is
//! committed when each session ends and the morning's in-place diff holds the dream alone.
//!
//! `settings.json` belongs to the user (and to Claude Code): it is edited in place, never
//! re-serialized. The file is parsed once to check it is JSON and once more by a small
//! scanner that records where each value starts and ends; the entry is then spliced in
//! after the last item of its container (`hooks.SessionEnd`, created when missing) with the
//! file's own indentation, and `uninstall` removes exactly the bytes such an insertion adds.
//! Every other byte is left as it was: install then uninstall gives the original file back,
//! byte for byte (one exception: a `SessionEnd` list, or a `hooks` object, that was
//! already there but empty is removed with the entry, as if install had made it). A `settings.json.bak-…` copy is written before each change, and the new
//! text replaces the file atomically (written beside it, then renamed over it; a symlinked
//! settings.json is written where it points).

use anyhow::{Context, Result, anyhow, bail};
use std::path::{Path, PathBuf};

/// The hook event the entry is installed under.
pub const EVENT: &str = "SessionEnd";

/// The settings file: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`.
pub fn settings_path() -> Option<PathBuf> {
    Some(crate::inputs::claude::config_dir()?.join("settings.json"))
}

/// True when a hook command is this tool's: its program is named `dreamreview` and it
/// runs `snapshot`.
pub fn is_ours(command: &str) -> bool {
    let words = shlex::split(command).unwrap_or_else(|| command.split_whitespace().map(String::from).collect());
    let program = words.first().map(|w| Path::new(w).file_name().map(|n| n.to_string_lossy().into_owned()));
    matches!(program, Some(Some(p)) if p == "dreamreview") && words.iter().any(|w| w == "snapshot")
}

/// What `install` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Installed {
    /// The entry was added; the backup of the previous file (none when there was no file).
    Added {
        /// The backup.
        backup: Option<PathBuf>,
    },
    /// An entry of ours was there already: nothing was written.
    Already,
}

/// What `uninstall` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Removed {
    /// This many entries were removed; the backup of the previous file.
    Removed {
        /// How many.
        count: usize,
        /// The backup.
        backup: PathBuf,
    },
    /// No entry of ours was there: nothing was written.
    NotThere,
}

/// Adds the `SessionEnd` entry running `command` to the settings file at `path`.
pub fn install(path: &Path, command: &str) -> Result<Installed> {
    let path = resolved(path);
    let text = match std::fs::read(&path) {
        Ok(b) => {
            Some(String::from_utf8(b).map_err(|_| anyhow!("{} is not UTF-8 text; fix or move it", path.display()))?)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(anyhow!(e).context(format!("cannot read {}", path.display()))),
    };
    let Some(text) = text else {
        let body = add_entry("{}", command, &path)?.unwrap_or_default();
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        write_atomically(&path, &format!("{body}\n"))?;
        return Ok(Installed::Added { backup: None });
    };
    match add_entry(&text, command, &path)? {
        None => Ok(Installed::Already),
        Some(new) => {
            let backup = backup(&path, &text)?;
            write_atomically(&path, &new)?;
            Ok(Installed::Added { backup: Some(backup) })
        }
    }
}

/// Removes every `SessionEnd` entry of ours from the settings file at `path`.
pub fn uninstall(path: &Path) -> Result<Removed> {
    let path = resolved(path);
    let text = match std::fs::read(&path) {
        Ok(b) => String::from_utf8(b).map_err(|_| anyhow!("{} is not UTF-8 text; fix or move it", path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Removed::NotThere),
        Err(e) => return Err(anyhow!(e).context(format!("cannot read {}", path.display()))),
    };
    let (new, count) = remove_entries(&text, &path)?;
    if count == 0 {
        return Ok(Removed::NotThere);
    }
    let backup = backup(&path, &text)?;
    write_atomically(&path, &new)?;
    Ok(Removed::Removed { count, backup })
}

/// A symlinked settings file is edited where it points (a dotfiles manager keeps it).
fn resolved(path: &Path) -> PathBuf {
    if path.is_symlink() { path.canonicalize().unwrap_or_else(|_| path.to_path_buf()) } else { path.to_path_buf() }
}

fn backup(path: &Path, text: &str) -> Result<PathBuf> {
    let stamp = jiff::ZonedDateTime::now().strftime("%Y%m%d-%H%M%S").to_string();
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "settings.json".into());
    let mut b = path.with_file_name(format!("{name}.bak-{stamp}"));
    let mut n = 2;
    while b.symlink_metadata().is_ok() {
        b = path.with_file_name(format!("{name}.bak-{stamp}-{n}"));
        n += 1;
    }
    std::fs::write(&b, text).with_context(|| format!("cannot write the backup {}", b.display()))?;
    Ok(b)
}

fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".settings.json.dreamreview-")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    use std::io::Write;
    tmp.write_all(text.as_bytes()).and_then(|_| tmp.as_file().sync_all()).context("cannot write the new settings")?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(path).map_err(|e| anyhow!("cannot replace {}: {}", path.display(), e.error))?;
    Ok(())
}

/// The text with the entry added, or `None` when an entry of ours is there already.
/// Errors name the file: not JSON, or `hooks` / `hooks.SessionEnd` of the wrong type.
pub fn add_entry(text: &str, command: &str, path: &Path) -> Result<Option<String>> {
    let root = parse(text, path)?;
    let Node::Obj { open, close, members } = &root else {
        bail!("{} does not hold a JSON object; fix it or move it away", path.display())
    };
    let unit = indent_unit(text, &root);
    let entry = entry_json(command);
    let Some(hooks) = members.iter().find(|m| m.key == "hooks") else {
        let value = serde_json::json!({ EVENT: [entry] });
        let member = format!("\"hooks\": {}", pretty(&value, &unit));
        return Ok(Some(insert(
            text,
            *open,
            *close,
            members.iter().map(|m| (m.start, m.value.end())).collect(),
            &member,
            &unit,
        )));
    };
    let Node::Obj { open, close, members: events } = &hooks.value else {
        bail!("{}: `hooks` is not a JSON object; fix it (Claude Code expects an object of events)", path.display())
    };
    let Some(event) = events.iter().find(|m| m.key == EVENT) else {
        let member = format!("\"{EVENT}\": {}", pretty(&serde_json::json!([entry]), &unit));
        return Ok(Some(insert(
            text,
            *open,
            *close,
            events.iter().map(|m| (m.start, m.value.end())).collect(),
            &member,
            &unit,
        )));
    };
    let Node::Arr { open, close, items } = &event.value else {
        bail!("{}: `hooks.{EVENT}` is not a JSON array; fix it", path.display())
    };
    let value: serde_json::Value = serde_json::from_str(&text[event.value.start()..event.value.end()])?;
    if value.as_array().is_some_and(|a| a.iter().any(holds_ours)) {
        return Ok(None);
    }
    Ok(Some(insert(
        text,
        *open,
        *close,
        items.iter().map(|i| (i.start(), i.end())).collect(),
        &pretty(&entry, &unit),
        &unit,
    )))
}

/// The text with every entry of ours removed (an event list or `hooks` object left empty
/// by that goes too), and how many were removed.
pub fn remove_entries(text: &str, path: &Path) -> Result<(String, usize)> {
    let mut out = text.to_string();
    let mut count = 0;
    while let Some(next) = remove_one(&out, path)? {
        out = next;
        count += 1;
    }
    Ok((out, count))
}

/// The text with the first entry of ours removed; `None` when there is none.
fn remove_one(text: &str, path: &Path) -> Result<Option<String>> {
    let root = parse(text, path)?;
    let Node::Obj { open: r_open, close: r_close, members } = &root else { return Ok(None) };
    let Some(h) = members.iter().position(|m| m.key == "hooks") else { return Ok(None) };
    let Node::Obj { open: h_open, close: h_close, members: events } = &members[h].value else { return Ok(None) };
    let Some(e) = events.iter().position(|m| m.key == EVENT) else { return Ok(None) };
    let Node::Arr { open, close, items } = &events[e].value else { return Ok(None) };
    let Some(n) = items.iter().position(|i| {
        serde_json::from_str::<serde_json::Value>(&text[i.start()..i.end()]).is_ok_and(|v| holds_ours(&v))
    }) else {
        return Ok(None);
    };
    let spans = |ms: &[Member]| ms.iter().map(|m| (m.start, m.value.end())).collect::<Vec<_>>();
    Ok(Some(if items.len() > 1 {
        let spans: Vec<(usize, usize)> = items.iter().map(|i| (i.start(), i.end())).collect();
        remove(text, (*open, *close), &spans, n)
    } else if events.len() > 1 {
        // The list is left empty: the event goes.
        remove(text, (*h_open, *h_close), &spans(events), e)
    } else {
        // And `hooks` with it when it held nothing else.
        remove(text, (*r_open, *r_close), &spans(members), h)
    }))
}

/// True for a `SessionEnd` entry whose hooks are all ours (and it has one).
fn holds_ours(entry: &serde_json::Value) -> bool {
    let Some(hooks) = entry.get("hooks").and_then(|h| h.as_array()) else { return false };
    !hooks.is_empty() && hooks.iter().all(|h| h.get("command").and_then(|c| c.as_str()).is_some_and(is_ours))
}

fn entry_json(command: &str) -> serde_json::Value {
    serde_json::json!({ "hooks": [ { "type": "command", "command": command } ] })
}

/// Inserts `item` as the last item of the container whose brackets are at `open` and
/// `close`, its items spanning `spans`: after the last one, separated as it is from the one
/// before (on its own line with the same indentation, or after a space), or alone inside an
/// empty container, on its own line.
fn insert(text: &str, open: usize, close: usize, spans: Vec<(usize, usize)>, item: &str, unit: &str) -> String {
    let mut out = String::with_capacity(text.len() + item.len() + 16);
    match spans.last() {
        Some(&(start, end)) => {
            let before_item = &text[..start];
            let line_start = before_item.rfind('\n').map_or(0, |i| i + 1);
            let own_line = text[line_start..start].chars().all(|c| c == ' ' || c == '\t') && before_item.contains('\n');
            let (sep, indent) = if own_line {
                (format!("\n{}", &text[line_start..start]), text[line_start..start].to_string())
            } else {
                (" ".into(), String::new())
            };
            out.push_str(&text[..end]);
            out.push(',');
            out.push_str(&sep);
            out.push_str(&reindent(item, &indent));
            out.push_str(&text[end..]);
        }
        None => {
            let line_start = text[..open].rfind('\n').map_or(0, |i| i + 1);
            let base: String = text[line_start..open].chars().take_while(|c| *c == ' ' || *c == '\t').collect();
            let inner = format!("{base}{unit}");
            out.push_str(&text[..=open]);
            out.push('\n');
            out.push_str(&inner);
            out.push_str(&reindent(item, &inner));
            out.push('\n');
            out.push_str(&base);
            out.push_str(&text[close..]);
        }
    }
    out
}

/// Removes item `n` of the container (brackets at `open`/`close`, items spanning `spans`):
/// exactly what [`insert`] adds for it.
fn remove(text: &str, (open, close): (usize, usize), spans: &[(usize, usize)], n: usize) -> String {
    let (from, to) = if n > 0 {
        (spans[n - 1].1, spans[n].1)
    } else if spans.len() > 1 {
        (spans[0].0, spans[1].0)
    } else {
        (open + 1, close)
    };
    format!("{}{}", &text[..from], &text[to..])
}

/// Every line after the first gets `indent` in front.
fn reindent(text: &str, indent: &str) -> String {
    text.replace('\n', &format!("\n{indent}"))
}

/// serde_json's pretty form with `unit` as the indentation.
fn pretty(value: &serde_json::Value, unit: &str) -> String {
    use serde::Serialize;
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    let _ = value.serialize(&mut ser);
    String::from_utf8(buf).unwrap_or_default()
}

/// The file's indentation step: the indentation of the root object's first member when it
/// stands on its own line; two spaces otherwise.
fn indent_unit(text: &str, root: &Node) -> String {
    if let Node::Obj { members, .. } = root
        && let Some(m) = members.first()
    {
        let line_start = text[..m.start].rfind('\n').map(|i| i + 1);
        if let Some(ls) = line_start {
            let ws = &text[ls..m.start];
            if !ws.is_empty() && ws.chars().all(|c| c == ' ' || c == '\t') {
                return ws.to_string();
            }
        }
    }
    "  ".into()
}

/// A JSON value and where it stands in the text (byte offsets).
#[derive(Debug)]
enum Node {
    Obj { open: usize, close: usize, members: Vec<Member> },
    Arr { open: usize, close: usize, items: Vec<Node> },
    Scalar { start: usize, end: usize },
}

impl Node {
    fn start(&self) -> usize {
        match self {
            Node::Obj { open, .. } | Node::Arr { open, .. } => *open,
            Node::Scalar { start, .. } => *start,
        }
    }

    fn end(&self) -> usize {
        match self {
            Node::Obj { close, .. } | Node::Arr { close, .. } => close + 1,
            Node::Scalar { end, .. } => *end,
        }
    }
}

/// An object member: its key (decoded), where its key starts, its value.
#[derive(Debug)]
struct Member {
    key: String,
    start: usize,
    value: Node,
}

/// Parses `text` (checked by serde_json first, so errors name the line and column).
fn parse(text: &str, path: &Path) -> Result<Node> {
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
        bail!(
            "{} is not valid JSON ({e}); fix it first (Claude Code cannot read it either), nothing was changed",
            path.display()
        );
    }
    let mut s = Scanner { b: text.as_bytes(), i: 0 };
    s.ws();
    let v = s.value().ok_or_else(|| anyhow!("{} could not be scanned as JSON", path.display()))?;
    Ok(v)
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Option<Node> {
        match *self.b.get(self.i)? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => {
                let start = self.i;
                self.string()?;
                Some(Node::Scalar { start, end: self.i })
            }
            _ => {
                let start = self.i;
                while self.i < self.b.len()
                    && !matches!(self.b[self.i], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                {
                    self.i += 1;
                }
                Some(Node::Scalar { start, end: self.i })
            }
        }
    }

    /// Skips a string literal; returns its decoded text.
    fn string(&mut self) -> Option<String> {
        let start = self.i;
        self.i += 1;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return serde_json::from_slice(&self.b[start..self.i]).ok();
                }
                _ => self.i += 1,
            }
        }
        None
    }

    fn object(&mut self) -> Option<Node> {
        let open = self.i;
        self.i += 1;
        let mut members = Vec::new();
        loop {
            self.ws();
            match *self.b.get(self.i)? {
                b'}' => return Some(Node::Obj { open, close: self.i, members }).inspect(|_| self.i += 1),
                b',' => self.i += 1,
                b'"' => {
                    let start = self.i;
                    let key = self.string()?;
                    self.ws();
                    if self.b.get(self.i) != Some(&b':') {
                        return None;
                    }
                    self.i += 1;
                    self.ws();
                    let value = self.value()?;
                    members.push(Member { key, start, value });
                }
                _ => return None,
            }
        }
    }

    fn array(&mut self) -> Option<Node> {
        let open = self.i;
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.ws();
            match *self.b.get(self.i)? {
                b']' => return Some(Node::Arr { open, close: self.i, items }).inspect(|_| self.i += 1),
                b',' => self.i += 1,
                _ => items.push(self.value()?),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CMD: &str = "dreamreview snapshot --hook";

    fn round_trip(original: &str) -> String {
        let p = Path::new("settings.json");
        let installed = add_entry(original, CMD, p).unwrap().expect("added");
        let v: serde_json::Value = serde_json::from_str(&installed).unwrap();
        assert_eq!(v["hooks"][EVENT].as_array().unwrap().last().unwrap()["hooks"][0]["command"], CMD, "{installed}");
        assert_eq!(add_entry(&installed, CMD, p).unwrap(), None, "installed twice");
        let (back, n) = remove_entries(&installed, p).unwrap();
        assert_eq!(n, 1);
        assert_eq!(back, original, "installed:\n{installed}");
        installed
    }

    #[test]
    fn install_then_uninstall_gives_the_file_back() {
        round_trip("{\n  \"model\": \"opus\",\n  \"cleanupPeriodDays\": 60\n}\n");
        round_trip("{\n    \"hooks\": {\n        \"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": []}]\n    }\n}");
        round_trip(
            "{\"hooks\":{\"SessionEnd\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"other-tool\"}]}]},\"x\":1}",
        );
        round_trip("{}");
        round_trip("{\n\t\"env\": {\"A\": \"1\"},\n\t\"hooks\": {\"Stop\": []}\n}\n");
        // An empty `hooks` object the file had is taken for one install made: it goes too.
        let p = Path::new("s.json");
        let installed = add_entry("{\"hooks\": {}}", CMD, p).unwrap().unwrap();
        assert_eq!(remove_entries(&installed, p).unwrap().0, "{}");
    }

    #[test]
    fn the_entry_takes_the_files_indentation() {
        let out = round_trip("{\n    \"model\": \"opus\"\n}\n");
        assert!(out.contains("\n    \"hooks\": {\n        \"SessionEnd\": [\n"), "{out}");
    }

    #[test]
    fn only_our_entries_go() {
        let p = Path::new("s.json");
        let text = "{\"hooks\":{\"SessionEnd\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"/opt/bin/dreamreview snapshot --hook\"}]},{\"hooks\":[{\"type\":\"command\",\"command\":\"other\"}]}]}}";
        let (out, n) = remove_entries(text, p).unwrap();
        assert_eq!(n, 1);
        assert_eq!(out, "{\"hooks\":{\"SessionEnd\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"other\"}]}]}}");
    }

    #[test]
    fn invalid_json_is_refused_naming_the_file() {
        let e = add_entry("{\"a\": 1,}", CMD, Path::new("/x/settings.json")).unwrap_err().to_string();
        assert!(e.contains("/x/settings.json is not valid JSON"), "{e}");
        let e = add_entry("{\"hooks\": []}", CMD, Path::new("s.json")).unwrap_err().to_string();
        assert!(e.contains("`hooks` is not a JSON object"), "{e}");
    }

    #[test]
    fn ours_is_recognised_by_program_and_subcommand() {
        assert!(is_ours("dreamreview snapshot --hook"));
        assert!(is_ours("'/home/a b/bin/dreamreview' snapshot --hook"));
        assert!(!is_ours("echo dreamreview snapshot"));
        assert!(!is_ours("dreamreview check"));
    }
}
