//! Full-view overlays on the tick: a flash at a death, a fade from black at a level start and
//! a respawn.
//!
//! Clock: fixed tick. Each keeps its opacity after the previous and the current tick, and a
//! frame draws `lerp(previous, current, alpha)`. Flashes are rate-limited at the source: a
//! flash starts only when none started in the last third of a second, so there are never more
//! than 3 in any second (WCAG 2.3.1, "Three Flashes or Below Threshold"), whatever the player
//! does; the flashes setting can turn them off altogether.

/// Opacity a death flash starts at (white over the view).
pub const FLASH_OPACITY: f64 = 0.35;
/// How long a flash lasts, seconds.
pub const FLASH_SECONDS: f64 = 0.15;
/// The fewest seconds between two flash starts: 3 a second at most (WCAG 2.3.1).
pub const FLASH_SPACING_S: f64 = 1.0 / 3.0;
/// A level start: from black, over this long, seconds.
pub const LEVEL_FADE_SECONDS: f64 = 0.5;
/// A respawn: from this opacity of black.
pub const RESPAWN_FADE_OPACITY: f64 = 0.6;
/// A respawn: over this long, seconds.
pub const RESPAWN_FADE_SECONDS: f64 = 0.3;

/// One overlay's opacity falling evenly from `from` to 0 over `life` ticks.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Overlay {
    /// Ticks since it started; `life` 0: none.
    age: u32,
    life: u32,
    from: f64,
    /// Opacity after the previous tick.
    pub prev: f64,
    /// Opacity after the current tick.
    pub curr: f64,
}

impl Overlay {
    /// Start at `from` opacity for `life` ticks (both ends at `from`: shown at once).
    pub fn start(from: f64, life: u32) -> Self {
        Overlay { age: 0, life: life.max(1), from, prev: from, curr: from }
    }

    /// One tick on.
    pub fn advance(&mut self) {
        if self.life == 0 {
            return;
        }
        self.prev = self.curr;
        if self.age >= self.life {
            *self = Overlay::default();
            return;
        }
        self.age += 1;
        self.curr = self.from * (1.0 - f64::from(self.age) / f64::from(self.life));
    }

    /// Opacity drawn at `alpha` (0: nothing to draw).
    pub fn draw(&self, alpha: f64) -> f64 {
        self.prev + (self.curr - self.prev) * alpha
    }

    /// Running (something may still be drawn).
    pub fn active(&self) -> bool {
        self.life > 0
    }
}

/// The death flash and its rate limit.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Flash {
    /// The flash.
    pub overlay: Overlay,
    /// World tick the last flash started in.
    last_start: Option<u64>,
}

impl Flash {
    /// A death in world tick `tick`: flash, unless one started less than
    /// [`FLASH_SPACING_S`] before. Returns whether it did.
    pub fn trigger(&mut self, tick: u64, tick_hz: u32) -> bool {
        let spacing = (FLASH_SPACING_S * f64::from(tick_hz.max(1))).ceil() as u64;
        if self.last_start.is_some_and(|t| tick < t + spacing && tick >= t) {
            return false;
        }
        self.last_start = Some(tick);
        self.overlay = Overlay::start(FLASH_OPACITY, super::particles::ticks(FLASH_SECONDS, tick_hz));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_more_than_three_flashes_in_any_second() {
        let mut f = Flash::default();
        // a death every tick for 5 s at 60 Hz
        let starts: Vec<u64> = (0..300).filter(|&t| f.trigger(t, 60)).collect();
        for w in starts.windows(4) {
            assert!(w[3] - w[0] >= 60, "four flash starts within a second: {w:?}");
        }
        assert_eq!(starts.len(), 15);
    }

    #[test]
    fn an_overlay_fades_evenly_and_ends() {
        let mut o = Overlay::start(0.6, 3);
        assert_eq!(o.draw(0.5), 0.6);
        o.advance();
        assert!((o.draw(0.5) - 0.5).abs() < 1e-12);
        o.advance();
        o.advance();
        assert_eq!(o.curr, 0.0);
        o.advance();
        assert!(!o.active());
        assert_eq!(o.draw(0.9), 0.0);
    }
}
