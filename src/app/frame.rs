//! One render frame of the window (`RedrawRequested`): `--hitch`, `--fps-cap` pacing, hot
//! reload's swap (`reload.rs`), the loop's frame, `--stress`, recording, telemetry, level
//! completion, the UI, the draw, and the wake-up that follows (decided by [`super::wake`]).
//!
//! Clock: render frame, on the event loop's thread. The steps are listed in the [`super`]
//! module docs.

use super::session::Mode;
use super::wake::{self, FrameEnd, Wake};
use super::{App, frame_ui};
use crate::present::view::VIEW_SIZE;
use crate::ui::menu::Context;
use crate::ui::{Hud, Layer, OverlayInfo};
use std::time::Duration;
use web_time::Instant;
use winit::event_loop::{ActiveEventLoop, ControlFlow};

/// How long the HUD shows a segment's time against its best after its split.
pub(super) const SEGMENT_SHOWN: Duration = Duration::from_secs(3);

/// How often the F3 overlay's numbers are refreshed (the graphs move every frame).
const STATS_REFRESH: Duration = Duration::from_millis(250);

impl App {
    /// This frame's HUD, F3 overlay and pause screen, or the end screen, for a `size` (width,
    /// height) target ([`frame_ui`]).
    fn build_ui(&self, out: &mut Layer, size: (u32, u32)) {
        let tick_hz = self.game.config().tick_hz;
        let world = self.game.world();
        let (present_mode, adapter) = self
            .gfx
            .as_ref()
            .map_or_else(|| (String::new(), String::new()), |g| (g.present_mode(), g.adapter_short()));
        let totals = self.game.totals();
        let f3 = self.show_overlay.then(|| frame_ui::F3 {
            telemetry: &self.telemetry,
            shown: &self.shown_stats,
            info: OverlayInfo {
                tick_hz,
                present_mode: &present_mode,
                adapter: &adapter,
                vsync: self.opts.vsync,
                fps_cap: self.opts.fps_cap,
                total_clamps: totals.clamp_events,
                total_caps: totals.cap_hits,
                sprites: self.gfx.as_ref().map_or(0, |g| g.renderer.instance_count()),
                stress: self.stress.len(),
                latency: self.latency.recent_percentiles(),
            },
        });
        let levels = self.level_entries();
        let menu = (self.session.mode != Mode::Playing).then(|| frame_ui::MenuUi {
            menu: &self.menus.menu,
            ctx: Context {
                settings: self.opts.save.settings(),
                levels: &levels,
                speed_percent: self.game.game_speed().percent(),
                finished_run: self.ghosts.last_visit().is_some() && self.replay.is_none(),
            },
            t_s: self.menus.opened.elapsed().as_secs_f64(),
        });
        let frame = frame_ui::FrameUi {
            mode: self.session.mode,
            hud: Hud {
                level: &self.game.level().name,
                // A replay's run counts from its own first tick (a level's start).
                deaths: match (&self.race, &self.replay) {
                    (Some(_), _) => world.runner_view(self.game.followed()).deaths,
                    (None, Some(_)) => world.deaths,
                    (None, None) => self.session.level_deaths(world),
                },
                ticks: if self.replay.is_some() { world.tick } else { self.session.level_ticks(world) },
                tick_hz,
                speed_percent: self.game.game_speed().percent(),
                rewinding: self.game.rewinding(),
                invincible: self.game.world().invincible,
                segment: (self.race.is_none()
                    && self.replay.is_none()
                    && !self.game.level().checkpoints.is_empty())
                .then(|| crate::ui::hud::SegmentHud {
                    number: self.session.segments().count() + 1,
                    ticks: self.session.segments().running(world.tick),
                    last: self.last_segment.get().copied(),
                }),
                notice: self
                    .race
                    .as_ref()
                    .and_then(|r| r.status())
                    .or(self.reload.notice())
                    .or(self.practice.get().copied()),
            },
            f3,
            results: if self.replay.is_some() { &[] } else { self.session.results() },
            menu,
            broken: self.reload.banner(),
            input: self.opts.save.settings().display.input_display.then(|| self.game.tick_input()),
            replay: self.replay.as_ref().map(|r| (r.status(), r.title.as_str())),
        };
        frame_ui::build(out, size, &frame);
        if self.race.is_some() && self.session.mode == Mode::Playing {
            super::race::label_rivals(out, size, &self.game.view());
        }
    }

