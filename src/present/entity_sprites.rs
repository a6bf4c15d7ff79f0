//! Entity sprites: [`FrameView::entities`] ([`EntityDraw`]s) turned into sprite instances.
//!
//! Clock: render frame. Pure CPU work, called by [`super::instances::build_instances`] after
//! the tiles and before the player, so every entity is drawn behind the player.
//!
//! Each entity is drawn at its interpolated `pos` (the frame's one alpha, computed by whoever
//! built the view); everything else — kind, state, facing, frame — is the current tick's and
//! picks a whole sprite, never a blend:
//!
//! - **platform**: 16 px pieces from the atlas, a left end, middles, a right end, across its
//!   width (a platform narrower than two pieces shows the outer halves of its ends). A solid
//!   one (`oneway` unset in its [`EntitySpec`]) is sliced in height too: the top of the piece,
//!   its riveted body repeated for tall platforms, and its 2 px bottom edge; a one-way one
//!   draws the 8 px lift piece along its top edge (only that edge carries);
//! - **crumble**: whole while `solid`; while `breaking`, cracked on even `frame`s and about to
//!   break on odd ones (the shake); nothing while `broken`; tiled in 16 px cells across its
//!   width;
//! - **spring**: at rest while `frame` is 0, pressed down otherwise (the recoil);
//! - **saw**: the blade stretched to its 2r × 2r box, turned about its centre by
//!   [`saw_angle`] of its `frame` (the tick count the simulation gives it);
//! - **walker**: walk frame `frame % 4` while `alive`, squashed when `defeated`, mirrored when
//!   facing left.
//!
//! Every piece of one entity sits at a whole-pixel offset from its `pos`, so at an integer
//! scale the shader snaps all of them the same way and a platform shows no seams.

use super::atlas::{self, AtlasRegion, EntitySprite};
use super::instances::{FLAG_FLIP_X, SpriteInstance};
use super::spin::turn_angle;
use super::view::{EntityDraw, FrameView};
use crate::level::{EntityKind, EntitySpec};
use crate::sim::EntityState;

/// Ticks for one turn of a saw blade: 30 (0.5 s at 60 Hz, 12° a tick; the 8-toothed blade
/// repeats every 45°, so a turn reads as a fast spin without any tooth seeming to stand still).
pub const SAW_TURN_TICKS: u64 = 30;

/// A saw's angle, radians in [-π, π), clockwise on screen, for its `frame` (ticks): a pure
/// function of the discrete frame, like the goal portal's of the tick ([`turn_angle`]).
pub fn saw_angle(frame: u32) -> f64 {
    turn_angle(u64::from(frame), SAW_TURN_TICKS)
}

/// One rectangle copied from a sprite cell: `src` offset inside the cell, `dst` offset from
/// the entity's top-left, `size` in pixels (the same in both: never scaled).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Piece {
    sprite: EntitySprite,
    src: [f64; 2],
    dst: [f64; 2],
    size: [f64; 2],
}

/// Horizontal slices of a `width` px platform, each given to `f` as (which end, source x,
/// destination x, width): `0` left end, `1` middle, `2` right end.
fn columns(width: f64, mut f: impl FnMut(u8, f64, f64, f64)) {
    let tile = f64::from(atlas::TILE_PX);
    if width < 2.0 * tile {
        let left = (width / 2.0).floor();
        let right = width - left;
        if left > 0.0 {
            f(0, 0.0, 0.0, left);
        }
        if right > 0.0 {
            f(2, tile - right, left, right);
        }
        return;
    }
    f(0, 0.0, 0.0, tile);
    let mut x = tile;
    while x < width - tile {
        f(1, 0.0, x, (width - tile - x).min(tile));
        x += tile;
    }
    f(2, 0.0, width - tile, tile);
}

/// Vertical bands of a solid platform `height` px tall from a 16 px piece, each given to `f`
/// as (source y, destination y, height): the top 14 rows, the body (rows 4..14) repeated for a
/// tall one, the bottom 2 rows (its edge) last; a platform 4 px tall or less shows its top
/// rows only.
fn bands(height: f64, mut f: impl FnMut(f64, f64, f64)) {
    if height <= 4.0 {
        f(0.0, 0.0, height);
        return;
    }
    let body_end = height - 2.0;
    f(0.0, 0.0, body_end.min(14.0));
    let mut y = 14.0;
    while y < body_end {
        f(4.0, y, (body_end - y).min(10.0));
        y += 10.0;
    }
    f(14.0, body_end, 2.0);
}

