//! The loop's time tools (LAB.md "Time tools"): the rewind tick — instead of stepping, restore
//! the state kept one tick earlier ([`crate::sim::rewind`]) and draw towards it with the same
//! interpolation — the game-speed setting ([`crate::time::speed`], applied in the stepper),
//! and the tick a ghost is drawn from ([`Loop::prev_tick`], [`crate::present::ghost`]).
//!
//! Clock: fixed tick (the rewind tick, called by `Loop::run_tick` for a tick with `rewind`
//! held after its events); event loop (the settings). Press edges of a rewind tick go nowhere
//! (no buffered jump fires after the release); a pending `teleport` waits for the first
//! forward tick.

use super::{Loop, PlayerState, TickRecord};
use crate::input::latch::TickInput;
use crate::sim::cues::CueSet;
use crate::time::GameSpeed;

impl Loop {
    /// Run one rewind tick with `input` (its held state; its edges are dropped).
    pub(super) fn rewind_tick(&mut self, input: TickInput) {
        // Interpolate every body from where it is now to the restored state: a motion
        // backwards, drawn with the same lerp as a forward tick.
        self.prev_tick = self.world.tick;
        let step = self.history.step_back(&mut self.world);
        self.bodies.after_tick(&self.world, false);
        self.restore_look(step.jumped);
        if step.jumped {
            // Undoing a respawn or teleport: the history jumps, so nothing streaks across it.
            self.bodies.snap_all(&self.world);
            self.prev_tick = self.world.tick;
        }
        self.totals.rewound_ticks += 1;
        self.ticks_this_frame.push(TickRecord {
            players: Vec::new(),
            tick: self.world.tick,
            player: PlayerState::from(&self.world.player),
            jump_started: false,
            respawned: false,
            rewound: true,
            loaded: false,
            died: false,
            entities: self.entity_records(),
            riding: (!self.world.entities.is_empty()).then_some(self.world.riding),
            sounds: CueSet::EMPTY,
            input,
        });
    }

    /// Run at `speed` from the next frame on (the game-speed assist; [`crate::time::speed`]).
    pub fn set_game_speed(&mut self, speed: GameSpeed) {
        self.stepper.set_speed(speed);
    }

    /// The invincibility assist on or off ([`crate::sim::World::invincible`]), now and for
    /// every level loaded after (kept across level changes and hot reloads; a race has none).
    pub fn set_invincible(&mut self, on: bool) {
        self.invincible = on;
        self.world.set_invincible(on);
    }

    /// The invincibility assist in force.
    pub fn invincible(&self) -> bool {
        self.invincible
    }

    /// The game speed in force.
    pub fn game_speed(&self) -> GameSpeed {
        self.stepper.speed()
    }

    /// Keep the rewind history (`true`, the default) or not: the lab turns it off for a script
    /// without a `rewind` event, which can never go back ([`crate::sim::rewind::Rewind::set_recording`]).
    /// Turned back on, it starts from the current state.
    pub fn set_rewind_history(&mut self, on: bool) {
        self.history.set_recording(on);
        self.look_history.set_recording(on);
        if on && self.history.is_empty() {
            self.history.restart(&self.world);
        }
        if on && self.look_history.is_empty() {
            let look = self.look();
            self.look_history.restart(look);
        }
    }

    /// Ticks that a rewind can still undo now (0: the history is used up).
    pub fn rewind_ticks_left(&self) -> usize {
        self.history.ticks_back()
    }

    /// The tick the drawn bodies are interpolated from towards the current one: the one before
    /// it, the one after it while rewinding, or the current tick itself after a reset. A ghost
    /// is drawn from its own state at this tick ([`crate::present::ghost`]).
    pub fn prev_tick(&self) -> u64 {
        self.prev_tick
    }

    /// The last tick run was a rewind tick: time is running backwards (the HUD's sign).
    pub fn rewinding(&self) -> bool {
        self.rewinding
    }

    /// The input the last tick run read (player 1's: held actions, the press edges it
    /// consumed, the stick), for the input display; nothing before the first tick.
    pub fn tick_input(&self) -> crate::sim::action::TickInput {
        self.tick_input
    }
}
