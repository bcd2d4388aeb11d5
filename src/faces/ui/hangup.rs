//! A terminal that hung up without a signal. When the terminal goes away (an SSH session
//! dropped, a tmux server killed) the process may get no SIGHUP; polling the dead terminal
//! then answers at once, again and again, with nothing to read, and the input thread spins
//! a core forever. [`Hangup`] notices the run of instant empty answers so the loop can
//! save the decisions and leave as on SIGHUP.

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
