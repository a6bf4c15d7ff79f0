//! Levels: the tile grid, spawn, checkpoints and goal that the fixed tick collides against.
//!
//! Clock: none. A [`Level`] is immutable data loaded once (on the event-loop thread, before the
//! first frame) and only read by the fixed tick and the render frame.
//!
//! Two sources make the same [`Level`]: Tiled maps (`.tmx` + `.tsx` + PNG atlas, see
//! [`tiled_map`]) and the lab's inline ASCII maps (see [`ascii`]).

pub mod ascii;
pub mod entity_spec;
pub mod files;
pub mod guard;
pub mod origin;
pub mod tiled_entities;
pub mod tiled_map;
pub mod tiles;

pub use entity_spec::{EntityKind, EntitySpec, SpecError};
use glam::DVec2;
pub use origin::{ContentHash, Origin};
use std::path::PathBuf;

/// Edge length of one tile, in pixels (ARCHITECTURE.md: 16x16 tiles).
pub const TILE: f64 = 16.0;

/// The player's hitbox, pixels (width, height): Celeste's 8x11 at 8 px tiles is 16x22 at 16 px;
/// Ledge narrows it to 12 px so 1-tile gaps between walls and ledge grabs feel fair. The
/// sprite is 16x24, drawn bottom-centred on it. Defined here, below the simulation, because a
/// level places its spawn and checkpoint respawns as a standing hitbox; `sim` re-exports it.
pub const HITBOX: DVec2 = DVec2::new(12.0, 22.0);

/// What a tile cell does to the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TileKind {
    /// Nothing: the player passes through.
    #[default]
    Empty,
    /// Solid from every side.
    Solid,
    /// One-way platform: solid from above only (its top edge), passable from below and the sides.
    OneWay,
    /// Touching it kills the player, who respawns at the last checkpoint.
    Hazard,
}

/// An axis-aligned rectangle in level pixels (x right, y down), `pos` its top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Top-left corner, pixels.
    pub pos: DVec2,
    /// Width and height, pixels (non-negative).
    pub size: DVec2,
}

impl Rect {
    /// A rectangle from its top-left corner and size, in pixels.
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Self {
        Self { pos: DVec2::new(x, y), size: DVec2::new(w, h) }
    }

    /// True when the two rectangles overlap with positive area (touching edges do not count).
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.pos.x < other.pos.x + other.size.x
            && other.pos.x < self.pos.x + self.size.x
            && self.pos.y < other.pos.y + other.size.y
            && other.pos.y < self.pos.y + self.size.y
    }
}

/// One loaded level: a `width` x `height` grid of 16 px tiles plus its objects.
///
/// Outside the grid the left and right edges act as solid walls, the top is open and falling
/// below the bottom edge kills the player (see `sim::collision`).
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// Human-readable name (the map's `name` property, else the file stem, else "inline map").
    pub name: String,
    /// The files the level was loaded from and their content hash (recordings write it, hot
    /// reload watches their folders); `None` for inline maps.
    pub origin: Option<Origin>,
    /// Width in tiles.
    pub width: usize,
    /// Height in tiles.
    pub height: usize,
    /// Collision kind of each cell, row-major (`y * width + x`), `width * height` entries.
    pub kinds: Vec<TileKind>,
    /// Atlas sprite index drawn in each cell (row-major like `kinds`), `None` for nothing drawn.
    /// Indexes the tile grid of [`tiles`] (16x16 cells, left to right, top to bottom).
    pub gfx: Vec<Option<u32>>,
    /// Player spawn: top-left of the player's hitbox, pixels.
    pub spawn: DVec2,
    /// Checkpoint trigger areas, pixels. Touching one moves the respawn point to its
    /// `respawn` position.
    pub checkpoints: Vec<Checkpoint>,
    /// The goal area, pixels; touching it finishes the level. `None`: the level has no goal.
    pub goal: Option<Rect>,
    /// The moving things the level places (Tiled objects of class `platform`, `crumble`,
    /// `spring`, `saw` or `walker`, then a lab script's `entity` lines), in id order: the
    /// entity with id `i` is `entities[i]`.
    pub entities: Vec<EntitySpec>,
    /// The Tiled object id of each entity the map placed, in the order of `entities` (as many
    /// as the map placed: entities appended later, like a lab script's `entity` lines, have
    /// none). Empty for inline maps.
    pub object_ids: Vec<u32>,
    /// The parallax backdrop drawn behind the tiles (the map's string property `sky`;
    /// [`Sky::Hills`] when it has none, and for inline maps).
    pub sky: Sky,
}

