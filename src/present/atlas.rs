//! Where each sprite lives in the atlas image: pure layout arithmetic, no GPU.
//!
//! Clock: none. Constants and functions of the index only; the render frame calls them to
//! build sprite instances. The tile grid and the tile indices, which the level loaders need
//! too, live in [`crate::level::tiles`] and are re-exported here.
//!
//! The atlas (`assets/sprites/atlas.png`) and its Tiled tileset (`assets/tilesets/ledge.tsx`)
//! are written by `scripts/make-atlas.py`; this file must agree with that script (the tests
//! below check the PNG's size and the tileset's grid and tile kinds).
//!
//! Layout, in atlas pixels:
//!
//! - every cell carries a 1 px border repeating its edge pixels outward ([`CELL_PAD`]), so
//!   sampling at fractional positions never bleeds a neighbour in;
//! - tiles: 16 x 16 px cells, [`TILE_COLUMNS`] x [`TILE_ROWS`], stride [`TILE_STRIDE`]; tile
//!   `i` is the Tiled local tile id `i` (Tiled margin 1, spacing 2);
//! - player: 16 x 24 px frames in one row below the tiles, stride 18 x 26 px;
//! - entities: 16 x 16 px cells below the player row, [`TILE_COLUMNS`] a row, stride
//!   [`TILE_STRIDE`] ([`EntitySprite`]; one-way platforms and springs use the top 8 rows);
//! - the image is [`ATLAS_SIZE`]: 160 px tall, twice the 80 px of the tile and player rows, so
//!   the normalised `v` of every cell that existed before the entity rows is exactly half what
//!   it was (scaling by a power of two is exact in floating point) and frames without entities
//!   are drawn bit for bit as before.

pub use crate::level::tiles::*;

use super::view::PlayerPose;
use glam::UVec2;

/// The atlas image, relative to the assets folder (see [`crate::assets::assets_dir`]).
pub const ATLAS_PATH: &str = "sprites/atlas.png";

/// Size of the whole atlas image, pixels (width, height): the tile columns wide, twice the
/// tile and player rows tall (see the module docs), with the entity rows in the lower half.
pub const ATLAS_SIZE: UVec2 = UVec2::new(TILE_COLUMNS * TILE_STRIDE, 2 * ENTITY_ROW_Y);

/// Size of one player frame, pixels (width, height). The 12 x 22 px hitbox is drawn
/// bottom-centred in it.
pub const PLAYER_SPRITE_SIZE: UVec2 = UVec2::new(16, 24);

/// Distance from one player frame to the next, pixels (frame plus its border on both sides).
pub const PLAYER_STRIDE: UVec2 =
    UVec2::new(PLAYER_SPRITE_SIZE.x + 2 * CELL_PAD, PLAYER_SPRITE_SIZE.y + 2 * CELL_PAD);

/// Top of the player row (its padding included), pixels: just below the tile rows.
pub const PLAYER_ROW_Y: u32 = TILE_ROWS * TILE_STRIDE;

/// Top of the entity rows (their padding included), pixels: just below the player row.
pub const ENTITY_ROW_Y: u32 = PLAYER_ROW_Y + PLAYER_STRIDE.y;

/// Frames in a walker's walk cycle ([`EntitySprite::Walker`] takes `0..WALKER_FRAMES`).
pub const WALKER_FRAMES: u8 = 4;

/// An entity sprite cell, in atlas order (`scripts/make-atlas.py`'s `ENTITIES`). Platforms
/// are drawn from 16 px pieces: a left end, middles, a right end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntitySprite {
    /// Solid moving platform, left end (16 x 16).
    PlatformLeft,
    /// Solid moving platform, middle (16 x 16).
    PlatformMid,
    /// Solid moving platform, right end (16 x 16).
    PlatformRight,
    /// One-way moving platform, left end (16 x 8).
    OnewayLeft,
    /// One-way moving platform, middle (16 x 8).
    OnewayMid,
    /// One-way moving platform, right end (16 x 8).
    OnewayRight,
    /// Spring at rest (16 x 8).
    SpringIdle,
    /// Spring pressed down, right after a launch (16 x 8).
    SpringCompressed,
    /// Crumbling block, whole (16 x 16).
    CrumbleWhole,
    /// Crumbling block, cracked: counting down to breaking.
    CrumbleCracked,
    /// Crumbling block, about to break: more cracks, chipped corners.
    CrumbleBreaking,
    /// Saw blade, upright (16 x 16; the renderer turns it).
    Saw,
    /// Walker, walk frame `0..WALKER_FRAMES` (wraps), facing right.
    Walker(u8),
    /// Walker, defeated: squashed flat.
    WalkerSquashed,
}

