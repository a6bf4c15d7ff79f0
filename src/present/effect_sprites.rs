//! The frame's cosmetic items ([`EffectDraw`]) as sprite instances: world particles as solid
//! squares, flashes and fades as translucent quads over the whole view.
//!
//! Clock: render frame. Pure CPU work on the [`FrameView`]'s `effects`, which the cosmetic
//! layer stepped on the fixed tick and the loop interpolated with the frame's one alpha; called
//! by [`super::instances::build_instances`] (particles just before the player, overlays after
//! it). Nothing is stepped or kept here.

use super::instances::{FLAG_SOLID, SpriteInstance, srgb_to_linear};
use super::view::{EffectDraw, EffectKind, FrameView};

/// The colour of each kind, sRGB 0..255, from the atlas's ENDESGA 32 palette
/// (`scripts/make-atlas.py`): dust pale grey-white (`c0cbdc`, the stone highlight), burst orbs
/// and puffs white (`ffffff`), debris the crumbling block's sandstone (`c28569`), sparks the
/// checkpoint flame's yellow (`fee761`), a flash white and a fade black (`000000`).
pub fn effect_srgb(kind: EffectKind) -> [u8; 3] {
    match kind {
        EffectKind::Dust => [0xc0, 0xcb, 0xdc],
        EffectKind::Burst | EffectKind::Puff | EffectKind::Flash => [0xff, 0xff, 0xff],
        EffectKind::Debris => [0xc2, 0x85, 0x69],
        EffectKind::Spark => [0xfe, 0xe7, 0x61],
        EffectKind::Fade => [0, 0, 0],
    }
}

/// `kind`'s colour as the linear RGBA a [`FLAG_SOLID`] instance carries, alpha `opacity`
/// (clamped to 0..=1).
fn solid(kind: EffectKind, opacity: f64) -> [f32; 4] {
    let [r, g, b] = effect_srgb(kind).map(|c| srgb_to_linear(c) as f32);
    [r, g, b, opacity.clamp(0.0, 1.0) as f32]
}

/// Push the world particles of `view.effects` (every kind but the overlays), in the order
/// given: a solid square `size` px on a side centred on `pos`, level pixels. An item of zero
/// (or negative) size or zero opacity draws nothing.
pub fn push_particles(view: &FrameView<'_>, out: &mut Vec<SpriteInstance>) {
    out.extend(view.effects.iter().filter(|e| !e.kind.is_overlay() && visible(e)).map(|e| {
        let top_left = e.pos - e.size * 0.5;
        SpriteInstance {
            pos: [top_left.x as f32, top_left.y as f32],
            size: [e.size as f32; 2],
            uv_rect: solid(e.kind, e.opacity),
            flags: FLAG_SOLID,
            rotation: 0.0,
        }
    }));
}

/// A death mark's colour, sRGB: the UI's red (its `colors::BAD`), opaque.
pub const DEATH_MARK_SRGB: [u8; 3] = [236, 78, 70];

/// A death mark's bars: 12 x 3 level pixels each (a choice: a cross a little smaller than the
/// player's 12 x 20 hitbox, readable at 1x).
const MARK_BAR: (f32, f32) = (12.0, 3.0);

/// Push a red cross for each of `view.death_marks` (a hitbox top-left): two bars rotated ±45°
/// about the centre of a player's hitbox there.
pub fn push_death_marks(view: &FrameView<'_>, out: &mut Vec<SpriteInstance>) {
    let [r, g, b] = DEATH_MARK_SRGB.map(|c| srgb_to_linear(c) as f32);
    let half = crate::level::HITBOX * 0.5;
    for p in view.death_marks {
        let c = *p + half;
        for rotation in [std::f32::consts::FRAC_PI_4, -std::f32::consts::FRAC_PI_4] {
            out.push(SpriteInstance {
                pos: [c.x as f32 - MARK_BAR.0 * 0.5, c.y as f32 - MARK_BAR.1 * 0.5],
                size: [MARK_BAR.0, MARK_BAR.1],
                uv_rect: [r, g, b, 1.0],
                flags: FLAG_SOLID,
                rotation,
            });
        }
    }
}

