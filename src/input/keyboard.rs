//! Keyboard: winit key events → [`InputEvent`] edges, with per-action counts of held keys.
//!
//! Clock: event loop. Each winit `WindowEvent::KeyboardInput` is translated as it arrives; the
//! caller stamps the resulting events with the arrival time and hands them to the latch.
//!
//! Bindings use the *physical* key (its position on the keyboard, winit `PhysicalKey`), so WASD
//! stays WASD on AZERTY and Dvorak layouts. They come from the settings
//! ([`crate::save::Bindings`], `[keys.keyboard]` in `settings.toml`, by key name: the W3C
//! `KeyboardEvent.code` names winit's [`KeyCode`] variants follow) through a [`KeyMap`]; the
//! defaults, for a player without a settings file, are the keys Ledge always had:
//!
//! | keys | actions |
//! |---|---|
//! | Left, A | Left |
//! | Right, D | Right |
//! | Up, W | Up **and** Jump |
//! | Down, S | Down |
//! | Space, Z | Jump |
//! | R | Rewind (hold) |
//!
//! Two keys can hold one action (Left and A). The action is pressed when the first of its keys
//! goes down and released when the last one comes up, so holding Left+A and letting go of A
//! keeps running left.
//!
//! The keys the app itself uses (Esc, F3, F11: [`crate::app::commands`]) cannot be bound: they
//! are not in [`key_code`]'s table. Recordings (`--record`) store the actions, not the keys,
//! so a replay does not depend on the bindings.

use super::bindmap::PracticeMap;
use super::bindmap::{BindMap, UnknownName, name_table};
use super::{Action, InputEvent, Source};
use crate::save::{Bindings, PracticeKey};
use winit::event::{ElementState, KeyEvent};
use winit::keyboard::{KeyCode, PhysicalKey};

name_table!(
    /// The bindable keys: each winit [`KeyCode`] with its variant name (= its W3C
    /// `KeyboardEvent.code`). Esc, F3 and F11 are the app's and are left out.
    KEY_NAMES: KeyCode [
        KeyA, KeyB, KeyC, KeyD, KeyE, KeyF, KeyG, KeyH, KeyI, KeyJ, KeyK, KeyL, KeyM, KeyN, KeyO,
        KeyP, KeyQ, KeyR, KeyS, KeyT, KeyU, KeyV, KeyW, KeyX, KeyY, KeyZ, Digit0, Digit1, Digit2,
        Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9, Backquote, Backslash, BracketLeft,
        BracketRight, Comma, Equal, IntlBackslash, Minus, Period, Quote, Semicolon, Slash,
        AltLeft, AltRight, Backspace, CapsLock, ControlLeft, ControlRight, Enter, ShiftLeft,
        ShiftRight, Space, Tab, Delete, End, Home, Insert, PageDown, PageUp, ArrowDown,
        ArrowLeft, ArrowRight, ArrowUp, Numpad0, Numpad1, Numpad2, Numpad3, Numpad4, Numpad5,
        Numpad6, Numpad7, Numpad8, Numpad9, NumpadAdd, NumpadDecimal, NumpadDivide, NumpadEnter,
        NumpadMultiply, NumpadSubtract, F1, F2, F4, F5, F6, F7, F8, F9, F10, F12,
    ]
);

/// The bindable physical key named `name` (`KeyA`, `ArrowLeft`, `Space`, ...), if any.
pub fn key_code(name: &str) -> Option<KeyCode> {
    KEY_NAMES.iter().find(|(n, _)| *n == name).map(|&(_, k)| k)
}

/// The name of a bindable key (the inverse of [`key_code`]).
pub fn key_name(code: KeyCode) -> Option<&'static str> {
    KEY_NAMES.iter().find(|(_, k)| *k == code).map(|&(n, _)| n)
}

/// Which actions each bound physical key holds ([`BindMap`] over winit's [`KeyCode`]).
pub type KeyMap = BindMap<KeyCode>;

