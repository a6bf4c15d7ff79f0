//! The level's sky as sprite instances: the gradient and the repeated far and near layers of
//! `assets/sprites/skies.png`, placed by [`super::parallax::layers`].
//!
//! Clock: render frame. Pure CPU work on the frame's [`FrameView`], called by
//! [`super::instances::build_instances`] before the tiles; nothing is stepped or kept.
//!
//! Every position here is the drawn view's top-left ([`FrameView::view_top_left`], the camera
//! plus the shake) plus an offset in whole level pixels: a layer's offset is rounded
//! (`floor(v + 0.5)`, as the shader snaps) before it is drawn, so a backdrop texel always
//! covers whole level pixels of the view and never shimmers between two as the camera moves
//! by fractions of a pixel. The layers repeat every [`LAYER_SIZE`].x pixels from
//! [`ParallaxDraw::first_copy_x`] until the view's right edge is covered. Where a layer's
//! bottom edge is above the view's (a camera below the level's bottom, e.g. shaken there),
//! its bottom row is stretched down to the view's edge so no gradient shows under the hills.

use super::atlas::AtlasRegion;
use super::instances::{FLAG_SOLID, SpriteInstance, linear_rgba};
use super::parallax::{self, LAYER_SIZE, ParallaxDraw, SKIES_SIZE};
use super::view::{FrameView, VIEW_SIZE};
use glam::DVec2;

/// Normalised `[u0, v0, u1, v1]` of a region of `skies.png`.
pub fn skies_uv(r: AtlasRegion) -> [f32; 4] {
    let (w, h) = (SKIES_SIZE.x as f32, SKIES_SIZE.y as f32);
    [r.x as f32 / w, r.y as f32 / h, (r.x + r.w) as f32 / w, (r.y + r.h) as f32 / h]
}

/// The colour of `sky`'s plain top rows (sRGB 0..255): the first instance [`push_backdrop`]
/// pushes is a solid quad of it, which a renderer whose view fills its target may replace by
/// clearing to this colour.
pub fn plain_top(sky: crate::level::Sky) -> [u8; 3] {
    parallax::GRADIENT_TOP_SRGB[parallax::sky_index(sky)]
}

