//! The cosmetic layer: dust, bursts, debris, squash and stretch, screen shake, flashes and
//! fades — what makes a jump feel like one, and nothing the simulation reads.
//!
//! Clock: fixed tick. [`Cosmetic::after_tick`] advances it once per tick (forward) from the
//! tick's world and cues; a rewind tick restores the state kept after the tick it goes back to
//! (the loop keeps one per tick beside the world's); a frame draws it with the frame's one
//! alpha ([`Cosmetic::draw`]). It never writes the world and is never hashed. Randomness is a
//! hash of (tick, event, index) ([`noise`]), never a generator that carries state, so the same
//! ticks give the same effects, and the effects of an undone event are gone after a rewind.

pub mod settings;

pub use settings::{CosmeticSettings, ShakeLevel};

pub mod noise;
pub mod overlay;
pub mod particles;
pub mod shake;
pub mod squash;

use crate::level::{EntityKind, Level};
use crate::present::view::{EffectDraw, EffectKind};
use crate::sim::cues::{Cue, CueSet};
use crate::sim::entities::contacts::SPRING_RECOIL_TICKS;
use crate::sim::{EntityState, HITBOX, TickOutcome, World};
use glam::DVec2;
use noise::Event;
use overlay::{Flash, Overlay};
use particles::{Particle, Spray};
use shake::Shake;
use squash::Squash;
use std::f64::consts::PI;

/// The most particles alive at once; the oldest go first beyond it (a long chain of crumbling
/// blocks stays cheap to step and draw).
pub const MAX_PARTICLES: usize = 256;

/// A landing from at least this fall speed kicks up dust, px/s: Celeste's `MaxFall / 2`
/// (80 px/s at 320 x 180) at Ledge's 2x.
pub const LAND_DUST_SPEED: f64 = 160.0;

/// Ticks between two dust puffs of a wall-slide trail (Celeste puffs every 0.1 s-ish while
/// sliding; 4 ticks at 60 Hz reads as a steady trail).
pub const SLIDE_DUST_EVERY: u32 = 4;

/// What one tick did, as the cosmetic layer reads it.
#[derive(Clone, Copy, Debug)]
pub struct TickFacts<'a> {
    /// The world after the tick.
    pub world: &'a World,
    /// The level (checkpoint areas).
    pub level: &'a Level,
    /// What the tick reported.
    pub out: &'a TickOutcome,
    /// The tick's cues ([`crate::sim::cues::tick_cues`]).
    pub cues: CueSet,
    /// The tick ended in a wall slide ([`crate::sim::wall`] rule 4).
    pub wall_sliding: bool,
    /// Ticks a second.
    pub tick_hz: u32,
}

/// What the cosmetic layer remembers of the previous tick (where a death happened, how fast a
/// landing fell, which block just broke).
#[derive(Debug, PartialEq, Default)]
struct Memo {
    /// The player's hitbox top-left after the previous tick, pixels.
    pos: DVec2,
    /// The player's velocity after the previous tick, px/s.
    vel: DVec2,
    /// Ticks of the wall slide so far (0: not sliding).
    slide_ticks: u32,
    /// Every entity's discrete state after the previous tick, by id.
    states: Vec<EntityState>,
}

impl Memo {
    fn of(world: &World) -> Memo {
        let mut m = Memo::default();
        m.note(world, 0);
        m
    }

    fn note(&mut self, world: &World, slide_ticks: u32) {
        self.pos = world.player.pos;
        self.vel = world.player.vel;
        self.slide_ticks = slide_ticks;
        self.states.clear();
        self.states.extend(world.entities.iter().map(|e| e.state));
    }
}

impl Clone for Memo {
    fn clone(&self) -> Self {
        Memo { pos: self.pos, vel: self.vel, slide_ticks: self.slide_ticks, states: self.states.clone() }
    }

