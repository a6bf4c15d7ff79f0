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
//!    [`Telemetry`] ring; on the title: its background's own loop stepped to now (`title.rs`);
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
//!
//! # In a browser
//!
//! Built for wasm32-unknown-unknown, the same `App` runs in a page: [`web`] fetches the page's
//! files and starts it (`start.rs`'s `run_in_page`, winit's `spawn_app`); `page.rs` has what
//! differs there (the GPU opened off the event loop, sound on the first gesture, a hidden tab
//! pausing, what the page reads from `window`).

use crate::audio::Audio;
use crate::game_loop::Loop;
use crate::input::gamepad::Pads;
use crate::input::keyboard::Keyboard;
use crate::input::{Action, InputEvent, Source};
use crate::lab::record::Recorder;
use crate::present::ride_stats::RideStats;
use crate::present::stress::StressField;
use crate::ui::{Layer, Telemetry, TelemetryStats};
use web_time::Instant;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, StartCause, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::window::WindowId;

mod act;
mod broken;
mod clock;
pub mod commands;
mod device_loss;
mod frame;
pub mod frame_ui;
pub mod ghosts;
mod graphics;
mod latency_log;
mod menus;
mod moment;
mod options;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub mod page;
mod practice;
pub mod race;
mod reload;
pub mod replay;
mod runs;
mod saved;
pub mod session;
mod start;
mod summary;
#[cfg(target_os = "linux")]
pub mod syslibs;
mod title;
mod visibility;
pub mod wake;
mod watch;
pub mod web;

pub use clock::{GameClock, Pacer, next_level_path};
pub use options::{AppOptions, Hitch, HitchError};
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use start::run;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use start::run_in_page;
pub use summary::Summary;
pub use visibility::{Visibility, VisibilityStats};

use commands::Command;
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
    /// Input-to-present delays: F3's p50/p99 and `--latency-log`.
    latency: latency_log::LatencyLog,
    /// `--lose-device-after` and the lost devices replaced (`device_loss.rs`).
    device_loss: device_loss::DeviceLoss,
    /// The HUD's practice notice ("state saved", `practice.rs`).
    practice: moment::Moment<&'static str>,
    /// The segment that ended last and when (the HUD shows its time against its best a moment).
    last_segment: moment::Moment<crate::timer::SegmentSplit>,
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
    /// An online race (`race.rs`): the loop driven by its peer.
    race: Option<race::LiveRace>,
    /// The replay window (`replay.rs`): the loop shows a run's frames, nothing is played.
    replay: Option<replay::Replaying>,
    /// In a browser: the GPU being opened, the sound waiting for a gesture (`page.rs`).
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    page: page::Page,
}

/// A game key or pad edge that arrived now at game time `t`: to the race's runner on the
/// race's clock in a race ([`race::LiveRace::push`]), else as [`push_at`].
fn push_game(
    game: &mut Loop,
    recorder: &mut Option<Recorder>,
    live: &mut Option<race::LiveRace>,
    t: u64,
    ev: InputEvent,
) {
    match live {
        Some(r) => r.push(game, ev),
        None => push_at(game, recorder, t, ev),
    }
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
        // A replay's loop plays its script's input and nothing else.
        if self.replay.is_some() {
            return;
        }
        if let Some(r) = &mut self.race {
            r.push(&mut self.game, ev);
            return;
        }
        let t = self.now_ns();
        push_at(&mut self.game, &mut self.recorder, t, ev);
    }

    fn exit_due(&self) -> bool {
        match (self.opts.exit_after, self.start) {
            (Some(limit), Some(start)) => start.elapsed().as_secs_f64() >= limit,
            _ => false,
        }
    }

    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fn init_graphics(&mut self, event_loop: &ActiveEventLoop) -> anyhow::Result<()> {
        self.graphics_ready(Graphics::open(event_loop, self.opts.vsync)?);
        Ok(())
    }

    /// The window and GPU are open: the game clock starts.
    fn graphics_ready(&mut self, mut gfx: Graphics) {
        if let Some(frames) = self.opts.frame_latency {
            gfx.gpu.set_frame_latency(frames);
        }
        self.gfx = Some(gfx);
        if self.opts.fullscreen {
            self.toggle_fullscreen();
        }
        self.start = Some(Instant::now());
        if self.session.mode == Mode::Title {
            self.clock.freeze(0);
        }
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
        if let Some(r) = &mut self.replay {
            r.playback.pause();
            return;
        }
        // A race never pauses: the others race on, and a peer that stops answering is
        // dropped after 3 s.
        if self.session.mode == Mode::Playing && self.start.is_some() && self.race.is_none() {
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
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        if let Err(e) = self.open_in_page(event_loop) {
            self.fail(event_loop, e);
        }
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        if let Err(e) = self.init_graphics(event_loop) {
            self.error = Some(e);
            event_loop.exit();
        }
    }

    /// In a page: the GPU opened (or failed), or the tab was hidden (`page.rs`).
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    fn user_event(&mut self, event_loop: &ActiveEventLoop, _: ()) {
        self.page_event(event_loop);
    }

    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        self.finish_in_page();
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        if self.page.window.is_some_and(|w| w != _id) {
            return;
        }
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::ModifiersChanged(m) => self.alt_held = m.state().alt_key(),
            WindowEvent::KeyboardInput { event, is_synthetic, .. } => {
                #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
                self.gesture();
                if self.replay.is_some() {
                    if !is_synthetic {
                        self.replay_key(event_loop, &event);
                    }
                    return;
                }
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
                let (game, rec, live) = (&mut self.game, &mut self.recorder, &mut self.race);
                self.keyboard.key_event(&event, is_synthetic, &mut |ev| push_game(game, rec, live, t, ev));
            }
            WindowEvent::Focused(focused) => {
                log::debug!("window focus: {focused}");
                let had_focus = std::mem::replace(&mut self.has_focus, focused);
                // A replay's loop hears nothing of the window: losing a focus it had pauses
                // the playback, as it pauses the game.
                if let Some(r) = &mut self.replay {
                    if !focused && had_focus {
                        r.playback.pause();
                    }
                    return;
                }
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
            #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
            WindowEvent::MouseInput { .. } => self.gesture(),
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
            Wakeup::Nothing | Wakeup::Unplanned => {}
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
            let (game, rec, live) = (&mut self.game, &mut self.recorder, &mut self.race);
            let mut menu = Vec::new();
            // Pad game input counts only while playing (a menu's A is no jump on resume).
            let playing = self.session.mode == Mode::Playing;
            let mut replayed = Vec::new();
            let replaying = self.replay.is_some();
            self.pads.poll(
                &mut |ev| match () {
                    _ if replaying => replayed.push(ev),
                    _ if playing => push_game(game, rec, live, t, ev),
                    _ => {}
                },
                &mut |m| menu.push(m),
            );
            for ev in replayed {
                self.replay_pad(ev);
            }
            for m in menu.into_iter().filter(|_| playing) {
                if self.replay.is_some() {
                    self.replay_pad_menu(m);
                    continue;
                }
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
