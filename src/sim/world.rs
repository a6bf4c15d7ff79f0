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
    /// The tick the goal was touched in. A statistic (the results table's order), like `jumps`:
    /// no tick reads it and [`World::state_hash`] leaves it out.
    pub finished_at: Option<u64>,
    /// The tick the player last touched a checkpoint not touched before (the segment timer's
    /// splits, `crate::timer::Segments`). A statistic, like `finished_at`: no tick reads it and
    /// [`World::state_hash`] leaves it out. Meaningful with one player only.
    pub checkpoint_at: Option<u64>,
    /// Players 2..=N of a race (LAB.md Version 4 `players N`), each with the same per-player
    /// fields as player 1's above; empty with one player, and then nothing about a race is
    /// hashed ([`World::state_hash`]). The race's tick is [`super::race::step_race`].
    pub others: Vec<Runner>,
    /// Players who left the race (their peer went silent or quit), bit K − 1 for player K: a
    /// runner that left stands where it was and touches nothing. Always 0 with one player.
    pub left: u8,
    /// The invincibility assist (the lab's `config assist_invincible 1`, the game's assists
    /// menu; Celeste's Assist Mode): hazards, saws, walkers and squishes do not kill, and a fall
    /// out of the level puts the player back on [`World::safe_ground`] ([`super::player`]).
    /// Off in a race. Hashed only when on, so a run without it hashes as before it existed.
    pub invincible: bool,
    /// With [`World::invincible`]: the hitbox top-left where the player last stood on the
    /// level's tiles (not on a platform or a crumbling block, which may be gone), pixels; the
    /// respawn point until then.
    pub safe_ground: DVec2,
}

/// The most players in one world (LAB.md Version 4: `players N`, N in 1..=4).
pub const MAX_PLAYERS: usize = 4;

/// One runner's own state in a race, for players 2..=N: exactly the per-player fields of
/// [`World`] (player 1 keeps them in the world itself, so a one-player world is what it always
/// was). [`World::swap_runner`] exchanges them with the world's, so every rule written for
/// "the player" runs for any runner.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Runner {
    /// As [`World::player`].
    pub player: Player,
    /// As [`World::respawn_point`], pixels.
    pub respawn_point: DVec2,
    /// As [`World::checkpoint`].
    pub checkpoint: Option<usize>,
    /// As [`World::reached`].
    pub reached: Vec<bool>,
    /// As [`World::jumps`] (a statistic).
    pub jumps: u64,
    /// As [`World::respawns`] (a statistic).
    pub respawns: u64,
    /// As [`World::deaths`] (a statistic).
    pub deaths: u64,
    /// As [`World::level_complete`]: this runner has finished.
    pub level_complete: bool,
    /// As [`World::riding`].
    pub riding: Option<usize>,
    /// As [`World::finished_at`] (a statistic).
    pub finished_at: Option<u64>,
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
            finished_at,
            checkpoint_at,
            others,
            left,
            invincible,
            safe_ground,
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
        self.finished_at = *finished_at;
        self.checkpoint_at = *checkpoint_at;
        self.others.clone_from(others);
        self.left = *left;
        self.invincible = *invincible;
        self.safe_ground = *safe_ground;
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
        h.u64(self.tick);
        let (p, cp) = (&self.player, self.checkpoint);
        feed_runner(p, self.respawn_point, cp, &self.reached, self.level_complete, &mut h);
        entities::hash_into(&self.entities, self.riding, &mut h);
        if !self.others.is_empty() {
            // A race only: one player hashes exactly as before races existed.
            h.u64(self.players() as u64);
            h.u64(u64::from(self.left));
            h.u64(self.riding.map_or(u64::MAX, |r| r as u64));
            for r in &self.others {
                hash_runner(r, &mut h);
            }
        }
        if self.invincible {
            h.bool(true);
            h.f64(self.safe_ground.x);
            h.f64(self.safe_ground.y);
        }
        h.finish()
    }

    /// Turn the invincibility assist on or off ([`World::invincible`]); turned on, the safe
    /// ground starts at the respawn point.
    pub fn set_invincible(&mut self, on: bool) {
        if on && !self.invincible {
            self.safe_ground = self.respawn_point;
        }
        self.invincible = on;
    }

    /// Players in this world: 1 + [`World::others`]'s length (1..=[`MAX_PLAYERS`]).
    pub fn players(&self) -> usize {
        1 + self.others.len()
    }

    /// A fresh world for `level` with `players` runners (clamped to 1..=[`MAX_PLAYERS`]), each
    /// at the level's spawn as [`World::for_level`] places player 1; one player is exactly
    /// `for_level`.
    pub fn for_race(level: &Level, players: usize) -> Self {
        let mut w = World::for_level(level);
        let runner = Runner {
            player: w.player.clone(),
            respawn_point: w.respawn_point,
            checkpoint: w.checkpoint,
            reached: w.reached.clone(),
            riding: w.riding,
            ..Runner::default()
        };
        w.others = vec![runner; players.clamp(1, MAX_PLAYERS) - 1];
        w
    }

    /// Exchange the world's per-player fields (player 1's, normally) with `runner`'s: after
    /// one swap the world's fields are that runner's, and a second swap puts them back.
    pub fn swap_runner(&mut self, runner: &mut Runner) {
        std::mem::swap(&mut self.player, &mut runner.player);
        std::mem::swap(&mut self.respawn_point, &mut runner.respawn_point);
        std::mem::swap(&mut self.checkpoint, &mut runner.checkpoint);
        std::mem::swap(&mut self.reached, &mut runner.reached);
        std::mem::swap(&mut self.jumps, &mut runner.jumps);
        std::mem::swap(&mut self.respawns, &mut runner.respawns);
        std::mem::swap(&mut self.deaths, &mut runner.deaths);
        std::mem::swap(&mut self.level_complete, &mut runner.level_complete);
        std::mem::swap(&mut self.riding, &mut runner.riding);
        std::mem::swap(&mut self.finished_at, &mut runner.finished_at);
    }

    /// Run `f` with player `k`'s fields (0-based: 0 is player 1) in the world's per-player
    /// fields, then put them back. Panics if `k` ≥ [`World::players`].
    pub fn with_runner<R>(&mut self, k: usize, f: impl FnOnce(&mut World) -> R) -> R {
        if k == 0 {
            return f(self);
        }
        let mut r = std::mem::take(&mut self.others[k - 1]);
        self.swap_runner(&mut r);
        let out = f(self);
        self.swap_runner(&mut r);
        self.others[k - 1] = r;
        out
    }

    /// Player `k`'s runner (0-based) as a read-only view: (player, level complete, deaths,
    /// finish tick). Panics if `k` ≥ [`World::players`].
    pub fn runner_view(&self, k: usize) -> RunnerView<'_> {
        match k {
            0 => RunnerView {
                player: &self.player,
                level_complete: self.level_complete,
                deaths: self.deaths,
                finished_at: self.finished_at,
                left: self.left & 1 != 0,
            },
            _ => {
                let r = &self.others[k - 1];
                RunnerView {
                    player: &r.player,
                    level_complete: r.level_complete,
                    deaths: r.deaths,
                    finished_at: r.finished_at,
                    left: self.left & (1 << k) != 0,
                }
            }
        }
    }

    /// Player `k` (0-based) has left the race ([`World::left`]).
    pub fn has_left(&self, k: usize) -> bool {
        self.left & (1 << k) != 0
    }

    /// Player `k` (0-based) still runs: neither finished nor left.
    pub fn racing(&self, k: usize) -> bool {
        !self.runner_view(k).level_complete && !self.has_left(k)
    }
}

