//! A walker's patrol (LAB.md "Entities", `walker`): no gravity, it walks along its row and
//! turns at solid tiles, the level's sides and ledges, standing still in the tick it turns.
//!
//! Clock: fixed tick. It moves `speed / tick_hz` pixels a tick (exact, not whole pixels: it is
//! not solid). A ledge is a leading bottom corner with no solid or one-way tile under it.

use super::Entity;
use crate::level::{Level, TileKind};
use crate::sim::EntityState;
use crate::sim::collision::{tile, tile_ceil};
use glam::DVec2;

/// One tick of a walker. A defeated walker stays where it is.
pub fn step(e: &mut Entity, level: &Level, tick_hz: u32) {
    if e.state != EntityState::Alive || e.speed == 0.0 {
        return;
    }
    let dx = e.speed / f64::from(tick_hz);
    let next = DVec2::new(e.pos.x + dx, e.pos.y);
    if blocked(level, next, e.size, dx > 0.0) {
        e.speed = -e.speed;
        e.facing_left = e.speed < 0.0;
        return;
    }
    e.pos = next;
    e.exact = next;
    e.moved = DVec2::new(dx, 0.0);
    e.clock += 1;
}

/// True when the box at `pos` cannot be walked into: it leaves the level's sides, overlaps a
/// solid tile ([`crate::sim::collision::overlaps_solid`]'s test), or its leading bottom corner (right when `right`)
/// has nothing to stand on below it (no solid or one-way tile). The tile columns and rows are
/// worked out once for both tile tests (the ledge's column is the box's first or last one).
fn blocked(level: &Level, pos: DVec2, size: DVec2, right: bool) -> bool {
    let far = pos.x + size.x;
    if pos.x < 0.0 || far > level.size_px().x {
        return true;
    }
    let (c0, c1) = (tile(pos.x), tile_ceil(far).saturating_sub(1));
    let bottom = pos.y + size.y;
    let (r0, r1) = (tile(pos.y), tile_ceil(bottom).saturating_sub(1));
    for ty in r0..=r1 {
        for tx in c0..=c1 {
            if level.kind_at(tx, ty) == TileKind::Solid {
                return true;
            }
        }
    }
    let col = if right { c1 } else { c0 };
    !matches!(level.kind_at(col, tile(bottom)), TileKind::Solid | TileKind::OneWay)
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
        let mut e = Entity::new(&EntitySpec::Walker { pos: DVec2::new(16.0, 0.0), speed: 60.0 });
        let mut xs = Vec::new();
        for _ in 0..200 {
            let before = e.pos.x;
            step(&mut e, &level, 60);
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
        let mut e = Entity::new(&EntitySpec::Walker { pos: DVec2::new(16.0, 0.0), speed: 60.0 });
        let max = (0..200).map(|_| {
            step(&mut e, &level, 60);
            e.pos.x
        });
        assert_eq!(max.fold(f64::MIN, f64::max) + 16.0, 96.0, "turns at the ledge");
    }
}
