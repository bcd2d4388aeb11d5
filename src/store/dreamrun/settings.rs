//! What a dream run is told: the dreamer's command and prompt, its environment, the
//! timeout, the window of sessions and the gate on how often to dream.

use std::path::PathBuf;

/// The default dreamer: Claude Code in print mode, with only the file tools available
/// (`--tools`: no shell, no web) and allowed (`--allowedTools`), file edits accepted without
/// asking (only inside its working directory, the scratch folder), and no transcript of its
/// own written. The prompt is appended, after a flag that takes no value (both tool lists
/// take several).
pub const DEFAULT_COMMAND: [&str; 9] = [
    "claude",
    "-p",
    "--tools",
    "Read,Write,Edit,Glob,Grep",
    "--allowedTools",
    "Read,Write,Edit,Glob,Grep",
    "--permission-mode",
    "acceptEdits",
    "--no-session-persistence",
];

/// The prompt shipped with dreamreview (`assets/dream/prompt.md`).
pub const DEFAULT_PROMPT: &str = include_str!("../../../assets/dream/prompt.md");

/// The environment every dreamer gets besides the `DREAMREVIEW_*` paths: Claude Code's
/// auto memory off, so the dreamer does not write memory of its own somewhere else.
pub const DREAMER_ENV: [(&str, &str); 1] = [("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1")];

/// What a dream run is configured with (flags, environment, the config file, defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DreamSettings {
    /// The dreamer's command line; the prompt replaces an argument `{prompt}`, else is
    /// appended as the last argument.
    pub command: Vec<String>,
    /// A prompt file replacing the shipped prompt.
    pub prompt_file: Option<PathBuf>,
    /// The longest a dreamer may run.
    pub timeout_minutes: u64,
    /// `--all`: a project's last dream must be at least this old…
    pub min_hours: u64,
    /// …and at least this many sessions must be newer than it.
    pub min_sessions: usize,
    /// The window: sessions active in the last N days (`None`: since the project's last
    /// dream, else [`DEFAULT_WINDOW_DAYS`]).
    pub window_days: Option<u32>,
}

/// The window when no dream ran before and none is set.
pub const DEFAULT_WINDOW_DAYS: u32 = 7;

impl Default for DreamSettings {
    fn default() -> Self {
        DreamSettings {
            command: DEFAULT_COMMAND.iter().map(|s| s.to_string()).collect(),
            prompt_file: None,
            timeout_minutes: 60,
            min_hours: 24,
            min_sessions: 5,
            window_days: None,
        }
    }
}
