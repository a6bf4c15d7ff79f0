//! A moving platform's tick: follow the path on whole pixels, then carry its rider and push
//! what it moves into (Maddy Thorson, "Celeste and TowerFall physics": a Solid moves first,
//! then moves its riders by the same amount and pushes the actors it now overlaps; a push that
//! cannot happen squishes).
//!
//! Clock: fixed tick. The platform's position is its [`super::path::Path`] at its clock, rounded
//! to whole pixels (the remainder kept as `exact − pos`); it moves along x, then along y, each
//! axis by a whole number of pixels. A rider (the player, when its feet are on the platform's
//! top just before the platform moves) is carried by the same displacement through the
//! player's swept collision, so it stops at a wall without dying (the platform slides on under
//! it). Every platform carries its rider, as each of Celeste's Solids does, but the player is
//! carried at most once per tick per axis by a displacement it actually made ([`Carried`]): two
//! platforms moving side by side in step carry it once, and a carry blocked to nothing by a
//! solid that moves later in the tick (the top of a second platform going down with the
//! first) leaves that later one to carry it. A solid platform that
//! overlaps the player after its move pushes it out by the overlap, exactly onto its edge; if
//! a tile, a side of the level or another solid stops that push, the player is squished.
//! One-way platforms never push: they only carry.

use super::path::round_px;
use super::{Entity, solids};
use crate::level::{EntityKind, Level};
use crate::sim::EntityState;
use crate::sim::HITBOX;
use crate::sim::world::World;
use glam::DVec2;

/// Which axes a platform's carry has already moved the player along in this tick (LAB.md: a
/// platform carries its riders; the player is carried at most once per tick per axis). A
/// fresh one (`Carried::default()`) for every tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Carried {
    /// A carry moved the player along x in this tick.
    pub x: bool,
    /// A carry moved the player along y in this tick.
    pub y: bool,
}

/// Move platform `id` one tick (as the only platform moving in that tick) and carry or push
/// the player. Returns true when the player was squished. ([`advance_path`], then
/// [`move_platform`].)
pub fn step_platform(world: &mut World, level: &Level, id: usize, tick_hz: u32) -> bool {
    advance_path(&mut world.entities[id], tick_hz);
    move_platform(world, level, id, &mut Carried::default())
}

/// A platform's or saw's clock runs one tick and its exact place (`exact`) follows its path; a
/// platform's state becomes `waiting` or `moving`. A function of its clock alone: nothing else
/// in the tick reads or changes it, so [`super::before_player`] does this for every path
/// first, in one tight loop.
pub fn advance_path(e: &mut Entity, tick_hz: u32) {
    e.clock += 1;
    let p = e.path.at_tick(e.clock, tick_hz);
    if e.kind == EntityKind::Platform {
        e.state = if p.waiting { EntityState::Waiting } else { EntityState::Moving };
    }
    e.exact = p.pos;
}

/// Platform `id`, its path already advanced ([`advance_path`]): move it to its exact place
/// rounded to whole pixels, x then y, carrying or pushing the player. The player is its rider
/// when its feet are on the platform's top before the move; `carried` (shared by every
/// platform in the tick) says which axes another platform's carry already moved it along,
/// and is updated. Returns true when the player was squished.
pub fn move_platform(world: &mut World, level: &Level, id: usize, carried: &mut Carried) -> bool {
    let e = &mut world.entities[id];
    let exact = e.exact;
    let target = DVec2::new(round_px(exact.x), round_px(exact.y));
    let d = target - e.pos;
    e.moved = d;
    let rider = solids::standing_on(std::slice::from_ref(e), world.player.pos, HITBOX).is_some();
    // Nearly always the player neither rides it nor touches it after its x move or its whole
    // move: then [`move_player`] would do nothing on either axis and the platform just takes its
    // place, with no branch on whether it moved (that changes from tick to tick at random).
    // `pos.x` is kept when `d.x` is 0, as below (a spec's −0.0 stays −0.0).
    let p = world.player.pos;
    let mid = spans(p.x, HITBOX.x, target.x, e.size.x) & spans(p.y, HITBOX.y, e.pos.y, e.size.y);
    let end = spans(p.x, HITBOX.x, target.x, e.size.x) & spans(p.y, HITBOX.y, target.y, e.size.y);
    if !rider & !(e.is_solid() & (mid | end)) {
        e.pos.x = if d.x != 0.0 { target.x } else { e.pos.x };
        e.pos.y = target.y;
        return false;
    }
    let mut squished = false;
    if d.x != 0.0 {
        world.entities[id].pos.x = target.x;
        squished |= move_player(world, level, id, DVec2::new(d.x, 0.0), rider, &mut carried.x);
    }
    if d.y != 0.0 && !squished {
        world.entities[id].pos.y = target.y;
        squished |= move_player(world, level, id, DVec2::new(0.0, d.y), rider, &mut carried.y);
    } else {
        world.entities[id].pos.y = target.y;
    }
    squished
}