/// True when entity `id` of the level is a one-way platform.
fn oneway(view: &FrameView<'_>, id: usize) -> bool {
    matches!(view.level.entities.get(id), Some(EntitySpec::Platform { oneway: true, .. }))
}

/// Give `emit` the pieces that draw a platform of `size`.
fn platform(size: [f64; 2], oneway: bool, emit: &mut impl FnMut(Piece)) {
    let ends = if oneway {
        [EntitySprite::OnewayLeft, EntitySprite::OnewayMid, EntitySprite::OnewayRight]
    } else {
        [EntitySprite::PlatformLeft, EntitySprite::PlatformMid, EntitySprite::PlatformRight]
    };
    columns(size[0], |end, sx, dx, w| {
        let sprite = ends[usize::from(end)];
        if oneway {
            emit(Piece { sprite, src: [sx, 0.0], dst: [dx, 0.0], size: [w, size[1].min(8.0)] });
        } else {
            bands(size[1], |sy, dy, h| emit(Piece { sprite, src: [sx, sy], dst: [dx, dy], size: [w, h] }));
        }
    });
}

/// The sprite for a crumbling block in `state` at `frame`; `None` when broken (not drawn).
fn crumble_sprite(state: EntityState, frame: u32) -> Option<EntitySprite> {
    match state {
        EntityState::Broken => None,
        EntityState::Breaking if frame.is_multiple_of(2) => Some(EntitySprite::CrumbleCracked),
        EntityState::Breaking => Some(EntitySprite::CrumbleBreaking),
        _ => Some(EntitySprite::CrumbleWhole),
    }
}

/// Normalised `[u0, v0, u1, v1]` of `size` px at `src` inside the cell `region`.
fn uv_part(region: AtlasRegion, src: [f64; 2], size: [f64; 2]) -> [f32; 4] {
    let (aw, ah) = (atlas::ATLAS_SIZE.x as f32, atlas::ATLAS_SIZE.y as f32);
    let (x0, y0) = (region.x as f32 + src[0] as f32, region.y as f32 + src[1] as f32);
    [x0 / aw, y0 / ah, (x0 + size[0] as f32) / aw, (y0 + size[1] as f32) / ah]
}

/// Append the instances that draw `d` (no allocation besides `out`'s own growth).
fn push_entity(view: &FrameView<'_>, d: &EntityDraw, out: &mut Vec<SpriteInstance>) {
    let (flags, rotation) = match d.kind {
        EntityKind::Walker if d.facing_left => (FLAG_FLIP_X, 0.0),
        EntityKind::Saw => (0, saw_angle(d.frame) as f32),
        _ => (0, 0.0),
    };
    // A saw's blade fills its 2r box (the only scaled sprite); every other piece is drawn at
    // its own size.
    let saw = d.kind == EntityKind::Saw;
    let mut emit = |p: Piece| {
        let size = if saw { [d.size.x, d.size.y] } else { p.size };
        out.push(SpriteInstance {
            pos: [(d.pos.x + p.dst[0]) as f32, (d.pos.y + p.dst[1]) as f32],
            size: size.map(|v| v as f32),
            uv_rect: uv_part(atlas::entity_region(p.sprite), p.src, p.size),
            flags,
            rotation,
        });
    };
    let whole = |sprite: EntitySprite, size: [f64; 2]| Piece { sprite, src: [0.0; 2], dst: [0.0; 2], size };
    match d.kind {
        EntityKind::Platform => platform([d.size.x, d.size.y], oneway(view, d.id), &mut emit),
        EntityKind::Crumble => {
            if let Some(sprite) = crumble_sprite(d.state, d.frame) {
                let tile = f64::from(atlas::TILE_PX);
                let h = d.size.y.min(tile);
                let mut x = 0.0;
                while x < d.size.x {
                    let w = (d.size.x - x).min(tile);
                    emit(Piece { sprite, src: [0.0; 2], dst: [x, 0.0], size: [w, h] });
                    x += tile;
                }
            }
        }
        EntityKind::Spring => {
            let sprite = if d.frame == 0 { EntitySprite::SpringIdle } else { EntitySprite::SpringCompressed };
            emit(whole(sprite, [16.0, 8.0]));
        }
        EntityKind::Saw => emit(whole(EntitySprite::Saw, [16.0, 16.0])),
        EntityKind::Walker => {
            let sprite = match d.state {
                EntityState::Defeated => EntitySprite::WalkerSquashed,
                _ => EntitySprite::Walker((d.frame % u32::from(atlas::WALKER_FRAMES)) as u8),
            };
            emit(whole(sprite, [16.0, 16.0]));
        }
    }
}

