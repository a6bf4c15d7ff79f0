//! Sprite instances as plain data: what the sprite pipeline draws, built on the CPU.
//!
//! Clock: render frame. [`build_instances`] turns a [`FrameView`] snapshot into
//! [`SpriteInstance`]s (pure: benchable and unit-tested without a GPU); `render` uploads them
//! and draws them with `shaders/sprite.wgsl`. Nothing here writes the world.
//!
//! Draw order in the one instance list, and the [`Batches`] it falls into: the level's sky
//! ([`super::backdrop`]: the gradient, the far and near parallax layers, from `skies.png`),
//! the tiles in view (checkpoints and the goal are tiles in `Level::gfx` too; the goal is
//! drawn rotated by [`FrameView::goal_angle`], everything else upright), the entities
//! ([`super::entity_sprites`]: platforms, crumbling blocks, springs, saws, walkers, behind the
//! player), the `--stress` sprites, the ghost, the world particles
//! ([`super::effect_sprites`]), the player (squashed or stretched by
//! [`FrameView::player_scale`]), then the flash and fade overlays over the whole view. The sky,
//! tiles, sprites and player are opaque or alpha-tested (the shader discards texels with
//! alpha < 0.5), so they are drawn without blending; the ghost, the particles (solid squares,
//! [`FLAG_SOLID`], whose alpha is their opacity) and the overlays are blended.
//!
//! Each instance's UV rectangle is the *inner* atlas cell (the 1 px extruded padding stays
//! outside), so neighbouring cells never bleed in under nearest sampling.
//!
//! Rotation ([`SpriteInstance::rotation`], only the goal today): the quad turns about its
//! centre, which the shader snaps to a whole window pixel (so it keeps step with the tiles
//! around it as the camera moves); its corners then land off the pixel grid, and nearest
//! sampling makes the edges stair-stepped at angles that are not a multiple of 90°, which is
//! the honest look of rotated pixel art.

use super::atlas::{self, AtlasRegion};
use super::view::{FrameView, VIEW_SIZE};
use crate::level::TILE;
use glam::DVec2;
use std::ops::Range;

/// The letterbox bars around the view, sRGB 0..255: near black with a touch of blue.
pub const LETTERBOX_SRGB: [u8; 3] = [18, 18, 28];

/// Instance flag: mirror the sprite horizontally (the player facing left).
pub const FLAG_FLIP_X: u32 = 1;
/// Instance flag: fill the quad with a solid colour; `uv_rect` holds linear RGBA.
pub const FLAG_SOLID: u32 = 2;
/// Instance flag: a ghost ([`FrameView::ghost`]): the sprite's opaque texels tinted half way
/// to a pale cyan and drawn 45 % opaque (`shaders/sprite.wgsl`; the renderer draws this one
/// instance with blending). No instance without it is drawn any differently.
pub const FLAG_GHOST: u32 = 4;
/// Instance flag: a race's other runner ([`FrameView::rivals`]): tinted 55 % of the way to its
/// player's colour ([`RIVAL_SRGB`], index in bits 4-5: [`rival_flags`]) and drawn 85 %
/// opaque, with blending, behind the player.
pub const FLAG_RIVAL: u32 = 8;

/// The runners' colours, sRGB, player 1 to 4: orange, green, blue, yellow (`shaders/sprite.wgsl`
/// has them in linear RGB; the labels over the runners use these).
pub const RIVAL_SRGB: [[u8; 3]; 4] = [[255, 120, 60], [90, 220, 90], [120, 140, 255], [255, 220, 60]];

/// The flags of player `player`'s (1-based) runner drawn as a rival.
pub fn rival_flags(player: u8) -> u32 {
    FLAG_RIVAL | (u32::from(player.saturating_sub(1) & 3) << 4)
}

