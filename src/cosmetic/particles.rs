//! Particles: dust, burst orbs, debris, sparks and puffs, each a pure function of its age in
//! ticks.
//!
//! Clock: fixed tick. A particle is made in the tick of its event with its whole flight fixed
//! then (origin, velocity or direction, life, size, drawn from [`super::noise`]); every tick
//! [`Particle::advance`] copies its current position and size to the previous ones and
//! evaluates the flight at the new age, and a frame draws `lerp(previous, current, alpha)`.
//! A new particle starts with both ends at its origin (nothing to blend from).

use super::noise::{Event, range};
use crate::present::view::{EffectDraw, EffectKind};
use glam::DVec2;

/// How a particle moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Flight {
    /// Launched at `vel` (px/s) and slowing evenly to rest at the end of its life, plus
    /// `gravity` (px/s², down): dust, debris, sparks, puffs.
    Drift {
        /// Launch velocity, px/s.
        vel: DVec2,
        /// Downward acceleration, px/s².
        gravity: f64,
    },
    /// Out from (or, `inward`, in to) the origin along the unit vector `dir`, `radius` px at
    /// the far end, on Celeste's `Ease.CubeOut` (`DeathEffect.cs`: 8 orbs, 24 px at 320 x 180,
    /// over 0.83 s; Ledge draws at 2x).
    Ring {
        /// Unit direction.
        dir: DVec2,
        /// Distance at the far end, px.
        radius: f64,
        /// Converging (a respawn) rather than bursting out (a death).
        inward: bool,
    },
}

/// One particle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Particle {
    /// Identity: the (tick, event, index) hash it was made from, so a rewind can match the
    /// particle in the state it goes back to.
    pub id: u64,
    /// What it is (its colour).
    pub kind: EffectKind,
    /// Where its flight starts (a ring's centre), level pixels.
    pub origin: DVec2,
    /// How it moves.
    pub flight: Flight,
    /// Ticks since it was made.
    pub age: u32,
    /// Ticks it lives: it is removed the tick after its age reaches this.
    pub life: u32,
    /// Edge length at birth, pixels: drifting particles shrink evenly to 0; ring orbs keep it
    /// and shrink over the last 30 % of their life.
    pub size0: f64,
    /// Centre after the previous tick, pixels.
    pub prev: DVec2,
    /// Centre after the current tick, pixels.
    pub curr: DVec2,
    /// Size after the previous tick, pixels.
    pub prev_size: f64,
    /// Size after the current tick, pixels.
    pub curr_size: f64,
}

/// Celeste's `Ease.CubeOut`: 1 − (1 − p)³.
fn cube_out(p: f64) -> f64 {
    1.0 - (1.0 - p).powi(3)
}

impl Particle {
    /// A particle made now (age 0) at `origin`; `id` from [`super::noise::bits`].
    pub fn new(id: u64, kind: EffectKind, origin: DVec2, flight: Flight, life: u32, size0: f64) -> Self {
        let mut p = Particle {
            id,
            kind,
            origin,
            flight,
            age: 0,
            life: life.max(1),
            size0,
            prev: origin,
            curr: origin,
            prev_size: size0,
            curr_size: size0,
        };
        (p.curr, p.curr_size) = p.at(0, 60);
        (p.prev, p.prev_size) = (p.curr, p.curr_size);
        p
    }

    /// Centre and size at `age` ticks, at `tick_hz`.
    fn at(&self, age: u32, tick_hz: u32) -> (DVec2, f64) {
        let p = (f64::from(age) / f64::from(self.life)).min(1.0);
        match self.flight {
            Flight::Drift { vel, gravity } => {
                let hz = f64::from(tick_hz.max(1));
                let (t, life) = (f64::from(age) / hz, f64::from(self.life) / hz);
                let t = t.min(life);
                let pos =
                    self.origin + vel * (t - t * t / (2.0 * life)) + DVec2::new(0.0, 0.5 * gravity * t * t);
                (pos, self.size0 * (1.0 - p))
            }
            Flight::Ring { dir, radius, inward } => {
                let reach = if inward { 1.0 - cube_out(p) } else { cube_out(p) };
                let size = self.size0 * (1.0 - ((p - 0.7) / 0.3).max(0.0));
                (self.origin + dir * radius * reach, size)
            }
        }
    }

    /// One tick on: the current end becomes the previous one. Returns false once the
    /// particle's life is over (remove it).
    pub fn advance(&mut self, tick_hz: u32) -> bool {
        if self.age >= self.life {
            return false;
        }
        self.age += 1;
        self.prev = self.curr;
        self.prev_size = self.curr_size;
        (self.curr, self.curr_size) = self.at(self.age, tick_hz);
        true
    }

    /// As drawn at `alpha`.
    pub fn draw(&self, alpha: f64) -> EffectDraw {
        EffectDraw {
            kind: self.kind,
            pos: crate::present::interp::lerp(self.prev, self.curr, alpha),
            size: self.prev_size + (self.curr_size - self.prev_size) * alpha,
            opacity: 1.0,
        }
    }
}

