//! Sprite rotation as presentation: angles that are pure functions of the tick count, and the
//! short-way interpolation that draws them between two ticks.
//!
//! Clock: fixed tick for the angles ([`goal_angle`] of a tick number: no state of its own, so
//! nothing enters `World` or its state hash and a replay draws the same angles), render frame
//! for [`lerp_angle`] (`lerp_angle(angle(prev tick), angle(current tick), alpha)`, the angular
//! form of the loop's `lerp(prev, curr, alpha)`; never extrapolated). Pure: no wgpu, so the
//! loop and the lab use it.
//!
//! Angles are radians, wrapped into [-π, π) ([`wrap_angle`]); positive turns clockwise on
//! screen (y grows downward).

use std::f64::consts::{PI, TAU};

/// Seconds for one full turn of the goal portal: 2 s (180°/s, 3° a tick at 60 Hz). Chosen by
/// eye: slow enough that the 16 px door stays readable as a door while it turns, fast enough to
/// catch the eye as "the thing to reach" from across the view.
pub const GOAL_TURN_SECONDS: u32 = 2;

/// Ticks in one turn of the goal at `tick_hz` ticks per second: `GOAL_TURN_SECONDS * tick_hz`
/// (120 at 60 Hz), so the turn takes the same wall time at any tick rate. At least 1.
pub fn goal_period_ticks(tick_hz: u32) -> u64 {
    (u64::from(GOAL_TURN_SECONDS) * u64::from(tick_hz)).max(1)
}

/// `angle` (radians, any finite value) wrapped into [-π, π). A value already in range comes
/// back unchanged (bit for bit); a non-finite one comes back as it is.
pub fn wrap_angle(angle: f64) -> f64 {
    if (-PI..PI).contains(&angle) || !angle.is_finite() {
        return angle;
    }
    let a = (angle + PI).rem_euclid(TAU) - PI;
    // rem_euclid can round up to TAU itself (a tiny negative remainder plus TAU).
    if a >= PI { a - TAU } else { a }
}

/// The angle, radians in [-π, π), of a sprite turning once every `period_ticks` ticks, at tick
/// `tick`: `2π · (tick mod period) / period`, wrapped. Integer modulo first, so it is exact and
/// periodic at any tick count (no `f64` drift after hours of play). A `period_ticks` of 0 reads
/// as 1 (always 0 rad).
pub fn turn_angle(tick: u64, period_ticks: u64) -> f64 {
    let period = period_ticks.max(1);
    let phase = (tick % period) as f64 / period as f64;
    wrap_angle(TAU * phase)
}

/// The goal portal's angle at tick `tick` of a `tick_hz` clock: one turn every
/// [`GOAL_TURN_SECONDS`] ([`turn_angle`] with [`goal_period_ticks`]). Radians in [-π, π).
pub fn goal_angle(tick: u64, tick_hz: u32) -> f64 {
    turn_angle(tick, goal_period_ticks(tick_hz))
}

