//! `Loop`: one frame = latch → stepper → ticks (each followed by the camera's and the cosmetic
//! layer's tick) → interpolate everything with the frame's one alpha, with telemetry.
//!
//! Clock: event loop / render frame on the outside (one [`Loop::frame`] call per frame, given
//! the frame's time in monotonic nanoseconds), fixed tick inside (0..=max_steps calls of
//! [`sim::step`]). The game and the lab drive this same object; only the source of events and
//! time differs (winit + `Instant` vs a script).
//!
//! A tick with `rewind` held restores the previous kept state instead of stepping, and the
//! game speed scales wall time in the stepper (`game_loop/time_tools.rs`; LAB.md "Time
//! tools"); the latch counts ticks of either kind, so events keep their tick whichever way
//! time runs. Hot reload swaps a new version of the level in between two frames
//! (`game_loop/reload.rs`).

mod latency;
mod look;
mod players;
mod records;
mod reload;
mod rollback;
mod savestates;
mod shown;
mod time_tools;

pub use records::{FrameStats, PlayerState, Point, RunnerState, TickRecord, Totals};

pub use latency::{InputShown, percentiles};
pub use reload::Carried;
pub use rollback::{RollbackSim, TickDriver};
pub use savestates::{MAX_SAVESTATE_NAME, MAX_SAVESTATES, SavestateError};

use crate::cosmetic::{Cosmetic, CosmeticDraw, CosmeticSettings};
use crate::input::InputEvent;
use crate::input::latch::Latch;
use crate::level::Level;
use crate::present::bodies::Bodies;
use crate::present::camera::Camera;
use crate::present::spin::{goal_angle, lerp_angle};
use crate::present::view::{EntityDraw, FrameView, PlayerDraw, PlayerPose};
use crate::sim::action::TickInput;
use crate::sim::cues::{CueBefore, CueSet, tick_cues};
use crate::sim::entities::record::{EntityRecord, records};
use crate::sim::rewind::Rewind;
use crate::sim::{self, Action, HITBOX, Tuning, World};
use crate::time::{ConfigError, Stepper, StepperConfig};
use glam::DVec2;
use std::collections::VecDeque;
use web_time::Instant;

/// The game loop shared by the game and the lab.
#[derive(Clone, Debug)]
pub struct Loop {
    config: StepperConfig,
    stepper: Stepper,
    latch: Latch,
    /// Events not yet given a tick: (arrival ns since start, player from 0, event), in
    /// arrival order.
    raw: VecDeque<(u64, u8, InputEvent)>,
    /// Players 2..=N of a race: their latches and drawn places (`game_loop/players.rs`).
    others: players::Others,
    /// A race's ticks simulated this frame by its rollback session, re-simulations included,
    /// each with the followed runner's cues ([`Loop::race_cues`]).
    race_cues: Vec<(u64, crate::sim::cues::CueSet)>,
    /// The pictures kept with the ticks a rollback session saved (`shown.rs`).
    shown: shown::ShownRing,
    /// The script's teleports of the last ticks, by the tick they happen in, while a rollback
    /// session drives the ticks (`game_loop/rollback.rs`).
    teleports: Vec<(u64, DVec2)>,
    last_frame_ns: u64,
    level: Level,
    tuning: Tuning,
    world: World,
    /// Every body's previous and current position (interpolation history).
    bodies: Bodies,
    drawn: DVec2,
    /// The entities as drawn in the last frame (same alpha as `drawn`).
    drawn_entities: Vec<EntityDraw>,
    /// The tick the interpolation starts from: the one before the current tick, or the current
    /// tick itself after a reset (teleport, respawn, level load). Tick-clock presentation
    /// angles ([`crate::present::spin`]) are drawn from it to `world.tick`; kept here, not in
    /// `World`, so the state hash does not see it.
    prev_tick: u64,
    /// The goal's drawn angle, radians: `lerp_angle` from `prev_tick`'s to the current tick's.
    drawn_goal_angle: f64,
    camera: Camera,
    pending_teleport: Option<DVec2>,
    totals: Totals,
    ticks_this_frame: Vec<TickRecord>,
    /// Ticks run, forward and rewind: the latch's tick numbers (`world.tick` goes down while
    /// rewinding; this never does).
    ticks_run: u64,
    /// The kept states a rewind tick goes back through.
    history: Rewind,
    /// The last tick run was a rewind tick.
    rewinding: bool,
    /// Time the ticks with the wall clock (telemetry for the game's overlay; off in the lab).
    measure_ticks: bool,
    /// Fill [`TickRecord::entities`] (the lab's full report; off in the game).
    record_entities: bool,
    /// Keep what is drawn up to date: interpolation, camera, sound cues (on by default; off
    /// only for a lab run whose report is the summary alone and that nothing draws,
    /// [`Loop::set_presenting`]).
    presenting: bool,
    /// What the cosmetic layer draws ([`Loop::set_cosmetic_settings`]).
    cosmetic_settings: CosmeticSettings,
    /// Dust, bursts, squash, shake, flashes and fades after the current tick
    /// ([`crate::cosmetic`]; stepped only while presenting).
    cosmetic: Cosmetic,
    /// The cosmetic layer as the last frame drew it.
    cosmetic_draw: CosmeticDraw,
    /// The camera and cosmetic state kept beside every world state of `history`.
    look_history: look::LookHistory,
    /// Savestates by name and the load the next tick performs (`game_loop/savestates.rs`).
    savestates: savestates::Savestates,
    /// Presses and releases on their way to the screen (`game_loop/latency.rs`).
    latency: latency::LatencyProbe,
    /// The invincibility assist, applied to every level's world ([`Loop::set_invincible`]).
    invincible: bool,
    /// The input the last tick read (player 1's), for the input display.
    tick_input: TickInput,
}

