//! The tileset's grid and its tile indices: what a `Level::gfx` value means.
//!
//! Clock: none (constants). The level loaders check Tiled ids against this grid, and
//! [`crate::present::atlas`] places each index's cell in the atlas image (it re-exports all of
//! this). Written with the atlas by `scripts/make-atlas.py`; a test in `present::atlas` checks the
//! shipped tileset's grid and tile kinds against these numbers.

/// The Tiled tileset over the atlas's tile rows, relative to the assets folder.
pub const TILESET_PATH: &str = "tilesets/ledge.tsx";

/// Extruded border around every cell, pixels (edge pixels repeated outward).
pub const CELL_PAD: u32 = 1;

/// Edge length of one tile cell, pixels (the level's 16 px grid).
pub const TILE_PX: u32 = 16;

/// Distance from one tile cell to the next, pixels: the tile plus its border on both sides.
pub const TILE_STRIDE: u32 = TILE_PX + 2 * CELL_PAD;

/// Tiles per atlas row (the tileset's `columns`).
pub const TILE_COLUMNS: u32 = 8;

/// Rows of tiles in the atlas.
pub const TILE_ROWS: u32 = 3;

/// Number of tiles: valid tile indices are `0..TILE_COUNT` (the tileset's `tilecount`).
pub const TILE_COUNT: u32 = TILE_COLUMNS * TILE_ROWS;

// Tile indices (Tiled local tile ids, `Level::gfx` values). Keep in step with the `TILES`
// table of scripts/make-atlas.py.

/// Grass-topped soil, middle of a run (solid).
pub const GROUND_TOP: u32 = 0;
/// Grass-topped soil, left end of a run (solid).
pub const GROUND_TOP_LEFT: u32 = 1;
/// Grass-topped soil, right end of a run (solid).
pub const GROUND_TOP_RIGHT: u32 = 2;
/// Grass-topped soil, one tile wide (solid).
pub const GROUND_TOP_SINGLE: u32 = 3;
/// Soil under the surface (solid).
pub const GROUND_FILL: u32 = 4;
/// Soil with a finished left side (solid).
pub const GROUND_FILL_LEFT: u32 = 5;
/// Soil with a finished right side (solid).
pub const GROUND_FILL_RIGHT: u32 = 6;
/// Soil with a buried stone, a variant of [`GROUND_FILL`] (solid).
pub const GROUND_FILL_ALT: u32 = 7;
/// Stone bricks (solid).
pub const BLOCK: u32 = 8;
/// Wooden plank, left end (one-way).
pub const ONEWAY_LEFT: u32 = 9;
/// Wooden plank, only its top 5 px drawn (one-way).
pub const ONEWAY: u32 = 10;
/// Wooden plank, right end (one-way).
pub const ONEWAY_RIGHT: u32 = 11;
/// Two spikes pointing up in the lower 10 px (hazard).
pub const HAZARD: u32 = 12;
/// Checkpoint flag, not yet reached (drawn; no collision).
pub const CHECKPOINT: u32 = 13;
/// Checkpoint flag once reached (the renderer swaps it in for [`CHECKPOINT`]).
pub const CHECKPOINT_LIT: u32 = 14;
/// The goal portal (drawn; no collision).
pub const GOAL: u32 = 15;
/// Decoration: a bush standing on the tile's bottom edge.
pub const BUSH: u32 = 16;
/// Decoration: a grass tuft.
pub const GRASS_TUFT: u32 = 17;
/// Decoration: flowers.
pub const FLOWERS: u32 = 18;
/// Decoration: left half of a cloud.
pub const CLOUD_LEFT: u32 = 19;
/// Decoration: right half of a cloud.
pub const CLOUD_RIGHT: u32 = 20;
/// Decoration: a wooden sign pointing right.
pub const SIGN: u32 = 21;
/// Darker, deep soil (solid).
pub const GROUND_DEEP: u32 = 22;
/// Deep soil with a buried stone (solid).
pub const GROUND_DEEP_ALT: u32 = 23;
