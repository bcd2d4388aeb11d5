//! Model: the review itself — the dream's changes as hunks ([`diff`]), the reviewer's
//! decisions on them ([`decision`]), and [`review::Review`], which holds both and yields
//! the resulting notes. Knows no git and no terminal.

pub mod decision;
pub mod diff;
pub mod ids;
pub mod review;