impl EntitySprite {
    /// The cell index (position in the entity rows, left to right, top to bottom).
    pub fn cell(self) -> u32 {
        match self {
            EntitySprite::PlatformLeft => 0,
            EntitySprite::PlatformMid => 1,
            EntitySprite::PlatformRight => 2,
            EntitySprite::OnewayLeft => 3,
            EntitySprite::OnewayMid => 4,
            EntitySprite::OnewayRight => 5,
            EntitySprite::SpringIdle => 6,
            EntitySprite::SpringCompressed => 7,
            EntitySprite::CrumbleWhole => 8,
            EntitySprite::CrumbleCracked => 9,
            EntitySprite::CrumbleBreaking => 10,
            EntitySprite::Saw => 11,
            EntitySprite::Walker(frame) => 12 + u32::from(frame % WALKER_FRAMES),
            EntitySprite::WalkerSquashed => 12 + u32::from(WALKER_FRAMES),
        }
    }

    /// Height of the drawn part of the cell, pixels: 8 for one-way platforms and springs,
    /// else 16.
    pub fn height(self) -> u32 {
        match self {
            EntitySprite::OnewayLeft
            | EntitySprite::OnewayMid
            | EntitySprite::OnewayRight
            | EntitySprite::SpringIdle
            | EntitySprite::SpringCompressed => 8,
            _ => TILE_PX,
        }
    }
}

/// Entity cells in the atlas.
pub const ENTITY_CELLS: u32 = 13 + WALKER_FRAMES as u32;

/// The atlas region of an entity sprite (16 px wide, [`EntitySprite::height`] tall, facing
/// right; mirror for left).
pub fn entity_region(sprite: EntitySprite) -> AtlasRegion {
    let cell = sprite.cell();
    AtlasRegion {
        x: CELL_PAD + TILE_STRIDE * (cell % TILE_COLUMNS),
        y: ENTITY_ROW_Y + CELL_PAD + TILE_STRIDE * (cell / TILE_COLUMNS),
        w: TILE_PX,
        h: sprite.height(),
    }
}

/// Frames in the player's run cycle ([`PlayerPose::Run`] takes `0..RUN_FRAMES`).
pub const RUN_FRAMES: u8 = 4;

/// Player frames in the atlas: idle, run 0..4, jump, fall, wall slide (8 x 18 px = the atlas width).
pub const PLAYER_FRAMES: u32 = 4 + RUN_FRAMES as u32;

/// A rectangle of the atlas, pixels: the inner cell, without its extruded border.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AtlasRegion {
    /// Left edge, pixels from the atlas's left.
    pub x: u32,
    /// Top edge, pixels from the atlas's top.
    pub y: u32,
    /// Width, pixels.
    pub w: u32,
    /// Height, pixels.
    pub h: u32,
}

impl AtlasRegion {
    /// True when the region lies entirely inside an atlas of `size` pixels.
    pub fn fits_in(&self, size: UVec2) -> bool {
        self.x + self.w <= size.x && self.y + self.h <= size.y
    }
}

/// The 16 x 16 px cell of tile `index` (a Tiled local tile id, i.e. a `Level::gfx` value).
///
/// Grid arithmetic: column `index % TILE_COLUMNS`, row `index / TILE_COLUMNS`. Indices from
/// [`TILE_COUNT`] on are not tiles: their regions fall on the player row or outside the
/// atlas (the Tiled loader rejects such ids).
pub fn tile_region(index: u32) -> AtlasRegion {
    AtlasRegion {
        x: CELL_PAD + TILE_STRIDE * (index % TILE_COLUMNS),
        y: CELL_PAD + TILE_STRIDE * (index / TILE_COLUMNS),
        w: TILE_PX,
        h: TILE_PX,
    }
}

