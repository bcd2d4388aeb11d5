//! Inputs: what a review reads, each parsed into plain data — the dream's folder
//! ([`dream`]), notes as files ([`snapshot`]), `memory.diff` ([`memdiff`]), CHANGES.md
//! ([`changes`]), the session transcripts ([`transcript`]), where the memory folder is
//! ([`target`]), how long Claude Code keeps transcripts ([`retention`]) and which sessions
//! were active when ([`sessions_window`]).

pub mod changes;
pub mod claude;
pub mod config;
pub mod dream;
pub mod inbox;
pub mod limits;
pub mod memdiff;
pub mod retention;
pub mod sessions_window;
pub mod snapshot;
pub mod target;
pub mod transcript;