    /// Draw this frame's world, ghost, stress sprites and UI into `frame` and present it;
    /// true when it was drawn.
    fn draw_world(&mut self, frame: crate::render::gpu::SurfaceFrame) -> bool {
        let mut ui = std::mem::take(&mut self.ui);
        self.build_ui(&mut ui, frame.size);
        let drawn = self.gfx.is_some();
        if let Some(g) = &mut self.gfx {
            let title = self.menus.title.as_ref().filter(|_| self.session.mode == Mode::Title);
            let mut view = if let Some(backdrop) = title {
                backdrop.view(self.opts.reduced_motion)
            } else {
                let mut v = self.game.view();
                if let Some(r) = &self.replay {
                    let g = r.playback.ghost();
                    let lp = &self.game;
                    v.ghost = g.and_then(|g| g.drawn(lp.prev_tick(), lp.world().tick, lp.stepper().alpha()));
                    v.attempts = &r.drawn_attempts;
                    v.death_marks = &r.drawn_marks;
                } else if self.race.is_none() {
                    v.ghost = self.ghosts.drawn(&self.game, self.session.level_clock().start_tick);
                }
                v
            };
            if !self.stress.is_empty() {
                let origin = view.camera - VIEW_SIZE / 2.0;
                self.stress.drawn(self.game.stepper().alpha(), origin, &mut self.stress_drawn);
                view.extra = &self.stress_drawn;
            }
            if title.is_none() {
                self.ride.frame(&view);
            }
            g.draw(frame, &view, &ui);
            self.visibility.presented(self.session.mode == Mode::Playing, Instant::now());
        }
        self.ui = ui;
        drawn
    }

    /// Run one frame (see the module docs).
    pub(super) fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        if let (Some(h), Some(start)) = (self.opts.hitch, self.start) {
            h.stall_if_due(start, &mut self.next_hitch);
        }
        if let Some(p) = &mut self.pacer {
            p.wait();
        }
        self.audio.watch(Instant::now());
        // Before the frame's ticks: a swap lands between two ticks.
        self.hot_reload();
        let playing = self.session.mode == Mode::Playing;
        if self.session.mode == Mode::Title {
            self.title_frame();
        }
        if playing && self.replay.is_some() {
            self.replay_frame();
        } else if playing {
            let now = self.now_ns();
            let stats = match &mut self.race {
                Some(r) => r.frame(&mut self.game, self.show_overlay),
                None => self.game.frame(now),
            };
            self.keep_race();
            #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
            self.race_page();
            #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
            if let Some(r) = &mut self.race {
                for line in r.notices.drain(..) {
                    eprintln!("{line}");
                }
                if r.leaving() {
                    event_loop.exit();
                    return;
                }
            }
            match &mut self.race {
                Some(r) => self.audio.play_race(&mut r.sounds, self.game.race_cues()),
                None => self.audio.play_ticks(self.game.ticks_this_frame()),
            }
            for t in self.game.ticks_this_frame() {
                self.ride.tick(t.riding.flatten(), t.respawned);
            }
            let dt = 1.0 / f64::from(self.game.config().tick_hz);
            for _ in 0..stats.steps {
                self.stress.step(dt);
            }
            if let Some(r) = &mut self.recorder {
                r.frame(now);
            }
            if self.race.is_none() {
                self.ghosts.after_frame(&self.game);
            }
            self.telemetry.push(stats);
            if self.race.is_none() {
                self.session.note_assists(self.game.game_speed().percent(), self.game.world().invincible);
                self.observe_segments();
            }
            if self.game.world().level_complete && self.race.is_none() {
                self.finish_run();
                self.save_progress();
                if self.recorder.is_some() {
                    // A recording replays one level: end the session on its goal.
                    event_loop.exit();
                    return;
                }
                self.complete_level();
                // The next level's first frame does not blend from this level's riding.
                self.ride.tick(None, true);
            }
            self.min_y = self.min_y.min(self.game.world().player.pos.y);
        }
        if self.show_overlay && self.stats_at.is_none_or(|t| t.elapsed() >= STATS_REFRESH) {
            self.shown_stats = self.telemetry.stats();
            self.stats_at = Some(Instant::now());
        }

        let mut drawn = false;
        let hidden = self.visibility.is_hidden();
        self.keep_device(event_loop);
        if let Some(frame) = self.gfx.as_mut().filter(|_| !hidden).and_then(|g| g.gpu.acquire()) {
            drawn = match self.gfx.as_mut() {
                Some(g) if self.opts.bare => {
                    g.draw_bare(frame);
                    true
                }
                _ => self.draw_world(frame),
            };
            #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
            self.page_frame();
        }
        if drawn && playing && self.replay.is_none() {
            let presented = self.now_ns();
            self.latency.after_present(&mut self.game, presented);
        }
        let now = Instant::now();
        let end = FrameEnd {
            exit_due: self.exit_due(),
            drawn,
            playing: self.session.mode == Mode::Playing,
            paced: self.pacer.is_some(),
            pace_wake: self.pacer.as_ref().and_then(|p| p.wake_before_deadline(now)),
            to_next_tick: Duration::from_nanos(self.game.stepper().ns_to_next_tick()),
        };
        match wake::after_frame(&end, now) {
            Wake::Exit => event_loop.exit(),
            Wake::Redraw => {
                if let Some(g) = &self.gfx {
                    g.window.request_redraw();
                }
            }
            Wake::At(at) => {
                self.next_frame_at = Some(at);
                event_loop.set_control_flow(ControlFlow::WaitUntil(at));
            }
        }
    }
}
