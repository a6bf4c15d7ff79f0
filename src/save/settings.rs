//! `settings.toml`: the player's volumes, display and comfort choices (the cosmetic layer's
//! screen shake, flashes and visual effects, and the game-speed assist, among them) and key
//! bindings, human-readable and hand-editable, with a `version` field.
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

use crate::cosmetic::{CosmeticSettings, ShakeLevel};
use crate::sim::action::Action;
use crate::time::GameSpeed;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The settings format this build writes and the newest it reads.
pub const SETTINGS_VERSION: i64 = 1;

/// Everything in `settings.toml`. Every field is required (a file cut off at a line boundary
/// misses one and is caught as bad rather than silently half-read) except the keys of
/// `[display]` added after version 1 first shipped (`screen_shake`, `flashes`,
/// `visual_effects`, `game_speed`): a file written before them loads with their defaults, no
/// warning. A file cut inside `[display]` still misses the `[keys]` tables after it and is
/// caught.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Format version ([`SETTINGS_VERSION`]).
    pub version: i64,
    /// `[volume]`.
    pub volume: Volume,
    /// `[display]`.
    pub display: Display,
    /// `[net]`: the online race's signalling server. Missing in a file written before it:
    /// the defaults, no warning. Written before `[keys]`, so a file cut anywhere after its
    /// table starts still misses the keys and is caught.
    #[serde(default)]
    pub net: Net,
    /// `[keys.keyboard]` and `[keys.pad]`.
    pub keys: Keys,
}

/// The online race's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Net {
    /// The signalling server the title menu's "Race online" meets in (`ledge serve`'s
    /// address, `ws://HOST:PORT` or `wss://…`, no room: the room is the race's code). Default
    /// `ws://127.0.0.1:3536`, `ledge serve`'s own default; a bad one is refused with one line
    /// when a race starts.
    pub server: String,
}

impl Default for Net {
    fn default() -> Self {
        Net { server: "ws://127.0.0.1:3536".into() }
    }
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
    /// No camera easing (`--reduced-motion`); also forces the screen shake off
    /// (`Loop::set_reduced_motion`).
    pub reduced_motion: bool,
    /// How hard the screen shakes at a death: `"off"`, `"half"` or `"full"` (the default;
    /// [`ShakeLevel`]). Missing in an old file: `"full"`.
    #[serde(default, with = "shake_words")]
    pub screen_shake: ShakeLevel,
    /// Full-view flashes at a death (never more than 3 a second; WCAG 2.3.1). Missing: on.
    #[serde(default = "on")]
    pub flashes: bool,
    /// Particles, squash and stretch, transitions (the cosmetic layer's `effects`; not the
    /// sound effects, which are `volume.effects`). Missing: on.
    #[serde(default = "on")]
    pub visual_effects: bool,
    /// The game-speed assist, written as whole percent: 50 to 160 in steps of 10
    /// ([`GameSpeed::PERCENT_STEPS`]; wall time scaled before the fixed tick,
    /// [`crate::time::speed`]). The settings page's "Game speed" row saves it; `--game-speed
    /// PCT` overrides it for one run and is not saved, nor are the − / = keys in play. Missing
    /// in an old file: 100; any other number is a bad value (the file is kept aside).
    #[serde(default, with = "speed_percent")]
    pub game_speed: GameSpeed,
    /// The invincibility assist (Celeste's Assist Mode): hazards, saws, walkers and squishes
    /// do not kill, a fall puts the player back on the last ground stood on
    /// ([`crate::sim::World::invincible`]). A run played with it is never a personal best or
    /// a ghost. `--invincible` turns it on for one run. Missing in an old file: off.
    #[serde(default)]
    pub invincible: bool,
    /// The input display: the last tick's held actions and stick in the view's bottom-left
    /// corner ([`crate::ui::input_display()`]). Missing in an old file: off.
    #[serde(default)]
    pub input_display: bool,
    /// Practice savestates: the keys and pad buttons of `[keys.practice]` (F7 keeps the game
    /// state, F8 loads it, by default) work (`app/practice.rs`); a run
    /// that loaded one is never a personal best. Missing in an old file: off.
    #[serde(default)]
    pub practice: bool,
}