    /// Reuses `states`' allocation (see [`Cosmetic`]'s `clone_from`).
    fn clone_from(&mut self, source: &Self) {
        (self.pos, self.vel, self.slide_ticks) = (source.pos, source.vel, source.slide_ticks);
        self.states.clone_from(&source.states);
    }
}

/// The cosmetic state after a tick: every particle, the squash, the shake, the flash and the
/// fade, each with its previous and current end. Its `clone_from` reuses the particle and
/// entity-state buffers (the rewind history keeps one a tick: `game_loop::look`).
#[derive(Debug, PartialEq, Default)]
pub struct Cosmetic {
    particles: Vec<Particle>,
    squash: Squash,
    shake: Shake,
    flash: Flash,
    fade: Overlay,
    memo: Memo,
}

/// What a frame draws of the cosmetic layer ([`Cosmetic::draw`]).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CosmeticDraw {
    /// Particles in draw order, then the overlays (flash, fade).
    pub effects: Vec<EffectDraw>,
    /// The player sprite's scale (1, 1 with effects off).
    pub player_scale: DVec2,
    /// The view's shake offset, whole pixels.
    pub shake: DVec2,
}

impl Clone for Cosmetic {
    fn clone(&self) -> Self {
        let mut c = Cosmetic::default();
        c.clone_from(self);
        c
    }

    /// Reuses the particle and entity-state buffers: the rewind history copies the cosmetic
    /// state after every tick, into the slot of the oldest one it drops
    /// (`game_loop::look::LookHistory::record`).
    fn clone_from(&mut self, source: &Self) {
        let Cosmetic { particles, squash, shake, flash, fade, memo } = source;
        self.particles.clone_from(particles);
        (self.squash, self.shake, self.flash, self.fade) = (*squash, *shake, *flash, *fade);
        self.memo.clone_from(memo);
    }
}

impl Cosmetic {
    /// The state at a level start in `world`: nothing running but the fade from black.
    pub fn level_start(world: &World, tick_hz: u32) -> Cosmetic {
        Cosmetic {
            fade: Overlay::start(1.0, particles::ticks(overlay::LEVEL_FADE_SECONDS, tick_hz)),
            memo: Memo::of(world),
            ..Cosmetic::default()
        }
    }

    /// Nothing running, in `world` (the presentation turned back on after a run that drew
    /// nothing).
    pub fn quiet(world: &World) -> Cosmetic {
        Cosmetic { memo: Memo::of(world), ..Cosmetic::default() }
    }

    /// The same state with nothing to blend from: every previous end set to the current one
    /// (after the presentation was off, or a rewind across a reset).
    pub fn snapped(mut self) -> Cosmetic {
        for p in &mut self.particles {
            (p.prev, p.prev_size) = (p.curr, p.curr_size);
        }
        self.squash.prev = self.squash.curr;
        self.flash.overlay.prev = self.flash.overlay.curr;
        self.fade.prev = self.fade.curr;
        self
    }

    /// Particles alive now.
    pub fn particle_count(&self) -> usize {
        self.particles.len()
    }

