//! Where a platform or saw is on its path at a given game time.
//!
//! Clock: fixed tick. A path's position is a pure function of the game time since the level
//! started (LAB.md "Entities": it leaves (x, y) at t = 0, travels in a straight line at `speed`
//! to the other end, waits `wait` there, travels back, waits `wait` at the start, and so on
//! forever), so the same tick always puts a body at the same place whatever the frame rate.
//! The path's length, travel time, period and their reciprocals are worked out once
//! ([`Path::new`]); a tick costs no division and no libm call.

use glam::DVec2;

/// A point on a path: the exact position and whether the body is waiting at an end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathPoint {
    /// Exact (sub-pixel) top-left, pixels.
    pub pos: DVec2,
    /// Waiting at one end (or a path with no length: it never moves).
    pub waiting: bool,
}

/// A straight back-and-forth path with its constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Path {
    from: DVec2,
    to: DVec2,
    /// Length, pixels (0: it never moves).
    len: f64,
    speed: f64,
    wait: f64,
    /// Seconds from one end to the other.
    travel: f64,
    /// Seconds for a whole round trip with both waits.
    period: f64,
    /// 1 / period and 1 / len (multiplications instead of divisions on every tick).
    inv_period: f64,
    inv_len: f64,
}

impl Path {
    /// The path from `from` to `to` (`None`: no path) at `speed` px/s (> 0) with `wait`
    /// seconds (≥ 0) at each end.
    pub fn new(from: DVec2, to: Option<DVec2>, speed: f64, wait: f64) -> Path {
        let to = to.unwrap_or(from);
        let len = if speed > 0.0 { from.distance(to) } else { 0.0 };
        let travel = if len > 0.0 { len / speed } else { 0.0 };
        let period = 2.0 * (travel + wait);
        let inv = |v: f64| if v > 0.0 { 1.0 / v } else { 0.0 };
        Path { from, to, len, speed, wait, travel, period, inv_period: inv(period), inv_len: inv(len) }
    }

    /// The point after `clock` ticks at `tick_hz`: [`Path::at`]`(clock / tick_hz)` (the
    /// clock converted through `i64`, the same value below 2^63 ticks, one instruction).
    pub fn at_tick(&self, clock: u64, tick_hz: u32) -> PathPoint {
        self.at((clock as i64) as f64 / f64::from(tick_hz))
    }

    /// The point at `t` seconds (≥ 0). The ends are hit exactly (the position is
    /// `from + (to − from)·s·(1/len)`, and the ends are returned as given), so a path that ends on
    /// whole pixels rests on whole pixels.
    pub fn at(&self, t: f64) -> PathPoint {
        if self.len == 0.0 {
            return PathPoint { pos: self.from, waiting: true };
        }
        let (travel, wait) = (self.travel, self.wait);
        // t − ⌊t / period⌋·period (t ≥ 0, so ⌊⌋ is a truncation), without `%` or `floor` (libm
        // calls) or a division; a quotient one off by rounding is corrected, and the phase is
        // clamped so rounding can never leave [0, period].
        let t = t.max(0.0);
        // `as i64`, not `as u64`: the same value here (0 ≤ t·(1/period) < 2^63) with one
        // instruction each way instead of a branchy sequence on baseline x86-64.
        let mut ph = t - ((t * self.inv_period) as i64) as f64 * self.period;
        if ph < 0.0 {
            ph += self.period;
        } else if ph >= self.period {
            ph -= self.period;
        }
        let ph = ph.clamp(0.0, self.period);
        let at = |s: f64| self.from + (self.to - self.from) * (s * self.inv_len);
        if ph < travel {
            PathPoint { pos: at(ph * self.speed), waiting: false }
        } else if ph < travel + wait {
            PathPoint { pos: self.to, waiting: true }
        } else if ph < 2.0 * travel + wait {
            let back = (ph - travel - wait) * self.speed;
            let pos = if back == 0.0 { self.to } else { at(self.len - back) };
            PathPoint { pos, waiting: false }
        } else {
            PathPoint { pos: self.from, waiting: true }
        }
    }
}

/// `x` rounded to the nearest whole number, halves away from zero (defined with the other
/// libm-free roundings in [`crate::sim::collision`]).
pub use crate::sim::collision::round_px;

#[cfg(test)]
mod tests {
    use super::*;

    const A: DVec2 = DVec2::new(10.0, 100.0);
    const B: DVec2 = DVec2::new(10.0, 40.0);

    #[test]
    fn leaves_the_start_travels_waits_and_comes_back() {
        // 60 px at 60 px/s: 1 s each way, 0.5 s wait at each end; period 3 s.
        let path = Path::new(A, Some(B), 60.0, 0.5);
        let p = |t| path.at(t);
        assert_eq!(p(0.0), PathPoint { pos: A, waiting: false });
        assert_eq!(p(0.5).pos, DVec2::new(10.0, 70.0));
        assert_eq!(p(1.0), PathPoint { pos: B, waiting: true });
        assert_eq!(p(1.4), PathPoint { pos: B, waiting: true });
        assert_eq!(p(2.0).pos, DVec2::new(10.0, 70.0));
        assert!(!p(2.0).waiting);
        assert_eq!(p(2.6), PathPoint { pos: A, waiting: true });
        assert_eq!(p(3.25).pos, p(0.25).pos);
    }

    #[test]
    fn without_a_path_or_a_wait_it_still_makes_sense() {
        assert_eq!(Path::new(A, None, 60.0, 0.0).at(5.0), PathPoint { pos: A, waiting: true });
        assert_eq!(Path::new(A, Some(A), 60.0, 0.0).at(5.0), PathPoint { pos: A, waiting: true });
        // No wait: the far end is passed through exactly, then it turns back.
        let path = Path::new(A, Some(B), 60.0, 0.0);
        assert_eq!(path.at(1.0), PathPoint { pos: B, waiting: false });
        assert_eq!(path.at(1.5).pos, DVec2::new(10.0, 70.0));
    }

    #[test]
    fn round_px_is_f64_round() {
        for x in [0.0, 0.5, -0.5, 1.49999, 1.5, 2.5, -2.5, -2.49, 82.5, 0.49999999999999994, -7.0, 1e12 + 0.5]
        {
            assert_eq!(round_px(x), x.round(), "{x}");
        }
        let mut x = -300.0;
        while x < 300.0 {
            assert_eq!(round_px(x), x.round(), "{x}");
            x += 0.0625 + 1e-7;
        }
    }
}
