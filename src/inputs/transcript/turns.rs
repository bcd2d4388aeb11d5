//! Who said a line and what answered it: the conversation's structure around a cited
//! message, which provenance needs to tell a decision from a proposal the user turned down.
//!
//! [`turn_of`] reads one JSONL line into a [`Turn`]: its [`Speaker`], the text the speaker
//! typed (a user's prompt, an assistant's reply), the tool calls it makes and the tool
//! results it carries. [`Transcript::exchange`] finds the lines tied to a message: the
//! results of its tool calls (a `Bash` call and its output are one exchange) and the
//! output of a slash command written on the lines after it.
//! [`Transcript::answer`] reads forward from a message to what answered it: rejections or
//! interruptions of its tool calls, and the next message the user typed.
//!
//! This layer says what is there; whether an answer turns the proposal down (`no`,
//! `instead`, いや…) is the analysis' judgement.

use std::ops::RangeInclusive;

use serde_json::Value;

use super::file::Transcript;
use super::source::SourceKind;

/// How far (in lines) the lines tied to a message, or the answer to it, are looked for.
pub const ANSWER_WINDOW: usize = 200;

/// Who wrote a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Speaker {
    /// The person: a prompt typed, or a slash command run.
    User,
    /// The model's reply or tool call.
    Assistant,
    /// A tool's result (the tool's name when the call is known), relayed on a user line, or
    /// content a tool loaded (a skill's text, `sourceToolUseID`).
    Tool(Option<String>),
    /// A sub-agent (a sidechain line; the prompt the main agent gave it is the assistant's).
    SubAgent,
    /// A compaction summary, a system reminder, a hook's output, or another record
    /// nobody typed.
    System,
}

impl Speaker {
    /// How evidence names it: `user`, `assistant`, `tool WebFetch` (`tool` when the call is
    /// not known), `sub-agent`, `system`.
    pub fn label(&self) -> String {
        match self {
            Speaker::User => "user".into(),
            Speaker::Assistant => "assistant".into(),
            Speaker::Tool(Some(name)) => format!("tool {name}"),
            Speaker::Tool(None) => "tool".into(),
            Speaker::SubAgent => "sub-agent".into(),
            Speaker::System => "system".into(),
        }
    }

    /// What the content is, for a message to the reviewer: `a fetched page (WebFetch)`,
    /// `a file read (Read)`, `a sub-agent's report`…
    pub fn what(&self) -> String {
        let Speaker::Tool(name) = self else {
            return match self {
                Speaker::SubAgent => "a sub-agent's report".into(),
                Speaker::System => "a record nobody typed (a hook, a summary)".into(),
                other => format!("the {}", other.label()),
            };
        };
        let Some(name) = name else { return "a tool's output".into() };
        let what = match name.as_str() {
            "WebFetch" | "web_fetch" | "fetch" => "a fetched page",
            "WebSearch" | "web_search" => "a search result",
            "Read" | "NotebookRead" | "read_file" | "view" => "a file read",
            "Grep" | "Glob" | "LS" => "a search of files",
            "Bash" | "shell" | "exec" | "BashOutput" => "a command's output",
            "Task" | "Agent" => "a sub-agent's report",
            n if n.starts_with("mcp__") => "an MCP tool's output",
            _ => "a tool's output",
        };
        format!("{what} ({name})")
    }

    /// True for content neither the user nor the assistant wrote: a tool's result (a page,
    /// a file, a command's output) or a sub-agent's report. Instructions in it are data.
    pub fn untrusted(&self) -> bool {
        matches!(self, Speaker::Tool(_) | Speaker::SubAgent)
    }
}

/// One turn of a conversation with what it says, as [`Transcript::conversation`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spoken {
    /// 1-based physical line.
    pub line: usize,
    /// Who said it; a tool result is named by its call's tool when the call was seen.
    pub speaker: Speaker,
    /// The person typed it (see [`Turn::typed_by_user`]).
    pub typed: bool,
    /// What it says (tool noise stripped), at most the `cap` given to `conversation`.
    pub text: String,
}

/// One tool result on a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolResult {
    /// The `tool_use_id` it answers.
    pub id: String,
    /// Marked `is_error`.
    pub is_error: bool,
    /// Its text (strings of its content joined by newlines).
    pub text: String,
}

