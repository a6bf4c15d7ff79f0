//! Where UI goes in the window, and what it is made of: the [`Screen`] (window size, the
//! view's letterbox, the UI scale), [`Rect`]s, and the [`Layer`] of quads and text a frame's UI
//! builds ([`solid`] makes its quads), and where a centred block goes beside a panel
//! ([`centre_clear_of`]).
//!
//! Clock: render frame. Pure: plain data for `render` to draw.
//!
//! Sizes follow the view's integer scale ([`Screen::s`]: 2 in a 1280 x 720 window), so the HUD
//! is 16 px text at 2x, 24 px at 3x.

use crate::present::instances::{FLAG_SOLID, SpriteInstance, srgb_to_linear};
use crate::present::letterbox::{Letterbox, letterbox};
use crate::present::text::TextItem;

/// The window as the overlay lays it out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Screen {
    /// Window width, pixels.
    pub w: f32,
    /// Window height, pixels.
    pub h: f32,
    /// Where the 640 x 360 view lands (the HUD sits in its top-left corner).
    pub view: Letterbox,
    /// UI scale: the view's integer scale, at least 1 (2 in a 1280 x 720 window).
    pub s: f32,
}

impl Screen {
    /// The layout for a `w` x `h` pixel window.
    pub fn new(w: u32, h: u32) -> Self {
        let view = letterbox(w, h);
        Self { w: w as f32, h: h as f32, view, s: view.scale.max(1.0).round() }
    }

    /// HUD and pause-hint text size, pixels (16 at 2x).
    pub fn text_px(&self) -> f32 {
        8.0 * self.s
    }

    /// F3 overlay text size, pixels (14 at 2x, never under 12).
    pub fn small_px(&self) -> f32 {
        (7.0 * self.s).max(12.0)
    }

    /// Headline size, pixels (32 at 2x).
    pub fn title_px(&self) -> f32 {
        16.0 * self.s
    }
}

/// A rectangle in window pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

/// What the overlay draws this frame: quads first, then text over them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layer {
    /// Screen-space quads, window pixels, drawn in order.
    pub quads: Vec<SpriteInstance>,
    /// Text, drawn in order over every quad.
    pub text: Vec<TextItem>,
}

impl Layer {
    /// Empty both lists (keeping their allocations).
    pub fn clear(&mut self) {
        self.quads.clear();
        self.text.clear();
    }
}

/// A solid quad at (`x`, `y`) of `w` x `h` window pixels in sRGB colour `srgb` with opacity
/// `alpha` (the shader reads linear RGBA, straight alpha).
pub fn solid(x: f32, y: f32, w: f32, h: f32, srgb: [u8; 3], alpha: f32) -> SpriteInstance {
    SpriteInstance {
        pos: [x, y],
        size: [w, h],
        uv_rect: [
            srgb_to_linear(srgb[0]) as f32,
            srgb_to_linear(srgb[1]) as f32,
            srgb_to_linear(srgb[2]) as f32,
            alpha,
        ],
        flags: FLAG_SOLID,
        rotation: 0.0,
    }
}

/// [`solid`] over a [`Rect`].
pub(super) fn rect_quad(r: Rect, srgb: [u8; 3], alpha: f32) -> SpriteInstance {
    solid(r.x, r.y, r.w, r.h, srgb, alpha)
}

/// The centre x for a block `w` pixels wide: the view's centre, unless the block would then
/// cover `keep` (a panel beside the menus: F3 while paused) across, in which case it moves just
/// clear of it, `4 × s` pixels away on the side away from it, as far as the window allows
/// (the window's edge wins where both cannot be had).
pub fn centre_clear_of(scr: &Screen, w: f32, keep: Option<Rect>) -> f32 {
    let centre = scr.view.x as f32 + scr.view.w as f32 * 0.5;
    let Some(k) = keep else { return centre };
    let (half, gap) = (w * 0.5, 4.0 * scr.s);
    if centre + half <= k.x || centre - half >= k.x + k.w {
        return centre;
    }
    let (lo, hi) = (half + gap, scr.w - half - gap);
    let x = if k.x + k.w * 0.5 <= centre { k.x + k.w + gap + half } else { k.x - gap - half };
    x.clamp(lo.min(hi), hi.max(lo)).round()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_moves_just_clear_of_a_panel_it_would_cover() {
        let scr = Screen::new(1280, 720);
        assert_eq!(centre_clear_of(&scr, 200.0, None), 640.0);
        let left = Rect { x: 8.0, y: 68.0, w: 488.0, h: 388.0 };
        assert_eq!(centre_clear_of(&scr, 200.0, Some(left)), 640.0, "540..740 is clear of it");
        let x = centre_clear_of(&scr, 456.0, Some(left));
        assert_eq!(x - 228.0, 8.0 + 488.0 + 8.0, "just right of it");
        let right = Rect { x: 784.0, y: 8.0, w: 488.0, h: 388.0 };
        assert_eq!(centre_clear_of(&scr, 456.0, Some(right)) + 228.0, 784.0 - 8.0, "just left of it");
        // No room for both: the window's edge wins.
        let wide = Rect { x: 4.0, y: 4.0, w: 1100.0, h: 100.0 };
        assert_eq!(centre_clear_of(&scr, 456.0, Some(wide)) + 228.0, 1280.0 - 8.0);
    }
}