/// Which player frame (0..[`PLAYER_FRAMES`]) draws `pose`: idle 0, run 1..=4, jump 5, fall 6,
/// wall slide 7.
/// Run frames wrap modulo [`RUN_FRAMES`].
pub fn player_frame(pose: PlayerPose) -> u32 {
    match pose {
        PlayerPose::Idle => 0,
        PlayerPose::Run(frame) => 1 + u32::from(frame % RUN_FRAMES),
        PlayerPose::Jump => 1 + u32::from(RUN_FRAMES),
        PlayerPose::Fall => 2 + u32::from(RUN_FRAMES),
        PlayerPose::WallSlide => 3 + u32::from(RUN_FRAMES),
    }
}

/// The 16 x 24 px frame that draws the player in `pose` (facing right; mirror for left).
pub fn player_region(pose: PlayerPose) -> AtlasRegion {
    AtlasRegion {
        x: CELL_PAD + PLAYER_STRIDE.x * player_frame(pose),
        y: PLAYER_ROW_Y + CELL_PAD,
        w: PLAYER_SPRITE_SIZE.x,
        h: PLAYER_SPRITE_SIZE.y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::path::Path;

    fn assets() -> &'static Path {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets"))
    }

    fn all_poses() -> Vec<PlayerPose> {
        let mut poses = vec![PlayerPose::Idle, PlayerPose::Jump, PlayerPose::Fall, PlayerPose::WallSlide];
        poses.extend((0..RUN_FRAMES).map(PlayerPose::Run));
        poses
    }

    #[test]
    fn every_tile_region_lies_inside_the_tile_rows() {
        for i in 0..TILE_COUNT {
            let r = tile_region(i);
            assert!(r.fits_in(ATLAS_SIZE), "tile {i}: {r:?}");
            assert!(r.y + r.h + CELL_PAD <= PLAYER_ROW_Y, "tile {i} overlaps the player row");
        }
    }

    #[test]
    fn tile_regions_match_tiled_margin_and_spacing() {
        // Tiled: x = margin + col * (tilewidth + spacing), margin 1, spacing 2.
        assert_eq!(tile_region(0), AtlasRegion { x: 1, y: 1, w: 16, h: 16 });
        assert_eq!(tile_region(TILE_COLUMNS - 1).x, 1 + 18 * (TILE_COLUMNS - 1));
        assert_eq!(tile_region(TILE_COLUMNS), AtlasRegion { x: 1, y: 19, w: 16, h: 16 });
    }

    #[test]
    fn every_player_frame_lies_inside_the_atlas_and_frames_are_distinct() {
        let mut seen = HashSet::new();
        for pose in all_poses() {
            let r = player_region(pose);
            assert!(r.fits_in(ATLAS_SIZE), "{pose:?}: {r:?}");
            assert!(r.y >= PLAYER_ROW_Y + CELL_PAD);
            seen.insert(r);
        }
        assert_eq!(seen.len(), PLAYER_FRAMES as usize);
        assert_eq!(player_region(PlayerPose::Run(5)), player_region(PlayerPose::Run(1)));
    }

    fn all_entity_sprites() -> Vec<EntitySprite> {
        use EntitySprite::*;
        let mut all = vec![
            PlatformLeft,
            PlatformMid,
            PlatformRight,
            OnewayLeft,
            OnewayMid,
            OnewayRight,
            SpringIdle,
            SpringCompressed,
            CrumbleWhole,
            CrumbleCracked,
            CrumbleBreaking,
            Saw,
            WalkerSquashed,
        ];
        all.extend((0..WALKER_FRAMES).map(Walker));
        all
    }

    #[test]
    fn entity_cells_are_distinct_below_the_player_row_and_inside_the_atlas() {
        let mut seen = HashSet::new();
        for s in all_entity_sprites() {
            let r = entity_region(s);
            assert!(r.fits_in(ATLAS_SIZE), "{s:?}: {r:?}");
            assert!(r.y >= ENTITY_ROW_Y + CELL_PAD, "{s:?} overlaps the player row");
            assert!(s.cell() < ENTITY_CELLS);
            seen.insert(s.cell());
        }
        assert_eq!(seen.len(), ENTITY_CELLS as usize);
        assert_eq!(entity_region(EntitySprite::Walker(6)), entity_region(EntitySprite::Walker(2)));
        // The older cells keep their places: an atlas twice as tall as their rows.
        assert_eq!((ENTITY_ROW_Y, ATLAS_SIZE), (80, UVec2::new(144, 160)));
    }

    #[test]
    fn atlas_png_on_disk_has_the_size_the_constants_say() {
        let path = assets().join(ATLAS_PATH);
        let (w, h, rgba) = crate::assets::load_png_rgba(&path).expect("atlas loads");
        assert_eq!(UVec2::new(w, h), ATLAS_SIZE, "rerun scripts/make-atlas.py?");
        assert_eq!(rgba.len(), (w * h * 4) as usize);
        // The goal portal's frame is opaque; the spike tile's top rows are see-through.
        let px = |x: u32, y: u32| rgba[((y * w + x) * 4 + 3) as usize];
        let goal = tile_region(GOAL);
        assert_eq!(px(goal.x + 8, goal.y + 15), 255);
        let spikes = tile_region(HAZARD);
        assert_eq!(px(spikes.x + 8, spikes.y), 0);
        // Every entity cell holds a drawing: its second row from the bottom has opaque pixels; a saw's corner
        // is see-through (a round blade).
        for s in all_entity_sprites() {
            let r = entity_region(s);
            let y = r.y + r.h - 2;
            assert!((r.x..r.x + r.w).any(|x| px(x, y) == 255), "{s:?} is empty");
        }
        let saw = entity_region(EntitySprite::Saw);
        assert_eq!((px(saw.x, saw.y), px(saw.x + 8, saw.y + 8)), (0, 255));
        // The border repeats the edge: the pixel left of tile 0 equals its first column.
        let at = |x: u32, y: u32| &rgba[((y * w + x) * 4) as usize..][..4];
        assert_eq!(at(0, 5), at(1, 5));
    }

    #[test]
    fn tileset_grid_and_kinds_match_the_constants() {
        let ts = tiled::Loader::new().load_tsx_tileset(assets().join(TILESET_PATH)).expect("tileset loads");
        assert_eq!((ts.tile_width, ts.tile_height), (TILE_PX, TILE_PX));
        assert_eq!((ts.margin, ts.spacing), (CELL_PAD, 2 * CELL_PAD));
        assert_eq!((ts.columns, ts.tilecount), (TILE_COLUMNS, TILE_COUNT));
        let image = ts.image.as_ref().expect("tileset has an image");
        assert_eq!((image.width as u32, image.height as u32), (ATLAS_SIZE.x, ATLAS_SIZE.y));
        let kind = |id: u32| {
            ts.get_tile(id).and_then(|t| t.properties.get("kind").cloned()).map(|v| match v {
                tiled::PropertyValue::StringValue(s) => s,
                other => format!("{other:?}"),
            })
        };
        for id in [GROUND_TOP, GROUND_FILL, BLOCK, GROUND_DEEP, GROUND_DEEP_ALT] {
            assert_eq!(kind(id).as_deref(), Some("solid"), "tile {id}");
        }
        for id in [ONEWAY_LEFT, ONEWAY, ONEWAY_RIGHT] {
            assert_eq!(kind(id).as_deref(), Some("oneway"), "tile {id}");
        }
        assert_eq!(kind(HAZARD).as_deref(), Some("hazard"));
        for id in [CHECKPOINT, CHECKPOINT_LIT, GOAL, BUSH, CLOUD_LEFT, SIGN] {
            assert_eq!(kind(id), None, "tile {id} is decoration");
        }
    }
}
