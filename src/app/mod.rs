//! The game's event loop: a winit 0.30 [`ApplicationHandler`] that owns the window, the GPU and
//! the [`Loop`], and hands every event over with the time it arrived.
//!
//! Clock: event loop. Input edges (keyboard, focus, gamepad) are stamped with the *game clock*
//! ([`GameClock`]: nanoseconds since the clock started, once the window and GPU are ready,
//! minus the time spent paused) when handled, and pushed into the loop; the loop's fixed tick
//! decides which tick each belongs to. One render frame per `RedrawRequested`:
//!
//! 1. `--fps-cap`: spin until the next deadline ([`Pacer`]); between frames the event loop
//!    itself waits (`ControlFlow::WaitUntil`, woken 1.5 ms early), so input that arrives
//!    meanwhile is handled and stamped on arrival rather than at the next frame;
//! 2. the sound device looked at ([`Audio::watch`]: a lost one is one warning line, opened
//!    again off the event loop at most once a second); a level on: what hot reload found is
//!    swapped in (`reload.rs`, `watch.rs`); playing only: game clock → [`Loop::frame`] (latch,
//!    ticks, interpolation, camera), the frame's tick cues played, the frame's stats → the F3
//!    [`Telemetry`] ring;
//! 3. level complete → load the next level (`levelN+1.tmx` beside the current one), or, after
//!    the last one, show the end screen;
//! 4. acquire → [`crate::render::Renderer::encode`] draws [`Loop::view`] and the HUD, F3 overlay, pause or
//!    end screen ([`crate::ui`] builds them as quads and text) → submit → present;
//! 5. `--exit-after` reached → exit, else request the next redraw.
//!
//! # Keys
//!
//! The game's own bindings come from the saved settings ([`crate::save`], opened by `main`
//! into [`AppOptions::save`]; `saved.rs` builds the keyboard and pad maps and saves the
//! progress on each goal). Beside them ([`crate::input::keyboard`]), the app's command keys and
//! pad buttons are the table in [`commands`]; the decisions the app takes are small pure
//! modules beside it: [`commands`] (key/pad → [`commands::Command`]), [`session`] (mode and
//! level progression), [`frame_ui`] (which UI a frame shows) and [`wake`] (when the event
//! loop runs the next frame); `runs.rs` starts and finishes each level's timer and ghost
//! ([`ghosts`], [`crate::timer`]). With no level named and nothing scripted the game opens on
//! the title; every mode but playing has a menu open, and `menus.rs` takes the keys and pad
//! presses then (title, level select, pause menu, settings, end screen).
//!
//! Losing window focus also pauses (the latch's release-all happens as before); coming back
//! needs Esc (or the pad's Start). Only a focus the window had counts: the "unfocused" X11 reports as the window
//! opens does not pause. Quitting any way (Q, Esc on the end screen, closing the window, `--exit-after`)
//! prints the same summary.
//!
//! # Pause, the clock and `--record`
//!
//! Pausing freezes the game clock, so neither the loop nor a recording ever sees paused time
//! (see `clock.rs`). On pausing, the keyboard's held actions are released at the pause instant
//! (recorded as ordinary releases) and forgotten; game keys are not forwarded while paused.
//!
//! On exit [`run`] prints one summary line to stdout (and the same as JSON with `--stats`,
//! plus `paused_s`).

use crate::audio::{Audio, Music};
use crate::game_loop::Loop;
use crate::input::gamepad::Pads;
use crate::input::keyboard::Keyboard;
use crate::input::{Action, InputEvent, Source};
use crate::lab::record::Recorder;
use crate::present::ride_stats::RideStats;
use crate::present::stress::StressField;
use crate::sim::tuning::Tuning;
use crate::time::StepperConfig;
use crate::ui::{Layer, Telemetry, TelemetryStats};
use anyhow::Context as _;
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, KeyEvent, StartCause, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, KeyCode, PhysicalKey};
use winit::window::WindowId;

mod broken;
mod clock;
pub mod commands;
mod frame;
pub mod frame_ui;
pub mod ghosts;
mod graphics;
mod menus;
mod options;
mod reload;
mod runs;
mod saved;
pub mod session;
mod summary;
#[cfg(target_os = "linux")]
pub mod syslibs;
mod visibility;
pub mod wake;
mod watch;

pub use clock::{GameClock, Pacer, next_level_path};
pub use options::{AppOptions, Hitch, HitchError};
pub use summary::Summary;
pub use visibility::{Visibility, VisibilityStats};

use commands::{AppKey, Command};
use graphics::Graphics;
use session::{Mode, Session};
use wake::Wakeup;

