//! Colours and emphasis: a dark and a light theme, and a monochrome one for `NO_COLOR`
//! that marks everything with modifiers (bold, reverse, underline) instead.

use ratatui::style::{Color, Modifier, Style};

/// Which palette to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThemeName {
    /// Light text on a dark terminal (default).
    Dark,
    /// Dark text on a light terminal.
    Light,
    /// No colours at all (`NO_COLOR` is set).
    Mono,
}

/// Every style the view uses, by role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Which palette this is.
    pub name: ThemeName,
    /// Plain text.
    pub text: Style,
    /// Secondary text (line numbers, hints, context).
    pub dim: Style,
    /// Pane borders.
    pub border: Style,
    /// The focused pane's border.
    pub border_focus: Style,
    /// Hunk headers.
    pub header: Style,
    /// Added lines.
    pub add: Style,
    /// Removed lines.
    pub remove: Style,
    /// The `+` marker.
    pub add_mark: Style,
    /// The `-` marker.
    pub remove_mark: Style,
    /// The changed words inside an added line.
    pub add_emph: Style,
    /// The changed words inside a removed line.
    pub remove_emph: Style,
    /// The cursor row.
    pub cursor: Style,
    /// A selected line range.
    pub selection: Style,
    /// Accepted marks.
    pub accepted: Style,
    /// Rejected marks.
    pub rejected: Style,
    /// Pending marks.
    pub pending: Style,
    /// Edited marks.
    pub edited: Style,
    /// Error flags.
    pub error: Style,
    /// Warnings.
    pub warning: Style,
    /// A flagged claim inside a note line. Like `secret` and `matched`, it keeps its own
    /// colours on the cursor line (drawn over the cursor's; in `Mono` not reversed there).
    pub claim: Style,
    /// A masked credential a `secret` flag is about, inside a note line.
    pub secret: Style,
    /// The cited transcript line in the evidence pane.
    pub cited: Style,
    /// The status bar.
    pub status: Style,
    /// Key names in hints.
    pub key: Style,
    /// Search matches.
    pub matched: Style,
    /// Whether syntax colours are drawn (off for Mono).
    pub syntax: bool,
}

