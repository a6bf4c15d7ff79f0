//! What a key or a pad button asks of the app rather than the player: a pure function of the
//! key, the modifiers held and the [`Mode`].
//!
//! Clock: event loop. The app reads winit's key event into an [`AppKey`] and acts on the
//! [`Command`] this returns; keys that are no command go on to the game's own bindings
//! (`crate::input::keyboard`).
//!
//! | key | playing | paused | end screen |
//! |---|---|---|---|
//! | Esc | pause | resume | quit |
//! | Q | — | quit | quit |
//! | Enter | — | — | play again from the first level |
//! | pad Start | pause | resume | play again from the first level |
//! | pad Select | — | quit | quit |
//! | F3 | telemetry overlay on/off | same | — (hidden: the clock is stopped) |
//! | F11, Alt+Enter | borderless fullscreen on/off | same | same |
//! | − / = (+) | game speed 10 % down / up (50–160 %; not while recording) | same | — |
//! | G | the ghost of the best run shown / hidden | same | — |
//! | the practice keys (F7 / F8) | save / load the practice savestate (practice on; `practice.rs`) | — | — |
//! | pad practice buttons (left / right stick click) | the same | — | — |
//!
//! The practice keys and buttons are the settings' `[keys.practice.keyboard]` and
//! `[keys.practice.pad]` (rebound on the settings page); the app reads a key bound there as
//! [`KeyCode::Practice`] and such a button as [`PadMenu::Practice`].
//!
//! While a menu is open (paused, end screen, title) the menus take the keys first
//! (`super::menus`): their pause and end pages answer Esc, Q, Enter, Start and Select as this
//! table does (a test there checks it), and F3, F11 and Alt+Enter still come here.

use super::session::Mode;
use crate::input::gamepad::PadMenu;
use crate::save::PracticeKey;

/// A key press as the command table reads it: Esc, Enter, F3 and F11 are physical keys; Q is
/// the key that types "q" (the letter the pause screen names, wherever the layout puts it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AppKey {
    /// The physical key, where it is one the table names.
    pub code: KeyCode,
    /// The key types "q" or "Q".
    pub types_q: bool,
}

/// The physical keys the command table names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyCode {
    /// F3.
    F3,
    /// F11.
    F11,
    /// Enter or keypad Enter.
    Enter,
    /// Escape.
    Escape,
    /// `-` (the key right of 0 on US layouts, or keypad −): game speed down.
    Minus,
    /// `=` (`+` with Shift, or keypad +): game speed up.
    Equal,
    /// G: the ghost on or off.
    G,
    /// A key bound to a practice command (`[keys.practice.keyboard]`: F7, F8 by default).
    Practice(PracticeKey),
    /// Any other key.
    Other,
}

/// What the app does for a command key or button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Show or hide the F3 telemetry overlay.
    ToggleOverlay,
    /// Borderless fullscreen on or off.
    ToggleFullscreen,
    /// From the end screen: the first level again.
    PlayAgain,
    /// Quit (prints the summary).
    Quit,
    /// Stop the game clock and show the pause screen.
    Pause,
    /// Start the game clock again.
    Resume,
    /// Game speed one 10 % step down (not below 50 %) or up (not above 100 %).
    GameSpeed {
        /// Up rather than down.
        up: bool,
    },
    /// Show or hide the ghost of the best run ([`super::ghosts`]).
    ToggleGhost,
    /// Keep the practice savestate (`app/practice.rs`).
    SaveState,
    /// Load the practice savestate in the next tick.
    LoadState,
}

/// The command of a practice key or button.
fn practice(k: PracticeKey) -> Command {
    match k {
        PracticeKey::SaveState => Command::SaveState,
        PracticeKey::LoadState => Command::LoadState,
    }
}

/// Pause while playing, resume while paused; nothing on the end screen.
fn toggle_pause(mode: Mode) -> Option<Command> {
    match mode {
        Mode::Playing => Some(Command::Pause),
        Mode::Paused => Some(Command::Resume),
        Mode::Finished | Mode::Title => None,
    }
}