impl Loop {
    /// A loop at time 0 with the player at the level's spawn.
    ///
    /// # Errors
    /// [`ConfigError`] when `config` is out of range.
    pub fn new(level: Level, tuning: Tuning, config: StepperConfig) -> Result<Loop, ConfigError> {
        config.validate()?;
        let stepper = Stepper::new(config);
        let world = World::for_level(&level);
        let camera = Camera::new(&level, level.spawn, HITBOX);
        let mut history = Rewind::new(config.tick_hz);
        history.record(&world, true);
        let cosmetic = Cosmetic::level_start(&world, config.tick_hz);
        let mut look_history = look::LookHistory::new(history.capacity());
        look_history.record(look::Look { camera: camera.state(), cosmetic: cosmetic.clone() });
        Ok(Loop {
            config,
            stepper,
            latch: Latch::new(),
            raw: VecDeque::new(),
            others: players::Others::default(),
            race_cues: Vec::new(),
            shown: shown::ShownRing::new(),
            teleports: Vec::new(),
            last_frame_ns: 0,
            bodies: Bodies::new(&world),
            drawn: level.spawn,
            drawn_entities: Vec::new(),
            prev_tick: world.tick,
            drawn_goal_angle: goal_angle(world.tick, config.tick_hz),
            camera,
            level,
            tuning,
            world,
            pending_teleport: None,
            totals: Totals::default(),
            ticks_this_frame: Vec::new(),
            ticks_run: 0,
            history,
            rewinding: false,
            measure_ticks: false,
            record_entities: false,
            presenting: true,
            cosmetic_settings: CosmeticSettings::default(),
            cosmetic,
            cosmetic_draw: CosmeticDraw::default(),
            look_history,
            savestates: savestates::Savestates::default(),
            latency: latency::LatencyProbe::default(),
            invincible: false,
            tick_input: TickInput::default(),
        })
    }

    /// Hand the loop an input edge that arrived at `t_ns` (monotonic ns since the loop's start).
    /// Events must be pushed in arrival order.
    pub fn push_event(&mut self, t_ns: u64, ev: InputEvent) {
        self.raw.push_back((t_ns, 0, ev));
    }

    /// The last frame was shown at `t_ns` (on the clock of [`Loop::frame`]'s `now_ns`): the
    /// presses and releases it was the first to draw anything of are timed
    /// ([`Loop::take_inputs_shown`]). The lab calls it at each frame's end, the game when
    /// `present` returns.
    pub fn inputs_shown_at(&mut self, t_ns: u64) {
        self.latency.shown_at(t_ns);
    }

    /// The presses and releases timed since the last call (LAB.md Version 4
    /// `summary.inputs`; the game's `--latency-log`), in the order they were shown.
    pub fn take_inputs_shown(&mut self) -> Vec<InputShown> {
        self.latency.take_done()
    }

