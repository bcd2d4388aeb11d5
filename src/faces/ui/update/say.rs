//! The status line: what an action says to the reviewer, as a note or an error.

use super::super::state::{App, Status};

/// Shows `text` on the status line (`error`: as an error).
pub(super) fn say(app: &mut App, text: &str, error: bool) {
    app.status = Some(Status { text: text.to_string(), error });
}
