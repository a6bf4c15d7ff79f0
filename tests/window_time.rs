//! The time tools in a real window, as a player meets them: the game at `--game-speed 50` on
//! a flat level under Xvfb, run right, hold R to rewind (photographed while held: the HUD says
//! `◀◀ REWIND`), let go and run on, with `--record`. The game runs about 30 ticks a second of
//! wall time; the recording holds the speed and the rewind edges and replays under `ledge lab`
//! to the hash the game printed, with rewind ticks in it.
//!
//! `LEDGE_E2E_SHOT_DIR=DIR cargo test --test window_time` keeps the screenshots (before and
//! while rewinding).
//!
//! Clock: wall time (real processes, real sleeps).

mod common;

use common::exit::{exit_stats, stat};
use common::images::read_rgb;
use common::levels::write_flat_level;
use common::scratch::Scratch;
use common::xvfb::{Xvfb, require_tools, serial, window_rect};
use std::thread;
use std::time::Duration;

#[test]
fn rewind_and_half_speed_in_a_real_window() {
    require_tools(&["Xvfb", "xdotool", "xwd", "convert"]);
    let _serial = serial();
    let scratch = Scratch::new("time");
    let level = scratch.path("flat.tmx");
    write_flat_level(&level);
    let (rec, stats) = (scratch.path("session.lab"), scratch.path("stats.json"));
    let (before, during) = (scratch.path("before.png"), scratch.path("rewinding.png"));
    let x = Xvfb::start();
    let arg = |p: &std::path::Path| p.to_str().expect("utf-8 temp path").to_owned();
    let args = ["--level", &arg(&level), "--game-speed", "50", "--record", &arg(&rec)];
    let more = ["--fps-cap", "60", "--exit-after", "7", "--stats", &arg(&stats)];
    let mut game = x.game(&scratch, &[&args[..], &more[..]].concat());
    let win = x.wait_window(&mut game);
    x.focus(&win);

    x.xdo(&["keydown", "Right"]);
    thread::sleep(Duration::from_millis(2000));
    x.xdo(&["keyup", "Right"]);
    x.screenshot(&before);
    x.xdo(&["keydown", "r"]);
    thread::sleep(Duration::from_millis(700));
    x.screenshot(&during);
    thread::sleep(Duration::from_millis(300));
    x.xdo(&["keyup", "r"]);
    x.xdo(&["keydown", "Right"]);
    thread::sleep(Duration::from_millis(500));
    x.xdo(&["keyup", "Right"]);
    let rect = window_rect(&x, &win);

    let (s, ctx) = exit_stats(game, &stats);
    if let Some(dir) = std::env::var_os("LEDGE_E2E_SHOT_DIR") {
        for p in [&before, &during] {
            std::fs::copy(p, std::path::Path::new(&dir).join(p.file_name().unwrap())).expect("keep the shot");
        }
    }
    // Half speed: about 30 ticks a second of played wall time, not 60.
    let rate = stat(&s, "ticks") / (stat(&s, "wall_s") - stat(&s, "paused_s"));
    assert!((20.0..=40.0).contains(&rate), "{rate:.1} ticks/s at 50 %{ctx}");

    // The recording keeps the speed and the rewind, and replays to the printed hash.
    let script = std::fs::read_to_string(&rec).unwrap_or_else(|e| panic!("no recording: {e}{ctx}"));
    assert!(script.contains("config game_speed 0.5"), "{script}");
    assert!(script.contains("press rewind @") && script.contains("release rewind @"), "{script}");
    let r = common::lab::replayed(&rec);
    let hash = s["state_hash"].as_str().unwrap_or_else(|| panic!("no state_hash in the stats{ctx}"));
    assert_eq!(r["summary"]["state_hash"].as_str(), Some(hash), "replay of {script}");
    let rewound = r["summary"]["rewound_ticks"].as_u64().unwrap();
    assert!(rewound >= 10, "{rewound} rewind ticks for ~1 s of R at 50 %{ctx}");

    // While R is held the HUD panel (top left) has a third line: more of it differs from the
    // frame before than the two lines of changing time alone would make.
    let (w, _, a) = read_rgb(&before);
    let (_, _, b) = read_rgb(&during);
    let (x0, y0, ww, wh) = rect;
    let at = |x: usize, y: usize| (y * w + x) * 3;
    // The HUD's third text line lies in the band 40-60 % down the top eighth of the window.
    let band = (y0 + wh * 5 / 80)..(y0 + wh * 8 / 80);
    let changed = band
        .flat_map(|y| (x0..x0 + ww / 4).map(move |x| (x, y)))
        .filter(|&(x, y)| a[at(x, y)..at(x, y) + 3] != b[at(x, y)..at(x, y) + 3])
        .count();
    assert!(changed > 50, "only {changed} pixels of the HUD's third line changed while rewinding{ctx}");
}
