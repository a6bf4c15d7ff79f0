//! The app's hooks into the menus ([`crate::ui::menu`]): keys and pad presses become menu
//! inputs while a menu is open (every mode but playing), the actions they return are carried
//! out (a level started, resumed or restarted, the title, settings saved and applied at once),
//! and the title's moving background is built.
//!
//! Clock: event loop (inputs, actions) and render frame ([`App::title_frame`]). The game clock
//! is frozen while a menu is open, so menus never tick the game's simulation; the title's
//! background is a world of its own on a fixed tick (`title.rs`), and the menus' own animation
//! (the title's blinking) reads wall time since the menu opened.
//!
//! Keys in a menu: the keys bound to up/down/left/right (and the arrows, always) move, Enter
//! and Space confirm, Esc goes back, Q quits from the pause and end screens; F3, F11 and
//! Alt+Enter do what they do everywhere ([`super::commands`]). Pad: d-pad and left stick move,
//! South (A) confirms, East (B) goes back, Start and Select as on the pause and end screens
//! before. While a key is rebound, the next key (or pad button) is the one bound; Esc (pad
//! Select) cancels.

use super::session::Mode;
use super::title::TitleBackdrop;
use super::{App, Pacer, commands, next_level_path, saved};
use crate::audio::Music;
use crate::input::Action;
use crate::input::gamepad::{PadPress, button_name};
use crate::input::keyboard::{KeyMap, key_name};
use crate::level::{Level, tiled_map::load_tmx};
use crate::save::{Settings, level_id};
use crate::sim::cues::Cue;
use crate::ui::menu::{Context, Device, Input, LevelEntry, Menu, MenuAction, Page, level_entries};
use gilrs::Button;
use std::path::{Path, PathBuf};
use web_time::Instant;
use winit::event::KeyEvent;
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::{Key, KeyCode, PhysicalKey};

/// The menus' state in the app.
pub(super) struct Menus {
    /// Page stack, cursor, rebinding.
    pub menu: Menu,
    /// The shipped levels, in order: (file, progress id, name).
    pub levels: Vec<(PathBuf, String, String)>,
    /// When the menu was opened (the title's animation).
    pub opened: Instant,
    /// The title's background, from the title's first frame until a menu opens again or a
    /// level starts.
    pub title: Option<TitleBackdrop>,
}

impl Menus {
    /// The menus with the title open, and the shipped levels from `first` on (`level1.tmx`,
    /// then each `levelN+1.tmx` beside it that loads).
    pub fn new(first: Option<&Path>) -> Self {
        let shipped = first.and_then(Path::parent);
        let mut levels = Vec::new();
        let mut next = first.map(Path::to_path_buf).filter(|p| crate::read_limit::is_file(p));
        while let Some(path) = next {
            match load_tmx(&path) {
                Ok(level) => levels.push((path.clone(), level_id(&path, shipped), level.name)),
                Err(e) => log::warn!("level select: {e}"),
            }
            next = next_level_path(&path);
        }
        Self { menu: Menu::new(Page::Title), levels, opened: Instant::now(), title: None }
    }
}

/// The page a mode's menus start from.
fn root_page(mode: Mode) -> Page {
    match mode {
        Mode::Paused => Page::Pause,
        Mode::Finished => Page::End,
        Mode::Playing | Mode::Title => Page::Title,
    }
}

/// The movement action `code` holds in `map`, or the arrow it is: the menus' directions.
fn direction(map: &KeyMap, code: KeyCode) -> Option<Input> {
    let arrow = match code {
        KeyCode::ArrowUp => Some(Input::Up),
        KeyCode::ArrowDown => Some(Input::Down),
        KeyCode::ArrowLeft => Some(Input::Left),
        KeyCode::ArrowRight => Some(Input::Right),
        _ => None,
    };
    arrow.or_else(|| {
        map.actions(code).iter().find_map(|a| match a {
            Action::Up => Some(Input::Up),
            Action::Down => Some(Input::Down),
            Action::Left => Some(Input::Left),
            Action::Right => Some(Input::Right),
            Action::Jump | Action::Rewind => None,
        })
    })
}

