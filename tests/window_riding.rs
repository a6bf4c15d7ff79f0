//! A player riding a moving platform, as a player sees it: the real game binary in a real X
//! window on a private Xvfb server (`tests/common/xvfb.rs`), on
//! `tests/fixtures/levels/riding.tmx`, where the player spawns standing on a solid platform
//! that carries it right at 60 px/s across a level larger than the view. Nothing is pressed.
//! The game's own `--stats` measure the frames it drew ([`ledge::present::ride_stats`]):
//!
//! - in every drawn frame blending two riding ticks, (drawn platform − drawn player) is the
//!   same: `ride_offset_spread_x/_y` are 0 (no jitter between rider and platform);
//! - in every such frame in which the camera moved, the rider's position on screen is the
//!   same: `ride_screen_spread_x/_y` are 0 (the camera follows the interpolated rider, so on
//!   screen the rider stands still while the platform carries both).
//!
//! Three runs: `--fps-cap 144`, `--fps-cap 60`, and `--fps-cap 144 --hitch 45@0.7` (a 45 ms
//! stall every 0.7 s: frames of very different lengths, several ticks in one frame); and a
//! rising platform (`riding-up.tmx`) at `--fps-cap 144`, camera easing on.
//!
//! The runs hold the windowed tests' lock ([`serial`]) and take about 8 s each.
//!
//! Clock: wall time (real processes, real sleeps).

mod common;

use common::exit::{exit_stats, stat};
use common::root;
use common::scratch::Scratch;
use common::xvfb::{Xvfb, serial};

/// Run the game on `riding.tmx` with `extra` flags for about 6 s; check the riding stats.
fn ride(extra: &[&str]) {
    let s = ride_on("riding.tmx", extra);
    assert!(stat(&s, "player_x") > stat(&s, "start_x") + 150.0, "the platform did not carry the player");
}

/// Run the game on fixture `level` with `extra` flags for about 6 s, riding without input;
/// check the riding stats (both offset spreads and both screen spreads 0); returns the stats.
fn ride_on(level: &str, extra: &[&str]) -> serde_json::Value {
    let _serial = serial();
    let scratch = Scratch::new("riding");
    let level = root().join("tests/fixtures/levels").join(level);
    let stats = scratch.path("stats.json");
    let x = Xvfb::start();
    let level_arg = level.to_str().expect("utf-8 path");
    let stats_arg = stats.to_str().expect("utf-8 temp path");
    let mut args = vec!["--level", level_arg, "--exit-after", "6", "--stats", stats_arg];
    args.extend_from_slice(extra);
    let mut game = x.game(&scratch, &args);
    let win = x.wait_window(&mut game);
    x.focus(&win);
    let (s, ctx) = exit_stats(game, &stats);
    let ctx = format!(" ({extra:?}){ctx}");
    let frames = stat(&s, "ride_frames");
    let camera_frames = stat(&s, "ride_camera_frames");
    eprintln!(
        "{extra:?}: {} frames, {frames} riding, {camera_frames} with the camera moving; \
         offset spread ({}, {}), screen spread ({}, {})",
        stat(&s, "frames"),
        stat(&s, "ride_offset_spread_x"),
        stat(&s, "ride_offset_spread_y"),
        stat(&s, "ride_screen_spread_x"),
        stat(&s, "ride_screen_spread_y"),
    );
    assert_eq!(stat(&s, "respawns"), 0.0, "the rider died{ctx}");
    assert!(frames >= 60.0, "only {frames} frames drawn while riding{ctx}");
    assert!(camera_frames >= 30.0, "the camera moved in only {camera_frames} riding frames{ctx}");
    for k in ["ride_offset_spread_x", "ride_offset_spread_y"] {
        assert!(stat(&s, k) <= 1e-6, "{k} = {}: the rider jitters against its platform{ctx}", stat(&s, k));
    }
    for k in ["ride_screen_spread_x", "ride_screen_spread_y"] {
        assert!(stat(&s, k) <= 1e-6, "{k} = {}: the rider moves on screen while carried{ctx}", stat(&s, k));
    }
    s
}

#[test]
fn rider_is_steady_at_144_hz() {
    ride(&["--fps-cap", "144"]);
}

#[test]
fn rider_is_steady_at_60_hz() {
    ride(&["--fps-cap", "60"]);
}

#[test]
fn rider_is_steady_with_hitches() {
    ride(&["--fps-cap", "144", "--hitch", "45@0.7"]);
}

/// A platform lifting its rider at 60 px/s (`riding-up.tmx`), the camera's vertical easing on
/// (the default): the camera is carried with a rider that stands on the ground at both ticks a
/// frame blends (`present::camera`), so it follows the interpolated rider exactly on y too.
/// (Before that, the camera eased towards each new height and settled `speed / EASE_RATE` =
/// 7.5 px behind the rising rider: measured, the rider's screen y spanned 7.0 px over the ride.)
#[test]
fn rising_rider_is_steady_at_144_hz() {
    let s = ride_on("riding-up.tmx", &["--fps-cap", "144"]);
    assert!(stat(&s, "player_y") < stat(&s, "start_y") - 150.0, "the platform did not lift the player");
}
