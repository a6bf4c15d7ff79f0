//! The settings page's rows, how each value steps, and the rebinding rule: **a conflict is
//! refused** — a key that holds another action on that device is not taken from it (the
//! message says which action to rebind first); a key bound through the menu replaces the
//! action's keys on that device.
//!
//! Clock: event loop (called by [`super::menu`] on an input). Pure: settings in, settings out;
//! the app saves them (`save::Store::set_settings`, atomic) and applies them at once.

use crate::cosmetic::ShakeLevel;
use crate::save::{Bindings, PracticeBinds, PracticeKey, Settings};
use crate::sim::action::Action;

/// A device whose bindings the settings page edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// `[keys.keyboard]`.
    Keyboard,
    /// `[keys.pad]`.
    Pad,
}

impl Device {
    /// The device's bindings in `settings`.
    pub fn bindings(self, settings: &Settings) -> &Bindings {
        match self {
            Device::Keyboard => &settings.keys.keyboard,
            Device::Pad => &settings.keys.pad,
        }
    }

    /// The device's bindings in `settings`, to change.
    pub fn bindings_mut(self, settings: &mut Settings) -> &mut Bindings {
        match self {
            Device::Keyboard => &mut settings.keys.keyboard,
            Device::Pad => &mut settings.keys.pad,
        }
    }

    /// The device's practice keys in `settings`.
    pub fn practice(self, settings: &Settings) -> &PracticeBinds {
        match self {
            Device::Keyboard => &settings.keys.practice.keyboard,
            Device::Pad => &settings.keys.practice.pad,
        }
    }

    /// The names bound to `bind` on this device in `settings`.
    pub fn keys(self, settings: &Settings, bind: Bind) -> &[String] {
        match bind {
            Bind::Action(a) => self.bindings(settings).keys(a),
            Bind::Practice(k) => self.practice(settings).keys(k),
        }
    }

    /// The names bound to `bind` on this device in `settings`, to change.
    pub fn keys_mut(self, settings: &mut Settings, bind: Bind) -> &mut Vec<String> {
        match (bind, self) {
            (Bind::Action(a), _) => self.bindings_mut(settings).keys_mut(a),
            (Bind::Practice(k), Device::Keyboard) => settings.keys.practice.keyboard.keys_mut(k),
            (Bind::Practice(k), Device::Pad) => settings.keys.practice.pad.keys_mut(k),
        }
    }
}

/// What a key or button can be bound to on the settings page: a game action, or a practice
/// command (`[keys.practice.*]`, which never reaches a tick).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bind {
    /// A game action (`[keys.keyboard]`, `[keys.pad]`).
    Action(Action),
    /// A practice savestate key.
    Practice(PracticeKey),
}

impl Bind {
    /// Everything bindable on a device, in the settings page's order: the actions, then the
    /// practice keys.
    pub fn all() -> impl Iterator<Item = Bind> {
        Action::ALL.into_iter().map(Bind::Action).chain(PracticeKey::ALL.into_iter().map(Bind::Practice))
    }

    /// Its name as the settings file and the menus write it (`jump`, `savestate`).
    pub fn name(self) -> &'static str {
        match self {
            Bind::Action(a) => a.name(),
            Bind::Practice(k) => k.name(),
        }
    }
}

/// The frame caps the settings page steps through, Hz (0: no cap).
pub const FPS_CAPS: [f64; 6] = [0.0, 30.0, 60.0, 120.0, 144.0, 240.0];

/// One row of the settings page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingRow {
    /// `volume.master`.
    Master,
    /// `volume.music`.
    Music,
    /// `volume.effects` (the sound effects; shown as "Sound effects").
    Effects,
    /// `display.reduced_motion`.
    ReducedMotion,
    /// `display.screen_shake` (off, half, full); locked off while reduced motion is on.
    ScreenShake,
    /// `display.flashes`.
    Flashes,
    /// `display.visual_effects` (particles, squash and stretch, transitions).
    VisualEffects,
    /// `display.vsync`.
    Vsync,
    /// `display.fullscreen`.
    Fullscreen,
    /// `display.fps_cap`.
    FpsCap,
    /// The game-speed assist in force (`display.game_speed`, which `--game-speed` and the − / =
    /// keys override for one run): a step here applies at once and is saved
    /// ([`super::menu::MenuAction::GameSpeed`]).
    GameSpeed,
    /// `display.invincible`, the invincibility assist (applied at once, not while recording).
    Invincible,
    /// `display.input_display`, the tick's input in the view's corner.
    InputDisplay,
    /// `display.practice`: the savestate keys.
    Practice,
    /// The keys of one action or practice command on one device.
    Key(Device, Bind),
    /// Both devices' bindings back to the defaults.
    ResetKeys,
    /// Back to the page before.
    Back,
}

