//! Drawing the world at art resolution: where the off-screen art image covers the level, and
//! how far it is shifted when it is scaled onto the window (the technique pixel-art games use
//! for a smooth camera over crisp pixels).
//!
//! Clock: render frame (pure arithmetic of the drawn camera and the letterbox scale).
//!
//! The world is drawn into an image of [`ART_SIZE`] art pixels (the 640 x 360 view plus one
//! pixel right and below) whose top-left is the view's top-left rounded down to a whole level
//! pixel, so every sprite lands on the art-pixel grid: crisp, each texel one art pixel. That
//! image is then scaled once onto the window at the letterbox's scale and shifted left and up
//! by the camera's sub-pixel remainder, rounded to whole window pixels: the camera still moves
//! in window-pixel steps (half an art pixel at 2x, a quarter at 4x), as it did when the world
//! was drawn at window resolution. Sky layers, tiles and bodies are shaded once per art pixel
//! instead of `scale²` times.

use super::view::VIEW_SIZE;
use glam::DVec2;

/// The art image, pixels: the view (640 x 360) plus one pixel of margin right and below, which
/// the sub-pixel shift can bring into view.
pub const ART_SIZE: (u32, u32) = (VIEW_SIZE.x as u32 + 1, VIEW_SIZE.y as u32 + 1);

/// Where this frame's art image lies and how it is placed on the window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArtPlacement {
    /// The art image's top-left, level pixels: the view's top-left rounded down (whole).
    pub origin: DVec2,
    /// How far the scaled image is shifted left and up, window pixels (whole, 0..=`scale`):
    /// the view's sub-pixel remainder times the scale, rounded half down (`ceil(v − 0.5)`, so
    /// a tile lands on the window pixel `floor(v + 0.5)` of its exact place, as the sprite
    /// shader snaps).
    pub shift_px: DVec2,
}

/// Place the art image for a view centred on `centre` (level pixels: the drawn camera plus the
/// shake) shown at `scale` window pixels per level pixel ([`super::letterbox::Letterbox`]).
pub fn place(centre: DVec2, scale: f32) -> ArtPlacement {
    let top_left = centre - VIEW_SIZE / 2.0;
    let origin = top_left.floor();
    let shift_px = ((top_left - origin) * f64::from(scale) - 0.5).ceil().max(DVec2::ZERO);
    ArtPlacement { origin, shift_px }
}

/// The part of the art image a drawn view whose top-left is `top_left` (level pixels) can
/// show: its top-left and bottom-right corners relative to `top_left`, the view rounded out to
/// whole level pixels (`min` in (−1, 0] on each axis, `max` in [[`VIEW_SIZE`], `VIEW_SIZE` +
/// 1)). Whatever covers the whole view (the sky, a flash) covers this instead, so the margin
/// the sub-pixel shift can bring into view is never left blank; a view on whole pixels needs
/// no margin.
pub fn covered(top_left: DVec2) -> (DVec2, DVec2) {
    (top_left.floor() - top_left, top_left.ceil() - top_left + VIEW_SIZE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remainder_becomes_whole_window_pixels() {
        let p = place(DVec2::new(320.0, 180.0), 2.0);
        assert_eq!((p.origin, p.shift_px), (DVec2::ZERO, DVec2::ZERO));
        // 0.3 art px at 2x: 0.6 window px, rounded to 1; 0.2 at 2x: 0.4, rounded to 0; a half
        // rounds down.
        let p = place(DVec2::new(330.3, 180.2), 2.0);
        assert_eq!((p.origin, p.shift_px), (DVec2::new(10.0, 0.0), DVec2::new(1.0, 0.0)));
        let p = place(DVec2::new(320.25, 180.75), 2.0);
        assert_eq!(p.shift_px, DVec2::new(0.0, 1.0));
        // Negative views round down too; a remainder near 1 shifts by the whole scale.
        let p = place(DVec2::new(319.9, 100.0), 4.0);
        assert_eq!((p.origin, p.shift_px), (DVec2::new(-1.0, -80.0), DVec2::new(4.0, 0.0)));
    }

    #[test]
    fn the_shifted_image_always_covers_the_view() {
        for i in 0..1000 {
            let c = DVec2::new(320.0 + f64::from(i) * 0.137, 180.0 - f64::from(i) * 0.071);
            for scale in [1.0f32, 2.0, 3.0, 4.0] {
                let p = place(c, scale);
                let s = f64::from(scale);
                assert!(p.shift_px.x >= 0.0 && p.shift_px.x <= s && p.shift_px.y <= s);
                // The image's right and bottom edges, window pixels, reach the view's.
                assert!(f64::from(ART_SIZE.0) * s - p.shift_px.x >= VIEW_SIZE.x * s);
                assert!(f64::from(ART_SIZE.1) * s - p.shift_px.y >= VIEW_SIZE.y * s);
            }
        }
    }
}
