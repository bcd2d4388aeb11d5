//! What the command line prints besides its reports: messages masked and one line, and
//! the progress of a check on stderr.

use std::io::Write;

/// A message as the command line prints it: credentials masked (an error may repeat an
/// argument or a path, and either may be a pasted secret), control characters visible.
pub fn shown(message: &str) -> String {
    crate::base::shown::text(message).into_owned()
}

/// A progress callback that shows `checking transcripts… 42%` on stderr when stderr is a
/// terminal (and nothing when it is a pipe or a file), cleared when done.
pub fn stderr_progress() -> impl Fn(u64, u64) {
    use std::io::IsTerminal;
    let tty = std::io::stderr().is_terminal();
    let last = std::sync::atomic::AtomicU64::new(u64::MAX);
    move |done: u64, total: u64| {
        if !tty || total == 0 {
            return;
        }
        let pct = done.saturating_mul(100) / total;
        if last.swap(pct, std::sync::atomic::Ordering::Relaxed) == pct {
            return;
        }
        let mut err = std::io::stderr().lock();
        if done >= total {
            let _ = write!(err, "\r\x1b[K");
        } else {
            let _ = write!(err, "\rchecking transcripts… {pct}% of {} MB", total / 1_000_000);
        }
        let _ = err.flush();
    }
}
