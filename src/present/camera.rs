//! The camera: follows the *interpolated* player in the same render frame.
//!
//! Clock: render frame. It reads the drawn (interpolated) position after the frame's ticks, so
//! camera and player never jitter against each other (seed 001: "cameras that follow an
//! interpolated object must read the interpolated position"; avian#211, godot PR#76252).
//!
//! Horizontal: a dead zone ([`DEAD_ZONE_X`]) with no smoothing — at constant speed the offset
//! between camera and player is constant. Vertical: platform snapping — the camera's target
//! height changes when the player lands on a new height (not on every jump), and eases there;
//! it also follows at once when the player leaves the vertical margin (long falls). Both axes
//! clamp to the level bounds (a level narrower than the view is centred, a shorter one
//! bottom-aligned). Reduced motion
//! removes the easing.

use crate::level::Level;
use crate::present::view::VIEW_SIZE;
use glam::DVec2;

/// Half-width of the horizontal dead zone around the camera centre, pixels.
pub const DEAD_ZONE_X: f64 = 24.0;

/// How far above the view centre the player's feet rest when grounded, pixels (the player sits
/// a little below centre, so more of what is above is visible).
pub const FEET_BELOW_CENTRE: f64 = 40.0;

/// The player may get this close to the top or bottom edge of the view before the camera
/// follows at once, pixels.
pub const MARGIN_Y: f64 = 64.0;

/// Easing rate toward a new platform height, 1/s: the gap shrinks by e every 1/8 s.
pub const EASE_RATE: f64 = 8.0;

/// Camera state: centre of the view in level pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Centre of the visible area, level pixels.
    pub centre: DVec2,
    target_y: f64,
    /// No easing (reduced-motion option).
    pub reduced_motion: bool,
}

impl Camera {
    /// A camera centred on a player whose hitbox top-left is `player` with size `hitbox`.
    pub fn new(level: &Level, player: DVec2, hitbox: DVec2) -> Self {
        let feet = player.y + hitbox.y;
        let mut c = Camera {
            centre: DVec2::new(player.x + hitbox.x / 2.0, feet - FEET_BELOW_CENTRE),
            target_y: feet - FEET_BELOW_CENTRE,
            reduced_motion: false,
        };
        c.clamp(level);
        c
    }

    /// Jump straight to the player (respawn, level load): no easing, no dead-zone lag.
    pub fn snap(&mut self, level: &Level, player: DVec2, hitbox: DVec2) {
        let reduced = self.reduced_motion;
        *self = Camera::new(level, player, hitbox);
        self.reduced_motion = reduced;
    }

    /// Follow the interpolated player (`drawn`, hitbox top-left) for a frame of `dt` seconds.
    /// `grounded` is the current tick's discrete on-ground flag.
    pub fn follow(&mut self, level: &Level, drawn: DVec2, hitbox: DVec2, grounded: bool, dt: f64) {
        let cx = drawn.x + hitbox.x / 2.0;
        if cx > self.centre.x + DEAD_ZONE_X {
            self.centre.x = cx - DEAD_ZONE_X;
        } else if cx < self.centre.x - DEAD_ZONE_X {
            self.centre.x = cx + DEAD_ZONE_X;
        }
        let feet = drawn.y + hitbox.y;
        if grounded {
            self.target_y = feet - FEET_BELOW_CENTRE;
        }
        if self.reduced_motion {
            self.centre.y = self.target_y;
        } else {
            self.centre.y += (self.target_y - self.centre.y) * (1.0 - (-EASE_RATE * dt.max(0.0)).exp());
        }
        // Never let the player leave the vertical margins.
        let half = VIEW_SIZE.y / 2.0;
        let top = self.centre.y - half + MARGIN_Y;
        let bottom = self.centre.y + half - MARGIN_Y;
        if drawn.y < top {
            self.centre.y -= top - drawn.y;
        } else if feet > bottom {
            self.centre.y += feet - bottom;
        }
        self.clamp(level);
    }

    /// Keep the view inside the level. A level narrower than the view is centred; one shorter
    /// than the view is bottom-aligned (the ground stays at the bottom edge, open sky above).
    fn clamp(&mut self, level: &Level) {
        let size = level.size_px();
        let half = VIEW_SIZE / 2.0;
        self.centre.x =
            if size.x <= VIEW_SIZE.x { size.x / 2.0 } else { self.centre.x.clamp(half.x, size.x - half.x) };
        self.centre.y = if size.y <= VIEW_SIZE.y {
            size.y - half.y
        } else {
            self.centre.y.clamp(half.y, size.y - half.y)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ascii::parse_ascii;

    const HB: DVec2 = crate::level::HITBOX;

    /// A level 200 x 60 tiles (3200 x 960 px), large enough that no clamp applies mid-level.
    fn big() -> Level {
        let mut rows = vec![".".repeat(200); 60];
        rows[30].replace_range(100..101, "P");
        parse_ascii(&rows, 1).unwrap()
    }

    #[test]
    fn dead_zone_keeps_a_constant_offset_at_constant_speed() {
        let l = big();
        let mut c = Camera::new(&l, DVec2::new(1600.0, 480.0), HB);
        let mut offsets = vec![];
        for i in 0..100 {
            let p = DVec2::new(1600.0 + 3.0 * i as f64, 480.0);
            c.follow(&l, p, HB, true, 1.0 / 60.0);
            offsets.push(c.centre.x - p.x);
        }
        assert!(offsets[20..].iter().all(|&o| (o - offsets[20]).abs() < 1e-9));
        assert_eq!(offsets[99], HB.x / 2.0 - DEAD_ZONE_X);
    }

    #[test]
    fn jumping_does_not_move_the_camera_but_landing_higher_does() {
        let l = big();
        let start = DVec2::new(1600.0, 480.0);
        let mut c = Camera::new(&l, start, HB);
        let y0 = c.centre.y;
        // an airborne arc up 40 px and back: the camera stays
        for i in 0..30 {
            let rise = 40.0 * (1.0 - ((i as f64 - 15.0) / 15.0).powi(2));
            c.follow(&l, start - DVec2::new(0.0, rise), HB, false, 1.0 / 60.0);
            assert_eq!(c.centre.y, y0);
        }
        // lands 48 px higher: eases toward the new height
        let high = start - DVec2::new(0.0, 48.0);
        c.follow(&l, high, HB, true, 1.0 / 60.0);
        assert!(c.centre.y < y0 && c.centre.y > y0 - 48.0);
        for _ in 0..120 {
            c.follow(&l, high, HB, true, 1.0 / 60.0);
        }
        assert!((c.centre.y - (y0 - 48.0)).abs() < 0.01);
        // reduced motion: snaps at once
        let mut r = Camera::new(&l, start, HB);
        r.reduced_motion = true;
        r.follow(&l, high, HB, true, 1.0 / 60.0);
        assert_eq!(r.centre.y, y0 - 48.0);
    }

    #[test]
    fn clamps_to_level_bounds_and_bottom_aligns_short_levels() {
        let l = big();
        let c = Camera::new(&l, DVec2::new(0.0, 0.0), HB);
        assert_eq!(c.centre, VIEW_SIZE / 2.0);
        let small = parse_ascii(&["P....".to_string(), "#####".to_string()], 1).unwrap();
        let c = Camera::new(&small, small.spawn, HB);
        assert_eq!(c.centre, DVec2::new(40.0, 32.0 - 180.0));
    }
}
