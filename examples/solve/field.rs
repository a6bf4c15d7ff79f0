//! The search's sense of distance: shortest paths over the level's open cells (not solid, not
//! hazard) from the target, read at the player's hitbox centre.
//!
//! Clock: none (a function of the level's tiles).

use glam::DVec2;
use ledge::level::{Level, Rect, TILE, TileKind};
use ledge::sim::HITBOX;
use std::collections::BinaryHeap;

/// Shortest-path distances (pixels) over open cells from the target area.
pub struct Field {
    width: usize,
    height: usize,
    dist: Vec<f64>,
}

impl Field {
    /// Distances from `target` over `level`'s open cells.
    pub fn new(level: &Level, target: Rect) -> Field {
        let (w, h) = (level.width, level.height);
        let open = |x: usize, y: usize| matches!(level.kinds[y * w + x], TileKind::Empty | TileKind::OneWay);
        let mut dist = vec![f64::INFINITY; w * h];
        // Dijkstra; the heap is a max-heap, so distances go in negated (in 1/1000 px).
        let mut heap = BinaryHeap::new();
        let x0 = (target.pos.x / TILE).floor().max(0.0) as usize;
        let y0 = (target.pos.y / TILE).floor().max(0.0) as usize;
        let x1 = ((target.pos.x + target.size.x) / TILE).ceil() as usize;
        let y1 = ((target.pos.y + target.size.y) / TILE).ceil() as usize;
        for y in y0..y1.max(y0 + 1).min(h) {
            for x in x0..x1.max(x0 + 1).min(w) {
                dist[y * w + x] = 0.0;
                heap.push((0i64, x, y));
            }
        }
        while let Some((negd, x, y)) = heap.pop() {
            let d = -negd as f64 / 1000.0;
            if d > dist[y * w + x] {
                continue;
            }
            for (dx, dy) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1)] {
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                    continue;
                }
                let (nx, ny) = (nx as usize, ny as usize);
                if !open(nx, ny) || (dx != 0 && dy != 0 && (!open(nx, y) || !open(x, ny))) {
                    continue;
                }
                let step = if dx != 0 && dy != 0 { TILE * std::f64::consts::SQRT_2 } else { TILE };
                let nd = d + step;
                if nd < dist[ny * w + nx] {
                    dist[ny * w + nx] = nd;
                    heap.push((-(nd * 1000.0) as i64, nx, ny));
                }
            }
        }
        Field { width: w, height: h, dist }
    }

    /// Distance from the hitbox centre of a player at `pos` to the target, pixels.
    pub fn at(&self, pos: DVec2) -> f64 {
        let c = pos + HITBOX / 2.0;
        let cx = (c.x / TILE).floor() as i64;
        let cy = (c.y / TILE).floor() as i64;
        let mut best = f64::INFINITY;
        for ty in cy - 1..=cy + 1 {
            for tx in cx - 1..=cx + 1 {
                if tx < 0 || tx >= self.width as i64 {
                    continue;
                }
                // above the map: as far as the top row plus the way down to it
                let (row, extra) = if ty < 0 { (0, (-ty) as f64 * TILE) } else { (ty, 0.0) };
                if row >= self.height as i64 {
                    continue;
                }
                let d = self.dist[row as usize * self.width + tx as usize];
                if d.is_finite() {
                    let centre = DVec2::new((tx as f64 + 0.5) * TILE, (ty as f64 + 0.5) * TILE);
                    best = best.min(d + extra + centre.distance(c));
                }
            }
        }
        best
    }
}
