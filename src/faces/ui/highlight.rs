//! Syntax highlighting of Markdown notes with syntect, on its own thread: the UI never waits
//! for it (the first frame is drawn plain) and results for an older model are dropped.

use super::msg::Msg;
use super::state::Highlight;
use super::theme::ThemeName;
use crate::model::diff::{FileDiff, Op};
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
            let (r, g, b) = off_diff_hues(c.r, c.g, c.b);
            Some((Style::default().fg(Color::Rgb(r, g, b)), shown))
        })
        .collect()
}

/// A syntax colour moved off the diff's hues: red and green say "removed" and "added" on
/// this screen, so Markdown highlighting (a list marker, a heading) never uses them — a
/// red hue becomes violet, a green one blue, keeping lightness and saturation so the
/// colour still reads on the theme's background. Greys and other hues are kept.
pub fn off_diff_hues(r: u8, g: u8, b: u8) -> (u8, u8, u8) {
    let (h, sat, l) = hsl(r, g, b);
    if sat < 0.18 {
        return (r, g, b);
    }
    let moved = if is_diff_hue(h) {
        if !(40.0..=200.0).contains(&h) { 280.0 } else { 215.0 }
    } else {
        return (r, g, b);
    };
    rgb(moved, sat, l)
}

/// True for a hue the diff uses: red (and its pinks and oranges) or green.
pub fn is_diff_hue(h: f32) -> bool {
    !(30.0..=330.0).contains(&h) || (75.0..=165.0).contains(&h)
}

/// (hue in degrees, saturation, lightness) of an RGB colour.
pub fn hsl(r: u8, g: u8, b: u8) -> (f32, f32, f32) {
    let (r, g, b) = (f32::from(r) / 255.0, f32::from(g) / 255.0, f32::from(b) / 255.0);
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let l = (max + min) / 2.0;
    let d = max - min;
    if d == 0.0 {
        return (0.0, 0.0, l);
    }
    let s = d / (1.0 - (2.0 * l - 1.0).abs());
    let h = if max == r {
        60.0 * ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) / d + 2.0)
    } else {
        60.0 * ((r - g) / d + 4.0)
    };
    (h, s, l)
}

fn rgb(h: f32, s: f32, l: f32) -> (u8, u8, u8) {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - ((h / 60.0).rem_euclid(2.0) - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match h as u32 {
        0..60 => (c, x, 0.0),
        60..120 => (x, c, 0.0),
        120..180 => (0.0, c, x),
        180..240 => (0.0, x, c),
        240..300 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let to = |v: f32| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    (to(r), to(g), to(b))
}
