//! Parallax backdrop: where each of a level's three background layers is drawn, as a pure
//! function of the drawn view.
//!
//! Clock: render frame, but nothing here keeps state: every offset is computed from the frame's
//! drawn view (the interpolated camera plus the shake, [`super::view::FrameView::view_top_left`]),
//! so the layers are never stepped on their own and two frames that show the same view show
//! the same backdrop (LAB.md Version 3; Godot #91625 drew Parallax2D from a stale camera).
//!
//! Layers, back to front (LAB.md's `parallax[].layer`): the sky `gradient` (fixed to the
//! view), the `far` layer (mountains, cave wall, cloud banks) and the `near` layer (hills,
//! trees, pillars). The far and near art are [`LAYER_SIZE`] bands of
//! `assets/sprites/skies.png` (one texel = one level pixel, as the tiles), repeated
//! horizontally. Horizontally a layer moves `factor` times as far as the view; vertically the
//! same factor applies around the level's bottom, where the layer's bottom edge sits on the
//! view's bottom edge: climbing a tall level, the near hills sink out of view before the far
//! ones, and above them there is only sky.

use super::atlas::AtlasRegion;
use super::view::VIEW_SIZE;
use crate::level::Sky;
use glam::{DVec2, UVec2};

/// The backdrop art, relative to the assets folder (written by `scripts/make-skies.py`).
pub const SKIES_PATH: &str = "sprites/skies.png";

/// Rows from the top of one band of `skies.png` to the next, pixels: a [`LAYER_SIZE`] band
/// plus a 1 px border above and below repeating its edge rows (as the atlas's cells).
pub const BAND_STRIDE: u32 = LAYER_SIZE.y as u32 + 2;

/// Size of `skies.png`, pixels (width, height): one [`LAYER_SIZE`] band per layer of every
/// sky, [`Sky::ALL`] order, each sky's [`LAYERS`] back to front (`scripts/make-skies.py`).
pub const SKIES_SIZE: UVec2 = UVec2::new(LAYER_SIZE.x as u32, BAND_STRIDE * 3 * Sky::ALL.len() as u32);

/// The inner [`LAYER_SIZE`] rectangle of `skies.png` holding layer `layer` (index into
/// [`LAYERS`]) of `sky`, pixels. The gradient's band is stretched over the whole view (one
/// texel is 2 x 2 level pixels); the far and near bands are drawn one texel per level pixel.
///
/// # Panics
/// If `layer` is not an index into [`LAYERS`] (a bug in the caller).
pub fn band(sky: Sky, layer: usize) -> AtlasRegion {
    assert!(layer < LAYERS.len(), "layer {layer} of {}", LAYERS.len());
    let index = sky_index(sky) * LAYERS.len() + layer;
    AtlasRegion { x: 0, y: BAND_STRIDE * index as u32 + 1, w: LAYER_SIZE.x as u32, h: LAYER_SIZE.y as u32 }
}

/// The first row of each band that needs drawing, per sky in [`Sky::ALL`] order and layer in
/// [`LAYERS`] order, texels from the band's top: for the far and near layers the first row with
/// an opaque texel (the rows above are see-through), for the gradient the first row that is not
/// all [`GRADIENT_TOP_SRGB`] (the rows above are one colour, drawn by clearing the target to it
/// when the view fills the target). On a software rasteriser every fragment counts (lavapipe:
/// about 4 ns a pixel at 1280 x 720): this leaves out a third of the backdrop's pixels. Must
/// agree with `skies.png` (the test below reads it; rerun the test after `make-skies.py`).
pub const BAND_TOP: [[u32; 3]; 5] = [[72, 45, 94], [52, 12, 93], [2, 19, 40], [32, 79, 22], [24, 70, 112]];

/// The first row of each band from which every texel down to the band's bottom is opaque, per
/// sky ([`Sky::ALL`] order) and layer ([`LAYERS`] order; 180: never, and 0 for the gradient,
/// which is opaque throughout). Below that row a layer hides whatever is behind it, so the
/// backdrop leaves that part of the layers behind undrawn. Checked against `skies.png` below.
pub const BAND_FULL: [[u32; 3]; 5] = [[0, 92, 136], [0, 71, 152], [0, 59, 165], [0, 110, 180], [0, 115, 149]];