/// What one JSONL line is in the conversation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// 1-based physical line.
    pub line: usize,
    /// Who wrote it.
    pub speaker: Speaker,
    /// Text the speaker wrote (text blocks or a string content), newline-joined.
    pub text: String,
    /// Tool calls: (`id`, tool name).
    pub calls: Vec<(String, String)>,
    /// Tool results it carries.
    pub results: Vec<ToolResult>,
    /// A record nobody typed though it sits on a user line: `isMeta`, a local command's
    /// caveat, a compaction summary.
    pub meta: bool,
    /// The tool call whose content the line carries though it is no result (Claude Code's
    /// `sourceToolUseID` on a skill's text loaded by the `Skill` tool): the tool speaks.
    pub loaded_by: Option<String>,
    /// What its tool calls would replace (an edit's `old_string`): text that stood before
    /// the call, not what the call proposes.
    pub replaced: Vec<String>,
    /// What its edit calls would write (an edit's `new_string`, a write's `content`): what
    /// the call proposes.
    pub written: Vec<String>,
}

impl Turn {
    /// True when the person typed it (a prompt or a command, not a tool result).
    pub fn typed_by_user(&self) -> bool {
        self.speaker == Speaker::User && !self.meta && self.results.is_empty() && !self.text.trim().is_empty()
    }

    /// True when it records that the user interrupted the assistant.
    pub fn interruption(&self) -> bool {
        self.text.contains("[Request interrupted by user")
    }

    /// True when it is a slash command's output (`<local-command-stdout>`).
    fn command_output(&self) -> bool {
        self.text.contains("<local-command-stdout>") || self.text.contains("<local-command-stderr>")
    }

    /// True when it runs a slash command (`<command-name>`).
    fn command(&self) -> bool {
        self.text.contains("<command-name>")
    }
}

/// Reads line `line` (its bytes) as a conversation turn; `None` for a line that is no
/// JSON object or carries no conversation (snapshots, progress, queue records).
pub fn turn_of(bytes: &[u8], line: usize) -> Option<Turn> {
    let v: Value = serde_json::from_slice(bytes).ok()?;
    // A bare chat message (`{"role":"user","content":…}`) speaks by its role.
    let bare = v.get("message").is_none() && v.get("role").is_some_and(Value::is_string);
    let ty = match v.get("type").and_then(Value::as_str) {
        Some(ty) if !bare || matches!(ty, "user" | "assistant") => ty,
        _ if bare => v.get("role")?.as_str()?,
        _ => return None,
    };
    let sidechain = v.get("isSidechain").and_then(Value::as_bool).unwrap_or(false);
    let meta = v.get("isMeta").and_then(Value::as_bool).unwrap_or(false)
        || v.get("isCompactSummary").and_then(Value::as_bool).unwrap_or(false)
        || v.get("isVisibleInTranscriptOnly").and_then(Value::as_bool).unwrap_or(false);
    let speaker = match ty {
        "user" if sidechain => Speaker::SubAgent,
        "assistant" if sidechain => Speaker::SubAgent,
        "user" => Speaker::User,
        "assistant" => Speaker::Assistant,
        "system" | "summary" | "developer" => Speaker::System,
        "tool" | "function" if bare => Speaker::Tool(None),
        _ => return None,
    };
    let loaded_by = v.get("sourceToolUseID").and_then(Value::as_str).map(str::to_string);
    let mut turn = Turn {
        line,
        speaker,
        text: String::new(),
        calls: Vec::new(),
        results: Vec::new(),
        meta,
        loaded_by,
        replaced: Vec::new(),
        written: Vec::new(),
    };
    let content = v.get("message").and_then(|m| m.get("content"));
    match content {
        Some(Value::String(s)) => turn.text.push_str(s),
        Some(Value::Array(blocks)) => {
            for b in blocks {
                read_block(b, &mut turn);
            }
        }
        // One block written without its list.
        Some(b @ Value::Object(_)) => read_block(b, &mut turn),
        _ => match v.get("content") {
            Some(Value::String(s)) => turn.text.push_str(s),
            Some(Value::Array(blocks)) if bare => {
                for b in blocks {
                    read_block(b, &mut turn);
                }
            }
            Some(b @ Value::Object(_)) if bare => read_block(b, &mut turn),
            _ => {}
        },
    }
    // A sub-agent's "user" line that carries no result is the prompt the main agent wrote.
    if sidechain && ty == "user" && turn.results.is_empty() {
        turn.speaker = Speaker::Assistant;
    }
    if (!turn.results.is_empty() || turn.loaded_by.is_some()) && turn.speaker == Speaker::User {
        turn.speaker = Speaker::Tool(None);
    }
    let caveat = turn.text.contains("<local-command-caveat>") || turn.text.starts_with("<system-reminder>");
    turn.meta |= caveat;
    Some(turn)
}