/// `serde(default)` for a switch that is on unless the file says otherwise.
fn on() -> bool {
    true
}

/// `screen_shake` as the words the file and the menu use ([`ShakeLevel::label`]).
mod shake_words {
    use super::{Deserialize, Deserializer, Serializer, ShakeLevel};

    /// The level's word.
    pub fn serialize<S: Serializer>(level: &ShakeLevel, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(level.label())
    }

    /// `"off"`, `"half"` or `"full"`; anything else is a bad value (the file is kept aside).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ShakeLevel, D::Error> {
        let word = String::deserialize(d)?;
        [ShakeLevel::Off, ShakeLevel::Half, ShakeLevel::Full]
            .into_iter()
            .find(|l| l.label() == word)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "screen_shake = \"{word}\": must be \"off\", \"half\" or \"full\""
                ))
            })
    }
}

/// `game_speed` as whole percent ([`GameSpeed::percent`]).
mod speed_percent {
    use super::{Deserialize, Deserializer, GameSpeed, Serializer};

    /// The speed's percent, an integer.
    pub fn serialize<S: Serializer>(speed: &GameSpeed, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(speed.percent())
    }

    /// 50 to 160 in steps of 10; any other integer is a bad value (the file is kept aside).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameSpeed, D::Error> {
        let percent = i64::deserialize(d)?;
        GameSpeed::from_percent(percent).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "game_speed = {percent}: must be 50 to 160 in steps of 10 (percent)"
            ))
        })
    }
}

/// Key bindings for each device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Keys {
    /// The practice savestate keys of both devices (`[keys.practice.keyboard]`,
    /// `[keys.practice.pad]`). Missing in an old file: the defaults. Written before the
    /// required `[keys.keyboard]` and `[keys.pad]`, so a file cut inside them still misses
    /// those and is caught (a table that may be missing must never be the file's last).
    #[serde(default)]
    pub practice: PracticeKeys,
    /// Keyboard: physical key names (`KeyboardEvent.code`).
    pub keyboard: Bindings,
    /// Gamepad: gilrs button names.
    pub pad: Bindings,
}

/// A practice command a key or pad button can be bound to: not a game action, it never reaches
/// a tick (the app acts on it, as on the pause key), and only while `display.practice` is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PracticeKey {
    /// Keep the whole game state (LAB.md Version 4 `savestate`).
    SaveState,
    /// Load it back (`loadstate`).
    LoadState,
}

impl PracticeKey {
    /// Both, in the settings page's order.
    pub const ALL: [PracticeKey; 2] = [PracticeKey::SaveState, PracticeKey::LoadState];

    /// Its key in the settings file (`savestate`, `loadstate`).
    pub fn name(self) -> &'static str {
        match self {
            PracticeKey::SaveState => "savestate",
            PracticeKey::LoadState => "loadstate",
        }
    }
}

/// One device's practice keys: the names of the keys or buttons of each [`PracticeKey`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PracticeBinds {
    /// [`PracticeKey::SaveState`].
    pub savestate: Vec<String>,
    /// [`PracticeKey::LoadState`].
    pub loadstate: Vec<String>,
}

impl PracticeBinds {
    /// The names bound to `key`.
    pub fn keys(&self, key: PracticeKey) -> &[String] {
        match key {
            PracticeKey::SaveState => &self.savestate,
            PracticeKey::LoadState => &self.loadstate,
        }
    }

    /// The names bound to `key`, to change.
    pub fn keys_mut(&mut self, key: PracticeKey) -> &mut Vec<String> {
        match key {
            PracticeKey::SaveState => &mut self.savestate,
            PracticeKey::LoadState => &mut self.loadstate,
        }
    }
}

/// The practice keys of both devices.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PracticeKeys {
    /// Keyboard: F7 saves, F8 loads (the keys practice had before they could be rebound).
    pub keyboard: PracticeBinds,
    /// Gamepad: pressing the left stick saves, the right stick loads (gilrs `LeftThumb`,
    /// `RightThumb`: buttons no default game binding uses).
    pub pad: PracticeBinds,
}

