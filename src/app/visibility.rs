//! Whether the window can be seen, and what the event loop did while it could not.
//!
//! Clock: wall time of the event loop ([`Instant`]s handed in by the caller, so the
//! bookkeeping is pure and unit-tested). The window is *hidden* while winit reports it
//! minimised or fully occluded (`WindowEvent::Occluded(true)`; on X11 that is an unmapped or
//! iconified window, or one fully covered). While hidden nothing is drawn and the loop sleeps
//! until the next tick (`ControlFlow::WaitUntil`), so it wakes at most once per tick: 60 times
//! a second. The counters here are what proves it (`--stats`: `hidden_s`,
//! `hidden_wakeups`, `restores`, `fps_since_restore`), measured under Xvfb by the
//! `occluded_window_keeps_ticking_and_sleeps` and `window_manager_fullscreen_minimise_restore`
//! end-to-end tests.

use std::time::Duration;
use web_time::Instant;

/// Hidden/visible state and the loop's activity in each.
#[derive(Clone, Debug, Default)]
pub struct Visibility {
    /// When the window was hidden; `None` while visible.
    hidden_since: Option<Instant>,
    /// Time hidden before `hidden_since`, summed over earlier hidden spells.
    hidden_before: Duration,
    /// Event-loop wake-ups (`new_events` calls) while hidden.
    hidden_wakeups: u64,
    /// Times the window came back from hidden.
    restores: u64,
    /// Back from hidden, but no frame has been played yet (the game pauses when its window
    /// is minimised, so play resumes only when the player unpauses).
    awaiting_play: bool,
    /// The first played frame after the last restore; `None` before one.
    restored_at: Option<Instant>,
    /// Frames presented while playing since `restored_at`.
    frames_since_restore: u64,
}

/// What [`Visibility`] measured, as reported in the exit stats.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VisibilityStats {
    /// Wall seconds the window was hidden (minimised or occluded), in total.
    pub hidden_s: f64,
    /// Event-loop iterations while hidden; divided by `hidden_s` this is the wake-up rate,
    /// which must stay ≤ the tick rate (60/s).
    pub hidden_wakeups: u64,
    /// Times the window was restored from hidden.
    pub restores: u64,
    /// Frames presented per wall second from the first played frame after the last restore
    /// until now (0 if never restored and played): the rate the loop came back to.
    pub fps_since_restore: f64,
}

impl Visibility {
    /// True while the window is minimised or fully occluded.
    pub fn is_hidden(&self) -> bool {
        self.hidden_since.is_some()
    }

    /// Record winit's report that the window is now hidden (`true`) or visible. Returns true
    /// when this changes the state (a repeated report changes nothing).
    pub fn set_hidden(&mut self, hidden: bool, now: Instant) -> bool {
        match (self.hidden_since, hidden) {
            (None, true) => {
                self.hidden_since = Some(now);
                true
            }
            (Some(since), false) => {
                self.hidden_before += now.saturating_duration_since(since);
                self.hidden_since = None;
                self.restores += 1;
                self.awaiting_play = true;
                self.restored_at = None;
                self.frames_since_restore = 0;
                true
            }
            _ => false,
        }
    }

    /// Count one event-loop iteration (counted only while hidden).
    pub fn wakeup(&mut self) {
        if self.is_hidden() {
            self.hidden_wakeups += 1;
        }
    }

    /// Count one presented frame, `playing` or not (a pause screen), at `now`: counted only
    /// from the first played frame after a restore on.
    pub fn presented(&mut self, playing: bool, now: Instant) {
        if self.awaiting_play && playing {
            self.awaiting_play = false;
            self.restored_at = Some(now);
        }
        if self.restored_at.is_some() {
            self.frames_since_restore += 1;
        }
    }

    /// The counters as of `now`.
    pub fn stats(&self, now: Instant) -> VisibilityStats {
        let current = self.hidden_since.map_or(Duration::ZERO, |s| now.saturating_duration_since(s));
        let fps_since_restore = match self.restored_at {
            Some(at) if now > at => self.frames_since_restore as f64 / (now - at).as_secs_f64(),
            _ => 0.0,
        };
        VisibilityStats {
            hidden_s: (self.hidden_before + current).as_secs_f64(),
            hidden_wakeups: self.hidden_wakeups,
            restores: self.restores,
            fps_since_restore,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_time_wakeups_and_restore_rate() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut v = Visibility::default();
        v.wakeup();
        v.presented(true, at(0));
        assert_eq!(v.stats(at(0)), VisibilityStats::default(), "nothing counts before a hide");

        assert!(v.set_hidden(true, at(1000)));
        assert!(!v.set_hidden(true, at(1100)), "a repeated report changes nothing");
        for _ in 0..120 {
            v.wakeup();
        }
        assert_eq!(v.stats(at(2000)).hidden_s, 1.0, "still hidden: counts up to now");
        assert!(v.set_hidden(false, at(3000)));
        v.wakeup(); // visible: not counted
        v.presented(false, at(3100)); // the pause screen: the rate starts with play
        for i in 0..300 {
            v.presented(true, at(3500 + i));
        }
        let s = v.stats(at(4500));
        assert_eq!((s.hidden_s, s.hidden_wakeups, s.restores), (2.0, 120, 1));
        assert_eq!(s.fps_since_restore, 300.0);

        // A second spell adds to the hidden time; the restore rate starts over.
        v.set_hidden(true, at(5000));
        v.set_hidden(false, at(5500));
        let s = v.stats(at(5500));
        assert_eq!((s.hidden_s, s.restores, s.fps_since_restore), (2.5, 2, 0.0));
    }
}
