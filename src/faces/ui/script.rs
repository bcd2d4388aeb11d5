//! Driving the TUI without a terminal: key scripts (`"j j y <Space> <Tab>"`), a headless
//! runtime that carries out the repository commands the real one would, and rendering to a
//! `TestBackend` buffer. Used by the snapshot tests and the screenshot generator, so both go
//! through the real update and render path.

use super::msg::{Cmd, Msg};
use super::state::App;
use super::{effects, update, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Parses a key script: single characters, and `<Space> <Tab> <S-Tab> <Esc> <Enter>
/// <Up> <Down> <C-x>` for the rest. Unknown names are an error naming them.
pub fn keys(script: &str) -> Result<Vec<KeyEvent>, String> {
    script
        .split_whitespace()
        .map(|k| {
            let code = |c| Ok(KeyEvent::new(c, KeyModifiers::NONE));
            match k {
                "<Space>" => code(KeyCode::Char(' ')),
                "<Tab>" => code(KeyCode::Tab),
                "<S-Tab>" => Ok(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT)),
                "<Esc>" => code(KeyCode::Esc),
                "<Enter>" => code(KeyCode::Enter),
                "<Up>" => code(KeyCode::Up),
                "<Down>" => code(KeyCode::Down),
                _ if k.starts_with("<C-") && k.ends_with('>') && k.chars().count() == 5 => {
                    let c = k.chars().nth(3).unwrap_or(' ');
                    Ok(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
                }
                _ if k.chars().count() == 1 => {
                    let c = k.chars().next().unwrap_or(' ');
                    let m = if c.is_ascii_uppercase() { KeyModifiers::SHIFT } else { KeyModifiers::NONE };
                    Ok(KeyEvent::new(KeyCode::Char(c), m))
                }
                other => Err(format!("unknown key {other} in script")),
            }
        })
        .collect()
}

/// Sends the keys of `script` and carries out the resulting commands as the runtime would
/// (saving, committing, history, revert, reload, analysis — synchronously); the editor and
/// highlighting, which need a terminal or a thread, are skipped. Returns every command.
pub fn drive(app: &mut App, script: &str) -> Result<Vec<Cmd>, String> {
    let mut all = Vec::new();
    for k in keys(script)? {
        all.extend(send(app, Msg::Key(k))?);
    }
    Ok(all)
}

/// Sends one message and carries out the resulting commands as [`drive`] does (an edit
/// check runs at once); returns every command. `Cmd::Edit` is returned, not run: a test
/// answers it with [`Msg::Edited`], as the editor would.
pub fn send(app: &mut App, msg: Msg) -> Result<Vec<Cmd>, String> {
    let mut all = Vec::new();
    let mut queue = update::update(app, msg);
    while let Some(cmd) = queue.pop() {
        all.push(cmd.clone());
        let msg = match cmd {
            Cmd::PreviewCommit => effects::preview_commit(app),
            Cmd::Commit => effects::commit(app),
            Cmd::History => effects::history(&app.review.inputs.memory),
            Cmd::HistoryDiff(id) => effects::history_diff(&app.review.inputs.memory, &id),
            Cmd::Why(shown) => effects::why(&app.review.inputs.memory, &shown),
            Cmd::Revert { commit, scope } => effects::revert(app, &commit, &scope),
            Cmd::InitRepo => effects::init_repo(app),
            Cmd::Reload(_) => effects::reload(app.review.inputs.clone(), app.review.zone.clone(), app.generation + 1),
            Cmd::Save => {
                crate::store::repo::decisions::save(&app.review).map_err(|e| format!("{e:#}"))?;
                continue;
            }
            Cmd::CheckEdit { at, text } => match crate::analysis::check_edit(&app.review, at, &text) {
                Some(check) => Msg::EditChecked { generation: app.generation, check },
                None => continue,
            },
            Cmd::Analyze => {
                Msg::Analyzed { generation: app.generation, analysis: Box::new(crate::analysis::analyze(&app.review)) }
            }
            Cmd::Edit { .. } | Cmd::EditMessage | Cmd::Pager { .. } | Cmd::Highlight(_) | Cmd::Quit | Cmd::Suspend => {
                continue;
            }
        };
        queue.extend(update::update(app, msg));
    }
    Ok(all)
}

/// Edits the hunk under the cursor as `e` and an editor saving `text` would: returns the
/// text the editor was given, and every command.
pub fn edit(app: &mut App, text: &str) -> Result<(String, Vec<Cmd>), String> {
    let cmds = drive(app, "e")?;
    let Some(Cmd::Edit { at, text: given }) = cmds.iter().find(|c| matches!(c, Cmd::Edit { .. })).cloned() else {
        return Err(format!("e opened no editor: {:?}", app.status));
    };
    let generation = app.generation;
    let result = Ok(Some(text.to_string()));
    let mut all = cmds;
    all.extend(send(app, Msg::Edited { generation, at, result })?);
    Ok((given, all))
}

/// Draws the state into a buffer of the state's size, through the real view.
pub fn render(app: &App) -> Buffer {
    let (w, h) = app.size;
    let mut terminal = match Terminal::new(TestBackend::new(w, h)) {
        Ok(t) => t,
        Err(e) => match e {},
    };
    let _ = terminal.draw(|f| view::view(app, f));
    terminal.backend().buffer().clone()
}

/// Writes the bundled demo under `dir` and opens it as the TUI would, with the analysis
/// finished (the review screen as a user sees it once provenance has filled in).
pub fn open_demo(dir: &std::path::Path, size: (u16, u16), theme: super::theme::Theme) -> anyhow::Result<App> {
    open_demo_with(dir, size, theme, |_| Ok(()))
}

/// [`open_demo`], with `prepare` run on the written demo (`dir`, its `project/` beside its
/// `dream-…/`) before it is opened: a scene the demo alone does not hold, such as a
/// session line appended to one of its transcripts.
pub fn open_demo_with(
    dir: &std::path::Path,
    size: (u16, u16),
    theme: super::theme::Theme,
    prepare: impl FnOnce(&std::path::Path) -> anyhow::Result<()>,
) -> anyhow::Result<App> {
    let demo = crate::faces::demo::materialize(dir)?;
    prepare(dir)?;
    // As `dreamreview demo` does: the demo's memory folder is named, not taken from memory.diff.
    let inputs = crate::inputs::dream::discover(Some(&demo.dream), Some(&demo.memory), &[])?;
    let review = crate::store::repo::load_review(inputs)?;
    let analysis = crate::analysis::analyze(&review);
    let mut app = App::new(review, theme, size);
    let generation = app.generation;
    update::update(&mut app, Msg::Analyzed { generation, analysis: Box::new(analysis) });
    Ok(app)
}

/// Colours every file of the review synchronously (the runtime does it on a thread).
pub fn highlight_all(app: &mut App) {
    let Some(h) = super::highlight::Highlighter::new(app.theme.name) else { return };
    for (file, diff) in app.review.files.iter().enumerate() {
        for (hunk, hl) in h.colour(diff) {
            app.highlights.insert(crate::model::ids::HunkId::new(file, hunk), hl);
        }
    }
}
