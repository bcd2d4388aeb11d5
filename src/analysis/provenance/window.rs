//! The window read as a conversation with the user: every turn the user typed in every
//! session of the sources (never a tool's result, a skill's text, a hook, a sub-agent's
//! prompt or the assistant: [`crate::inputs::transcript::read_session`]), each with its local day
//! and its sentences, and every file a session's tools read.
//!
//! Read once per review, both cores, for a rule's support (`remarks`) and for what the
//! dream left out (`leftout`), keeping only the turns those can use ([`Wanted`]). A
//! sub-agent's transcript counts with its session.

use crate::analysis::claims::{self, Statement};
use crate::base::date::Date;
use crate::base::zone::Zone;
use crate::inputs::transcript::{ReadCall, SessionWords, SourceSet, read_session_naming};
use crate::model::review::Review;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// How much of one typed turn is read.
const TURN_BYTES: usize = 16 << 10;

/// The user's words and the sessions' reads.
#[derive(Debug, Default)]
pub(super) struct Window {
    /// Each source with something in it, in source order.
    pub sessions: Vec<Session>,
}

/// One transcript of the window.
#[derive(Debug)]
pub(super) struct Session {
    /// Its name (`…/5b0e….jsonl`).
    pub name: String,
    /// The session it belongs to: its own name, or for a sub-agent's transcript its main
    /// session's (`<session>/subagents/agent-….jsonl` → `<session>`).
    pub key: String,
    /// What the user typed.
    pub said: Vec<Said>,
    /// The files its tools read.
    pub reads: Vec<ReadCall>,
}

/// One turn the user typed.
#[derive(Debug)]
pub(super) struct Said {
    /// 1-based physical line.
    pub line: usize,
    /// Its local day, when its line has a timestamp.
    pub day: Option<Date>,
    /// What it says.
    pub text: String,
    /// Its sentences that say something (two content words or more).
    pub sentences: Vec<Statement>,
    /// The assistant spoke before it in the session (a first prompt corrects nothing).
    pub replying: bool,
}

impl Said {
    /// The text of one of its sentences.
    pub fn sentence(&self, s: &Statement) -> &str {
        self.text.get(s.range.clone()).unwrap_or("").trim()
    }
}

impl Session {
    /// `name:line`.
    pub fn loc(&self, line: usize) -> String {
        format!("{}:{line}", self.name)
    }
}

/// What the checks after the read need of the window, so that nothing else is kept: the
/// transcripts of a large project hold tens of thousands of typed turns, and keeping them
/// all (with their sentences) cost several times the rest of the review's memory.
#[derive(Debug, Default)]
pub(super) struct Wanted {
    /// The content-word stems of the rules the dream's notes state (`remarks`): a turn's
    /// sentence that holds none of them can support none of those rules.
    pub rule_stems: HashSet<String>,
    /// The notes the dream deletes, as a session's `Read` names them (`memory/x.md`): the
    /// only reads `leftout` counts.
    pub deleted: Vec<PathBuf>,
}

impl Wanted {
    /// Keeps a typed turn that may correct something or give a lasting instruction
    /// (`leftout`), or whose sentences share a word with a rule of the notes (`remarks`);
    /// its sentences are read only when one of those may hold.
    fn keep(&self, text: &str) -> Option<Vec<Statement>> {
        let lower = text.to_lowercase();
        let told = super::overruled::corrects(text) || claims::may_hold_lasting_marker(&lower);
        if !told && self.rule_stems.is_empty() {
            return None;
        }
        let sentences = claims::statements(text);
        let ruled = || sentences.iter().any(|s| s.content.iter().any(|w| self.rule_stems.contains(&w.stem)));
        (told || ruled()).then_some(sentences)
    }

    /// True when a read of `path` reads a deleted note.
    fn reads_deleted(&self, path: &str) -> bool {
        self.deleted.iter().any(|note| Path::new(path).ends_with(note))
    }
}

impl Window {
    /// Reads every JSONL source, keeping what `wanted` asks for; the names of those that
    /// could not be read are returned with why. Each session is read and sifted on its
    /// own (both cores), so what is kept is all that is ever held.
    pub fn read(sources: &SourceSet, zone: &Zone, wanted: &Wanted) -> (Window, Vec<(String, String)>) {
        // A read of a deleted note names its file as written (JSON escapes none of its
        // bytes): other lines with read calls are not parsed.
        let names: Vec<Vec<u8>> =
            wanted.deleted.iter().filter_map(|p| p.file_name()).map(|n| n.as_encoded_bytes().to_vec()).collect();
        let escaped = |n: &Vec<u8>| n.iter().any(|&b| b == b'"' || b == b'\\' || b < 0x20);
        let names = (!names.iter().any(escaped)).then_some(names);
        let read: Vec<(String, std::io::Result<Option<Session>>)> = sources
            .files()
            .par_iter()
            .map(|f| {
                (
                    f.name.clone(),
                    read_session_naming(f, TURN_BYTES, names.as_deref()).map(|w| sift(&f.name, w, zone, wanted)),
                )
            })
            .collect();
        let mut sessions = Vec::new();
        let mut failed = Vec::new();
        for (name, session) in read {
            match session {
                Ok(Some(s)) => sessions.push(s),
                Ok(None) => {}
                Err(e) => failed.push((name, e.to_string())),
            }
        }
        (Window { sessions }, failed)
    }

