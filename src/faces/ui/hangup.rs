//! A terminal that hung up. When the terminal goes away (an SSH session dropped, a tmux
//! server killed) the key reader's poll of the dead terminal may spin and never return: the
//! loop leaves on SIGHUP but must not wait for the reader ([`join_within`]; before, the
//! process never exited and spun a core). With no signal at all, polling answers at once,
//! again and again, with nothing to read: [`Hangup`] notices the run of instant empty
//! answers so the loop can save the decisions and leave as on SIGHUP.

use std::time::Duration;

/// How many instant empty answers in a row mean the terminal is gone: a live terminal
/// answers an empty poll after its timeout, so even a burst of ignored events (focus,
/// paste) does not come close.
const IN_A_ROW: u32 = 500;

/// An answer faster than this is instant.
const INSTANT: Duration = Duration::from_millis(2);

/// Counts the input loop's instant empty turns.
#[derive(Debug, Default)]
pub struct Hangup {
    quick: u32,
}

impl Hangup {
    /// Notes one turn of the input loop that took `took` and yielded no message; true once
    /// the terminal looks gone.
    pub fn empty_turn(&mut self, took: Duration) -> bool {
        if took < INSTANT {
            self.quick += 1;
        } else {
            self.quick = 0;
        }
        self.quick >= IN_A_ROW
    }

    /// Notes a turn that yielded a message: the terminal is alive.
    pub fn answered(&mut self) {
        self.quick = 0;
    }
}

/// Waits for the key reader `h` to stop, at most `within`: on a terminal that hung up, the
/// terminal library's poll may never return (the dead terminal is always "ready" with
/// nothing to read), and a process that waits for it never exits. A reader still running
/// then is left behind; the process is leaving.
pub fn join_within(h: std::thread::JoinHandle<()>, within: Duration) {
    let start = std::time::Instant::now();
    while !h.is_finished() && start.elapsed() < within {
        std::thread::sleep(Duration::from_millis(5));
    }
    if h.is_finished() {
        let _ = h.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instant_empty_answers_in_a_row_mean_the_terminal_is_gone() {
        let mut h = Hangup::default();
        for _ in 0..IN_A_ROW - 1 {
            assert!(!h.empty_turn(Duration::from_micros(50)));
        }
        assert!(h.empty_turn(Duration::from_micros(50)));
    }

    #[test]
    fn a_reader_that_never_stops_is_left_behind() {
        let stuck = std::thread::spawn(|| std::thread::sleep(Duration::from_secs(3600)));
        let start = std::time::Instant::now();
        join_within(stuck, Duration::from_millis(50));
        assert!(start.elapsed() < Duration::from_secs(5));
        let quick = std::thread::spawn(|| {});
        join_within(quick, Duration::from_secs(5));
    }

    #[test]
    fn a_live_terminal_is_never_taken_for_gone() {
        let mut h = Hangup::default();
        for i in 0..10 * IN_A_ROW {
            // Timeouts of an idle terminal, keys, and bursts of ignored events between.
            let took = if i % 300 == 0 { Duration::from_millis(100) } else { Duration::from_micros(10) };
            if i % 7 == 0 {
                h.answered();
            }
            assert!(!h.empty_turn(took), "turn {i}");
        }
    }
}
