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
//! 2. playing only: game clock → [`Loop::frame`] (latch, ticks, interpolation, camera), the
//!    frame's stats → the F3 [`Telemetry`] ring;
//! 3. level complete → load the next level (`levelN+1.tmx` beside the current one), or, after
//!    the last one, show the end screen;
//! 4. acquire → [`SpriteRenderer`] draws [`Loop::view`] → the overlay pass draws the HUD,
//!    F3 overlay, pause or end screen ([`overlay`] builds them as quads and text;
//!    [`TextRenderer`] draws the text with glyphon) → submit → present;
//! 5. `--exit-after` reached → exit, else request the next redraw.
//!
//! # Keys (beside the game's own bindings in [`crate::input::keyboard`])
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
//!
//! Losing window focus also pauses (the latch's release-all happens as before); coming back
//! needs Esc (or the pad's Start). Only a focus the window had counts: the "unfocused" X11 reports as the window
//! opens does not pause. Quitting any way (Q, Esc on the end screen, closing the window, `--exit-after`)
//! prints the same summary.
//!
//! # Pause, the clock and `--record`
//!
//! Pausing freezes the game clock: [`GameClock`] keeps the paused wall time as an integer
//! offset in nanoseconds, and every time handed to the loop *and* the recorder is the same
//! `wall - offset` value, so the loop never sees the pause (no long frame, no clamp event)
//! and a recording holds no paused time: `ledge lab` replays it to the same state hash. While
//! paused no [`Loop::frame`] runs and no frame is recorded. On pausing, the keyboard's held
//! actions are released at the pause instant (recorded as ordinary releases) and forgotten;
//! game keys are not forwarded while paused, so after resuming a key must be pressed again.
//! Gamepad events keep flowing with the frozen time and take effect on resume.
//!
//! On exit [`run`] prints one summary line to stdout (and the same as JSON with `--stats`,
//! plus `paused_s`).

use crate::game_loop::{Loop, LoopConfig};
use crate::input::gamepad::{PadMenu, Pads};
use crate::input::keyboard::Keyboard;
use crate::input::{Action, InputEvent, Source};
use crate::lab::record::Recorder;
use crate::level::Level;
use crate::render::gpu::Gpu;
use crate::render::overlay::{
    self, Hud, Layer, LevelResult, OverlayInfo, Sample, Screen, Telemetry, TelemetryStats,
};
use crate::render::sprites::{SpriteRenderer, begin_overlay_pass};
use crate::render::stress::StressField;
use crate::render::text::TextRenderer;
use crate::render::view::VIEW_SIZE;
use crate::sim::tuning::Tuning;
use anyhow::Context as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::dpi::LogicalSize;
use winit::event::{ElementState, KeyEvent, StartCause, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, KeyCode, PhysicalKey};
use winit::window::{Fullscreen, Window, WindowId};

mod clock;
mod options;
mod summary;
#[cfg(target_os = "linux")]
pub mod syslibs;
mod visibility;

pub use clock::{GameClock, Pacer, next_level_path};
pub use options::{AppOptions, Hitch};
pub use summary::Summary;
pub use visibility::{Visibility, VisibilityStats};

/// What the game is doing: the game clock runs only while [`Mode::Playing`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Frames run the loop.
    Playing,
    /// The pause screen (Esc or focus lost): clock stopped.
    Paused,
    /// The end screen after the last level: clock stopped.
    Finished,
}

/// How often the F3 overlay's numbers are refreshed (the graphs move every frame).
const STATS_REFRESH: Duration = Duration::from_millis(250);

/// Window, GPU and renderer: exist from `resumed` on.
struct Graphics {
    window: Arc<Window>,
    gpu: Gpu,
    renderer: SpriteRenderer,
    text: TextRenderer,
}

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
    /// The level file being played (for finding the next one).
    level_path: PathBuf,
    /// The first level, to loop back to.
    first_level: (PathBuf, Level),
    levels_completed: u32,
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
    mode: Mode,
    /// The last frames, for the F3 overlay.
    telemetry: Telemetry,
    /// The overlay's numbers, refreshed every [`STATS_REFRESH`].
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
    /// Tick count and deaths when the current level started (for the HUD).
    level_start_tick: u64,
    level_start_deaths: u64,
    /// Levels finished since the first (for the end screen).
    results: Vec<LevelResult>,
    /// Wall time of the next `--hitch` stall.
    next_hitch: Option<Instant>,
    /// `--stress`: the extra sprites, stepped on the fixed tick.
    stress: StressField,
    /// Their drawn positions this frame (kept to reuse the allocation).
    stress_drawn: Vec<glam::DVec2>,
    /// Minimised/occluded state and the loop's wake-ups meanwhile.
    visibility: Visibility,
}

