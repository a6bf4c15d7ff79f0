//! Axis-separated swept tile collision: move along x, then along y, stopping at the first
//! blocking tile edge.
//!
//! Clock: fixed tick. Positions are exact `f64` pixels. Each move scans every tile column (or
//! row) the hitbox's leading edge crosses, in order, so no speed can skip a tile (the swept
//! equivalent of Maddy Thorson's one-pixel-at-a-time `MoveX`/`MoveY`, "Celeste and TowerFall
//! physics"). A blocked move lands exactly on the tile edge (an integer), so a floor made of
//! separate tiles has no seams: the hitbox's rows are computed from exact integers and a floor
//! tile is never part of the horizontal scan.
//!
//! Rules: [`TileKind::Solid`] blocks from every side; [`TileKind::OneWay`] blocks only a
//! downward move whose bottom edge starts at or above the platform's top; hazards never block.
//! Outside the level, the side columns are solid and the sky and pit are open
//! ([`Level::kind_at`]).

use crate::level::{Level, TILE, TileKind};
use glam::DVec2;

/// Tile index range `[first, last]` covered by the open interval (lo, hi) of pixels along one
/// axis: the tiles whose interior overlaps it. Touching edges are not overlap.
fn span(lo: f64, hi: f64) -> (i64, i64) {
    (tile(lo), tile_ceil(hi).saturating_sub(1))
}

/// The tile index holding pixel coordinate `v` (floor), saturating far outside any level.
pub(crate) fn tile(v: f64) -> i64 {
    floor_i64(v / TILE)
}

/// `ceil(v / TILE)`, saturating.
pub(crate) fn tile_ceil(v: f64) -> i64 {
    ceil_i64(v / TILE)
}

/// `x.floor() as i64` without the libm call (`floor` is a function call on baseline x86-64):
/// the same value for every `x`, NaN and infinities included (tested).
fn floor_i64(x: f64) -> i64 {
    let t = x as i64;
    if (t as f64) > x { t.saturating_sub(1) } else { t }
}

/// `x.ceil() as i64` without the libm call, the same value for every `x` (tested).
fn ceil_i64(x: f64) -> i64 {
    let t = x as i64;
    if (t as f64) < x { t.saturating_add(1) } else { t }
}

/// `x` rounded to the nearest whole number, halves away from zero (as `f64::round`), without a
/// libm call: exact for |x| < 2^63 (positions are far smaller).
///
/// Branch-free: a platform's sub-pixel remainder is as good as random, so a branch on it would
/// be mispredicted every other tick. `t` is never −0.0, so adding and subtracting 0.0 leaves
/// it exactly as it is; the result is bit for bit the one of the branching form
/// (`t + 1.0`, `t − 1.0` or `t`).
pub fn round_px(x: f64) -> f64 {
    let t = (x as i64) as f64;
    let f = x - t;
    t + f64::from(u8::from(f >= 0.5)) - f64::from(u8::from(f <= -0.5))
}

/// Clamp a scan over tile indices to what can matter for a level `n` tiles long on that axis:
/// one index outside each edge stands for everything beyond (uniform there), so a huge move
/// or a position far outside the level never scans billions of empty tiles.
fn bounded(i: i64, n: usize) -> i64 {
    i.clamp(-1, n as i64)
}

/// True when some tile in column `tx`, rows covering (y, y+h), is solid.
fn column_blocks(level: &Level, tx: i64, y: f64, h: f64) -> bool {
    let (r0, r1) = span(y, y + h);
    (r0..=r1).any(|ty| level.kind_at(tx, ty) == TileKind::Solid)
}

/// True when some tile in row `ty`, columns covering (x, x+w), blocks a move in the given
/// vertical direction (`down`: one-way platforms count unless `ignore_oneway`).
fn row_blocks(level: &Level, ty: i64, x: f64, w: f64, down: bool, ignore_oneway: bool) -> bool {
    let (c0, c1) = span(x, x + w);
    (c0..=c1).any(|tx| match level.kind_at(tx, ty) {
        TileKind::Solid => true,
        TileKind::OneWay => down && !ignore_oneway,
        _ => false,
    })
}

/// Move the hitbox (`pos` top-left, `size`, pixels) by `dx` along x. Returns the new x and
/// whether a solid stopped it.
pub fn move_x(level: &Level, pos: DVec2, size: DVec2, dx: f64) -> (f64, bool) {
    let w = level.width;
    if dx > 0.0 {
        let edge = pos.x + size.x;
        let first = bounded(tile_ceil(edge), w);
        let last = bounded(tile_ceil(edge + dx).saturating_sub(1), w);
        for tx in first..=last {
            if column_blocks(level, tx, pos.y, size.y) {
                return ((tx as f64 * TILE - size.x).max(pos.x), true);
            }
        }
    } else if dx < 0.0 {
        let first = bounded(tile(pos.x).saturating_sub(1), w);
        let last = bounded(tile(pos.x + dx), w);
        for tx in (last..=first).rev() {
            if column_blocks(level, tx, pos.y, size.y) {
                return (((tx + 1) as f64 * TILE).min(pos.x), true);
            }
        }
    }
    (pos.x + dx, false)
}

/// Move the hitbox by `dy` along y (positive = down). One-way platforms stop a downward move
/// unless `ignore_oneway`. Returns the new y and whether something stopped it.
pub fn move_y(level: &Level, pos: DVec2, size: DVec2, dy: f64, ignore_oneway: bool) -> (f64, bool) {
    let h = level.height;
    if dy > 0.0 {
        let edge = pos.y + size.y;
        let first = bounded(tile_ceil(edge), h);
        let last = bounded(tile_ceil(edge + dy).saturating_sub(1), h);
        for ty in first..=last {
            if row_blocks(level, ty, pos.x, size.x, true, ignore_oneway) {
                return ((ty as f64 * TILE - size.y).max(pos.y), true);
            }
        }
    } else if dy < 0.0 {
        let first = bounded(tile(pos.y).saturating_sub(1), h);
        let last = bounded(tile(pos.y + dy), h);
        for ty in (last..=first).rev() {
            if row_blocks(level, ty, pos.x, size.x, false, false) {
                return (((ty + 1) as f64 * TILE).min(pos.y), true);
            }
        }
    }
    (pos.y + dy, false)
}

