//! Benchmark 3: the TUI through its library API on a ratatui `TestBackend`.
//!
//! - First frame on the generated project: `Review::load` + `App::new` + the first
//!   `view`, while provenance runs on its own thread (started first, so it competes for
//!   both cores — stricter than the real runtime, which draws before starting it); then
//!   keypress→frame while provenance is still streaming.
//! - Keypress→frame on a 5,000-line diff (made here, in a temp folder): syntax colours
//!   cached and the analysis done, as in a review under way; a loop of key messages
//!   (`j`, `]`, `Space`, `y`, `n`, `u`, `C-r`, PageDown, `s`, `w`…) each followed by a full
//!   render; p50/p99/max.

use crate::generator::{Layout, words};
use crate::measure;
use anyhow::{Context, Result};
use dreamreview::faces::ui::msg::Msg;
use dreamreview::faces::ui::state::{App, Progress};
use dreamreview::faces::ui::theme::{Theme, ThemeName};
use dreamreview::faces::ui::{highlight, update, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

const SIZE: (u16, u16) = (200, 50);

fn key(code: KeyCode, m: KeyModifiers) -> Msg {
    Msg::Key(KeyEvent::new(code, m))
}

fn ch(c: char) -> Msg {
    key(KeyCode::Char(c), KeyModifiers::NONE)
}

/// The key loop: mostly moving through the diff, with decisions, undo/redo and view toggles.
fn keys(i: usize) -> Msg {
    const N: KeyModifiers = KeyModifiers::NONE;
    if i % 400 == 399 {
        return ch('g');
    }
    match i % 20 {
        0 | 1 | 4 | 9 | 13 | 17 => ch('j'),
        2 | 10 | 14 => ch(']'),
        3 => ch(' '),
        5 => ch('y'),
        6 => ch('k'),
        7 => ch('n'),
        8 => ch('u'),
        11 => key(KeyCode::Char('r'), KeyModifiers::CONTROL),
        12 => key(KeyCode::PageDown, N),
        15 => ch('['),
        16 => ch('s'),
        18 => ch('s'),
        _ => key(KeyCode::PageUp, N),
    }
}

fn terminal() -> Result<Terminal<TestBackend>> {
    Terminal::new(TestBackend::new(SIZE.0, SIZE.1)).context("cannot make a test terminal")
}

/// Runs both TUI benchmarks and prints a Markdown table.
pub fn run(dir: &Path, lines: usize, nkeys: usize, runs: usize) -> Result<()> {
    eprintln!("load average before: {:.2}", measure::load());
    let (first, first_view, streaming, during) = first_frame(dir, runs)?;
    let big = tempfile::tempdir()?;
    let (rows, mut times, mut quiet) = keypress(big.path(), lines, nkeys)?;
    eprintln!("load average after: {:.2}", measure::load());
    let p = |v: &mut Vec<f64>, q: f64| measure::percentile(v, q) * 1e3;
    let mut during = during;
    println!("| measurement | p50 | p99 | max | target |");
    println!("|---|---|---|---|---|");
    println!(
        "| first frame: Review::load + App::new + view ({} runs; provenance still running in {streaming}/{runs}) | {:.1} ms | — | {:.1} ms | ≤ 100 ms |",
        runs,
        p(&mut first.clone(), 50.0),
        p(&mut first.clone(), 100.0)
    );
    println!(
        "| first frame: App::new + view only | {:.1} ms | — | {:.1} ms | |",
        p(&mut first_view.clone(), 50.0),
        p(&mut first_view.clone(), 100.0)
    );
    if !during.is_empty() {
        println!(
            "| keypress→frame while provenance streams ({} keys, generated project) | {:.2} ms | {:.2} ms | {:.2} ms | |",
            during.len(),
            p(&mut during, 50.0),
            p(&mut during, 99.0),
            p(&mut during, 100.0)
        );
    }
    println!(
        "| keypress→frame, {rows}-row diff ({} keys) | {:.2} ms | {:.2} ms | {:.2} ms | p99 ≤ 5 ms |",
        times.len(),
        p(&mut times, 50.0),
        p(&mut times, 99.0),
        p(&mut times, 100.0)
    );
    println!(
        "| keypress→frame, {rows}-row diff, keys not preempted by the OS ({} of {}) | {:.2} ms | {:.2} ms | {:.2} ms | |",
        quiet.len(),
        times.len(),
        p(&mut quiet, 50.0),
        p(&mut quiet, 99.0),
        p(&mut quiet, 100.0)
    );
    Ok(())
}

type FirstFrame = (Vec<f64>, Vec<f64>, usize, Vec<f64>);

/// First-frame times (whole, App::new + view only), in how many runs provenance was still
/// running at the first frame, and keypress→frame times while it streamed.
fn first_frame(dir: &Path, runs: usize) -> Result<FirstFrame> {
    let l = Layout::of(dir);
    let mut whole = Vec::new();
    let mut only_view = Vec::new();
    let mut streaming = 0;
    let mut during = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let inputs = dreamreview::inputs::dream::discover(Some(&l.dream), None, &[])?;
        let review = dreamreview::store::repo::load_review(inputs)?;
        // Provenance starts at once, on its own thread, and streams progress.
        let (tx, rx) = channel::<Msg>();
        let done = Arc::new(AtomicBool::new(false));
        let worker = {
            let review = review.clone();
            let done = done.clone();
            std::thread::spawn(move || {
                let progress = |d: u64, t: u64| {
                    let _ = tx.send(Msg::Progress { generation: 0, done: d, total: t, indexing: false });
                };
                let a = dreamreview::analysis::analyze_with(&review, &progress);
                done.store(true, Ordering::SeqCst);
                let _ = tx.send(Msg::Analyzed { generation: 0, analysis: Box::new(a) });
            })
        };
        let t_view = Instant::now();
        let app = App::new(review, Theme::new(ThemeName::Dark), SIZE);
        let mut term = terminal()?;
        term.draw(|f| view::view(&app, f))?;
        let end = Instant::now();
        whole.push((end - start).as_secs_f64());
        only_view.push((end - t_view).as_secs_f64());
        if !done.load(Ordering::SeqCst) {
            streaming += 1;
        }
        // Keys while provenance streams: progress messages arrive between them.
        let mut app = app;
        let mut i = 0;
        while !done.load(Ordering::SeqCst) {
            while let Ok(m) = rx.try_recv() {
                update::update(&mut app, m);
            }
            let t = Instant::now();
            update::update(&mut app, keys(i));
            term.draw(|f| view::view(&app, f))?;
            during.push(t.elapsed().as_secs_f64());
            i += 1;
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = worker.join();
        while let Ok(m) = rx.try_recv() {
            update::update(&mut app, m);
        }
        if app.progress != Progress::Done {
            anyhow::bail!("the analysis did not finish");
        }
    }
    Ok((whole, only_view, streaming, during))
}

/// Writes a memory folder whose one big note the dream rewrites so that its diff has
/// about `lines` rows; returns the memory and dream folders.
fn big_diff(root: &Path, lines: usize) -> Result<(std::path::PathBuf, std::path::PathBuf)> {
    let mut r = crate::generator::rng::Rng::new(42);
    let memory = root.join("project/memory");
    let dream = root.join("dream");
    std::fs::create_dir_all(&memory)?;
    std::fs::create_dir_all(&dream)?;
    // Per 10 live lines: 3 changed (3 removed + 3 added) with 3 context lines each side,
    // hunks 7 lines apart stay separate: 12 rows each.
    let blocks = lines / 12 + 1;
    let mut live = String::from("---\nname: big\ndescription: a long runbook\ntype: project\n---\n\n# Runbook\n\n");
    let mut proposed = live.clone();
    for _ in 0..blocks {
        for j in 0..10 {
            let s = format!("- {}\n", words::sentence(&mut r));
            live.push_str(&s);
            if (3..6).contains(&j) {
                proposed.push_str(&format!("- {}\n", words::sentence(&mut r)));
            } else {
                proposed.push_str(&s);
            }
        }
    }
    std::fs::write(memory.join("big.md"), &live)?;
    std::fs::write(dream.join("big.md"), &proposed)?;
    let small = "---\nname: small\ndescription: d\ntype: project\n---\n\n- kept\n";
    std::fs::write(memory.join("small.md"), small)?;
    std::fs::write(memory.join("MEMORY.md"), "# Memory\n\n- [big](big.md) — runbook\n- [small](small.md) — small\n")?;
    let mut idx = std::fs::read_to_string(memory.join("MEMORY.md"))?;
    idx = idx.replace("— runbook", "— the runbook");
    std::fs::write(dream.join("MEMORY.md"), idx)?;
    std::fs::write(dream.join("small.md"), small)?;
    Ok((memory, dream))
}

/// Keypress→frame times on the big diff; returns the diff's row count, the times, and
/// the times of the keypresses the OS did not preempt.
fn keypress(root: &Path, lines: usize, nkeys: usize) -> Result<(usize, Vec<f64>, Vec<f64>)> {
    let (memory, dream) = big_diff(root, lines)?;
    let inputs = dreamreview::inputs::dream::discover(Some(&dream), Some(&memory), &[])?;
    let review = dreamreview::store::repo::load_review(inputs)?;
    let analysis = dreamreview::analysis::analyze(&review);
    let mut app = App::new(review, Theme::new(ThemeName::Dark), SIZE);
    // Open the big note (files are sorted: MEMORY.md, big.md, …).
    while app.current_file().is_some_and(|f| f.path != "big.md") {
        let before = app.file;
        update::update(&mut app, key(KeyCode::Tab, KeyModifiers::NONE));
        if app.file == before {
            break;
        }
    }
    let generation = app.generation;
    update::update(&mut app, Msg::Analyzed { generation, analysis: Box::new(analysis) });
    // Syntax colours, cached as in the real runtime.
    let (tx, rx) = channel::<Msg>();
    let hl = highlight::spawn(tx, ThemeName::Dark);
    let file = app.file;
    let diff = app.review.files.get(file).cloned().context("no big file")?;
    let _ = hl.send(highlight::Job { generation: app.generation, file, diff });
    let m = rx.recv_timeout(Duration::from_secs(120)).context("highlighting did not finish")?;
    update::update(&mut app, m);
    let rows: usize = app.review.files.get(file).map(|f| f.hunks.iter().map(|h| h.lines.len()).sum()).unwrap_or(0);
    let mut term = terminal()?;
    term.draw(|f| view::view(&app, f))?;
    let mut times = Vec::with_capacity(nkeys);
    let mut quiet = Vec::with_capacity(nkeys);
    let mut by_key: std::collections::BTreeMap<String, Vec<f64>> = std::collections::BTreeMap::new();
    for i in 0..nkeys {
        let msg = keys(i);
        let name = match &msg {
            Msg::Key(k) => format!(
                "{:?}{}",
                k.code,
                if k.modifiers.is_empty() { String::new() } else { format!("+{:?}", k.modifiers) }
            ),
            _ => String::new(),
        };
        let switches = preemptions();
        let t = Instant::now();
        update::update(&mut app, msg);
        let t_update = t.elapsed().as_secs_f64();
        term.draw(|f| view::view(&app, f))?;
        let total = t.elapsed().as_secs_f64();
        times.push(total);
        if preemptions() == switches {
            quiet.push(total);
        }
        by_key.entry(name).or_default().push(total);
        by_key.entry("(update only)".into()).or_default().push(t_update);
    }
    for (k, mut v) in by_key {
        eprintln!(
            "  {k:<24} n={:<5} p50 {:.2} ms  p99 {:.2} ms  max {:.2} ms",
            v.len(),
            measure::percentile(&mut v, 50.0) * 1e3,
            measure::percentile(&mut v, 99.0) * 1e3,
            measure::percentile(&mut v, 100.0) * 1e3
        );
    }
    Ok((rows, times, quiet))
}

/// How many times the OS has preempted this thread so far (`nonvoluntary_ctxt_switches`
/// of /proc/thread-self/status; 0 where unavailable): a keypress during which it changed
/// was timed partly while another process ran.
fn preemptions() -> u64 {
    std::fs::read_to_string("/proc/thread-self/status")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| l.strip_prefix("nonvoluntary_ctxt_switches:").and_then(|v| v.trim().parse().ok()))
        })
        .unwrap_or(0)
}
