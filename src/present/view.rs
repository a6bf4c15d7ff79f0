//! What one render frame draws: a read-only snapshot built from the loop's interpolated state.
//!
//! Clock: render frame. Built after the frame's ticks, from `lerp(prev, curr, alpha)` positions,
//! the short-way `lerp_angle` of tick-clock angles ([`crate::present::spin`]) and the camera
//! that followed them; the renderer only reads it. Discrete state (facing, pose, checkpoints
//! reached) is the current tick's, never blended.

use crate::level::{EntityKind, Level};
use crate::sim::EntityState;
use glam::DVec2;

/// The visible part of the world, in level pixels: 640 x 360 (Celeste's 320 x 180 view scaled by
/// 2 for 16 px tiles instead of 8 px), drawn at an integer scale into the window.
pub const VIEW_SIZE: DVec2 = DVec2::new(640.0, 360.0);

/// Which player animation cell to draw. Discrete: never blended between ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PlayerPose {
    /// Standing still on the ground.
    #[default]
    Idle,
    /// Running on the ground; the payload is the frame 0..4 of the run cycle.
    Run(u8),
    /// Airborne and rising.
    Jump,
    /// Airborne and falling.
    Fall,
    /// Sliding down a wall (airborne, pressed against it, falling at the wall-slide speed).
    WallSlide,
}

impl PlayerPose {
    /// The pose of a player standing or not (`on_ground`) with velocity `vel` (px/s, y down)
    /// who has run `run_ticks` ticks on the ground: jump while rising, fall while airborne
    /// otherwise, the 4-frame run cycle while moving on the ground (10 frames a second of game
    /// time: 6 ticks a frame at 60 Hz), idle otherwise.
    pub fn of_motion(on_ground: bool, vel: DVec2, run_ticks: u32, tick_hz: u32) -> PlayerPose {
        Self::of_motion_and_wall(on_ground, vel, run_ticks, tick_hz, false)
    }

    /// [`PlayerPose::of_motion`], and [`PlayerPose::WallSlide`] when `wall_sliding` (the tick
    /// ended in a wall slide: [`crate::sim::wall`] rule 4, the one that opens the player's
    /// [`WallState::grace`](crate::sim::wall::WallState::grace) in full) and the player is
    /// falling.
    pub fn of_motion_and_wall(
        on_ground: bool,
        vel: DVec2,
        run_ticks: u32,
        tick_hz: u32,
        wall_sliding: bool,
    ) -> PlayerPose {
        if !on_ground && wall_sliding && vel.y > 0.0 {
            PlayerPose::WallSlide
        } else if !on_ground {
            if vel.y < 0.0 { PlayerPose::Jump } else { PlayerPose::Fall }
        } else if vel.x != 0.0 {
            let ticks_per_frame = (tick_hz / 10).max(1);
            PlayerPose::Run(((run_ticks / ticks_per_frame) % 4) as u8)
        } else {
            PlayerPose::Idle
        }
    }
}

/// Another runner of a race, drawn tinted behind the player ([`FrameView::rivals`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RivalDraw {
    /// Where and how (interpolated at the frame's alpha, as the player).
    pub draw: PlayerDraw,
    /// Its player number, 1-based.
    pub player: u8,
}

/// How to draw the player this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerDraw {
    /// Interpolated top-left of the hitbox, level pixels (not snapped).
    pub pos: DVec2,
    /// Hitbox size, pixels; the sprite is drawn bottom-centred on it.
    pub hitbox: DVec2,
    /// Facing left (sprite mirrored). Discrete: taken from the current tick, never blended.
    pub facing_left: bool,
    /// Animation cell. Discrete: taken from the current tick.
    pub pose: PlayerPose,
}

impl PlayerDraw {
    /// The player standing still (idle, facing right) with its hitbox ([`crate::level::HITBOX`])
    /// top-left at `pos`, level pixels.
    pub fn standing(pos: DVec2) -> Self {
        PlayerDraw { pos, hitbox: crate::level::HITBOX, facing_left: false, pose: PlayerPose::Idle }
    }
}

/// How to draw one entity (platform, crumbling block, spring, saw, walker) this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EntityDraw {
    /// The entity's id (its index in `Level::entities`).
    pub id: usize,
    /// What it is (picks the sprite).
    pub kind: EntityKind,
    /// Interpolated top-left of its box, level pixels: `lerp(prev, curr, alpha)` with the
    /// frame's one alpha (a saw's box is 2r x 2r around its circle).
    pub pos: DVec2,
    /// Box size, pixels.
    pub size: DVec2,
    /// Discrete state from the current tick, never blended.
    pub state: EntityState,
    /// Facing left (walkers). Discrete: the current tick's.
    pub facing_left: bool,
    /// Animation frame (walk cycle, crumble shake, spring recoil), from the current tick.
    pub frame: u32,
}

/// What a cosmetic item ([`EffectDraw`]) is: picks its colour and how it is drawn. The lab
/// report's `effects[].kind` is [`EffectKind::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EffectKind {
    /// A dust puff: at a jump start, a landing, under a wall slide.
    Dust,
    /// One orb of a death burst (out from where the player died) or of a respawn (in to where
    /// the player appears).
    Burst,
    /// A chip of a crumbling block that broke.
    Debris,
    /// A spark of a checkpoint flag lighting.
    Spark,
    /// A puff at a spring launch or a walker stomp.
    Puff,
    /// A full-view flash (a death), drawn over everything; never more than 3 a second.
    Flash,
    /// A full-view fade from black (a level start, a respawn), drawn over everything.
    Fade,
}

