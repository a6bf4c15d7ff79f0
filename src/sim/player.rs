//! One fixed tick of player movement: run, jump (coyote time, jump buffer, variable height,
//! apex gravity), gravity, collision, hazards, checkpoints, goal.
//!
//! Clock: fixed tick. Integration is semi-implicit Euler, velocity then position (seed 003):
//! the tick that consumes a jump sets `vy = −jump_speed`, then integrates like every tick,
//! `vy += g·dt; y += vy·dt`. With `var_jump_time = 0`, `apex_gravity_mult = 1` and 700 px/s
//! up against 2000 px/s², the rise is 116.667 px at 60 Hz (111.111 / 120.081 / 121.042 px at
//! 30 / 144 / 240 Hz ticks) whatever the display rate.
//!
//! Feel follows Celeste's `Player.cs` (NormalUpdate): approach run speed with run_accel (x
//! air_mult in the air), decelerate with run_decel, hold the rise at jump speed while jump is
//! held for `var_jump_time`, half gravity near the apex while jump is held, coyote time, jump
//! buffer, upward corner correction, and Down+Jump through one-way platforms. Wall slide and
//! wall jump are [`super::wall`]'s, called at four points of the tick.
//!
//! With the invincibility assist ([`World::invincible`], Celeste's Assist Mode) nothing kills:
//! spikes, saws and walkers are passed through, a squish lifts the player onto the solid's top,
//! and a fall out of the level puts the player back on the last tile ground stood on.

use super::action::{Action, TickInput};
use super::collision::{corner_nudge, tile, tile_ceil};
use super::entities::{self, solids};
use super::tuning::{Tuning, seconds_to_ticks};
use super::wall;
use super::world::World;
use crate::level::{Level, Rect, TILE, TileKind};
use glam::DVec2;

pub use crate::level::HITBOX;

/// Hazard hitbox inside its 16 px tile, pixels: (left inset, top inset). Spikes are drawn in the
/// lower part of the tile; the kill box starts 6 px down and 2 px in from each side, so grazing
/// a spike tip is forgiven.
const HAZARD_INSET: DVec2 = DVec2::new(2.0, 6.0);

/// Ticks one-way platforms are ignored after Down+Jump: long enough to fall past the plank.
const DROP_THROUGH_TICKS: u32 = 8;

/// What happened in one tick, for reports and the loop (interpolation reset on respawn).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickOutcome {
    /// A jump started this tick.
    pub jump_started: bool,
    /// The player was placed somewhere new (death respawn or teleport): draw no in-between.
    pub respawned: bool,
    /// The player died this tick (hazard or fell out of the level).
    pub died: bool,
    /// The goal was touched this tick.
    pub finished: bool,
}

fn approach(v: f64, target: f64, max_delta: f64) -> f64 {
    if v < target { (v + max_delta).min(target) } else { (v - max_delta).max(target) }
}

/// Advance `world` by one fixed tick of `dt` seconds (1 / tick_hz), in LAB.md's order:
/// the entities ([`entities::before_player`]), the player, the contacts, the tiles, death and
/// respawn; then what the player rides ([`entities::after_tick`]).
pub fn step(
    world: &mut World,
    input: &TickInput,
    level: &Level,
    tuning: &Tuning,
    tick_hz: u32,
) -> TickOutcome {
    let out = tick(world, input, level, tuning, tick_hz);
    entities::after_tick(world);
    out
}

fn tick(world: &mut World, input: &TickInput, level: &Level, tuning: &Tuning, tick_hz: u32) -> TickOutcome {
    world.tick += 1;
    if world.level_complete {
        return TickOutcome::default();
    }
    let ent = entities::before_player(world, level, tick_hz);
    player_part(world, input, level, tuning, tick_hz, ent, Rules::Alone)
}

/// Whose rules a death follows: one player's ([`Rules::Alone`]: a death resets the crumbling
/// blocks and walkers) or a race's ([`Rules::Race`]: the world is shared, so a death resets
/// nothing but the runner; docs/lab.md "Players").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// One player in the world.
    Alone,
    /// Two or more runners share the world.
    Race,
}

