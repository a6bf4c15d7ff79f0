//! A walker's patrol (LAB.md "Entities", `walker`): no gravity, it walks along its row and
//! turns at solid tiles, solid entities (solid platforms, unbroken crumbling blocks), the
//! level's sides and ledges, standing still in the tick it turns.
//!
//! Clock: fixed tick. It moves `speed / tick_hz` pixels a tick (exact, not whole pixels: it is
//! not solid). A ledge is a leading bottom corner with no solid or one-way tile under it.

use super::Entity;
use super::solids::overlaps_solid;
use crate::level::{Level, TileKind};
use crate::sim::EntityState;
use crate::sim::collision::{tile, tile_ceil};
use glam::DVec2;

/// One tick of walker `id` among `entities` (the solid ones, as they are now, turn it). A
/// defeated walker stays where it is.
pub fn step(entities: &mut [Entity], id: usize, level: &Level, tick_hz: u32) {
    let e = &entities[id];
    if e.state != EntityState::Alive || e.speed == 0.0 {
        return;
    }
    let dx = e.speed / f64::from(tick_hz);
    let next = DVec2::new(e.pos.x + dx, e.pos.y);
    let blocked = next.x < 0.0
        || next.x + e.size.x > level.size_px().x
        || overlaps_solid(level, entities, Some(id), next, e.size)
        || ledge(level, next, e.size, dx > 0.0);
    let e = &mut entities[id];
    if blocked {
        e.speed = -e.speed;
        e.facing_left = e.speed < 0.0;
        return;
    }
    e.pos = next;
    e.exact = next;
    e.moved = DVec2::new(dx, 0.0);
    e.clock += 1;
}

/// True when the leading bottom corner of the box at `pos` has nothing to stand on below it.
fn ledge(level: &Level, pos: DVec2, size: DVec2, right: bool) -> bool {
    let col = if right { tile_ceil(pos.x + size.x) - 1 } else { tile(pos.x) };
    let row = tile(pos.y + size.y);
    !matches!(level.kind_at(col, row), TileKind::Solid | TileKind::OneWay)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{EntitySpec, ascii::parse_ascii};

    #[test]
    fn turns_at_a_ledge_and_a_wall_standing_still_in_the_turning_tick() {
        // Floor from column 0 to 5, a wall at column 5 above it... the walker starts at x=16.
        let rows: Vec<String> = ["P....#..", "#######."].map(String::from).to_vec();
        let level = parse_ascii(&rows, 1).expect("level");
        let mut es = [Entity::new(&EntitySpec::Walker { pos: DVec2::new(16.0, 0.0), speed: 60.0 })];
        let mut xs = Vec::new();
        for _ in 0..200 {
            let before = es[0].pos.x;
            step(&mut es, 0, &level, 60);
            let e = &es[0];
            if e.moved.x == 0.0 {
                assert_eq!(e.pos.x, before, "still in the turning tick");
            }
            xs.push(e.pos.x);
        }
        let (lo, hi) = xs.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        assert_eq!(hi + 16.0, 80.0, "turns at the wall's face");
        assert_eq!(lo, 0.0, "turns at the level's side");
        // Now a ledge: no floor beyond column 6 on row 1.
        let rows: Vec<String> = ["P.......", "######.."].map(String::from).to_vec();
        let level = parse_ascii(&rows, 1).expect("level");
        let mut es = [Entity::new(&EntitySpec::Walker { pos: DVec2::new(16.0, 0.0), speed: 60.0 })];
        let max = (0..200).map(|_| {
            step(&mut es, 0, &level, 60);
            es[0].pos.x
        });
        assert_eq!(max.fold(f64::MIN, f64::max) + 16.0, 96.0, "turns at the ledge");
    }

    #[test]
    fn turns_at_a_solid_entity_but_walks_past_a_one_way_one() {
        let rows: Vec<String> = ["P.........", "##########"].map(String::from).to_vec();
        let level = parse_ascii(&rows, 1).expect("level");
        let wall = |oneway| EntitySpec::Platform {
            pos: DVec2::new(96.0, 0.0),
            size: DVec2::new(16.0, 16.0),
            to: None,
            speed: 60.0,
            wait: 0.0,
            oneway,
        };
        for (oneway, right_end) in [(false, 96.0), (true, 160.0)] {
            let walker = EntitySpec::Walker { pos: DVec2::new(16.0, 0.0), speed: 60.0 };
            let mut es = [Entity::new(&walker), Entity::new(&wall(oneway))];
            let mut hi = f64::MIN;
            for _ in 0..300 {
                step(&mut es, 0, &level, 60);
                hi = hi.max(es[0].pos.x + 16.0);
            }
            assert_eq!(hi, right_end, "oneway {oneway}");
        }
    }
}
