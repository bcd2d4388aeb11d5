//! Faces: what a person uses — the command line ([`cli`]), the TUI ([`ui`]), `check`'s
//! text and JSON ([`report`]), `why`'s text ([`why`]) and the demo ([`demo`]). Thin:
//! everything they show comes from the layers below.

pub mod cli;
pub mod demo;
pub mod pager;
pub mod report;
pub mod ui;
pub mod why;