/// A pad press as a menu input.
fn pad_input(p: PadPress) -> Input {
    match p {
        PadPress::Stick { y: 1, .. } | PadPress::Button(Button::DPadUp) => Input::Up,
        PadPress::Stick { y: -1, .. } | PadPress::Button(Button::DPadDown) => Input::Down,
        PadPress::Stick { x: -1, .. } | PadPress::Button(Button::DPadLeft) => Input::Left,
        PadPress::Stick { x: 1, .. } | PadPress::Button(Button::DPadRight) => Input::Right,
        PadPress::Button(Button::South) => Input::Confirm,
        PadPress::Button(Button::East) => Input::Back,
        PadPress::Button(Button::Start) => Input::Start,
        PadPress::Button(Button::Select) => Input::Quit,
        _ => Input::Other,
    }
}

impl App {
    /// Open `mode`'s menus at their root page (called whenever the mode leaves playing, after
    /// the game clock stopped). What the pads hold is released now, at the instant the clock
    /// stopped, as the keyboard's is: pad game input is not forwarded while a menu is open, so
    /// a release meanwhile would otherwise never reach the loop.
    pub(super) fn open_menu(&mut self, mode: Mode) {
        let t = self.now_ns();
        let (game, rec) = (&mut self.game, &mut self.recorder);
        self.pads.release_all(&mut |ev| super::push_at(game, rec, t, ev));
        self.menus.menu = Menu::new(root_page(mode));
        self.menus.opened = Instant::now();
        self.menus.title = None;
    }

    /// A title frame: the title's background made at its first frame (the first level, at its
    /// start, with the game's tuning and tick), then stepped to now (`title.rs`).
    pub(super) fn title_frame(&mut self) {
        let (first, game) = (self.session.first(), &self.game);
        self.menus
            .title
            .get_or_insert_with(|| {
                TitleBackdrop::new(first.clone(), game.tuning().clone(), *game.config(), Instant::now())
            })
            .frame_at(Instant::now());
    }

    /// The level select's entries from the progress saved.
    pub(super) fn level_entries(&self) -> Vec<LevelEntry> {
        let ids: Vec<(String, String)> =
            self.menus.levels.iter().map(|(_, id, n)| (id.clone(), n.clone())).collect();
        level_entries(&ids, self.opts.save.progress())
    }

    /// Give `input` to the menus and carry out what they ask.
    fn menu_input(&mut self, event_loop: &ActiveEventLoop, input: Input) {
        let levels = self.level_entries();
        let speed_percent = self.game.game_speed().percent();
        let finished_run = self.ghosts.last_visit().is_some() && self.replay.is_none();
        let ctx =
            Context { settings: self.opts.save.settings(), levels: &levels, speed_percent, finished_run };
        let action = self.menus.menu.input(input, &ctx);
        match input {
            Input::Up | Input::Down | Input::Left | Input::Right => self.audio.play(Cue::MenuMove),
            Input::Confirm | Input::Start => self.audio.play(Cue::MenuConfirm),
            Input::Back | Input::Quit | Input::Other => {}
        }
        self.menu_action(event_loop, action);
        self.request_redraw();
    }

    /// A key or button pressed while a key is being rebound.
    fn menu_capture(
        &mut self,
        event_loop: &ActiveEventLoop,
        device: Device,
        name: Option<&str>,
        shown: &str,
    ) {
        let levels = self.level_entries();
        let speed_percent = self.game.game_speed().percent();
        let finished_run = self.ghosts.last_visit().is_some() && self.replay.is_none();
        let ctx =
            Context { settings: self.opts.save.settings(), levels: &levels, speed_percent, finished_run };
        let action = self.menus.menu.capture_key(device, name, shown, &ctx);
        self.menu_action(event_loop, action);
        self.request_redraw();
    }