impl Default for PracticeKeys {
    fn default() -> Self {
        PracticeKeys {
            keyboard: PracticeBinds { savestate: names(&["F7"]), loadstate: names(&["F8"]) },
            pad: PracticeBinds { savestate: names(&["LeftThumb"]), loadstate: names(&["RightThumb"]) },
        }
    }
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
    /// Full volume, vsync on, windowed, no frame cap, camera easing on, full screen shake,
    /// flashes and visual effects on, full game speed (100 %), today's keys.
    fn default() -> Self {
        Settings {
            version: SETTINGS_VERSION,
            volume: Volume { master: 1.0, music: 1.0, effects: 1.0 },
            display: Display {
                vsync: true,
                fullscreen: false,
                fps_cap: 0.0,
                reduced_motion: false,
                screen_shake: ShakeLevel::Full,
                flashes: true,
                visual_effects: true,
                game_speed: GameSpeed::FULL,
                invincible: false,
                input_display: false,
                practice: false,
            },
            net: Net::default(),
            keys: Keys {
                practice: PracticeKeys::default(),
                keyboard: Bindings::default_keyboard(),
                pad: Bindings::default_pad(),
            },
        }
    }
}

impl Settings {
    /// The lines written above the TOML (comments: the file is meant to be read and edited).
    pub const HEADER: &'static str = "\
# Ledge settings. Edit while the game is closed; docs/playing.md \"Saved data\" explains each key.
# Volumes are 0..1; fps_cap 0 = no cap; screen_shake is off, half or full; game_speed is a
# percent: 50 to 160 in steps of 10; key names are KeyboardEvent.code names (KeyA, ArrowLeft,
# Space, ...) and gamepad button names (South, DPadLeft, ...).
";

    /// The frame cap in Hz, `None` for 0 (no cap).
    pub fn fps_cap(&self) -> Option<f64> {
        (self.display.fps_cap > 0.0).then_some(self.display.fps_cap)
    }

