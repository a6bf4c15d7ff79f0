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
//! clamp to the level bounds (a level smaller than the view is centred). Reduced motion
//! removes the easing.

use crate::level::Level;
use crate::render::view::VIEW_SIZE;
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

    fn clamp(&mut self, level: &Level) {
        let size = level.size_px();
        for (c, extent, view) in [(&mut self.centre.x, size.x, VIEW_SIZE.x), (&mut self.centre.y, size.y, VIEW_SIZE.y)] {
            *c = if extent <= view { extent / 2.0 } else { c.clamp(view / 2.0, extent - view / 2.0) };
        }
    }
}