/// What the lab report and the race's results read of one runner ([`World::runner_view`]).
#[derive(Clone, Copy, Debug)]
pub struct RunnerView<'a> {
    /// Its body.
    pub player: &'a Player,
    /// It touched the goal.
    pub level_complete: bool,
    /// Its deaths (a statistic).
    pub deaths: u64,
    /// The tick it finished in (a statistic).
    pub finished_at: Option<u64>,
    /// It left the race.
    pub left: bool,
}

/// Feed one of players 2..=N to `h`: the fields player 1's part of [`World::state_hash`]
/// covers, in the same order, and its riding link.
fn hash_runner(r: &Runner, h: &mut StableHasher) {
    feed_runner(&r.player, r.respawn_point, r.checkpoint, &r.reached, r.level_complete, h);
    h.u64(r.riding.map_or(u64::MAX, |x| x as u64));
}

/// Feed a runner's own state to `h` (the order [`World::state_hash`] has always used for the
/// player): body, respawn point, flags, timers, wall memory, checkpoint, checkpoints reached,
/// finish.
fn feed_runner(
    p: &Player,
    respawn: DVec2,
    checkpoint: Option<usize>,
    reached: &[bool],
    complete: bool,
    h: &mut StableHasher,
) {
    for v in [p.pos.x, p.pos.y, p.vel.x, p.vel.y, respawn.x, respawn.y] {
        h.f64(v);
    }
    h.bool(p.on_ground);
    h.bool(p.facing_left);
    for v in [p.coyote, p.jump_buffer, p.var_jump, p.drop_through, p.run_ticks] {
        h.u64(v as u64);
    }
    p.wall.feed(h);
    h.u64(checkpoint.map_or(u64::MAX, |c| c as u64));
    h.u64(reached.len() as u64);
    for &x in reached {
        h.bool(x);
    }
    h.bool(complete);
}