/// Hand an edge to the loop and, when recording, to the recorder, with the same time.
fn push_at(game: &mut Loop, recorder: &mut Option<Recorder>, t: u64, ev: InputEvent) {
    if let Some(r) = recorder {
        r.event(t, &ev);
    }
    game.push_event(t, ev);
}

/// Frame interval while the window cannot be drawn (minimised, occluded): 60 Hz.
const IDLE_FRAME: Duration = Duration::from_micros(16_667);

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
        let attrs =
            Window::default_attributes().with_title("Ledge").with_inner_size(LogicalSize::new(1280.0, 720.0));
        let window = Arc::new(event_loop.create_window(attrs).context("cannot open a window")?);
        let gpu = Gpu::new(window.clone(), self.opts.vsync)?;
        let renderer = SpriteRenderer::new(&gpu.ctx, gpu.format())?;
        let text = TextRenderer::new(&gpu.ctx, gpu.format()).context("cannot load the UI font")?;
        log::info!(
            "ledge: adapter {}, present mode {:?}, surface {:?}",
            gpu.ctx.info,
            gpu.present_mode(),
            gpu.size()
        );
        window.request_redraw();
        self.gfx = Some(Graphics { window, gpu, renderer, text });
        self.start = Some(Instant::now());
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
        self.mode = mode;
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
        if self.mode == Mode::Playing && self.start.is_some() {
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

    /// Esc or the pad's Start while playing or paused: pause, or resume.
    fn toggle_pause(&mut self) {
        match self.mode {
            Mode::Playing => self.pause(),
            Mode::Paused => self.resume(),
            Mode::Finished => {}
        }
    }

    /// A gamepad menu button (see the module's key table).
    fn pad_menu(&mut self, event_loop: &ActiveEventLoop, button: PadMenu) {
        match (button, self.mode) {
            (PadMenu::Start, Mode::Finished) => self.play_again(),
            (PadMenu::Start, _) => self.toggle_pause(),
            (PadMenu::Select, Mode::Paused | Mode::Finished) => event_loop.exit(),
            (PadMenu::Select, Mode::Playing) => {}
        }
    }

    /// Start the game clock again from where it stopped.
    fn resume(&mut self) {
        self.clock.thaw(self.wall_ns());
        self.mode = Mode::Playing;
        log::info!("playing at game time {:.3} s", self.now_ns() as f64 / 1e9);
        self.request_redraw();
    }

    fn request_redraw(&mut self) {
        self.next_frame_at = None;
        if let Some(g) = &self.gfx {
            g.window.request_redraw();
        }
    }

    /// Remember where the current level started (HUD time and deaths count from here).
    fn start_level(&mut self) {
        let w = self.game.world();
        self.level_start_tick = w.tick;
        self.level_start_deaths = w.deaths;
    }

    /// Level finished: note its result, then the next level in the folder, or the end screen
    /// after the last one.
    fn complete_level(&mut self) {
        self.levels_completed += 1;
        let w = self.game.world();
        self.results.push(LevelResult {
            name: self.game.level().name.clone(),
            deaths: w.deaths.saturating_sub(self.level_start_deaths),
            ticks: w.tick.saturating_sub(self.level_start_tick),
        });
        let next =
            next_level_path(&self.level_path).and_then(|p| match crate::level::tiled_map::load_tmx(&p) {
                Ok(level) => Some((p, level)),
                Err(e) => {
                    log::error!("cannot load the next level: {e}");
                    None
                }
            });
        match next {
            Some((path, level)) => {
                log::info!("level complete; now playing {}", path.display());
                self.level_path = path;
                self.game.load_level(level);
                // A level starts from rest: keys and pad buttons held through the goal are
                // released before its first tick, so every start is the same whatever was held
                // (press again to go).
                let t = self.now_ns();
                self.release_keyboard(t);
                let (game, rec) = (&mut self.game, &mut self.recorder);
                self.pads.release_all(&mut |ev| push_at(game, rec, t, ev));
                self.start_level();
            }
            None => {
                log::info!("last level complete: end screen");
                self.stop(Mode::Finished);
            }
        }
    }

    /// From the end screen: the first level again, results cleared, clock running.
    fn play_again(&mut self) {
        let (path, level) = self.first_level.clone();
        self.level_path = path;
        self.game.load_level(level);
        self.start_level();
        self.results.clear();
        self.resume();
    }

    fn toggle_fullscreen(&self) {
        if let Some(g) = &self.gfx {
            let next =
                if g.window.fullscreen().is_some() { None } else { Some(Fullscreen::Borderless(None)) };
            log::info!("fullscreen: {}", next.is_some());
            g.window.set_fullscreen(next);
        }
    }

    /// Handle a key press that drives the app rather than the player (see the module's key
    /// table). Esc, Enter, F3 and F11 are physical keys; Q is the key that types "q" (the
    /// letter the pause screen names, wherever the layout puts it). Returns true when the key
    /// was such a command.
    fn command_key(&mut self, event_loop: &ActiveEventLoop, event: &KeyEvent) -> bool {
        let PhysicalKey::Code(code) = event.physical_key else {
            return false;
        };
        let enter = matches!(code, KeyCode::Enter | KeyCode::NumpadEnter);
        let q = matches!(&event.logical_key, Key::Character(c) if c.eq_ignore_ascii_case("q"));
        match code {
            KeyCode::F3 => {
                self.show_overlay = !self.show_overlay;
                self.stats_at = None;
            }
            KeyCode::F11 => self.toggle_fullscreen(),
            _ if enter && self.alt_held => self.toggle_fullscreen(),
            _ if enter && self.mode == Mode::Finished => self.play_again(),
            KeyCode::Escape if self.mode == Mode::Finished => event_loop.exit(),
            KeyCode::Escape => self.toggle_pause(),
            _ if q && self.mode != Mode::Playing => event_loop.exit(),
            _ => return false,
        }
        true
    }

    /// This frame's HUD, F3 overlay and pause screen, or the end screen, for a `size` (width,
    /// height) target. The end screen shows no F3 overlay: the clock is stopped there, and the
    /// panel would cover the results table.
    fn build_ui(&self, out: &mut Layer, size: (u32, u32)) {
        out.clear();
        let scr = Screen::new(size.0, size.1);
        let tick_hz = self.game.config().tick_hz;
        if self.mode != Mode::Finished {
            let w = self.game.world();
            overlay::hud(
                out,
                &scr,
                &Hud {
                    level: &self.game.level().name,
                    deaths: w.deaths.saturating_sub(self.level_start_deaths),
                    ticks: w.tick.saturating_sub(self.level_start_tick),
                    tick_hz,
                },
            );
        }
        if self.show_overlay && self.mode != Mode::Finished {
            let (present_mode, adapter) = self.gfx.as_ref().map_or_else(
                || (String::new(), String::new()),
                |g| {
                    (
                        format!("{:?}", g.gpu.present_mode()),
                        format!("{} ({})", g.gpu.ctx.info.name, g.gpu.ctx.info.backend),
                    )
                },
            );
            let totals = self.game.totals();
            overlay::telemetry_overlay(
                out,
                &scr,
                &self.telemetry,
                &self.shown_stats,
                &OverlayInfo {
                    tick_hz,
                    present_mode: &present_mode,
                    adapter: &adapter,
                    vsync: self.opts.vsync,
                    fps_cap: self.opts.fps_cap,
                    total_clamps: totals.clamp_events,
                    total_caps: totals.cap_hits,
                    sprites: self.gfx.as_ref().map_or(0, |g| g.renderer.instance_count()),
                    stress: self.stress.len(),
                },
            );
        }
        match self.mode {
            Mode::Paused => overlay::pause_screen(out, &scr),
            Mode::Finished => overlay::end_screen(out, &scr, &self.results, tick_hz),
            Mode::Playing => {}
        }
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        if let (Some(h), Some(start)) = (self.opts.hitch, self.start) {
            let period = Duration::from_secs_f64(h.every_s);
            let due = *self.next_hitch.get_or_insert(start + period);
            if Instant::now() >= due {
                std::thread::sleep(Duration::from_secs_f64(h.ms / 1000.0));
                self.next_hitch = Some(due + period);
            }
        }
        if let Some(p) = &mut self.pacer {
            p.wait();
        }
        let playing = self.mode == Mode::Playing;
        if playing {
            let now = self.now_ns();
            let stats = self.game.frame(now);
            let dt = 1.0 / f64::from(self.game.config().tick_hz);
            for _ in 0..stats.steps {
                self.stress.step(dt);
            }
            if let Some(r) = &mut self.recorder {
                r.frame(now);
            }
            self.telemetry.push(Sample::from(&stats));
            if self.game.world().level_complete {
                if self.recorder.is_some() {
                    // A recording replays one level: end the session on its goal.
                    event_loop.exit();
                    return;
                }
                self.complete_level();
            }
            self.min_y = self.min_y.min(self.game.world().player.pos.y);
        }
        if self.show_overlay && self.stats_at.is_none_or(|t| t.elapsed() >= STATS_REFRESH) {
            self.shown_stats = self.telemetry.stats();
            self.stats_at = Some(Instant::now());
        }

        let mut drawn = false;
        let hidden = self.visibility.is_hidden();
        if let Some(frame) = self.gfx.as_mut().filter(|_| !hidden).and_then(|g| g.gpu.acquire()) {
            let mut ui = std::mem::take(&mut self.ui);
            self.build_ui(&mut ui, frame.size);
            if let Some(g) = &mut self.gfx {
                let mut view = self.game.view();
                if !self.stress.is_empty() {
                    let origin = view.camera - VIEW_SIZE / 2.0;
                    self.stress.drawn(self.game.stepper().alpha(), origin, &mut self.stress_drawn);
                    view.extra = &self.stress_drawn;
                }
                let ctx = &g.gpu.ctx;
                g.renderer.prepare(ctx, &view, frame.size);
                g.renderer.prepare_screen(ctx, &ui.quads, frame.size);
                g.text.prepare(ctx, frame.size, &ui.text);
                let mut encoder = ctx
                    .device
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame encoder") });
                g.renderer.draw(&mut encoder, &frame.view);
                {
                    let mut pass = begin_overlay_pass(&mut encoder, &frame.view);
                    g.renderer.draw_screen(&mut pass);
                    g.text.draw(&mut pass);
                }
                ctx.queue.submit([encoder.finish()]);
                g.window.pre_present_notify();
                g.gpu.present(frame);
                g.text.trim();
                self.visibility.presented(self.mode == Mode::Playing, Instant::now());
                drawn = true;
            }
            self.ui = ui;
        }
        if self.exit_due() {
            event_loop.exit();
        } else if drawn && (self.mode == Mode::Playing || self.pacer.is_some()) {
            // Continuous rendering, paced by the present mode or --fps-cap. With --fps-cap the
            // loop waits for the next frame in the event loop rather than in a sleep, so input
            // that arrives meanwhile is handled, and stamped, when it arrives, not at the next
            // frame; the pacer then spins only the last stretch.
            match self.pacer.as_ref().and_then(|p| p.wake_before_deadline(Instant::now())) {
                Some(at) => {
                    self.next_frame_at = Some(at);
                    event_loop.set_control_flow(ControlFlow::WaitUntil(at));
                }
                None => {
                    if let Some(g) = &self.gfx {
                        g.window.request_redraw();
                    }
                }
            }
        } else {
            // Nothing to draw on (minimised, occluded, surface timeout), or a still pause/end
            // screen with no --fps-cap to pace it: keep the screen and the pads going at a
            // gentle rate instead of spinning. Playing, the loop sleeps until the next tick is
            // due (at most one wake-up per tick); otherwise for one 60 Hz frame.
            let sleep = if self.mode == Mode::Playing {
                Duration::from_nanos(self.game.stepper().ns_to_next_tick())
            } else {
                IDLE_FRAME
            };
            let at = Instant::now() + sleep;
            self.next_frame_at = Some(at);
            event_loop.set_control_flow(ControlFlow::WaitUntil(at));
        }
    }

    fn summary(&self) -> Summary {
        let t = self.game.totals();
        let wall_ns = self.wall_ns();
        let wall_s = wall_ns as f64 / 1e9;
        let paused_s = self.clock.paused_ns(wall_ns) as f64 / 1e9;
        let played_s = wall_s - paused_s;
        let player = self.game.world().player.pos;
        let (late_mean, late_max) = self.pacer.as_ref().map_or((0.0, 0.0), Pacer::lateness_us);
        let (window_w, window_h) =
            self.gfx.as_ref().map_or((0, 0), |g| (g.window.inner_size().width, g.window.inner_size().height));
        let stats = self.gfx.as_ref().map(|g| g.gpu.stats()).unwrap_or_default();
        let vis = self.visibility.stats(Instant::now());
        Summary {
            frames: t.frames,
            ticks: t.ticks,
            mean_fps: if played_s > 0.0 { t.frames as f64 / played_s } else { 0.0 },
            max_ticks_in_frame: t.max_steps_in_frame,
            clamp_events: t.clamp_events,
            cap_hits: t.cap_hits,
            jumps: t.jumps,
            respawns: t.respawns,
            state_hash: self.game.state_hash(),
            player_x: player.x,
            player_y: player.y,
            start_x: self.start_pos.x,
            start_y: self.start_pos.y,
            max_rise: self.start_pos.y - self.min_y,
            window_w,
            window_h,
            wall_s,
            paused_s,
            levels_completed: self.levels_completed,
            pace_late_mean_us: late_mean,
            pace_late_max_us: late_max,
            presented: stats.presented,
            skipped_draws: stats.timeouts + stats.occluded + stats.validation + stats.zero_size,
            hidden_s: vis.hidden_s,
            hidden_wakeups: vis.hidden_wakeups,
            restores: vis.restores,
            fps_since_restore: vis.fps_since_restore,
            adapter: self.gfx.as_ref().map_or_else(String::new, |g| g.gpu.ctx.info.to_string()),
            present_mode: self
                .gfx
                .as_ref()
                .map_or_else(String::new, |g| format!("{:?}", g.gpu.present_mode())),
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
                if event.state == ElementState::Pressed
                    && !event.repeat
                    && !is_synthetic
                    && self.command_key(event_loop, &event)
                {
                    return;
                }
                if self.mode != Mode::Playing {
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
        if self.next_frame_at.is_some_and(|at| Instant::now() >= at) {
            self.next_frame_at = None;
            event_loop.set_control_flow(ControlFlow::Wait);
            if self.visibility.is_hidden() {
                // Nothing to draw: run the frame (its ticks) in this wake-up rather than ask
                // for a redraw, which would wake the loop a second time.
                self.redraw(event_loop);
            } else if let Some(g) = &self.gfx {
                g.window.request_redraw();
            }
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.start.is_some() {
            let t = self.now_ns();
            let (game, rec) = (&mut self.game, &mut self.recorder);
            let mut menu = Vec::new();
            self.pads.poll(&mut |ev| push_at(game, rec, t, ev), &mut |m| menu.push(m));
            for m in menu {
                self.pad_menu(event_loop, m);
            }
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
pub fn run(opts: AppOptions) -> anyhow::Result<Summary> {
    #[cfg(target_os = "linux")]
    syslibs::check()?;
    let assets = crate::assets::assets_dir();
    let tuning_path = match &opts.tuning {
        Some(p) => p.clone(),
        None => assets.as_ref().map_err(|e| anyhow::anyhow!("{e}"))?.join("tuning.toml"),
    };
    let tuning = Tuning::load(&tuning_path)?;
    let level_path = match &opts.level {
        Some(p) => p.clone(),
        None => assets.as_ref().map_err(|e| anyhow::anyhow!("{e}"))?.join("levels/level1.tmx"),
    };
    let level = crate::level::tiled_map::load_tmx(&level_path)?;
    let start_pos = level.spawn;
    let config = LoopConfig::default();
    let recorder = opts.record.as_ref().map(|path| Recorder::new(path, &level_path, &tuning, &config));
    let mut game =
        Loop::new(level.clone(), tuning, config).map_err(|e| anyhow::anyhow!("loop config: {e}"))?;
    game.set_reduced_motion(opts.reduced_motion);
    game.set_measure_ticks(true);

    let mut builder = EventLoop::builder();
    // Any thread: lets tests drive `run` off the main thread (X11 and Wayland share the flag).
    #[cfg(all(unix, not(target_os = "macos"), not(target_os = "android")))]
    winit::platform::x11::EventLoopBuilderExtX11::with_any_thread(&mut builder, true);
    let event_loop = builder.build().context("cannot start the window event loop")?;
    event_loop.set_control_flow(ControlFlow::Wait);

    let stress = opts.stress;
    let mut app = App {
        pacer: opts.fps_cap.map(Pacer::new),
        opts,
        game,
        keyboard: Keyboard::new(),
        pads: Pads::new(),
        gfx: None,
        start: None,
        first_level: (level_path.clone(), level),
        level_path,
        levels_completed: 0,
        start_pos,
        min_y: start_pos.y,
        error: None,
        next_frame_at: None,
        recorder,
        clock: GameClock::default(),
        mode: Mode::Playing,
        telemetry: Telemetry::default(),
        shown_stats: TelemetryStats::default(),
        stats_at: None,
        show_overlay: false,
        ui: Layer::default(),
        alt_held: false,
        has_focus: false,
        level_start_tick: 0,
        level_start_deaths: 0,
        results: Vec::new(),
        next_hitch: None,
        stress: StressField::new(stress, 0x1ed6e),
        stress_drawn: Vec::new(),
        visibility: Visibility::default(),
    };
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