impl KeyMap {
    /// The map of the settings' `[keys.keyboard]` bindings, and the names in them that are
    /// no bindable key (left out: a warning for the caller, not a bad file).
    pub fn keyboard(bindings: &Bindings) -> (KeyMap, Vec<UnknownName>) {
        BindMap::from_bindings(bindings, "keyboard", key_code)
    }
}

impl Default for KeyMap {
    /// The default bindings ([`Bindings::default_keyboard`]; the module table).
    fn default() -> Self {
        KeyMap::keyboard(&Bindings::default_keyboard()).0
    }
}

/// Translates key events into action edges, tracking which bound keys are held.
#[derive(Clone, Debug, Default)]
pub struct Keyboard {
    /// Which actions each key holds.
    map: KeyMap,
    /// Which practice command each key gives (`[keys.practice.keyboard]`).
    practice: PracticeMap<KeyCode>,
    /// Bound physical keys held down now (a handful at most, so a small vector).
    held_keys: Vec<KeyCode>,
    /// How many held keys hold each action, indexed by [`Action::index`].
    count: [u8; Action::ALL.len()],
}

impl Keyboard {
    /// A keyboard with the default bindings and nothing held.
    pub fn new() -> Self {
        Self::default()
    }

    /// A keyboard with the bindings of `map` and nothing held (no practice keys).
    pub fn with_map(map: KeyMap) -> Self {
        Self { map, ..Self::default() }
    }

    /// A keyboard with the bindings of `map`, the practice keys of `practice`, and nothing
    /// held.
    pub fn with_maps(map: KeyMap, practice: PracticeMap<KeyCode>) -> Self {
        Self { map, practice, ..Self::default() }
    }

    /// The practice command `code` is bound to, if any (the app acts on it; it is no action).
    pub fn practice_key(&self, code: KeyCode) -> Option<PracticeKey> {
        self.practice.get(code)
    }

    /// The bindings in use (the menus move with the keys bound to the movement actions).
    pub fn map(&self) -> &KeyMap {
        &self.map
    }

    /// Translate one winit key event. `is_synthetic` is the flag winit puts beside the event in
    /// `WindowEvent::KeyboardInput` (keys already down when focus returns). Unbound and
    /// unidentified keys produce nothing.
    pub fn key_event(&mut self, event: &KeyEvent, is_synthetic: bool, out: &mut impl FnMut(InputEvent)) {
        let PhysicalKey::Code(code) = event.physical_key else {
            return;
        };
        let pressed = event.state == ElementState::Pressed;
        self.key(code, pressed, event.repeat, is_synthetic, out);
    }

    /// The platform-free core of [`Keyboard::key_event`]: key `code` went down (`pressed`) or
    /// up. `repeat`: operating-system auto-repeat of a held key. `synthetic`: winit made the
    /// event up (focus changes).
    ///
    /// - A real press emits `Press(Keyboard, a)` for each bound action whose count goes 0 → 1.
    /// - A repeat emits `Repeat(Keyboard, a)` for each bound action and changes no count.
    /// - A synthetic press emits `SyntheticPress(Keyboard, a)` and is not tracked: the key
    ///   was pressed somewhere else, so it starts nothing until it is pressed again here.
    /// - A release (real or synthetic) of a tracked key emits `Release(Keyboard, a)` for each
    ///   action whose count goes 1 → 0; releasing an untracked key emits nothing.
    pub fn key(
        &mut self,
        code: KeyCode,
        pressed: bool,
        repeat: bool,
        synthetic: bool,
        out: &mut impl FnMut(InputEvent),
    ) {
        let actions = self.map.actions(code);
        if actions.is_empty() {
            return;
        }
        let tracked = self.held_keys.iter().position(|&k| k == code);
        if pressed {
            if repeat {
                actions.iter().for_each(|&a| out(InputEvent::Repeat(Source::Keyboard, a)));
            } else if synthetic {
                actions.iter().for_each(|&a| out(InputEvent::SyntheticPress(Source::Keyboard, a)));
            } else if tracked.is_none() {
                self.held_keys.push(code);
                for &a in actions {
                    let c = &mut self.count[a.index()];
                    *c += 1;
                    if *c == 1 {
                        out(InputEvent::Press(Source::Keyboard, a));
                    }
                }
            }
            // A second non-repeat press of a key already held (some platforms after a focus
            // change) is nothing: the key is already counted.
        } else if let Some(i) = tracked {
            self.held_keys.swap_remove(i);
            for &a in actions {
                let c = &mut self.count[a.index()];
                *c = c.saturating_sub(1);
                if *c == 0 {
                    out(InputEvent::Release(Source::Keyboard, a));
                }
            }
        }
    }

