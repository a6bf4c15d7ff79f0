//! The camera: follows the *interpolated* player in the same render frame.
//!
//! Clock: render frame. It reads the drawn (interpolated) position after the frame's ticks, so
//! camera and player never jitter against each other (seed 001: "cameras that follow an
//! interpolated object must read the interpolated position"; avian#211, godot PR#76252).
//!
//! Horizontal: a dead zone ([`DEAD_ZONE_X`]) with no smoothing — at constant speed the offset
//! between camera and player is constant. Vertical: platform snapping — the camera's target
//! height changes when the player lands on a new height (not on every jump), and eases there;
//! it also follows at once when the player leaves the vertical margin (long falls). While the
//! player stands on the ground at both ticks a frame blends (riding a lift, say), the camera is
//! carried by the drawn feet's motion since the last frame, as the platform carries its rider:
//! the rider stands still on screen and only a gap left by a landing eases. Both axes
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
    /// The centre's y before the level clamp, pixels: the easing, the carry and the margins
    /// move it, and `centre.y` is it clamped into the level. Kept apart so that a stretch held
    /// at the level's edge leaves no lag behind when the view leaves the edge.
    free_y: f64,
    target_y: f64,
    /// The player's on-ground flag after the previous tick and after the current one (see
    /// [`Camera::after_tick`]). A camera made at a reset (level load, respawn, snap) has seen
    /// no tick: it starts as `[true, true]`, the reset state counted as standing, as a spawn
    /// does (its flag is only set by the first tick), so a spawn on a moving platform is
    /// carried from the first tick on.
    ground: [bool; 2],
    /// The drawn feet's y of the last frame when that frame blended two grounded ticks, pixels.
    carried_feet: Option<f64>,
    /// No easing (reduced-motion option).
    pub reduced_motion: bool,
}