    /// A key event while a menu is open. Returns false while playing (the key is the game's).
    pub(super) fn menu_key(
        &mut self,
        event_loop: &ActiveEventLoop,
        event: &KeyEvent,
        synthetic: bool,
    ) -> bool {
        if self.session.mode == Mode::Playing {
            return false;
        }
        let PhysicalKey::Code(code) = event.physical_key else {
            return true;
        };
        if !event.state.is_pressed() || synthetic {
            return true;
        }
        if self.menus.menu.capture().is_some() {
            if event.repeat {
                return true;
            }
            if code == KeyCode::Escape {
                self.menu_input(event_loop, Input::Back);
            } else {
                let name = key_name(code);
                let shown = format!("{code:?}");
                self.menu_capture(event_loop, Device::Keyboard, name, &shown);
            }
            return true;
        }
        // The race page's code row takes typed letters, digits and dashes, and Backspace.
        let typed =
            event.text.as_deref().filter(|t| t.chars().any(|c| c.is_ascii_alphanumeric() || c == '-'));
        if (code == KeyCode::Backspace && self.menus.menu.erase())
            || typed.is_some_and(|t| self.menus.menu.type_text(t))
        {
            self.request_redraw();
            return true;
        }
        let enter = matches!(code, KeyCode::Enter | KeyCode::NumpadEnter);
        if matches!(code, KeyCode::F3 | KeyCode::F11) || (enter && self.alt_held) {
            if !event.repeat {
                // Alt+Enter asks what F11 does (the command table's fullscreen).
                let key = commands::AppKey {
                    code: if code == KeyCode::F3 { commands::KeyCode::F3 } else { commands::KeyCode::F11 },
                    types_q: false,
                };
                if let Some(c) = commands::key_command(key, false, self.session.mode) {
                    self.command(event_loop, c);
                }
            }
            return true;
        }
        let nav = direction(self.keyboard.map(), code);
        let input = if code == KeyCode::Escape {
            Input::Back
        } else if enter || code == KeyCode::Space {
            Input::Confirm
        } else if let Some(d) = nav {
            d
        } else if matches!(&event.logical_key, Key::Character(c) if c.eq_ignore_ascii_case("q")) {
            Input::Quit
        } else {
            Input::Other
        };
        // Held arrows step through a list; other keys act once per press.
        if !event.repeat || nav.is_some() {
            self.menu_input(event_loop, input);
        }
        true
    }

    /// The pads' presses since the last poll, while a menu is open (`menu_open`: the mode
    /// before the poll, so Start pausing the game is not also taken by the pause menu).
    pub(super) fn menu_pads(&mut self, event_loop: &ActiveEventLoop, menu_open: bool) {
        let presses = self.pads.take_presses();
        if !menu_open {
            return;
        }
        for p in presses {
            match (self.menus.menu.capture(), p) {
                (Some(_), PadPress::Button(Button::Select)) => self.menu_input(event_loop, Input::Back),
                (Some(_), PadPress::Button(b)) => {
                    let shown = format!("{b:?}");
                    self.menu_capture(event_loop, Device::Pad, button_name(b), &shown);
                }
                (Some(_), PadPress::Stick { .. }) => {}
                (None, p) => self.menu_input(event_loop, pad_input(p)),
            }
        }
    }

