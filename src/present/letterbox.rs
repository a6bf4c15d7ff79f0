//! Where the 640 x 360 view lands in a target of any size: the largest integer scale that
//! fits, centred, with bars around.
//!
//! Clock: render frame (pure arithmetic of the target size). Pixel crispness: at an integer
//! scale and with every quad corner snapped to a whole window pixel (the shader's job), every
//! texel is `scale` x `scale` window pixels at any camera offset.

use super::view::VIEW_SIZE;

/// Where the view lands in a target: an integer-scaled, centred rectangle (window pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Letterbox {
    /// Left edge, pixels from the target's left.
    pub x: u32,
    /// Top edge, pixels from the target's top.
    pub y: u32,
    /// Width, pixels (`640 * scale`).
    pub w: u32,
    /// Height, pixels (`360 * scale`).
    pub h: u32,
    /// Window pixels per level pixel.
    pub scale: f32,
}

/// Fit the 640 x 360 view into a `target_w` x `target_h` pixel target: the largest integer
/// scale that fits (`max(1, floor(min(w / 640, h / 360)))`), centred, bars around. A target
/// smaller than 640 x 360 gets the fractional scale that fits instead (smaller, not crisp, but
/// whole) rather than a cropped view.
pub fn letterbox(target_w: u32, target_h: u32) -> Letterbox {
    let fit = (f64::from(target_w) / VIEW_SIZE.x).min(f64::from(target_h) / VIEW_SIZE.y);
    let scale = if fit >= 1.0 { fit.floor() } else { fit.max(1e-6) };
    let w = ((VIEW_SIZE.x * scale).round() as u32).clamp(1, target_w.max(1));
    let h = ((VIEW_SIZE.y * scale).round() as u32).clamp(1, target_h.max(1));
    Letterbox {
        x: target_w.saturating_sub(w) / 2,
        y: target_h.saturating_sub(h) / 2,
        w,
        h,
        scale: scale as f32,
    }
}

impl Letterbox {
    /// Whether the letterboxed viewport is the whole of a `target_w` x `target_h` pixel target
    /// (no bars: the target is 640 x 360 times the scale).
    pub fn covers(&self, target_w: u32, target_h: u32) -> bool {
        self.x == 0 && self.y == 0 && self.w == target_w && self.h == target_h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letterbox_integer_scale() {
        assert_eq!(letterbox(1280, 720), Letterbox { x: 0, y: 0, w: 1280, h: 720, scale: 2.0 });
        assert_eq!(letterbox(1280, 800), Letterbox { x: 0, y: 40, w: 1280, h: 720, scale: 2.0 });
        assert_eq!(letterbox(1919, 1080), Letterbox { x: 319, y: 180, w: 1280, h: 720, scale: 2.0 });
        assert_eq!(letterbox(1920, 1080).scale, 3.0);
        assert_eq!(letterbox(640, 360), Letterbox { x: 0, y: 0, w: 640, h: 360, scale: 1.0 });
        assert!(letterbox(1280, 720).covers(1280, 720));
        assert!(letterbox(2560, 1440).covers(2560, 1440));
        assert!(!letterbox(1280, 800).covers(1280, 800));
        assert!(!letterbox(1919, 1080).covers(1919, 1080));
        let small = letterbox(320, 360);
        assert_eq!((small.w, small.h, small.scale), (320, 180, 0.5));
    }
}
