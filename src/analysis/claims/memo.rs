//! The claims of a line read once per analysis: several stages read the same added lines
//! ([`super::extract`] from the hunk claims, the project references, …), and reading one
//! costs tens of µs. While a [`memoized`] scope is open (on any thread), [`super::extract`]
//! keeps what it read of each line; when the last scope closes, all of it is dropped.

use super::Claim;
use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, Mutex, MutexGuard};

/// Lines longer than this are read again each time (a hostile line is not kept twice).
const MAX_LINE: usize = 4096;

/// Shards of the memo, so that both cores seldom wait on each other.
const SHARDS: usize = 16;

#[derive(Default)]
struct Memo {
    hasher: RandomState,
    shards: [Mutex<HashMap<Box<str>, Vec<Claim>>>; SHARDS],
}

/// How many scopes are open, and the memo they share.
static OPEN: Mutex<(usize, Option<Arc<Memo>>)> = Mutex::new((0, None));

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `f` with the claims of every line read kept until the last open scope closes.
pub fn memoized<R>(f: impl FnOnce() -> R) -> R {
    struct Close;
    impl Drop for Close {
        fn drop(&mut self) {
            let mut open = lock(&OPEN);
            open.0 = open.0.saturating_sub(1);
            let last = if open.0 == 0 { open.1.take() } else { None };
            drop(open);
            // Freeing the claims of tens of thousands of lines takes a while: a task of the
            // thread pool, while the caller goes on.
            if let Some(memo) = last {
                rayon::spawn(move || drop(memo));
            }
        }
    }
    {
        let mut open = lock(&OPEN);
        open.0 += 1;
        open.1.get_or_insert_with(Default::default);
    }
    let _close = Close;
    f()
}

/// The claims of `line`: from the memo when a scope is open and it read the line already,
/// else `read(line)` (kept when a scope is open).
pub(super) fn claims_of(line: &str, read: impl FnOnce(&str) -> Vec<Claim>) -> Vec<Claim> {
    let memo = if line.len() <= MAX_LINE { lock(&OPEN).1.clone() } else { None };
    let Some(memo) = memo else {
        return read(line);
    };
    let shard = &memo.shards[(memo.hasher.hash_one(line) as usize) % SHARDS];
    if let Some(found) = lock(shard).get(line) {
        return found.clone();
    }
    let claims = read(line);
    lock(shard).insert(line.into(), claims.clone());
    claims
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_read_once_in_a_scope_and_its_claims_are_the_same() {
        let line = "memo test: port 48213 on 2026-11-03, `pnpm run memo-48213`";
        let calls = std::cell::Cell::new(0);
        let read = |l: &str| {
            calls.set(calls.get() + 1);
            super::super::extract::read(l)
        };
        let (a, b) = memoized(|| (claims_of(line, read), claims_of(line, read)));
        assert_eq!(calls.get(), 1);
        assert_eq!(a, b);
        assert!(!a.is_empty());
        assert_eq!(a, super::super::extract::read(line));
    }
}
