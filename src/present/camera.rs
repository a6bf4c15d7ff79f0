//! The camera: a body of its own on the fixed tick, drawn at `lerp(previous, current, alpha)`.
//!
//! Clock: fixed tick. [`Camera::after_tick`] advances it once per tick (forward) from the
//! tick's player state — the dead zone, platform snapping, easing (in ticks), margins and level
//! clamp are all computed there — and a frame only blends the previous and current tick's
//! centres with its one alpha ([`Camera::draw`]), exactly as every body is drawn. So what a frame
//! shows of the camera is a pure function of the ticks run so far and alpha (LAB.md Version 3):
//! a 240 Hz display and a 30 Hz one show the same view at the same (tick, alpha), which a
//! frame-clock camera cannot (Godot #95869: Camera2D smoothing runs faster above 60 Hz). A
//! rewind tick restores the state kept after the tick it goes back to ([`Camera::restore`]).
//!
//! Horizontal: a dead zone ([`DEAD_ZONE_X`]) with no smoothing — at constant speed the offset
//! between camera and player is constant. Vertical: platform snapping — the camera's target
//! height changes when the player lands on a new height (not on every jump), and eases there;
//! it also follows at once when the player leaves the vertical margin (long falls). While the
//! player stands on the ground at both ends of a tick (riding a lift, say), the camera is
//! carried by the feet's motion in that tick, as the platform carries its rider: blended with
//! the same alpha as the rider, the rider stands still on screen by construction, and only a
//! gap left by a landing eases. Both axes clamp to the level bounds (a level narrower than the
//! view is centred, a shorter one bottom-aligned); a blend of two clamped centres stays inside
//! the bounds. Reduced motion removes the easing.

use crate::level::Level;
use crate::present::interp::lerp;
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

/// Easing rate toward a new platform height, 1/s of game time: the gap shrinks by e every
/// 1/8 s. Applied per tick as the factor `1 − exp(−EASE_RATE / tick_hz)` (the exact
/// discretisation of `dy/dt = −EASE_RATE · y`, so the tick rate does not change the curve).
pub const EASE_RATE: f64 = 8.0;

/// The camera after one tick: what the rewind history keeps, and one end of a frame's blend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraState {
    /// Centre of the visible area, level pixels, clamped into the level.
    pub centre: DVec2,
    /// The centre's y before the level clamp, pixels: the easing, the carry and the margins
    /// move it, and `centre.y` is it clamped into the level. Kept apart so that a stretch held
    /// at the level's edge leaves no lag behind when the view leaves the edge.
    free_y: f64,
    /// The height the camera eases to: the feet of the last ground the player stood on, minus
    /// [`FEET_BELOW_CENTRE`], pixels.
    target_y: f64,
    /// The player stood on something after this tick. A state made at a reset (level load,
    /// respawn, snap) counts as standing, as a spawn does, so a spawn on a moving platform is
    /// carried from the first tick on.
    on_ground: bool,
    /// The player's feet (hitbox bottom) after this tick, pixels.
    feet: f64,
}

impl CameraState {
    /// Centred on a player whose hitbox top-left is `player` with size `hitbox`, clamped.
    fn on(level: &Level, player: DVec2, hitbox: DVec2) -> Self {
        let feet = player.y + hitbox.y;
        let y = feet - FEET_BELOW_CENTRE;
        let mut s = CameraState {
            centre: DVec2::new(player.x + hitbox.x / 2.0, y),
            free_y: y,
            target_y: y,
            on_ground: true,
            feet,
        };
        s.clamp(level);
        s
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

/// The camera: the previous and current tick's [`CameraState`], and the centre last drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The state after the previous tick (equal to `curr` right after a reset).
    prev: CameraState,
    /// The state after the current tick.
    curr: CameraState,
    /// The centre as last drawn: `lerp(prev.centre, curr.centre, alpha)`, level pixels.
    pub centre: DVec2,
    /// No easing (reduced-motion option).
    pub reduced_motion: bool,
}

impl Camera {
    /// A camera centred on a player whose hitbox top-left is `player` with size `hitbox`.
    pub fn new(level: &Level, player: DVec2, hitbox: DVec2) -> Self {
        let s = CameraState::on(level, player, hitbox);
        Camera { prev: s, curr: s, centre: s.centre, reduced_motion: false }
    }

    /// Jump straight to the player (respawn, level load, teleport): no easing, no dead-zone
    /// lag, nothing to blend from.
    pub fn snap(&mut self, level: &Level, player: DVec2, hitbox: DVec2) {
        let reduced = self.reduced_motion;
        *self = Camera::new(level, player, hitbox);
        self.reduced_motion = reduced;
    }

