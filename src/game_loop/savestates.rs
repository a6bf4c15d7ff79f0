//! Savestates (LAB.md Version 4 "Savestates"; practice mode in the game): keep the whole
//! simulation state under a name, with the picture it had, and restore it later as often as
//! asked.
//!
//! Clock: event loop ([`Loop::savestate`] keeps the state after the last tick run, a tick
//! boundary; [`Loop::loadstate`] asks for a load) and fixed tick (the next tick restores the
//! kept state instead of stepping, like a rewind tick: its press edges go nowhere and what is
//! held stays held; `Loop::run_tick` calls [`Loop::load_tick`]).
//!
//! What a load keeps of the present: the run's statistics (jumps, respawns, deaths: a practice
//! run counts every death, as a rewind does), the latches (held input stays live), the tick
//! counter the latch numbers ticks by. Everything a tick reads comes from the savestate, so a
//! run that saves after tick T, plays on and loads ends on the straight run's `state_hash` at
//! T. The picture snaps: every body, the camera and the cosmetic layer are put where they were
//! at T, with nothing blended across the jump, and the rewind history restarts there.

use super::look::Look;
use super::{Loop, PlayerState, TickRecord};
use crate::input::latch::TickInput;
use crate::present::spin::goal_angle;
use crate::sim::World;
use crate::sim::cues::CueSet;
use std::collections::BTreeMap;

/// The most savestates kept at once: 1,024 (a savestate is one world, a few kilobytes on the
/// shipped levels; the game's practice mode uses a handful of slots).
pub const MAX_SAVESTATES: usize = 1024;

/// The longest savestate name, bytes: 64.
pub const MAX_SAVESTATE_NAME: usize = 64;

/// One kept state: the world and the picture after the tick it was kept at.
#[derive(Clone, Debug)]
struct Savestate {
    world: World,
    look: Look,
}

/// The loop's savestates by name, and the load the next tick performs.
#[derive(Clone, Debug, Default)]
pub(super) struct Savestates {
    kept: BTreeMap<String, Savestate>,
    pending_load: Option<String>,
}

/// A savestate could not be kept or loaded; displayed as one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SavestateError {
    /// `loadstate NAME` before any `savestate NAME`.
    #[error("no savestate named '{0}' has been saved")]
    Unknown(String),
    /// A new name past [`MAX_SAVESTATES`].
    #[error("more than {MAX_SAVESTATES} savestates")]
    TooMany,
}

impl Loop {
    /// Keep the state after the last tick run as `name` (replacing an earlier one of that
    /// name), with the picture it has now.
    ///
    /// # Errors
    /// [`SavestateError::TooMany`] for a new name when [`MAX_SAVESTATES`] are kept.
    pub fn savestate(&mut self, name: &str) -> Result<(), SavestateError> {
        let kept = &mut self.savestates.kept;
        if kept.len() >= MAX_SAVESTATES && !kept.contains_key(name) {
            return Err(SavestateError::TooMany);
        }
        let state = Savestate { world: self.world.clone(), look: self.look() };
        self.savestates.kept.insert(name.to_string(), state);
        Ok(())
    }

    /// Load `name` at the next tick: that tick restores it instead of stepping. A second call
    /// before that tick replaces the first.
    ///
    /// # Errors
    /// [`SavestateError::Unknown`] when no savestate of that name was kept.
    pub fn loadstate(&mut self, name: &str) -> Result<(), SavestateError> {
        if !self.savestates.kept.contains_key(name) {
            return Err(SavestateError::Unknown(name.to_string()));
        }
        self.savestates.pending_load = Some(name.to_string());
        Ok(())
    }

    /// A savestate named `name` is kept.
    pub fn has_savestate(&self, name: &str) -> bool {
        self.savestates.kept.contains_key(name)
    }

    /// Forget every savestate (a level change: they belong to the level they were made on).
    pub fn clear_savestates(&mut self) {
        self.savestates = Savestates::default();
    }

    /// The load the next tick performs, taken (so it runs once).
    pub(super) fn take_pending_load(&mut self) -> Option<String> {
        self.savestates.pending_load.take()
    }

    /// Run one load tick with `input` (its held state; its edges are dropped): restore the
    /// savestate `name` (kept: [`Loop::loadstate`] checked it) and snap the picture to it.
    pub(super) fn load_tick(&mut self, name: &str, input: TickInput) {
        let Some(state) = self.savestates.kept.get(name) else { return };
        let w = &mut self.world;
        let stats = (w.jumps, w.respawns, w.deaths);
        let others: Vec<_> = w.others.iter().map(|r| (r.jumps, r.respawns, r.deaths)).collect();
        w.clone_from(&state.world);
        (w.jumps, w.respawns, w.deaths) = stats;
        for (r, s) in w.others.iter_mut().zip(others) {
            (r.jumps, r.respawns, r.deaths) = s;
        }
        self.camera.restore(state.look.camera, true);
        self.cosmetic.restore(&state.look.cosmetic, true);
        self.rewinding = false;
        self.prev_tick = self.world.tick;
        self.bodies.snap_all(&self.world);
        self.others.snap(&self.world);
        self.drawn_goal_angle = goal_angle(self.world.tick, self.config.tick_hz);
        self.history.restart(&self.world);
        let look = self.look();
        self.look_history.restart(look);
        self.totals.loaded_ticks += 1;
        self.ticks_this_frame.push(TickRecord {
            players: self.runner_states(&Default::default()),
            tick: self.world.tick,
            player: PlayerState::from(&self.world.player),
            jump_started: false,
            respawned: false,
            rewound: false,
            loaded: true,
            died: false,
            entities: self.entity_records(),
            riding: (!self.world.entities.is_empty()).then_some(self.world.riding),
            sounds: CueSet::EMPTY,
            input,
        });
    }
}
