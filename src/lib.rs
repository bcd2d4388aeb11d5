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

// The folders are the layers (lowest first: base, inputs, model, analysis, store, faces;
// listed here as rustfmt sorts them). Nothing is re-exported at the crate root: every
// path names its layer (`crate::inputs::transcript`, `dreamreview::model::review`), so a
// `use` line says which layer it reaches into, to a reader and to `tests/architecture.rs`.
/// What is found: claims and their sources, hygiene, audit, the flags.
pub mod analysis;
/// Text, dates, time zones, credentials: what every layer may use.
pub mod base;
/// The command line and the terminal UI over the same model.
pub mod faces;
/// What a review reads: the dream, CHANGES.md, the transcripts, the memory folder.
pub mod inputs;
/// The review: hunks of the proposal, their ids, and the reviewer's decisions on them.
pub mod model;
/// Git: applying a review, history, revert, the evidence a commit keeps.
pub mod store;