/// The application state winit drives.
struct App {
    opts: AppOptions,
    game: Loop,
    keyboard: Keyboard,
    pads: Pads,
    pacer: Option<Pacer>,
    gfx: Option<Graphics>,
    /// The game clock's origin: set once the window and GPU are ready.
    start: Option<Instant>,
    /// The run of levels: mode, current level, results.
    session: Session,
    start_pos: glam::DVec2,
    min_y: f64,
    /// A startup error to return from [`run`].
    error: Option<anyhow::Error>,
    /// When the event loop is to start the next frame, while it waits in
    /// `ControlFlow::WaitUntil` (nothing to draw on, a still screen, or `--fps-cap` between
    /// frames); `None` while a redraw is requested or running.
    next_frame_at: Option<Instant>,
    /// `--record`: the session as a lab script.
    recorder: Option<Recorder>,
    /// Wall time minus paused time: what the loop and the recorder are given.
    clock: GameClock,
    /// The last frames, for the F3 overlay.
    telemetry: Telemetry,
    /// The overlay's numbers, refreshed a few times a second (`frame::STATS_REFRESH`).
    shown_stats: TelemetryStats,
    stats_at: Option<Instant>,
    /// F3 overlay on.
    show_overlay: bool,
    /// This frame's overlay quads and text (kept to reuse the allocations).
    ui: Layer,
    /// Alt is held (for Alt+Enter).
    alt_held: bool,
    /// The window has keyboard focus (last `Focused` event).
    has_focus: bool,
    /// Wall time of the next `--hitch` stall.
    next_hitch: Option<Instant>,
    /// `--stress`: the extra sprites, stepped on the fixed tick.
    stress: StressField,
    /// Their drawn positions this frame (kept to reuse the allocation).
    stress_drawn: Vec<glam::DVec2>,
    /// Minimised/occluded state and the loop's wake-ups meanwhile.
    visibility: Visibility,
    /// The ghost of the best run and the attempt being written ([`ghosts`]).
    ghosts: ghosts::Ghosts,
    /// The title, level select, pause, settings and end menus (`menus.rs`).
    menus: menus::Menus,
    /// Sound: each frame's tick cues, the music loop (paused with the game).
    audio: Audio,
    /// How steady a rider was drawn on its platform and on screen (`--stats`).
    ride: RideStats,
    /// Hot reload: the watcher, the HUD's notice, the broken-file banner (`reload.rs`).
    reload: reload::HotReload,
}

/// Hand an edge to the loop and, when recording, to the recorder, with the same time.
fn push_at(game: &mut Loop, recorder: &mut Option<Recorder>, t: u64, ev: InputEvent) {
    if let Some(r) = recorder {
        r.event(t, &ev);
    }
    game.push_event(t, ev);
}

impl App {
    /// Wall nanoseconds since the game clock started (0 before it started).
    fn wall_ns(&self) -> u64 {
        self.start.map_or(0, |s| s.elapsed().as_nanos() as u64)
    }

    /// The game clock now: nanoseconds since it started, paused time left out (0 before it
    /// started). The one time source for the loop and the recorder.
    fn now_ns(&self) -> u64 {
        self.clock.now(self.wall_ns())
    }

    fn push(&mut self, ev: InputEvent) {
        let t = self.now_ns();
        push_at(&mut self.game, &mut self.recorder, t, ev);
    }

    fn exit_due(&self) -> bool {
        match (self.opts.exit_after, self.start) {
            (Some(limit), Some(start)) => start.elapsed().as_secs_f64() >= limit,
            _ => false,
        }
    }

    fn init_graphics(&mut self, event_loop: &ActiveEventLoop) -> anyhow::Result<()> {
        self.gfx = Some(Graphics::open(event_loop, self.opts.vsync)?);
        if self.opts.fullscreen {
            self.toggle_fullscreen();
        }
        self.start = Some(Instant::now());
        if self.session.mode == Mode::Title {
            self.clock.freeze(0);
        }
        Ok(())
    }

    /// Stop the game clock and show `mode` (pause or end screen): the keyboard's held actions
    /// are released at this instant (through the loop and the recorder alike) and forgotten,
    /// so nothing stays held while the clock stands still.
    fn stop(&mut self, mode: Mode) {
        let wall = self.wall_ns();
        let t = self.clock.now(wall);
        self.release_keyboard(t);
        self.clock.freeze(wall);
        self.audio.pause_music();
        self.session.mode = mode;
        self.open_menu(mode);
        log::info!("{mode:?} at game time {:.3} s", t as f64 / 1e9);
        self.request_redraw();
    }

