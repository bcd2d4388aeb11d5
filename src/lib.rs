//! dreamreview: review an AI agent's overnight memory "dream" before it becomes fact.
//!
//! The library is the whole product minus the terminal: it finds a dream's inputs, diffs
//! the proposal against the live memory folder into hunks, checks every claim against the
//! session transcripts, audits memory hygiene, keeps the reviewer's decisions and writes
//! accepted results to the memory folder's git repository. The TUI (`ui`) and the command
//! line (`cli`) are thin layers over [`review::Review`].

pub mod analysis;
pub mod changes;
pub mod cli;
pub mod date;
pub mod decision;
pub mod demo;
pub mod diff;
pub mod dream;
pub mod evidence;
pub mod memdiff;
pub mod repo;
pub mod report;
pub mod retention;
pub mod review;
pub mod secrets;
pub mod snapshot;
pub mod target;
pub mod text;
pub mod transcript;
pub mod ui;
pub mod why;
pub mod zone;
