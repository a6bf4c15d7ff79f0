//! The world state the fixed tick advances: the player, the level's entities and progress.
//!
//! Clock: fixed tick. Plain data: `Clone`, `PartialEq`, hashed by [`World::state_hash`].

use super::entities::{self, Entity};
use super::hash::StableHasher;
use super::wall::WallState;
use crate::level::Level;
use glam::DVec2;

/// The player's authoritative state after a tick.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Player {
    /// Top-left of the hitbox, pixels (x right, y down), exact sub-pixel position.
    pub pos: DVec2,
    /// Velocity, pixels per second.
    pub vel: DVec2,
    /// Standing on a solid tile or a one-way platform after this tick's move.
    pub on_ground: bool,
    /// Facing left (last horizontal intent). Discrete.
    pub facing_left: bool,
    /// Ticks of coyote time left: a jump is still allowed while > 0 after leaving the ground.
    pub coyote: u32,
    /// Ticks a buffered jump press stays wanted.
    pub jump_buffer: u32,
    /// Ticks of variable-jump sustain left (rise speed held while jump is held).
    pub var_jump: u32,
    /// Ticks during which one-way platforms are ignored after a drop-through.
    pub drop_through: u32,
    /// Ticks spent running on the ground, for the run animation (discrete, never blended).
    pub run_ticks: u32,
    /// Wall slide and wall jump memory (grace window, forced push), see [`super::wall`].
    pub wall: WallState,
}

/// Everything a tick reads and writes besides the level and the tuning.
///
/// `Clone` is written out so that `clone_from` (the rewind history keeps a state every tick)
/// reuses the target's vectors instead of allocating new ones.
#[derive(Debug, PartialEq, Default)]
pub struct World {
    /// Ticks run so far.
    pub tick: u64,
    /// The player.
    pub player: Player,
    /// Where the player respawns (spawn, then the last checkpoint reached), top-left, pixels.
    pub respawn_point: DVec2,
    /// Index of the checkpoint the player respawns at, if any.
    pub checkpoint: Option<usize>,
    /// Checkpoints touched so far, by index. Touching one again does not move the respawn
    /// point back to it.
    pub reached: Vec<bool>,
    /// Jumps started. A statistic, not state: no tick reads it, [`World::state_hash`] leaves
    /// it out and a rewind keeps counting (LAB.md Version 3's hash rule).
    pub jumps: u64,
    /// Respawns (hazard deaths, falls and teleports). A statistic, like `jumps`.
    pub respawns: u64,
    /// Deaths (hazard or falling out of the level). A statistic, like `jumps`.
    pub deaths: u64,
    /// The goal was touched; the level is finished.
    pub level_complete: bool,
    /// The level's entities' live state, by id ([`super::entities`]); empty in a level
    /// without any.
    pub entities: Vec<Entity>,
    /// The platform or crumbling block the player rides after this tick, by id (LAB.md's
    /// riding rule, [`super::entities::after_tick`]).
    pub riding: Option<usize>,
}

impl Clone for World {
    fn clone(&self) -> Self {
        let mut w = World::default();
        w.clone_from(self);
        w
    }

    fn clone_from(&mut self, source: &Self) {
        // Every field by name (no `..`): a new field must be added here to compile.
        let World {
            tick,
            player,
            respawn_point,
            checkpoint,
            reached,
            jumps,
            respawns,
            deaths,
            level_complete,
            entities,
            riding,
        } = source;
        self.tick = *tick;
        self.player.clone_from(player);
        self.respawn_point = *respawn_point;
        self.checkpoint = *checkpoint;
        self.reached.clone_from(reached);
        self.jumps = *jumps;
        self.respawns = *respawns;
        self.deaths = *deaths;
        self.level_complete = *level_complete;
        self.entities.clone_from(entities);
        self.riding = *riding;
    }
}

impl World {
    /// A fresh world with the player standing at `spawn` (top-left of the hitbox, pixels).
    pub fn new(spawn: DVec2) -> Self {
        World {
            player: Player { pos: spawn, ..Default::default() },
            respawn_point: spawn,
            ..Default::default()
        }
    }

    /// A fresh world for `level`: the player at its spawn (out of solid entities as after a
    /// respawn, [`entities::place_at_start`]), its entities at their start, riding what it
    /// stands on there.
    pub fn for_level(level: &Level) -> Self {
        let mut w = World { entities: entities::spawn(level), ..World::new(level.spawn) };
        entities::place_at_start(&mut w, level);
        entities::after_tick(&mut w);
        w
    }

    /// A stable hash of every field a tick reads (see [`StableHasher`]): not the `jumps`,
    /// `respawns` and `deaths` statistics (LAB.md Version 3's hash rule).
    pub fn state_hash(&self) -> u64 {
        let mut h = StableHasher::default();
        let p = &self.player;
        h.u64(self.tick);
        for v in [p.pos.x, p.pos.y, p.vel.x, p.vel.y, self.respawn_point.x, self.respawn_point.y] {
            h.f64(v);
        }
        h.bool(p.on_ground);
        h.bool(p.facing_left);
        for v in [p.coyote, p.jump_buffer, p.var_jump, p.drop_through, p.run_ticks] {
            h.u64(v as u64);
        }
        p.wall.feed(&mut h);
        h.u64(self.checkpoint.map_or(u64::MAX, |c| c as u64));
        h.u64(self.reached.len() as u64);
        for &r in &self.reached {
            h.bool(r);
        }
        h.bool(self.level_complete);
        entities::hash_into(&self.entities, self.riding, &mut h);
        h.finish()
    }
}
