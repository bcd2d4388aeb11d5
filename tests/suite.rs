//! The integration tests, built as one binary (`autotests = false` in Cargo.toml): one
//! link instead of one per file keeps a clean `cargo test` under 2 GB of `target/`. Each
//! module is one concept's tests; `common` and `hardening_support` are their helpers.

mod common;
mod hardening_support;

mod apply_cli;
mod apply_target;
mod audit_change;
mod audit_folder;
mod audit_report;
mod audit_unverifiable;
mod bounded_memory;
mod changes_fuzz;
mod changes_inline;
mod changes_parse;
mod check_core;
mod claims_dates;
mod claims_extract;
mod claims_fuzz;
mod claims_matching;
mod claims_relative;
mod cli_commands;
mod concurrent_writes;
mod docs_examples;
mod evidence_note;
mod git_apply;
mod hardening_claims;
mod hardening_inputs;
mod hardening_writes;
mod hygiene_flags;
mod interrupted_check;
mod prop_diff;
mod provenance_cjk;
mod provenance_clean;
mod provenance_english;
mod provenance_fuzz;
mod provenance_openclaw;
mod provenance_pnpm;
mod provenance_timezone;
mod provenance_values;
mod provenance_weak;
mod repo_lock;
mod resume_cli;
mod retention_warning;
mod revert_cli;
mod secrets_find;
mod secrets_outputs;
mod terminal_safety;
mod transcript_context;
mod transcript_render;
mod transcript_scan;
mod transcript_sources;
mod tui_edit;
mod tui_history;
mod tui_review;
mod why_cli;
