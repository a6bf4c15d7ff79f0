//! Squash and stretch of the player sprite, on the tick.
//!
//! Clock: fixed tick. An event sets the scale at once (both ends: the frame shows it from the
//! event's tick on, as Celeste sets `Sprite.Scale`); every tick each axis then moves back
//! towards 1 by [`RETURN_PER_S`] / tick_hz, and a frame draws `lerp(previous, current, alpha)`.
//! Reference numbers are Celeste's `Player.cs` (unitless factors, so no 2x scale).

use glam::DVec2;

/// A jump start (ground, coyote or wall): tall and thin (Celeste `Player.Jump`: 0.6, 1.4).
pub const JUMP: DVec2 = DVec2::new(0.6, 1.4);
/// A spring launch (Celeste `Player.SuperBounce`/`Spring`: 0.5, 1.5).
pub const SPRING: DVec2 = DVec2::new(0.5, 1.5);
/// The landing squash at full fall speed (Celeste `OnCollideV`: towards 1.6, 0.4 by
/// `min(fall speed / FastMaxFall, 1)`).
pub const LAND_FULL: DVec2 = DVec2::new(1.6, 0.4);
/// The fall speed of a full landing squash, px/s: Celeste's `FastMaxFall` 240 at Ledge's 2x.
pub const LAND_FULL_SPEED: f64 = 480.0;
/// How fast each axis returns to 1, per second of game time (Celeste `Player.Update`:
/// `Calc.Approach(Scale, 1, 1.75 * DeltaTime)`).
pub const RETURN_PER_S: f64 = 1.75;

/// The sprite's scale after the previous and the current tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Squash {
    /// After the previous tick.
    pub prev: DVec2,
    /// After the current tick.
    pub curr: DVec2,
}

impl Default for Squash {
    fn default() -> Self {
        Squash { prev: DVec2::ONE, curr: DVec2::ONE }
    }
}

fn approach(v: f64, target: f64, by: f64) -> f64 {
    if v < target { (v + by).min(target) } else { (v - by).max(target) }
}

/// The landing squash for a fall at `fall_speed` px/s (down positive).
pub fn landing(fall_speed: f64) -> DVec2 {
    let k = (fall_speed / LAND_FULL_SPEED).clamp(0.0, 1.0);
    DVec2::ONE + (LAND_FULL - DVec2::ONE) * k
}

impl Squash {
    /// One tick on, with `set` the scale an event of this tick sets (`None`: none).
    pub fn advance(&mut self, set: Option<DVec2>, tick_hz: u32) {
        if let Some(s) = set {
            *self = Squash { prev: s, curr: s };
            return;
        }
        let by = RETURN_PER_S / f64::from(tick_hz.max(1));
        self.prev = self.curr;
        self.curr = DVec2::new(approach(self.curr.x, 1.0, by), approach(self.curr.y, 1.0, by));
    }

    /// As drawn at `alpha`.
    pub fn draw(&self, alpha: f64) -> DVec2 {
        crate::present::interp::lerp(self.prev, self.curr, alpha)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stretch_returns_to_one_at_the_celeste_rate() {
        let mut s = Squash::default();
        s.advance(Some(JUMP), 60);
        assert_eq!(s.draw(0.7), JUMP);
        s.advance(None, 60);
        assert!((s.curr.x - (0.6 + 1.75 / 60.0)).abs() < 1e-12);
        assert!((s.draw(0.5).y - (1.4 - 0.5 * 1.75 / 60.0)).abs() < 1e-12);
        // 0.4 / 1.75 s = 13.7 ticks: back to 1 after 14
        for _ in 0..13 {
            s.advance(None, 60);
        }
        assert_eq!(s.curr, DVec2::ONE);
        assert_eq!(landing(240.0), DVec2::new(1.3, 0.7));
        assert_eq!(landing(9999.0), LAND_FULL);
    }
}