/// The player's own part of a tick, after the entities stepped (`ent`, what they did to it):
/// move, contacts, tiles, death and respawn, checkpoints and the goal. `world`'s per-player
/// fields are the runner's ([`World::with_runner`] in a race). The world's tick has already
/// been counted.
pub fn player_part(
    world: &mut World,
    input: &TickInput,
    level: &Level,
    tuning: &Tuning,
    tick_hz: u32,
    ent: entities::BeforePlayer,
    rules: Rules,
) -> TickOutcome {
    let dt = 1.0 / tick_hz as f64;
    let mut out = TickOutcome::default();
    if ent.squished {
        if !world.invincible {
            return die(world, level, out, rules);
        }
        // Invincible: squeezed out onto the solid's top instead.
        entities::place_out_of_solids(world, level);
    }
    let before = world.player.pos;
    let p = &mut world.player;

    // Horizontal: approach run speed (Celeste: accel, decel, air multiplier).
    let dir = wall::steer(p, input.move_x());
    if dir != 0.0 {
        p.facing_left = dir < 0.0;
    }
    let mult = if p.on_ground { 1.0 } else { tuning.air_mult };
    let target = dir * tuning.run_speed;
    let rate = if dir != 0.0 { tuning.run_accel } else { tuning.run_decel };
    p.vel.x = approach(p.vel.x, target, rate * mult * dt);

    // Jump: a press is buffered; it fires while grounded or within coyote time.
    // Both windows open for a whole number of ticks and are not counted down in the tick that
    // opens them: a press in tick t still fires in tick t + B (B = jump_buffer_time in ticks),
    // and a walk-off in tick W (the first tick to end airborne) still jumps in tick W + C
    // (C = coyote_time in ticks). B = 0 is no buffer: the press counts in its own tick only.
    let started_grounded = p.on_ground;
    let pressed = input.pressed(Action::Jump);
    let buffer_ticks = seconds_to_ticks(tuning.jump_buffer_time, tick_hz);
    if pressed {
        p.jump_buffer = buffer_ticks.max(1);
    }
    let can_jump = p.on_ground || p.coyote > 0;
    if p.jump_buffer > 0 && can_jump {
        p.jump_buffer = 0;
        let on_oneway_body = world.riding.is_some_and(|i| world.entities[i].oneway);
        if input.held(Action::Down)
            && p.on_ground
            && (standing_on_oneway_only(level, p.pos) || on_oneway_body)
        {
            p.drop_through = DROP_THROUGH_TICKS;
        } else {
            p.vel.y = -tuning.jump_speed;
            if dir != 0.0 {
                p.vel.x += dir.signum() * tuning.jump_h_boost;
            }
            p.var_jump = seconds_to_ticks(tuning.var_jump_time, tick_hz);
            p.vel += ent.lift;
            out.jump_started = true;
            world.jumps += 1;
        }
        p.coyote = 0;
        p.on_ground = false;
    } else if p.jump_buffer > 0 && wall::try_jump(p, level, tuning, tick_hz, dir) {
        out.jump_started = true;
        world.jumps += 1;
    }

    // Gravity, halved near the apex while jump is held (Celeste HalfGravThreshold).
    let jump_held = input.held(Action::Jump);
    let g_mult =
        if p.vel.y.abs() < tuning.apex_threshold && jump_held { tuning.apex_gravity_mult } else { 1.0 };
    let fall_cap = wall::fall_cap(p, level, tuning, dir);
    p.vel.y = approach(p.vel.y, fall_cap, tuning.gravity * g_mult * dt);

    // Variable jump: while held, the rise keeps at least jump speed (Celeste varJumpTimer).
    if p.var_jump > 0 {
        if jump_held {
            p.vel.y = p.vel.y.min(-tuning.jump_speed);
            p.var_jump -= 1;
        } else {
            p.var_jump = 0;
        }
    }

    // Move x then y, each stopping at the first blocking tile edge.
    let (nx, hit_x) = solids::move_x(level, &world.entities, None, p.pos, HITBOX, p.vel.x * dt);
    p.pos.x = nx;
    if hit_x {
        p.vel.x = 0.0;
    }
    let dy = p.vel.y * dt;
    let ignore_oneway = p.drop_through > 0;
    let (mut ny, mut hit_y) = solids::move_y(level, &world.entities, None, p.pos, HITBOX, dy, ignore_oneway);
    if hit_y && dy < 0.0 {
        let nudge = corner_nudge(level, p.pos, HITBOX, dy, tuning.corner_correction, dir)
            .filter(|&shift| solids::nudge_is_clear(level, &world.entities, p.pos, HITBOX, shift, dy));
        if let Some(shift) = nudge {
            p.pos.x += shift;
            (ny, hit_y) = (p.pos.y + dy, false);
        }
    }
    p.pos.y = ny;
    p.on_ground = hit_y && dy > 0.0;
    if hit_y {
        if dy < 0.0 {
            p.var_jump = 0;
        }
        p.vel.y = 0.0;
    }
    p.drop_through = p.drop_through.saturating_sub(1);
    wall::after_move(p, level, tuning, tick_hz, dir);

    // Timers that count from this tick's result.
    if p.on_ground {
        p.coyote = seconds_to_ticks(tuning.coyote_time, tick_hz);
    } else if !started_grounded {
        p.coyote = p.coyote.saturating_sub(1);
    }
    if !pressed || buffer_ticks == 0 {
        p.jump_buffer = p.jump_buffer.saturating_sub(1);
    }
    p.run_ticks = if p.on_ground && p.vel.x != 0.0 { p.run_ticks.wrapping_add(1) } else { 0 };

    if world.invincible && world.player.on_ground && world.riding.is_none() {
        world.safe_ground = world.player.pos;
    }
    if entities::contacts::contacts(world, level, tuning, tick_hz, before) && !world.invincible {
        return die(world, level, out, rules);
    }

    // Triggers: hazards and the pit kill, checkpoints move the respawn point, the goal finishes.
    let hitbox = Rect { pos: world.player.pos, size: HITBOX };
    if hitbox.pos.y > level.size_px().y && world.invincible {
        // Invincible: back on the last ground stood on, as after a teleport (not a death).
        let at = world.safe_ground;
        respawn(world, level, Some(at));
        out.respawned = true;
        return out;
    }
    if !world.invincible && (touches_hazard(level, &hitbox) || hitbox.pos.y > level.size_px().y) {
        return die(world, level, out, rules);
    }
    for (i, cp) in level.checkpoints.iter().enumerate() {
        if cp.area.overlaps(&hitbox) && !world.reached.get(i).copied().unwrap_or(false) {
            if world.reached.len() <= i {
                world.reached.resize(i + 1, false);
            }
            world.reached[i] = true;
            world.checkpoint = Some(i);
            world.checkpoint_at = Some(world.tick);
            world.respawn_point = cp.respawn;
        }
    }
    if level.goal.is_some_and(|g| g.overlaps(&hitbox)) {
        world.level_complete = true;
        world.finished_at = Some(world.tick);
        out.finished = true;
    }
    out
}

