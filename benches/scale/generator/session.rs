//! Writing one Claude Code session transcript (and its sub-agent transcripts) as JSONL,
//! shaped like real ones: the envelope on every line, user prompts as strings, one
//! assistant response split over several lines sharing `message.id` (thinking, text,
//! tool use), tool results with long outputs duplicated in `toolUseResult`, progress
//! lines, hook and system records.

use super::facts::{Fact, Role};
use super::rng::Rng;
use super::words;
use dreamreview::base::date::Date;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// What to write for one session.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Position among the sessions.
    pub index: usize,
    /// Session id (the file stem).
    pub id: String,
    /// Bytes to write in the main transcript, roughly.
    pub bytes: u64,
    /// The day the session ran.
    pub day: Date,
    /// Start, seconds after midnight.
    pub start: u32,
    /// The user writes partly in Japanese.
    pub japanese: bool,
    /// Byte budgets of the sub-agent transcripts.
    pub subagents: Vec<u64>,
    /// Facts said in the main transcript.
    pub plants: Vec<usize>,
    /// Facts said in the first sub-agent transcript.
    pub sub_plants: Vec<usize>,
}

/// Where a fact ended up: file name relative to the project folder, 1-based line.
#[derive(Clone, Debug)]
pub struct Located {
    /// Index of the fact.
    pub fact: usize,
    /// `<session>.jsonl` or `<session>/subagents/agent-<id>.jsonl`.
    pub name: String,
    /// The line that says it.
    pub line: usize,
}

/// Writes the session described by `plan` under `root`; returns bytes written and where
/// each planted fact is.
pub fn write(root: &Path, plan: &Plan, facts: &[Fact], seed: &Rng) -> io::Result<(u64, Vec<Located>)> {
    let mut r = seed.fork(plan.index as u64 + 1);
    let name = format!("{}.jsonl", plan.id);
    let mut w = Writer::create(&root.join(&name), plan, None, r.fork(0))?;
    let mut located = Vec::new();
    let mut subs: Vec<u64> = plan.subagents.clone();
    subs.reverse();
    w.snapshot()?;
    w.hook("SessionStart:startup")?;
    let mut turn = 0;
    while w.bytes < plan.bytes || turn < 4 {
        let here: Vec<&Fact> = plan.plants.iter().map(|&i| &facts[i]).filter(|f| f.turn == turn).collect();
        let task = match subs.pop() {
            Some(budget) if r.chance(0.3) || w.bytes > plan.bytes / 2 || turn == 1 => Some(budget),
            Some(budget) => {
                subs.push(budget);
                None
            }
            None => None,
        };
        let mut sub = None;
        if let Some(budget) = task {
            let first = plan.subagents.len() - subs.len() == 1;
            sub = Some((budget, if first { plan.sub_plants.clone() } else { Vec::new() }));
        }
        let found = w.turn(turn, &here, facts, sub, root, plan, &mut located)?;
        for (fact, line) in found {
            located.push(Located { fact, name: name.clone(), line });
        }
        turn += 1;
    }
    // Sub-agents the turns did not spawn (short sessions) still get written.
    while let Some(budget) = subs.pop() {
        let first = plan.subagents.len() - subs.len() == 1;
        let plants = if first { plan.sub_plants.clone() } else { Vec::new() };
        let (_, b) = w.subagent(budget, &plants, facts, root, plan, &mut located)?;
        w.sub_bytes += b;
    }
    w.out.flush()?;
    Ok((w.bytes + w.sub_bytes, located))
}

struct Writer {
    out: BufWriter<File>,
    line: usize,
    bytes: u64,
    sub_bytes: u64,
    day: Date,
    secs: f64,
    session: String,
    agent: Option<String>,
    cwd: String,
    japanese: bool,
    parent: Option<String>,
    r: Rng,
    s: String,
}

