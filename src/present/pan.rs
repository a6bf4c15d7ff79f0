//! The title screen's moving background: a camera that pans slowly across a level and back,
//! as a function of the seconds the title has been open.
//!
//! Clock: fixed tick. The app evaluates it at the title's previous and current tick (seconds
//! = ticks / tick_hz) and blends the two with the frame's alpha (`app/title.rs`), so the pan
//! advances on ticks like the level's entities it shows. Presentation only: nothing reaches a
//! state hash.

use super::camera::Camera;
use super::view::VIEW_SIZE;
use crate::level::{HITBOX, Level, TILE};
use glam::DVec2;

/// Pan speed at the middle of a sweep, level pixels per second.
pub const PAN_SPEED: f64 = 40.0;

/// The title camera's centre after `t_s` seconds: it starts mid-level moving right at
/// [`PAN_SPEED`], eases to a stop at the right end, goes back to the left end and so on (a
/// sine, so it never jumps), at the spawn's height, kept inside the level like the play
/// camera ([`Camera::new`]). `still` (reduced motion): it stays where it starts.
pub fn title_camera(level: &Level, t_s: f64, still: bool) -> DVec2 {
    let half_view = VIEW_SIZE.x / 2.0;
    let (lo, hi) = (half_view, (level.width as f64 * TILE - half_view).max(half_view));
    let amp = (hi - lo) / 2.0;
    let t = if still { 0.0 } else { t_s };
    // x = mid + amp sin(w t): the peak speed amp * w is PAN_SPEED.
    let x = if amp > 0.0 { lo + amp + amp * (PAN_SPEED / amp * t).sin() } else { lo };
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
        let (lo, hi) = (320.0, 1600.0 - 320.0);
        let start = title_camera(&level, 0.0, false);
        assert_eq!(start.x, (lo + hi) / 2.0, "starts mid-level");
        let amp: f64 = (hi - lo) / 2.0;
        let quarter = std::f64::consts::FRAC_PI_2 * amp / PAN_SPEED;
        assert!((title_camera(&level, quarter, false).x - hi).abs() < 1e-6, "the right end");
        assert!((title_camera(&level, 3.0 * quarter, false).x - lo).abs() < 1e-6, "the left end");
        let step = (title_camera(&level, 1.0 / 60.0, false) - start).x;
        assert!(step > 0.0 && step <= PAN_SPEED / 60.0 + 1e-9, "moves right at most PAN_SPEED: {step}");
        assert_eq!(title_camera(&level, 7.0, true), start, "reduced motion: still");
    }
}
