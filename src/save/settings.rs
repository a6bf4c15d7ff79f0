//! `settings.toml`: the player's volumes, display choices and key bindings, human-readable
//! and hand-editable, with a `version` field.
//!
//! Clock: none (read when the game starts, written when a setting changes).
//!
//! Bindings map each action to the names of the keys or buttons that hold it. Keyboard names
//! are the W3C UI Events `KeyboardEvent.code` values that winit's `KeyCode` variants follow
//! (`KeyA`, `ArrowLeft`, `Space`, `Digit1`, ...: the *physical* key, so WASD stays WASD on
//! AZERTY); pad names are gilrs' `Button` names (`South`, `DPadLeft`, ...). A key may hold
//! several actions (by default Up and W hold both `up` and `jump`). The input adapters turn
//! the names into their device's codes (`input::keyboard::KeyMap`); a name they do not know is
//! a warning there, not a bad file (a newer Ledge may know more keys).

use crate::sim::action::Action;
use serde::{Deserialize, Serialize};

/// The settings format this build writes and the newest it reads.
pub const SETTINGS_VERSION: i64 = 1;

/// Everything in `settings.toml`. Every field is required: a file cut off at a line boundary
/// misses one and is caught as bad rather than silently half-read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Format version ([`SETTINGS_VERSION`]).
    pub version: i64,
    /// `[volume]`.
    pub volume: Volume,
    /// `[display]`.
    pub display: Display,
    /// `[keys.keyboard]` and `[keys.pad]`.
    pub keys: Keys,
}

/// Volumes, each a linear gain in 0..=1 (stored now; the audio that uses them comes later).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Volume {
    /// Everything.
    pub master: f64,
    /// The music loops.
    pub music: f64,
    /// Sound effects.
    pub effects: f64,
}

/// Display and comfort choices; command-line flags override them for one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Display {
    /// Wait for the display when presenting (`--vsync on|off`).
    pub vsync: bool,
    /// Start in borderless fullscreen (F11 / Alt+Enter toggle it while playing).
    pub fullscreen: bool,
    /// Frame limiter in Hz (`--fps-cap`); 0 = none.
    pub fps_cap: f64,
    /// No camera easing (`--reduced-motion`).
    pub reduced_motion: bool,
}

/// Key bindings for each device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Keys {
    /// Keyboard: physical key names (`KeyboardEvent.code`).
    pub keyboard: Bindings,
    /// Gamepad: gilrs button names.
    pub pad: Bindings,
}

/// For each [`Action`], the names of the keys or buttons that hold it (empty: unbound).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bindings {
    /// [`Action::Left`].
    pub left: Vec<String>,
    /// [`Action::Right`].
    pub right: Vec<String>,
    /// [`Action::Up`].
    pub up: Vec<String>,
    /// [`Action::Down`].
    pub down: Vec<String>,
    /// [`Action::Jump`].
    pub jump: Vec<String>,
    /// [`Action::Rewind`] (held).
    pub rewind: Vec<String>,
}

fn names(keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| (*k).to_owned()).collect()
}

impl Bindings {
    /// The keyboard's default bindings, the keys Ledge has always had: Left/A, Right/D, Up/W
    /// (up and jump), Down/S, Space/Z (jump), R (rewind, held).
    pub fn default_keyboard() -> Self {
        Bindings {
            left: names(&["ArrowLeft", "KeyA"]),
            right: names(&["ArrowRight", "KeyD"]),
            up: names(&["ArrowUp", "KeyW"]),
            down: names(&["ArrowDown", "KeyS"]),
            jump: names(&["Space", "KeyZ", "ArrowUp", "KeyW"]),
            rewind: names(&["KeyR"]),
        }
    }

    /// The pad's default bindings (gilrs' standard layout): the d-pad moves, South (A on
    /// Xbox, Cross on PlayStation) jumps, the left shoulder (gilrs `LeftTrigger`: LB, L1)
    /// rewinds while held.
    pub fn default_pad() -> Self {
        Bindings {
            left: names(&["DPadLeft"]),
            right: names(&["DPadRight"]),
            up: names(&["DPadUp"]),
            down: names(&["DPadDown"]),
            jump: names(&["South"]),
            rewind: names(&["LeftTrigger"]),
        }
    }

    /// The names bound to `action`.
    pub fn keys(&self, action: Action) -> &[String] {
        match action {
            Action::Left => &self.left,
            Action::Right => &self.right,
            Action::Up => &self.up,
            Action::Down => &self.down,
            Action::Jump => &self.jump,
            Action::Rewind => &self.rewind,
        }
    }

