//! Unit tests of the loop: the goal portal's drawn angle across ticks, teleports and level
//! loads, the spin kept out of the state hash, and a loop that does not present.
//! Clock: fixed tick and render frame, driven by hand.

use super::*;
use crate::input::Source;
use crate::level::ascii::parse_ascii;
use std::f64::consts::PI;

/// Goal far from the spawn, so nothing ends the level while the player stands.
fn level() -> Level {
    let rows: Vec<String> = ["....................", "..P..............G..", "####################"]
        .iter()
        .map(|r| r.to_string())
        .collect();
    parse_ascii(&rows, 1).expect("test map parses")
}

fn new_loop() -> Loop {
    Loop::new(level(), Tuning::default(), StepperConfig::default()).expect("default config")
}

/// Run 25 ms frames (1.5 ticks each at 60 Hz) up to `until_ns`, then one frame at
/// `until_ns`; returns the last frame's stats.
fn run_until(lp: &mut Loop, from_ns: u64, until_ns: u64) -> FrameStats {
    let mut t = from_ns + 25_000_000;
    while t < until_ns {
        lp.frame(t);
        t += 25_000_000;
    }
    lp.frame(until_ns)
}

fn goal(tick: u64) -> f64 {
    goal_angle(tick, 60)
}

#[test]
fn goal_angle_is_the_short_way_lerp_at_a_mid_tick_alpha() {
    let mut lp = new_loop();
    // 60.5 ticks of 60 Hz: tick 60 (the -π seam of the turn), alpha ≈ 0.5.
    let s = run_until(&mut lp, 0, 1_008_333_333);
    assert_eq!(s.tick, 60);
    assert!((s.alpha - 0.5).abs() < 1e-6, "alpha {}", s.alpha);
    let got = lp.view().goal_angle;
    assert_eq!(got, lerp_angle(goal(59), goal(60), s.alpha));
    // Ticks 59 (3.089 rad) and 60 (-π) are 3° apart across the seam: half way is just
    // short of π, not the long way's ≈ 0.
    let want = goal(59) + PI / 120.0 * s.alpha * 2.0;
    assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    assert!(got > 3.1, "{got}");
}

#[test]
fn a_teleport_does_not_blend_the_goal_angle() {
    let mut lp = new_loop();
    let s = run_until(&mut lp, 0, 250_000_000); // 15 ticks, alpha 0
    assert_eq!((s.tick, s.alpha), (15, 0.0));
    lp.teleport(DVec2::new(100.0, 10.0));
    // One tick (the teleport's) and half a tick banked: drawn at that tick's angle only.
    let s = lp.frame(275_000_000);
    assert_eq!((s.steps, s.alpha), (1, 0.5));
    assert!(lp.ticks_this_frame()[0].respawned);
    assert_eq!(lp.view().goal_angle, goal(16));
    // The next tick blends again, from the teleport tick.
    let s = lp.frame(291_666_667);
    assert_eq!(s.steps, 1);
    assert_eq!(lp.view().goal_angle, lerp_angle(goal(16), goal(17), s.alpha));
    assert!(s.alpha > 0.4 && lp.view().goal_angle > goal(16));
}

#[test]
fn a_level_load_does_not_blend_the_goal_angle() {
    let mut lp = new_loop();
    let s = run_until(&mut lp, 0, 175_000_000); // 10.5 ticks
    assert_eq!((s.tick, s.alpha), (10, 0.5));
    assert_eq!(lp.view().goal_angle, lerp_angle(goal(9), goal(10), 0.5));
    lp.load_level(level());
    assert_eq!(lp.view().goal_angle, goal(10));
    // A frame with no tick moves alpha on (0.8) but has nothing to blend from.
    let s = lp.frame(180_000_000);
    assert_eq!(s.steps, 0);
    assert!(s.alpha > 0.7);
    assert_eq!(lp.view().goal_angle, goal(10));
    // The next tick blends from tick 10 as usual.
    let s = lp.frame(191_666_667);
    assert_eq!((s.steps, s.tick), (1, 11));
    assert_eq!(lp.view().goal_angle, lerp_angle(goal(10), goal(11), s.alpha));
}

#[test]
fn the_spin_stays_out_of_the_state_hash() {
    // Two loops, one drawn at a different alpha: same ticks, same hash (the angle is
    // presentation, derived from the tick).
    let (mut a, mut b) = (new_loop(), new_loop());
    run_until(&mut a, 0, 500_000_000);
    run_until(&mut b, 0, 508_333_333);
    assert_eq!(a.world().tick, b.world().tick);
    assert_ne!(a.view().goal_angle, b.view().goal_angle);
    assert_eq!(a.state_hash(), b.state_hash());
}

#[test]
fn a_loop_that_does_not_present_ticks_the_same_and_snaps_when_presenting_again() {
    let mut shown = new_loop();
    let mut lean = new_loop();
    lean.set_presenting(false);
    for lp in [&mut shown, &mut lean] {
        lp.push_event(0, InputEvent::Press(Source::Keyboard, Action::Right));
        lp.push_event(300_000_000, InputEvent::Press(Source::Keyboard, Action::Jump));
        run_until(lp, 0, 1_000_000_000);
    }
    assert_eq!(lean.state_hash(), shown.state_hash());
    assert_eq!(lean.totals(), shown.totals());
    assert!(lean.world().player.pos.x > level().spawn.x, "it ran");
    assert_eq!(lean.drawn(), level().spawn, "nothing drawn while not presenting");
    lean.set_presenting(true);
    assert_eq!(lean.drawn(), lean.world().player.pos, "snapped to where the player is");
}

#[test]
fn a_full_look_history_reuses_its_oldest_slot_and_keeps_exact_copies() {
    use crate::cosmetic::Cosmetic;
    let lp = new_loop();
    let (fading, quiet) = (Cosmetic::level_start(&lp.world, 60), Cosmetic::quiet(&lp.world));
    assert_ne!(fading, quiet);
    let camera = lp.camera.state();
    let mut history = look::LookHistory::new(2);
    history.record_from(camera, &fading);
    history.record_from(camera, &quiet);
    // Full: the oldest slot (holding `fading`) takes a copy of `quiet` by `clone_from`.
    history.record_from(camera, &quiet);
    history.record_from(camera, &fading);
    assert_eq!(history.step_back().map(|l| &l.cosmetic), Some(&quiet));
    assert_eq!(history.step_back().map(|l| &l.cosmetic), Some(&quiet), "the oldest look stays");
}
