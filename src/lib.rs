//! dreamreview: review an AI agent's overnight memory "dream" before it becomes fact.
//!
//! The library is the whole product minus the terminal: it finds a dream's inputs, diffs
//! the proposal against the live memory folder into hunks, checks every claim against the
//! session transcripts, audits memory hygiene, keeps the reviewer's decisions and writes
//! accepted results to the memory folder's git repository. The TUI (`ui`) and the command
//! line (`cli`) are thin faces over the same [`model::review::Review`] and
//! [`analysis::Analysis`].
//!
//! # How data flows
//!
//! ```text
//!  inputs                model              analysis               store              faces
//!  ──────                ─────              ────────               ─────              ─────
//!  dream (what the       review::Review     analysis::analyze      repo (git: apply,  cli  (check, apply,
//!   dream left)     ──▶   = diff hunks  ──▶  provenance  claims ──▶ history, revert,  ─▶ log, revert, why,
//!  snapshot (notes)       + decisions        audit  hygiene         why, decisions,      audit)
//!  memdiff (base)                            ──▶ Analysis           evidence notes)   ui   (the TUI)
//!  changes (CHANGES.md)                       (result, findings,   evidence (what a   report (check's
//!  transcript (sources)                        flags, standing)     commit keeps)       text and JSON)
//!  target, retention                                                                  why, demo
//!         base: text, date, zone (time zones), secrets (finding and masking credentials)
//! ```
//!
//! The folders of `src/` are these layers — `base/`, `inputs/`, `model/`, `analysis/`,
//! `store/`, `faces/` — so the tree reads as the flow. Each layer uses only itself and the
//! layers to its left; the model knows no git (the
//! repository layer passes what history says through [`model::review::history::MemoryHistory`];
//! the one read of git below the store is `analysis::repofacts::project`, which opens the
//! sessions' own project read only to check what notes say of its code) and nothing below
//! the faces knows the terminal. `tests/architecture.rs` checks this, file by file,
//! on every `cargo test`.
//!
//! A newcomer reads [`model::review`] (the model: hunks and decisions), then [`analysis`] (what is
//! found and how), then [`store::repo::apply`] (how a review becomes a commit), then `ui::update`.

// The folders are the layers (lowest first); each module is also reachable from the crate
// root by its own name (`crate::inputs::transcript`, `dreamreview::model::review`), which is how the code
// refers to it.
pub mod analysis;
pub mod base;
pub mod faces;
pub mod inputs;
pub mod model;
pub mod store;

pub use base::{date, secrets, shown, text, walk, zone};
pub use faces::{cli, demo, report, ui, why};
pub use inputs::{changes, claude, config, dream, inbox, memdiff, retention, snapshot, target, transcript};
pub use model::{decision, diff, review};
pub use store::{evidence, repo, waiting};