    /// The presses and releases not yet shown, in arrival order (`shown_ns` is `None`).
    pub fn inputs_unshown(&self) -> impl Iterator<Item = &InputShown> {
        self.latency.unshown()
    }

    /// Place the player at `pos` (hitbox top-left, pixels) with zero velocity at the next tick,
    /// as a respawn does; the interpolation history is reset so nothing streaks.
    pub fn teleport(&mut self, pos: DVec2) {
        self.pending_teleport = Some(pos);
    }

    /// Run one frame ending at `now_ns`: assign arrived events to ticks, run the ticks the
    /// stepper allows, interpolate, move the camera.
    pub fn frame(&mut self, now_ns: u64) -> FrameStats {
        self.frame_with(now_ns, None)
    }

    /// [`Loop::frame`] with every tick run by `driver`, a rollback session
    /// (`game_loop/rollback.rs`): what is presented, recorded and counted is the same.
    pub fn frame_driven(&mut self, now_ns: u64, driver: &mut dyn TickDriver) -> FrameStats {
        self.frame_with(now_ns, Some(driver))
    }

    fn frame_with(&mut self, now_ns: u64, mut driver: Option<&mut dyn TickDriver>) -> FrameStats {
        let dt_ns = now_ns.saturating_sub(self.last_frame_ns);
        let frame_start = self.last_frame_ns;
        self.last_frame_ns = now_ns.max(self.last_frame_ns);
        let plan = self.stepper.advance(dt_ns);
        let first_tick = self.ticks_run;
        while let Some(&(t, player, ev)) = self.raw.front() {
            if t > now_ns {
                break;
            }
            self.raw.pop_front();
            let offset = t.saturating_sub(frame_start);
            let tick = first_tick + plan.tick_for_offset(offset, self.config.tick_hz);
            // The latch applies an edge in its tick, or the next to run if that one is gone.
            self.latency.note(player, t, tick.max(first_tick + 1), ev);
            self.schedule_for(player, tick, ev);
        }
        self.ticks_this_frame.clear();
        self.race_cues.clear();
        let mut consumed = 0;
        let started = (self.measure_ticks && plan.steps > 0).then(Instant::now);
        for _ in 0..plan.steps {
            let driver = driver.as_mut().map(|d| &mut **d as &mut dyn TickDriver);
            consumed += self.run_tick(driver);
        }
        let tick_ns_measured = started.map_or(0, |s| s.elapsed().as_nanos() as u64);
        let alpha = self.stepper.alpha();
        self.latency.frame_drawn(self.ticks_run, alpha);
        let hz = self.config.tick_hz;
        if self.presenting {
            self.drawn = self.bodies.player(alpha);
            self.bodies.entities(&self.world, alpha, hz, &mut self.drawn_entities);
            self.drawn_goal_angle =
                lerp_angle(goal_angle(self.prev_tick, hz), goal_angle(self.world.tick, hz), alpha);
            self.draw_look(alpha);
            self.draw_others(alpha);
        }

        let t = &mut self.totals;
        t.frames += 1;
        t.ticks += plan.steps as u64;
        t.clamp_events += plan.clamped as u64;
        t.cap_hits += plan.capped as u64;
        t.max_steps_in_frame = t.max_steps_in_frame.max(plan.steps);
        let dropped_ms = self.stepper.units_to_ms(plan.dropped_units);
        t.dropped_ms += dropped_ms;
        t.wall_ns += dt_ns;
        t.sim_ms = t.ticks as f64 * 1000.0 / hz as f64;
        FrameStats {
            dt_ns,
            clamped: plan.clamped,
            steps: plan.steps,
            capped: plan.capped,
            dropped_ms,
            events_consumed: consumed,
            tick_ns_measured,
            ..self.idle_stats()
        }
    }

    /// The entities after the tick, for [`TickRecord::entities`] (empty unless recording them).
    fn entity_records(&self) -> Vec<EntityRecord> {
        if self.record_entities { records(&self.world.entities, self.config.tick_hz) } else { Vec::new() }
    }