fn read_block(b: &Value, turn: &mut Turn) {
    // The first of `keys` the block has as a string (logs other than Claude Code's name
    // a call's id `tool_id`, its tool `tool_name`, a result's text `output`).
    let field = |keys: &[&str]| keys.iter().find_map(|k| b.get(*k).and_then(Value::as_str)).unwrap_or("");
    match field(&["type"]) {
        "text" => push(&mut turn.text, field(&["text"])),
        "tool_use" | "server_tool_use" => {
            turn.calls.push((field(&["id", "tool_id"]).to_string(), field(&["name", "tool_name"]).to_string()));
            if let Some(input) = b.get("input") {
                edit_sides(input, &mut turn.replaced, &mut turn.written);
            }
        }
        t if t == "tool_result" || t.ends_with("_tool_result") => {
            let mut text = String::new();
            strings(b.get("content").or_else(|| b.get("output")), &mut text);
            let is_error = b.get("is_error").and_then(Value::as_bool).unwrap_or(false);
            turn.results.push(ToolResult { id: field(&["tool_use_id", "tool_id"]).to_string(), is_error, text });
        }
        _ => {}
    }
}

/// The two sides of an edit call's input: what it replaces (`old_string`, `old_str`,
/// `old_text`) and what it writes (`new_string`, `new_str`, `new_text`, a write's `content`),
/// also in each of a multi-edit's `edits`.
fn edit_sides(input: &Value, replaced: &mut Vec<String>, written: &mut Vec<String>) {
    let strings = |keys: &[&str], out: &mut Vec<String>| {
        for key in keys {
            if let Some(s) = input.get(*key).and_then(Value::as_str).filter(|s| !s.is_empty()) {
                out.push(s.to_string());
            }
        }
    };
    strings(&["old_string", "old_str", "old_text"], replaced);
    strings(&["new_string", "new_str", "new_text", "content"], written);
    if let Some(Value::Array(edits)) = input.get("edits") {
        edits.iter().for_each(|e| edit_sides(e, replaced, written));
    }
}

fn push(out: &mut String, s: &str) {
    if s.is_empty() {
        return;
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(s);
}

/// The strings of a tool result's content (a string, text items, nested lists).
fn strings(v: Option<&Value>, out: &mut String) {
    match v {
        Some(Value::String(s)) => push(out, s),
        Some(Value::Array(items)) => items.iter().for_each(|i| strings(Some(i), out)),
        Some(Value::Object(o)) => strings(o.get("text").or_else(|| o.get("content")), out),
        _ => {}
    }
}

/// What answered a message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// How many tool calls the message makes.
    pub calls: usize,
    /// How many of them came back without an error.
    pub succeeded: usize,
    /// Results of the message's tool calls that are errors (a rejection, an interruption,
    /// a failure), with their lines.
    pub failed: Vec<(usize, ToolResult)>,
    /// A line recording that the user interrupted, before the next typed message.
    pub interrupted: Option<usize>,
    /// The next message the user typed after it, when it answers this message — no other
    /// reply or tool call of the assistant came between (the user answers the last thing
    /// said): (line, text).
    pub next_user: Option<(usize, String)>,
}

impl Transcript {
    /// The turn at line `n` (`None`: a Markdown source, a line that is no turn).
    pub fn turn(&self, n: usize) -> Option<Turn> {
        if self.kind() != SourceKind::Jsonl {
            return None;
        }
        let line = self.line(n).ok().flatten()?;
        turn_of(&line.bytes, n)
    }