    /// Do what the menus asked. While recording (`--record`, one level), nothing that loads
    /// a level is done: the recording could not replay it.
    fn menu_action(&mut self, event_loop: &ActiveEventLoop, action: Option<MenuAction>) {
        let loads = matches!(
            action,
            Some(MenuAction::Play(_) | MenuAction::Restart | MenuAction::SkipLevel | MenuAction::ToTitle)
        );
        if loads && self.recorder.is_some() {
            self.menus.menu.say("Not while recording: --record covers one level");
            return;
        }
        match action {
            None => {}
            Some(MenuAction::Play(i)) => {
                let Some((path, ..)) = self.menus.levels.get(i).cloned() else { return };
                match load_tmx(&path) {
                    Ok(level) => {
                        self.session.choose(path);
                        self.enter_level(level);
                        self.resume();
                    }
                    Err(e) => eprintln!("ledge: {e}"),
                }
            }
            Some(MenuAction::Resume) => self.resume(),
            Some(MenuAction::Restart) => {
                let level = self.game.level().clone();
                self.enter_level(level);
                self.resume();
            }
            Some(MenuAction::SaveState) => {
                self.resume();
                self.practice_save();
            }
            Some(MenuAction::LoadState) => {
                self.resume();
                self.practice_load();
            }
            Some(MenuAction::WatchAttempts) => self.watch_attempts(),
            Some(MenuAction::CopyLink) => self.copy_run_link(),
            Some(MenuAction::SkipLevel) => {
                self.skip_progress();
                self.ghosts.drop_attempt();
                self.complete_level();
                if self.session.mode == Mode::Paused {
                    self.resume();
                }
            }
            Some(MenuAction::ToTitle) => {
                self.session.mode = Mode::Title;
                self.open_menu(Mode::Title);
                self.audio.play_music(Music::Menu);
                self.audio.resume_music();
            }
            Some(MenuAction::PlayAgain) => self.play_again(),
            Some(MenuAction::Quit) => event_loop.exit(),
            Some(MenuAction::GameSpeed { up }) => self.choose_game_speed(up),
            Some(MenuAction::Settings(s)) => self.apply_settings(*s),
            Some(MenuAction::HostRace { level, players }) => self.host_race(level, players),
            Some(MenuAction::JoinRace { code }) => self.join_race(&code),
        }
    }

    /// Load `level` into the loop and start counting its time and deaths from now (and its
    /// ghost and attempt: `runs.rs`), from rest: keys and pad buttons held are released before
    /// its first tick (press again to go).
    pub(super) fn enter_level(&mut self, level: Level) {
        self.menus.title = None;
        self.game.load_level(level);
        let t = self.now_ns();
        self.release_keyboard(t);
        let (game, rec) = (&mut self.game, &mut self.recorder);
        self.pads.release_all(&mut |ev| super::push_at(game, rec, t, ev));
        self.start_run();
        self.audio.play_music(Music::Level);
        self.audio.resume_music();
    }

    /// The settings page's "Game speed" row: one 10 % step of the speed in force (as the − / =
    /// keys), saved as `display.game_speed` (atomically, through the store) when it differs
    /// from the saved one, so the next start begins at it. While recording the speed stays
    /// and nothing is saved.
    fn choose_game_speed(&mut self, up: bool) {
        self.step_game_speed(up);
        let speed = self.game.game_speed();
        if self.recorder.is_some() || speed == self.opts.save.settings().display.game_speed {
            return;
        }
        let mut new = self.opts.save.settings().clone();
        new.display.game_speed = speed;
        if let Err(w) = self.opts.save.set_settings(new) {
            eprintln!("ledge: warning: {w}");
        }
    }