/// A death (hazard, pit, saw, walker, squish): respawn at the respawn point; alone, reset the
/// entities death resets ([`entities::reset_on_death`]); in a race, reset nothing shared, only
/// place the runner out of solids ([`entities::place_at_start`]).
fn die(world: &mut World, level: &Level, mut out: TickOutcome, rules: Rules) -> TickOutcome {
    world.deaths += 1;
    respawn(world, level, None);
    match rules {
        Rules::Alone => entities::reset_on_death(world, level),
        Rules::Race => entities::place_at_start(world, level),
    }
    out.died = true;
    out.respawned = true;
    out
}

/// A tick that only places the player (the lab's `teleport X Y`, LAB.md): the tick counter
/// advances and the tick ends with the player at `at` (hitbox top-left, pixels; x kept inside
/// the side walls as [`respawn`] does) at rest, exactly as the tick of a death respawn ends.
/// Nothing is integrated in this tick, and its input is not applied (a death tick's own press
/// is lost the same way, with the rest of the player's state). The entities step as in any
/// tick (their clock runs on) before the player is placed; nothing is reset. A target inside a
/// solid entity puts the player on its top ([`entities::place_out_of_solids`]).
pub fn teleport(world: &mut World, level: &Level, at: DVec2, tick_hz: u32) -> TickOutcome {
    world.tick += 1;
    entities::before_player(world, level, tick_hz);
    respawn(world, level, Some(at));
    entities::place_out_of_solids(world, level);
    entities::after_tick(world);
    TickOutcome { respawned: true, ..TickOutcome::default() }
}

/// Place the player at `at` (or the respawn point) with zero velocity, counting a respawn.
/// A position outside the level's side walls is moved inside them (x clamped to
/// [0, level width − hitbox width]); y is taken as given (sky above, pit below).
pub fn respawn(world: &mut World, level: &Level, at: Option<DVec2>) {
    let mut pos = at.unwrap_or(world.respawn_point);
    pos.x = pos.x.clamp(0.0, (level.size_px().x - HITBOX.x).max(0.0));
    let facing_left = world.player.facing_left;
    world.player = super::world::Player { pos, facing_left, ..Default::default() };
    world.respawns += 1;
}

fn standing_on_oneway_only(level: &Level, pos: DVec2) -> bool {
    let feet_row = ((pos.y + HITBOX.y) / TILE).round() as i64;
    let c0 = (pos.x / TILE).floor() as i64;
    let c1 = (((pos.x + HITBOX.x) / TILE).ceil() as i64).saturating_sub(1);
    let kinds: Vec<TileKind> = (c0..=c1).map(|tx| level.kind_at(tx, feet_row)).collect();
    kinds.contains(&TileKind::OneWay) && !kinds.contains(&TileKind::Solid)
}

fn touches_hazard(level: &Level, hitbox: &Rect) -> bool {
    // `tile`/`tile_ceil`: `(v / TILE).floor() as i64` and `.ceil()`, without the libm calls.
    let c0 = tile(hitbox.pos.x);
    let c1 = tile_ceil(hitbox.pos.x + hitbox.size.x).saturating_sub(1);
    let r0 = tile(hitbox.pos.y);
    let r1 = tile_ceil(hitbox.pos.y + hitbox.size.y).saturating_sub(1);
    (c0..=c1).any(|tx| {
        (r0..=r1).any(|ty| {
            level.kind_at(tx, ty) == TileKind::Hazard && {
                let kill = Rect::new(
                    tx as f64 * TILE + HAZARD_INSET.x,
                    ty as f64 * TILE + HAZARD_INSET.y,
                    TILE - 2.0 * HAZARD_INSET.x,
                    TILE - HAZARD_INSET.y,
                );
                kill.overlaps(hitbox)
            }
        })
    })
}
