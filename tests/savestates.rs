//! Savestates in the lab (LAB.md Version 4 "Savestates"): a load ends on the straight run's
//! hash whatever happened in between (a death, a crumble), snaps the picture, keeps held input
//! live, survives every re-cut, and is refused where it cannot mean anything.
//!
//! Clock: the lab's scripted clock.

mod common;

use common::lab::{options, run};
use ledge::lab::recut::{Recut, run_recut};
use ledge::lab::report::Report;
use ledge::lab::run_script;
use ledge::lab::synctest::run_synctest;
use std::path::Path;

/// A floor with a crumbling block under the spawn, a checkpoint and spikes ahead, and room for
/// the camera to move (the level is wider than the view).
const MAP: &str = "map
................................................................................
................................................................................
................................................................................
................................................................................
................................................................................
................................................................................
................................................................................
................................................................................
..P...........................C.........^^......................................
################################################################################
end
entity crumble x=24 y=144 w=32 delay=0.3 back=0
";

fn lab(body: &str) -> Report {
    let text = format!("{MAP}{body}");
    run(&text, &options("savestates", Path::new("."), false))
}

/// Walk right from 0.5 s; 1 s of 50 ms frames is tick 60 (standing, the crumble touched).
const STRAIGHT: &str = "press right @500\nframe 50 x20\n";

#[test]
fn a_load_after_a_death_and_a_crumble_ends_on_the_straight_runs_hash() {
    let straight = lab(STRAIGHT);
    let loaded = lab(&format!("{STRAIGHT}savestate a\nframe 50 x80\nloadstate a\nframe 16.666667\n"));
    let ticks = loaded.ticks.as_deref().expect("full report");
    assert!(loaded.summary.deaths >= 1, "the run died on the spikes before loading");
    let broke = ticks.iter().any(|t| t.entities.iter().any(|e| e.state == "broken"));
    assert!(broke, "the crumble broke before the load");
    let last = ticks.last().expect("ticks");
    assert!(last.loaded && last.tick == 60, "the last tick is the load, back at tick 60");
    assert!(last.entities.iter().all(|e| e.state != "broken"), "the crumble is whole again");
    assert_eq!(loaded.summary.state_hash, straight.summary.state_hash);
    assert_eq!(loaded.summary.totals.loaded_ticks, 1);
    // The run's statistics keep counting through the load.
    assert_eq!(loaded.summary.deaths, ticks.iter().filter(|t| t.died).count() as u64);
}

#[test]
fn a_load_across_a_respawn_snaps_the_picture_to_the_saved_tick() {
    let straight = lab(STRAIGHT);
    let saved = straight.ticks.as_deref().expect("ticks").last().expect("a tick").clone();
    // Far right, dead and respawned at the checkpoint meanwhile; the load's frame is drawn
    // mid-tick, at two different alphas.
    let after_load = |ms: &str| {
        let r = lab(&format!("{STRAIGHT}savestate a\nframe 50 x80\nloadstate a\nframe {ms}\n"));
        let frames = r.frames.expect("frames");
        (frames[frames.len() - 2].clone(), frames.last().expect("a frame").clone())
    };
    let (before, got) = after_load("25");
    let (_, other) = after_load("29");
    assert!(got.stats.alpha > 0.4 && other.stats.alpha > got.stats.alpha + 0.2, "drawn mid-tick");
    assert!((before.stats.drawn.x - saved.player.x).abs() > 300.0, "the runner had gone far away");
    assert!((before.stats.camera.x - got.stats.camera.x).abs() > 100.0, "the camera had moved too");
    // Nothing is blended across the jump: at any alpha the runner is drawn exactly where the
    // saved tick left it, and the camera and the view do not move within the tick.
    assert_eq!((got.stats.drawn.x, got.stats.drawn.y), (saved.player.x, saved.player.y));
    assert_eq!(got.stats.drawn, other.stats.drawn);
    assert_eq!(got.stats.camera, other.stats.camera);
    assert_eq!(got.view, other.view);
    assert_eq!(got.drawn_entities, other.drawn_entities);
    let crumble = got.drawn_entities.as_deref().expect("entities")[0];
    let kept = &saved.entities[0];
    assert_eq!((crumble.x, crumble.y), (kept.x, kept.y), "the crumble is drawn where it was saved");
}

#[test]
fn held_input_stays_live_across_a_load_and_its_presses_go_nowhere() {
    // Right is held through the load; jump is pressed in the load tick itself.
    let r = lab(&format!(
        "{STRAIGHT}savestate a\nframe 50 x4\nloadstate a\npress jump +1\nframe 16.666667\nframe 16.666667 x5\n"
    ));
    let ticks = r.ticks.as_deref().expect("ticks");
    let at = ticks.iter().position(|t| t.loaded).expect("a load tick");
    assert!(ticks[at + 1..].iter().all(|t| t.player.vx > 0.0), "right is still held after the load");
    assert!(ticks[at..].iter().all(|t| !t.jump_started), "a press in the load tick fires nowhere");
    assert!(ticks[at + 1..].iter().all(|t| t.player.on_ground), "no jump after the load either");
}

#[test]
fn every_recut_of_a_script_that_loads_ends_on_the_same_hash() {
    let text = format!("{MAP}{STRAIGHT}savestate a\nframe 50 x30\nloadstate a\nframe 50 x10\n");
    let opts = options("savestates", Path::new("."), true);
    let plain = run(&text, &opts).summary.state_hash;
    for recut in ["30", "60", "144", "240", "jitter:3", "jitter:11"] {
        let cut: Recut = recut.parse().expect("a re-cut");
        let r = run_recut(&text, &opts, cut, &mut |_, _| Ok(())).expect("the re-cut runs");
        assert_eq!(r.summary.state_hash, plain, "--recut {recut}");
        assert_eq!(r.summary.totals.loaded_ticks, 1, "--recut {recut}");
    }
}

#[test]
fn a_bad_or_unknown_name_and_a_sync_test_are_refused_with_one_line() {
    let opts = options("s.lab", Path::new("."), true);
    for (body, want) in [
        ("frame 16\nloadstate nope\n", "s.lab:15: loadstate nope: no 'savestate nope' line before it"),
        ("frame 16\nloadstate a\nsavestate a\n", "s.lab:15: loadstate a: no 'savestate a' line"),
        ("savestate a/b\n", "s.lab:14: savestate: NAME must be 1 to 64 letters"),
        ("savestate\n", "s.lab:14: savestate: missing NAME"),
        ("savestate a b\n", "s.lab:14:"),
    ] {
        let e = run_script(&format!("{MAP}{body}"), &opts).expect_err(body);
        assert!(e.to_string().starts_with(want), "{body}: {e}");
        assert!(!e.to_string().contains('\n'), "{e}");
    }
    let text = format!("{MAP}{STRAIGHT}savestate a\nframe 50\nloadstate a\nframe 50\n");
    let e = run_synctest(&text, &opts, 7).expect_err("a sync test of a load");
    assert!(e.to_string().contains("savestates are off in a rollback session"), "{e}");
}
