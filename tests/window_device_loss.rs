//! A lost GPU device survived in a real window under Xvfb: `--lose-device-after` destroys the
//! wgpu device in the middle of play; the next frame opens a new device, builds the renderer
//! again and draws on, with one line, `device lost, recreated`. The level looks the same
//! after the loss as before it (screenshots compared), every frame after it is presented, and
//! the run, recorded across the loss with keys held and jumps pressed, replays under
//! `ledge lab` to the window's state hash: the simulation never noticed.
//!
//! `LEDGE_E2E_SHOT_DIR=DIR cargo test --test window_device_loss` keeps the screenshots.
//!
//! Clock: wall time (real processes, real sleeps).

mod common;

use common::exit::{exit_stats, stat};
use common::images::read_rgb;
use common::ledge;
use common::levels::write_flat_level;
use common::scratch::Scratch;
use common::xvfb::{Xvfb, require_tools, serial};
use std::thread;
use std::time::{Duration, Instant};

/// Rows of the window above this are the HUD (its timer changes between the shots).
const HUD_ROWS: usize = 80;

#[test]
fn a_destroyed_device_is_recreated_and_the_run_plays_on_to_the_same_hash() {
    require_tools(&["Xvfb", "xdotool", "xwd", "convert"]);
    let _serial = serial();
    let scratch = Scratch::new("device-loss");
    let level = scratch.path("flat.tmx");
    write_flat_level(&level);
    let (rec, stats, before, after) = (
        scratch.path("run.lab"),
        scratch.path("stats.json"),
        scratch.path("before.png"),
        scratch.path("after.png"),
    );
    let x = Xvfb::start();
    let arg = |p: &std::path::Path| p.to_str().expect("utf-8 temp path").to_owned();
    let args = ["--level", &arg(&level), "--record", &arg(&rec), "--lose-device-after", "2.5"];
    let more = ["--fps-cap", "60", "--exit-after", "6", "--stats", &arg(&stats)];
    let mut game = x.game(&scratch, &[&args[..], &more[..]].concat());
    let win = x.wait_window(&mut game);
    let shown = Instant::now();
    x.focus(&win);
    let until = |s: f64| thread::sleep(Duration::from_secs_f64(s).saturating_sub(shown.elapsed()));
    until(1.3);
    x.screenshot(&before);
    until(3.7);
    x.screenshot(&after);
    x.xdo(&["keydown", "Right"]);
    for _ in 0..3 {
        x.xdo(&["keydown", "space"]);
        thread::sleep(Duration::from_millis(80));
        x.xdo(&["keyup", "space"]);
        thread::sleep(Duration::from_millis(250));
    }
    x.xdo(&["keyup", "Right"]);
    let (s, ctx) = exit_stats(game, &stats);
    if let Some(dir) = std::env::var_os("LEDGE_E2E_SHOT_DIR") {
        let dir = std::path::Path::new(&dir);
        std::fs::copy(&before, dir.join("device-loss-before.png")).expect("keep the shot");
        std::fs::copy(&after, dir.join("device-loss-after.png")).expect("keep the shot");
    }

    assert_eq!(stat(&s, "device_losses"), 1.0, "{ctx}");
    assert_eq!(ctx.matches("device lost, recreated").count(), 1, "one line for the loss{ctx}");
    assert!(!ctx.contains("wgpu: "), "no wgpu error was logged around the loss{ctx}");
    // At most the frame of the loss goes undrawn.
    assert!(stat(&s, "presented") + 1.0 >= stat(&s, "frames"), "frames went undrawn{ctx}");
    assert!(stat(&s, "jumps") >= 1.0, "the jumps after the loss ran{ctx}");

    // The same level, the same camera, drawn by the new device as by the old one.
    let (w, h, a) = read_rgb(&before);
    let (w2, h2, b) = read_rgb(&after);
    assert_eq!((w, h), (w2, h2));
    let colours: std::collections::HashSet<&[u8]> = b.chunks_exact(3).collect();
    assert!(colours.len() > 8, "after the loss the window shows {} colours{ctx}", colours.len());
    let below_hud = HUD_ROWS * w * 3..;
    let differ =
        a[below_hud.clone()].chunks_exact(3).zip(b[below_hud].chunks_exact(3)).filter(|(p, q)| p != q);
    let differ = differ.count();
    assert!(
        differ * 100 < w * (h - HUD_ROWS),
        "{differ} pixels differ below the HUD before and after the loss"
    );

    // The recording, made across the loss, replays to the window's hash.
    let r = common::lab::replayed(&rec);
    assert!(s["state_hash"].is_string(), "{ctx}");
    assert_eq!(r["summary"]["state_hash"], s["state_hash"], "{ctx}");
}

#[test]
fn a_bad_lose_device_after_is_refused_with_one_line() {
    let out = ledge().args(["--lose-device-after", "soon"]).output().expect("run ledge");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--lose-device-after") && err.contains("'soon'"), "{err}");
}