/// The top row's colour of each sky's gradient (sRGB 0..255, [`Sky::ALL`] order): the rows
/// above [`BAND_TOP`]'s gradient entry are all this colour.
pub const GRADIENT_TOP_SRGB: [[u8; 3]; 5] =
    [[0, 153, 219], [0, 153, 219], [38, 43, 68], [18, 78, 137], [104, 56, 108]];

/// `sky`'s index in [`Sky::ALL`].
pub fn sky_index(sky: Sky) -> usize {
    Sky::ALL.iter().position(|s| *s == sky).unwrap_or(0)
}

/// One background layer: its report name and how far it moves with the view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParallaxLayer {
    /// LAB.md's `parallax[].layer`: `gradient`, `far`, `near`.
    pub name: &'static str,
    /// How far the layer moves for one pixel of view motion: 0 stays fixed to the view, 1 would
    /// move with the tiles. Tuned by eye: 0.2 and 0.45 read as far and near at 640 x 360.
    pub factor: f64,
}

/// The layers, back to front.
pub const LAYERS: [ParallaxLayer; 3] = [
    ParallaxLayer { name: "gradient", factor: 0.0 },
    ParallaxLayer { name: "far", factor: 0.2 },
    ParallaxLayer { name: "near", factor: 0.45 },
];

/// Size of the far and near layers' art, level pixels (width, height): one copy; the layer
/// repeats every `LAYER_SIZE.x` pixels. The gradient covers the whole view ([`VIEW_SIZE`]).
pub const LAYER_SIZE: DVec2 = DVec2::new(320.0, 180.0);

/// Where one layer is drawn this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParallaxDraw {
    /// Index into [`LAYERS`].
    pub layer: usize,
    /// Top-left of the layer's copy 0, view pixels (0, 0 is the drawn view's top-left): the
    /// layer repeats every [`LAYER_SIZE`].x pixels both ways, so the copies that cover the view
    /// start at [`ParallaxDraw::first_copy_x`]. Not wrapped, so that it is a straight line in
    /// the drawn view (and in alpha within a tick). The gradient's is (0, 0).
    pub offset: DVec2,
}

impl ParallaxDraw {
    /// The x of the leftmost copy that reaches into the view, view pixels, in
    /// (−[`LAYER_SIZE`].x, 0].
    pub fn first_copy_x(&self) -> f64 {
        let x = -(-self.offset.x).rem_euclid(LAYER_SIZE.x);
        if x == 0.0 { 0.0 } else { x }
    }
}