    fn run_tick(&mut self, driver: Option<&mut dyn TickDriver>) -> u32 {
        self.ticks_run += 1;
        let (input, mut consumed) = self.latch.input_for_tick(self.ticks_run);
        self.tick_input = input;
        let race = !self.world.others.is_empty();
        if let Some(name) = self.take_pending_load() {
            if race {
                // Every player's edges of a load tick go nowhere, as player 1's do.
                consumed += self.race_inputs(self.ticks_run, input).1;
            }
            self.load_tick(&name, input);
            return consumed;
        }
        self.rewinding = input.held(Action::Rewind) && !race;
        if self.rewinding {
            self.rewind_tick(input);
            return consumed;
        }
        let prev_tick = self.world.tick;
        self.prev_tick = prev_tick;
        // The sounds and the cosmetic layer follow the followed runner (player 1 but in a
        // window's race).
        let k = self.others.followed;
        let before = self.presenting.then(|| self.world.with_runner(k, |w| CueBefore::of(w)));
        let mut outs = sim::RaceOutcome::default();
        let hz = self.config.tick_hz;
        // A driven tick was presented by the session's advance (`rollback.rs`).
        let mut presented = false;
        match (self.pending_teleport.take(), driver) {
            (teleport, Some(driver)) => {
                let (inputs, n) = self.race_inputs(self.ticks_run, input);
                consumed += n;
                let Some(o) = self.driven_tick(driver, &inputs[..self.world.players()], teleport) else {
                    // A stall: no tick ran; the world holds (the session keeps the input).
                    return consumed;
                };
                outs = o;
                presented = true;
            }
            (Some(pos), None) => outs[0] = sim::player::teleport(&mut self.world, &self.level, pos, hz),
            (None, None) if race => {
                let (inputs, n) = self.race_inputs(self.ticks_run, input);
                consumed += n;
                outs = sim::step_race(&mut self.world, &inputs, &self.level, &self.tuning, hz);
            }
            (None, None) => outs[0] = sim::step(&mut self.world, &input, &self.level, &self.tuning, hz),
        }
        let out = outs[0];
        let respawned = out.respawned;
        let followed_out = outs[k];
        let sounds =
            before.map_or(CueSet::EMPTY, |b| self.world.with_runner(k, |w| tick_cues(&b, w, &followed_out)));
        if !presented {
            self.present_tick(prev_tick, &outs, sounds);
        }
        self.ticks_this_frame.push(TickRecord {
            tick: self.world.tick,
            player: PlayerState::from(&self.world.player),
            jump_started: out.jump_started,
            respawned,
            rewound: false,
            loaded: false,
            died: out.died,
            entities: self.entity_records(),
            riding: (!self.world.entities.is_empty()).then_some(self.world.riding),
            sounds,
            players: self.runner_states(&outs),
            input,
        });
        self.history.record(&self.world, respawned);
        // Only copied when kept: a run that can never rewind copies nothing a tick.
        self.look_history.record_from(self.camera.state(), &self.cosmetic);
        consumed
    }

    /// Measure how long each frame's ticks take with the wall clock
    /// ([`FrameStats::tick_ns_measured`]); off by default (the lab has no use for it).
    pub fn set_measure_ticks(&mut self, on: bool) {
        self.measure_ticks = on;
    }

    /// Fill each tick's [`TickRecord::entities`] (off by default: only the lab's full report
    /// writes them).
    pub fn set_record_entities(&mut self, on: bool) {
        self.record_entities = on;
    }

    /// Keep what is drawn up to date (`true`, the default) or not (`false`): no interpolation,
    /// drawn entities, goal angle or camera after a frame, no sound cues in
    /// [`TickRecord::sounds`]. Nothing the simulation reads changes, so `state_hash` and the
    /// totals are the same either way; the lab turns it off for a summary-only run that nothing
    /// draws. Turned back on, every body snaps to where it is now (nothing to blend from).
    pub fn set_presenting(&mut self, on: bool) {
        if on && !self.presenting {
            self.bodies.snap_all(&self.world);
            self.drawn = self.world.player.pos;
            self.bodies.entities(&self.world, 0.0, self.config.tick_hz, &mut self.drawn_entities);
            self.prev_tick = self.world.tick;
            self.camera.snap(&self.level, self.world.player.pos, HITBOX);
            self.cosmetic = Cosmetic::quiet(&self.world);
            self.draw_look(0.0);
        }
        self.presenting = on;
    }

