//! Starting and ending a game: the [`App`] built from the options (tuning, level, recorder,
//! ghosts, loop, menus, sound, pads), the event loop run on a desktop ([`run`]) or handed to
//! the browser ([`run_in_page`]), and the exit summary, recording and `--stats` at the end.
//!
//! Clock: before the event loop starts and after it ends (in a page: at its `exiting`).

use super::{App, GameClock, Pacer, ghosts, menus, reload, saved};
use super::{AppOptions, session::Mode, session::Session};
use crate::audio::{Audio, Music};
use crate::game_loop::Loop;
use crate::input::gamepad::Pads;
use crate::lab::record::Recorder;
use crate::present::ride_stats::RideStats;
use crate::present::stress::StressField;
use crate::sim::tuning::Tuning;
use crate::time::StepperConfig;
use crate::ui::{Layer, Telemetry, TelemetryStats};
use anyhow::Context as _;

/// The app for `opts`, and whether it opens on the title. `audio` opens the sound now (a
/// desktop) or leaves it silent until the first key or click (a page: see `page.rs`).
///
/// # Errors
/// As [`run`], but for the window and GPU, which open later.
fn build(opts: AppOptions, audio_now: bool) -> anyhow::Result<App> {
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
    let replaying = opts.replay.as_ref().map(super::replay::Replaying::open).transpose()?;
    let level = match &replaying {
        Some((_, lp)) => lp.level().clone(),
        None => crate::level::tiled_map::load_tmx(&level_path)?,
    };
    let start_pos = level.spawn;
    let config = StepperConfig::default();
    let recorder = opts.record.as_ref().filter(|_| opts.race.is_none() && replaying.is_none()).map(|path| {
        let sha256 = level.origin.as_ref().map(|o| o.sha256);
        Recorder::new(path, &level_path, sha256, &tuning, &config, opts.game_speed, opts.invincible)
    });
    let flag_ghost = opts.ghost.as_deref().map(|p| crate::lab::ghost::load(p, config.tick_hz)).transpose()?;
    let ghosts = ghosts::Ghosts::new(&level_path, flag_ghost);
    let (game, replay) = match replaying {
        // The run's own setup (level, tuning, speed, effects), exactly as the lab plays it.
        Some((r, lp)) => (lp, Some(r)),
        None => {
            let mut game =
                Loop::new(level.clone(), tuning, config).map_err(|e| anyhow::anyhow!("loop config: {e}"))?;
            game.set_reduced_motion(opts.reduced_motion);
            // Screen shake, flashes, visual effects from `settings.toml` (no flags: the settings
            // menu changes them); the loop keeps them across `load_level`.
            game.set_cosmetic_settings(opts.save.settings().cosmetic());
            game.set_game_speed(opts.game_speed);
            game.set_invincible(opts.invincible);
            game.set_measure_ticks(true);
            (game, None)
        }
    };

    let stress = opts.stress;
    // No level named and nothing scripted (`--record`, `--exit-after`, `--stress`): the title.
    let title = opts.level.is_none()
        && opts.record.is_none()
        && opts.exit_after.is_none()
        && stress == 0
        && opts.race.is_none()
        && opts.replay.is_none();
    let shipped_first = assets.as_ref().ok().map(|a| a.join("levels/level1.tmx"));
    let menus = menus::Menus::new(shipped_first.as_deref());
    let mut pads = Pads::new();
    let keyboard = saved::input_maps(&opts.save, &mut pads);
    let mut app = App {
        pacer: opts.fps_cap.map(Pacer::new),
        game,
        keyboard,
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
        latency: super::latency_log::LatencyLog::open(opts.latency_log.as_deref())?,
        device_loss: super::device_loss::DeviceLoss::new(opts.lose_device_after),
        practice: super::moment::Moment::new(super::practice::NOTICE_FOR),
        last_segment: super::moment::Moment::new(super::frame::SEGMENT_SHOWN),
        shown_stats: TelemetryStats::default(),
        stats_at: None,
        show_overlay: false,
        ui: Layer::default(),
        alt_held: false,
        has_focus: false,
        next_hitch: None,
        stress: StressField::new(stress, 0x1ed6e),
        stress_drawn: Vec::new(),
        visibility: super::Visibility::default(),
        ghosts,
        menus,
        audio: Audio::silent(),
        ride: RideStats::default(),
        reload,
        race: None,
        replay,
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        page: super::page::Page::default(),
        opts,
    };
    if let Some(start) = app.opts.race.clone() {
        let line =
            crate::lab::script::LevelSource::File(app.session.level_path.display().to_string(), 0, None);
        app.race =
            Some(super::race::LiveRace::join(&start, &mut app.game, line).map_err(anyhow::Error::msg)?);
    }
    app.start_run();
    if title {
        app.session.mode = Mode::Title;
    }
    if audio_now {
        app.start_audio();
    }
    Ok(app)
}

