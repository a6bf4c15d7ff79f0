//! The event loop's clocks: the `--fps-cap` frame limiter, the paused-aware game clock, and
//! where the next level is.
//!
//! Clock: event loop (wall time from `Instant`, handed on as integer nanoseconds).
//!
//! # Pause, the clock and `--record`
//!
//! Pausing freezes the game clock: [`GameClock`] keeps the paused wall time as an integer
//! offset in nanoseconds, and every time handed to the loop *and* the recorder is the same
//! `wall - offset` value, so the loop never sees the pause (no long frame, no clamp event)
//! and a recording holds no paused time: `ledge lab` replays it to the same state hash. While
//! paused no `Loop::frame` runs and no frame is recorded. On pausing, the keyboard's held
//! actions are released at the pause instant (recorded as ordinary releases) and forgotten;
//! game keys are not forwarded while paused, so after resuming a key must be pressed again.
//! Gamepad game input is not forwarded either while a menu is open (its South button confirms
//! there, and must not jump on resume); what a pad holds is released when a level starts.

use std::path::{Path, PathBuf};
use std::time::Duration;
use web_time::Instant;

/// Frame limiter for `--fps-cap`: frames start on a grid of `period`, sleeping most of the
/// way and spinning the last stretch (OS sleep overshoots by up to a millisecond or more).
#[derive(Clone, Debug)]
pub struct Pacer {
    period: Duration,
    next: Option<Instant>,
    late_sum: Duration,
    late_max: Duration,
    waits: u64,
}

impl Pacer {
    /// How long before a deadline [`Pacer::wait`] stops sleeping and spins: 1.5 ms, the OS
    /// sleep's usual overshoot (a millisecond or more on a desktop Linux or Windows timer).
    pub const SPIN: Duration = Duration::from_micros(1500);

    /// A pacer at `hz` frames per second (positive, finite; `main` checks).
    pub fn new(hz: f64) -> Self {
        Self {
            period: Duration::from_secs_f64(1.0 / hz),
            next: None,
            late_sum: Duration::ZERO,
            late_max: Duration::ZERO,
            waits: 0,
        }
    }

    /// The deadline after `deadline` once a frame started at `woke`: one period later, or,
    /// when the frame started more than a period late, one period after `woke` (resync rather
    /// than a burst of catch-up frames).
    pub fn next_deadline(deadline: Instant, woke: Instant, period: Duration) -> Instant {
        if woke > deadline + period { woke + period } else { deadline + period }
    }

    /// When an event loop waiting for the next frame should wake, as of `now`: [`Pacer::SPIN`]
    /// before the next deadline, so that the wake-up's own lateness is absorbed by
    /// [`Pacer::wait`]'s spin. `None` when there is no deadline yet or it is nearer than that
    /// (start the frame now and let `wait` finish the job).
    pub fn wake_before_deadline(&self, now: Instant) -> Option<Instant> {
        self.next.and_then(|d| d.checked_sub(Self::SPIN)).filter(|&at| at > now)
    }

    /// Block until the next deadline (the first call returns at once) and record how late
    /// the wake-up was.
    pub fn wait(&mut self) {
        let deadline = self.next.unwrap_or_else(Instant::now);
        let now = Instant::now();
        if deadline > now {
            let left = deadline - now;
            if left > Self::SPIN {
                std::thread::sleep(left - Self::SPIN);
            }
            while Instant::now() < deadline {
                std::hint::spin_loop();
            }
        }
        let woke = Instant::now();
        let late = woke.saturating_duration_since(deadline);
        self.late_sum += late;
        self.late_max = self.late_max.max(late);
        self.waits += 1;
        self.next = Some(Self::next_deadline(deadline, woke, self.period));
    }

    /// Mean and worst lateness of a wake-up after its deadline, microseconds.
    pub fn lateness_us(&self) -> (f64, f64) {
        if self.waits == 0 {
            return (0.0, 0.0);
        }
        (self.late_sum.as_secs_f64() * 1e6 / self.waits as f64, self.late_max.as_secs_f64() * 1e6)
    }
}

/// The level after `current` in its folder: `levelN.tmx` → `levelN+1.tmx`, if that file
/// exists. `None` for the last level or a file not named `levelN.tmx`.
pub fn next_level_path(current: &Path) -> Option<PathBuf> {
    let stem = current.file_stem()?.to_str()?;
    let n: u32 = stem.strip_prefix("level")?.parse().ok()?;
    let ext = current.extension().and_then(|e| e.to_str()).unwrap_or("tmx");
    let next = current.with_file_name(format!("level{}.{ext}", n + 1));
    crate::read_limit::is_file(&next).then_some(next)
}

