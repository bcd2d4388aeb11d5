//! A persistent, incremental index of what transcripts say, so that a scan reads only the
//! blocks of lines that can hold its needles.
//!
//! One index file per JSONL transcript, under the user's cache directory
//! (`$XDG_CACHE_HOME/dreamreview/index-v2/`, else `~/.cache/dreamreview/index-v2/`; one
//! folder per transcript folder, one file per transcript, both named by a hash). A file's
//! lines are grouped into blocks of about [`BLOCK_BYTES`]; the index maps the hashed grams
//! of what each block says ([`grams`]) to the blocks. A scan asks, for each needle, for
//! the blocks holding all its keys and runs the ordinary scanner over just those byte
//! ranges (with their line numbers), so it finds exactly the hits a full scan finds; a
//! needle without keys (shorter than three letters) makes the file be scanned whole.
//!
//! Identity: dev, inode, size, mtime and hashes of the first KiB and of the KiB ending at
//! the indexed size. A file that grew with the same inode, head and old tail is indexed
//! from where the index stopped; any other change rebuilds it; the index of a deleted
//! transcript is removed when its folder is next scanned. A scan builds or extends
//! indexes itself only up to a small budget; the rest it reads as it would without an
//! index and leaves to a background build ([`background`]), so no run waits for indexing. Indexes are written to a
//! temporary file, synced, and renamed over the old one, so a reader sees a whole old or
//! whole new file; each ends with a checksum, and one that fails it (or has another
//! version) is rebuilt with a note ([`take_notes`]).
//!
//! No text is stored: only keys, each standing for ~64 three-byte grams, and line
//! numbers and offsets. Lines holding a detected credential are not indexed at all (their
//! block is marked to be always read).

pub mod background;
pub mod budget;
pub mod format;
pub mod grams;
pub mod limits;
pub mod stats;
mod store;

pub use background::{build_all, read_paths, spawn, wait_for_builds};
pub use budget::{Budget, take_deferred};
pub use format::FileIndex;
pub use limits::{BLOCK_BYTES, MAX_FILE_BYTES, block_bytes, max_file_bytes};
pub(crate) use stats::count_read;
pub use stats::{FALLBACK_FILES, INDEXED_BYTES, READ_BYTES, stats, take_notes};
pub(crate) use store::prune;
pub use store::{default_dir, index_file_of, refresh};