impl App {
    /// Open the sound at the saved volumes and play the music for the mode shown.
    pub(super) fn start_audio(&mut self) {
        self.audio = Audio::for_game(&self.opts.save);
        self.audio.set_music_rate(self.opts.game_speed.factor());
        self.audio.play_music(if self.session.mode == Mode::Playing { Music::Level } else { Music::Menu });
        if matches!(self.session.mode, Mode::Paused | Mode::Finished) {
            self.audio.pause_music();
        }
    }

    /// The session is over: its summary, the recording written, the summary line on stdout
    /// and `--stats`.
    ///
    /// # Errors
    /// The recording or the stats file cannot be written.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fn finish(&mut self) -> anyhow::Result<super::Summary> {
        self.give_back_game();
        let summary = self.summary();
        self.latency.finish(&self.game)?;
        if let Some(race) = &mut self.race {
            let end = race.finish(&self.game).map_err(anyhow::Error::msg)?;
            if let Some(path) = &self.opts.record {
                crate::save::atomic::write_atomic(path, end.record.as_bytes())
                    .with_context(|| format!("--record {}", path.display()))?;
            }
            for line in end.summary.lines() {
                println!("{line}");
            }
            return Ok(summary);
        }
        if self.replay.is_some() {
            println!("{}", crate::lab::playback::summary_line(&self.game));
            return Ok(summary);
        }
        if let Some(rec) = self.recorder.take() {
            let path = rec.finish(summary.state_hash)?;
            log::info!("recorded the session to {}", path.display());
        }
        println!("{}", summary.line());
        if let Some(path) = &self.opts.stats {
            let text = serde_json::to_string_pretty(&summary.to_json())?;
            std::fs::write(path, text + "\n")
                .with_context(|| format!("{}: cannot write stats", path.display()))?;
        }
        Ok(summary)
    }
}

/// Play: load the tuning and the level, open the window, run until Q (paused), Esc (end
/// screen), close or `--exit-after`. Prints the one-line summary to stdout on exit and writes
/// `--stats`.
///
/// # Errors
/// A system library the window needs that cannot be loaded ([`super::syslibs::MissingLibrary`]:
/// one line naming it and its Debian package), a bad tuning file, a missing or malformed level, no assets folder, no event loop, no window,
/// no graphics adapter, no atlas, or an unwritable stats file. Never panics on these.
///
/// `app` is the play command's edge, like `main`: nothing calls `run` but `main` (and the
/// windowed tests), and no caller acts on the kind of its error, only prints it on one line;
/// so its errors, and those of opening the window and GPU, are `anyhow`, with the typed errors of the
/// layers below (`TuningError`, `LevelError`, `AssetError`, `RenderError`, ...) as sources.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn run(opts: AppOptions) -> anyhow::Result<super::Summary> {
    use winit::event_loop::{ControlFlow, EventLoop};
    #[cfg(target_os = "linux")]
    super::syslibs::check()?;
    let mut app = build(opts, true)?;
    let mut builder = EventLoop::builder();
    // Any thread: lets tests drive `run` off the main thread (X11 and Wayland share the flag).
    #[cfg(all(unix, not(target_os = "macos"), not(target_os = "android")))]
    winit::platform::x11::EventLoopBuilderExtX11::with_any_thread(&mut builder, true);
    let event_loop = builder.build().context("cannot start the window event loop")?;
    event_loop.set_control_flow(ControlFlow::Wait);
    event_loop.run_app(&mut app).context("window event loop failed")?;
    if let Some(e) = app.error.take() {
        return Err(e);
    }
    app.finish()
}

/// Play in a browser page: as [`run`], with the window on the page's canvas and the event loop
/// handed to the browser (winit's `spawn_app`: this returns at once, and frames come from
/// `requestAnimationFrame`). `webgl2_only` is the page's `?backend=webgl2`. At the end (Q, the
/// end screen's Esc) the page gets `window.ledgeExitSummary` and, with a recorder,
/// `window.ledgeRecording` (`page.rs`).
///
/// # Errors
/// A bad tuning file, a missing or malformed level, no event loop. Later errors (no canvas,
/// no GPU) are set as `window.ledgeError` and logged.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub fn run_in_page(opts: AppOptions, webgl2_only: bool) -> anyhow::Result<()> {
    use winit::event_loop::{ControlFlow, EventLoop};
    use winit::platform::web::EventLoopExtWebSys as _;
    let mut app = build(opts, false)?;
    let event_loop = EventLoop::new().context("cannot start the window event loop")?;
    // Wait, with a redraw requested every frame: frames come from requestAnimationFrame (Poll
    // would spin the page's timers; winit PR #2880, #4429).
    event_loop.set_control_flow(ControlFlow::Wait);
    app.page.webgl2_only = webgl2_only;
    app.page.proxy = Some(event_loop.create_proxy());
    super::page::watch_visibility(event_loop.create_proxy());
    event_loop.spawn_app(app);
    Ok(())
}

/// In a page, once the event loop ends: the summary and recording to the page.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
impl App {
    pub(super) fn finish_in_page(&mut self) {
        self.give_back_game();
        let summary = self.summary();
        let recording = self.recorder.take().map(|r| r.finish_text(summary.state_hash));
        super::page::exit_summary(&summary, recording.as_deref());
    }
}
