//! The mutation harness: correct dreams written over real transcripts (the base cases),
//! known faults injected into them one at a time by operators, and what `check` flags.
//!
//! A base case is a folder with `project/` (the transcripts as Claude Code keeps them, and
//! `project/memory/`, the live notes), `dream/` (the proposed `memory/` and `CHANGES.md`)
//! and optionally `tz` (the reviewer's time zone) and `repo/` (the files of the project the
//! sessions ran in: made a git repository when the case is opened, and every transcript's
//! `cwd` pointed at it, so that facts about the code are checked against it). Unmutated, a
//! base case must raise no
//! flag. Each operator turns it into mutants, each one fault; a mutant is **caught** when
//! its review has a flag the base case does not. Mutants that change nothing the review
//! can tell apart (a citation moved within the message it cites) are not counted.
//!
//! Shared by `benches/mutation/main.rs` (the whole report) and `tests/mutation.rs` (a
//! small fixed-seed slice run by `cargo test`).

#![allow(dead_code)]

use dreamreview::analysis::claims::{self, Claim, ClaimKind, ClaimValue};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The operators, in report order.
pub const OPERATORS: &[&str] = &[
    "change-number",
    "bump-version",
    "swap-subject",
    "flip-polarity",
    "move-citation",
    "cite-other-session",
    "cite-overruled",
    "delete-note",
    "remove-lines",
    "shift-date",
    "capability-url",
    "untrusted-rule",
    "rebind-value",
    "stale-reference",
    "promote-remark",
    "drop-remember",
    "drop-correction",
    "cite-guess",
];

/// One edit of a mutant, on a file of the case (paths relative to the case folder).
#[derive(Clone, Debug)]
pub enum Edit {
    /// Replace the first occurrence of `from` with `to`.
    Replace { path: String, from: String, to: String },
    /// Delete the file.
    Delete { path: String },
    /// Append `text` to the file.
    Append { path: String, text: String },
}

/// One fault injected into a base case.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub op: &'static str,
    pub what: String,
    pub edits: Vec<Edit>,
}

/// A base case on disk.
pub struct Case {
    pub name: String,
    pub root: PathBuf,
    pub tz: Option<String>,
}

impl Case {
    /// The case at `folder` (`tz` read from the file of that name when there is one), laid
    /// out in a temp dir the harness owns: its dream folder (`dream/` or `dream-*/`) as
    /// `dream/`, without `memory.diff` (its headers name the machine the case was written
    /// on; the live folder is given).
    pub fn open(folder: &Path) -> (tempfile::TempDir, Case) {
        let dir = tempfile::tempdir().expect("temp dir");
        copy_dir(folder, dir.path());
        let dream = std::fs::read_dir(dir.path())
            .expect("read case")
            .flatten()
            .map(|e| e.path())
            .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("dream")) && p.is_dir())
            .expect("a dream folder");
        if dream.file_name().is_some_and(|n| n != "dream") {
            std::fs::rename(&dream, dir.path().join("dream")).expect("rename the dream folder");
        }
        let _ = std::fs::remove_file(dir.path().join("dream/memory.diff"));
        if dir.path().join("repo").is_dir() {
            make_project(dir.path());
        }
        let tz = std::fs::read_to_string(folder.join("tz")).ok().map(|t| t.trim().to_string());
        let name = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let case = Case { name, root: dir.path().to_path_buf(), tz };
        (dir, case)
    }

    fn dream(&self) -> PathBuf {
        self.root.join("dream")
    }

    fn memory(&self) -> PathBuf {
        self.root.join("project/memory")
    }
}