/// Interpolate from angle `prev` to angle `curr` (radians) by `alpha` in [0, 1], the short way
/// round: the step `curr - prev` is first wrapped into [-π, π), then `prev + step · alpha` is
/// wrapped into [-π, π). So 3.0 → -3.0 passes through ±π (a 0.28 rad step), never through 0.
///
/// `alpha` 0 gives `prev` exactly (when `prev` is in range); `alpha` 1 gives `curr` up to
/// rounding (≤ 1e-15 rad). Exactly half a turn apart, the step is -π (the wrap's half-open
/// range): the sprite turns counter-clockwise on screen. The loop's alpha is in [0, 1), so
/// this never extrapolates.
pub fn lerp_angle(prev: f64, curr: f64, alpha: f64) -> f64 {
    let step = wrap_angle(curr - prev);
    wrap_angle(prev + step * alpha)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EPS: f64 = 1e-12;

    /// The same angle, allowing for the ±π seam (π and -π are one angle).
    fn same_angle(a: f64, b: f64) -> bool {
        wrap_angle(a - b).abs() < EPS
    }

    #[test]
    fn short_way_across_the_seam() {
        // 3.0 → -3.0 is a 0.283 rad step through π, not a 6 rad step through 0.
        let mid = lerp_angle(3.0, -3.0, 0.5);
        assert!((mid.abs() - PI).abs() < EPS, "{mid}");
        assert!((-PI..PI).contains(&mid));
        // And the other way round.
        let mid = lerp_angle(-3.0, 3.0, 0.5);
        assert!((mid.abs() - PI).abs() < EPS, "{mid}");
        // A quarter of the way from 3.0 to -3.0 is past 3.0, still positive.
        let q = lerp_angle(3.0, -3.0, 0.25);
        assert!((q - (3.0 + (TAU - 6.0) * 0.25)).abs() < EPS, "{q}");
        // Three quarters: past the seam, negative.
        let q = lerp_angle(3.0, -3.0, 0.75);
        assert!(same_angle(q, 3.0 + (TAU - 6.0) * 0.75) && q < 0.0, "{q}");
    }

    #[test]
    fn endpoints() {
        for (a, b) in [(3.0, -3.0), (-1.0, 2.0), (0.0, 0.1), (-PI, 3.1), (1.5, -1.5)] {
            assert_eq!(lerp_angle(a, b, 0.0), a, "alpha 0 is prev exactly");
            assert!(same_angle(lerp_angle(a, b, 1.0), b), "alpha 1 is curr: {a} {b}");
        }
    }

    #[test]
    fn equal_angles_stay_put() {
        for a in [-PI, -1.0, 0.0, 0.5, 3.0] {
            for t in [0.0, 0.3, 0.5, 0.99] {
                assert_eq!(lerp_angle(a, a, t), a);
            }
        }
    }

    #[test]
    fn half_turn_goes_counter_clockwise() {
        // Documented choice: a step of exactly π wraps to -π.
        assert_eq!(lerp_angle(0.0, PI, 0.5), -PI / 2.0);
        assert_eq!(lerp_angle(PI / 2.0, -PI / 2.0, 0.5), 0.0);
        assert!((lerp_angle(-PI / 2.0, PI / 2.0, 0.5) - -PI).abs() < EPS);
    }

    #[test]
    fn small_steps_are_plain_lerp() {
        let got = lerp_angle(0.2, 0.5, 0.5);
        assert!((got - 0.35).abs() < EPS);
        let got = lerp_angle(0.5, 0.2, 0.25);
        assert!((got - 0.425).abs() < EPS);
    }

    #[test]
    fn wrap_into_half_open_range() {
        assert_eq!(wrap_angle(0.0), 0.0);
        assert_eq!(wrap_angle(3.0), 3.0, "in range: unchanged");
        assert_eq!(wrap_angle(-PI), -PI);
        assert_eq!(wrap_angle(PI), -PI, "π itself is out of [-π, π)");
        assert!((wrap_angle(TAU + 1.0) - 1.0).abs() < EPS);
        assert!((wrap_angle(-TAU - 1.0) - -1.0).abs() < EPS);
        assert!((wrap_angle(-3.0 * PI) - -PI).abs() < EPS);
        for i in -1000..1000 {
            let a = wrap_angle(f64::from(i) * 0.37);
            assert!((-PI..PI).contains(&a), "{i}: {a}");
        }
    }

    #[test]
    fn turn_angle_wraps_and_repeats() {
        let p = 120;
        assert_eq!(turn_angle(0, p), 0.0);
        assert!((turn_angle(30, p) - PI / 2.0).abs() < EPS);
        assert_eq!(turn_angle(60, p), -PI, "half a turn is -π, inside [-π, π)");
        assert!((turn_angle(90, p) - -PI / 2.0).abs() < EPS);
        assert!((turn_angle(119, p) - -TAU / 120.0).abs() < EPS);
        for t in 0..2 * p {
            let a = turn_angle(t, p);
            assert!((-PI..PI).contains(&a), "{t}: {a}");
            assert_eq!(a, turn_angle(t + p, p), "period");
        }
        // Exact after an enormous tick count (integer modulo before the float).
        assert_eq!(turn_angle(u64::MAX - u64::MAX % p - p + 30, p), turn_angle(30, p));
        assert_eq!(turn_angle(7, 0), 0.0);
    }

    #[test]
    fn goal_turns_once_every_two_seconds_at_any_tick_rate() {
        assert_eq!(goal_period_ticks(60), 120);
        assert_eq!(goal_period_ticks(144), 288);
        assert_eq!(goal_period_ticks(0), 1);
        // A quarter turn after half a second, at 60 and at 64 Hz.
        assert!((goal_angle(30, 60) - PI / 2.0).abs() < EPS);
        assert!((goal_angle(32, 64) - PI / 2.0).abs() < EPS);
        // One tick's step at 60 Hz is 3°.
        assert!((goal_angle(1, 60) - 3f64.to_radians()).abs() < EPS);
    }
}
