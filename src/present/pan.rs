//! The title screen's moving background: a camera that pans slowly across a level and back,
//! as a function of the seconds the title has been open.
//!
//! Clock: render frame (wall seconds passed in by the app). Presentation only: the level is
//! drawn by the same renderer as in play, no world is stepped, nothing reaches a state hash.

use super::camera::Camera;
use crate::level::{HITBOX, Level, TILE};
use glam::DVec2;

/// Pan speed at the middle of a sweep, level pixels per second.
pub const PAN_SPEED: f64 = 40.0;

/// The title camera's centre after `t_s` seconds: from the level's left end to its right end
/// and back, easing at both ends (a cosine, so it never jumps), at the spawn's height, kept
/// inside the level like the play camera ([`Camera::new`]). `still` (reduced motion): it stays
/// at the start.
pub fn title_camera(level: &Level, t_s: f64, still: bool) -> DVec2 {
    let width = level.width as f64 * TILE;
    let span = width.max(1.0);
    // A cosine sweep of amplitude span/2 peaks at speed PAN_SPEED when its period is this.
    let period = std::f64::consts::PI * span / PAN_SPEED;
    let t = if still { 0.0 } else { t_s };
    let x = span * 0.5 * (1.0 - (std::f64::consts::TAU * t / period).cos());
    Camera::new(level, DVec2::new(x - HITBOX.x / 2.0, level.spawn.y), HITBOX).centre
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ascii::parse_ascii;

    #[test]
    fn pans_across_and_back_inside_the_level() {
        let wide = format!("{}G", "P".to_owned() + &".".repeat(98));
        let rows: Vec<String> = vec![wide, "#".repeat(100)];
        let level = parse_ascii(&rows, 1).expect("level");
        let start = title_camera(&level, 0.0, false);
        assert_eq!(start.x, 320.0, "the left end, clamped to half the view");
        let width = level.width as f64 * TILE;
        let half = std::f64::consts::PI * width / PAN_SPEED / 2.0;
        assert_eq!(title_camera(&level, half, false).x, width - 320.0, "the right end");
        let step = (title_camera(&level, half / 2.0 + 1.0 / 60.0, false)
            - title_camera(&level, half / 2.0, false))
        .x;
        assert!(step > 0.0 && step <= PAN_SPEED / 60.0 + 1e-9, "moves at most PAN_SPEED: {step}");
        assert_eq!(title_camera(&level, 7.0, true), start, "reduced motion: still");
    }
}