    /// The names bound to `action`, to change.
    pub fn keys_mut(&mut self, action: Action) -> &mut Vec<String> {
        match action {
            Action::Left => &mut self.left,
            Action::Right => &mut self.right,
            Action::Up => &mut self.up,
            Action::Down => &mut self.down,
            Action::Jump => &mut self.jump,
            Action::Rewind => &mut self.rewind,
        }
    }

    /// Every (action, names) pair, in [`Action::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Action, &[String])> {
        Action::ALL.into_iter().map(|a| (a, self.keys(a)))
    }
}

impl Default for Settings {
    /// Full volume, vsync on, windowed, no frame cap, camera easing on, today's keys.
    fn default() -> Self {
        Settings {
            version: SETTINGS_VERSION,
            volume: Volume { master: 1.0, music: 1.0, effects: 1.0 },
            display: Display { vsync: true, fullscreen: false, fps_cap: 0.0, reduced_motion: false },
            keys: Keys { keyboard: Bindings::default_keyboard(), pad: Bindings::default_pad() },
        }
    }
}

impl Settings {
    /// The lines written above the TOML (comments: the file is meant to be read and edited).
    pub const HEADER: &'static str = "\
# Ledge settings. Edit while the game is closed; README.md \"Saved data\" explains each key.
# Volumes are 0..1; fps_cap 0 = no cap; key names are KeyboardEvent.code names (KeyA,
# ArrowLeft, Space, ...) and gamepad button names (South, DPadLeft, ...).
";

    /// The frame cap in Hz, `None` for 0 (no cap).
    pub fn fps_cap(&self) -> Option<f64> {
        (self.display.fps_cap > 0.0).then_some(self.display.fps_cap)
    }

    /// Check the values a TOML type cannot: volumes in 0..=1, the frame cap finite and >= 0,
    /// no empty key name.
    ///
    /// # Errors
    /// Which key and why, on one line.
    pub fn validate(&self) -> Result<(), String> {
        let v = &self.volume;
        for (key, x) in [("master", v.master), ("music", v.music), ("effects", v.effects)] {
            if !(0.0..=1.0).contains(&x) {
                return Err(format!("volume.{key} = {x}: must be between 0 and 1"));
            }
        }
        let cap = self.display.fps_cap;
        if !(cap.is_finite() && cap >= 0.0) {
            return Err(format!("display.fps_cap = {cap}: must be 0 (no cap) or a positive number of Hz"));
        }
        for (device, b) in [("keyboard", &self.keys.keyboard), ("pad", &self.keys.pad)] {
            if let Some((a, _)) = b.iter().find(|(_, ks)| ks.iter().any(|k| k.trim().is_empty())) {
                return Err(format!("keys.{device}.{}: an empty key name", a.name()));
            }
        }
        Ok(())
    }

    /// The file's text: [`Settings::HEADER`] then the TOML.
    pub fn to_text(&self) -> String {
        let body = toml::to_string(self).expect("settings are plain TOML values");
        format!("{}\n{body}", Self::HEADER)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_through_the_text() {
        let s = Settings::default();
        let text = s.to_text();
        assert!(text.contains("version = 1"), "{text}");
        assert!(text.contains("[keys.keyboard]"), "{text}");
        let back: Settings = toml::from_str(&text).unwrap();
        assert_eq!(back, s);
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(s.fps_cap(), None);
    }

    #[test]
    fn out_of_range_values_are_named() {
        let mut s = Settings::default();
        s.volume.music = 1.5;
        assert_eq!(s.validate().unwrap_err(), "volume.music = 1.5: must be between 0 and 1");
        let mut s = Settings::default();
        s.display.fps_cap = -30.0;
        assert!(s.validate().unwrap_err().starts_with("display.fps_cap = -30"));
        let mut s = Settings::default();
        s.keys.pad.keys_mut(Action::Jump).push(" ".into());
        assert_eq!(s.validate().unwrap_err(), "keys.pad.jump: an empty key name");
    }

    #[test]
    fn up_and_w_hold_up_and_jump_by_default() {
        let kb = Bindings::default_keyboard();
        for key in ["ArrowUp", "KeyW"] {
            let held: Vec<Action> =
                kb.iter().filter(|(_, ks)| ks.iter().any(|k| k == key)).map(|(a, _)| a).collect();
            assert_eq!(held, [Action::Up, Action::Jump]);
        }
    }
}
