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

    /// Keep the view inside the level. A level narrower than the view is centred; one shorter
    /// than the view is bottom-aligned (the ground stays at the bottom edge, open sky above).
    fn clamp(&mut self, level: &Level) {
        let size = level.size_px();
        let half = VIEW_SIZE / 2.0;
        self.centre.x = if size.x <= VIEW_SIZE.x { size.x / 2.0 } else { self.centre.x.clamp(half.x, size.x - half.x) };
        self.centre.y = if size.y <= VIEW_SIZE.y { size.y - half.y } else { self.centre.y.clamp(half.y, size.y - half.y) };
    }
}