/// True when the hitbox overlaps any solid tile (used to validate spawns and corner nudges).
pub fn overlaps_solid(level: &Level, pos: DVec2, size: DVec2) -> bool {
    let (c0, c1) = span(pos.x, pos.x + size.x);
    let (r0, r1) = span(pos.y, pos.y + size.y);
    (c0..=c1).any(|tx| (r0..=r1).any(|ty| level.kind_at(tx, ty) == TileKind::Solid))
}

/// Upward corner correction (Celeste `Player.cs` `UpwardCornerCorrection`): when a rising move
/// of `dy` (< 0) is stopped by a ceiling, try shifting the hitbox sideways by 1..=`max_px`
/// pixels (toward `prefer` first when it is non-zero) so that the full move is free. Returns the
/// horizontal shift that frees it, if any. The shift never adds height: the caller then makes
/// the same `dy` move it would have made without the ceiling.
pub fn corner_nudge(
    level: &Level,
    pos: DVec2,
    size: DVec2,
    dy: f64,
    max_px: f64,
    prefer: f64,
) -> Option<f64> {
    let steps = max_px.floor() as i64;
    let order: [f64; 2] = if prefer < 0.0 { [-1.0, 1.0] } else { [1.0, -1.0] };
    for i in 1..=steps {
        for dir in order {
            let shift = dir * i as f64;
            let shifted = DVec2::new(pos.x + shift, pos.y);
            if overlaps_solid(level, shifted, size) {
                continue;
            }
            // The sideways shift itself must be free, then the whole rise.
            let (nx, hit_x) = move_x(level, pos, size, shift);
            if hit_x || nx != pos.x + shift {
                continue;
            }
            let (_, hit_y) = move_y(level, shifted, size, dy, true);
            if !hit_y {
                return Some(shift);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_and_ceil_without_libm_match_std() {
        let mut xs =
            vec![0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 15.999, 16.0, -16.0, 1e300, -1e300, 9.3e18, -9.3e18];
        xs.extend([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE, -f64::MIN_POSITIVE]);
        let mut x = -70.0;
        while x < 70.0 {
            xs.push(x);
            x += 0.1 + 1e-9;
        }
        for x in xs {
            assert_eq!(floor_i64(x), x.floor() as i64, "floor {x}");
            assert_eq!(ceil_i64(x), x.ceil() as i64, "ceil {x}");
        }
    }
    use crate::level::ascii::parse_ascii;

    fn level(rows: &[&str]) -> Level {
        parse_ascii(&rows.iter().map(|s| s.to_string()).collect::<Vec<_>>(), 1).unwrap()
    }

    const BOX: DVec2 = crate::level::HITBOX;

    #[test]
    fn fast_fall_never_tunnels_through_a_floor_or_a_one_way() {
        let l = level(&["P....", ".....", ".....", ".....", "#-...", "....."]);
        for &x in &[0.0, 16.0] {
            // from just above the floor with small steps, and from high up with huge ones
            for (y0, dy) in [(41.5, 1.0), (30.0, 15.0), (0.0, 43.0), (0.0, 64.0), (0.0, 500.0)] {
                let (y, hit) = move_y(&l, DVec2::new(x, y0), BOX, dy, false);
                assert!(hit, "dy {dy} x {x}");
                assert_eq!(y, 64.0 - 22.0);
            }
        }
        // drop-through ignores the one-way only
        let (_, hit) = move_y(&l, DVec2::new(18.0, 0.0), BOX, 500.0, true);
        assert!(!hit);
    }

    #[test]
    fn walls_stop_exactly_and_seams_are_not_walls() {
        let l = level(&["..........", "P.......#.", "##########"]);
        let pos = DVec2::new(0.5, 32.0 - 22.0);
        let (x, hit) = move_x(&l, pos, BOX, 1000.0);
        assert!(hit);
        assert_eq!(x, 8.0 * 16.0 - 12.0);
        for start in [0.0, 0.001, 8.5, 15.999] {
            let (x, hit) = move_x(&l, DVec2::new(start, 10.0), BOX, 3.0);
            assert!(!hit && x == start + 3.0);
        }
    }

    #[test]
    fn one_way_passes_from_below_and_sides() {
        let l = level(&["P....", ".-...", "....."]);
        let (_, hit) = move_y(&l, DVec2::new(16.0, 40.0), BOX, -40.0, false);
        assert!(!hit);
        let (_, hit) = move_x(&l, DVec2::new(0.0, 14.0), BOX, 40.0);
        assert!(!hit);
    }

    #[test]
    fn corner_nudge_slides_within_margin_only() {
        // ceiling tile at column 1, row 0; player rising under its left edge.
        let l = level(&[".#....", "......", "......", "P....."]);
        let size = BOX;
        // overlap of 4 px: player right edge at 16 + 4
        let pos = DVec2::new(16.0 + 4.0 - 12.0, 20.0);
        assert_eq!(corner_nudge(&l, pos, size, -10.0, 4.0, 0.0), Some(-4.0));
        let pos = DVec2::new(16.0 + 5.0 - 12.0, 20.0);
        assert_eq!(corner_nudge(&l, pos, size, -10.0, 4.0, 0.0), None);
    }
}