/// One sprite as the GPU reads it (vertex buffer slot 0, stepped per instance). Mirrors
/// `Instance` in `shaders/sprite.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SpriteInstance {
    /// Top-left corner, level pixels.
    pub pos: [f32; 2],
    /// Width and height, level pixels.
    pub size: [f32; 2],
    /// Inner atlas cell `[u0, v0, u1, v1]`, normalised 0..1 (padding excluded); for
    /// [`FLAG_SOLID`] the linear RGBA fill colour.
    pub uv_rect: [f32; 4],
    /// Bit 0 [`FLAG_FLIP_X`], bit 1 [`FLAG_SOLID`], bit 2 [`FLAG_GHOST`], bit 3 [`FLAG_RIVAL`]
    /// with its colour in bits 4-5.
    pub flags: u32,
    /// Rotation about the quad's centre, radians, clockwise on screen (y grows downward); 0
    /// for everything but the spinning goal ([`FrameView::goal_angle`]). A rotated quad's
    /// centre is snapped to a whole window pixel instead of its corners; an unrotated one is
    /// drawn exactly as before rotation existed.
    pub rotation: f32,
}

/// sRGB 0..255 → linear 0..1 (the exact sRGB transfer function, IEC 61966-2-1).
pub fn srgb_to_linear(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// sRGB 0..255 → linear RGBA 0..1, opaque: a [`FLAG_SOLID`] instance's fill.
pub fn linear_rgba(srgb: [u8; 3]) -> [f32; 4] {
    let [r, g, b] = srgb.map(|c| srgb_to_linear(c) as f32);
    [r, g, b, 1.0]
}

/// Normalised `[u0, v0, u1, v1]` of an atlas region (inner cell, no padding).
pub fn uv_of(r: AtlasRegion) -> [f32; 4] {
    let (aw, ah) = (atlas::ATLAS_SIZE.x as f32, atlas::ATLAS_SIZE.y as f32);
    [r.x as f32 / aw, r.y as f32 / ah, (r.x + r.w) as f32 / aw, (r.y + r.h) as f32 / ah]
}

/// The checkpoint flag in cell (`tx`, `ty`) is drawn lit once its checkpoint was reached;
/// every other tile index is drawn as it is.
fn lit(view: &FrameView<'_>, index: u32, tx: usize, ty: usize) -> u32 {
    if index != atlas::CHECKPOINT {
        return index;
    }
    let centre = glam::DVec2::new((tx as f64 + 0.5) * TILE, (ty as f64 + 0.5) * TILE);
    let reached = view.level.checkpoints.iter().enumerate().any(|(i, cp)| {
        let a = cp.area;
        view.reached.get(i).copied().unwrap_or(false)
            && (a.pos.x..=a.pos.x + a.size.x).contains(&centre.x)
            && (a.pos.y..=a.pos.y + a.size.y).contains(&centre.y)
    });
    if reached { atlas::CHECKPOINT_LIT } else { index }
}

/// Where each part of a frame's instance list lies (indices into it) and so how it is drawn:
/// one draw per texture and blend run (STYLE.md habit 7).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batches {
    /// The backdrop: samples `skies.png`, unblended (alpha-tested).
    pub sky: Range<u32>,
    /// Tiles, entities and `--stress` sprites: the atlas, unblended.
    pub world: Range<u32>,
    /// The ghost and the world particles: the atlas (or solid), blended.
    pub translucent: Range<u32>,
    /// The player: the atlas, unblended.
    pub player: Range<u32>,
    /// Flashes and fades over the whole view: solid, blended.
    pub overlays: Range<u32>,
}