/// Appends `s` to `out` as a JSON string literal (quotes included), escaping like
/// JavaScript's `JSON.stringify`.
pub fn js(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn quoted(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    js(&mut o, s);
    o
}

impl Writer {
    fn create(path: &Path, plan: &Plan, agent: Option<String>, r: Rng) -> io::Result<Writer> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        Ok(Writer {
            out: BufWriter::with_capacity(1 << 16, File::create(path)?),
            line: 0,
            bytes: 0,
            sub_bytes: 0,
            day: plan.day,
            secs: plan.start as f64,
            session: plan.id.clone(),
            agent,
            cwd: "/home/dev/projects/shop".to_string(),
            japanese: plan.japanese,
            parent: None,
            r,
            s: String::with_capacity(1 << 16),
        })
    }

    fn timestamp(&mut self) -> String {
        self.secs += 0.4 + self.r.unit() * 6.0;
        let t = self.secs.min(86_399.0);
        let whole = t as u32;
        let ms = ((t - whole as f64) * 1000.0) as u32;
        format!("{}T{:02}:{:02}:{:02}.{:03}Z", self.day, whole / 3600, whole / 60 % 60, whole % 60, ms)
    }

    /// Starts a line with the common envelope fields.
    fn head(&mut self) {
        self.s.clear();
        let parent = match &self.parent {
            Some(p) => quoted(p),
            None => "null".into(),
        };
        let side = self.agent.is_some();
        self.s.push_str(&format!(
            "{{\"parentUuid\":{parent},\"isSidechain\":{side},\"userType\":\"external\",\"cwd\":\"{}\",\"sessionId\":\"{}\",\"version\":\"2.1.38\",\"gitBranch\":\"main\",",
            self.cwd, self.session
        ));
        if let Some(a) = &self.agent {
            self.s.push_str(&format!("\"agentId\":\"{a}\","));
        }
    }

    /// Ends the line with uuid and timestamp, writes it, returns its line number.
    fn finish(&mut self, extra: &str) -> io::Result<usize> {
        let uuid = self.r.uuid();
        let ts = self.timestamp();
        self.s.push_str(&format!("\"uuid\":\"{uuid}\",\"timestamp\":\"{ts}\"{extra}}}\n"));
        self.parent = Some(uuid);
        self.out.write_all(self.s.as_bytes())?;
        self.bytes += self.s.len() as u64;
        self.line += 1;
        Ok(self.line)
    }

    fn snapshot(&mut self) -> io::Result<usize> {
        let id = self.r.uuid();
        let ts = self.timestamp();
        let l = format!(
            "{{\"type\":\"file-history-snapshot\",\"messageId\":\"{id}\",\"snapshot\":{{\"messageId\":\"{id}\",\"trackedFileBackups\":{{}},\"timestamp\":\"{ts}\"}},\"isSnapshotUpdate\":false}}\n"
        );
        self.out.write_all(l.as_bytes())?;
        self.bytes += l.len() as u64;
        self.line += 1;
        Ok(self.line)
    }

    fn hook(&mut self, name: &str) -> io::Result<usize> {
        self.head();
        let id = self.r.uuid();
        self.s.push_str(&format!(
            "\"type\":\"progress\",\"data\":{{\"type\":\"hook_progress\",\"hookEvent\":\"SessionStart\",\"hookName\":\"{name}\",\"command\":\"bd prime\"}},\"parentToolUseID\":\"{id}\",\"toolUseID\":\"{id}\","
        ));
        self.finish("")
    }

    fn user(&mut self, text: &str) -> io::Result<usize> {
        self.head();
        self.s.push_str("\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":");
        js(&mut self.s, text);
        self.s.push_str("},");
        self.finish(",\"thinkingMetadata\":{\"maxThinkingTokens\":31999},\"todos\":[],\"permissionMode\":\"default\"")
    }

    /// One block of an assistant response (`block` is JSON).
    fn assistant(&mut self, msg: &str, req: &str, block: &str) -> io::Result<usize> {
        self.head();
        let (i, c, o) = (self.r.range(1, 9), self.r.range(100, 30000), self.r.range(1, 2000));
        self.s.push_str(&format!(
            "\"message\":{{\"model\":\"claude-opus-4-6\",\"id\":\"{msg}\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{block}],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{{\"input_tokens\":{i},\"cache_creation_input_tokens\":{c},\"cache_read_input_tokens\":{},\"output_tokens\":{o},\"service_tier\":\"standard\"}}}},\"requestId\":\"{req}\",\"type\":\"assistant\",",
            c * 3
        ));
        self.finish("")
    }

    fn tool_result(&mut self, id: &str, content: &str, result: &str) -> io::Result<usize> {
        self.head();
        self.s.push_str(&format!(
            "\"type\":\"user\",\"message\":{{\"role\":\"user\",\"content\":[{{\"tool_use_id\":\"{id}\",\"type\":\"tool_result\",\"content\":"
        ));
        js(&mut self.s, content);
        self.s.push_str(",\"is_error\":false}]},");
        let extra = format!(",\"toolUseResult\":{result}");
        self.finish(&extra)
    }

    fn progress(&mut self, data: &str, tool: &str) -> io::Result<usize> {
        self.head();
        self.s.push_str(&format!(
            "\"type\":\"progress\",\"data\":{data},\"toolUseID\":\"bash-progress-{}\",\"parentToolUseID\":\"{tool}\",",
            self.r.below(9)
        ));
        self.finish("")
    }

    fn prose(&mut self, median: f64) -> String {
        let n = self.r.heavy(median, 0.8) as usize;
        let ja = self.japanese;
        words::prose(&mut self.r, n.min(20_000), ja)
    }

    /// One turn: a prompt, an assistant response with tool calls and their results, a
    /// reply. Returns (fact, line) for each fact said in the main file.
    #[allow(clippy::too_many_arguments)]
    fn turn(
        &mut self,
        turn: usize,
        here: &[&Fact],
        facts: &[Fact],
        sub: Option<(u64, Vec<usize>)>,
        root: &Path,
        plan: &Plan,
        located: &mut Vec<Located>,
    ) -> io::Result<Vec<(usize, usize)>> {
        let mut found = Vec::new();
        let index_of = |f: &Fact| facts.iter().position(|g| std::ptr::eq(g, f)).unwrap_or(0);
        if self.r.chance(0.05) {
            self.queue()?;
        }
        let mut prompt = self.prose(180.0);
        let user_facts: Vec<&&Fact> = here.iter().filter(|f| f.role == Role::User).collect();
        for f in &user_facts {
            prompt = format!("{}\n\n{prompt}", f.said.as_deref().unwrap_or(""));
        }
        let line = self.user(&prompt)?;
        for f in user_facts {
            found.push((index_of(f), line));
        }
        if self.r.chance(0.03) {
            self.system()?;
        }
        let calls = self.r.range(1, 4);
        let mut result_fact: Vec<&&Fact> = here.iter().filter(|f| f.role == Role::ToolResult).collect();
        let mut reply_fact: Vec<&&Fact> = here.iter().filter(|f| f.role == Role::Assistant).collect();
        if let Some((budget, plants)) = sub {
            let msg = format!("msg_01{}", self.r.base62(22));
            let req = format!("req_011C{}", self.r.base62(18));
            let tool = format!("toolu_01{}", self.r.base62(22));
            self.task(&msg, &req, &tool, budget, &plants, facts, root, plan, located)?;
        }
        for call in 0..calls {
            let msg = format!("msg_01{}", self.r.base62(22));
            let req = format!("req_011C{}", self.r.base62(18));
            if call == 0 && self.r.chance(0.6) {
                let t = self.prose(700.0);
                let sig = self.r.base62(200);
                let block = format!("{{\"type\":\"thinking\",\"thinking\":{},\"signature\":\"{sig}\"}}", quoted(&t));
                self.assistant(&msg, &req, &block)?;
            }
            let mut text = self.prose(160.0);
            let reply: Vec<&&Fact> = std::mem::take(&mut reply_fact);
            for f in &reply {
                text = format!("{text}\n\n{}", f.said.as_deref().unwrap_or(""));
            }
            let block = format!("{{\"type\":\"text\",\"text\":{}}}", quoted(&text));
            let line = self.assistant(&msg, &req, &block)?;
            for f in reply {
                found.push((index_of(f), line));
            }
            let tool = format!("toolu_01{}", self.r.base62(22));
            let said: Vec<&&Fact> = std::mem::take(&mut result_fact);
            let kind = if said.is_empty() { self.r.below(10) } else { 0 };
            match kind {
                0..=3 => {
                    let cmd = words::command(&mut self.r);
                    let input = format!("{{\"command\":{},\"description\":\"Run it\"}}", quoted(&cmd));
                    self.tool_use(&msg, &req, &tool, "Bash", &input)?;
                    let n = self.r.heavy(1500.0, 1.3) as usize;
                    let mut out = words::log(&mut self.r, n.min(200_000));
                    for f in &said {
                        let at = self.r.below(out.matches('\n').count() + 1);
                        let mut lines: Vec<&str> = out.split_inclusive('\n').collect();
                        let said_line = format!("{}\n", f.said.as_deref().unwrap_or(""));
                        lines.insert(at.min(lines.len()), &said_line);
                        out = lines.concat();
                    }
                    for _ in 0..self.r.below(3) {
                        let part = words::log(&mut self.r, 200);
                        let data = format!(
                            "{{\"type\":\"bash_progress\",\"output\":{},\"fullOutput\":{},\"elapsedTimeSeconds\":{},\"totalLines\":{}}}",
                            quoted(&part),
                            quoted(&part),
                            self.r.range(1, 90),
                            self.r.range(1, 400)
                        );
                        self.progress(&data, &tool)?;
                    }
                    let result = format!(
                        "{{\"stdout\":{},\"stderr\":\"\",\"interrupted\":false,\"isImage\":false}}",
                        quoted(&out)
                    );
                    let line = self.tool_result(&tool, &out, &result)?;
                    for f in said {
                        found.push((index_of(f), line));
                    }
                }
                4..=6 => {
                    let path = words::path(&mut self.r);
                    let input = format!("{{\"file_path\":\"/home/dev/projects/shop/{path}\"}}");
                    self.tool_use(&msg, &req, &tool, "Read", &input)?;
                    let n = self.r.heavy(4000.0, 1.0) as usize;
                    let shown = words::numbered_file(&mut self.r, n.min(120_000), 1);
                    let raw: String =
                        shown.split_inclusive('\n').map(|l| l.split_once('\u{2192}').map_or(l, |(_, b)| b)).collect();
                    let lines = raw.matches('\n').count();
                    let result = format!(
                        "{{\"type\":\"text\",\"file\":{{\"filePath\":\"/home/dev/projects/shop/{path}\",\"content\":{},\"numLines\":{lines},\"startLine\":1,\"totalLines\":{lines}}}}}",
                        quoted(&raw)
                    );
                    self.tool_result(&tool, &shown, &result)?;
                }
                7 => {
                    let pat = words::IDENTS[self.r.below(words::IDENTS.len())];
                    let input = format!("{{\"pattern\":\"{pat}\",\"path\":\"src\",\"output_mode\":\"content\"}}");
                    self.tool_use(&msg, &req, &tool, "Grep", &input)?;
                    let mut out = String::new();
                    for _ in 0..self.r.range(2, 40) {
                        let p = words::path(&mut self.r);
                        let c = words::code_line(&mut self.r, 1);
                        out.push_str(&format!("{p}:{}:{c}\n", self.r.range(1, 900)));
                    }
                    let result = format!("{{\"mode\":\"content\",\"numFiles\":3,\"content\":{}}}", quoted(&out));
                    self.tool_result(&tool, &out, &result)?;
                }
                _ => {
                    let path = words::path(&mut self.r);
                    let old: Vec<String> = (0..self.r.range(1, 12)).map(|_| words::code_line(&mut self.r, 1)).collect();
                    let new: Vec<String> = (0..self.r.range(1, 12)).map(|_| words::code_line(&mut self.r, 1)).collect();
                    let input = format!(
                        "{{\"file_path\":\"/home/dev/projects/shop/{path}\",\"old_string\":{},\"new_string\":{}}}",
                        quoted(&old.join("\n")),
                        quoted(&new.join("\n"))
                    );
                    self.tool_use(&msg, &req, &tool, "Edit", &input)?;
                    let out = format!("The file /home/dev/projects/shop/{path} has been updated.");
                    let result = format!("{{\"filePath\":\"/home/dev/projects/shop/{path}\",\"userModified\":false}}");
                    self.tool_result(&tool, &out, &result)?;
                }
            }
        }
        let msg = format!("msg_01{}", self.r.base62(22));
        let req = format!("req_011C{}", self.r.base62(18));
        let text = self.prose(400.0);
        let block = format!("{{\"type\":\"text\",\"text\":{}}}", quoted(&text));
        self.assistant(&msg, &req, &block)?;
        let _ = turn;
        Ok(found)
    }

    fn tool_use(&mut self, msg: &str, req: &str, id: &str, name: &str, input: &str) -> io::Result<usize> {
        let block = format!(
            "{{\"type\":\"tool_use\",\"id\":\"{id}\",\"name\":\"{name}\",\"input\":{input},\"caller\":{{\"type\":\"direct\"}}}}"
        );
        self.assistant(msg, req, &block)
    }

    fn queue(&mut self) -> io::Result<usize> {
        let ts = self.timestamp();
        let l = format!(
            "{{\"type\":\"queue-operation\",\"operation\":\"enqueue\",\"timestamp\":\"{ts}\",\"sessionId\":\"{}\",\"content\":\"/compact\"}}\n",
            self.session
        );
        self.out.write_all(l.as_bytes())?;
        self.bytes += l.len() as u64;
        self.line += 1;
        Ok(self.line)
    }

    fn system(&mut self) -> io::Result<usize> {
        self.head();
        self.s.push_str("\"type\":\"system\",\"subtype\":\"local_command\",\"content\":\"<command-name>/mcp</command-name>\\n<command-message>mcp</command-message>\",\"level\":\"info\",");
        self.finish(",\"isMeta\":false")
    }

    /// A Task call: the sub-agent's transcript is written, its messages relayed in
    /// `agent_progress` lines, and its report returned as the tool result.
    #[allow(clippy::too_many_arguments)]
    fn task(
        &mut self,
        msg: &str,
        req: &str,
        tool: &str,
        budget: u64,
        plants: &[usize],
        facts: &[Fact],
        root: &Path,
        plan: &Plan,
        located: &mut Vec<Located>,
    ) -> io::Result<()> {
        let prompt = words::paragraph(&mut self.r, 3);
        let input = format!(
            "{{\"description\":\"Investigate the failing suite\",\"prompt\":{},\"subagent_type\":\"general-purpose\"}}",
            quoted(&prompt)
        );
        self.tool_use(msg, req, tool, "Task", &input)?;
        let (agent, bytes) = self.subagent(budget, plants, facts, root, plan, located)?;
        self.sub_bytes += bytes;
        for _ in 0..self.r.range(1, 4) {
            let t = words::paragraph(&mut self.r, 2);
            let data = format!(
                "{{\"type\":\"agent_progress\",\"agentId\":\"{agent}\",\"message\":{{\"type\":\"assistant\",\"message\":{{\"role\":\"assistant\",\"content\":[{{\"type\":\"text\",\"text\":{}}}]}}}}}}",
                quoted(&t)
            );
            self.progress(&data, tool)?;
        }
        let report = self.prose(900.0);
        let result = format!(
            "{{\"status\":\"completed\",\"agentId\":\"{agent}\",\"totalDurationMs\":{}}}",
            self.r.range(2000, 90000)
        );
        self.tool_result(tool, &report, &result)?;
        Ok(())
    }

    /// Writes a sub-agent transcript; returns its id and size.
    fn subagent(
        &mut self,
        budget: u64,
        plants: &[usize],
        facts: &[Fact],
        root: &Path,
        plan: &Plan,
        located: &mut Vec<Located>,
    ) -> io::Result<(String, u64)> {
        let agent = format!("a{}", self.r.hex(6));
        let name = format!("{}/subagents/agent-{agent}.jsonl", plan.id);
        let mut sub_plan = plan.clone();
        sub_plan.subagents.clear();
        let mut w = Writer::create(&root.join(&name), &sub_plan, Some(agent.clone()), self.r.fork(7))?;
        w.secs = self.secs;
        let mut turn = 0;
        while w.bytes < budget || turn < 4 {
            let here: Vec<&Fact> = plants.iter().map(|&i| &facts[i]).filter(|f| f.turn == turn).collect();
            let found = w.turn(turn, &here, facts, None, root, &sub_plan, located)?;
            for (fact, line) in found {
                located.push(Located { fact, name: name.clone(), line });
            }
            turn += 1;
        }
        w.out.flush()?;
        Ok((agent, w.bytes))
    }
}