    /// The lines outside `span` tied to the message in it: the results of its tool calls
    /// (looked for after it) and the output of a slash command it runs (the lines right
    /// after it), in line order. A result is not tied back to its call: output says
    /// nothing of the command that printed it.
    pub fn exchange(&self, span: RangeInclusive<usize>) -> Vec<usize> {
        let turns: Vec<Turn> = span.clone().filter_map(|n| self.turn(n)).collect();
        let calls: Vec<&str> = turns.iter().flat_map(|t| t.calls.iter().map(|(id, _)| id.as_str())).collect();
        let mut out = Vec::new();
        if !calls.is_empty() {
            let hi = span.end().saturating_add(ANSWER_WINDOW).min(self.line_count());
            let mut open = calls.len();
            for n in span.end() + 1..=hi {
                let Some(t) = self.turn(n) else { continue };
                let hits = t.results.iter().filter(|r| calls.contains(&r.id.as_str())).count();
                if hits > 0 {
                    out.push(n);
                    open = open.saturating_sub(hits);
                    if open == 0 {
                        break;
                    }
                }
            }
        }
        if turns.iter().any(Turn::command) {
            let hi = span.end().saturating_add(4).min(self.line_count());
            for n in span.end() + 1..=hi {
                match self.turn(n) {
                    Some(t) if t.command_output() => out.push(n),
                    Some(t) if t.meta || t.command() => {}
                    _ => break,
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The lines of the tool calls the results in `span` answer (looked for before it): a
    /// result's call says what was read, fetched or run (a file's path, a URL), not what the
    /// result says.
    pub fn calls_answered(&self, span: RangeInclusive<usize>) -> Vec<usize> {
        let ids: Vec<String> =
            span.clone().filter_map(|n| self.turn(n)).flat_map(|t| t.results.into_iter().map(|r| r.id)).collect();
        let mut out = Vec::new();
        if ids.is_empty() {
            return out;
        }
        let lo = span.start().saturating_sub(ANSWER_WINDOW).max(1);
        let mut open = ids.len();
        for n in (lo..*span.start()).rev() {
            let Some(t) = self.turn(n) else { continue };
            let hits = t.calls.iter().filter(|(id, _)| ids.contains(id)).count();
            if hits > 0 {
                out.push(n);
                open = open.saturating_sub(hits);
                if open == 0 {
                    break;
                }
            }
        }
        out.reverse();
        out
    }

    /// Who said line `n`, a tool's result named by the tool of the call it answers (looked
    /// for before it); `None` for a line that is no turn or a Markdown source.
    pub fn speaker(&self, n: usize) -> Option<Speaker> {
        let turn = self.turn(n)?;
        if turn.speaker != Speaker::Tool(None) {
            return Some(turn.speaker);
        }
        let ids: Vec<&String> = turn.results.iter().map(|r| &r.id).chain(turn.loaded_by.as_ref()).collect();
        let lo = n.saturating_sub(ANSWER_WINDOW).max(1);
        let name = (lo..n)
            .rev()
            .filter_map(|m| self.turn(m))
            .find_map(|t| t.calls.into_iter().find(|(id, _)| ids.contains(&id)).map(|(_, name)| name));
        Some(Speaker::Tool(name))
    }

    /// Every turn of the conversation in line order with what it says (each cut at `cap`
    /// bytes), read in chunks (256 lines, 16 MiB) so that only one chunk is held; a tool result is
    /// named by the tool of the call it answers. Lines that cannot be read end it early.
    pub fn conversation(&self, cap: usize) -> Vec<Spoken> {
        const CHUNK: usize = 256;
        const CHUNK_BYTES: u64 = 16 << 20;
        let mut out = Vec::new();
        if self.kind() != SourceKind::Jsonl {
            return out;
        }
        let mut tools: std::collections::HashMap<String, String> = std::collections::HashMap::new();
        let mut first = 1;
        while first <= self.line_count() {
            let last = self.chunk_end(first, CHUNK, CHUNK_BYTES);
            let Ok(lines) = self.lines(first..=last) else { break };
            for (n, line) in (first..=last).zip(lines) {
                let Some(turn) = turn_of(&line.bytes, n) else { continue };
                tools.extend(turn.calls.iter().map(|(id, name)| (id.clone(), name.clone())));
                let mut speaker = turn.speaker.clone();
                if speaker == Speaker::Tool(None) {
                    let ids = turn.results.iter().map(|r| &r.id).chain(turn.loaded_by.as_ref());
                    let named = ids.into_iter().find_map(|id| tools.get(id)).cloned();
                    speaker = Speaker::Tool(named);
                }
                let mut text = self.said_text_of(&line);
                text.truncate(floor_boundary(&text, cap));
                out.push(Spoken { line: n, speaker, typed: turn.typed_by_user(), text });
            }
            first = last + 1;
        }
        out
    }

    /// What answered the message in `span`: its failed tool calls, an interruption, and
    /// the next message the user typed, read at most [`ANSWER_WINDOW`] lines on.
    pub fn answer(&self, span: RangeInclusive<usize>) -> Answer {
        let mut out = Answer::default();
        if self.kind() != SourceKind::Jsonl {
            return out;
        }
        let calls: Vec<String> =
            span.clone().filter_map(|n| self.turn(n)).flat_map(|t| t.calls.into_iter().map(|(id, _)| id)).collect();
        out.calls = calls.len();
        let hi = span.end().saturating_add(ANSWER_WINDOW).min(self.line_count());
        let mut superseded = false;
        for n in span.end() + 1..=hi {
            let Some(t) = self.turn(n) else { continue };
            if matches!(t.speaker, Speaker::Assistant | Speaker::SubAgent)
                && (!t.calls.is_empty() || !t.text.trim().is_empty())
            {
                superseded = true;
            }
            for r in t.results.iter().filter(|r| calls.contains(&r.id)) {
                if r.is_error {
                    out.failed.push((n, r.clone()));
                } else {
                    out.succeeded += 1;
                }
            }
            if t.interruption() && out.interrupted.is_none() {
                out.interrupted = Some(n);
            }
            if t.typed_by_user() && !t.interruption() && !t.command_output() {
                out.next_user = (!superseded).then_some((n, t.text));
                break;
            }
        }
        out
    }
}

/// The largest char boundary of `s` at or below `max`.
fn floor_boundary(s: &str, max: usize) -> usize {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speakers_and_blocks() {
        let user = br#"{"type":"user","message":{"role":"user","content":"no, use the queue"}}"#;
        let t = turn_of(user, 3).unwrap();
        assert_eq!((t.speaker.clone(), t.text.as_str(), t.typed_by_user()), (Speaker::User, "no, use the queue", true));
        let call = br#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#;
        assert_eq!(turn_of(call, 4).unwrap().calls, vec![("t1".to_string(), "Bash".to_string())]);
        let result = br#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"The user doesn't want to proceed"}]}}"#;
        let r = turn_of(result, 5).unwrap();
        assert_eq!(r.speaker, Speaker::Tool(None));
        assert!(r.results[0].is_error && !r.typed_by_user());
        let meta = br#"{"type":"user","isMeta":true,"message":{"content":"<local-command-caveat>Caveat</local-command-caveat>"}}"#;
        assert!(!turn_of(meta, 6).unwrap().typed_by_user());
        assert!(turn_of(br#"{"type":"progress"}"#, 7).is_none());
        assert!(turn_of(b"not json", 8).is_none());
    }

    #[test]
    fn a_bare_chat_message_speaks_by_its_role() {
        let user = br#"{"role":"user","content":"no, don't add a cron job"}"#;
        let t = turn_of(user, 1).unwrap();
        assert_eq!((t.speaker, t.text.as_str()), (Speaker::User, "no, don't add a cron job"));
        let call =
            br#"{"role":"assistant","content":{"type":"tool_use","tool_name":"Bash","tool_id":"t9","input":{}}}"#;
        assert_eq!(turn_of(call, 2).unwrap().calls, vec![("t9".to_string(), "Bash".to_string())]);
        let result = br#"{"role":"tool","content":{"type":"tool_result","tool_id":"t9","output":"exit 128"}}"#;
        let r = turn_of(result, 3).unwrap();
        assert_eq!(
            (r.speaker, r.results[0].id.as_str(), r.results[0].text.as_str()),
            (Speaker::Tool(None), "t9", "exit 128")
        );
        // A `message` wins over a bare role; a line with neither is no turn.
        assert!(turn_of(br#"{"content":"x"}"#, 4).is_none());
    }
}
