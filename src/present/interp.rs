//! Interpolation between the last two ticks: the one formula every drawn body goes through.
//!
//! Clock: render frame. `alpha` is the stepper's remainder / dt after the frame's ticks, in
//! [0, 1) (Gaffer on Games, "Fix Your Timestep!": `state = current·α + previous·(1 − α)`);
//! never extrapolated.

use glam::DVec2;

/// The position drawn this frame, pixels: `prev + (curr − prev)·alpha`.
///
/// Written as a difference rather than glam's `prev·(1 − α) + curr·α` so that a body that did
/// not move is drawn exactly where it is (`lerp(p, p, α) == p` for every α; the two-product
/// form draws a player standing at x = 50 at 50.00000000000001), and `alpha` 0 gives `prev`
/// exactly.
pub fn lerp(prev: DVec2, curr: DVec2, alpha: f64) -> DVec2 {
    prev + (curr - prev) * alpha
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_that_did_not_move_is_drawn_exactly_where_it_is() {
        let p = DVec2::new(50.0, 266.0);
        for i in 0..1000 {
            let alpha = f64::from(i) / 1000.0;
            assert_eq!(lerp(p, p, alpha), p, "alpha {alpha}");
        }
        // What glam's two-product form gives for the same numbers (the reason for this function).
        assert_eq!(p.lerp(p, 0.021).x, 49.99999999999999);
    }

    #[test]
    fn alpha_zero_is_the_previous_tick_and_the_path_is_straight() {
        let (a, b) = (DVec2::new(10.25, -3.5), DVec2::new(13.75, 2.0));
        assert_eq!(lerp(a, b, 0.0), a);
        assert_eq!(lerp(a, b, 0.5), DVec2::new(12.0, -0.75));
        let mid = lerp(a, b, 0.999_999);
        assert!((mid - b).length() < 1e-5 && mid.x < b.x, "approaches curr from prev: {mid}");
    }
}
