//! The player's collision with entities: solid platforms and unbroken crumbling blocks block
//! from every side, one-way platforms only a downward move that starts at or above their top
//! (as one-way tiles do), and what the player stands on.
//!
//! Clock: fixed tick. Each move is the tile sweep of [`crate::sim::collision`] first, then cut
//! short at the first entity edge in the way, so a move stops at whichever comes first and no
//! speed skips a body. Touching edges are not overlap; stopping places land exactly on an
//! entity's edge (whole pixels for platforms), so a rider's feet equal its platform's top.

use super::Entity;
use crate::level::Level;
use crate::sim::collision;
use glam::DVec2;

/// True when the open intervals (a, a + al) and (b, b + bl) overlap.
fn spans_overlap(a: f64, al: f64, b: f64, bl: f64) -> bool {
    a < b + bl && a + al > b
}

/// True when the box (`pos`, `size`) overlaps `e`'s box (touching is not overlap).
pub fn overlaps(e: &Entity, pos: DVec2, size: DVec2) -> bool {
    spans_overlap(pos.x, size.x, e.pos.x, e.size.x) && spans_overlap(pos.y, size.y, e.pos.y, e.size.y)
}

/// Move the box (`pos` top-left, `size`) by `dx` along x through tiles and solid entities
/// (all but `skip`). Returns the new x and whether something stopped it.
pub fn move_x(
    level: &Level,
    entities: &[Entity],
    skip: Option<usize>,
    pos: DVec2,
    size: DVec2,
    dx: f64,
) -> (f64, bool) {
    let (mut nx, mut hit) = collision::move_x(level, pos, size, dx);
    // The overlap along the other axis first: false for nearly every entity, and it needs no
    // look at the entity's kind (the tests are pure, so their order changes nothing else).
    for (i, e) in entities.iter().enumerate() {
        if !spans_overlap(pos.y, size.y, e.pos.y, e.size.y) || Some(i) == skip || !e.is_solid() {
            continue;
        }
        if dx > 0.0 && e.pos.x >= pos.x + size.x && e.pos.x < nx + size.x {
            (nx, hit) = (e.pos.x - size.x, true);
        } else if dx < 0.0 && e.pos.x + e.size.x <= pos.x && e.pos.x + e.size.x > nx {
            (nx, hit) = (e.pos.x + e.size.x, true);
        }
    }
    (nx, hit)
}

/// Move the box by `dy` along y (positive = down) through tiles and entities (all but
/// `skip`): solid ones block both ways, one-way platforms a downward move that starts at or
/// above their top unless `ignore_oneway`. Returns the new y and whether something stopped it.
pub fn move_y(
    level: &Level,
    entities: &[Entity],
    skip: Option<usize>,
    pos: DVec2,
    size: DVec2,
    dy: f64,
    ignore_oneway: bool,
) -> (f64, bool) {
    let (mut ny, mut hit) = collision::move_y(level, pos, size, dy, ignore_oneway);
    for (i, e) in entities.iter().enumerate() {
        if !spans_overlap(pos.x, size.x, e.pos.x, e.size.x) || Some(i) == skip {
            continue;
        }
        let blocks_down = e.is_solid() || (e.oneway && !ignore_oneway);
        if dy > 0.0 && blocks_down && e.pos.y >= pos.y + size.y && e.pos.y < ny + size.y {
            (ny, hit) = (e.pos.y - size.y, true);
        } else if dy < 0.0 && e.is_solid() && e.pos.y + e.size.y <= pos.y && e.pos.y + e.size.y > ny {
            (ny, hit) = (e.pos.y + e.size.y, true);
        }
    }
    (ny, hit)
}

/// True when the box overlaps a solid tile or a solid entity other than `skip`.
pub fn overlaps_solid(
    level: &Level,
    entities: &[Entity],
    skip: Option<usize>,
    pos: DVec2,
    size: DVec2,
) -> bool {
    collision::overlaps_solid(level, pos, size)
        || entities.iter().enumerate().any(|(i, e)| Some(i) != skip && e.is_solid() && overlaps(e, pos, size))
}

