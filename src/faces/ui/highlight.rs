//! Syntax highlighting of Markdown notes with syntect, on its own thread: the UI never waits
//! for it (the first frame is drawn plain) and results for an older model are dropped.

use super::msg::Msg;
use super::state::Highlight;
use super::theme::ThemeName;
use crate::diff::{FileDiff, Op};
use ratatui::style::{Color, Style};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use syntect::easy::HighlightLines;
use syntect::highlighting::ThemeSet;
use syntect::parsing::SyntaxSet;

/// One file's hunks to colour.
pub struct Job {
    /// Model generation.
    pub generation: u64,
    /// File index.
    pub file: usize,
    /// The file's diff (a clone: the worker owns it).
    pub diff: FileDiff,
}

/// Syntect's Markdown grammar and a colour theme, loaded once.
pub struct Highlighter {
    syntaxes: SyntaxSet,
    theme: syntect::highlighting::Theme,
}

impl Highlighter {
    /// Loads the grammar and the theme matching the UI theme (`None` if either is missing).
    pub fn new(theme: ThemeName) -> Option<Highlighter> {
        let syntaxes = SyntaxSet::load_defaults_newlines();
        let mut themes = ThemeSet::load_defaults();
        let name = if theme == ThemeName::Light { "InspiredGitHub" } else { "base16-ocean.dark" };
        let theme = themes.themes.remove(name)?;
        syntaxes.find_syntax_by_extension("md")?;
        Some(Highlighter { syntaxes, theme })
    }

    /// Colours every hunk of a file. The old side (context + removed) and the new side
    /// (context + added) are coloured as two texts, so Markdown state carries across lines.
    pub fn colour(&self, diff: &FileDiff) -> Vec<(usize, Arc<Highlight>)> {
        let Some(syntax) = self.syntaxes.find_syntax_by_extension("md") else { return Vec::new() };
        diff.hunks
            .iter()
            .enumerate()
            .map(|(hi, h)| {
                let mut old = HighlightLines::new(syntax, &self.theme);
                let mut new = HighlightLines::new(syntax, &self.theme);
                let lines = h
                    .lines
                    .iter()
                    .map(|l| match l.op {
                        Op::Remove => spans(&mut old, &l.text, &self.syntaxes),
                        Op::Add => spans(&mut new, &l.text, &self.syntaxes),
                        Op::Context => {
                            let _ = spans(&mut old, &l.text, &self.syntaxes);
                            spans(&mut new, &l.text, &self.syntaxes)
                        }
                    })
                    .collect();
                (hi, Arc::new(lines))
            })
            .collect()
    }
}

/// Starts the highlighter thread; send it [`Job`]s, it answers with `Msg::Highlighted`.
pub fn spawn(out: Sender<Msg>, theme: ThemeName) -> Sender<Job> {
    let (tx, rx) = channel::<Job>();
    std::thread::Builder::new().name("highlight".into()).spawn(move || worker(rx, out, theme)).ok();
    tx
}

fn worker(rx: Receiver<Job>, out: Sender<Msg>, theme: ThemeName) {
    let Some(h) = Highlighter::new(theme) else { return };
    while let Ok(mut job) = rx.recv() {
        // Only the newest generation matters: skip jobs a rebuild made stale.
        while let Ok(newer) = rx.try_recv() {
            if newer.generation == job.generation {
                let hunks = h.colour(&job.diff);
                let _ = out.send(Msg::Highlighted { generation: job.generation, file: job.file, hunks });
            }
            if newer.generation >= job.generation {
                job = newer;
            }
        }
        let hunks = h.colour(&job.diff);
        if out.send(Msg::Highlighted { generation: job.generation, file: job.file, hunks }).is_err() {
            return;
        }
    }
}

fn spans(h: &mut HighlightLines<'_>, line: &str, syntaxes: &SyntaxSet) -> Vec<(Style, String)> {
    let Ok(ranges) = h.highlight_line(line, syntaxes) else { return Vec::new() };
    ranges
        .into_iter()
        .filter_map(|(s, text)| {
            let shown = super::text::display(text).into_owned();
            if shown.is_empty() {
                return None;
            }
            let c = s.foreground;
            Some((Style::default().fg(Color::Rgb(c.r, c.g, c.b)), shown))
        })
        .collect()
}
