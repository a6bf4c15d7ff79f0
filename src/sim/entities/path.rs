//! Where a platform or saw is on its path at a given game time.
//!
//! Clock: fixed tick. A path's position is a pure function of the game time since the level
//! started (LAB.md "Entities": it leaves (x, y) at t = 0, travels in a straight line at `speed`
//! to the other end, waits `wait` there, travels back, waits `wait` at the start, and so on
//! forever), so the same tick always puts a body at the same place whatever the frame rate.

use glam::DVec2;

/// A point on a path: the exact position and whether the body is waiting at an end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathPoint {
    /// Exact (sub-pixel) top-left, pixels.
    pub pos: DVec2,
    /// Waiting at one end (or a path with no length: it never moves).
    pub waiting: bool,
}

/// The point at `t` seconds (≥ 0) on the path from `from` to `to` (`None`: no path) at
/// `speed` px/s (> 0) with `wait` seconds (≥ 0) at each end.
///
/// The ends are hit exactly (the position is `from + (to − from)·s/len`, and the ends are
/// returned as given), so a path that ends on whole pixels rests on whole pixels.
pub fn along(from: DVec2, to: Option<DVec2>, speed: f64, wait: f64, t: f64) -> PathPoint {
    let Some(to) = to else { return PathPoint { pos: from, waiting: true } };
    let len = from.distance(to);
    if len == 0.0 || speed <= 0.0 {
        return PathPoint { pos: from, waiting: true };
    }
    let travel = len / speed;
    let period = 2.0 * (travel + wait);
    // t − ⌊t / period⌋·period: the phase without `%` (a libm fmod call, several times slower);
    // clamped so rounding can never give a phase outside [0, period).
    let t = t.max(0.0);
    let ph = (t - (t / period).floor() * period).clamp(0.0, period);
    let at = |s: f64| from + (to - from) * (s / len);
    if ph < travel {
        PathPoint { pos: at(ph * speed), waiting: false }
    } else if ph < travel + wait {
        PathPoint { pos: to, waiting: true }
    } else if ph < 2.0 * travel + wait {
        let back = (ph - travel - wait) * speed;
        let pos = if back == 0.0 { to } else { at(len - back) };
        PathPoint { pos, waiting: false }
    } else {
        PathPoint { pos: from, waiting: true }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: DVec2 = DVec2::new(10.0, 100.0);
    const B: DVec2 = DVec2::new(10.0, 40.0);

    #[test]
    fn leaves_the_start_travels_waits_and_comes_back() {
        // 60 px at 60 px/s: 1 s each way, 0.5 s wait at each end; period 3 s.
        let p = |t| along(A, Some(B), 60.0, 0.5, t);
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
        assert_eq!(along(A, None, 60.0, 0.0, 5.0), PathPoint { pos: A, waiting: true });
        assert_eq!(along(A, Some(A), 60.0, 0.0, 5.0), PathPoint { pos: A, waiting: true });
        // No wait: the far end is passed through exactly, then it turns back.
        let p = along(A, Some(B), 60.0, 0.0, 1.0);
        assert_eq!(p, PathPoint { pos: B, waiting: false });
        assert_eq!(along(A, Some(B), 60.0, 0.0, 1.5).pos, DVec2::new(10.0, 70.0));
    }
}