impl Theme {
    /// Picks the theme from the environment: `NO_COLOR` (any value) → Mono, else
    /// `DREAMREVIEW_THEME=light` → Light, else Dark.
    pub fn from_env() -> Theme {
        if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return Theme::new(ThemeName::Mono);
        }
        match std::env::var("DREAMREVIEW_THEME").as_deref() {
            Ok("light") => Theme::new(ThemeName::Light),
            _ => Theme::new(ThemeName::Dark),
        }
    }

    /// The theme the `theme` setting chooses; `NO_COLOR` (any value) still makes it Mono.
    pub fn for_choice(choice: crate::inputs::config::ThemeChoice) -> Theme {
        use crate::inputs::config::ThemeChoice;
        if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return Theme::new(ThemeName::Mono);
        }
        Theme::new(match choice {
            ThemeChoice::Dark => ThemeName::Dark,
            ThemeChoice::Light => ThemeName::Light,
            ThemeChoice::Mono => ThemeName::Mono,
        })
    }

    /// The theme with this name.
    pub fn new(name: ThemeName) -> Theme {
        let s = Style::default;
        let bold = Modifier::BOLD;
        match name {
            ThemeName::Mono => Theme {
                name,
                text: s(),
                dim: s(),
                border: s(),
                border_focus: s().add_modifier(bold),
                header: s().add_modifier(bold),
                add: s(),
                remove: s().add_modifier(Modifier::DIM),
                add_mark: s().add_modifier(bold),
                remove_mark: s().add_modifier(bold),
                add_emph: s().add_modifier(Modifier::UNDERLINED),
                remove_emph: s().add_modifier(Modifier::UNDERLINED),
                cursor: s().add_modifier(Modifier::REVERSED),
                selection: s().add_modifier(Modifier::UNDERLINED),
                accepted: s().add_modifier(bold),
                rejected: s(),
                pending: s(),
                edited: s().add_modifier(bold),
                error: s().add_modifier(bold),
                warning: s(),
                // The cursor line is reversed: a highlight there is not.
                claim: s().add_modifier(Modifier::UNDERLINED | bold).remove_modifier(Modifier::REVERSED),
                secret: s()
                    .add_modifier(Modifier::UNDERLINED | bold | Modifier::ITALIC)
                    .remove_modifier(Modifier::REVERSED),
                cited: s().add_modifier(bold),
                status: s().add_modifier(Modifier::REVERSED),
                key: s().add_modifier(bold),
                matched: s().add_modifier(Modifier::UNDERLINED | Modifier::ITALIC).remove_modifier(Modifier::REVERSED),
                syntax: false,
            },
            ThemeName::Dark => Theme {
                name,
                text: s().fg(Color::Gray),
                dim: s().fg(Color::DarkGray),
                border: s().fg(Color::DarkGray),
                border_focus: s().fg(Color::Cyan),
                header: s().fg(Color::Cyan).add_modifier(bold),
                add: s().bg(Color::Indexed(22)),
                remove: s().bg(Color::Indexed(52)),
                add_mark: s().fg(Color::LightGreen).add_modifier(bold),
                remove_mark: s().fg(Color::LightRed).add_modifier(bold),
                add_emph: s().bg(Color::Indexed(28)).add_modifier(bold),
                remove_emph: s().bg(Color::Indexed(88)).add_modifier(bold),
                cursor: s().bg(Color::Indexed(238)),
                selection: s().bg(Color::Indexed(24)),
                accepted: s().fg(Color::Green).add_modifier(bold),
                rejected: s().fg(Color::Red).add_modifier(bold),
                pending: s().fg(Color::Yellow),
                edited: s().fg(Color::Magenta).add_modifier(bold),
                error: s().fg(Color::LightRed).add_modifier(bold),
                warning: s().fg(Color::Yellow),
                claim: s().fg(Color::Black).bg(Color::Yellow).add_modifier(Modifier::UNDERLINED),
                secret: s().fg(Color::White).bg(Color::Indexed(124)).add_modifier(Modifier::UNDERLINED | bold),
                cited: s().fg(Color::White).add_modifier(bold),
                status: s().fg(Color::Black).bg(Color::Gray),
                key: s().fg(Color::Cyan).add_modifier(bold),
                matched: s().fg(Color::Black).bg(Color::LightCyan),
                syntax: true,
            },
            ThemeName::Light => Theme {
                name,
                text: s().fg(Color::Black),
                dim: s().fg(Color::Gray),
                border: s().fg(Color::Gray),
                border_focus: s().fg(Color::Blue),
                header: s().fg(Color::Blue).add_modifier(bold),
                add: s().bg(Color::Indexed(194)),
                remove: s().bg(Color::Indexed(224)),
                add_mark: s().fg(Color::Indexed(28)).add_modifier(bold),
                remove_mark: s().fg(Color::Indexed(124)).add_modifier(bold),
                add_emph: s().bg(Color::Indexed(157)).add_modifier(bold),
                remove_emph: s().bg(Color::Indexed(217)).add_modifier(bold),
                cursor: s().bg(Color::Indexed(254)),
                selection: s().bg(Color::Indexed(153)),
                accepted: s().fg(Color::Indexed(28)).add_modifier(bold),
                rejected: s().fg(Color::Indexed(124)).add_modifier(bold),
                pending: s().fg(Color::Indexed(130)),
                edited: s().fg(Color::Magenta).add_modifier(bold),
                error: s().fg(Color::Red).add_modifier(bold),
                warning: s().fg(Color::Indexed(130)),
                claim: s().fg(Color::Black).bg(Color::Indexed(220)).add_modifier(Modifier::UNDERLINED),
                secret: s().fg(Color::White).bg(Color::Indexed(160)).add_modifier(Modifier::UNDERLINED | bold),
                cited: s().fg(Color::Black).add_modifier(bold),
                status: s().fg(Color::White).bg(Color::Indexed(240)),
                key: s().fg(Color::Blue).add_modifier(bold),
                matched: s().fg(Color::Black).bg(Color::Indexed(159)),
                syntax: true,
            },
        }
    }
}
