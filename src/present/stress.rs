//! `--stress N`: N extra sprites bouncing around the view, to measure the renderer's batching.
//!
//! Clock: fixed tick for the motion (stepped once per tick the loop ran, with the tick's dt,
//! previous positions kept), render frame for drawing (`lerp(prev, curr, alpha)`, through the
//! same [`Track`] as every drawn body), so the stress sprites obey the same rules as the player — unlike the wgpu bunnymark, which moves
//! its sprites inside `render` with a hard-coded delta. They live in view coordinates (offset
//! from the camera's top-left) so they stay on screen as the camera moves, and they never touch
//! the simulation or its state hash.

use crate::present::bodies::Track;
use crate::present::view::VIEW_SIZE;
use glam::DVec2;

/// Edge of one stress sprite, pixels (a 16 x 16 atlas tile).
pub const STRESS_SPRITE: f64 = 16.0;

/// N sprites with positions (view pixels, top-left) and velocities (px/s).
#[derive(Clone, Debug, PartialEq)]
pub struct StressField {
    track: Track,
    vel: Vec<DVec2>,
}

/// xorshift64* (Vigna): a small deterministic generator for the initial scatter.
fn next(state: &mut u64) -> f64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
}

impl StressField {
    /// `n` sprites scattered over the view with speeds 30..200 px/s in random directions,
    /// the same for the same `seed`.
    pub fn new(n: usize, seed: u64) -> Self {
        let mut s = seed | 1;
        let room = VIEW_SIZE - DVec2::splat(STRESS_SPRITE);
        let curr: Vec<DVec2> =
            (0..n).map(|_| DVec2::new(next(&mut s) * room.x, next(&mut s) * room.y)).collect();
        let vel = (0..n)
            .map(|_| {
                let a = next(&mut s) * std::f64::consts::TAU;
                DVec2::new(a.cos(), a.sin()) * (30.0 + 170.0 * next(&mut s))
            })
            .collect();
        let mut track = Track::default();
        track.snap_to(curr);
        StressField { track, vel }
    }

    /// How many sprites.
    pub fn len(&self) -> usize {
        self.track.curr().len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.track.curr().is_empty()
    }

    /// One fixed tick of `dt` seconds: keep the previous positions, move, bounce off the view's
    /// edges.
    pub fn step(&mut self, dt: f64) {
        let room = VIEW_SIZE - DVec2::splat(STRESS_SPRITE);
        let vel = &mut self.vel;
        self.track.advance_with(|i, p| {
            let v = &mut vel[i];
            *p += *v * dt;
            for axis in 0..2 {
                if p[axis] < 0.0 {
                    p[axis] = -p[axis];
                    v[axis] = v[axis].abs();
                } else if p[axis] > room[axis] {
                    p[axis] = 2.0 * room[axis] - p[axis];
                    v[axis] = -v[axis].abs();
                }
            }
        });
    }

    /// Drawn positions in level pixels for a view whose top-left is `view_origin`:
    /// `view_origin + lerp(prev, curr, alpha)`, written into `out` (cleared first).
    pub fn drawn(&self, alpha: f64, view_origin: DVec2, out: &mut Vec<DVec2>) {
        self.track.drawn(alpha, view_origin, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprites_stay_in_view_and_interpolate_between_ticks() {
        let mut f = StressField::new(500, 7);
        assert_eq!(f, StressField::new(500, 7), "deterministic");
        for _ in 0..600 {
            f.step(1.0 / 60.0);
        }
        let room = VIEW_SIZE - DVec2::splat(STRESS_SPRITE);
        assert!(f.track.curr().iter().all(|p| p.x >= 0.0 && p.y >= 0.0 && p.x <= room.x && p.y <= room.y));
        let mut out = Vec::new();
        f.drawn(0.0, DVec2::new(100.0, 50.0), &mut out);
        assert_eq!(out[3], f.track.prev()[3] + DVec2::new(100.0, 50.0));
        f.drawn(0.5, DVec2::ZERO, &mut out);
        assert_eq!(out[3], (f.track.prev()[3] + f.track.curr()[3]) / 2.0);
        assert_eq!(out.len(), 500);
    }
}