    /// Release every keyboard action held now, at game time `t` (through the loop and the
    /// recorder alike), and forget the keys: they must be pressed again to count.
    fn release_keyboard(&mut self, t: u64) {
        for a in Action::ALL {
            if self.keyboard.is_held(a) {
                push_at(&mut self.game, &mut self.recorder, t, InputEvent::Release(Source::Keyboard, a));
            }
        }
        self.keyboard.clear();
    }

    /// Pause (from playing only).
    fn pause(&mut self) {
        if self.session.mode == Mode::Playing && self.start.is_some() {
            self.stop(Mode::Paused);
        }
    }

    /// winit says the window is now minimised/fully occluded (`hidden`) or visible again:
    /// hidden, frames stop drawing and the loop sleeps until each next tick ([`Visibility`]);
    /// visible, continuous drawing starts again at once.
    fn set_hidden(&mut self, event_loop: &ActiveEventLoop, hidden: bool) {
        if !self.visibility.set_hidden(hidden, Instant::now()) {
            return;
        }
        log::info!("window {}", if hidden { "hidden: drawing stops" } else { "visible again" });
        if !hidden {
            event_loop.set_control_flow(ControlFlow::Wait);
            self.request_redraw();
        }
    }

    /// Do what a command key or pad button asks (see [`commands`]).
    fn command(&mut self, event_loop: &ActiveEventLoop, command: Command) {
        match command {
            Command::ToggleOverlay => {
                self.show_overlay = !self.show_overlay;
                self.stats_at = None;
            }
            Command::ToggleFullscreen => self.toggle_fullscreen(),
            Command::PlayAgain => self.play_again(),
            Command::Quit => event_loop.exit(),
            Command::Pause => self.pause(),
            Command::Resume => self.resume(),
            Command::GameSpeed { up } => self.step_game_speed(up),
            Command::ToggleGhost => {
                log::info!("ghost {}", if self.ghosts.toggle() { "shown" } else { "hidden" })
            }
        }
    }

    /// The game-speed keys: one 10 % step, from the next frame on. A recording holds one speed
    /// (its `config game_speed`), so the keys do nothing while recording.
    fn step_game_speed(&mut self, up: bool) {
        if self.recorder.is_some() {
            log::info!("game speed stays {} %: --record keeps one speed", self.game.game_speed().percent());
            return;
        }
        self.game.set_game_speed(self.game.game_speed().stepped(up));
        self.audio.set_music_rate(self.game.game_speed().factor());
    }

    /// Start the game clock again from where it stopped.
    fn resume(&mut self) {
        self.clock.thaw(self.wall_ns());
        self.audio.resume_music();
        self.session.mode = Mode::Playing;
        log::info!("playing at game time {:.3} s", self.now_ns() as f64 / 1e9);
        self.request_redraw();
    }

    fn request_redraw(&mut self) {
        self.next_frame_at = None;
        if let Some(g) = &self.gfx {
            g.window.request_redraw();
        }
    }

    /// Level finished: note its result, then the next level in the folder, or the end screen
    /// after the last one.
    fn complete_level(&mut self) {
        let next = next_level_path(&self.session.level_path).and_then(|p| {
            match crate::level::tiled_map::load_tmx(&p) {
                Ok(level) => Some((p, level)),
                Err(e) => {
                    log::error!("cannot load the next level: {e}");
                    None
                }
            }
        });
        match next {
            Some((path, level)) => {
                log::info!("level complete; now playing {}", path.display());
                self.session.level_path = path;
                // A level starts from rest: keys and pad buttons held through the goal are
                // released before its first tick, so every start is the same whatever was held
                // (press again to go).
                self.enter_level(level);
            }
            None => {
                log::info!("last level complete: end screen");
                self.stop(Mode::Finished);
            }
        }
    }

    /// From the end screen: the first level again, results cleared, clock running.
    fn play_again(&mut self) {
        let level = self.session.restart();
        self.game.load_level(level);
        self.start_run();
        self.resume();
    }

    fn toggle_fullscreen(&self) {
        if let Some(g) = &self.gfx {
            g.toggle_fullscreen();
        }
    }

