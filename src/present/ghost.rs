//! A ghost: a recorded run's player, drawn beside the live one (LAB.md "Time tools", `ghost`).
//!
//! Clock: built once before play (a [`GhostTrack`] holds the recorded run's player after each
//! of its ticks); read once a render frame ([`GhostTrack::drawn`]). The ghost is aligned by
//! tick number: its tick n is drawn at the live run's tick n, between the live run's previous
//! and current tick with the frame's one alpha, through the same [`lerp`] as every other body
//! ([`super::bodies`]) — so it slows with the game speed and goes back with a rewind. It is
//! presentation only: nothing here touches a `World`, so the live `state_hash` never sees it.

use super::interp::lerp;
use super::view::{PlayerDraw, PlayerPose};
use crate::level::HITBOX;
use glam::DVec2;

/// The recorded player after one tick of the ghost's run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GhostTick {
    /// Hitbox top-left, pixels.
    pub pos: DVec2,
    /// Respawned or teleported in this tick: drawn without a streak from the tick before.
    pub snapped: bool,
    /// Facing left (the sprite mirrored).
    pub facing_left: bool,
    /// Animation cell.
    pub pose: PlayerPose,
    /// The runner died in this tick (its death spot is the tick before's position: this
    /// tick already stands at the respawn point).
    pub died: bool,
}

/// The ghost's run as it finally stands: the player after each tick, by tick number (index 0 is
/// the start, before tick 1). A rewind in the recorded run replaces the ticks it undid: the
/// track is the timeline the run ended on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GhostTrack {
    ticks: Vec<GhostTick>,
}

impl GhostTrack {
    /// A track starting at `start` (hitbox top-left, pixels; tick 0), standing and facing right.
    pub fn new(start: DVec2) -> GhostTrack {
        let first =
            GhostTick { pos: start, snapped: true, facing_left: false, pose: PlayerPose::Idle, died: false };
        GhostTrack { ticks: vec![first] }
    }

    /// Note the player after tick `tick`. A tick number at or below the last one (a rewind in
    /// the recorded run, going back) drops everything from that tick on first, so the track
    /// keeps the run's final timeline; a gap (never produced by a loop) repeats the last state.
    pub fn push(&mut self, tick: u64, state: GhostTick) {
        let n = usize::try_from(tick).unwrap_or(usize::MAX);
        self.ticks.truncate(n);
        if self.ticks.is_empty() {
            self.ticks.push(state);
            return;
        }
        while self.ticks.len() < n {
            let last = *self.ticks.last().expect("a track always has tick 0");
            self.ticks.push(last);
        }
        self.ticks.push(state);
    }

    /// The last tick of the run.
    pub fn last_tick(&self) -> u64 {
        self.ticks.len().saturating_sub(1) as u64
    }

    /// Where the run died: each death's tick and the hitbox top-left (pixels) the tick before
    /// it, in tick order (the death tick itself already stands at the respawn point).
    pub fn deaths(&self) -> Vec<(u64, DVec2)> {
        self.ticks
            .windows(2)
            .enumerate()
            .filter(|(_, w)| w[1].died)
            .map(|(i, w)| (i as u64 + 1, w[0].pos))
            .collect()
    }

    /// The player after tick `tick`, if the run got that far.
    pub fn at(&self, tick: u64) -> Option<&GhostTick> {
        self.ticks.get(usize::try_from(tick).ok()?)
    }

    /// Where the ghost is drawn when the live run interpolates from its tick `prev` to its tick
    /// `curr` at `alpha`: `lerp(track[prev], track[curr], alpha)`, or `track[curr]` alone when
    /// the ghost snapped between the two (its respawn or teleport, forwards or backwards), or
    /// when `prev` is past the ghost's end. `None` once `curr` is past the ghost's last tick.
    /// Facing and pose are the ghost's at `curr`, never blended.
    pub fn drawn(&self, prev: u64, curr: u64, alpha: f64) -> Option<PlayerDraw> {
        let now = self.at(curr)?;
        let from = match self.at(prev) {
            Some(p) if !self.snapped_between(prev, curr) => p.pos,
            _ => now.pos,
        };
        Some(PlayerDraw {
            pos: lerp(from, now.pos, alpha),
            hitbox: HITBOX,
            facing_left: now.facing_left,
            pose: now.pose,
        })
    }

    /// A tick in (min, max] of `a` and `b` snapped: no motion to blend across.
    fn snapped_between(&self, a: u64, b: u64) -> bool {
        let (lo, hi) = (a.min(b), a.max(b));
        (lo + 1..=hi).any(|t| self.at(t).is_some_and(|g| g.snapped))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tick(x: f64, snapped: bool) -> GhostTick {
        GhostTick {
            pos: DVec2::new(x, 10.0),
            snapped,
            facing_left: false,
            pose: PlayerPose::Idle,
            died: false,
        }
    }

    fn track() -> GhostTrack {
        let mut t = GhostTrack::new(DVec2::new(0.0, 10.0));
        for n in 1..=5 {
            t.push(n, tick(n as f64 * 2.0, false));
        }
        t
    }

    #[test]
    fn drawn_between_two_ticks_with_the_frames_alpha_and_none_past_the_end() {
        let t = track();
        assert_eq!(t.last_tick(), 5);
        let d = t.drawn(2, 3, 0.25).expect("in range");
        assert_eq!(d.pos, lerp(DVec2::new(4.0, 10.0), DVec2::new(6.0, 10.0), 0.25));
        // Going back (a rewind of the live run): from tick 3 towards tick 2.
        assert_eq!(t.drawn(3, 2, 0.5).expect("in range").pos, DVec2::new(5.0, 10.0));
        // At its last tick and past it.
        assert_eq!(t.drawn(4, 5, 0.0).expect("last").pos.x, 8.0);
        assert_eq!(t.drawn(5, 6, 0.0), None);
        assert_eq!(t.drawn(5, 5, 0.9).expect("holding").pos.x, 10.0);
    }

    #[test]
    fn a_respawn_in_the_ghosts_run_snaps_both_ways() {
        let mut t = track();
        t.push(6, tick(100.0, true));
        assert_eq!(t.drawn(5, 6, 0.3).expect("in range").pos.x, 100.0);
        assert_eq!(t.drawn(6, 5, 0.3).expect("in range").pos.x, 10.0);
        assert!(t.deaths().is_empty(), "a respawn that is no death");
        t.push(7, tick(120.0, false));
        t.push(8, GhostTick { died: true, ..tick(100.0, true) });
        assert_eq!(t.deaths(), [(8, DVec2::new(120.0, 10.0))], "where it stood the tick before");
    }

    #[test]
    fn a_rewind_in_the_recorded_run_keeps_the_final_timeline() {
        let mut t = track();
        // The recorded run went back to tick 3 (restoring it), then on to a new tick 4.
        t.push(3, tick(6.0, false));
        t.push(4, tick(-1.0, false));
        assert_eq!(t.last_tick(), 4);
        assert_eq!(t.at(4).expect("tick 4").pos.x, -1.0);
        assert_eq!(t.at(5), None);
        // All the way back to the start.
        t.push(0, tick(0.5, false));
        assert_eq!((t.last_tick(), t.at(0).expect("tick 0").pos.x), (0, 0.5));
    }
}
