//! Screen shake, on the tick: a death shakes the drawn view for 0.3 s.
//!
//! Clock: fixed tick. Celeste's `Level.Shake(0.3)`: every 0.04 s the offset is re-picked, its
//! size `ceil(t × 10)` px with t the seconds left (Ledge draws at 2x: twice that). The offset is
//! discrete — whole pixels, held from one re-pick to the next, never blended — and a function
//! of the ticks since the shake started and the tick it started in ([`super::noise`]), so the
//! same ticks shake the same. The setting ([`ShakeLevel`]) only scales what is drawn: off, at
//! most 1 px (half), or the full size.

use super::noise::{Event, bits};
use super::settings::ShakeLevel;
use glam::DVec2;

/// How long a shake lasts, seconds (Celeste `Level.Shake` default, `Player.Die`).
pub const SECONDS: f64 = 0.3;
/// How often the offset is re-picked, seconds (Celeste `Level.Update`: `OnInterval(0.04)`).
pub const REPICK_S: f64 = 0.04;

/// A running shake.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Shake {
    /// The world tick it started in; `None`: no shake.
    since: Option<u64>,
    /// Ticks since it started.
    age: u32,
    /// The full offset after the current tick, whole pixels.
    offset: DVec2,
}

/// The eight directions an offset points in (each axis −1, 0 or 1, never both 0).
const DIRS: [(f64, f64); 8] =
    [(-1.0, -1.0), (0.0, -1.0), (1.0, -1.0), (-1.0, 0.0), (1.0, 0.0), (-1.0, 1.0), (0.0, 1.0), (1.0, 1.0)];

impl Shake {
    /// Start a shake in world tick `tick` (a death), replacing any running one.
    pub fn start(&mut self, tick: u64, tick_hz: u32) {
        *self = Shake { since: Some(tick), age: 0, offset: DVec2::ZERO };
        self.offset = self.offset_at(tick_hz);
    }

    /// One tick on (call it on every tick without a new shake).
    pub fn advance(&mut self, tick_hz: u32) {
        if self.since.is_none() {
            return;
        }
        self.age += 1;
        self.offset = self.offset_at(tick_hz);
        if self.offset == DVec2::ZERO {
            *self = Shake::default();
        }
    }

    fn offset_at(&self, tick_hz: u32) -> DVec2 {
        let Some(since) = self.since else { return DVec2::ZERO };
        let hz = f64::from(tick_hz.max(1));
        let left = SECONDS - f64::from(self.age) / hz;
        if left <= 1e-9 {
            return DVec2::ZERO;
        }
        let pick = (f64::from(self.age) / (REPICK_S * hz)).floor() as u64;
        let (x, y) = DIRS[(bits(since, Event::Shake, pick) % 8) as usize];
        let amount = 2.0 * (left * 10.0 - 1e-9).ceil();
        DVec2::new(x, y) * amount
    }

    /// The drawn offset at `level`, whole pixels.
    pub fn draw(&self, level: ShakeLevel) -> DVec2 {
        match level {
            ShakeLevel::Off => DVec2::ZERO,
            ShakeLevel::Half => {
                let unit = |v: f64| {
                    if v > 0.0 {
                        1.0
                    } else if v < 0.0 {
                        -1.0
                    } else {
                        0.0
                    }
                };
                DVec2::new(unit(self.offset.x), unit(self.offset.y))
            }
            ShakeLevel::Full => self.offset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shake_lasts_0_3_s_repicks_every_0_04_s_and_shrinks() {
        let mut s = Shake::default();
        assert_eq!(s.draw(ShakeLevel::Full), DVec2::ZERO);
        s.start(100, 60);
        let mut full = vec![s.draw(ShakeLevel::Full)];
        for _ in 0..20 {
            s.advance(60);
            full.push(s.draw(ShakeLevel::Full));
            let half = s.draw(ShakeLevel::Half);
            assert!(half.x.abs() <= 1.0 && half.y.abs() <= 1.0);
            assert_eq!(s.draw(ShakeLevel::Off), DVec2::ZERO);
        }
        // 18 ticks of shake (0.3 s at 60 Hz), then none.
        assert!(full[..18].iter().all(|o| *o != DVec2::ZERO), "{full:?}");
        assert!(full[18..].iter().all(|o| *o == DVec2::ZERO));
        assert_eq!(full[0].abs().max_element(), 6.0, "ceil(0.3 x 10) x 2 px");
        assert_eq!(full[17].abs().max_element(), 2.0);
        // held for 2.4 ticks between re-picks: ticks 0-2 share a pick
        assert_eq!(full[0], full[1]);
        assert_eq!(full[1].signum(), full[2].signum());
    }
}
