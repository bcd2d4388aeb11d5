//! The terminal UI, in The Elm Architecture: one state ([`state::App`]), one message enum
//! ([`msg::Msg`]), a pure [`update::update`], and a [`view::view`] that only draws.
//! [`run`] is the runtime: it owns the terminal, turns terminal events into messages,
//! carries out commands, and runs heavy work (analysis, highlighting) on other threads.

pub mod effects;
pub mod guard;
pub mod hangup;
pub mod highlight;
pub mod inbox;
pub mod keymap;
pub mod msg;
pub mod run;
pub mod script;
pub mod snapshot;
pub mod state;
pub mod text;
pub mod theme;
pub mod update;
pub mod view;