    /// One forward tick: advance what runs, then start what the tick's events start.
    pub fn after_tick(&mut self, f: &TickFacts<'_>) {
        let hz = f.tick_hz;
        let w = f.world;
        let tick = w.tick;
        self.particles.retain_mut(|p| p.advance(hz));
        self.shake.advance(hz);
        self.flash.overlay.advance();
        self.fade.advance();

        let before = self.memo.pos;
        let feet = |pos: DVec2| pos + DVec2::new(HITBOX.x / 2.0, HITBOX.y);
        let mut set_scale = None;
        let out = &mut self.particles;
        if f.cues.contains(Cue::Land) {
            let fall = self.memo.vel.y;
            set_scale = Some(squash::landing(fall));
            if fall >= LAND_DUST_SPEED {
                dust(Event::Land, 8, feet(w.player.pos), (PI, 2.0 * PI), DVec2::new(10.0, 0.0))
                    .emit(tick, 0, hz, out);
            }
        }
        if f.cues.contains(Cue::Jump) {
            set_scale = Some(squash::JUMP);
            dust(Event::Jump, 4, feet(before), (1.1 * PI, 1.9 * PI), DVec2::new(8.0, 0.0))
                .emit(tick, 0, hz, out);
        }
        if f.cues.contains(Cue::WallJump) {
            set_scale = Some(squash::JUMP);
            // The wall is on the side the jump pushes away from.
            let side = if w.player.vel.x < 0.0 { 1.0 } else { -1.0 };
            let at = before + DVec2::new(if side > 0.0 { HITBOX.x } else { 0.0 }, HITBOX.y * 0.6);
            let away = if side > 0.0 { (0.75 * PI, 1.25 * PI) } else { (-0.25 * PI, 0.25 * PI) };
            dust(Event::WallJump, 4, at, away, DVec2::new(0.0, 5.0)).emit(tick, 0, hz, out);
        }
        let sliding = f.wall_sliding && !w.player.on_ground && w.player.vel.y > 0.0;
        let slide_ticks = if sliding { self.memo.slide_ticks + 1 } else { 0 };
        if sliding && slide_ticks % SLIDE_DUST_EVERY == 1 {
            let side = f64::from(w.player.wall.side);
            let at = w.player.pos + DVec2::new(if side > 0.0 { HITBOX.x } else { 0.0 }, 4.0);
            let away = if side > 0.0 { (1.05 * PI, 1.35 * PI) } else { (-0.35 * PI, -0.05 * PI) };
            dust(Event::Slide, 1, at, away, DVec2::new(0.0, 2.0)).emit(tick, 0, hz, out);
        }
        for (id, e) in w.entities.iter().enumerate() {
            let was = self.memo.states.get(id).copied().unwrap_or_default();
            let top = e.pos + DVec2::new(e.size.x / 2.0, 0.0);
            if f.cues.contains(Cue::Spring) && e.kind == EntityKind::Spring && e.timer == SPRING_RECOIL_TICKS
            {
                set_scale = Some(squash::SPRING);
                puff(Event::Spring, top, e.size.x / 2.0).emit(tick, id as u64, hz, out);
            }
            if e.state != was && e.state == EntityState::Broken {
                let centre = e.pos + e.size / 2.0;
                debris(centre, e.size / 2.0).emit(tick, id as u64, hz, out);
            }
            if e.state != was && e.state == EntityState::Defeated {
                puff(Event::Stomp, top, e.size.x / 2.0).emit(tick, id as u64, hz, out);
            }
        }
        if f.cues.contains(Cue::Checkpoint) {
            if let Some(cp) = w.checkpoint.and_then(|i| f.level.checkpoints.get(i)) {
                let at = cp.area.pos + DVec2::new(cp.area.size.x / 2.0, 0.0);
                sparks(at).emit(tick, 0, hz, out);
            }
        }
        if f.out.died {
            particles::ring(tick, Event::Death, before + HITBOX / 2.0, false, 0.83, hz, out);
            self.shake.start(tick, hz);
            self.flash.trigger(tick, hz);
        }
        if f.out.respawned {
            set_scale = Some(DVec2::ONE);
            particles::ring(tick, Event::Respawn, w.player.pos + HITBOX / 2.0, true, 0.4, hz, out);
            let life = particles::ticks(overlay::RESPAWN_FADE_SECONDS, hz);
            self.fade = Overlay::start(overlay::RESPAWN_FADE_OPACITY, life);
        }
        if out.len() > MAX_PARTICLES {
            let extra = out.len() - MAX_PARTICLES;
            out.drain(..extra);
        }
        self.squash.advance(set_scale, hz);
        self.memo.note(w, slide_ticks);
    }