/// The game clock: wall nanoseconds since the start minus the time spent paused, as an integer
/// offset (never a float), so the loop and the recorder are handed the very same values.
///
/// While frozen it reads the instant it froze; thawing adds the frozen stretch to the offset,
/// so it resumes from that instant and never goes backwards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameClock {
    /// Wall nanoseconds spent frozen before the current freeze.
    paused_ns: u64,
    /// Wall nanoseconds at which the current freeze began.
    frozen_at: Option<u64>,
}

impl GameClock {
    /// The game time, nanoseconds, at wall time `wall_ns` (nanoseconds since the start).
    pub fn now(&self, wall_ns: u64) -> u64 {
        let wall = self.frozen_at.unwrap_or(wall_ns);
        wall.saturating_sub(self.paused_ns)
    }

    /// Stop the clock at `wall_ns` (no effect when already stopped).
    pub fn freeze(&mut self, wall_ns: u64) {
        if self.frozen_at.is_none() {
            self.frozen_at = Some(wall_ns);
        }
    }

    /// Restart the clock at `wall_ns` from where it stopped (no effect when running).
    pub fn thaw(&mut self, wall_ns: u64) {
        if let Some(at) = self.frozen_at.take() {
            self.paused_ns += wall_ns.saturating_sub(at);
        }
    }

    /// True while stopped.
    pub fn is_frozen(&self) -> bool {
        self.frozen_at.is_some()
    }

    /// Wall nanoseconds spent stopped up to `wall_ns`, the current stop included.
    pub fn paused_ns(&self, wall_ns: u64) -> u64 {
        self.paused_ns + self.frozen_at.map_or(0, |at| wall_ns.saturating_sub(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pacer_keeps_the_grid_or_resyncs() {
        let t0 = Instant::now();
        let p = Duration::from_millis(16);
        // On time or a little late: the grid holds.
        assert_eq!(Pacer::next_deadline(t0, t0, p), t0 + p);
        assert_eq!(Pacer::next_deadline(t0, t0 + Duration::from_millis(5), p), t0 + p);
        // More than a period late: resync from the wake-up.
        let woke = t0 + Duration::from_millis(40);
        assert_eq!(Pacer::next_deadline(t0, woke, p), woke + p);
    }

    #[test]
    fn the_event_loop_wakes_a_spin_before_the_deadline() {
        let mut pacer = Pacer::new(100.0);
        let t0 = Instant::now();
        assert_eq!(pacer.wake_before_deadline(t0), None, "no deadline before the first frame");
        pacer.wait(); // the first frame: at once; the next deadline is 10 ms on
        let deadline = pacer.next.expect("a deadline");
        let woke = deadline - Duration::from_millis(10);
        assert_eq!(pacer.wake_before_deadline(woke), Some(deadline - Pacer::SPIN));
        assert_eq!(pacer.wake_before_deadline(deadline - Pacer::SPIN), None, "inside the spin: start now");
    }

    #[test]
    fn next_level_naming() {
        let dir = std::env::temp_dir().join(format!("ledge-next-level-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("level1.tmx"), "").expect("write");
        std::fs::write(dir.join("level2.tmx"), "").expect("write");
        assert_eq!(next_level_path(&dir.join("level1.tmx")), Some(dir.join("level2.tmx")));
        assert_eq!(next_level_path(&dir.join("level2.tmx")), None);
        assert_eq!(next_level_path(&dir.join("custom.tmx")), None);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn game_clock_stands_still_while_frozen() {
        let mut c = GameClock::default();
        assert_eq!(c.now(1_000), 1_000);
        c.freeze(1_500);
        assert!(c.is_frozen());
        assert_eq!(c.now(1_500), 1_500);
        assert_eq!(c.now(9_999_999), 1_500, "frozen: no time passes");
        c.freeze(2_000); // a second freeze changes nothing
        assert_eq!(c.paused_ns(4_000), 2_500);
        c.thaw(4_000);
        assert!(!c.is_frozen());
        assert_eq!(c.now(4_000), 1_500, "resumes where it stopped");
        assert_eq!(c.now(4_100), 1_600);
        c.thaw(5_000); // thawing a running clock changes nothing
        assert_eq!(c.now(5_000), 2_500);
        c.freeze(6_000);
        c.thaw(6_000_000_007);
        assert_eq!(c.now(6_000_000_010), 3_503, "integer ns, exact");
        assert_eq!(c.paused_ns(6_000_000_010), 2_500 + 6_000_000_007 - 6_000);
    }

    #[test]
    fn game_clock_never_goes_backwards() {
        let mut c = GameClock::default();
        let mut last = 0;
        for (i, wall) in (0..2_000u64).map(|i| i * 1_000_003).enumerate() {
            match i % 7 {
                2 => c.freeze(wall),
                5 => c.thaw(wall),
                _ => {}
            }
            let now = c.now(wall);
            assert!(now >= last, "{now} < {last} at wall {wall}");
            last = now;
        }
    }
}
