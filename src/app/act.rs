//! What the app does for a command key or pad button ([`super::commands`] decides which
//! command a key is; this carries it out): the F3 overlay, fullscreen, pause and resume, the
//! game-speed keys, the practice keys, the ghost, quitting; and winit's key read into the
//! command table's [`AppKey`].
//!
//! Clock: event loop (a key press or pad button, between two frames).

use super::App;
use super::commands::{self, AppKey, Command};
use winit::event::KeyEvent;
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::{Key, KeyCode, PhysicalKey};

impl App {
    /// Do what a command key or pad button asks (see [`commands`]).
    pub(super) fn command(&mut self, event_loop: &ActiveEventLoop, command: Command) {
        match command {
            Command::ToggleOverlay => {
                self.show_overlay = !self.show_overlay;
                self.stats_at = None;
            }
            Command::ToggleFullscreen => self.toggle_fullscreen(),
            Command::PlayAgain => self.play_again(),
            Command::Quit => event_loop.exit(),
            // In a race Esc leaves it (a race never pauses): back to the title after a race
            // from the menu, out of the game after one from the command line.
            Command::Pause if self.race.is_some() && self.opts.race.is_some() => event_loop.exit(),
            Command::Pause if self.race.is_some() => self.leave_race(),
            Command::Pause => self.pause(),
            Command::Resume => self.resume(),
            Command::GameSpeed { up } => self.step_game_speed(up),
            Command::SaveState => self.practice_save(),
            Command::LoadState => self.practice_load(),
            Command::ToggleGhost => {
                log::info!("ghost {}", if self.ghosts.toggle() { "shown" } else { "hidden" })
            }
        }
    }

    /// The game-speed keys: one 10 % step, from the next frame on, for this run only (the
    /// settings page's row also saves it: `menus.rs`). A recording holds one speed (its
    /// `config game_speed`), so the keys do nothing while recording.
    pub(super) fn step_game_speed(&mut self, up: bool) {
        if self.race.is_some() {
            log::info!("game speed stays 100 %: a race is always full speed");
            return;
        }
        if self.recorder.is_some() {
            log::info!("game speed stays {} %: --record keeps one speed", self.game.game_speed().percent());
            return;
        }
        self.game.set_game_speed(self.game.game_speed().stepped(up));
        self.audio.set_music_rate(self.game.game_speed().factor());
    }

    /// Handle a key press that drives the app rather than the player (see [`commands`]).
    /// Returns true when the key was such a command.
    pub(super) fn command_key(&mut self, event_loop: &ActiveEventLoop, event: &KeyEvent) -> bool {
        let PhysicalKey::Code(code) = event.physical_key else {
            return false;
        };
        // A race from the menu that is over: Enter asks the same players for a rematch.
        if matches!(code, KeyCode::Enter | KeyCode::NumpadEnter)
            && event.state.is_pressed()
            && !event.repeat
            && self.race.as_ref().is_some_and(|r| r.rematch_ready())
            && self.opts.race.is_none()
        {
            self.rematch();
            return true;
        }
        let key = AppKey {
            code: match (self.keyboard.practice_key(code), code) {
                (Some(k), _) => commands::KeyCode::Practice(k),
                (None, KeyCode::F3) => commands::KeyCode::F3,
                (None, KeyCode::F11) => commands::KeyCode::F11,
                (None, KeyCode::Enter | KeyCode::NumpadEnter) => commands::KeyCode::Enter,
                (None, KeyCode::Escape) => commands::KeyCode::Escape,
                (None, KeyCode::Minus | KeyCode::NumpadSubtract) => commands::KeyCode::Minus,
                (None, KeyCode::Equal | KeyCode::NumpadAdd) => commands::KeyCode::Equal,
                (None, KeyCode::KeyG) => commands::KeyCode::G,
                (None, _) => commands::KeyCode::Other,
            },
            types_q: matches!(&event.logical_key, Key::Character(c) if c.eq_ignore_ascii_case("q")),
        };
        match commands::key_command(key, self.alt_held, self.session.mode) {
            Some(command) => {
                self.command(event_loop, command);
                true
            }
            None => false,
        }
    }
}