    /// Handle a key press that drives the app rather than the player (see [`commands`]).
    /// Returns true when the key was such a command.
    fn command_key(&mut self, event_loop: &ActiveEventLoop, event: &KeyEvent) -> bool {
        let PhysicalKey::Code(code) = event.physical_key else {
            return false;
        };
        let key = AppKey {
            code: match code {
                KeyCode::F3 => commands::KeyCode::F3,
                KeyCode::F11 => commands::KeyCode::F11,
                KeyCode::Enter | KeyCode::NumpadEnter => commands::KeyCode::Enter,
                KeyCode::Escape => commands::KeyCode::Escape,
                KeyCode::Minus | KeyCode::NumpadSubtract => commands::KeyCode::Minus,
                KeyCode::Equal | KeyCode::NumpadAdd => commands::KeyCode::Equal,
                KeyCode::KeyG => commands::KeyCode::G,
                _ => commands::KeyCode::Other,
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

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        if let Err(e) = self.init_graphics(event_loop) {
            self.error = Some(e);
            event_loop.exit();
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::ModifiersChanged(m) => self.alt_held = m.state().alt_key(),
            WindowEvent::KeyboardInput { event, is_synthetic, .. } => {
                if self.menu_key(event_loop, &event, is_synthetic) {
                    return; // a menu is open: see menus.rs
                }
                if event.state == ElementState::Pressed
                    && !event.repeat
                    && !is_synthetic
                    && self.command_key(event_loop, &event)
                {
                    return;
                }
                if self.session.mode != Mode::Playing {
                    // Game keys wait for the game: see the module docs on pausing.
                    return;
                }
                let t = self.now_ns();
                let (game, rec) = (&mut self.game, &mut self.recorder);
                self.keyboard.key_event(&event, is_synthetic, &mut |ev| push_at(game, rec, t, ev));
            }
            WindowEvent::Focused(focused) => {
                log::debug!("window focus: {focused}");
                let had_focus = std::mem::replace(&mut self.has_focus, focused);
                if focused {
                    self.push(InputEvent::FocusGained);
                } else {
                    self.keyboard.clear();
                    self.alt_held = false;
                    self.push(InputEvent::FocusLost);
                    // Only a loss of focus the window had pauses: X11 reports "unfocused" once
                    // as the window opens, before anything was played.
                    if had_focus {
                        self.pause();
                    }
                }
            }
            WindowEvent::Resized(size) => {
                if let Some(r) = &mut self.recorder {
                    r.resize(size.width, size.height);
                }
                if let Some(g) = &mut self.gfx {
                    g.gpu.resize(size.width, size.height);
                    g.window.request_redraw();
                }
            }
            WindowEvent::ScaleFactorChanged { .. } => {
                if let Some(g) = &mut self.gfx {
                    let size = g.window.inner_size();
                    g.gpu.resize(size.width, size.height);
                }
            }
            WindowEvent::Occluded(hidden) => self.set_hidden(event_loop, hidden),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    fn new_events(&mut self, event_loop: &ActiveEventLoop, _cause: StartCause) {
        self.visibility.wakeup();
        let wakeup = wake::on_wakeup(self.next_frame_at, Instant::now(), self.visibility.is_hidden());
        if wakeup != Wakeup::Nothing {
            self.next_frame_at = None;
            event_loop.set_control_flow(ControlFlow::Wait);
        }
        match wakeup {
            Wakeup::Nothing => {}
            Wakeup::RunFrame => self.redraw(event_loop),
            Wakeup::Redraw => {
                if let Some(g) = &self.gfx {
                    g.window.request_redraw();
                }
            }
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.start.is_some() {
            let t = self.now_ns();
            let (game, rec) = (&mut self.game, &mut self.recorder);
            let mut menu = Vec::new();
            // Pad game input counts only while playing (a menu's A is no jump on resume).
            let playing = self.session.mode == Mode::Playing;
            self.pads.poll(
                &mut |ev| {
                    if playing {
                        push_at(game, rec, t, ev)
                    }
                },
                &mut |m| menu.push(m),
            );
            for m in menu.into_iter().filter(|_| playing) {
                if let Some(command) = commands::pad_command(m, self.session.mode) {
                    self.command(event_loop, command);
                }
            }
            self.menu_pads(event_loop, !playing);
        }
        if self.exit_due() {
            event_loop.exit();
        }
    }

    fn suspended(&mut self, _event_loop: &ActiveEventLoop) {
        log::info!("suspended");
    }
}

/// Play: load the tuning and the level, open the window, run until Q (paused), Esc (end
/// screen), close or `--exit-after`. Prints the one-line summary to stdout on exit and writes
/// `--stats`.
///
/// # Errors
/// A system library the window needs that cannot be loaded ([`syslibs::MissingLibrary`]:
/// one line naming it and its Debian package), a bad tuning file, a missing or malformed level, no assets folder, no event loop, no window,
/// no graphics adapter, no atlas, or an unwritable stats file. Never panics on these.
///
/// `app` is the play command's edge, like `main`: nothing calls `run` but `main` (and the
/// windowed tests), and no caller acts on the kind of its error, only prints it on one line;
/// so its errors, and those of opening the window and GPU, are `anyhow`, with the typed errors of the
/// layers below (`TuningError`, `LevelError`, `AssetError`, `RenderError`, ...) as sources.
pub fn run(opts: AppOptions) -> anyhow::Result<Summary> {
    #[cfg(target_os = "linux")]
    syslibs::check()?;
    let assets = crate::assets::assets_dir();
    let tuning_path = match &opts.tuning {
        Some(p) => p.clone(),
        None => assets.as_ref().map_err(|e| anyhow::anyhow!("{e}"))?.join("tuning.toml"),
    };
    let tuning = Tuning::load(&tuning_path)?;
    let reload = reload::HotReload::new(opts.watch, tuning_path);
    let level_path = match &opts.level {
        Some(p) => p.clone(),
        None => assets.as_ref().map_err(|e| anyhow::anyhow!("{e}"))?.join("levels/level1.tmx"),
    };
    let level = crate::level::tiled_map::load_tmx(&level_path)?;
    let start_pos = level.spawn;
    let config = StepperConfig::default();
    let recorder = opts.record.as_ref().map(|path| {
        let sha256 = level.origin.as_ref().map(|o| o.sha256);
        Recorder::new(path, &level_path, sha256, &tuning, &config, opts.game_speed)
    });
    let flag_ghost = opts.ghost.as_deref().map(|p| crate::lab::ghost::load(p, config.tick_hz)).transpose()?;
    let ghosts = ghosts::Ghosts::new(&level_path, flag_ghost);
    let mut game =
        Loop::new(level.clone(), tuning, config).map_err(|e| anyhow::anyhow!("loop config: {e}"))?;
    game.set_reduced_motion(opts.reduced_motion);
    // Screen shake, flashes, visual effects from `settings.toml` (no flags: the settings menu
    // changes them); the loop keeps them across `load_level`.
    game.set_cosmetic_settings(opts.save.settings().cosmetic());
    game.set_game_speed(opts.game_speed);
    game.set_measure_ticks(true);

    let mut builder = EventLoop::builder();
    // Any thread: lets tests drive `run` off the main thread (X11 and Wayland share the flag).
    #[cfg(all(unix, not(target_os = "macos"), not(target_os = "android")))]
    winit::platform::x11::EventLoopBuilderExtX11::with_any_thread(&mut builder, true);
    let event_loop = builder.build().context("cannot start the window event loop")?;
    event_loop.set_control_flow(ControlFlow::Wait);

    let stress = opts.stress;
    // No level named and nothing scripted (`--record`, `--exit-after`, `--stress`): the title.
    let title = opts.level.is_none() && opts.record.is_none() && opts.exit_after.is_none() && stress == 0;
    let shipped_first = assets.as_ref().ok().map(|a| a.join("levels/level1.tmx"));
    let menus = menus::Menus::new(shipped_first.as_deref());
    let mut audio = Audio::for_game(&opts.save);
    audio.set_music_rate(opts.game_speed.factor());
    audio.play_music(if title { Music::Menu } else { Music::Level });
    let (key_map, pad_map) = saved::input_maps(&opts.save);
    let mut pads = Pads::new();
    pads.set_map(pad_map);
    let mut app = App {
        pacer: opts.fps_cap.map(Pacer::new),
        opts,
        game,
        keyboard: Keyboard::with_map(key_map),
        pads,
        gfx: None,
        start: None,
        session: Session::new(level_path, level),
        start_pos,
        min_y: start_pos.y,
        error: None,
        next_frame_at: None,
        recorder,
        clock: GameClock::default(),
        telemetry: Telemetry::default(),
        shown_stats: TelemetryStats::default(),
        stats_at: None,
        show_overlay: false,
        ui: Layer::default(),
        alt_held: false,
        has_focus: false,
        next_hitch: None,
        stress: StressField::new(stress, 0x1ed6e),
        stress_drawn: Vec::new(),
        visibility: Visibility::default(),
        ghosts,
        menus,
        audio,
        ride: RideStats::default(),
        reload,
    };
    app.start_run();
    if title {
        app.session.mode = Mode::Title;
    }
    event_loop.run_app(&mut app).context("window event loop failed")?;
    if let Some(e) = app.error.take() {
        return Err(e);
    }
    let summary = app.summary();
    if let Some(rec) = app.recorder.take() {
        let path = rec.finish(summary.state_hash)?;
        log::info!("recorded the session to {}", path.display());
    }
    println!("{}", summary.line());
    if let Some(path) = &app.opts.stats {
        let text = serde_json::to_string_pretty(&summary.to_json())?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("{}: cannot write stats", path.display()))?;
    }
    Ok(summary)
}
