//! Practice savestates in the game (SpeedrunTool's savestates, built in): with practice on
//! (Settings → "Savestates", `display.practice`), the save key (F7, or the left stick click
//! on a pad) keeps the whole game state and the load key (F8, the right stick click) loads it
//! back, as often as you like (both rebindable: `[keys.practice]`, the settings page), through the loop's savestates (LAB.md Version 4
//! `savestate NAME` / `loadstate NAME`): a load snaps the picture and keeps held input, like a
//! rewind. A recording writes the same two lines, so it replays to the same hash. A level run
//! that loaded a state is practice: never a personal best, never a ghost
//! ([`crate::timer::RunAssists::practice`]). A new level, a restart and a hot reload forget the
//! state; a race has none.
//!
//! Clock: event loop (a key press between two frames: a save keeps the state after the last
//! tick run, a load happens in the next tick).

use super::App;
use super::session::Mode;
use std::time::Duration;

/// The one practice slot's savestate name (LAB.md's NAME rule: `[A-Za-z0-9._-]`).
pub(super) const SLOT: &str = "practice";

/// How long the HUD says "state saved" / "state loaded" (`App::practice`, a
/// [`super::moment::Moment`]).
pub(super) const NOTICE_FOR: Duration = Duration::from_millis(1500);

impl App {
    /// Practice is on and usable now: the setting, a level being played, no race.
    fn practice_ready(&mut self) -> bool {
        if self.session.mode != Mode::Playing || self.race.is_some() {
            return false;
        }
        if !self.opts.save.settings().display.practice {
            self.practice.show("savestates are off: Settings → Savestates");
            return false;
        }
        true
    }

    /// The save key (F7 by default): keep the state after the last tick run (replacing the one
    /// kept).
    pub(super) fn practice_save(&mut self) {
        if !self.practice_ready() {
            return;
        }
        match self.game.savestate(SLOT) {
            Ok(()) => {
                if let Some(r) = &mut self.recorder {
                    r.savestate(SLOT);
                }
                self.practice.show("state saved");
            }
            Err(e) => log::error!("savestate: {e}"),
        }
    }

    /// The load key (F8 by default): load the kept state in the next tick; the level's run
    /// becomes practice.
    pub(super) fn practice_load(&mut self) {
        if !self.practice_ready() {
            return;
        }
        if self.game.loadstate(SLOT).is_err() {
            self.practice.show("no state saved yet");
            return;
        }
        if let Some(r) = &mut self.recorder {
            r.loadstate(SLOT);
        }
        self.session.note_practice();
        // Its tick script no longer plays the run from the start: never a ghost.
        self.ghosts.drop_attempt();
        self.practice.show("state loaded");
    }
}