impl Camera {
    /// A camera centred on a player whose hitbox top-left is `player` with size `hitbox`.
    pub fn new(level: &Level, player: DVec2, hitbox: DVec2) -> Self {
        let feet = player.y + hitbox.y;
        let mut c = Camera {
            centre: DVec2::new(player.x + hitbox.x / 2.0, feet - FEET_BELOW_CENTRE),
            free_y: feet - FEET_BELOW_CENTRE,
            target_y: feet - FEET_BELOW_CENTRE,
            ground: [true; 2],
            carried_feet: None,
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

    /// Note the player's discrete on-ground flag after a tick (forward or rewound); frames then
    /// blend the previous tick's state into this one.
    pub fn after_tick(&mut self, on_ground: bool) {
        self.ground = [self.ground[1], on_ground];
    }

    /// Follow the interpolated player (`drawn`, hitbox top-left) for a frame of `dt` seconds
    /// (game seconds: the easing runs on them).
    pub fn follow(&mut self, level: &Level, drawn: DVec2, hitbox: DVec2, dt: f64) {
        let cx = drawn.x + hitbox.x / 2.0;
        if cx > self.centre.x + DEAD_ZONE_X {
            self.centre.x = cx - DEAD_ZONE_X;
        } else if cx < self.centre.x - DEAD_ZONE_X {
            self.centre.x = cx + DEAD_ZONE_X;
        }
        let feet = drawn.y + hitbox.y;
        // Standing through the whole blended span: the ground itself moved the feet (a lift, a
        // reversing platform; 0 on tiles), so the view moves with them, exactly.
        let carried = self.ground == [true, true];
        if let (true, Some(last)) = (carried, self.carried_feet) {
            self.free_y += feet - last;
        }
        self.carried_feet = carried.then_some(feet);
        if self.ground[1] {
            self.target_y = feet - FEET_BELOW_CENTRE;
        }
        if self.reduced_motion {
            self.free_y = self.target_y;
        } else {
            self.free_y += (self.target_y - self.free_y) * (1.0 - (-EASE_RATE * dt.max(0.0)).exp());
        }
        // Never let the player leave the vertical margins.
        let half = VIEW_SIZE.y / 2.0;
        let top = self.free_y - half + MARGIN_Y;
        let bottom = self.free_y + half - MARGIN_Y;
        if drawn.y < top {
            self.free_y -= top - drawn.y;
        } else if feet > bottom {
            self.free_y += feet - bottom;
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
        self.centre.y =
            if size.y <= VIEW_SIZE.y { size.y - half.y } else { self.free_y.clamp(half.y, size.y - half.y) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ascii::parse_ascii;

    const HB: DVec2 = crate::level::HITBOX;

    /// One 60 Hz tick after which the player is at `p`, `grounded`, and one frame drawing it.
    fn tick_and_follow(c: &mut Camera, l: &Level, p: DVec2, grounded: bool) {
        c.after_tick(grounded);
        c.follow(l, p, HB, 1.0 / 60.0);
    }

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
            tick_and_follow(&mut c, &l, p, true);
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
            tick_and_follow(&mut c, &l, start - DVec2::new(0.0, rise), false);
            assert_eq!(c.centre.y, y0);
        }
        // lands 48 px higher: eases toward the new height
        let high = start - DVec2::new(0.0, 48.0);
        tick_and_follow(&mut c, &l, high, true);
        assert!(c.centre.y < y0 && c.centre.y > y0 - 48.0);
        for _ in 0..120 {
            tick_and_follow(&mut c, &l, high, true);
        }
        assert!((c.centre.y - (y0 - 48.0)).abs() < 0.01);
        // reduced motion: snaps at once
        let mut r = Camera::new(&l, start, HB);
        r.reduced_motion = true;
        tick_and_follow(&mut r, &l, high, true);
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

    /// A grounded player whose top is at `y_at(tick)` after each 60 Hz tick, drawn for 900
    /// frames at 144 Hz (each frame blending the last two ticks): per frame, the drawn y and
    /// the camera centre's y after it followed.
    fn ride_at_144_hz(c: &mut Camera, l: &Level, y_at: impl Fn(u32) -> f64) -> Vec<(f64, f64)> {
        let (mut tick, mut frames) = (0u32, vec![]);
        for frame in 1..=900u32 {
            let t = frame as f64 * 60.0 / 144.0;
            while tick < t.floor() as u32 {
                tick += 1;
                c.after_tick(true);
            }
            let alpha = t - t.floor();
            let y = if tick == 0 { y_at(0) } else { y_at(tick - 1) + (y_at(tick) - y_at(tick - 1)) * alpha };
            c.follow(l, DVec2::new(1600.0, y), HB, 1.0 / 144.0);
            frames.push((y, c.centre.y));
        }
        frames
    }

    /// max − min.
    fn spread(v: &[f64]) -> f64 {
        v.iter().fold(f64::MIN, |a, &b| a.max(b)) - v.iter().fold(f64::MAX, |a, &b| a.min(b))
    }

    /// A rider on a lift that starts rising 1 px a tick, drawn at 144 Hz: after the landing it
    /// stands still on screen in every frame, easing on or off; a landing on a new height still
    /// eases.
    #[test]
    fn a_lifted_rider_stands_still_on_screen_in_every_frame() {
        let l = big();
        for reduced in [false, true] {
            let mut c = Camera::new(&l, DVec2::new(1600.0, 480.0 - 48.0), HB);
            c.reduced_motion = reduced;
            // lands 48 px lower onto the lift, which rises from tick 180 (3 s) on
            let frames = ride_at_144_hz(&mut c, &l, |tick| 480.0 - tick.saturating_sub(180) as f64);
            let screen: Vec<f64> = frames.iter().map(|(y, cy)| y - cy).collect();
            // the landing's gap has eased away by 3 s (48 px x e^-24); then the lift rises 195 px,
            // and the camera, carried with the rider, does not lag behind it (with easing alone
            // it would fall 7.5 px behind: speed / EASE_RATE)
            let moved = spread(&screen[432..]);
            assert!(moved < 1e-6, "reduced motion {reduced}: the rider moved {moved} px on screen");
            if !reduced {
                assert!(screen[0] > screen[287] + 1.0, "the landing 48 px lower did not ease");
            }
        }
    }

    /// A rider spawned on a lift near the level's bottom, where the view is held at the
    /// level's edge: once the lift has lifted it far enough for the view to leave the edge, the
    /// rider stands still on screen at once (the clamp held the view, not the easing, so no lag
    /// is left to ease away).
    #[test]
    fn a_rider_lifted_off_the_levels_bottom_edge_stands_still_once_the_view_leaves_it() {
        let l = big();
        let bottom_limit = l.size_px().y - VIEW_SIZE.y / 2.0;
        let mut c = Camera::new(&l, DVec2::new(1600.0, 920.0), HB);
        assert_eq!(c.centre.y, bottom_limit, "the view starts held at the level's bottom");
        let frames = ride_at_144_hz(&mut c, &l, |tick| 920.0 - tick as f64);
        let free: Vec<f64> =
            frames.iter().filter(|(_, cy)| *cy < bottom_limit).map(|(y, cy)| y - cy).collect();
        assert!(free.len() > 400, "the view never left the level's edge");
        let moved = spread(&free);
        assert!(moved < 1e-6, "the rider moved {moved} px on screen after the view left the edge");
    }
}