    /// What the game loop's cosmetic layer draws (`Loop::set_cosmetic_settings`): the three
    /// cosmetic keys of `[display]`. Reduced motion is applied on its own and forces the shake
    /// off inside the loop.
    pub fn cosmetic(&self) -> CosmeticSettings {
        let d = &self.display;
        CosmeticSettings { effects: d.visual_effects, shake: d.screen_shake, flashes: d.flashes }
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
        if cap != 0.0 && crate::time::fps_cap(cap).is_err() {
            return Err(format!("display.fps_cap = {cap}: must be 0 (no cap) or 1 to 1000 Hz"));
        }
        for (device, b) in [("keyboard", &self.keys.keyboard), ("pad", &self.keys.pad)] {
            if let Some((a, _)) = b.iter().find(|(_, ks)| ks.iter().any(|k| k.trim().is_empty())) {
                return Err(format!("keys.{device}.{}: an empty key name", a.name()));
            }
        }
        let practice = [("keyboard", &self.keys.practice.keyboard), ("pad", &self.keys.practice.pad)];
        for (device, b) in practice {
            if let Some(k) =
                PracticeKey::ALL.into_iter().find(|k| b.keys(*k).iter().any(|n| n.trim().is_empty()))
            {
                return Err(format!("keys.practice.{device}.{}: an empty key name", k.name()));
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
    fn cosmetic_keys_round_trip_and_reach_the_loop_settings() {
        let mut s = Settings::default();
        assert_eq!(s.cosmetic(), CosmeticSettings::default(), "the defaults agree with the loop's");
        s.display.screen_shake = ShakeLevel::Half;
        s.display.flashes = false;
        s.display.visual_effects = false;
        let text = s.to_text();
        assert!(
            text.contains("screen_shake = \"half\"")
                && text.contains("flashes = false")
                && text.contains("visual_effects = false"),
            "{text}"
        );
        let back: Settings = toml::from_str(&text).unwrap();
        assert_eq!(back, s);
        assert_eq!(
            back.cosmetic(),
            CosmeticSettings { effects: false, shake: ShakeLevel::Half, flashes: false }
        );
        for level in [ShakeLevel::Off, ShakeLevel::Full] {
            s.display.screen_shake = level;
            let back: Settings = toml::from_str(&s.to_text()).unwrap();
            assert_eq!(back.display.screen_shake, level);
        }
    }

    /// A file written before the cosmetic keys: read with their defaults, and no other key may
    /// go missing that way.
    #[test]
    fn an_old_file_without_the_cosmetic_keys_loads_with_their_defaults() {
        let mut custom = Settings::default();
        custom.display.reduced_motion = true;
        custom.volume.music = 0.5;
        let old: String = custom
            .to_text()
            .lines()
            .filter(|l| !["screen_shake", "flashes", "visual_effects"].iter().any(|k| l.starts_with(k)))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(!old.contains("flashes") && old.contains("reduced_motion = true"), "{old}");
        let back: Settings = toml::from_str(&old).unwrap();
        assert_eq!(back, custom, "the old keys as written, the new ones at their defaults");
        let no_fps_cap = old.replace("fps_cap = 0.0\n", "");
        assert!(toml::from_str::<Settings>(&no_fps_cap).is_err(), "the older keys stay required");
    }

    #[test]
    fn a_bad_screen_shake_word_is_a_bad_value() {
        let text = Settings::default().to_text().replace("screen_shake = \"full\"", "screen_shake = \"max\"");
        let err = toml::from_str::<Settings>(&text).unwrap_err();
        assert!(
            err.message().contains("screen_shake = \"max\": must be \"off\", \"half\" or \"full\""),
            "{err}"
        );
        let text = Settings::default().to_text().replace("flashes = true", "flashes = 1");
        assert!(toml::from_str::<Settings>(&text).is_err(), "a switch is true or false");
    }

    #[test]
    fn game_speed_round_trips_as_a_percent_and_a_missing_key_is_full_speed() {
        let mut s = Settings::default();
        assert!(s.to_text().contains("\ngame_speed = 100\n"), "{}", s.to_text());
        for p in GameSpeed::PERCENT_STEPS {
            s.display.game_speed = GameSpeed::from_percent(i64::from(p)).unwrap();
            let text = s.to_text();
            assert!(text.contains(&format!("\ngame_speed = {p}\n")), "{text}");
            let back: Settings = toml::from_str(&text).unwrap();
            assert_eq!(back, s);
            assert_eq!(back.display.game_speed.percent(), p);
        }
        s.display.game_speed = GameSpeed::FULL;
        let old = s.to_text().replace("game_speed = 100\n", "");
        assert!(!old.contains("game_speed ="), "{old}");
        let back: Settings = toml::from_str(&old).unwrap();
        assert_eq!(back.display.game_speed, GameSpeed::FULL, "a file from before the key");
    }

    #[test]
    fn a_bad_game_speed_is_a_bad_value() {
        let good = Settings::default().to_text();
        for bad in ["55", "0", "-50", "170", "1000000000000"] {
            let text = good.replace("game_speed = 100", &format!("game_speed = {bad}"));
            let err = toml::from_str::<Settings>(&text).unwrap_err();
            let want = format!("game_speed = {bad}: must be 50 to 160 in steps of 10 (percent)");
            assert!(err.message().contains(&want), "{err}");
        }
        for bad in ["90.0", "0.9", "\"90\"", "true"] {
            let text = good.replace("game_speed = 100", &format!("game_speed = {bad}"));
            assert!(toml::from_str::<Settings>(&text).is_err(), "game_speed = {bad}: a whole number only");
        }
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

    #[test]
    fn the_practice_keys_round_trip_and_an_old_file_gets_the_defaults() {
        let mut s = Settings::default();
        s.keys.practice.pad.loadstate = vec!["North".into()];
        let text = s.to_text();
        assert!(text.contains("[keys.practice.keyboard]") && text.contains("[keys.practice.pad]"), "{text}");
        let back: Settings = toml::from_str(&text).unwrap();
        assert_eq!(back, s);
        // An old file: everything but the practice tables.
        let (before, rest) = text.split_once("[keys.practice.keyboard]").unwrap();
        let after = &rest[rest.find("[keys.keyboard]").unwrap()..];
        let old: Settings = toml::from_str(&format!("{before}{after}")).unwrap();
        assert_eq!(old.keys.practice, PracticeKeys::default());
        assert_eq!(old.keys.pad, s.keys.pad);
        s.keys.practice.keyboard.savestate.push(String::new());
        assert_eq!(s.validate().unwrap_err(), "keys.practice.keyboard.savestate: an empty key name");
    }
}