/// Build this frame's instances from `view` into `out` (cleared first): the sky, the tiles
/// whose cells overlap the drawn view (culled by it), the entities, the stress sprites, the
/// ghost, the particles, the player, then the overlays. Returns where each run lies. Pure CPU
/// work.
pub fn build_instances(view: &FrameView<'_>, out: &mut Vec<SpriteInstance>) -> Batches {
    out.clear();
    let mark = |out: &Vec<SpriteInstance>| out.len() as u32;
    super::backdrop::push_backdrop(view, out);
    let world_start = mark(out);
    let top_left = view.view_top_left();

    let level = view.level;
    let bottom_right = top_left + VIEW_SIZE;
    let cells = |lo: f64, hi: f64, n: usize| -> Range<usize> {
        let a = (lo / TILE).floor().clamp(0.0, n as f64) as usize;
        let b = (hi / TILE).ceil().clamp(0.0, n as f64) as usize;
        a..b
    };
    let cols = cells(top_left.x, bottom_right.x, level.width);
    for ty in cells(top_left.y, bottom_right.y, level.height) {
        let row = &level.gfx[ty * level.width..(ty + 1) * level.width];
        for tx in cols.clone() {
            if let Some(index) = row[tx] {
                let region = atlas::tile_region(lit(view, index, tx, ty));
                // The goal portal spins in place (present/spin.rs); every other tile is upright.
                let rotation = if index == atlas::GOAL { view.goal_angle as f32 } else { 0.0 };
                out.push(SpriteInstance {
                    pos: [tx as f32 * TILE as f32, ty as f32 * TILE as f32],
                    size: [region.w as f32, region.h as f32],
                    uv_rect: uv_of(region),
                    flags: 0,
                    rotation,
                });
            }
        }
    }

    super::entity_sprites::push_entities(view, out);

    // `--stress` sprites: one run of instances sharing the atlas, like everything else.
    let stress = atlas::tile_region(atlas::GOAL);
    let stress_uv = uv_of(stress);
    out.extend(view.extra.iter().map(|p| SpriteInstance {
        pos: [p.x as f32, p.y as f32],
        size: [stress.w as f32, stress.h as f32],
        uv_rect: stress_uv,
        flags: 0,
        rotation: 0.0,
    }));
    let translucent_start = mark(out);

    // A ghost: the player's sprite, translucent and never squashed, behind the player; then
    // the particles, in the order the cosmetic layer gives them.
    if let Some(g) = &view.ghost {
        out.push(player_sprite(g, FLAG_GHOST, DVec2::ONE));
    }
    out.extend(view.attempts.iter().map(|a| player_sprite(a, FLAG_GHOST, DVec2::ONE)));
    super::effect_sprites::push_death_marks(view, out);
    out.extend(view.rivals.iter().map(|r| player_sprite(&r.draw, rival_flags(r.player), DVec2::ONE)));
    super::effect_sprites::push_particles(view, out);
    let player_start = mark(out);
    out.push(player_sprite(&view.player, 0, view.player_scale));
    let overlays_start = mark(out);
    super::effect_sprites::push_overlays(view, out);
    Batches {
        sky: 0..world_start,
        world: world_start..translucent_start,
        translucent: translucent_start..player_start,
        player: player_start..overlays_start,
        overlays: overlays_start..mark(out),
    }
}