    /// Save `new` (atomically, through the store) and apply what changed at once: bindings
    /// (the next key press uses them), reduced motion, the screen shake, flashes and visual
    /// effects (`Loop::set_cosmetic_settings`: the next frame draws with them), vsync (the
    /// surface is configured again), fullscreen, the frame cap, the volumes (the audio output
    /// fades to them).
    fn apply_settings(&mut self, new: Settings) {
        let old: Settings = self.opts.save.settings().clone();
        if let Err(w) = self.opts.save.set_settings(new.clone()) {
            eprintln!("ledge: warning: {w}");
        }
        if new.keys != old.keys {
            self.keyboard = saved::input_maps(&self.opts.save, &mut self.pads);
        }
        let d = &new.display;
        self.opts.reduced_motion = d.reduced_motion;
        self.game.set_reduced_motion(d.reduced_motion);
        self.game.set_cosmetic_settings(new.cosmetic());
        // The assist applies at once, but not to a recording (its replay has it from the
        // start or not at all) or a race (which has no assists).
        if d.invincible != old.display.invincible && self.recorder.is_none() && self.race.is_none() {
            self.opts.invincible = d.invincible;
            self.game.set_invincible(d.invincible);
        }
        if d.vsync != old.display.vsync {
            self.opts.vsync = d.vsync;
            if let Some(g) = &mut self.gfx {
                g.gpu.set_vsync(d.vsync);
            }
        }
        let fullscreen = self.gfx.as_ref().is_some_and(|g| g.window.fullscreen().is_some());
        if d.fullscreen != old.display.fullscreen && d.fullscreen != fullscreen {
            self.toggle_fullscreen();
        }
        if new.fps_cap() != old.fps_cap() {
            self.opts.fps_cap = new.fps_cap();
            self.pacer = new.fps_cap().map(Pacer::new);
        }
        if new.volume != old.volume {
            self.audio.set_volumes(&new.volume);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::commands::{AppKey, Command, KeyCode as K, key_command, pad_command};
    use crate::input::gamepad::PadMenu;
    use crate::save::Bindings;

    /// The pause and end menus answer Esc, Q, Enter, Start and Select as the command table
    /// always did on those screens (the table stays the reference).
    #[test]
    fn root_pages_agree_with_the_command_table() {
        let s = Settings::default();
        let ctx = Context { settings: &s, levels: &[], speed_percent: 100, finished_run: false };
        let same = |a: Option<MenuAction>, c: Option<Command>| match (a, c) {
            (Some(MenuAction::Resume), Some(Command::Resume))
            | (Some(MenuAction::Quit), Some(Command::Quit))
            | (Some(MenuAction::PlayAgain), Some(Command::PlayAgain)) => true,
            (a, c) => panic!("menu {a:?} vs table {c:?}"),
        };
        for mode in [Mode::Paused, Mode::Finished] {
            let key = |code| key_command(AppKey { code, types_q: false }, false, mode);
            let q = key_command(AppKey { code: K::Other, types_q: true }, false, mode);
            let answer = |i| Menu::new(root_page(mode)).input(i, &ctx);
            assert!(same(answer(Input::Back), key(K::Escape)));
            assert!(same(answer(Input::Quit), q));
            assert!(same(answer(Input::Start), pad_command(PadMenu::Start, mode)));
            assert!(same(answer(Input::Quit), pad_command(PadMenu::Select, mode)));
            if mode == Mode::Finished {
                assert!(same(answer(Input::Confirm), key(K::Enter)), "Enter plays again");
            }
        }
    }

    /// The app applies the cosmetic settings at the start and on a change only: the loop must
    /// keep them through every level it loads (the next level, a restart, play again).
    #[test]
    fn the_cosmetic_settings_applied_survive_a_level_load() {
        use crate::game_loop::Loop;
        use crate::sim::Tuning;
        use crate::time::StepperConfig;
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let load = |n| load_tmx(&root.join(format!("assets/levels/level{n}.tmx"))).unwrap();
        let mut game = Loop::new(load(1), Tuning::default(), StepperConfig::default()).unwrap();
        let mut s = Settings::default();
        s.display.screen_shake = crate::cosmetic::ShakeLevel::Half;
        s.display.flashes = false;
        game.set_cosmetic_settings(s.cosmetic());
        game.load_level(load(2));
        assert_eq!(game.cosmetic_settings(), s.cosmetic());
    }

    #[test]
    fn menus_move_with_the_bound_keys_and_the_arrows() {
        let mut b = Bindings::default_keyboard();
        b.up = vec!["KeyI".into()];
        let (map, _) = KeyMap::keyboard(&b);
        assert_eq!(direction(&map, KeyCode::KeyI), Some(Input::Up));
        assert_eq!(direction(&map, KeyCode::ArrowUp), Some(Input::Up), "the arrows always");
        assert_eq!(direction(&map, KeyCode::KeyA), Some(Input::Left));
        assert_eq!(direction(&map, KeyCode::KeyW), None, "W now holds only jump");
        assert_eq!(direction(&map, KeyCode::Space), None);
        let bindable = |n| crate::input::keyboard::key_code(n).is_some();
        assert!(bindable("KeyI") && !bindable("Escape") && !bindable("F3") && !bindable("F11"));
        assert_eq!(pad_input(PadPress::Stick { x: 0, y: 1 }), Input::Up);
        assert_eq!(pad_input(PadPress::Button(Button::East)), Input::Back);
        assert_eq!(pad_input(PadPress::Button(Button::North)), Input::Other);
    }
}
