//! Why the review refuses a decision, worded for the TUI and for the CLI.

/// Why a decision was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The hunk overlaps an edit made to live after the dream's base: edit it instead.
    LiveChanged,
    /// The file would be written outside the memory folder or through a symlink.
    OutsideMemory,
    /// No such file, hunk or line.
    NoSuchTarget,
    /// The reviewer's merge of a `live_changed` hunk still holds a conflict marker: its
    /// line (1-based in the text) and the marker.
    ConflictMarkers {
        /// 1-based line of the text.
        line: usize,
        /// The marker line.
        marker: String,
    },
}

impl Refusal {
    /// The refusal with what to do about it in the TUI (its keys).
    pub fn in_tui(&self) -> String {
        match self {
            Refusal::LiveChanged => format!("{self} (e: merge)"),
            // The key first: a narrow status bar cuts the end.
            Refusal::ConflictMarkers { .. } => format!("e reopens it — {self}"),
            _ => self.to_string(),
        }
    }

    /// The refusal with what to do about it on the command line (its options, no keys).
    pub fn in_cli(&self) -> String {
        match self {
            Refusal::LiveChanged => {
                format!("{self}: give its merged text in --decisions FILE (\"edited\"), or merge it in the review TUI")
            }
            _ => self.to_string(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Refusal::ConflictMarkers { line, marker } = self {
            return write!(
                f,
                "merge not saved: line {line} is still a conflict marker ({}); keep the lines you want and \
                 delete every <<<<<<<, ======= and >>>>>>> line",
                crate::base::secrets::mask(marker)
            );
        }
        f.write_str(match self {
            Refusal::ConflictMarkers { .. } => "",
            Refusal::LiveChanged => "live memory changed here after the dream: only a merge can take it",
            Refusal::OutsideMemory => "this change would write outside the memory folder: it can never be accepted",
            Refusal::NoSuchTarget => "no such hunk or line",
        })
    }
}
