//! The app's hooks into the saved data ([`crate::save`]): the input maps from the settings'
//! bindings, and the progress saved when a level's goal is reached.
//!
//! Clock: event loop ([`input_maps`] once before it starts; [`App::save_progress`] on the
//! frame that sees the goal, where it blocks for the save's `fsync`s).

use super::App;
use crate::input::bindmap::PracticeMap;
use crate::input::gamepad::{PadMap, Pads, button};
use crate::input::keyboard::{KeyMap, Keyboard, key_code};
use crate::save::{Store, level_id};

/// The keyboard of the settings' bindings and practice keys, and the pad maps put into
/// `pads`. A name that is no bindable key or button is left out with one warning line on
/// stderr naming the settings file.
pub fn input_maps(store: &Store, pads: &mut Pads) -> Keyboard {
    let keys = &store.settings().keys;
    let (keyboard, unknown) = KeyMap::keyboard(&keys.keyboard);
    let (pad, more) = PadMap::pad(&keys.pad);
    let mut lines: Vec<String> = unknown.iter().chain(&more).map(ToString::to_string).collect();
    let (practice_keys, more) = PracticeMap::from_binds(&keys.practice.keyboard, "keyboard", key_code);
    lines.extend(more);
    let (practice_pad, more) = PracticeMap::from_binds(&keys.practice.pad, "pad", button);
    lines.extend(more);
    let file = store.settings_file().map_or_else(|| "settings".to_owned(), |p| p.display().to_string());
    for u in lines {
        eprintln!("ledge: warning: {file}: {u}");
    }
    pads.set_map(pad);
    pads.set_practice(practice_pad);
    Keyboard::with_maps(keyboard, practice_keys)
}

impl App {
    /// The progress id of the level being played ([`level_id`]).
    pub(super) fn level_id(&self) -> String {
        let shipped = crate::assets::assets_dir().ok().map(|a| a.join("levels"));
        level_id(&self.session.level_path, shipped.as_deref())
    }

    /// The current level's goal was reached: note its time, deaths and the next level as
    /// unlocked in the progress, and save it (one warning line if that fails; the game goes
    /// on either way). A run with an assist only unlocks the next level.
    pub(super) fn save_progress(&mut self) {
        let world = self.game.world();
        let (ticks, deaths) = (self.session.level_ticks(world), self.session.level_deaths(world));
        let segments: Vec<(String, u64)> =
            self.session.segments().splits().into_iter().map(|(end, t)| (end.key(), t)).collect();
        self.note_progress(ticks, deaths, self.session.assists().any(), &segments);
    }

    /// The skip-level assist: the next level unlocked in the progress, no record of this one.
    pub(super) fn skip_progress(&mut self) {
        self.note_progress(0, 0, true, &[]);
    }

    /// Note the level's finish in `ticks` with `deaths` and its `segments` (where each ended,
    /// ticks), or with `assisted` only the unlock, and save it.
    fn note_progress(&mut self, ticks: u64, deaths: u64, assisted: bool, segments: &[(String, u64)]) {
        let shipped = crate::assets::assets_dir().ok().map(|a| a.join("levels"));
        let id = self.level_id();
        let next = super::next_level_path(&self.session.level_path).map(|p| level_id(&p, shipped.as_deref()));
        if let Err(w) = self.opts.save.finish_level(&id, ticks, deaths, next.as_deref(), assisted, segments) {
            eprintln!("ledge: warning: {w}");
        }
    }
}