/// The player's sprite (16 x 24) bottom-centred on the hitbox (12 x 22) of `p`, with `flags`
/// (a ghost's) added, scaled by `scale` (x, y; 1 at rest) about the middle of its bottom edge,
/// so a squash widens it on the ground and a stretch lengthens it upward.
fn player_sprite(p: &super::view::PlayerDraw, flags: u32, scale: DVec2) -> SpriteInstance {
    let region = atlas::player_region(p.pose);
    let (w, h) = (f64::from(region.w) * scale.x, f64::from(region.h) * scale.y);
    let x = p.pos.x + (p.hitbox.x - w) * 0.5;
    let y = p.pos.y + p.hitbox.y - h;
    SpriteInstance {
        pos: [x as f32, y as f32],
        size: [w as f32, h as f32],
        uv_rect: uv_of(region),
        flags: flags | if p.facing_left { FLAG_FLIP_X } else { 0 },
        rotation: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Level, TileKind};
    use crate::present::view::{PlayerDraw, PlayerPose};
    use glam::DVec2;

    fn level(width: usize, height: usize) -> Level {
        let mut gfx = vec![None; width * height];
        // A floor on the bottom row.
        for x in 0..width {
            gfx[(height - 1) * width + x] = Some(0);
        }
        Level {
            name: "test".into(),
            origin: None,
            object_ids: Vec::new(),
            width,
            height,
            kinds: vec![TileKind::Empty; width * height],
            gfx,
            spawn: DVec2::new(32.0, 32.0),
            checkpoints: vec![],
            goal: None,
            entities: Vec::new(),
            sky: crate::level::Sky::default(),
        }
    }

    fn view(level: &Level, camera: DVec2, facing_left: bool) -> FrameView<'_> {
        FrameView::still(
            level,
            camera,
            PlayerDraw { facing_left, ..PlayerDraw::standing(DVec2::new(100.0, 50.0)) },
        )
    }

    #[test]
    fn sky_tiles_in_view_then_player() {
        let lvl = level(200, 30);
        let mut out = Vec::new();
        // Camera at the level's bottom-left corner region: 640 x 360 view centred on (320, 300).
        let b = build_instances(&view(&lvl, DVec2::new(320.0, 300.0), false), &mut out);
        assert_eq!(b.sky.start, 0);
        assert_eq!(out[0].pos, [0.0, 120.0], "the gradient at the view's top-left");
        assert_eq!(out[0].size[0], 640.0);
        assert!(out[1].pos[1] + out[1].size[1] <= 480.0, "at most down to the view's bottom");
        // Floor row y = 29 (464..480 px) is in view; columns 0..40 (640 px / 16).
        let tiles = &out[b.world.start as usize..b.world.end as usize];
        assert_eq!(tiles.len(), 40);
        assert!(tiles.iter().all(|t| t.pos[1] == 464.0 && t.size == [16.0, 16.0]));
        assert_eq!((b.translucent.len(), b.player.len(), b.overlays.len()), (0, 1, 0));
        assert_eq!(b.player.end as usize, out.len());
        assert_eq!(out[b.player.start as usize].flags, 0);
    }

    #[test]
    fn culls_tiles_outside_the_view() {
        let lvl = level(200, 30);
        let mut out = Vec::new();
        let tiles = |camera: DVec2, out: &mut Vec<SpriteInstance>| {
            build_instances(&view(&lvl, camera, false), out).world.len()
        };
        // The view spans y 0..360: the floor (y 464) is below it.
        assert_eq!(tiles(DVec2::new(1000.0, 180.0), &mut out), 0);
        // A half-tile camera offset shows a partial column at each side: 41 columns.
        assert_eq!(tiles(DVec2::new(1000.0, 300.0), &mut out), 41);
        // Aligned to the grid: exactly 40 columns.
        assert_eq!(tiles(DVec2::new(1008.0, 300.0), &mut out), 40);
        // Shaken by half a tile: the drawn view, not the camera, culls.
        let mut v = view(&lvl, DVec2::new(1008.0, 300.0), false);
        v.shake = DVec2::new(8.0, 0.0);
        assert_eq!(build_instances(&v, &mut out).world.len(), 41);
    }

    #[test]
    fn squash_and_stretch_scale_the_player_about_its_feet_not_the_ghost() {
        let lvl = level(10, 10);
        let mut v = view(&lvl, DVec2::new(320.0, 180.0), false);
        let mut out = Vec::new();
        let b = build_instances(&v, &mut out);
        let rest = out[b.player.start as usize];
        v.player_scale = DVec2::new(1.5, 0.5);
        v.ghost = Some(v.player);
        let b = build_instances(&v, &mut out);
        let (ghost, squashed) = (out[b.translucent.start as usize], out[b.player.start as usize]);
        assert_eq!((ghost.pos, ghost.size), (rest.pos, rest.size), "the ghost stays unscaled");
        assert_eq!(squashed.size, [rest.size[0] * 1.5, rest.size[1] * 0.5]);
        let bottom_middle = |i: SpriteInstance| [i.pos[0] + i.size[0] / 2.0, i.pos[1] + i.size[1]];
        assert_eq!(bottom_middle(squashed), bottom_middle(rest));
    }

    #[test]
    fn particles_go_after_the_ghost_before_the_player_and_overlays_last() {
        use crate::present::view::{EffectDraw, EffectKind};
        let lvl = level(10, 10);
        let mut v = view(&lvl, DVec2::new(320.0, 180.0), false);
        v.ghost = Some(v.player);
        let dust =
            EffectDraw { kind: EffectKind::Dust, pos: DVec2::new(50.0, 60.0), size: 2.0, opacity: 1.0 };
        let fade = EffectDraw { kind: EffectKind::Fade, pos: DVec2::ZERO, size: 0.0, opacity: 0.25 };
        let effects = [fade, dust, EffectDraw { size: 0.0, ..dust }];
        v.effects = &effects;
        let mut out = Vec::new();
        let b = build_instances(&v, &mut out);
        assert_eq!(b.translucent.len(), 2, "the ghost and one dust puff (the zero-size one draws nothing)");
        assert_eq!(out[b.translucent.start as usize].flags, FLAG_GHOST);
        assert_eq!(out[b.translucent.start as usize + 1].pos, [49.0, 59.0]);
        assert_eq!(b.overlays, b.player.end..b.player.end + 1);
        assert_eq!(out[b.overlays.start as usize].uv_rect[3], 0.25);
    }

    #[test]
    fn player_is_bottom_centred_and_mirrored() {
        let lvl = level(10, 10);
        let mut out = Vec::new();
        build_instances(&view(&lvl, DVec2::new(320.0, 180.0), true), &mut out);
        let p = out.last().copied().expect("player");
        let r = atlas::player_region(PlayerPose::Idle);
        let (w, h) = (r.w as f32, r.h as f32);
        assert_eq!(p.size, [w, h]);
        assert_eq!(p.pos, [100.0 + (12.0 - w) / 2.0, 50.0 + 22.0 - h]);
        assert_eq!(p.flags, FLAG_FLIP_X);
    }

    #[test]
    fn only_the_goal_is_rotated() {
        let mut lvl = level(10, 10);
        lvl.gfx[8 * 10 + 3] = Some(atlas::GOAL);
        lvl.gfx[8 * 10 + 4] = Some(atlas::HAZARD);
        lvl.gfx[8 * 10 + 5] = Some(atlas::CHECKPOINT);
        let mut v = view(&lvl, DVec2::new(320.0, 180.0), true);
        v.goal_angle = 1.25;
        let extra = [DVec2::new(10.0, 10.0)];
        v.extra = &extra;
        let mut out = Vec::new();
        build_instances(&v, &mut out);
        let goal = atlas::tile_region(atlas::GOAL);
        let rotated: Vec<_> = out.iter().filter(|i| i.rotation != 0.0).collect();
        assert_eq!(rotated.len(), 1, "the goal tile only (not the stress sprite, hazard, player)");
        assert_eq!(rotated[0].rotation, 1.25);
        assert_eq!(rotated[0].pos, [48.0, 128.0]);
        assert_eq!(rotated[0].uv_rect, uv_of(goal));
        // Upright goal: nothing rotated at all.
        v.goal_angle = 0.0;
        build_instances(&v, &mut out);
        assert!(out.iter().all(|i| i.rotation == 0.0));
    }

    #[test]
    fn a_ghost_is_the_players_sprite_just_before_the_player() {
        let lvl = level(10, 10);
        let mut v = view(&lvl, DVec2::new(320.0, 180.0), false);
        let mut out = Vec::new();
        build_instances(&v, &mut out);
        let without = out.clone();
        v.ghost = Some(PlayerDraw { pos: DVec2::new(60.0, 50.0), ..v.player });
        build_instances(&v, &mut out);
        assert_eq!(out.len(), without.len() + 1);
        let (ghost, player) = (out[out.len() - 2], out[out.len() - 1]);
        assert_eq!(player, *without.last().expect("player"), "the player is drawn as before");
        assert_eq!(ghost.flags, FLAG_GHOST);
        assert_eq!((ghost.size, ghost.uv_rect), (player.size, player.uv_rect));
        assert_eq!(ghost.pos[0] - player.pos[0], -40.0);
        assert!(without.iter().all(|i| i.flags & FLAG_GHOST == 0));
    }

    /// The opaque runs (sky, world, player) are drawn raw where the device allows it, and the
    /// raw fragment stage has no ghost or rival tint (`shaders/sprite.wgsl` `fs_raw`): those
    /// only ever come in the translucent run.
    #[test]
    fn ghosts_and_rivals_only_in_the_translucent_run() {
        let lvl = level(10, 10);
        let mut v = view(&lvl, DVec2::new(320.0, 180.0), false);
        v.ghost = Some(PlayerDraw { pos: DVec2::new(60.0, 50.0), ..v.player });
        let attempts = [PlayerDraw { pos: DVec2::new(70.0, 50.0), ..v.player }];
        v.attempts = &attempts;
        let rivals = [2, 3, 4].map(|player| crate::present::view::RivalDraw { draw: v.player, player });
        v.rivals = &rivals;
        let mut out = Vec::new();
        let b = build_instances(&v, &mut out);
        let tinted = |r: Range<u32>| {
            out[r.start as usize..r.end as usize]
                .iter()
                .filter(|i| i.flags & (FLAG_GHOST | FLAG_RIVAL) != 0)
                .count()
        };
        assert_eq!(tinted(b.translucent.clone()), 5, "the ghost, the attempt and three rivals");
        for run in [b.sky, b.world, b.player, b.overlays] {
            assert_eq!(tinted(run), 0);
        }
    }

    #[test]
    fn uv_rect_is_the_inner_cell() {
        let r = atlas::tile_region(0);
        let uv = uv_of(r);
        assert!(uv[0] > 0.0 && uv[1] > 0.0, "padding stays outside");
        assert!((uv[2] - uv[0]) * atlas::ATLAS_SIZE.x as f32 - r.w as f32 <= 1e-3);
    }

    #[test]
    fn srgb_round_trip_endpoints() {
        assert_eq!(srgb_to_linear(0), 0.0);
        assert!((srgb_to_linear(255) - 1.0).abs() < 1e-12);
        // The other direction, linear 0..1 → sRGB 0..255 (IEC 61966-2-1's encoding, what an
        // sRGB render target applies when it stores a pixel).
        let linear_to_srgb =
            |l: f64| 255.0 * if l <= 0.0031308 { 12.92 * l } else { 1.055 * l.powf(1.0 / 2.4) - 0.055 };
        assert_eq!(linear_to_srgb(0.0), 0.0);
        assert!((linear_to_srgb(1.0) - 255.0).abs() < 1e-9);
        // Every 8-bit value: to linear (strictly increasing, within 0..1) and back to itself.
        let mut last = -1.0;
        for c in 0..=255u8 {
            let l = srgb_to_linear(c);
            assert!(l > last && (0.0..=1.0).contains(&l), "{c} -> {l} after {last}");
            let back = linear_to_srgb(l);
            assert!((back - f64::from(c)).abs() < 1e-9, "{c} -> {l} -> {back}");
            last = l;
        }
        // A linear sweep: stored as the nearest 8-bit sRGB value, it reads back as a linear
        // value whose neighbouring codes bracket the original.
        for i in 0..=1000 {
            let l = f64::from(i) / 1000.0;
            let c = linear_to_srgb(l).round() as u8;
            let below = if c == 0 { 0.0 } else { srgb_to_linear(c - 1) };
            let above = if c == 255 { 1.0 } else { srgb_to_linear(c + 1) };
            assert!(below <= l && l <= above, "{l} -> {c} -> {}", srgb_to_linear(c));
        }
    }
}
