//! The picture a tick leaves: presenting one tick (the bodies' interpolation history, the other
//! runners', the camera, the cosmetic layer), and, in a race driven by a rollback session, that
//! picture kept with every saved tick and put back when the session loads it, so that
//! re-simulated ticks present exactly as the offline replay of the same inputs does.
//!
//! Clock: fixed tick (once per tick simulated, re-simulations included).

use super::Loop;
use super::look;
use crate::cosmetic::{Cosmetic, TickFacts};
use crate::level::HITBOX;
use crate::present::bodies::{Bodies, Track};
use crate::present::camera::Camera;
use crate::sim::RaceOutcome;
use crate::sim::cues::CueSet;
use std::collections::VecDeque;

/// Ticks of pictures kept for a rollback session: more than it ever loads back (ggrs's
/// prediction window and a sync test's check distance are at most 8).
const KEEP: usize = 16;

/// Everything presenting a tick changes.
#[derive(Clone, Debug)]
pub(super) struct Shown {
    bodies: Bodies,
    others: Track,
    camera: Camera,
    cosmetic: Cosmetic,
    prev_tick: u64,
}

/// The pictures of the last ticks a session saved, by tick.
pub(super) type ShownRing = VecDeque<(u64, Shown)>;

impl Loop {
    /// Present the tick just simulated (`prev_tick`: the tick before it; `outs`: every
    /// runner's outcome; `cues`: the followed runner's cues): the bodies' history, the other
    /// runners', the camera on the followed runner, the cosmetic layer with its facts.
    pub(super) fn present_tick(&mut self, prev_tick: u64, outs: &RaceOutcome, cues: CueSet) {
        self.prev_tick = prev_tick;
        if self.world.players() > 1 {
            self.after_race_tick(outs);
        }
        let respawned = outs[0].respawned;
        let k = self.others.followed;
        if self.presenting {
            self.bodies.after_tick(&self.world, respawned);
            let p = self.world.runner_view(k).player;
            self.camera.after_tick(&self.level, p.pos, HITBOX, p.on_ground, self.config.tick_hz);
            if k != 0 && outs[k].respawned {
                self.camera.snap(&self.level, p.pos, HITBOX);
            }
        }
        if respawned {
            // The player's history was reset above (both ends on the new side: no streak);
            // the goal's spin holds this tick's angle for the frame, as everything drawn does.
            self.prev_tick = self.world.tick;
            if self.presenting && k == 0 {
                self.camera.snap(&self.level, self.world.player.pos, HITBOX);
            }
        }
        if self.presenting {
            let out = outs[k];
            let (cosmetic, level, tuning, tick_hz) =
                (&mut self.cosmetic, &self.level, &self.tuning, self.config.tick_hz);
            self.world.with_runner(k, |w| {
                let facts = TickFacts {
                    world: w,
                    level,
                    out: &out,
                    cues,
                    wall_sliding: look::wall_sliding(w, tuning, tick_hz),
                    tick_hz,
                };
                cosmetic.after_tick(&facts);
            });
        }
    }

    /// Keep the picture of the current tick (a session saves it).
    pub(super) fn keep_shown(&mut self) {
        let tick = self.world.tick;
        self.shown.retain(|(t, _)| *t != tick);
        if self.shown.len() == KEEP {
            self.shown.pop_front();
        }
        let shown = Shown {
            bodies: self.bodies.clone(),
            others: self.others.track.clone(),
            camera: self.camera,
            cosmetic: self.cosmetic.clone(),
            prev_tick: self.prev_tick,
        };
        self.shown.push_back((tick, shown));
    }

    /// Put back the picture kept with the current tick (a session loaded it); nothing when none
    /// was kept (the picture then goes on from where it is).
    pub(super) fn restore_shown(&mut self) {
        let tick = self.world.tick;
        if let Some((_, s)) = self.shown.iter().find(|(t, _)| *t == tick) {
            self.bodies.clone_from(&s.bodies);
            self.others.track.clone_from(&s.others);
            self.camera = s.camera;
            self.cosmetic.clone_from(&s.cosmetic);
            self.prev_tick = s.prev_tick;
        }
    }
}