    /// A rewind tick went back to a tick after which the cosmetic state was `kept`: become
    /// it, blending from where each item is drawn now (matched by identity; one that did not
    /// exist now appears where it is), or snapping when the step crossed a reset (`jumped`).
    /// What an undone event started is simply not in `kept`.
    pub fn restore(&mut self, kept: &Cosmetic, jumped: bool) {
        let now = std::mem::replace(self, kept.clone());
        if jumped {
            *self = std::mem::take(self).snapped();
            return;
        }
        for p in &mut self.particles {
            match now.particles.iter().find(|o| o.id == p.id) {
                Some(o) => (p.prev, p.prev_size) = (o.curr, o.curr_size),
                None => (p.prev, p.prev_size) = (p.curr, p.curr_size),
            }
        }
        self.squash.prev = now.squash.curr;
        self.flash.overlay.prev = if self.flash.overlay.active() { now.flash.overlay.curr } else { 0.0 };
        self.fade.prev = if self.fade.active() { now.fade.curr } else { 0.0 };
    }

    /// What a frame at `alpha` draws with `settings` (`shake`: the level in force, reduced
    /// motion already applied), overlays centred on the drawn view (`view_centre`, the camera,
    /// plus the shake), into `draw`.
    pub fn draw(
        &self,
        alpha: f64,
        effects: bool,
        flashes: bool,
        shake: ShakeLevel,
        view_centre: DVec2,
        draw: &mut CosmeticDraw,
    ) {
        draw.effects.clear();
        draw.shake = self.shake.draw(shake);
        draw.player_scale = DVec2::ONE;
        if !effects {
            return;
        }
        draw.player_scale = self.squash.draw(alpha);
        draw.effects.extend(self.particles.iter().map(|p| p.draw(alpha)));
        let at = view_centre + draw.shake;
        let overlay = |kind, opacity: f64| EffectDraw { kind, pos: at, size: 0.0, opacity };
        let flash = self.flash.overlay.draw(alpha);
        if flashes && flash > 0.0 {
            draw.effects.push(overlay(EffectKind::Flash, flash));
        }
        let fade = self.fade.draw(alpha);
        if fade > 0.0 {
            draw.effects.push(overlay(EffectKind::Fade, fade));
        }
    }
}

/// Dust puffs (Celeste `Dust.Burst`: life 0.3–0.5 s, speed 5–15 px/s at 320 x 180; 2x here).
fn dust(event: Event, count: u64, at: DVec2, angle: (f64, f64), spread: DVec2) -> Spray {
    Spray {
        kind: EffectKind::Dust,
        event,
        count,
        at,
        spread,
        angle,
        speed: (10.0, 30.0),
        life: (0.3, 0.5),
        // Celeste's dust sprite is about 3 px at 320 x 180: 6 px at Ledge's 2x.
        size: 6.0,
        gravity: 0.0,
    }
}

/// A puff at a spring or a stomp: six wider, quicker puffs sideways and up.
fn puff(event: Event, at: DVec2, half_width: f64) -> Spray {
    Spray {
        kind: EffectKind::Puff,
        event,
        count: 6,
        at,
        spread: DVec2::new(half_width, 1.0),
        angle: (1.05 * PI, 1.95 * PI),
        speed: (20.0, 50.0),
        life: (0.25, 0.4),
        size: 5.0,
        gravity: 0.0,
    }
}

/// Chips of a broken block: eight, thrown up and out, falling back under gravity.
fn debris(centre: DVec2, half: DVec2) -> Spray {
    Spray {
        kind: EffectKind::Debris,
        event: Event::Crumble,
        count: 8,
        at: centre,
        spread: half,
        angle: (1.1 * PI, 1.9 * PI),
        speed: (30.0, 80.0),
        life: (0.5, 0.7),
        size: 4.0,
        gravity: 600.0,
    }
}

/// Sparks of a checkpoint flag lighting: eight, up and falling back.
fn sparks(at: DVec2) -> Spray {
    Spray {
        kind: EffectKind::Spark,
        event: Event::Checkpoint,
        count: 8,
        at,
        spread: DVec2::new(4.0, 2.0),
        angle: (1.2 * PI, 1.8 * PI),
        speed: (60.0, 120.0),
        life: (0.4, 0.6),
        size: 3.0,
        gravity: 300.0,
    }
}