    /// The stats of a frame that runs no ticks and passes no time (a paused frame): the
    /// current tick, accumulator, alpha, player, drawn position and camera, nothing consumed.
    pub fn idle_stats(&self) -> FrameStats {
        FrameStats {
            accumulator_ms: self.stepper.accumulator_ms(),
            alpha: self.stepper.alpha(),
            tick: self.world.tick,
            player: PlayerState::from(&self.world.player),
            drawn: self.drawn.into(),
            camera: self.camera.centre.into(),
            ..FrameStats::default()
        }
    }

    /// The ticks the last frame ran, in order.
    pub fn ticks_this_frame(&self) -> &[TickRecord] {
        &self.ticks_this_frame
    }

    /// The interpolated player position last drawn: lerp(previous, current, alpha), pixels.
    pub fn drawn(&self) -> DVec2 {
        self.drawn
    }

    /// The entities as last drawn, in id order (interpolated with the same alpha as
    /// [`Loop::drawn`]).
    pub fn drawn_entities(&self) -> &[EntityDraw] {
        &self.drawn_entities
    }

    /// The camera after the last frame.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// Turn camera easing off (reduced motion) or on.
    pub fn set_reduced_motion(&mut self, on: bool) {
        self.camera.reduced_motion = on;
    }

    /// Snapshot for the renderer: interpolated player and goal angle, camera, shake, squash,
    /// effects, level.
    pub fn view(&self) -> FrameView<'_> {
        let p = &self.world.player;
        let pose = PlayerPose::of_motion_and_wall(
            p.on_ground,
            p.vel,
            p.run_ticks,
            self.config.tick_hz,
            self.wall_sliding(),
        );
        let look = &self.cosmetic_draw;
        // A race following another runner than player 1 draws that one as the player, with
        // no squash (the cosmetic layer follows player 1).
        let followed = self.followed_view();
        FrameView {
            level: &self.level,
            camera: self.camera.centre,
            shake: look.shake,
            player: followed.unwrap_or(PlayerDraw {
                pos: self.drawn,
                hitbox: HITBOX,
                facing_left: p.facing_left,
                pose,
            }),
            player_scale: look.player_scale,
            effects: &look.effects,
            reached: &self.world.reached,
            goal_angle: self.drawn_goal_angle,
            extra: &[],
            entities: &self.drawn_entities,
            ghost: None,
            rivals: self.rivals(),
            attempts: &[],
            death_marks: &[],
        }
    }

    /// The authoritative world after the last tick.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The level being played.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The tuning in force.
    pub fn tuning(&self) -> &Tuning {
        &self.tuning
    }

    /// The loop settings.
    pub fn config(&self) -> &StepperConfig {
        &self.config
    }

    /// Switch to `level`: the player starts at its spawn, history and camera reset. Totals,
    /// the tick count and pending input carry on.
    pub fn load_level(&mut self, level: Level) {
        let tick = self.world.tick;
        let (jumps, respawns, deaths) = (self.world.jumps, self.world.respawns, self.world.deaths);
        self.world = World::for_level(&level);
        self.world.set_invincible(self.invincible);
        // Savestates belong to the level (and the start) they were made on.
        self.clear_savestates();
        self.world.tick = tick;
        self.world.jumps = jumps;
        self.world.respawns = respawns;
        self.world.deaths = deaths;
        self.bodies.snap_all(&self.world);
        self.bodies.entities(&self.world, 0.0, self.config.tick_hz, &mut self.drawn_entities);
        self.drawn = level.spawn;
        self.prev_tick = tick;
        self.drawn_goal_angle = goal_angle(tick, self.config.tick_hz);
        let reduced = self.camera.reduced_motion;
        self.camera = Camera::new(&level, level.spawn, HITBOX);
        self.camera.reduced_motion = reduced;
        self.level = level;
        self.history.restart(&self.world);
        self.cosmetic = Cosmetic::level_start(&self.world, self.config.tick_hz);
        self.draw_look(0.0);
        let look = self.look();
        self.look_history.restart(look);
    }

    /// Running totals.
    pub fn totals(&self) -> &Totals {
        &self.totals
    }

    /// The stable hash of the simulation state after the last tick.
    pub fn state_hash(&self) -> u64 {
        self.world.state_hash()
    }

    /// The stepper (accumulator, counters) for telemetry.
    pub fn stepper(&self) -> &Stepper {
        &self.stepper
    }
}

#[cfg(test)]
mod tests;