    /// Every typed turn with its session.
    pub fn said(&self) -> impl Iterator<Item = (&Session, &Said)> {
        self.sessions.iter().flat_map(|s| s.said.iter().map(move |t| (s, t)))
    }
}

/// The part of one session's words that `wanted` asks for; `None` when nothing is.
fn sift(name: &str, words: SessionWords, zone: &Zone, wanted: &Wanted) -> Option<Session> {
    let said: Vec<Said> = words
        .typed
        .into_iter()
        .filter_map(|t| {
            let sentences = wanted.keep(&t.text)?;
            let day = t.instant.map(|at| zone.day_of(at));
            Some(Said { line: t.line, day, sentences, text: t.text, replying: t.replying })
        })
        .collect();
    let reads: Vec<ReadCall> = words.reads.into_iter().filter(|r| wanted.reads_deleted(&r.path)).collect();
    if said.is_empty() && reads.is_empty() {
        return None;
    }
    Some(Session { key: session_key(name), name: name.to_string(), said, reads })
}

/// A note of `review`'s memory folder at `path`, as a session's `Read` of it ends
/// (`memory/x.md`).
pub(super) fn deleted_note(review: &Review, path: &str) -> PathBuf {
    let folder = review.inputs.memory.file_name().map(Path::new).unwrap_or(Path::new(""));
    folder.join(path)
}

/// The session a transcript belongs to (see [`Session::key`]).
fn session_key(name: &str) -> String {
    match name.split_once("/subagents/") {
        Some((session, _)) => session.to_string(),
        None => name.trim_end_matches(".jsonl").to_string(),
    }
}

/// An index of sentences by content word: which sentences share at least two content
/// words with a given one, without comparing it with every sentence.
#[derive(Debug, Default)]
pub(super) struct Stems<K> {
    by_stem: HashMap<String, Vec<usize>>,
    keys: Vec<K>,
}

impl<K: Copy> Stems<K> {
    /// Adds a sentence under `key`.
    pub fn add(&mut self, key: K, s: &Statement) {
        let id = self.keys.len();
        self.keys.push(key);
        for w in &s.content {
            self.by_stem.entry(w.stem.clone()).or_default().push(id);
        }
    }

    /// The keys of the sentences that share two content words or more with `s`.
    pub fn near(&self, s: &Statement) -> Vec<K> {
        let mut count: HashMap<usize, usize> = HashMap::new();
        for w in &s.content {
            for &id in self.by_stem.get(&w.stem).map(Vec::as_slice).unwrap_or_default() {
                *count.entry(id).or_default() += 1;
            }
        }
        let mut ids: Vec<usize> = count.into_iter().filter(|&(_, n)| n >= 2).map(|(id, _)| id).collect();
        ids.sort_unstable();
        ids.into_iter().filter_map(|id| self.keys.get(id).copied()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::inputs::transcript::SourceFile;

    /// A source `s.jsonl` whose user turns are `turns`.
    fn source(turns: &[&str]) -> (tempfile::TempDir, SourceSet) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let lines: String = turns
            .iter()
            .map(|t| {
                format!(
                    "{{\"type\":\"user\",\"timestamp\":\"2026-11-01T09:00:00Z\",\"message\":{{\"role\":\"user\",\"content\":\"{t}\"}}}}\n"
                )
            })
            .collect();
        std::fs::write(&path, lines).unwrap();
        (dir, SourceSet::from_files(vec![SourceFile::new(path, "s.jsonl".into())]))
    }

    fn kept(turns: &[&str], wanted: &Wanted) -> Vec<String> {
        let (_d, set) = source(turns);
        let (w, failed) = Window::read(&set, &Zone::unknown(), wanted);
        assert!(failed.is_empty());
        w.said().map(|(_, t)| t.text.clone()).collect()
    }

    #[test]
    fn only_the_turns_a_check_can_use_are_kept() {
        let turns = [
            "fix the flaky login test please",
            "From now on, run the linter before every commit",
            "no, it's port 8443 not 8080",
            "the deploy script uses rsync over ssh",
        ];
        // Nothing asked of the rules: the instruction and the correction only.
        let told = kept(&turns, &Wanted::default());
        assert_eq!(told, [turns[1], turns[2]]);
        // A rule of the notes about the deploy script keeps the turn that speaks of it.
        let rules = Wanted { rule_stems: ["deploy".to_string(), "rsync".to_string()].into(), ..Wanted::default() };
        assert_eq!(kept(&turns, &rules), [turns[1], turns[2], turns[3]]);
    }

    #[test]
    fn a_sub_agent_counts_with_its_session() {
        assert_eq!(session_key("p/5b0e/subagents/agent-a1.jsonl"), "p/5b0e");
        assert_eq!(session_key("p/5b0e.jsonl"), "p/5b0e");
    }
}
