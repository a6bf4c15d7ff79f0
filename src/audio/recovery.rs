//! When a lost sound device is reported and tried again: the decisions of
//! [`super::device::DeviceBackend::watch`], as plain data and instants, apart from the streams
//! and threads they drive (tested here, without a device).
//!
//! Clock: event loop (the instants are the event loop's, passed in; nothing here reads a
//! clock).

use std::time::Duration;
use web_time::Instant;

/// The least time from the start of one attempt to open the device to the start of the next:
/// the "at most about once a second". Each attempt is a few libasound calls on a
/// thread of its own.
pub const RETRY: Duration = Duration::from_secs(1);

/// How long a new stream must play without failing to count as the device being back; one
/// that fails sooner is the same loss, with no second warning. Why: with the test's card, a
/// stream can be built and fail at its first write (the `file` plugin's pipe replaced by a
/// folder: libasound 1.2.8 built the stream although the file would not open, then wrote to
/// descriptor −1, `EBADF`), which without this gave a warning per attempt (41 lines in 3.2 s,
/// one run under strace, before attempts were also held to [`RETRY`]). One [`RETRY`]: such a
/// device gives one warning and one attempt a second.
pub const PLAYS_FOR: Duration = RETRY;

/// Whether a loss is being reported, and when the device was last tried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recovery {
    /// A loss was reported and no stream has played [`PLAYS_FOR`] since.
    lost: bool,
    /// When the last attempt to open the device started.
    last_attempt: Option<Instant>,
}

impl Recovery {
    /// A stream failed: `true` when this is a new loss, to report (the first failure, or the
    /// first since a stream played [`PLAYS_FOR`]); `false` while the same loss goes on.
    pub fn failed(&mut self) -> bool {
        !std::mem::replace(&mut self.lost, true)
    }

    /// A stream has been playing since `since` without failing and its callback has run
    /// (`played`): `true` once, at the first `now` at least [`PLAYS_FOR`] after `since`, when
    /// it ends a reported loss (the device is back).
    pub fn steady(&mut self, played: bool, since: Instant, now: Instant) -> bool {
        let back = self.lost && played && now >= since + PLAYS_FOR;
        if back {
            self.lost = false;
        }
        back
    }

    /// At `now`: `Ok` when an attempt to open the device may start now (noted as started),
    /// else `Err` with the instant it may, [`RETRY`] after the previous one started.
    pub fn attempt(&mut self, now: Instant) -> Result<(), Instant> {
        match self.last_attempt.map(|t| t + RETRY) {
            Some(at) if now < at => Err(at),
            _ => {
                self.last_attempt = Some(now);
                Ok(())
            }
        }
    }

    /// A loss has been reported and the device is not back.
    pub fn is_lost(&self) -> bool {
        self.lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_loss_is_reported_once_until_a_stream_has_played_for_a_while() {
        let t0 = Instant::now();
        let mut r = Recovery::default();
        assert!(r.failed(), "the first failure is reported");
        assert!(r.is_lost());
        // A new stream that fails before it has played PLAYS_FOR: the same loss.
        assert!(!r.steady(true, t0, t0 + ms(500)));
        assert!(!r.failed(), "no second report");
        // A stream whose callback never ran does not count, however long.
        assert!(!r.steady(false, t0, t0 + ms(5000)));
        // One that played PLAYS_FOR ends the loss, once.
        assert!(r.steady(true, t0, t0 + PLAYS_FOR));
        assert!(!r.is_lost());
        assert!(!r.steady(true, t0, t0 + ms(3000)), "back is reported once");
        // Lost again after that: a new loss, reported.
        assert!(r.failed());
    }

    #[test]
    fn a_stream_that_plays_is_not_back_from_anything_without_a_loss() {
        let t0 = Instant::now();
        let mut r = Recovery::default();
        assert!(!r.steady(true, t0, t0 + ms(5000)));
    }

    #[test]
    fn attempts_start_at_once_then_at_most_once_per_retry() {
        let t0 = Instant::now();
        let mut r = Recovery::default();
        assert_eq!(r.attempt(t0), Ok(()), "the first attempt at once");
        assert_eq!(r.attempt(t0 + ms(16)), Err(t0 + RETRY), "a frame later: wait");
        assert_eq!(r.attempt(t0 + ms(999)), Err(t0 + RETRY));
        assert_eq!(r.attempt(t0 + RETRY), Ok(()));
        // A slow attempt (blocked opening) that ends long after: the next may start at once.
        assert_eq!(r.attempt(t0 + ms(9000)), Ok(()));
        assert_eq!(r.attempt(t0 + ms(9500)), Err(t0 + ms(10_000)));
    }
}