/// [`move_platform`] in a race: platform `id`, its path already advanced, moves to its exact
/// place rounded to whole pixels, x then y, and carries or pushes every runner still racing
/// (`racing[k]` for player k + 1), each by the same rule as one player: a rider is a runner
/// whose feet are on its top before the move; `carried[k]` is that runner's (shared by every
/// platform in the tick); a blocked push sets `out[k].squished`, and a runner squished along
/// x is not moved along y by this platform.
pub fn move_platform_race(
    world: &mut World,
    level: &Level,
    id: usize,
    racing: &[bool],
    carried: &mut [Carried],
    out: &mut [super::BeforePlayer],
) {
    let e = &mut world.entities[id];
    let target = DVec2::new(round_px(e.exact.x), round_px(e.exact.y));
    let d = target - e.pos;
    e.moved = d;
    let e = *e;
    let mut rider = [false; crate::sim::world::MAX_PLAYERS];
    for (k, r) in rider.iter_mut().enumerate().take(racing.len()) {
        *r = racing[k]
            && solids::standing_on(std::slice::from_ref(&e), world.runner_view(k).player.pos, HITBOX)
                .is_some();
    }
    let mut squished_x = [false; crate::sim::world::MAX_PLAYERS];
    if d.x != 0.0 {
        world.entities[id].pos.x = target.x;
        for k in (0..racing.len()).filter(|&k| racing[k]) {
            let dx = DVec2::new(d.x, 0.0);
            squished_x[k] =
                world.with_runner(k, |w| move_player(w, level, id, dx, rider[k], &mut carried[k].x));
            out[k].squished |= squished_x[k];
        }
    }
    world.entities[id].pos.y = target.y;
    if d.y != 0.0 {
        for k in (0..racing.len()).filter(|&k| racing[k] && !squished_x[k]) {
            let dy = DVec2::new(0.0, d.y);
            out[k].squished |=
                world.with_runner(k, |w| move_player(w, level, id, dy, rider[k], &mut carried[k].y));
        }
    }
}

/// True when the open intervals (a, a + al) and (b, b + bl) overlap, without short-circuits (as
/// [`solids::overlaps`] decides per axis).
fn spans(a: f64, al: f64, b: f64, bl: f64) -> bool {
    (a < b + bl) & (a + al > b)
}

