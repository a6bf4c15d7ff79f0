//! What the player touches after its move (LAB.md's tick order: contacts come after the
//! player and before the tiles): saws, walkers, springs and crumble triggers, in id order.
//!
//! Clock: fixed tick.
//! - a saw kills when the player's box overlaps its circle (distance < r);
//! - a walker is defeated by a landing from above (the player's feet at or above its top
//!   before the player's move, and moving down in this tick), which bounces the player like a
//!   jump (not counted in `jumps`); any other overlap kills;
//! - a spring the player overlaps while not moving up puts the player on its top with
//!   `vy = −speed`, jump timers cleared (not counted in `jumps`), when the player fits there
//!   (a spring whose top a solid covers does nothing: the player is never placed inside one);
//! - a whole crumbling block the player stands on starts breaking.

use super::{crumble, solids};
use crate::level::{EntitySpec, Level};
use crate::sim::tuning::{Tuning, seconds_to_ticks};
use crate::sim::world::World;
use crate::sim::{EntityState, HITBOX};
use glam::DVec2;

/// Ticks a spring is drawn recoiled after a launch (presentation only).
pub const SPRING_RECOIL_TICKS: u32 = 6;

/// Apply every contact in id order. `before` is the player's position before its own move in
/// this tick. Returns true when the player was killed (the caller respawns it).
pub fn contacts(world: &mut World, level: &Level, tuning: &Tuning, tick_hz: u32, before: DVec2) -> bool {
    for (id, spec) in level.entities.iter().enumerate() {
        let Some(e) = world.entities.get_mut(id) else { break };
        let p = &mut world.player;
        // Every contact needs the player's box to overlap the entity's box along x (a saw's
        // circle lies inside its box; standing on a block overlaps it in x). A box more than
        // 1 px away along x is rejected before the spec is looked at: the margin is far more
        // than the rounding in a saw's distance test, so no contact is ever skipped.
        if p.pos.x + HITBOX.x < e.pos.x - 1.0 || p.pos.x > e.pos.x + e.size.x + 1.0 {
            continue;
        }
        match *spec {
            EntitySpec::Saw { radius, .. } => {
                let centre = e.pos + DVec2::splat(radius);
                let nearest = centre.clamp(p.pos, p.pos + HITBOX);
                if nearest.distance_squared(centre) < radius * radius {
                    return true;
                }
            }
            EntitySpec::Walker { .. } => {
                if e.state != EntityState::Alive || !solids::overlaps(e, p.pos, HITBOX) {
                    continue;
                }
                if before.y + HITBOX.y <= e.pos.y && p.pos.y > before.y {
                    e.state = EntityState::Defeated;
                    p.vel.y = -tuning.jump_speed;
                    p.var_jump = seconds_to_ticks(tuning.var_jump_time, tick_hz);
                    (p.coyote, p.jump_buffer, p.on_ground) = (0, 0, false);
                } else {
                    return true;
                }
            }
            EntitySpec::Spring { speed, .. } => {
                // A spring fires only when the player fits on its top: a spring whose top is
                // covered (a solid platform, a crumbling block or a tile less than the player's
                // height above it) does nothing, and the player passes through it as through
                // any body that is not solid, so it is never placed inside a solid.
                let on_top = DVec2::new(p.pos.x, e.pos.y - HITBOX.y);
                if p.vel.y >= 0.0
                    && solids::overlaps(e, p.pos, HITBOX)
                    && !solids::overlaps_solid(level, &world.entities, None, on_top, HITBOX)
                {
                    p.pos.y = on_top.y;
                    p.vel.y = -speed;
                    (p.coyote, p.jump_buffer, p.var_jump, p.on_ground) = (0, 0, 0, false);
                    world.entities[id].timer = SPRING_RECOIL_TICKS;
                }
            }
            EntitySpec::Crumble { delay, .. } => {
                if solids::standing_on(std::slice::from_ref(e), p.pos, HITBOX).is_some() {
                    crumble::trigger(e, delay, tick_hz);
                }
            }
            EntitySpec::Platform { .. } => {}
        }
    }
    false
}
