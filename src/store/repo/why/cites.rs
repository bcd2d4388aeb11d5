//! Review commits made before evidence was kept: what their message's `cites` lines say.

use super::types::{MessageCite, MessageEntry, MessageHunk};
use crate::store::repo::message::one_line;

/// The accepted hunks of `note` in a review message: each hunk's line (`note#1 (+2 -1)`)
/// with its entries and their `cites` lines (made by `cite`), in message order.
pub fn accepted_in_message(msg: &str, note: &str, mut cite: impl FnMut(String) -> MessageCite) -> Vec<MessageHunk> {
    let mut out: Vec<MessageHunk> = Vec::new();
    let head = format!("- {}#", one_line(note));
    let mut in_accepted = false;
    let mut mine = false;
    for line in msg.lines() {
        if !line.starts_with(' ') && !line.starts_with('-') {
            in_accepted = line.starts_with("Accepted (");
            mine = false;
            continue;
        }
        if !in_accepted {
            continue;
        }
        if let Some(rest) = line.strip_prefix("- ") {
            mine = line.starts_with(&head);
            if mine {
                out.push(MessageHunk { line: one_line(rest), entries: Vec::new() });
            }
            continue;
        }
        let Some(hunk) = out.last_mut().filter(|_| mine) else { continue };
        if let Some(text) = line.strip_prefix("    cites ") {
            if let Some(entry) = hunk.entries.last_mut() {
                entry.cites.push(cite(one_line(text)));
            }
        } else if let Some(entry) = line.strip_prefix("  ")
            && !entry.starts_with(' ')
            && !entry.starts_with("accepted with:")
            && !entry.starts_with("(no CHANGES.md entry)")
        {
            hunk.entries.push(MessageEntry { text: one_line(entry), cites: Vec::new() });
        }
    }
    out
}

/// The transcript name a `cites` line names: its first word without `:LINE[-END]`.
pub fn cited_source(cite: &str) -> String {
    let loc = cite.split_whitespace().next().unwrap_or_default();
    match loc.rsplit_once(':') {
        Some((name, lines)) if !lines.is_empty() && lines.bytes().all(|b| b.is_ascii_digit() || b == b'-') => {
            name.to_string()
        }
        _ => loc.to_string(),
    }
}