/// The settings page's rows, top to bottom.
pub fn setting_rows() -> Vec<SettingRow> {
    use SettingRow::*;
    let mut rows = vec![
        Master,
        Music,
        Effects,
        ReducedMotion,
        ScreenShake,
        Flashes,
        VisualEffects,
        Vsync,
        Fullscreen,
        FpsCap,
        GameSpeed,
        Invincible,
        InputDisplay,
        Practice,
    ];
    for device in [Device::Keyboard, Device::Pad] {
        rows.extend(Bind::all().map(|b| Key(device, b)));
    }
    rows.extend([ResetKeys, Back]);
    rows
}

/// The screen shake's steps, in the order Left / Right go through them.
pub const SHAKE_LEVELS: [ShakeLevel; 3] = [ShakeLevel::Off, ShakeLevel::Half, ShakeLevel::Full];

/// Whether `row` can be changed now: the screen shake cannot while reduced motion is on (the
/// loop forces it off then; the choice saved comes back when reduced motion goes off).
pub fn changeable(row: SettingRow, settings: &Settings) -> bool {
    row != SettingRow::ScreenShake || !settings.display.reduced_motion
}

/// `settings` with `row` changed one step (`by` ±1): volumes by 10 % within 0..=100 %,
/// switches on and off, the frame cap through [`FPS_CAPS`] and the screen shake through
/// [`SHAKE_LEVELS`] (both wrapping, so Enter cycles them). `None` on a row without a value in
/// the settings, on the game speed (the menu's own action: it steps the speed in force, which
/// may not be the saved one) and on one not [`changeable`] now.
pub fn adjust(row: SettingRow, settings: &Settings, by: i32) -> Option<Settings> {
    if !changeable(row, settings) {
        return None;
    }
    let mut s = settings.clone();
    let step = |v: &mut f64| *v = (((*v * 10.0).round() as i32 + by).clamp(0, 10)) as f64 / 10.0;
    match row {
        SettingRow::Master => step(&mut s.volume.master),
        SettingRow::Music => step(&mut s.volume.music),
        SettingRow::Effects => step(&mut s.volume.effects),
        SettingRow::ReducedMotion => s.display.reduced_motion ^= true,
        SettingRow::ScreenShake => {
            let now = s.display.screen_shake.index() as i32;
            s.display.screen_shake = SHAKE_LEVELS[(now + by).rem_euclid(SHAKE_LEVELS.len() as i32) as usize];
        }
        SettingRow::Flashes => s.display.flashes ^= true,
        SettingRow::VisualEffects => s.display.visual_effects ^= true,
        SettingRow::Vsync => s.display.vsync ^= true,
        SettingRow::Fullscreen => s.display.fullscreen ^= true,
        SettingRow::Invincible => s.display.invincible ^= true,
        SettingRow::InputDisplay => s.display.input_display ^= true,
        SettingRow::Practice => s.display.practice ^= true,
        SettingRow::FpsCap => {
            let now = FPS_CAPS.iter().position(|&c| c >= s.display.fps_cap).unwrap_or(0) as i32;
            s.display.fps_cap = FPS_CAPS[(now + by).rem_euclid(FPS_CAPS.len() as i32) as usize];
        }
        SettingRow::GameSpeed | SettingRow::Key(..) | SettingRow::ResetKeys | SettingRow::Back => {
            return None;
        }
    }
    Some(s)
}

/// `settings` with `bind` on `device` bound to the key or button `name` alone. A key that
/// holds another action or practice command there is refused (the message names it).
///
/// # Errors
/// The refusal, one line: `"J already holds left: rebind left first"`.
pub fn rebind(settings: &Settings, device: Device, bind: Bind, name: &str) -> Result<Settings, String> {
    if let Some(other) =
        Bind::all().find(|b| *b != bind && device.keys(settings, *b).iter().any(|k| k == name))
    {
        let other = other.name();
        return Err(format!("{} already holds {other}: rebind {other} first", key_label(name)));
    }
    let mut s = settings.clone();
    *device.keys_mut(&mut s, bind) = vec![name.to_owned()];
    Ok(s)
}

