//! Store: where a review goes — the memory folder's git repository ([`repo`]: apply,
//! history, revert, `why`, saved decisions) and the evidence a review commit keeps
//! ([`evidence`]).

pub mod evidence;
pub mod repo;
pub mod waiting;