/// Push the backdrop of `view` onto `out`, back to front: the gradient over the whole view (a
/// solid quad of its plain top rows, then the rest from `skies.png`), then for the far and the near layer every copy that reaches into the view (and its
/// stretched bottom row where the layer ends above the view's bottom). Instances are in
/// level pixels and sample `skies.png` (the renderer binds it for this run).
pub fn push_backdrop(view: &FrameView<'_>, out: &mut Vec<SpriteInstance>) {
    let top_left = view.view_top_left();
    let sky = view.level.sky;
    let quad = |pos: DVec2, size: DVec2, uv: [f32; 4]| SpriteInstance {
        pos: [pos.x as f32, pos.y as f32],
        size: [size.x as f32, size.y as f32],
        uv_rect: uv,
        flags: 0,
        rotation: 0.0,
    };
    let tops = parallax::BAND_TOP[parallax::sky_index(sky)];
    // The gradient: its plain top rows as one solid quad (first: the renderer clears to its
    // colour instead when the view fills the target, [`plain_top`]), then the rest. A gradient
    // texel is 2 x 2 level pixels.
    let g = parallax::band(sky, 0);
    let plain = f64::from(tops[0]) * VIEW_SIZE.y / LAYER_SIZE.y;
    out.push(SpriteInstance {
        pos: [top_left.x as f32, top_left.y as f32],
        size: [VIEW_SIZE.x as f32, plain as f32],
        uv_rect: linear_rgba(plain_top(sky)),
        flags: FLAG_SOLID,
        rotation: 0.0,
    });
    // Where each layer is drawn (whole level pixels), and from which view row down it hides
    // everything behind it: its first fully opaque row ([`parallax::BAND_FULL`]) — the band below
    // it and the stretched bottom row under it are opaque — or the view's bottom (hides nothing).
    let full = parallax::BAND_FULL[parallax::sky_index(sky)];
    let placed: Vec<ParallaxDraw> = parallax::layers(top_left, view.level.size_px())[1..]
        .iter()
        .map(|d| ParallaxDraw { layer: d.layer, offset: (d.offset + 0.5).floor() })
        .collect();
    let hides_from = |i: usize| -> f64 {
        let (y, f) = (placed[i].offset.y, full[placed[i].layer]);
        if y >= VIEW_SIZE.y || f >= LAYER_SIZE.y as u32 { VIEW_SIZE.y } else { (y + f64::from(f)).max(0.0) }
    };
    // The gradient down to where the far layer hides it.
    let end = hides_from(0).min(VIEW_SIZE.y);
    if end > plain {
        let texel = LAYER_SIZE.y / VIEW_SIZE.y; // gradient texels per level pixel
        let full_uv = skies_uv(g);
        let v = |px: f64| ((f64::from(g.y) + px * texel) / f64::from(SKIES_SIZE.y)) as f32;
        let uv = [full_uv[0], v(plain), full_uv[2], v(end)];
        out.push(quad(top_left + DVec2::new(0.0, plain), DVec2::new(VIEW_SIZE.x, end - plain), uv));
    }
    for (i, snapped) in placed.iter().enumerate() {
        let y = snapped.offset.y;
        if y >= VIEW_SIZE.y {
            continue; // sunk below the view
        }
        // What the next layer in front hides of this one (the near layer hides nothing of
        // its own).
        let hidden_from = if i + 1 < placed.len() { hides_from(i + 1) } else { VIEW_SIZE.y };
        let band = parallax::band(sky, snapped.layer);
        let bottom_row = AtlasRegion { y: band.y + band.h - 1, h: 1, ..band };
        // Only from the first row with an opaque texel (the rows above are see-through) down
        // to where the layer in front hides it.
        let cut = tops[snapped.layer];
        let last = (hidden_from - y).clamp(f64::from(cut), LAYER_SIZE.y) as u32;
        let region = AtlasRegion { y: band.y + cut, h: last - cut, ..band };
        let y_drawn = y + f64::from(cut);
        let size = DVec2::new(LAYER_SIZE.x, f64::from(last - cut));
        let skirt_top = (y + LAYER_SIZE.y).max(0.0);
        let skirt = hidden_from.min(VIEW_SIZE.y) - skirt_top;
        let mut x = snapped.first_copy_x();
        while x < VIEW_SIZE.x {
            if y + LAYER_SIZE.y > 0.0 && last > cut {
                out.push(quad(top_left + DVec2::new(x, y_drawn), size, skies_uv(region)));
            }
            if skirt > 0.0 {
                let at = DVec2::new(x, skirt_top);
                out.push(quad(top_left + at, DVec2::new(LAYER_SIZE.x, skirt), skies_uv(bottom_row)));
            }
            x += LAYER_SIZE.x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Level, Sky, TileKind};
    use crate::present::view::PlayerDraw;

    fn level(width: usize, height: usize, sky: Sky) -> Level {
        Level {
            name: "backdrop".into(),
            origin: None,
            object_ids: Vec::new(),
            width,
            height,
            kinds: vec![TileKind::Empty; width * height],
            gfx: vec![None; width * height],
            spawn: DVec2::ZERO,
            checkpoints: vec![],
            goal: None,
            entities: Vec::new(),
            sky,
        }
    }

    fn backdrop(level: &Level, camera: DVec2, shake: DVec2) -> Vec<SpriteInstance> {
        let mut v = FrameView::still(level, camera, PlayerDraw::standing(DVec2::ZERO));
        v.shake = shake;
        let mut out = Vec::new();
        push_backdrop(&v, &mut out);
        out
    }

    #[test]
    fn the_gradient_covers_the_drawn_view_and_copies_cover_its_width() {
        // 200 x 30 tiles (3200 x 480 px); the camera at the level's bottom, part way along.
        let lvl = level(200, 30, Sky::Forest);
        let out = backdrop(&lvl, DVec2::new(1000.3, 300.0), DVec2::new(2.0, -2.0));
        // The gradient: its plain top rows (52 texels, 104 px) as a solid quad, then the rest.
        assert_eq!(out[0].pos, [682.3, 118.0], "camera + shake - half the view");
        assert_eq!((out[0].size, out[0].flags), ([640.0, 104.0], FLAG_SOLID));
        assert_eq!(out[0].uv_rect, linear_rgba(plain_top(Sky::Forest)));
        assert_eq!((out[1].pos, out[1].size[0]), ([682.3, 222.0], 640.0));
        let g = parallax::band(Sky::Forest, 0);
        assert_eq!(out[1].uv_rect[1], skies_uv(AtlasRegion { y: g.y + 52, h: 128, ..g })[1]);
        let mut band_tops = vec![];
        for layer in 1..3 {
            let cut = parallax::BAND_TOP[1][layer];
            let b = parallax::band(Sky::Forest, layer);
            let uv = skies_uv(AtlasRegion { y: b.y + cut, h: b.h - cut, ..b });
            let copies: Vec<_> = out
                .iter()
                .filter(|i| i.uv_rect[1] == uv[1] && i.size[0] == 320.0 && i.size[1] > 1.0)
                .collect();
            band_tops.push(copies[0].pos[1] - cut as f32);
            let xs: Vec<f32> = copies.iter().map(|i| i.pos[0] - out[0].pos[0]).collect();
            assert!(xs[0] <= 0.0 && xs[0] > -320.0, "layer {layer}: {xs:?}");
            assert!(*xs.last().expect("copies") + 320.0 >= 640.0, "layer {layer} reaches the right edge");
            for c in &copies {
                // Whole level pixels from the view's corner, one 320-px band each, from its first
                // opaque row.
                let off = (c.pos[0] - out[0].pos[0], c.pos[1] - out[0].pos[1]);
                assert!((off.0 - off.0.round()).abs() < 1e-3 && (off.1 - off.1.round()).abs() < 1e-3);
                assert!(c.size[1] <= 180.0 - cut as f32);
            }
        }
        // Each layer stops where the one in front of it is opaque all the way down: the
        // gradient at the far layer's fully opaque rows, the far layer at the near layer's.
        let full = parallax::BAND_FULL[1];
        assert_eq!(out[1].pos[1] + out[1].size[1], band_tops[0] + full[1] as f32);
        let far = out.iter().find(|i| i.size[0] == 320.0 && i.pos[1] == band_tops[0] + 12.0).expect("far");
        assert_eq!(far.pos[1] + far.size[1], band_tops[1] + full[2] as f32);
    }

    #[test]
    fn at_the_bottom_the_layers_rest_on_the_views_edge_and_sink_when_climbing() {
        let lvl = level(40, 100, Sky::Hills); // 1600 px tall
        let bottom = backdrop(&lvl, DVec2::new(320.0, 1600.0 - 180.0), DVec2::ZERO);
        // The view's left edge at x 0: both layers start a copy there, and two cover 640 px.
        assert_eq!(bottom.len(), 2 + 2 + 2, "the gradient's two parts and two copies of each layer");
        let tops = parallax::BAND_TOP[0];
        for (i, layer) in [(2, 1), (3, 1), (4, 2), (5, 2)] {
            let y = bottom[i].pos[1] - bottom[0].pos[1];
            assert_eq!(y, 180.0 + tops[layer] as f32, "instance {i}: resting on the view's bottom");
        }
        // At the top of the level both layers have sunk below the view: only the gradient.
        assert_eq!(backdrop(&lvl, DVec2::new(320.0, 180.0), DVec2::ZERO).len(), 2);
    }

    #[test]
    fn below_the_levels_bottom_a_layers_last_row_fills_the_view() {
        let lvl = level(40, 30, Sky::Dusk);
        // Shaken 10 px below the bottom: each layer ends above the view's edge.
        let out = backdrop(&lvl, DVec2::new(330.0, 480.0 - 180.0), DVec2::new(0.0, 10.0));
        let skirts: Vec<_> = out.iter().filter(|i| i.size[1] < 20.0).collect();
        assert_eq!(skirts.len(), 3, "one under each copy of the near layer (it hides the far one's)");
        for s in skirts {
            assert_eq!(s.pos[1] + s.size[1], out[0].pos[1] + 360.0, "down to the view's bottom");
            let texel = 1.0 / SKIES_SIZE.y as f32;
            assert!((s.uv_rect[3] - s.uv_rect[1] - texel).abs() < 1e-7, "one texel row");
        }
    }
}