/// Append the instances of every entity in `view`, in id order.
pub fn push_entities(view: &FrameView<'_>, out: &mut Vec<SpriteInstance>) {
    for d in view.entities {
        push_entity(view, d, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Level, TileKind};
    use crate::present::instances::uv_of;
    use crate::present::view::PlayerDraw;
    use glam::DVec2;

    fn level(entities: Vec<EntitySpec>) -> Level {
        Level {
            name: "t".into(),
            origin: None,
            object_ids: Vec::new(),
            width: 4,
            height: 4,
            kinds: vec![TileKind::Empty; 16],
            gfx: vec![None; 16],
            spawn: DVec2::ZERO,
            checkpoints: vec![],
            goal: None,
            entities,
            sky: crate::level::Sky::default(),
        }
    }

    fn draw(id: usize, kind: EntityKind, size: DVec2, state: EntityState, frame: u32) -> EntityDraw {
        EntityDraw { id, kind, pos: DVec2::new(10.25, 20.5), size, state, facing_left: false, frame }
    }

    fn build(level: &Level, entities: &[EntityDraw]) -> Vec<SpriteInstance> {
        let view =
            FrameView { entities, ..FrameView::still(level, DVec2::ZERO, PlayerDraw::standing(DVec2::ZERO)) };
        let mut out = Vec::new();
        push_entities(&view, &mut out);
        out
    }

    fn columns_of(width: f64) -> Vec<(u8, f64, f64, f64)> {
        let mut v = Vec::new();
        columns(width, |a, b, c, d| v.push((a, b, c, d)));
        v
    }

    fn bands_of(height: f64) -> Vec<(f64, f64, f64)> {
        let mut v = Vec::new();
        bands(height, |a, b, c| v.push((a, b, c)));
        v
    }

    #[test]
    fn platform_columns_cover_the_width_with_ends_outside() {
        assert_eq!(columns_of(48.0), [(0, 0.0, 0.0, 16.0), (1, 0.0, 16.0, 16.0), (2, 0.0, 32.0, 16.0)]);
        assert_eq!(columns_of(40.0), [(0, 0.0, 0.0, 16.0), (1, 0.0, 16.0, 8.0), (2, 0.0, 24.0, 16.0)]);
        assert_eq!(columns_of(32.0), [(0, 0.0, 0.0, 16.0), (2, 0.0, 16.0, 16.0)]);
        assert_eq!(columns_of(20.0), [(0, 0.0, 0.0, 10.0), (2, 6.0, 10.0, 10.0)]);
        for w in [1.0, 7.5, 16.0, 33.0, 100.0, 161.25] {
            let cols = columns_of(w);
            let covered: f64 = cols.iter().map(|c| c.3).sum();
            assert_eq!(covered, w, "width {w}");
            assert!(cols.windows(2).all(|p| p[0].2 + p[0].3 == p[1].2), "contiguous at {w}");
        }
    }

    #[test]
    fn platform_bands_cover_the_height_and_end_with_the_bottom_edge() {
        assert_eq!(bands_of(16.0), [(0.0, 0.0, 14.0), (14.0, 14.0, 2.0)]);
        assert_eq!(bands_of(8.0), [(0.0, 0.0, 6.0), (14.0, 6.0, 2.0)]);
        assert_eq!(bands_of(3.0), [(0.0, 0.0, 3.0)]);
        assert_eq!(
            bands_of(40.0),
            [(0.0, 0.0, 14.0), (4.0, 14.0, 10.0), (4.0, 24.0, 10.0), (4.0, 34.0, 4.0), (14.0, 38.0, 2.0)]
        );
        for h in [5.0, 16.0, 17.0, 31.5, 64.0] {
            let b = bands_of(h);
            assert_eq!(b.iter().map(|x| x.2).sum::<f64>(), h, "height {h}");
        }
    }

    #[test]
    fn pieces_share_the_fractional_position_and_solid_and_oneway_differ() {
        let l = level(vec![
            EntitySpec::Platform {
                pos: DVec2::ZERO,
                size: DVec2::new(48.0, 16.0),
                to: None,
                speed: 60.0,
                wait: 0.0,
                oneway: false,
            },
            EntitySpec::Platform {
                pos: DVec2::ZERO,
                size: DVec2::new(48.0, 16.0),
                to: None,
                speed: 60.0,
                wait: 0.0,
                oneway: true,
            },
        ]);
        let size = DVec2::new(48.0, 16.0);
        let solid = build(&l, &[draw(0, EntityKind::Platform, size, EntityState::Moving, 0)]);
        assert_eq!(solid.len(), 6, "3 columns x 2 bands");
        assert!(
            solid.iter().all(|i| i.pos[0].fract() == 0.25 && i.pos[1].fract() == 0.5 && i.rotation == 0.0)
        );
        assert_eq!(solid[0].uv_rect[..2], uv_of(atlas::entity_region(EntitySprite::PlatformLeft))[..2]);
        let lift = build(&l, &[draw(1, EntityKind::Platform, size, EntityState::Waiting, 0)]);
        assert_eq!(lift.len(), 3);
        assert!(lift.iter().all(|i| i.size[1] == 8.0 && i.pos[1] == 20.5));
        assert_eq!(lift[1].uv_rect, uv_of(atlas::entity_region(EntitySprite::OnewayMid)));
    }

    #[test]
    fn discrete_state_picks_whole_sprites() {
        let l = level(vec![]);
        let one = |kind, size, state, frame, facing_left| {
            let mut d = draw(0, kind, size, state, frame);
            d.facing_left = facing_left;
            build(&l, &[d])
        };
        let uv = |s| uv_of(atlas::entity_region(s));
        let c = DVec2::new(32.0, 16.0);
        assert_eq!(
            one(EntityKind::Crumble, c, EntityState::Solid, 3, false)[0].uv_rect,
            uv(EntitySprite::CrumbleWhole)
        );
        assert_eq!(
            one(EntityKind::Crumble, c, EntityState::Breaking, 2, false)[1].uv_rect,
            uv(EntitySprite::CrumbleCracked)
        );
        assert_eq!(
            one(EntityKind::Crumble, c, EntityState::Breaking, 3, false)[0].uv_rect,
            uv(EntitySprite::CrumbleBreaking)
        );
        assert!(one(EntityKind::Crumble, c, EntityState::Broken, 0, false).is_empty());
        let s = DVec2::new(16.0, 8.0);
        assert_eq!(
            one(EntityKind::Spring, s, EntityState::Idle, 0, false)[0].uv_rect,
            uv(EntitySprite::SpringIdle)
        );
        assert_eq!(
            one(EntityKind::Spring, s, EntityState::Idle, 4, false)[0].uv_rect,
            uv(EntitySprite::SpringCompressed)
        );
        let w = DVec2::splat(16.0);
        let walker = one(EntityKind::Walker, w, EntityState::Alive, 6, true)[0];
        assert_eq!((walker.uv_rect, walker.flags), (uv(EntitySprite::Walker(2)), FLAG_FLIP_X));
        assert_eq!(
            one(EntityKind::Walker, w, EntityState::Defeated, 6, false)[0].uv_rect,
            uv(EntitySprite::WalkerSquashed)
        );
        let saw = one(EntityKind::Saw, DVec2::splat(24.0), EntityState::Moving, 5, false)[0];
        assert_eq!((saw.size, saw.uv_rect), ([24.0, 24.0], uv(EntitySprite::Saw)));
        assert_eq!(saw.rotation, saw_angle(5) as f32);
        assert!((saw_angle(5) - 5.0 * std::f64::consts::TAU / 30.0).abs() < 1e-12);
        assert_eq!(saw_angle(30), 0.0);
    }
}