    /// Advance one forward tick after which the player's hitbox top-left is `player` (size
    /// `hitbox`), standing or not (`on_ground`), at `tick_hz` ticks a second.
    pub fn after_tick(&mut self, level: &Level, player: DVec2, hitbox: DVec2, on_ground: bool, tick_hz: u32) {
        self.prev = self.curr;
        let s = &mut self.curr;
        let cx = player.x + hitbox.x / 2.0;
        if cx > s.centre.x + DEAD_ZONE_X {
            s.centre.x = cx - DEAD_ZONE_X;
        } else if cx < s.centre.x - DEAD_ZONE_X {
            s.centre.x = cx + DEAD_ZONE_X;
        }
        let feet = player.y + hitbox.y;
        // Standing at both ends of the tick: the ground itself moved the feet (a lift, a
        // reversing platform; 0 on tiles), so the view moves with them, exactly.
        if s.on_ground && on_ground {
            s.free_y += feet - s.feet;
        }
        s.on_ground = on_ground;
        s.feet = feet;
        if on_ground {
            s.target_y = feet - FEET_BELOW_CENTRE;
        }
        if self.reduced_motion {
            s.free_y = s.target_y;
        } else {
            let k = 1.0 - (-EASE_RATE / f64::from(tick_hz.max(1))).exp();
            s.free_y += (s.target_y - s.free_y) * k;
        }
        // Never let the player leave the vertical margins.
        let half = VIEW_SIZE.y / 2.0;
        let top = s.free_y - half + MARGIN_Y;
        let bottom = s.free_y + half - MARGIN_Y;
        if player.y < top {
            s.free_y -= top - player.y;
        } else if feet > bottom {
            s.free_y += feet - bottom;
        }
        s.clamp(level);
    }

    /// The state after the current tick: what the rewind history keeps.
    pub fn state(&self) -> CameraState {
        self.curr
    }

    /// A rewind tick went back to a tick after which the camera was `kept`: blend from where
    /// it is now to there (a motion backwards, like every body), or, when the step crossed a
    /// reset (`jumped`), snap there.
    pub fn restore(&mut self, kept: CameraState, jumped: bool) {
        self.prev = if jumped { kept } else { self.curr };
        self.curr = kept;
    }

    /// Draw the frame: the centre at `lerp(previous, current, alpha)` ([`Camera::centre`]).
    pub fn draw(&mut self, alpha: f64) -> DVec2 {
        self.centre = lerp(self.prev.centre, self.curr.centre, alpha);
        self.centre
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ascii::parse_ascii;

    const HB: DVec2 = crate::level::HITBOX;

    /// One 60 Hz tick after which the player is at `p`, `grounded`, and a frame drawing it at
    /// alpha 1 (the current tick's state).
    fn tick_and_follow(c: &mut Camera, l: &Level, p: DVec2, grounded: bool) {
        c.after_tick(l, p, HB, grounded, 60);
        c.draw(1.0);
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
        let mut c = Camera::new(&l, DVec2::new(0.0, 0.0), HB);
        assert_eq!(c.centre, VIEW_SIZE / 2.0);
        // Far outside on every side: the blend of two clamped states stays clamped.
        c.after_tick(&l, DVec2::new(-900.0, -900.0), HB, false, 60);
        for a in [0.0, 0.3, 0.99] {
            assert_eq!(c.draw(a), VIEW_SIZE / 2.0);
        }
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
                c.after_tick(l, DVec2::new(1600.0, y_at(tick)), HB, true, 60);
            }
            let alpha = t - t.floor();
            let y = if tick == 0 { y_at(0) } else { y_at(tick - 1) + (y_at(tick) - y_at(tick - 1)) * alpha };
            let drawn = c.draw(if tick == 0 { 0.0 } else { alpha });
            frames.push((y, drawn.y));
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
            // airborne 48 px above the lift (a standing player cannot drop 48 px in a tick)
            c.after_tick(&l, DVec2::new(1600.0, 480.0 - 48.0), HB, false, 60);
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

    /// The drawn centre is the straight line between the two ticks' centres, whatever alpha a
    /// frame brings; a rewind blends back to the kept state, and one across a reset snaps.
    #[test]
    fn frames_blend_two_tick_states_and_a_rewind_restores_one() {
        let l = big();
        let mut c = Camera::new(&l, DVec2::new(1600.0, 480.0), HB);
        let kept = c.state();
        for i in 1..=20 {
            c.after_tick(&l, DVec2::new(1600.0 + 6.0 * i as f64, 480.0 - 3.0 * i as f64), HB, false, 60);
        }
        let before = c.state();
        c.after_tick(&l, DVec2::new(1730.0, 400.0), HB, false, 60);
        let after = c.state();
        for a in [0.0, 0.25, 0.5, 0.9] {
            assert_eq!(c.draw(a), lerp(before.centre, after.centre, a));
        }
        c.restore(before, false);
        assert_eq!(c.draw(0.0), after.centre, "a rewind tick blends from where it was");
        assert_eq!(c.draw(1.0), before.centre);
        c.restore(kept, true);
        assert_eq!(c.draw(0.3), kept.centre, "across a reset: snapped");
    }
}
