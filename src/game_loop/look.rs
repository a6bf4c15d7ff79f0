//! What the loop keeps of the picture beside the world: the tick-clock camera and cosmetic
//! layer, their rewind history, and the frame's drawn cosmetic items (LAB.md Version 3).
//!
//! Clock: fixed tick ([`LookHistory`] records after every forward tick and steps back on every
//! rewind tick, in step with the world's [`crate::sim::rewind::Rewind`]); render frame
//! ([`Loop::draw_look`] blends them with the frame's alpha). Nothing here is read by a tick or
//! hashed.

use super::Loop;
use crate::cosmetic::{Cosmetic, CosmeticDraw, CosmeticSettings, ShakeLevel};
use crate::present::camera::CameraState;
use crate::present::parallax::{self, ParallaxDraw};
use crate::sim::tuning::seconds_to_ticks;
use crate::sim::{Tuning, World};
use std::collections::VecDeque;

/// The picture's state after one tick: what a rewind restores of it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Look {
    /// The camera after the tick.
    pub camera: CameraState,
    /// The cosmetic layer after the tick.
    pub cosmetic: Cosmetic,
}

/// The picture's rewind history: one [`Look`] for every world state the loop's
/// [`crate::sim::rewind::Rewind`] keeps, recorded, dropped and stepped back with it (the same
/// capacity, the same on/off), so a rewind tick restores the camera and the effects that the
/// straight run had at the tick it goes back to (MBHaxe #22: blast particles outlived a rewind).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LookHistory {
    kept: VecDeque<Look>,
    capacity: usize,
    off: bool,
}

impl LookHistory {
    /// Empty, holding at most `capacity` looks (the world history's capacity).
    pub fn new(capacity: usize) -> Self {
        LookHistory { kept: VecDeque::new(), capacity: capacity.max(1), off: false }
    }

    /// Keep `look` as the newest (after a forward tick, or the starting state).
    pub fn record(&mut self, look: Look) {
        if self.off {
            return;
        }
        if self.kept.len() == self.capacity {
            self.kept.pop_front();
        }
        self.kept.push_back(look);
    }

    /// Keep a copy of `camera` and `cosmetic` as the newest look (after a forward tick). With
    /// the history full, the oldest look's buffers take the copy (`clone_from`): a tick
    /// allocates nothing once the history has filled, as the world's history does.
    pub fn record_from(&mut self, camera: CameraState, cosmetic: &Cosmetic) {
        if self.off {
            return;
        }
        if self.kept.len() == self.capacity {
            let mut slot = self.kept.pop_front().expect("capacity is at least 1");
            slot.camera = camera;
            slot.cosmetic.clone_from(cosmetic);
            self.kept.push_back(slot);
        } else {
            self.kept.push_back(Look { camera, cosmetic: cosmetic.clone() });
        }
    }

    /// Forget everything and keep only `look`.
    pub fn restart(&mut self, look: Look) {
        self.kept.clear();
        self.record(look);
    }

    /// Keep looks or not (off drops them all), as the world history does.
    pub fn set_recording(&mut self, on: bool) {
        self.off = !on;
        if self.off {
            self.kept.clear();
        }
    }

    /// Nothing held.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// One rewind tick: drop the newest look when two or more are held (as the world history
    /// does), and return the one now newest, if any.
    pub fn step_back(&mut self) -> Option<&Look> {
        if self.kept.len() >= 2 {
            self.kept.pop_back();
        }
        self.kept.back()
    }
}

impl Loop {
    /// What the cosmetic layer draws (effects, shake, flashes; the settings menu, the lab's
    /// `config effects|shake|flashes`). Read only when a frame is drawn: never by a tick.
    pub fn set_cosmetic_settings(&mut self, settings: CosmeticSettings) {
        self.cosmetic_settings = settings;
    }

    /// The cosmetic settings in force.
    pub fn cosmetic_settings(&self) -> CosmeticSettings {
        self.cosmetic_settings
    }

    /// The picture after the current tick, for the history.
    pub(super) fn look(&self) -> Look {
        Look { camera: self.camera.state(), cosmetic: self.cosmetic.clone() }
    }

    /// A rewind tick restored the world: restore the picture kept with it (`jumped`: the step
    /// crossed a reset, so snap).
    pub(super) fn restore_look(&mut self, jumped: bool) {
        if let Some(look) = self.look_history.step_back() {
            self.camera.restore(look.camera, jumped);
            self.cosmetic.restore(&look.cosmetic, jumped);
        }
    }

    /// Blend the camera and the cosmetic layer with the frame's `alpha`.
    pub(super) fn draw_look(&mut self, alpha: f64) {
        let centre = self.camera.draw(alpha);
        let s = self.cosmetic_settings;
        // Reduced motion also stops the shake (LAB.md `config reduced_motion 1`).
        let shake = if self.camera.reduced_motion { ShakeLevel::Off } else { s.shake };
        self.cosmetic.draw(alpha, s.effects, s.flashes, shake, centre, &mut self.cosmetic_draw);
    }

    /// The player's last tick ended in a wall slide: the wall-jump grace window was opened in
    /// full by it ([`crate::sim::wall`] rule 4).
    pub(super) fn wall_sliding(&self) -> bool {
        wall_sliding(&self.world, &self.tuning, self.config.tick_hz)
    }

    /// The cosmetic layer as last drawn: effects, the player's scale, the shake.
    pub fn cosmetic_draw(&self) -> &CosmeticDraw {
        &self.cosmetic_draw
    }

    /// The parallax layers as last drawn, back to front ([`crate::present::parallax`]).
    pub fn parallax(&self) -> [ParallaxDraw; 3] {
        parallax::layers(self.view().view_top_left(), self.level.size_px())
    }
}

/// `world`'s player's last tick ended in a wall slide ([`Loop::wall_sliding`]'s rule, for
/// whichever runner is in the player's fields).
pub(super) fn wall_sliding(world: &World, tuning: &Tuning, tick_hz: u32) -> bool {
    let p = &world.player;
    let grace = seconds_to_ticks(tuning.wall_jump_grace, tick_hz);
    !p.on_ground && p.wall.side != 0 && grace > 0 && p.wall.grace == grace
}
