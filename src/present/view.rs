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
}

impl PlayerPose {
    /// The pose of a player standing or not (`on_ground`) with velocity `vel` (px/s, y down)
    /// who has run `run_ticks` ticks on the ground: jump while rising, fall while airborne
    /// otherwise, the 4-frame run cycle while moving on the ground (10 frames a second of game
    /// time: 6 ticks a frame at 60 Hz), idle otherwise.
    pub fn of_motion(on_ground: bool, vel: DVec2, run_ticks: u32, tick_hz: u32) -> PlayerPose {
        if !on_ground {
            if vel.y < 0.0 { PlayerPose::Jump } else { PlayerPose::Fall }
        } else if vel.x != 0.0 {
            let ticks_per_frame = (tick_hz / 10).max(1);
            PlayerPose::Run(((run_ticks / ticks_per_frame) % 4) as u8)
        } else {
            PlayerPose::Idle
        }
    }
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

/// Everything the renderer needs for one frame.
#[derive(Clone, Copy, Debug)]
pub struct FrameView<'a> {
    /// The level being played (tiles are drawn from its `gfx` grid).
    pub level: &'a Level,
    /// Camera centre in level pixels (the centre of [`VIEW_SIZE`]).
    pub camera: DVec2,
    /// The player.
    pub player: PlayerDraw,
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
}

impl<'a> FrameView<'a> {
    /// A still view of `level` centred on `camera` (level pixels) with `player` drawn: no
    /// checkpoint lit, the goal upright, no extra sprites, entities or ghost (the title screen,
    /// screenshots, tests; set the other fields with `FrameView { entities, ..still }`).
    pub fn still(level: &'a Level, camera: DVec2, player: PlayerDraw) -> Self {
        FrameView {
            level,
            camera,
            player,
            reached: &[],
            goal_angle: 0.0,
            extra: &[],
            entities: &[],
            ghost: None,
        }
    }
}
