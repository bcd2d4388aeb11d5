//! Credentials stored in a memory folder's files, as audit flags.

use std::collections::BTreeMap;

use super::flagged::AuditFlag;
use super::paths::is_hidden;
use crate::analysis::flag::{Flag, FlagKind};
use crate::base::secrets;

/// Credentials stored in the folder's text files: one `secret` flag per secret, located
/// at its line, with the value masked. Files holding NUL bytes (binary) are skipped.
pub fn scan_secrets(files: &BTreeMap<String, Vec<u8>>) -> Vec<AuditFlag> {
    let mut flags = Vec::new();
    for (path, bytes) in files {
        if is_hidden(path) || bytes.contains(&0) {
            continue;
        }
        let text = String::from_utf8_lossy(bytes);
        let found = secrets::find(&text);
        if found.is_empty() {
            continue;
        }
        // Each line masked as part of the note: a secret cut over two lines is masked on both.
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let shown = secrets::mask_lines(&lines);
        for s in found {
            let before = text.get(..s.start).unwrap_or("");
            let line_no = before.matches('\n').count() + 1;
            let line = shown.get(line_no - 1).map_or("", |l| crate::base::text::strip_terminator(l));
            let masked = s.masked(&text);
            let message =
                format!("{path} line {line_no} holds a credential ({masked}) — remove it from memory and rotate it.");
            flags.push(AuditFlag::new(
                path,
                Some(line_no),
                Flag::new(FlagKind::Secret, message).with_claim(masked).with_line(line.to_string()),
            ));
        }
    }
    flags
}
