//! Store: where a review goes — the memory folder's git repository ([`repo`]: apply,
//! history, revert, `why`, saved decisions) and the evidence a review commit keeps
//! ([`evidence`]); the night's dream run that writes a dream folder ([`dreamrun`]); Claude
//! Code's `settings.json` hook entry ([`hooks`]).

pub mod dreamrun;
pub mod evidence;
pub mod hooks;
pub mod repo;
pub mod waiting;
