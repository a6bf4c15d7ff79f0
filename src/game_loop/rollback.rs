//! Ticks run by a rollback session (LAB.md Version 4 `--synctest`, NET.md): the loop hands
//! each tick's latched inputs to a [`TickDriver`], which drives the simulation through the
//! session's save, load and advance requests ([`RollbackSim`]); the last advance is the tick
//! itself, and only after it does the loop present, record and count the tick, exactly as an
//! undriven tick. The driver lives in the network room (`crate::net`); the loop names no
//! socket and no rollback library.
//!
//! Clock: fixed tick. A driven tick may simulate several ticks (a rollback re-simulates the
//! ticks after the one it loads) and ends on the tick after the one it started from.

use super::Loop;
use crate::input::latch::TickInput;
use crate::sim::cues::{CueBefore, tick_cues};
use crate::sim::{self, RaceOutcome, World};
use glam::DVec2;

/// What a rollback session may ask of the simulation during one driven tick.
pub trait RollbackSim {
    /// The world now, to keep (a clone), and its [`World::state_hash`].
    fn save(&mut self) -> (World, u64);
    /// Go back to a kept world.
    fn load(&mut self, world: &World);
    /// Run one tick on `inputs` (player order, one per player of the world); `left` marks the
    /// players whose peer has left the race by this tick (bit K − 1 for player K; kept in
    /// [`World::left`], never cleared).
    fn advance(&mut self, inputs: &[TickInput], left: u8);
}

/// A rollback session that runs the loop's ticks.
pub trait TickDriver {
    /// Run the next tick: `inputs` are every player's latched input for it (player order);
    /// drive `sim` with the session's requests, ending with the advance of this very tick.
    /// Returns false when the session could not advance (a stall: it waits for the other
    /// peers); a rollback may still have re-simulated the ticks already run.
    fn tick(&mut self, inputs: &[TickInput], sim: &mut dyn RollbackSim) -> bool;
}

/// The loop as a session sees it: its world, stepped on the session's inputs (with the
/// script's teleports: a teleport is part of the tick it happens in, so re-simulating that
/// tick teleports again), and — when the loop presents — the picture stepped with it: every
/// simulated tick, re-simulations included, moves the bodies' history, the camera and the
/// cosmetic layer as an undriven tick does, and a load puts back the picture kept with the
/// loaded tick. So once a tick is confirmed its picture is the offline replay's (LAB.md
/// Version 3), and what a mispredicted tick spawned (dust, a burst) vanishes with it.
struct Sim<'a> {
    lp: &'a mut Loop,
    out: RaceOutcome,
}

impl RollbackSim for Sim<'_> {
    fn save(&mut self) -> (World, u64) {
        if self.lp.presenting {
            self.lp.keep_shown();
        }
        (self.lp.world.clone(), self.lp.world.state_hash())
    }

    fn load(&mut self, world: &World) {
        self.lp.world.clone_from(world);
        if self.lp.presenting {
            self.lp.restore_shown();
        }
    }

    fn advance(&mut self, inputs: &[TickInput], left: u8) {
        let lp = &mut *self.lp;
        let k = lp.others.followed;
        let before = lp.presenting.then(|| lp.world.with_runner(k, |w| CueBefore::of(w)));
        let prev_tick = lp.world.tick;
        lp.world.left |= left;
        let next = lp.world.tick + 1;
        let hz = lp.config.tick_hz;
        self.out = match lp.teleports.iter().find(|(t, _)| *t == next) {
            Some(&(_, at)) => {
                let mut out = RaceOutcome::default();
                out[0] = sim::player::teleport(&mut lp.world, &lp.level, at, hz);
                out
            }
            None => sim::step_race(&mut lp.world, inputs, &lp.level, &lp.tuning, hz),
        };
        let Some(before) = before else { return };
        let out = self.out[k];
        let cues = lp.world.with_runner(k, |w| tick_cues(&before, w, &out));
        lp.present_tick(prev_tick, &self.out, cues);
        if lp.world.players() > 1 {
            lp.race_cues.push((lp.world.tick, cues));
        }
    }
}

/// Ticks a teleport is remembered for: longer than any rollback (ggrs's prediction window is
/// at most 8 here, a sync test's check distance at most 8).
const TELEPORT_MEMORY: u64 = 64;

impl Loop {
    /// Run one driven tick ([`Loop::frame_driven`]): `inputs` are every player's, `teleport`
    /// the script's for this tick. Returns every runner's outcome of the tick, or `None` when
    /// the session stalled (no tick ran; a rollback may have corrected the ticks already run).
    pub(super) fn driven_tick(
        &mut self,
        driver: &mut dyn TickDriver,
        inputs: &[TickInput],
        teleport: Option<DVec2>,
    ) -> Option<RaceOutcome> {
        let next = self.world.tick + 1;
        self.teleports.retain(|(t, _)| t + TELEPORT_MEMORY > next);
        if let Some(at) = teleport {
            self.teleports.push((next, at));
        }
        let mut sim = Sim { lp: self, out: RaceOutcome::default() };
        driver.tick(inputs, &mut sim).then_some(sim.out)
    }
}