/// Ticks in `seconds` at `tick_hz`, at least 1.
pub fn ticks(seconds: f64, tick_hz: u32) -> u32 {
    crate::sim::tuning::seconds_to_ticks(seconds, tick_hz).max(1)
}

/// What a spray of drifting particles looks like: how many, where, how fast, how long.
#[derive(Clone, Copy, Debug)]
pub struct Spray {
    /// What they are.
    pub kind: EffectKind,
    /// The event (its noise stream).
    pub event: Event,
    /// How many.
    pub count: u64,
    /// Centre of the spawn area, pixels.
    pub at: DVec2,
    /// Half-size of the spawn area, pixels (x, y).
    pub spread: DVec2,
    /// Launch direction range, radians (0 = right, −π/2 = up; y grows downward).
    pub angle: (f64, f64),
    /// Launch speed range, px/s.
    pub speed: (f64, f64),
    /// Life range, seconds.
    pub life: (f64, f64),
    /// Size at birth, pixels.
    pub size: f64,
    /// Downward acceleration, px/s².
    pub gravity: f64,
}

impl Spray {
    /// Add the spray's particles, made in `tick` (world tick) with `salt` keeping two sprays
    /// of one event apart (an entity id), to `out`.
    pub fn emit(&self, tick: u64, salt: u64, tick_hz: u32, out: &mut Vec<Particle>) {
        for i in 0..self.count {
            let index = salt.wrapping_mul(64).wrapping_add(i);
            let r = |k: u64, lo: f64, hi: f64| range(tick, self.event, index, k, lo, hi);
            let at = self.at
                + DVec2::new(r(0, -self.spread.x, self.spread.x), r(1, -self.spread.y, self.spread.y));
            let angle = r(2, self.angle.0, self.angle.1);
            let vel = DVec2::new(angle.cos(), angle.sin()) * r(3, self.speed.0, self.speed.1);
            let life = ticks(r(4, self.life.0, self.life.1), tick_hz);
            let id = super::noise::bits(tick, self.event, index);
            let flight = Flight::Drift { vel, gravity: self.gravity };
            out.push(Particle::new(id, self.kind, at, flight, life, self.size));
        }
    }
}

/// Add a ring of `count` orbs around `centre` (a death burst out, a respawn in), made in
/// `tick`: evenly spaced, no randomness (Celeste's `DeathEffect`).
pub fn ring(
    tick: u64,
    event: Event,
    centre: DVec2,
    inward: bool,
    seconds: f64,
    tick_hz: u32,
    out: &mut Vec<Particle>,
) {
    const ORBS: u64 = 8;
    let (radius, size) = if inward { (32.0, 6.0) } else { (48.0, 8.0) };
    for i in 0..ORBS {
        let a = std::f64::consts::TAU * i as f64 / ORBS as f64;
        let flight = Flight::Ring { dir: DVec2::new(a.cos(), a.sin()), radius, inward };
        let id = super::noise::bits(tick, event, i);
        out.push(Particle::new(id, EffectKind::Burst, centre, flight, ticks(seconds, tick_hz), size));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drift_slows_to_rest_and_shrinks_to_nothing() {
        let flight = Flight::Drift { vel: DVec2::new(30.0, 0.0), gravity: 0.0 };
        let mut p = Particle::new(1, EffectKind::Dust, DVec2::ZERO, flight, 30, 4.0);
        assert_eq!((p.prev, p.curr, p.curr_size), (DVec2::ZERO, DVec2::ZERO, 4.0));
        let mut xs = vec![];
        while p.advance(60) {
            xs.push(p.curr.x);
            let mid = p.draw(0.5);
            assert!((mid.pos.x - (p.prev.x + p.curr.x) / 2.0).abs() < 1e-12);
        }
        assert_eq!(xs.len(), 30);
        // 30 px/s for 0.5 s, slowing evenly to rest: 7.5 px.
        assert!((xs[29] - 7.5).abs() < 1e-9);
        assert!(xs.windows(2).all(|w| w[1] > w[0]));
        assert_eq!(p.curr_size, 0.0);
    }

    #[test]
    fn a_death_ring_reaches_its_radius_at_the_end() {
        let mut out = vec![];
        ring(10, Event::Death, DVec2::new(100.0, 100.0), false, 0.83, 60, &mut out);
        assert_eq!(out.len(), 8);
        let mut p = out[2];
        assert_eq!(p.life, 50);
        while p.advance(60) {}
        assert!((p.curr - DVec2::new(100.0, 148.0)).length() < 1e-9, "{:?}", p.curr);
        let mut out2 = vec![];
        ring(10, Event::Death, DVec2::new(100.0, 100.0), false, 0.83, 60, &mut out2);
        assert_eq!(out, out2, "no randomness");
    }
}
