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
use crate::level::Level;
use crate::sim::cues::{CueBefore, CueSet, tick_cues};
use crate::sim::{self, RaceOutcome, Tuning, World};
use glam::DVec2;

/// What a rollback session may ask of the simulation during one driven tick.
pub trait RollbackSim {
    /// The world now, to keep (a clone), and its [`World::state_hash`].
    fn save(&self) -> (World, u64);
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

/// The loop's simulation as a session sees it: the world, what it needs to step, and the
/// teleports the script placed (a teleport is part of the tick it happens in, so re-simulating
/// that tick teleports again).
struct Sim<'a> {
    world: &'a mut World,
    level: &'a Level,
    tuning: &'a Tuning,
    tick_hz: u32,
    teleports: &'a [(u64, DVec2)],
    out: RaceOutcome,
    /// A race that presents: the followed runner (0-based) and where each simulated tick's
    /// cues for it go (re-simulations included: the sounds' ledger sorts them out).
    cues: Option<(usize, &'a mut Vec<(u64, CueSet)>)>,
}

impl RollbackSim for Sim<'_> {
    fn save(&self) -> (World, u64) {
        (self.world.clone(), self.world.state_hash())
    }

    fn load(&mut self, world: &World) {
        self.world.clone_from(world);
    }

    fn advance(&mut self, inputs: &[TickInput], left: u8) {
        let before = self.cues.as_ref().map(|&(k, _)| self.world.with_runner(k, |w| CueBefore::of(w)));
        self.advance_world(inputs, left);
        if let (Some(before), Some((k, list))) = (before, self.cues.as_mut()) {
            let out = self.out[*k];
            let cues = self.world.with_runner(*k, |w| tick_cues(&before, w, &out));
            list.push((self.world.tick, cues));
        }
    }
}

impl Sim<'_> {
    fn advance_world(&mut self, inputs: &[TickInput], left: u8) {
        self.world.left |= left;
        let next = self.world.tick + 1;
        self.out = match self.teleports.iter().find(|(t, _)| *t == next) {
            Some(&(_, at)) => {
                let mut out = RaceOutcome::default();
                out[0] = sim::player::teleport(self.world, self.level, at, self.tick_hz);
                out
            }
            None => sim::step_race(self.world, inputs, self.level, self.tuning, self.tick_hz),
        };
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
        let (with_cues, followed) = (self.presenting && self.world.players() > 1, self.others.followed);
        let mut sim = Sim {
            world: &mut self.world,
            level: &self.level,
            tuning: &self.tuning,
            tick_hz: self.config.tick_hz,
            teleports: &self.teleports,
            out: RaceOutcome::default(),
            cues: with_cues.then_some((followed, &mut self.race_cues)),
        };
        driver.tick(inputs, &mut sim).then_some(sim.out)
    }
}