/// After platform `id` moved by `d` (one axis only): push the player out of it if it is solid
/// and now overlaps the player (true: the push was blocked, a squish), else carry a rider by
/// `d` through the swept collision (stopping at whatever is in the way), unless a carry
/// already moved it along this axis in this tick (`carried`, set when this carry moves it).
fn move_player(
    world: &mut World,
    level: &Level,
    id: usize,
    d: DVec2,
    rider: bool,
    carried: &mut bool,
) -> bool {
    let e = &world.entities[id];
    let p = world.player.pos;
    if e.is_solid() && solids::overlaps(e, p, HITBOX) {
        let to = if d.x > 0.0 {
            DVec2::new(e.pos.x + e.size.x, p.y)
        } else if d.x < 0.0 {
            DVec2::new(e.pos.x - HITBOX.x, p.y)
        } else if d.y > 0.0 {
            DVec2::new(p.x, e.pos.y + e.size.y)
        } else {
            DVec2::new(p.x, e.pos.y - HITBOX.y)
        };
        let blocked = if d.x != 0.0 {
            solids::move_x(level, &world.entities, Some(id), p, HITBOX, to.x - p.x).1
        } else {
            // A push down stops at a one-way tile or platform under the feet, as the player's own
            // fall does (unless it is dropping through): that is a squish, not a pass-through.
            let drop = world.player.drop_through > 0;
            solids::move_y(level, &world.entities, Some(id), p, HITBOX, to.y - p.y, drop).1
        };
        if blocked || solids::overlaps_solid(level, &world.entities, Some(id), to, HITBOX) {
            return true;
        }
        world.player.pos = to;
    } else if rider && !*carried {
        let ents = &world.entities;
        if d.x != 0.0 {
            world.player.pos.x = solids::move_x(level, ents, Some(id), p, HITBOX, d.x).0;
        } else {
            world.player.pos.y = solids::move_y(level, ents, Some(id), p, HITBOX, d.y, false).0;
        }
        *carried = world.player.pos != p;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::EntitySpec;
    use crate::level::ascii::parse_ascii;
    use crate::sim::entities::{after_tick, spawn};

    fn world_with(rows: &[&str], specs: Vec<EntitySpec>) -> (World, Level) {
        let rows: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        let mut level = parse_ascii(&rows, 1).expect("level");
        level.entities = specs;
        let mut w = World::new(level.spawn);
        w.entities = spawn(&level);
        (w, level)
    }

    fn platform(pos: DVec2, to: DVec2, speed: f64, oneway: bool) -> EntitySpec {
        EntitySpec::Platform { pos, size: DVec2::new(48.0, 16.0), to: Some(to), speed, wait: 0.0, oneway }
    }

    #[test]
    fn a_rising_platform_lifts_its_rider_with_feet_exactly_on_its_top() {
        let (mut w, l) = world_with(
            &["........", "........", "........", "........", "........", "........", "P......."],
            vec![platform(DVec2::new(0.0, 80.0), DVec2::new(0.0, 20.0), 90.0, false)],
        );
        w.player.pos = DVec2::new(10.0, 80.0 - HITBOX.y);
        after_tick(&mut w);
        assert_eq!(w.riding, Some(0));
        for _ in 0..30 {
            assert!(!step_platform(&mut w, &l, 0, 60));
            assert_eq!(w.player.pos.y + HITBOX.y, w.entities[0].pos.y);
            assert_eq!(w.player.pos.x, 10.0);
            after_tick(&mut w);
            assert_eq!(w.riding, Some(0));
        }
        assert!(w.entities[0].pos.y < 80.0 - 40.0);
        assert_eq!(w.entities[0].pos.y.fract(), 0.0, "whole pixels");
    }

    #[test]
    fn a_rider_carried_into_a_wall_stops_and_a_pushed_player_is_squished() {
        // A wall at column 6; the platform runs right under it, the rider stops at the wall.
        let rows = ["......#.", "......#.", "......#.", "......#.", "P......."];
        let (mut w, l) =
            world_with(&rows, vec![platform(DVec2::new(0.0, 48.0), DVec2::new(80.0, 48.0), 120.0, false)]);
        w.player.pos = DVec2::new(30.0, 48.0 - HITBOX.y);
        after_tick(&mut w);
        for _ in 0..40 {
            assert!(!step_platform(&mut w, &l, 0, 60));
        }
        assert_eq!(w.player.pos.x + HITBOX.x, 96.0, "stopped at the wall");
        // A platform moving sideways into a player standing against the wall squishes it.
        let (mut w, l) =
            world_with(&rows, vec![platform(DVec2::new(0.0, 40.0), DVec2::new(80.0, 40.0), 120.0, false)]);
        w.player.pos = DVec2::new(96.0 - HITBOX.x, 40.0);
        let squished = (0..60).any(|_| step_platform(&mut w, &l, 0, 60));
        assert!(squished);
        assert!(!solids::overlaps_solid(&l, &[], None, w.player.pos, HITBOX), "never placed inside");
    }

    #[test]
    fn a_one_way_platform_never_pushes() {
        let rows = ["........", "........", "........", "P......."];
        let (mut w, l) =
            world_with(&rows, vec![platform(DVec2::new(0.0, 20.0), DVec2::new(80.0, 20.0), 120.0, true)]);
        w.player.pos = DVec2::new(40.0, 10.0);
        for _ in 0..20 {
            assert!(!step_platform(&mut w, &l, 0, 60));
        }
        assert_eq!(w.player.pos, DVec2::new(40.0, 10.0));
    }
}