/// A key or button name as the menus show it: `KeyA` → `A`, `Digit1` → `1`, `ArrowLeft` →
/// `Left`, `Numpad4` → `Num 4`, `DPadLeft` → `D-pad Left`; other names as they are (`Space`,
/// `South`); gilrs' shoulder and trigger buttons by what players call them (`LeftTrigger` →
/// `L shoulder`, `LeftTrigger2` → `L trigger`, `LeftThumb` → `L stick click`).
pub fn key_label(name: &str) -> String {
    let named = [
        ("LeftTrigger", "L shoulder"),
        ("RightTrigger", "R shoulder"),
        ("LeftTrigger2", "L trigger"),
        ("RightTrigger2", "R trigger"),
        ("LeftThumb", "L stick click"),
        ("RightThumb", "R stick click"),
    ];
    if let Some((_, shown)) = named.iter().find(|(n, _)| *n == name) {
        return (*shown).to_owned();
    }
    for (prefix, shown) in [("Key", ""), ("Digit", ""), ("Arrow", ""), ("Numpad", "Num "), ("DPad", "D-pad ")]
    {
        if let Some(rest) = name.strip_prefix(prefix).filter(|r| !r.is_empty()) {
            return format!("{shown}{rest}");
        }
    }
    name.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosmetic_rows_step_and_the_shake_waits_for_reduced_motion() {
        let rows = setting_rows();
        let at = |r| rows.iter().position(|x| *x == r).unwrap();
        assert_eq!(
            [at(SettingRow::ReducedMotion) + 1, at(SettingRow::ScreenShake) + 1, at(SettingRow::Flashes) + 1],
            [at(SettingRow::ScreenShake), at(SettingRow::Flashes), at(SettingRow::VisualEffects)],
            "the comfort rows together, under reduced motion"
        );
        let s = Settings::default();
        let shake = |s: &Settings, by| adjust(SettingRow::ScreenShake, s, by).unwrap().display.screen_shake;
        assert_eq!(shake(&s, -1), ShakeLevel::Half);
        assert_eq!(shake(&s, 1), ShakeLevel::Off, "wraps: Enter cycles full → off → half → full");
        let mut half = s.clone();
        half.display.screen_shake = ShakeLevel::Half;
        assert_eq!((shake(&half, -1), shake(&half, 1)), (ShakeLevel::Off, ShakeLevel::Full));
        let off = adjust(SettingRow::Flashes, &s, 1).unwrap();
        assert!(!off.display.flashes && off.display.visual_effects);
        assert!(adjust(SettingRow::Flashes, &off, -1).unwrap().display.flashes, "either way toggles");
        let plain = adjust(SettingRow::VisualEffects, &s, 1).unwrap();
        assert!(!plain.display.visual_effects && plain.display.flashes);
        assert_eq!(plain.volume, s.volume, "not the sound effects");
        let quiet = adjust(SettingRow::Effects, &s, -1).unwrap();
        assert_eq!((quiet.volume.effects, quiet.display.visual_effects), (0.9, true));
        // Reduced motion locks the shake (the loop forces it off); the choice is kept.
        let reduced = adjust(SettingRow::ReducedMotion, &half, 1).unwrap();
        assert!(!changeable(SettingRow::ScreenShake, &reduced));
        assert_eq!(adjust(SettingRow::ScreenShake, &reduced, 1), None);
        assert!(changeable(SettingRow::Flashes, &reduced));
        let back = adjust(SettingRow::ReducedMotion, &reduced, 1).unwrap();
        assert_eq!(back.display.screen_shake, ShakeLevel::Half, "comes back as chosen");
    }

    #[test]
    fn key_labels() {
        assert_eq!(key_label("KeyJ"), "J");
        assert_eq!(key_label("Digit7"), "7");
        assert_eq!(key_label("ArrowLeft"), "Left");
        assert_eq!(key_label("Numpad4"), "Num 4");
        assert_eq!(key_label("Space"), "Space");
        assert_eq!(key_label("South"), "South");
        assert_eq!(key_label("DPadRight"), "D-pad Right");
        assert_eq!(key_label("LeftTrigger"), "L shoulder");
        assert_eq!(key_label("RightTrigger2"), "R trigger");
    }

    #[test]
    fn practice_keys_rebind_and_conflict_with_actions_both_ways() {
        let s = Settings::default();
        let save = Bind::Practice(PracticeKey::SaveState);
        assert_eq!(Device::Keyboard.keys(&s, save), ["F7"]);
        let e = rebind(&s, Device::Keyboard, save, "KeyZ").unwrap_err();
        assert_eq!(e, "Z already holds jump: rebind jump first");
        let e = rebind(&s, Device::Keyboard, Bind::Action(Action::Jump), "F8").unwrap_err();
        assert_eq!(e, "F8 already holds loadstate: rebind loadstate first");
        let s = rebind(&s, Device::Pad, save, "North").unwrap();
        assert_eq!(s.keys.practice.pad.savestate, ["North"]);
        assert_eq!(s.keys.practice.keyboard.savestate, ["F7"], "the other device keeps its own");
        assert_eq!(key_label("RightThumb"), "R stick click");
        let rows = setting_rows();
        assert!(rows.contains(&SettingRow::Key(Device::Pad, Bind::Practice(PracticeKey::LoadState))));
    }
}
