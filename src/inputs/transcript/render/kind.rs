//! What sort of line a rendered source line is, so the evidence pane can style it.

/// What sort of line it is, so the evidence pane can style it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LineKind {
    /// Only thinking (folded: thinking is never shown or used as evidence).
    Thinking,
    /// Conversation text (user prompt, assistant reply).
    Text,
    /// An assistant tool call.
    ToolUse,
    /// A tool result.
    ToolResult,
    /// A tool result marked `is_error`.
    ToolError,
    /// Anything else Claude Code records (system, progress, snapshots, queue…).
    Event,
    /// A line of a Markdown/plain-text source.
    Note,
    /// Not a JSON object: shown as its lossy text.
    Raw,
}