/// The command for a key press (not a repeat, not synthetic) with Alt held or not, in `mode`;
/// `None` when the key is no command (it goes to the game).
pub fn key_command(key: AppKey, alt_held: bool, mode: Mode) -> Option<Command> {
    let enter = key.code == KeyCode::Enter;
    Some(match key.code {
        KeyCode::F3 => Command::ToggleOverlay,
        KeyCode::F11 => Command::ToggleFullscreen,
        _ if enter && alt_held => Command::ToggleFullscreen,
        _ if enter && mode == Mode::Finished => Command::PlayAgain,
        KeyCode::Escape if mode == Mode::Finished => Command::Quit,
        KeyCode::Escape => return toggle_pause(mode),
        _ if key.types_q && mode != Mode::Playing => Command::Quit,
        KeyCode::Minus | KeyCode::Equal if mode != Mode::Finished => {
            Command::GameSpeed { up: key.code == KeyCode::Equal }
        }
        KeyCode::G if mode != Mode::Finished => Command::ToggleGhost,
        KeyCode::Practice(k) if mode == Mode::Playing => practice(k),
        _ => return None,
    })
}

/// The command for a gamepad menu button in `mode`.
pub fn pad_command(button: PadMenu, mode: Mode) -> Option<Command> {
    match (button, mode) {
        (PadMenu::Start, Mode::Finished) => Some(Command::PlayAgain),
        (PadMenu::Start, _) => toggle_pause(mode),
        (PadMenu::Select, Mode::Paused | Mode::Finished) => Some(Command::Quit),
        (PadMenu::Select, Mode::Playing | Mode::Title) => None,
        (PadMenu::Practice(k), Mode::Playing) => Some(practice(k)),
        (PadMenu::Practice(_), _) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> AppKey {
        AppKey { code, types_q: false }
    }

    #[test]
    fn the_key_table() {
        use Command::*;
        use Mode::*;
        let q = AppKey { code: KeyCode::Other, types_q: true };
        for (mode, esc, qq, enter) in [
            (Playing, Some(Pause), None, None),
            (Paused, Some(Resume), Some(Quit), None),
            (Finished, Some(Quit), Some(Quit), Some(PlayAgain)),
        ] {
            assert_eq!(key_command(key(KeyCode::Escape), false, mode), esc, "{mode:?}");
            assert_eq!(key_command(q, false, mode), qq, "{mode:?}");
            assert_eq!(key_command(key(KeyCode::Enter), false, mode), enter, "{mode:?}");
            assert_eq!(key_command(key(KeyCode::Enter), true, mode), Some(ToggleFullscreen));
            assert_eq!(key_command(key(KeyCode::F11), false, mode), Some(ToggleFullscreen));
            assert_eq!(key_command(key(KeyCode::F3), false, mode), Some(ToggleOverlay));
            assert_eq!(key_command(key(KeyCode::Other), false, mode), None);
            let speed = |up| (mode != Finished).then_some(GameSpeed { up });
            assert_eq!(key_command(key(KeyCode::Minus), false, mode), speed(false));
            assert_eq!(key_command(key(KeyCode::Equal), false, mode), speed(true));
            let ghost = (mode != Mode::Finished).then_some(Command::ToggleGhost);
            assert_eq!(key_command(key(KeyCode::G), false, mode), ghost);
            let playing = mode == Playing;
            let (save, load) =
                (KeyCode::Practice(PracticeKey::SaveState), KeyCode::Practice(PracticeKey::LoadState));
            assert_eq!(key_command(key(save), false, mode), playing.then_some(SaveState));
            assert_eq!(key_command(key(load), false, mode), playing.then_some(LoadState));
            let pad = |k| pad_command(PadMenu::Practice(k), mode);
            assert_eq!(pad(PracticeKey::SaveState), playing.then_some(SaveState));
            assert_eq!(pad(PracticeKey::LoadState), playing.then_some(LoadState));
        }
    }

    #[test]
    fn the_pad_table() {
        use Command::*;
        use Mode::*;
        assert_eq!(pad_command(PadMenu::Start, Playing), Some(Pause));
        assert_eq!(pad_command(PadMenu::Start, Paused), Some(Resume));
        assert_eq!(pad_command(PadMenu::Start, Finished), Some(PlayAgain));
        assert_eq!(pad_command(PadMenu::Select, Playing), None);
        assert_eq!(pad_command(PadMenu::Select, Paused), Some(Quit));
        assert_eq!(pad_command(PadMenu::Select, Finished), Some(Quit));
    }
}