/// Push the overlays of `view.effects` ([`EffectKind::is_overlay`]: flashes, fades), in the
/// order given: each a quad over the whole drawn view and the art image's margin around it
/// ([`super::art::covered`]) in its colour at its opacity, for the blended pipeline. The
/// letterbox bars stay as they are (the renderer draws the world in the letterboxed viewport).
pub fn push_overlays(view: &FrameView<'_>, out: &mut Vec<SpriteInstance>) {
    let top_left = view.view_top_left();
    let (min, max) = super::art::covered(top_left);
    let (pos, size) = (top_left + min, max - min);
    out.extend(view.effects.iter().filter(|e| e.kind.is_overlay() && e.opacity > 0.0).map(|e| {
        SpriteInstance {
            pos: [pos.x as f32, pos.y as f32],
            size: [size.x as f32, size.y as f32],
            uv_rect: solid(e.kind, e.opacity),
            flags: FLAG_SOLID,
            rotation: 0.0,
        }
    }));
}

fn visible(e: &EffectDraw) -> bool {
    e.size > 0.0 && e.opacity > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ascii::parse_ascii;
    use crate::present::view::PlayerDraw;
    use glam::DVec2;

    fn effect(kind: EffectKind, pos: (f64, f64), size: f64, opacity: f64) -> EffectDraw {
        EffectDraw { kind, pos: DVec2::from(pos), size, opacity }
    }

    #[test]
    fn particles_are_centred_squares_in_order_and_overlays_cover_the_view() {
        let level = parse_ascii(&["P...".to_owned(), "####".to_owned()], 1).expect("map");
        let effects = [
            effect(EffectKind::Fade, (0.0, 0.0), 0.0, 0.5),
            effect(EffectKind::Spark, (100.0, 50.0), 4.0, 1.0),
            effect(EffectKind::Dust, (10.0, 20.0), 0.0, 1.0),
            effect(EffectKind::Debris, (30.5, 40.0), 3.0, 1.0),
            effect(EffectKind::Flash, (0.0, 0.0), 0.0, 0.0),
        ];
        let mut v = FrameView::still(&level, DVec2::new(320.0, 180.0), PlayerDraw::standing(DVec2::ZERO));
        v.effects = &effects;
        v.shake = DVec2::new(2.0, -2.0);
        let mut out = Vec::new();
        push_particles(&v, &mut out);
        assert_eq!(out.len(), 2, "the zero-size dust and the overlays are not particles");
        assert_eq!((out[0].pos, out[0].size), ([98.0, 48.0], [4.0, 4.0]));
        assert_eq!((out[1].pos, out[1].size), ([29.0, 38.5], [3.0, 3.0]));
        assert!(out.iter().all(|i| i.flags == FLAG_SOLID && i.uv_rect[3] == 1.0));
        assert_eq!(out[0].uv_rect, solid(EffectKind::Spark, 1.0));
        out.clear();
        push_overlays(&v, &mut out);
        assert_eq!(out.len(), 1, "the fade; the flash at opacity 0 draws nothing");
        assert_eq!((out[0].pos, out[0].size), ([2.0, -2.0], [640.0, 360.0]), "the shaken view");
        assert_eq!(out[0].uv_rect, [0.0, 0.0, 0.0, 0.5]);
    }

    #[test]
    fn a_death_mark_is_a_red_cross_over_the_hitbox_centre() {
        let level = parse_ascii(&["P...".to_owned(), "####".to_owned()], 1).expect("map");
        let marks = [DVec2::new(100.0, 40.0)];
        let view = FrameView {
            death_marks: &marks,
            ..FrameView::still(&level, DVec2::ZERO, PlayerDraw::standing(DVec2::ZERO))
        };
        let mut out = Vec::new();
        push_death_marks(&view, &mut out);
        assert_eq!(out.len(), 2, "two bars");
        let centre = marks[0] + crate::level::HITBOX * 0.5;
        for (bar, turn) in out.iter().zip([1.0f32, -1.0]) {
            assert_eq!(bar.flags, FLAG_SOLID);
            assert_eq!(bar.rotation, turn * std::f32::consts::FRAC_PI_4);
            let mid = (bar.pos[0] + bar.size[0] * 0.5, bar.pos[1] + bar.size[1] * 0.5);
            assert_eq!(mid, (centre.x as f32, centre.y as f32));
            assert!(bar.uv_rect[0] > 0.7 && bar.uv_rect[1] < 0.1, "red: {:?}", bar.uv_rect);
        }
    }
}