/// A level's backdrop: three parallax layers behind the tiles (a sky gradient, a far layer, a
/// near layer), chosen per map by its string property `sky` (docs/levels.md "Skies"). The
/// art is `assets/sprites/skies.png`, written by `scripts/make-skies.py`; where each layer is
/// drawn is [`crate::present::parallax`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Sky {
    /// Day: a blue gradient, far blue hills, near green hills (`sky = "hills"`).
    #[default]
    Hills,
    /// Afternoon: a warm gradient, far mountains, near pine trees (`sky = "forest"`).
    Forest,
    /// Underground: a dark gradient, far cave wall, near stalactites and pillars (`sky = "caves"`).
    Caves,
    /// High up: a blue-to-pale gradient, far cloud banks, near drifting clouds (`sky = "tower"`).
    Tower,
    /// Evening: an orange-to-violet gradient, far ridges, near dark hills (`sky = "dusk"`).
    Dusk,
}

impl Sky {
    /// Every sky, in the order of their bands in `assets/sprites/skies.png`.
    pub const ALL: [Sky; 5] = [Sky::Hills, Sky::Forest, Sky::Caves, Sky::Tower, Sky::Dusk];

    /// The map property's value for this sky.
    pub fn name(self) -> &'static str {
        match self {
            Sky::Hills => "hills",
            Sky::Forest => "forest",
            Sky::Caves => "caves",
            Sky::Tower => "tower",
            Sky::Dusk => "dusk",
        }
    }

    /// The sky named `name` (a map's `sky` property), `None` for an unknown name.
    pub fn from_name(name: &str) -> Option<Sky> {
        Sky::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// A checkpoint: an area that, once touched, becomes where the player respawns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Checkpoint {
    /// Trigger area, pixels.
    pub area: Rect,
    /// Respawn position (top-left of the hitbox, pixels) once this checkpoint is reached.
    pub respawn: DVec2,
}

impl Level {
    /// Collision kind of cell (`tx`, `ty`) in tiles. Columns left of 0 or right of the last
    /// column are [`TileKind::Solid`] (side walls); rows above 0 or below the last row are
    /// [`TileKind::Empty`] (open sky, bottomless pit).
    pub fn kind_at(&self, tx: i64, ty: i64) -> TileKind {
        if tx < 0 || tx >= self.width as i64 {
            return TileKind::Solid;
        }
        if ty < 0 || ty >= self.height as i64 {
            return TileKind::Empty;
        }
        self.kinds[ty as usize * self.width + tx as usize]
    }

    /// Level size in pixels (width, height).
    pub fn size_px(&self) -> DVec2 {
        DVec2::new(self.width as f64 * TILE, self.height as f64 * TILE)
    }
}

/// Errors loading a level. Each message names the file and the problem on one line (what it
/// quotes from the file is escaped: [`crate::printable::escape`]).
#[derive(Debug, thiserror::Error)]
pub enum LevelError {
    /// The file could not be read or parsed by the `tiled` crate.
    #[error("{}: {}", crate::printable::escape(&path.display().to_string()), crate::printable::escape(msg))]
    Load {
        /// The map file.
        path: PathBuf,
        /// What went wrong.
        msg: String,
    },
    /// The map parsed but breaks one of Ledge's rules (tile size, layers, properties, objects).
    #[error("{}: {}", crate::printable::escape(&path.display().to_string()), crate::printable::escape(msg))]
    Invalid {
        /// The map file.
        path: PathBuf,
        /// What rule it breaks.
        msg: String,
    },
    /// An inline ASCII map is malformed.
    #[error("line {line}: {}", crate::printable::escape(msg))]
    Ascii {
        /// 1-based line number in the script holding the map.
        line: usize,
        /// What is wrong.
        msg: String,
    },
}