    /// Forget every held key, emitting nothing: on focus loss the latch releases everything
    /// itself (`InputEvent::FocusLost`), and the key-up events will go to another window.
    pub fn clear(&mut self) {
        self.held_keys.clear();
        self.count = [0; Action::ALL.len()];
    }

    /// True while at least one bound key holds `action`.
    pub fn is_held(&self, action: Action) -> bool {
        self.count[action.index()] > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(kb: &mut Keyboard, code: KeyCode, pressed: bool) -> Vec<InputEvent> {
        let mut v = Vec::new();
        kb.key(code, pressed, false, false, &mut |e| v.push(e));
        v
    }

    use InputEvent::*;
    use Source::Keyboard as K;

    #[test]
    fn bindings() {
        let map = KeyMap::default();
        let actions_for = |code| map.actions(code);
        assert_eq!(actions_for(KeyCode::ArrowLeft), &[Action::Left]);
        assert_eq!(actions_for(KeyCode::KeyA), &[Action::Left]);
        assert_eq!(actions_for(KeyCode::ArrowRight), &[Action::Right]);
        assert_eq!(actions_for(KeyCode::KeyD), &[Action::Right]);
        assert_eq!(actions_for(KeyCode::ArrowUp), &[Action::Up, Action::Jump]);
        assert_eq!(actions_for(KeyCode::KeyW), &[Action::Up, Action::Jump]);
        assert_eq!(actions_for(KeyCode::ArrowDown), &[Action::Down]);
        assert_eq!(actions_for(KeyCode::KeyS), &[Action::Down]);
        assert_eq!(actions_for(KeyCode::Space), &[Action::Jump]);
        assert_eq!(actions_for(KeyCode::KeyZ), &[Action::Jump]);
        assert!(actions_for(KeyCode::KeyQ).is_empty());
        assert!(actions_for(KeyCode::Escape).is_empty());
    }

    #[test]
    fn two_keys_one_action_release_on_last() {
        let mut kb = Keyboard::new();
        assert_eq!(run(&mut kb, KeyCode::ArrowLeft, true), vec![Press(K, Action::Left)]);
        assert_eq!(run(&mut kb, KeyCode::KeyA, true), vec![]);
        assert_eq!(run(&mut kb, KeyCode::KeyA, false), vec![]);
        assert!(kb.is_held(Action::Left));
        assert_eq!(run(&mut kb, KeyCode::ArrowLeft, false), vec![Release(K, Action::Left)]);
        assert!(!kb.is_held(Action::Left));
    }

    #[test]
    fn up_presses_up_and_jump_and_shares_jump_with_space() {
        let mut kb = Keyboard::new();
        assert_eq!(run(&mut kb, KeyCode::ArrowUp, true), vec![Press(K, Action::Up), Press(K, Action::Jump)]);
        assert_eq!(run(&mut kb, KeyCode::Space, true), vec![]);
        assert_eq!(run(&mut kb, KeyCode::ArrowUp, false), vec![Release(K, Action::Up)]);
        assert_eq!(run(&mut kb, KeyCode::Space, false), vec![Release(K, Action::Jump)]);
    }

    #[test]
    fn double_press_of_one_key_counts_once() {
        let mut kb = Keyboard::new();
        run(&mut kb, KeyCode::KeyD, true);
        assert_eq!(run(&mut kb, KeyCode::KeyD, true), vec![]);
        assert_eq!(run(&mut kb, KeyCode::KeyD, false), vec![Release(K, Action::Right)]);
        assert_eq!(run(&mut kb, KeyCode::KeyD, false), vec![]);
    }

    #[test]
    fn repeat_and_synthetic() {
        let mut kb = Keyboard::new();
        let mut v = Vec::new();
        kb.key(KeyCode::Space, true, true, false, &mut |e| v.push(e));
        assert_eq!(v, vec![Repeat(K, Action::Jump)]);
        assert!(!kb.is_held(Action::Jump));
        v.clear();
        kb.key(KeyCode::ArrowRight, true, false, true, &mut |e| v.push(e));
        assert_eq!(v, vec![SyntheticPress(K, Action::Right)]);
        assert!(!kb.is_held(Action::Right));
        // Its real release is of an untracked key: nothing.
        assert_eq!(run(&mut kb, KeyCode::ArrowRight, false), vec![]);
    }

    #[test]
    fn clear_forgets_held_keys() {
        let mut kb = Keyboard::new();
        run(&mut kb, KeyCode::ArrowLeft, true);
        kb.clear();
        assert!(!kb.is_held(Action::Left));
        assert_eq!(run(&mut kb, KeyCode::ArrowLeft, false), vec![]);
        assert_eq!(run(&mut kb, KeyCode::ArrowLeft, true), vec![Press(K, Action::Left)]);
    }

    #[test]
    fn unbound_keys_do_nothing() {
        let mut kb = Keyboard::new();
        assert_eq!(run(&mut kb, KeyCode::KeyQ, true), vec![]);
        assert_eq!(run(&mut kb, KeyCode::KeyQ, false), vec![]);
    }

    #[test]
    fn key_names_round_trip_and_leave_out_the_app_keys() {
        for &(name, code) in KEY_NAMES {
            assert_eq!(format!("{code:?}"), name, "the name is winit's variant name");
            assert_eq!(key_code(name), Some(code));
            assert_eq!(key_name(code), Some(name));
        }
        for app_key in ["Escape", "F3", "F11"] {
            assert_eq!(key_code(app_key), None, "{app_key} is the app's");
        }
        assert_eq!(key_code("keya"), None, "names are exact");
    }

    #[test]
    fn rebound_jump_moves_to_the_new_key_only() {
        let mut b = Bindings::default_keyboard();
        *b.keys_mut(Action::Jump) = vec!["KeyJ".into(), "Nonsense".into()];
        let (map, unknown) = KeyMap::keyboard(&b);
        assert_eq!(
            unknown,
            [UnknownName { device: "keyboard", action: Action::Jump, name: "Nonsense".into() }]
        );
        let mut kb = Keyboard::with_map(map);
        assert_eq!(run(&mut kb, KeyCode::KeyJ, true), vec![Press(K, Action::Jump)]);
        assert_eq!(run(&mut kb, KeyCode::Space, true), vec![], "Space no longer jumps");
        assert_eq!(run(&mut kb, KeyCode::ArrowUp, true), vec![Press(K, Action::Up)], "Up is only up now");
        assert_eq!(run(&mut kb, KeyCode::KeyJ, false), vec![Release(K, Action::Jump)]);
    }

    #[test]
    fn a_key_bound_twice_to_one_action_counts_once() {
        let mut b = Bindings::default_keyboard();
        b.keys_mut(Action::Left).push("ArrowLeft".into());
        let (map, unknown) = KeyMap::keyboard(&b);
        assert!(unknown.is_empty());
        assert_eq!(map.actions(KeyCode::ArrowLeft), &[Action::Left]);
        assert_eq!(map, KeyMap::default());
    }
}