/// Makes `repo/` of a case a git repository (one commit of its files, and a branch) and
/// points the `cwd` of every transcript of `project/` at it. Mutants copy the transcripts,
/// not the repository: theirs point at the case's.
fn make_project(root: &Path) {
    let dir = root.join("repo");
    let repo = git2::Repository::init(&dir).expect("git init the case's project");
    let mut index = repo.index().expect("index");
    index.add_all(["*"], git2::IndexAddOption::DEFAULT, None).expect("add the project's files");
    index.write().expect("write the index");
    let tree = repo.find_tree(index.write_tree().expect("tree")).expect("tree");
    let sig = git2::Signature::new("case", "case@example.com", &git2::Time::new(1_770_000_000, 0)).expect("sig");
    let head = repo.commit(Some("HEAD"), &sig, &sig, "the project", &tree, &[]).expect("commit");
    let commit = repo.find_commit(head).expect("commit");
    repo.branch("feat/terminal", &commit, false).expect("branch");
    let cwd = serde_json::to_string(&dir.to_string_lossy()).expect("a path as JSON");
    let re = regex::Regex::new(r#""cwd":"(?:[^"\\]|\\.)*""#).expect("regex");
    for f in walk(&root.join("project")).into_iter().filter(|p| p.extension().is_some_and(|e| e == "jsonl")) {
        let text = std::fs::read_to_string(&f).expect("read a transcript");
        let text = re.replace_all(&text, |_: &regex::Captures<'_>| format!(r#""cwd":{cwd}"#));
        std::fs::write(&f, text.as_bytes()).expect("write a transcript");
    }
}

/// The flags of a review, each as `where kind claim`.
pub type Flags = BTreeSet<String>;

/// Loads and analyses the dream at `root` (a case or a mutated copy of one).
pub fn flags(root: &Path, tz: Option<&str>) -> Flags {
    let inputs =
        dreamreview::inputs::dream::discover(Some(&root.join("dream")), Some(&root.join("project/memory")), &[])
            .expect("discover the case");
    let mut review = dreamreview::store::repo::load_review(inputs).expect("load the case");
    if let Some(tz) = tz {
        review.set_zone(dreamreview::base::zone::Zone::parse(tz).expect("a time zone"));
    }
    let a = dreamreview::analysis::analyze(&review);
    let mut out = Flags::new();
    let mut add = |at: &str, f: &dreamreview::analysis::flag::Flag| {
        out.insert(format!("{at} {} «{}» {}", f.kind.name(), f.claim.as_deref().unwrap_or(""), f.message));
    };
    for (fi, f) in review.files.iter().enumerate() {
        for flag in a.findings.file(fi) {
            add(&f.path, flag);
        }
        for (at, h) in review.hunks_of(fi).zip(&f.hunks) {
            for flag in a.hunk_flags(at) {
                add(&h.id, flag);
            }
        }
    }
    for c in &a.changes {
        for flag in &c.flags {
            add(&format!("CHANGES.md #{}", c.index), flag);
        }
    }
    for flag in &a.audit.flags {
        add("audit", flag);
    }
    // What the dream left out is no flag, but a fault it shows is caught.
    for l in &a.left_out {
        out.insert(format!("{LEFT_OUT} {:?} «{}» {}", l.kind, l.text, l.describe()));
    }
    out
}

/// How [`flags`] marks an item of the left-out section (not a flag: the unmutated dreams may
/// list some).
pub const LEFT_OUT: &str = "left-out";

/// The flags of [`flags`]' output, left-out items aside.
pub fn only_flags(all: &Flags) -> Flags {
    all.iter().filter(|f| !f.starts_with(LEFT_OUT)).cloned().collect()
}

/// What a mutant did: its operator, whether it was caught, and the new flags.
pub struct Outcome {
    pub mutant: Mutant,
    pub caught: bool,
    pub new_flags: Vec<String>,
}

/// Runs `mutant` on a copy of `case` (in a temp dir) and compares with `base`.
pub fn run(case: &Case, base: &Flags, mutant: &Mutant) -> Option<Outcome> {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(&case.root, dir.path());
    let mut changed = false;
    for e in &mutant.edits {
        changed |= apply(dir.path(), e);
    }
    if !changed {
        return None;
    }
    let got = flags(dir.path(), case.tz.as_deref());
    // A flag's message may name lines that moved; compare kinds and places first.
    let shape = |f: &String| f.split(" «").next().unwrap_or("").to_string();
    let base_shapes: std::collections::BTreeMap<String, usize> = base.iter().fold(Default::default(), |mut m, f| {
        *m.entry(shape(f)).or_default() += 1;
        m
    });
    let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
    let new_flags: Vec<String> = got
        .iter()
        .filter(|f| {
            let n = seen.entry(shape(f)).or_default();
            *n += 1;
            *n > base_shapes.get(&shape(f)).copied().unwrap_or(0)
        })
        .cloned()
        .collect();
    Some(Outcome { mutant: mutant.clone(), caught: !new_flags.is_empty(), new_flags })
}

fn apply(root: &Path, e: &Edit) -> bool {
    match e {
        Edit::Replace { path, from, to } => {
            let p = root.join(path);
            let Ok(text) = std::fs::read_to_string(&p) else { return false };
            if from == to || !text.contains(from.as_str()) {
                return false;
            }
            std::fs::write(&p, text.replacen(from.as_str(), to, 1)).is_ok()
        }
        Edit::Delete { path } => std::fs::remove_file(root.join(path)).is_ok(),
        Edit::Append { path, text } => {
            let p = root.join(path);
            let mut old = std::fs::read_to_string(&p).unwrap_or_default();
            old.push_str(text);
            std::fs::write(&p, old).is_ok()
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).expect("read case") {
        let e = e.expect("entry");
        let target = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// A deterministic generator (SplitMix64): the same seed, the same mutants.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[(self.next() % items.len() as u64) as usize])
    }

    fn token(&mut self, len: usize) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        (0..len).map(|_| ALPHABET[(self.next() % ALPHABET.len() as u64) as usize] as char).collect()
    }
}

/// A note the dream changes, with the lines it adds.
struct Changed {
    path: String,
    added: Vec<String>,
}

/// The notes of the case: (path, live text, proposed text), and what the dream adds.
struct Notes {
    live: Vec<(String, String)>,
    proposed: Vec<(String, String)>,
}

impl Notes {
    fn read(case: &Case) -> Notes {
        let list = |dir: &Path| -> Vec<(String, String)> {
            let mut out = Vec::new();
            for e in walk(dir) {
                let rel = e.strip_prefix(dir).unwrap_or(&e).to_string_lossy().replace('\\', "/");
                if let Ok(t) = std::fs::read_to_string(&e) {
                    out.push((rel, t));
                }
            }
            out.sort();
            out
        };
        Notes { live: list(&case.memory()), proposed: list(&case.dream().join("memory")) }
    }

    fn live(&self, path: &str) -> Option<&str> {
        self.live.iter().find(|(p, _)| p == path).map(|(_, t)| t.as_str())
    }

    /// The changed notes with their added lines (lines of the proposal the live note lacks),
    /// frontmatter other than `description` left out.
    fn changed(&self) -> Vec<Changed> {
        let mut out = Vec::new();
        for (path, text) in &self.proposed {
            let live: BTreeSet<&str> = self.live(path).map(|t| t.lines().collect()).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            let fm_end = match lines.first() {
                Some(&"---") => lines.iter().skip(1).position(|l| *l == "---").map_or(0, |k| k + 2),
                _ => 0,
            };
            let added: Vec<String> = lines
                .iter()
                .enumerate()
                .filter(|(i, l)| *i >= fm_end || l.starts_with("description:"))
                .map(|(_, l)| *l)
                .filter(|l| !live.contains(l) && !l.trim().is_empty())
                .map(str::to_string)
                .collect();
            if !added.is_empty() {
                out.push(Changed { path: path.clone(), added });
            }
        }
        out
    }

    /// Live notes the dream leaves as they are (the index aside).
    fn untouched(&self) -> Vec<&(String, String)> {
        self.live
            .iter()
            .filter(|(p, t)| p != "MEMORY.md" && self.proposed.iter().any(|(q, u)| q == p && u == t))
            .collect()
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// The transcripts of the case: (path relative to `project/`, file).
fn transcripts(case: &Case) -> Vec<(String, PathBuf)> {
    let project = case.root.join("project");
    let mut out: Vec<(String, PathBuf)> = walk(&project)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .map(|p| (p.strip_prefix(&project).unwrap_or(&p).to_string_lossy().replace('\\', "/"), p))
        .collect();
    out.sort();
    out
}

fn note_claims(line: &str) -> Vec<Claim> {
    claims::extract(line).into_iter().filter(|c| c.kind != ClaimKind::Link).collect()
}

fn replace_in_note(path: &str, line: &str, new_line: String) -> Edit {
    Edit::Replace { path: format!("dream/memory/{path}"), from: line.to_string(), to: new_line }
}

/// Every mutant of `case` by every operator (the operator's own order, then the case's).
pub fn mutants(case: &Case, rng: &mut Rng) -> Vec<Mutant> {
    let notes = Notes::read(case);
    let changed = notes.changed();
    let changes = std::fs::read_to_string(case.dream().join("CHANGES.md")).unwrap_or_default();
    let mut out = Vec::new();
    out.extend(change_number(&changed));
    out.extend(bump_version(&changed));
    out.extend(swap_subject(&changed, rng));
    out.extend(flip_polarity(&changed));
    out.extend(move_citation(case, &changes));
    out.extend(cite_other_session(case, &changes));
    out.extend(cite_overruled(case, &changed));
    out.extend(delete_note(&notes));
    out.extend(remove_lines(&notes));
    out.extend(shift_date(&changed));
    out.extend(capability_url(case, &changed, rng));
    out.extend(untrusted_rule(case, &changed));
    out.extend(rebind_value(case, &changed));
    out.extend(stale_reference(case, &changed, rng));
    out.extend(promote_remark(case, &changed));
    out.extend(drop_remember(case, &notes, &changed));
    out.extend(drop_correction(case, &changed));
    out.extend(cite_guess(case, &changed, rng));
    out
}

/// The main sessions of the case (no sub-agent's transcript), as (path relative to
/// `project/`, file).
fn main_sessions(case: &Case) -> Vec<(String, PathBuf)> {
    transcripts(case).into_iter().filter(|(rel, _)| !rel.contains("/subagents/") && !rel.contains("agent-")).collect()
}

/// A turn the user typed, appended to session `path` as its last line (its session id and
/// timestamp copied from the line before), and its 1-based line number.
fn user_turn(path: &Path, text: &str) -> (String, usize) {
    appended_turn(path, serde_json::json!({"role": "user", "content": text}))
}

/// A text the assistant wrote, appended to session `path` like [`user_turn`].
fn assistant_turn(path: &Path, text: &str) -> (String, usize) {
    appended_turn(path, serde_json::json!({"role": "assistant", "content": [{"type": "text", "text": text}]}))
}

fn appended_turn(path: &Path, message: serde_json::Value) -> (String, usize) {
    let old = std::fs::read_to_string(path).unwrap_or_default();
    let last: serde_json::Value =
        old.lines().rev().find_map(|l| serde_json::from_str(l).ok()).unwrap_or(serde_json::Value::Null);
    let v = serde_json::json!({
        "type": message["role"].clone(), "isSidechain": false,
        "sessionId": last.get("sessionId").cloned().unwrap_or_default(),
        "timestamp": last.get("timestamp").cloned().unwrap_or_default(),
        "message": message,
    });
    let sep = if old.is_empty() || old.ends_with('\n') { "" } else { "\n" };
    (format!("{sep}{v}\n"), old.lines().count() + 1)
}

/// A note line as a sentence a person would type: list markers and emphasis dropped, and
/// nothing a note's structure holds (headings, links, frontmatter).
fn as_said(line: &str) -> Option<String> {
    let t = line.trim().trim_start_matches(['-', '*', '+', ' ']).trim().replace("**", "");
    let structure = t.starts_with('#')
        || t.contains("](")
        || t.contains(": ") && t.split(": ").next().is_some_and(|k| !k.contains(' ') && k.len() < 14)
        || t.starts_with("---");
    let words = dreamreview::analysis::claims::statement_of(&t).content.len();
    (!structure && words >= 4 && t.len() <= 200 && !t.contains('|'))
        .then(|| t.trim_end_matches(['.', '。']).to_string())
}

fn cjk(text: &str) -> bool {
    text.chars().any(|c| matches!(c as u32, 0x3040..=0x30FF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF))
}

/// A remark the user made once, for the task at hand, written into a note as a standing
/// rule (`- Always: keep accounts_legacy for now.`) and cited at the remark. The remarks are
/// the sentences of the turns the user typed in the case (not lasting, not a rule or a
/// question of their own, said once), and, for a case with few, a line a dream adds,
/// typed by the user as a passing remark in a new last turn. At most three per case.
fn promote_remark(case: &Case, changed: &[Changed]) -> Vec<Mutant> {
    use dreamreview::analysis::claims as c;
    let Some(target) = changed.iter().find(|x| x.path != "MEMORY.md") else { return Vec::new() };
    let mut out = Vec::new();
    let mut remarks: Vec<(String, String, usize, Option<String>)> = Vec::new();
    let mut all: Vec<String> = Vec::new();
    for (rel, path) in main_sessions(case) {
        let source = dreamreview::inputs::transcript::SourceFile::new(path.clone(), rel.clone());
        let Ok(words) = dreamreview::inputs::transcript::read_session(&source, 16 << 10) else { continue };
        for t in &words.typed {
            for s in c::statements(&t.text) {
                let said = t.text[s.range.clone()].trim().to_string();
                all.push(said.to_lowercase());
                if s.content.len() >= 3
                    && !c::lasting(&said)
                    && !c::phrased_as_rule(&said)
                    && !c::hedged(&said)
                    && said.len() <= 160
                    && !said.contains('`')
                {
                    remarks.push((rel.clone(), said, t.line, None));
                }
            }
        }
    }
    remarks.retain(|(_, said, _, _)| all.iter().filter(|a| **a == said.to_lowercase()).count() == 1);
    // A line the dream adds, said by the user as a passing remark in a new last turn.
    if let Some((rel, path)) = main_sessions(case).into_iter().next() {
        for line in changed.iter().filter(|x| x.path != "MEMORY.md").flat_map(|x| x.added.iter()) {
            let Some(said) = as_said(line) else { continue };
            if c::directive(&said) || c::lasting(&said) || c::phrased_as_rule(&said) {
                continue;
            }
            let (turn, n) = user_turn(&path, &format!("{said}."));
            remarks.push((rel.clone(), said, n, Some(turn)));
            break;
        }
    }
    for (rel, said, n, turn) in remarks.into_iter().take(3) {
        let said = said.trim_end_matches(['.', '。']);
        let line = if cjk(said) { format!("- 常に：{said}。") } else { format!("- Always: {said}.") };
        let mut edits = vec![
            Edit::Append { path: format!("dream/memory/{}", target.path), text: format!("{line}\n") },
            Edit::Append {
                path: "dream/CHANGES.md".into(),
                text: format!("- {}: a standing rule ({rel}:{n})\n", target.path),
            },
        ];
        if let Some(turn) = turn {
            edits.push(Edit::Append { path: format!("project/{rel}"), text: turn });
        }
        out.push(Mutant {
            op: "promote-remark",
            what: format!("{}: «{line}» from the remark at {rel}:{n}", target.path),
            edits,
        });
    }
    out
}

/// A lasting instruction of the user's (`Remember: …`, 覚えておいて：…) that the dream
/// drops: the line of the memory that states it is taken out of the proposal. The
/// instructions are those the user typed in the case, and, for each of the first three lines
/// the dream adds, that line said by the user as `Remember: …` in a new last turn.
fn drop_remember(case: &Case, notes: &Notes, changed: &[Changed]) -> Vec<Mutant> {
    use dreamreview::analysis::claims as c;
    let mut out = Vec::new();
    // The user's own: drop the proposed line closest to it.
    for (rel, path) in main_sessions(case) {
        let source = dreamreview::inputs::transcript::SourceFile::new(path.clone(), rel.clone());
        let Ok(words) = dreamreview::inputs::transcript::read_session(&source, 16 << 10) else { continue };
        for t in &words.typed {
            for s in c::statements(&t.text) {
                let said = &t.text[s.range.clone()];
                if !c::lasting_instruction(said) {
                    continue;
                }
                let best = notes
                    .proposed
                    .iter()
                    .flat_map(|(p, text)| text.lines().map(move |l| (p, l)))
                    .filter(|(_, l)| !l.trim().is_empty())
                    .map(|(p, l)| (c::statement_of(l).covered_by(&s).max(s.covered_by(&c::statement_of(l))), p, l))
                    .filter(|(cov, _, _)| *cov >= 0.5)
                    .max_by(|a, b| a.0.total_cmp(&b.0));
                if let Some((_, p, l)) = best {
                    out.push(Mutant {
                        op: "drop-remember",
                        what: format!("{p}: drop «{l}», which states the user's «{}» ({rel}:{})", said.trim(), t.line),
                        edits: vec![Edit::Replace {
                            path: format!("dream/memory/{p}"),
                            from: format!("{l}\n"),
                            to: String::new(),
                        }],
                    });
                }
            }
        }
    }
    let Some((rel, path)) = main_sessions(case).into_iter().next() else { return out };
    let lines =
        changed.iter().filter(|x| x.path != "MEMORY.md").flat_map(|x| x.added.iter().map(move |l| (&x.path, l)));
    for (p, line) in lines.filter_map(|(p, l)| as_said(l).map(|s| (p, l, s))).take(3).map(|(p, l, s)| (p, (l, s))) {
        let (l, said) = line;
        let text = if cjk(&said) { format!("覚えておいて：{said}。") } else { format!("Remember: {said}.") };
        let (turn, n) = user_turn(&path, &text);
        out.push(Mutant {
            op: "drop-remember",
            what: format!("{p}: drop «{l}», said as «{text}» at {rel}:{n}"),
            edits: vec![
                Edit::Append { path: format!("project/{rel}"), text: turn },
                Edit::Replace { path: format!("dream/memory/{p}"), from: format!("{l}\n"), to: String::new() },
            ],
        });
    }
    out
}

/// A correction the dream ignores: a line it adds states a value (`timeout 90s`) that the
/// user corrected in a later turn (`No — loader timeout is 91s, not 90s.`, いや、…じゃなくて…):
/// the note still says what the user corrected away. One per note line with a number, the
/// first three.
fn drop_correction(case: &Case, changed: &[Changed]) -> Vec<Mutant> {
    let Some((rel, path)) = main_sessions(case).into_iter().next() else { return Vec::new() };
    let mut out = Vec::new();
    for x in changed.iter().filter(|x| x.path != "MEMORY.md") {
        for line in &x.added {
            let Some(said) = as_said(line) else { continue };
            let Some(num) = note_claims(line).into_iter().find(|c| matches!(c.kind, ClaimKind::Number)) else {
                continue;
            };
            let Some(digits) = num.text.split(|c: char| !c.is_ascii_digit()).find(|d| !d.is_empty()) else { continue };
            let bumped = bump_digits(digits);
            let Some(at) = said.find(digits) else { continue };
            let fixed = format!("{}{bumped}{}", &said[..at], &said[at + digits.len()..]);
            let text = if cjk(&said) {
                format!("いや、{digits} じゃなくて {bumped}：{fixed}。")
            } else {
                format!("No — {fixed}, not {digits}.")
            };
            let (turn, n) = user_turn(&path, &text);
            out.push(Mutant {
                op: "drop-correction",
                what: format!("{}: «{line}» kept though the user said «{text}» at {rel}:{n}", x.path),
                edits: vec![Edit::Append { path: format!("project/{rel}"), text: turn }],
            });
            if out.len() == 3 {
                return out;
            }
        }
    }
    out
}

/// A fact about the code that the project does not hold, stated by the assistant in a
/// session and copied into a note with an entry citing it: a file of the project renamed
/// (`assets/js/app.js` → `assets/js/app_old.js`), a commit id no ref reaches, a branch and
/// a script that do not exist. Sourced, so only the check against the repository catches
/// it. Only for a case with a `repo/`.
fn stale_reference(case: &Case, changed: &[Changed], rng: &mut Rng) -> Vec<Mutant> {
    let repo = case.root.join("repo");
    if !repo.join(".git").is_dir() {
        return Vec::new();
    }
    let Some(target) = changed.iter().find(|c| c.path != "MEMORY.md") else { return Vec::new() };
    let Some((rel, path)) = transcripts(case).into_iter().next() else { return Vec::new() };
    let lines = std::fs::read_to_string(&path).map(|t| t.lines().count()).unwrap_or(0);
    let mut files: Vec<String> = walk(&repo)
        .into_iter()
        .filter_map(|p| p.strip_prefix(&repo).ok().map(|r| r.to_string_lossy().replace('\\', "/")))
        .filter(|r| !r.starts_with(".git/") && r.contains('/'))
        .collect();
    files.sort();
    let mut said: Vec<String> = files
        .iter()
        .filter_map(|f| f.rsplit_once('.').map(|(stem, ext)| format!("The code for this is in {stem}_old.{ext}.")))
        .take(4)
        .collect();
    let id = |rng: &mut Rng, len: usize| loop {
        let h = hex(rng, len);
        if h.chars().any(|c| c.is_ascii_digit()) && h.chars().any(|c| c.is_ascii_alphabetic()) {
            return h;
        }
    };
    said.push(format!("The fix landed in commit {}.", id(rng, 7)));
    said.push(format!("That regression came from commit {}.", id(rng, 12)));
    said.push("Release work happens on branch `release/next`.".to_string());
    if repo.join("assets/package.json").exists() || repo.join("package.json").exists() {
        said.push("Production deploys go through `npm run deploy-prod`.".to_string());
    }
    let name = rel.rsplit('/').next().unwrap_or(&rel).to_string();
    said.into_iter()
        .map(|text| {
            let line = serde_json::json!({
                "type": "assistant", "timestamp": "2026-02-13T06:30:00.000Z", "sessionId": "x",
                "message": {"id": "msg_stale", "role": "assistant", "content": [{"type": "text", "text": text}]}
            });
            Mutant {
                op: "stale-reference",
                what: format!("{}: {text}", target.path),
                edits: vec![
                    Edit::Append { path: format!("project/{rel}"), text: format!("{line}\n") },
                    Edit::Append { path: format!("dream/memory/{}", target.path), text: format!("- {text}\n") },
                    Edit::Append {
                        path: "dream/CHANGES.md".into(),
                        text: format!("- {}: what the session said of the code ({name}:{})\n", target.path, lines + 1),
                    },
                ],
            }
        })
        .collect()
}

/// A value moved to another subject: a number of a note line replaced by another number
/// of the same unit that a transcript of the case says about something else (`87 MB` of
/// the vision model → the `172 MB` the transcript gives the fp16 weights). The value is
/// stated somewhere, so only a check that binds it to its subject (or to the cited lines)
/// catches it. One per note line, the first such number in transcript order.
fn rebind_value(case: &Case, changed: &[Changed]) -> Vec<Mutant> {
    let values = transcript_values(case);
    let mut out = Vec::new();
    for c in changed.iter().filter(|c| c.path != "MEMORY.md") {
        for line in &c.added {
            let found = note_claims(line).into_iter().find_map(|claim| {
                let ClaimValue::Number { value, unit: Some(unit) } = &claim.value else { return None };
                let other = values.iter().find(|(v, u, _)| u == &unit.to_lowercase() && v != value)?;
                Some((claim, other.2.clone()))
            });
            let Some((claim, to)) = found else { continue };
            let new_line = format!("{}{}{}", &line[..claim.start], to, &line[claim.end..]);
            out.push(Mutant {
                op: "rebind-value",
                what: format!("{}: «{}» → «{}»", c.path, claim.text, to),
                edits: vec![replace_in_note(&c.path, line, new_line)],
            });
        }
    }
    out
}

/// Every number with its unit the case's transcripts say: (value, unit lowercased, as
/// written), in transcript order, each once.
fn transcript_values(case: &Case) -> Vec<(String, String, String)> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (rel, path) in transcripts(case) {
        let Ok(t) = dreamreview::inputs::transcript::Transcript::open(
            &dreamreview::inputs::transcript::SourceFile::new(path, rel),
        ) else {
            continue;
        };
        for n in 1..=t.line_count() {
            let Ok(Some(text)) = t.said_text(n) else { continue };
            for l in text.lines().filter(|l| l.len() < 2000) {
                for c in claims::extract(l) {
                    if let ClaimValue::Number { value, unit: Some(unit) } = &c.value
                        && seen.insert((value.clone(), unit.to_lowercase()))
                    {
                        out.push((value.clone(), unit.to_lowercase(), c.text.clone()));
                    }
                }
            }
        }
    }
    out
}

/// `64 lines` → `65 lines`, `port 8443` → `port 8444`, `timeout 90s` → `timeout 91s`.
fn change_number(changed: &[Changed]) -> Vec<Mutant> {
    let mut out = Vec::new();
    for c in changed {
        for line in &c.added {
            for claim in note_claims(line).into_iter().filter(|cl| cl.kind == ClaimKind::Number) {
                let digits = match &claim.value {
                    ClaimValue::Number { value, .. } if !value.starts_with("0x") && !value.starts_with("0o") => {
                        value.clone()
                    }
                    ClaimValue::Port { port, .. } => port.clone(),
                    _ => continue,
                };
                let Some(at) = claim.text.find(|ch: char| ch.is_ascii_digit()) else { continue };
                let written: String =
                    claim.text[at..].chars().take_while(|ch| ch.is_ascii_digit() || *ch == ',' || *ch == '.').collect();
                let bumped = bump_digits(&digits);
                let new_claim = format!("{}{}{}", &claim.text[..at], bumped, &claim.text[at + written.len()..]);
                let new_line = format!("{}{}{}", &line[..claim.start], new_claim, &line[claim.end..]);
                out.push(Mutant {
                    op: "change-number",
                    what: format!("{}: «{}» → «{}»", c.path, claim.text, new_claim),
                    edits: vec![replace_in_note(&c.path, line, new_line)],
                });
            }
        }
    }
    out
}

/// The number with its last digit raised by one (9 → 0 with a carry), and `1` added when
/// it is a single digit 9.
fn bump_digits(digits: &str) -> String {
    let n: Option<u64> = digits.replace([',', '.'], "").parse().ok();
    match (n, digits.contains('.')) {
        (Some(n), false) => (n + 1).to_string(),
        _ => {
            let mut chars: Vec<char> = digits.chars().collect();
            if let Some(last) = chars.iter_mut().rev().find(|c| c.is_ascii_digit()) {
                *last = if *last == '9' { '8' } else { char::from(*last as u8 + 1) };
            }
            chars.into_iter().collect()
        }
    }
}

/// `Postgres 16` → `Postgres 17`, `1.5.0` → `1.5.1`.
fn bump_version(changed: &[Changed]) -> Vec<Mutant> {
    let mut out = Vec::new();
    for c in changed {
        for line in &c.added {
            for claim in note_claims(line).into_iter().filter(|cl| cl.kind == ClaimKind::Version) {
                let ClaimValue::Text(v) = &claim.value else { continue };
                let Some(at) = claim.text.to_lowercase().rfind(v.as_str()) else { continue };
                let mut parts: Vec<String> = v.split('.').map(str::to_string).collect();
                let Some(last) = parts.last_mut() else { continue };
                let Ok(n) = last.parse::<u64>() else { continue };
                *last = (n + 1).to_string();
                let new_v = parts.join(".");
                let new_claim = format!("{}{}{}", &claim.text[..at], new_v, &claim.text[at + v.len()..]);
                let new_line = format!("{}{}{}", &line[..claim.start], new_claim, &line[claim.end..]);
                out.push(Mutant {
                    op: "bump-version",
                    what: format!("{}: «{}» → «{}»", c.path, claim.text, new_claim),
                    edits: vec![replace_in_note(&c.path, line, new_line)],
                });
            }
        }
    }
    out
}

const PRODUCTS: &[&str] = &["MySQL", "Redis", "Node", "Python", "Ruby", "Kafka", "Elixir", "Postgres"];
const COUNTS: &[&str] = &["rows", "files", "users", "tests", "columns", "requests", "lines", "hosts"];
const LABELS: &[&str] = &["retry", "interval", "delay", "timeout", "limit", "budget"];

/// What a value is about, swapped: the product of a version, the unit of a count, the
/// label of a measure or of a labelled value.
fn swap_subject(changed: &[Changed], rng: &mut Rng) -> Vec<Mutant> {
    let mut out = Vec::new();
    for c in changed {
        for line in &c.added {
            for claim in note_claims(line) {
                let swap = match (&claim.value, &claim.subject) {
                    (ClaimValue::Text(_), Some(s)) if claim.kind == ClaimKind::Version => {
                        let others: Vec<&str> =
                            PRODUCTS.iter().copied().filter(|p| !p.eq_ignore_ascii_case(&s.label.text)).collect();
                        rng.pick(&others).map(|p| (s.label.text.clone(), p.to_string()))
                    }
                    (ClaimValue::Number { unit: Some(unit), .. }, None)
                        if unit.chars().all(|ch| ch.is_ascii_alphabetic()) && unit.len() > 2 =>
                    {
                        let others: Vec<&str> = COUNTS.iter().copied().filter(|u| !u.starts_with(&unit[..3])).collect();
                        rng.pick(&others).map(|u| (unit_as_written(&claim.text, unit), u.to_string()))
                    }
                    (ClaimValue::Number { .. }, Some(s)) if s.label.strong => {
                        let others: Vec<&str> =
                            LABELS.iter().copied().filter(|l| !s.label.text.eq_ignore_ascii_case(l)).collect();
                        rng.pick(&others).map(|l| (s.label.text.clone(), l.to_string()))
                    }
                    _ => None,
                };
                let Some((from, to)) = swap else { continue };
                if from.is_empty() || !line.contains(&from) {
                    continue;
                }
                let new_line = line.replacen(&from, &to, 1);
                out.push(Mutant {
                    op: "swap-subject",
                    what: format!("{}: «{}»: {from} → {to}", c.path, claim.text),
                    edits: vec![replace_in_note(&c.path, line, new_line)],
                });
            }
        }
    }
    out
}

fn unit_as_written(text: &str, unit: &str) -> String {
    let lower = text.to_lowercase();
    match lower.find(unit) {
        Some(i) => text[i..i + unit.len()].to_string(),
        None => String::new(),
    }
}

/// Sentences turned around: a negation added or taken out, an antonym swapped, in the
/// languages notes are written in.
fn flip_polarity(changed: &[Changed]) -> Vec<Mutant> {
    const SWAPS: &[(&str, &str)] = &[
        (" not ", " "),
        ("n't ", " "),
        (" no ", " a "),
        ("never", "always"),
        ("always", "never"),
        ("required", "optional"),
        ("optional", "required"),
        ("enabled", "disabled"),
        ("disabled", "enabled"),
        (" before ", " after "),
        (" after ", " before "),
        ("allowed", "forbidden"),
        ("必須", "任意"),
        ("任意", "必須"),
        ("必要", "不要"),
        ("不要", "必要"),
        ("する", "しない"),
        ("しない", "する"),
        ("한다", "하지 않는다"),
        ("需要", "不需要"),
    ];
    const AUX: &[&str] = &[" is ", " are ", " was ", " were ", " must ", " should ", " can ", " will ", " does "];
    let mut out = Vec::new();
    for c in changed {
        for line in &c.added {
            let prose = line.trim_start().trim_start_matches(['-', '*', ' ']);
            if prose.starts_with('#') || prose.starts_with("description:") || claims::statements(prose).is_empty() {
                continue;
            }
            let flipped =
                SWAPS.iter().find(|(a, _)| line.contains(a)).map(|(a, b)| line.replacen(a, b, 1)).or_else(|| {
                    AUX.iter().find(|a| line.contains(*a)).map(|a| line.replacen(a, &format!("{}not ", a), 1))
                });
            if let Some(new_line) = flipped {
                out.push(Mutant {
                    op: "flip-polarity",
                    what: format!("{}: «{}» → «{}»", c.path, line.trim(), new_line.trim()),
                    edits: vec![replace_in_note(&c.path, line, new_line)],
                });
            }
        }
    }
    out
}

/// A citation of CHANGES.md: the file as written and the first line cited.
struct Cite {
    /// The text to replace (`x.jsonl:12`, `x.jsonl lines 12-14`, `x.jsonl 3行目`).
    written: String,
    file: String,
    /// What stands between the file and the first line (`:`, `#L`, ` lines `).
    sep: String,
    line: usize,
    /// What stands between the two lines of a range (`-`, `-L`).
    dash: String,
    end: Option<usize>,
    suffix: String,
}

impl Cite {
    /// The citation written with `file` and lines `n` (to `end`).
    fn rewrite(&self, file: &str, n: usize, end: Option<usize>) -> String {
        let range = end.map(|e| format!("{}{e}", self.dash)).unwrap_or_default();
        format!("{file}{}{n}{range}{}", self.sep, self.suffix)
    }

    /// The citation with other lines.
    fn with_lines(&self, n: usize, end: Option<usize>) -> String {
        self.rewrite(&self.file, n, end)
    }
}

fn cites(changes: &str) -> Vec<Cite> {
    let re = regex::Regex::new(
        r"(?P<file>[\w./-]+\.jsonl)(?P<sep>:|#L| lines? | |の)(?P<a>\d+)(?:(?P<dash>-L?)(?P<b>\d+))?(?P<suffix>行目)?",
    )
    .expect("regex");
    re.captures_iter(changes)
        .filter_map(|c| {
            let written = c.get(0)?.as_str().to_string();
            let file = c.name("file")?.as_str().to_string();
            let sep = c.name("sep")?.as_str().to_string();
            let line = c.name("a")?.as_str().parse().ok()?;
            let dash = c.name("dash").map_or(String::new(), |d| d.as_str().to_string());
            let end = c.name("b").and_then(|b| b.as_str().parse().ok());
            let suffix = c.name("suffix").map_or(String::new(), |d| d.as_str().to_string());
            Some(Cite { written, file, sep, line, dash, end, suffix })
        })
        .collect()
}

fn transcript(case: &Case, file: &str) -> Option<dreamreview::inputs::transcript::Transcript> {
    let (name, path) = transcripts(case).into_iter().find(|(rel, _)| rel.ends_with(file))?;
    dreamreview::inputs::transcript::Transcript::open(&dreamreview::inputs::transcript::SourceFile::new(path, name))
        .ok()
}

/// The lines a cited line stands for: its message and what is tied to it.
fn message_lines(t: &dreamreview::inputs::transcript::Transcript, n: usize) -> BTreeSet<usize> {
    let span = t.message_span(n).unwrap_or(n..=n);
    let mut out: BTreeSet<usize> = span.clone().collect();
    out.extend(t.exchange(span));
    out
}

/// A citation moved by ±1…3 lines (within the file, to another message).
fn move_citation(case: &Case, changes: &str) -> Vec<Mutant> {
    let mut out = Vec::new();
    for c in cites(changes) {
        let Some(t) = transcript(case, &c.file) else { continue };
        let here = message_lines(&t, c.line);
        for d in [-3i64, -2, -1, 1, 2, 3] {
            let n = c.line as i64 + d;
            if n < 1 || n as usize > t.line_count() {
                continue;
            }
            let n = n as usize;
            let there = message_lines(&t, n);
            // The same message, or lines of its exchange: no fault.
            if there.contains(&c.line) || here.contains(&n) {
                continue;
            }
            let end = c.end.map(|e| ((e as i64 + d).max(n as i64) as usize).min(t.line_count()));
            // A range moved onto lines it still covers in part cites some of the same lines.
            let (old_lo, old_hi) = (c.line, c.end.unwrap_or(c.line));
            if n <= old_hi && end.unwrap_or(n) >= old_lo {
                continue;
            }
            let moved = c.with_lines(n, end);
            out.push(Mutant {
                op: "move-citation",
                what: format!("{} → {}", c.written, moved),
                edits: vec![Edit::Replace { path: "dream/CHANGES.md".into(), from: c.written.clone(), to: moved }],
            });
        }
    }
    out
}

/// A citation naming another session of the project (same line, or its last line).
fn cite_other_session(case: &Case, changes: &str) -> Vec<Mutant> {
    let all = transcripts(case);
    let mut out = Vec::new();
    for c in cites(changes) {
        for (other, path) in all.iter().filter(|(rel, _)| !rel.ends_with(&c.file)) {
            let Ok(t) = dreamreview::inputs::transcript::Transcript::open(
                &dreamreview::inputs::transcript::SourceFile::new(path.clone(), other.clone()),
            ) else {
                continue;
            };
            let n = c.line.min(t.line_count()).max(1);
            let name = other.rsplit('/').next().unwrap_or(other);
            let to = c.rewrite(name, n, c.end.map(|e| e.min(t.line_count()).max(n)));
            out.push(Mutant {
                op: "cite-other-session",
                what: format!("{} → {}", c.written, to),
                edits: vec![Edit::Replace { path: "dream/CHANGES.md".into(), from: c.written.clone(), to }],
            });
            break;
        }
    }
    out
}

/// A note line built from a proposal the user turned down, citing it.
fn cite_overruled(case: &Case, changed: &[Changed]) -> Vec<Mutant> {
    let Some(target) = changed.iter().find(|c| c.path != "MEMORY.md") else { return Vec::new() };
    let mut out = Vec::new();
    for (rel, path) in transcripts(case) {
        let Ok(t) = dreamreview::inputs::transcript::Transcript::open(
            &dreamreview::inputs::transcript::SourceFile::new(path, rel.clone()),
        ) else {
            continue;
        };
        let mut n = 1;
        while n <= t.line_count() {
            let span = t.message_span(n).unwrap_or(n..=n);
            let next = *span.end() + 1;
            let turn = span.clone().find_map(|m| t.turn(m));
            let proposal = turn.filter(|tu| tu.speaker == dreamreview::inputs::transcript::Speaker::Assistant);
            if let Some(turn) = proposal
                && dreamreview::analysis::provenance::overruled::of_message(&t, span.clone()).is_some()
                && let Some(line) = proposal_line(&t, n, &turn)
            {
                let name = rel.rsplit('/').next().unwrap_or(&rel).to_string();
                out.push(Mutant {
                    op: "cite-overruled",
                    what: format!("{}: «{}» from {name}:{n}", target.path, line),
                    edits: vec![
                        Edit::Append { path: format!("dream/memory/{}", target.path), text: format!("{line}\n") },
                        Edit::Append {
                            path: "dream/CHANGES.md".into(),
                            text: format!("- {}: {} ({}:{n})\n", target.path, line.trim_start_matches("- "), rel),
                        },
                    ],
                });
            }
            n = next.max(n + 1);
        }
    }
    out
}

/// A note line stating what a proposal proposes: its command, its plan's first step, or its
/// first sentence.
fn proposal_line(
    t: &dreamreview::inputs::transcript::Transcript,
    n: usize,
    turn: &dreamreview::inputs::transcript::Turn,
) -> Option<String> {
    let raw = t.line(n).ok().flatten()?;
    let v: serde_json::Value = serde_json::from_slice(&raw.bytes).ok()?;
    let blocks = v.pointer("/message/content")?.as_array()?.clone();
    for b in &blocks {
        if b.get("type").and_then(|x| x.as_str()) == Some("tool_use") {
            let input = b.get("input")?;
            if let Some(cmd) = input.get("command").and_then(|x| x.as_str()) {
                return Some(format!("- Run `{}` for this.", cmd.lines().next()?));
            }
            if let Some(plan) = input.get("plan").and_then(|x| x.as_str()) {
                let step = plan
                    .lines()
                    .find(|l| l.contains(char::is_alphabetic))?
                    .trim_start_matches(|c: char| !c.is_alphabetic());
                return Some(format!("- Plan: {step}."));
            }
        }
    }
    let first = turn.text.split(['.', '\n']).find(|s| s.split_whitespace().count() >= 4)?.trim();
    Some(format!("- {first}."))
}

/// An instruction in a tool's result (a file read, a page, a skill's text, a command's
/// output) or a sub-agent's report — a sentence of it that tells its reader what to do —
/// written into a note as a standing rule (`From now on, …`) and cited at that result: an
/// instruction the user never gave. At most three per transcript; a
/// sentence a turn the user typed or the assistant wrote also says is skipped.
fn untrusted_rule(case: &Case, changed: &[Changed]) -> Vec<Mutant> {
    use dreamreview::analysis::claims::statements;
    let Some(target) = changed.iter().find(|c| c.path != "MEMORY.md") else { return Vec::new() };
    let mut out = Vec::new();
    for (rel, path) in transcripts(case) {
        let source = dreamreview::inputs::transcript::SourceFile::new(path, rel.clone());
        let Ok(t) = dreamreview::inputs::transcript::Transcript::open(&source) else { continue };
        let turns = t.conversation(64 << 10);
        // What the user typed or the assistant wrote (a file the assistant wrote and a tool
        // then read back is the assistant's words).
        let own = |s: &&dreamreview::inputs::transcript::Spoken| {
            s.typed || s.speaker == dreamreview::inputs::transcript::Speaker::Assistant
        };
        let typed: Vec<_> = turns.iter().filter(own).flat_map(|s| statements(&s.text)).collect();
        let mut taken = 0;
        for s in turns.iter().filter(|s| s.speaker.untrusted()) {
            let sentence = statements(&s.text).into_iter().find(|c| {
                let said = &s.text[c.range.clone()];
                c.content.len() >= 4
                    && dreamreview::analysis::claims::directive(said)
                    && said.len() <= 160
                    && said.chars().all(|ch| !ch.is_control() && ch != '`' && ch != '|')
                    && typed.iter().all(|u| c.covered_by(u) < 0.6)
            });
            let Some(c) = sentence else { continue };
            let said = s.text[c.range.clone()].trim().trim_end_matches('.');
            let line = format!("- From now on, {said}.");
            out.push(Mutant {
                op: "untrusted-rule",
                what: format!("{}: «{line}» from {} at {rel}:{}", target.path, s.speaker.label(), s.line),
                edits: vec![
                    Edit::Append { path: format!("dream/memory/{}", target.path), text: format!("{line}\n") },
                    Edit::Append {
                        path: "dream/CHANGES.md".into(),
                        text: format!("- {}: a standing rule ({}:{})\n", target.path, rel, s.line),
                    },
                ],
            });
            taken += 1;
            if taken == 3 {
                break;
            }
        }
    }
    out
}

/// A guess of the assistant's (`the flake is probably the shared Redis`, `たぶん…`) written
/// into a note as a fact, its hedge taken out (`- The flake is the shared Redis.`), and
/// cited at that guess. The guesses are the assistant's hedged sentences in the case's
/// sessions that no turn of the user's or tool output also states (the fact would have a
/// source), at most three per session; a session with none gets two made from the names the
/// dream writes (`I think the `pnpm install` failure comes from `node_modules`.`), one in
/// English and one in Japanese, Korean or Chinese, appended as the assistant's last turn.
fn cite_guess(case: &Case, changed: &[Changed], rng: &mut Rng) -> Vec<Mutant> {
    let Some(target) = changed.iter().find(|c| c.path != "MEMORY.md") else { return Vec::new() };
    let names = names_written(changed);
    let mut out = Vec::new();
    for (rel, path) in main_sessions(case) {
        let mut guesses = guesses_said(&rel, &path);
        if guesses.is_empty() && names.len() >= 2 {
            guesses = guesses_made(&names, rng)
                .into_iter()
                .map(|(guess, fact)| {
                    let (turn, n) = assistant_turn(&path, &guess);
                    (n, guess, fact, vec![Edit::Append { path: format!("project/{rel}"), text: turn }])
                })
                .collect();
        }
        for (n, guess, fact, mut edits) in guesses {
            let line = format!("- {fact}");
            edits.push(Edit::Append { path: format!("dream/memory/{}", target.path), text: format!("{line}\n") });
            edits.push(Edit::Append {
                path: "dream/CHANGES.md".into(),
                text: format!("- {}: {} ({rel}:{n})\n", target.path, fact.trim_end_matches(['.', '。'])),
            });
            out.push(Mutant {
                op: "cite-guess",
                what: format!("{}: «{line}» from the guess «{guess}» at {rel}:{n}", target.path),
                edits,
            });
        }
    }
    out
}

/// A guess, the fact it becomes, where it is: (line, guess, fact, edits that put it there).
type Guess = (usize, String, String, Vec<Edit>);

/// The assistant's hedged sentences of session `path` that no other speaker states and that
/// read as a fact without their hedge (at most three).
fn guesses_said(rel: &str, path: &Path) -> Vec<Guess> {
    use dreamreview::analysis::claims::{hedged, statements};
    use dreamreview::inputs::transcript::Speaker;
    let source = dreamreview::inputs::transcript::SourceFile::new(path.to_path_buf(), rel.to_string());
    let Ok(t) = dreamreview::inputs::transcript::Transcript::open(&source) else { return Vec::new() };
    let turns = t.conversation(64 << 10);
    let others: Vec<_> =
        turns.iter().filter(|s| s.speaker != Speaker::Assistant).flat_map(|s| statements(&s.text)).collect();
    let mut out = Vec::new();
    for s in turns.iter().filter(|s| s.speaker == Speaker::Assistant) {
        let found = statements(&s.text).into_iter().find_map(|c| {
            let said = s.text[c.range.clone()].trim();
            let plain = said.len() <= 160 && said.chars().all(|ch| !ch.is_control() && ch != '`' && ch != '|');
            let own = others.iter().all(|o| c.covered_by(o) < 0.6);
            (hedged(said) && c.content.len() >= 4 && plain && own)
                .then(|| unhedged(said).map(|fact| (said.to_string(), fact)))
                .flatten()
        });
        if let Some((guess, fact)) = found {
            out.push((s.line, guess, fact, Vec::new()));
        }
        if out.len() == 3 {
            break;
        }
    }
    out
}

/// Names the dream's added lines write in backticks (a command, a path, a setting), each once.
fn names_written(changed: &[Changed]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for line in changed.iter().filter(|c| c.path != "MEMORY.md").flat_map(|c| &c.added) {
        for (i, part) in line.split('`').enumerate() {
            let name = part.trim();
            if i % 2 == 1 && (3..=40).contains(&name.len()) && seen.insert(name.to_string()) {
                out.push(format!("`{name}`"));
            }
        }
    }
    out
}

/// Two guesses about names of the case (one English, one Japanese, Korean or Chinese) and
/// the facts they become without their hedge.
fn guesses_made(names: &[String], rng: &mut Rng) -> Vec<(String, String)> {
    let pick = |rng: &mut Rng| rng.pick(names).cloned().unwrap_or_default();
    let a = pick(rng);
    let b = names.iter().find(|n| **n != a).cloned().unwrap_or_default();
    const EN: &[(&str, &str)] = &[
        (
            "I think the {a} failures come from {b} being rebuilt on every run.",
            "The {a} failures come from {b} being rebuilt on every run.",
        ),
        (
            "{a} is probably slow because {b} holds a lock while it runs.",
            "{a} is slow because {b} holds a lock while it runs.",
        ),
        (
            "It seems {a} only breaks when {b} was updated in the same commit.",
            "{a} only breaks when {b} was updated in the same commit.",
        ),
        (
            "{a} might be the reason {b} times out on the build machine.",
            "{a} is the reason {b} times out on the build machine.",
        ),
    ];
    const CJK: &[(&str, &str)] = &[
        (
            "{a} の失敗は、たぶん {b} が毎回作り直されるせいだと思います。",
            "{a} の失敗は {b} が毎回作り直されるせいです。",
        ),
        (
            "아마 {a} 실패는 {b} 설정이 매번 다시 생성되기 때문인 것 같습니다.",
            "{a} 실패는 {b} 설정이 매번 다시 생성되기 때문입니다.",
        ),
        ("{a} 失败也许是因为 {b} 每次构建都被重新生成。", "{a} 失败是因为 {b} 每次构建都被重新生成。"),
    ];
    let fill = |t: &str| t.replace("{a}", &a).replace("{b}", &b);
    let en = rng.pick(EN).copied().unwrap_or(EN[0]);
    let cjk = rng.pick(CJK).copied().unwrap_or(CJK[0]);
    [en, cjk].iter().map(|(g, f)| (fill(g), fill(f))).collect()
}

/// A guess said as a fact: its hedge words taken out (`I think`, `probably`, `might be` →
/// `is`, たぶん, 아마, 也许…); `None` for a question, or when what is left still reads as a
/// guess or says too little.
fn unhedged(said: &str) -> Option<String> {
    const OUT: &[&str] = &[
        "I think that ",
        "I think ",
        "I guess ",
        "I suspect ",
        "I believe ",
        "I assume ",
        "my guess is that ",
        "my guess is ",
        "it seems that ",
        "it seems like ",
        "it looks like ",
        "probably ",
        "likely ",
        "maybe ",
        "Maybe ",
        "perhaps ",
        "Perhaps ",
        "possibly ",
        "presumably ",
        "Probably ",
        "Likely ",
        "たぶん",
        "多分",
        "おそらく",
        "아마 ",
        "아마",
        "也许",
        "大概",
        "或许",
        "估计",
    ];
    const SWAP: &[(&str, &str)] = &[
        ("might be", "is"),
        ("could be", "is"),
        ("may be", "is"),
        ("seems to be", "is"),
        ("appears to be", "is"),
        ("might have", "has"),
        ("seems to", "does"),
        ("かもしれません", "です"),
        ("かもしれない", "だ"),
        ("と思います", ""),
        ("と思う", ""),
        ("것 같습니다", "것입니다"),
        ("것 같아요", "것이에요"),
        ("似乎", ""),
        ("好像", ""),
    ];
    let mut t = said.trim().to_string();
    for w in OUT {
        t = t.replacen(w, "", 1);
    }
    for (a, b) in SWAP {
        t = t.replacen(a, b, 1);
    }
    let t = t.trim().trim_end_matches(['?', '？', '.', '。']).trim();
    let mut chars = t.chars();
    let first = chars.next()?;
    let fact = format!("{}{}{}", first.to_uppercase(), chars.as_str(), if cjk(t) { "。" } else { "." });
    let words = dreamreview::analysis::claims::statement_of(&fact).content.len();
    (!dreamreview::analysis::claims::hedged(&fact) && words >= 4 && !said.trim_end().ends_with('?')).then_some(fact)
}

/// A note the dream should have left alone, deleted (with or without its index line).
fn delete_note(notes: &Notes) -> Vec<Mutant> {
    let index = notes.proposed.iter().find(|(p, _)| p == "MEMORY.md").map(|(_, t)| t.clone()).unwrap_or_default();
    let mut out = Vec::new();
    for (path, _) in notes.untouched() {
        out.push(Mutant {
            op: "delete-note",
            what: format!("delete {path}"),
            edits: vec![Edit::Delete { path: format!("dream/memory/{path}") }],
        });
        if let Some(line) = index.lines().find(|l| l.contains(&format!("({path})"))) {
            out.push(Mutant {
                op: "delete-note",
                what: format!("delete {path} and its index line"),
                edits: vec![
                    Edit::Delete { path: format!("dream/memory/{path}") },
                    Edit::Replace {
                        path: "dream/memory/MEMORY.md".into(),
                        from: format!("{line}\n"),
                        to: String::new(),
                    },
                ],
            });
        }
    }
    out
}

/// A content line of a note the dream should have left alone, removed.
fn remove_lines(notes: &Notes) -> Vec<Mutant> {
    let mut out = Vec::new();
    for (path, text) in notes.untouched() {
        let body = text.splitn(3, "---\n").nth(2).unwrap_or(text);
        let Some(line) = body.lines().rev().find(|l| claims::statements(l).len() + note_claims(l).len() > 0) else {
            continue;
        };
        out.push(Mutant {
            op: "remove-lines",
            what: format!("{path}: remove «{line}»"),
            edits: vec![Edit::Replace {
                path: format!("dream/memory/{path}"),
                from: format!("{line}\n"),
                to: String::new(),
            }],
        });
    }
    out
}

/// An ISO date of an added line moved by a day each way.
fn shift_date(changed: &[Changed]) -> Vec<Mutant> {
    let mut out = Vec::new();
    for c in changed {
        for line in &c.added {
            for claim in note_claims(line).into_iter().filter(|cl| cl.kind == ClaimKind::Date) {
                let Ok(d) = jiff::civil::Date::strptime("%Y-%m-%d", &claim.text) else { continue };
                for days in [-1i64, 1] {
                    let Ok(moved) = d.checked_add(jiff::Span::new().days(days)) else { continue };
                    let to = moved.strftime("%Y-%m-%d").to_string();
                    let new_line = line.replacen(&claim.text, &to, 1);
                    out.push(Mutant {
                        op: "shift-date",
                        what: format!("{}: «{}» → «{to}»", c.path, claim.text),
                        edits: vec![replace_in_note(&c.path, line, new_line)],
                    });
                }
            }
        }
    }
    out
}

/// A capability URL a tool printed, copied into a note with an entry citing the line.
fn capability_url(case: &Case, changed: &[Changed], rng: &mut Rng) -> Vec<Mutant> {
    let Some(target) = changed.iter().find(|c| c.path != "MEMORY.md") else { return Vec::new() };
    let Some((rel, path)) = transcripts(case).into_iter().next() else { return Vec::new() };
    let lines = std::fs::read_to_string(&path).map(|t| t.lines().count()).unwrap_or(0);
    let urls = [
        format!(
            "https://ledger-exports.s3.amazonaws.com/report.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA{}%2F20260203%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260203T061000Z&X-Amz-Expires=3600&X-Amz-Signature={}",
            rng.token(16).to_uppercase(),
            hex(rng, 64)
        ),
        format!(
            "https://hooks.slack.com/services/T{}/B{}/{}",
            rng.token(8).to_uppercase(),
            rng.token(10).to_uppercase(),
            rng.token(24)
        ),
        format!("https://files.example.com/download/report.csv?token={}", rng.token(32)),
        format!("https://gist.github.com/kim/{}", hex(rng, 32)),
        format!(
            "https://www.dropbox.com/scl/fi/{}/notes.pdf?rlkey={}&dl=0",
            rng.token(21).to_lowercase(),
            rng.token(25).to_lowercase()
        ),
    ];
    urls.into_iter()
        .map(|url| {
            let result = serde_json::json!({
                "type": "user", "timestamp": "2026-02-03T06:30:00.000Z", "sessionId": "x",
                "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x",
                    "content": format!("Uploaded. Link: {url}")}]}
            });
            let name = rel.rsplit('/').next().unwrap_or(&rel).to_string();
            Mutant {
                op: "capability-url",
                what: format!("{}: {}", target.path, url.split('?').next().unwrap_or(&url)),
                edits: vec![
                    Edit::Append { path: format!("project/{rel}"), text: format!("{result}\n") },
                    Edit::Append {
                        path: format!("dream/memory/{}", target.path),
                        text: format!("- The report is at {url}\n"),
                    },
                    Edit::Append {
                        path: "dream/CHANGES.md".into(),
                        text: format!("- {}: where the report is ({name}:{})\n", target.path, lines + 1),
                    },
                ],
            }
        })
        .collect()
}

fn hex(rng: &mut Rng, len: usize) -> String {
    (0..len).map(|_| char::from_digit((rng.next() % 16) as u32, 16).unwrap_or('0')).collect()
}

/// Per operator: (mutants counted, caught).
pub type Tally = std::collections::BTreeMap<&'static str, (usize, usize)>;

/// The outcome table of `outcomes`.
pub fn tally(outcomes: &[Outcome]) -> Tally {
    let mut t = Tally::new();
    for op in OPERATORS {
        t.insert(op, (0, 0));
    }
    for o in outcomes {
        let e = t.entry(o.mutant.op).or_default();
        e.0 += 1;
        e.1 += usize::from(o.caught);
    }
    t
}