/// True when a tile corner nudge of `shift` px sideways, then the rise `dy`, is free of solid
/// entities too ([`crate::sim::collision::corner_nudge`] looks at tiles only), so a nudge never
/// moves the player into a platform or a crumbling block.
pub fn nudge_is_clear(
    level: &Level,
    entities: &[Entity],
    pos: DVec2,
    size: DVec2,
    shift: f64,
    dy: f64,
) -> bool {
    let shifted = DVec2::new(pos.x + shift, pos.y);
    !move_x(level, entities, None, pos, size, shift).1
        && !overlaps_solid(level, entities, None, shifted, size)
        && !move_y(level, entities, None, shifted, size, dy, true).1
}

/// The lowest-id platform or unbroken crumble whose top edge the box's bottom touches exactly
/// while overlapping it in x (LAB.md's riding rule).
pub fn standing_on(entities: &[Entity], pos: DVec2, size: DVec2) -> Option<usize> {
    // The feet's height first: it rules out nearly every entity without a look at its kind.
    let feet = pos.y + size.y;
    entities
        .iter()
        .position(|e| feet == e.pos.y && spans_overlap(pos.x, size.x, e.pos.x, e.size.x) && e.rideable())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{EntitySpec, HITBOX, ascii::parse_ascii};

    fn open_level() -> Level {
        let rows: Vec<String> =
            ["..........", "P.........", "..........", "..........", ".........."].map(String::from).to_vec();
        parse_ascii(&rows, 1).expect("level")
    }

    fn platform(x: f64, y: f64, oneway: bool) -> Entity {
        Entity::new(&EntitySpec::Platform {
            pos: DVec2::new(x, y),
            size: DVec2::new(32.0, 8.0),
            to: None,
            speed: 60.0,
            wait: 0.0,
            oneway,
        })
    }

    #[test]
    fn a_solid_platform_stops_moves_from_every_side_exactly_on_its_edge() {
        let l = open_level();
        let es = [platform(40.0, 40.0, false)];
        // Falling onto it from high above with a huge step: lands on its top.
        let (y, hit) = move_y(&l, &es, None, DVec2::new(45.0, 0.0), HITBOX, 500.0, false);
        assert!(hit);
        assert_eq!(y + HITBOX.y, 40.0);
        assert_eq!(standing_on(&es, DVec2::new(45.0, y), HITBOX), Some(0));
        // Rising into it from below: head on its bottom.
        let (y, hit) = move_y(&l, &es, None, DVec2::new(45.0, 60.0), HITBOX, -30.0, false);
        assert!(hit && y == 48.0);
        // Running into its left side.
        let (x, hit) = move_x(&l, &es, None, DVec2::new(0.0, 30.0), HITBOX, 100.0);
        assert!(hit && x + HITBOX.x == 40.0);
        // Skipped, it is not there.
        assert!(!move_x(&l, &es, Some(0), DVec2::new(0.0, 30.0), HITBOX, 100.0).1);
    }

    #[test]
    fn a_one_way_platform_blocks_only_a_landing_from_above() {
        let l = open_level();
        let es = [platform(40.0, 40.0, true)];
        assert!(move_y(&l, &es, None, DVec2::new(45.0, 0.0), HITBOX, 30.0, false).1);
        assert!(!move_y(&l, &es, None, DVec2::new(45.0, 0.0), HITBOX, 30.0, true).1, "drop-through");
        assert!(!move_y(&l, &es, None, DVec2::new(45.0, 60.0), HITBOX, -30.0, false).1);
        assert!(!move_x(&l, &es, None, DVec2::new(0.0, 30.0), HITBOX, 100.0).1);
        // From inside it (feet below its top), it does not catch.
        assert!(!move_y(&l, &es, None, DVec2::new(45.0, 20.0), HITBOX, 10.0, false).1);
    }
}