impl EffectKind {
    /// The name in the lab report (`effects[].kind`).
    pub fn name(self) -> &'static str {
        match self {
            EffectKind::Dust => "dust",
            EffectKind::Burst => "burst",
            EffectKind::Debris => "debris",
            EffectKind::Spark => "spark",
            EffectKind::Puff => "puff",
            EffectKind::Flash => "flash",
            EffectKind::Fade => "fade",
        }
    }

    /// Drawn over the whole view in screen space (a flash or a fade), not in the world.
    pub fn is_overlay(self) -> bool {
        matches!(self, EffectKind::Flash | EffectKind::Fade)
    }
}

/// One cosmetic item as drawn this frame ([`crate::cosmetic`]): a square particle in the
/// world, or a full-view overlay ([`EffectKind::is_overlay`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EffectDraw {
    /// What it is.
    pub kind: EffectKind,
    /// Centre, level pixels: `lerp(prev, curr, alpha)` with the frame's one alpha (an overlay:
    /// the view's centre).
    pub pos: DVec2,
    /// Edge length of the square, level pixels (an overlay: 0, it covers the view).
    pub size: f64,
    /// Opacity, 0..=1 (1 for particles, which shrink rather than fade).
    pub opacity: f64,
}

/// Everything the renderer needs for one frame.
#[derive(Clone, Copy, Debug)]
pub struct FrameView<'a> {
    /// The level being played (tiles are drawn from its `gfx` grid).
    pub level: &'a Level,
    /// Camera centre in level pixels (the centre of [`VIEW_SIZE`]), before the screen shake.
    pub camera: DVec2,
    /// The screen-shake offset, whole level pixels (0, 0 for none): the drawn view is centred
    /// on `camera + shake`, and the parallax layers are placed from that drawn view.
    pub shake: DVec2,
    /// The player.
    pub player: PlayerDraw,
    /// The player sprite's squash-and-stretch factors (x, y), (1, 1) at rest: the sprite is
    /// scaled about the middle of its bottom edge (the feet stay on the ground).
    pub player_scale: DVec2,
    /// Cosmetic items in draw order ([`crate::cosmetic`]): world particles, then overlays.
    pub effects: &'a [EffectDraw],
    /// Checkpoints reached, by index into `level.checkpoints` (drawn lit). Discrete state from
    /// the current tick.
    pub reached: &'a [bool],
    /// The goal portal's rotation about its centre, radians in [-π, π), clockwise on screen:
    /// `lerp_angle(goal_angle(previous tick), goal_angle(current tick), alpha)`, the short way
    /// round ([`crate::present::spin`]); the current tick's angle alone right after a reset
    /// (teleport, respawn, level load). 0 draws it upright.
    pub goal_angle: f64,
    /// Extra sprites to draw (`--stress N`), top-left in level pixels, already interpolated;
    /// empty in normal play.
    pub extra: &'a [DVec2],
    /// The level's entities, drawn behind the player; empty in a level without any.
    pub entities: &'a [EntityDraw],
    /// A ghost of a recorded run ([`super::ghost`]), drawn translucent with the player's sprite
    /// after the entities and behind the player; `None`: no ghost (or past its end).
    pub ghost: Option<PlayerDraw>,
    /// A race's other runners (every runner but the one the camera follows), drawn tinted
    /// like a ghost, behind the player; empty with one player.
    pub rivals: &'a [RivalDraw],
    /// "Watch every attempt" (`crate::app::replay`): the level's other attempts, each drawn
    /// as a ghost is; empty otherwise.
    pub attempts: &'a [PlayerDraw],
    /// Where the watched attempts died so far: hitbox top-lefts, level pixels, each drawn as a
    /// red cross over the hitbox's centre; empty otherwise.
    pub death_marks: &'a [DVec2],
}

impl<'a> FrameView<'a> {
    /// A still view of `level` centred on `camera` (level pixels) with `player` drawn: no
    /// shake, squash or effects, no
    /// checkpoint lit, the goal upright, no extra sprites, entities or ghost (the title screen,
    /// screenshots, tests; set the other fields with `FrameView { entities, ..still }`).
    pub fn still(level: &'a Level, camera: DVec2, player: PlayerDraw) -> Self {
        FrameView {
            level,
            camera,
            shake: DVec2::ZERO,
            player,
            player_scale: DVec2::ONE,
            effects: &[],
            reached: &[],
            goal_angle: 0.0,
            extra: &[],
            entities: &[],
            ghost: None,
            rivals: &[],
            attempts: &[],
            death_marks: &[],
        }
    }
}

impl FrameView<'_> {
    /// The top-left of the drawn area, level pixels: the camera centre plus the shake, minus
    /// half the view (LAB.md Version 3's `view`).
    pub fn view_top_left(&self) -> DVec2 {
        self.camera + self.shake - VIEW_SIZE * 0.5
    }
}