/// Every layer's offset, back to front, for a drawn view whose top-left is `view_top_left` in
/// a level `level_size` pixels big.
pub fn layers(view_top_left: DVec2, level_size: DVec2) -> [ParallaxDraw; 3] {
    // The view's top when it rests on the level's bottom (a level shorter than the view is
    // drawn bottom-aligned, so this is negative there and the formula still holds).
    let bottom_view_y = level_size.y - VIEW_SIZE.y;
    std::array::from_fn(|i| {
        let f = LAYERS[i].factor;
        let offset = if f == 0.0 {
            DVec2::ZERO
        } else {
            let y = (VIEW_SIZE.y - LAYER_SIZE.y) + f * (bottom_view_y - view_top_left.y);
            DVec2::new(-view_top_left.x * f, y)
        };
        ParallaxDraw { layer: i, offset }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEVEL: DVec2 = DVec2::new(3200.0, 960.0);

    #[test]
    fn bands_tile_skies_png_in_sky_order() {
        assert_eq!(band(Sky::Hills, 0), AtlasRegion { x: 0, y: 1, w: 320, h: 180 });
        assert_eq!(band(Sky::Hills, 2).y, 2 * 182 + 1);
        assert_eq!(band(Sky::Dusk, 2).y + 180 + 1, SKIES_SIZE.y, "the last band ends the image");
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets")).join(SKIES_PATH);
        let (w, h, rgba) = crate::assets::load_png_rgba(&path).expect("skies.png loads");
        assert_eq!(UVec2::new(w, h), SKIES_SIZE, "rerun scripts/make-skies.py?");
        let alpha = |x: u32, y: u32| rgba[((y * w + x) * 4 + 3) as usize];
        let px = |x: u32, y: u32| &rgba[((y * w + x) * 4) as usize..((y * w + x) * 4 + 4) as usize];
        for sky in Sky::ALL {
            let i = sky_index(sky);
            let g = band(sky, 0);
            let top = GRADIENT_TOP_SRGB[i];
            let plain = |y: u32| (0..w).all(|x| px(x, y)[..3] == top);
            let first = (0..g.h).find(|&y| !plain(g.y + y)).expect("a gradient");
            assert_eq!(first, BAND_TOP[i][0], "{sky:?} gradient: rerun make-skies.py's numbers");
            for (layer, &want) in BAND_FULL[i].iter().enumerate().skip(1) {
                let b = band(sky, layer);
                let opaque = |y: u32| (0..w).all(|x| px(x, b.y + y)[3] == 255);
                let from = (0..b.h).rev().take_while(|&y| opaque(y)).last().unwrap_or(b.h);
                assert_eq!(from, want, "{sky:?} layer {layer}: fully opaque from");
            }
            for (layer, &want) in BAND_TOP[i].iter().enumerate().skip(1) {
                let b = band(sky, layer);
                let first = (0..b.h).find(|&y| (0..w).any(|x| px(x, b.y + y)[3] != 0)).expect("art");
                assert_eq!(first, want, "{sky:?} layer {layer}");
            }
        }
        for sky in Sky::ALL {
            let (g, far) = (band(sky, 0), band(sky, 1));
            // The gradient is opaque; the far layer is see-through at its top, opaque at its foot.
            assert!((0..w).all(|x| alpha(x, g.y) == 255 && alpha(x, g.y + g.h - 1) == 255), "{sky:?}");
            assert_eq!((alpha(0, far.y), alpha(0, far.y + far.h - 1)), (0, 255), "{sky:?} far");
        }
    }

    #[test]
    fn the_gradient_is_fixed_and_the_others_move_by_their_factor() {
        let a = layers(DVec2::new(100.0, 600.0), LEVEL);
        let b = layers(DVec2::new(110.0, 590.0), LEVEL);
        assert_eq!(a[0].offset, DVec2::ZERO);
        assert_eq!(b[0].offset, DVec2::ZERO);
        for i in 1..3 {
            let f = LAYERS[i].factor;
            assert!((a[i].offset.x - b[i].offset.x - 10.0 * f).abs() < 1e-9, "layer {i} x");
            assert!((b[i].offset.y - a[i].offset.y - 10.0 * f).abs() < 1e-9, "layer {i} y");
        }
    }

    #[test]
    fn at_the_levels_bottom_every_layer_rests_on_the_views_bottom_edge() {
        let at_bottom = DVec2::new(0.0, LEVEL.y - VIEW_SIZE.y);
        for d in &layers(at_bottom, LEVEL)[1..] {
            assert_eq!(d.offset, DVec2::new(0.0, VIEW_SIZE.y - LAYER_SIZE.y));
        }
    }

    #[test]
    fn the_leftmost_copy_starts_at_or_left_of_the_view_edge() {
        for x in [0.0, 1.0, 319.9, 1234.5, 99_999.0, -50.0] {
            for d in &layers(DVec2::new(x, 0.0), LEVEL)[1..] {
                let first = d.first_copy_x();
                assert!(first <= 0.0 && first > -LAYER_SIZE.x, "x {x}: {d:?}");
                let copies = (d.offset.x - first) / LAYER_SIZE.x;
                assert!((copies - copies.round()).abs() < 1e-9, "x {x}: a whole number of copies away");
            }
        }
    }
}
