//! `--latency-log` in a real window under Xvfb, as a player meets it: ten jump taps and a run
//! with `--fps-cap 60` and `--record`, F3 on (photographed: the panel's input→present line).
//! The log has one row per press and release, each with the tick it applied in and a present
//! time after its arrival; the recording replays under `ledge lab` with the same edges on the
//! same ticks (the window and the lab give an edge its tick by one rule).
//!
//! `LEDGE_E2E_SHOT_DIR=DIR cargo test --test window_latency` keeps the screenshot.
//!
//! Clock: wall time (real processes, real sleeps).

mod common;

use common::exit::exit_stats;
use common::levels::write_flat_level;
use common::scratch::Scratch;
use common::xvfb::{Xvfb, require_tools, serial};
use std::thread;
use std::time::Duration;

#[test]
fn every_press_and_release_is_logged_with_its_tick_and_present_time() {
    require_tools(&["Xvfb", "xdotool", "xwd", "convert"]);
    let _serial = serial();
    let scratch = Scratch::new("latency");
    let level = scratch.path("flat.tmx");
    write_flat_level(&level);
    let (log, rec, stats, shot) = (
        scratch.path("latency.csv"),
        scratch.path("run.lab"),
        scratch.path("stats.json"),
        scratch.path("f3.png"),
    );
    let x = Xvfb::start();
    let arg = |p: &std::path::Path| p.to_str().expect("utf-8 temp path").to_owned();
    let args = ["--level", &arg(&level), "--latency-log", &arg(&log), "--record", &arg(&rec)];
    let more = ["--fps-cap", "60", "--exit-after", "6", "--stats", &arg(&stats)];
    let mut game = x.game(&scratch, &[&args[..], &more[..]].concat());
    let win = x.wait_window(&mut game);
    x.focus(&win);
    x.xdo(&["key", "F3"]);
    x.xdo(&["keydown", "Right"]);
    for _ in 0..10 {
        x.xdo(&["keydown", "space"]);
        thread::sleep(Duration::from_millis(60));
        x.xdo(&["keyup", "space"]);
        thread::sleep(Duration::from_millis(240));
    }
    x.xdo(&["keyup", "Right"]);
    thread::sleep(Duration::from_millis(300));
    x.screenshot(&shot);
    let (_, ctx) = exit_stats(game, &stats);
    if let Some(dir) = std::env::var_os("LEDGE_E2E_SHOT_DIR") {
        std::fs::copy(&shot, std::path::Path::new(&dir).join("latency-f3.png")).expect("keep the shot");
    }

    let text = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("no latency log: {e}{ctx}"));
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("action,edge,player,at_ms,tick,presented_ms,latency_ms"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let jumps = rows.iter().filter(|r| r[0] == "jump").count();
    let rights = rows.iter().filter(|r| r[0] == "right").count();
    assert_eq!((jumps, rights), (20, 2), "ten taps and one run, pressed and released:\n{text}");
    let num = |s: &str| s.parse::<f64>().unwrap_or_else(|_| panic!("'{s}' in\n{text}"));
    for r in &rows {
        assert_eq!(r.len(), 7, "{r:?}");
        let (at, presented, latency) = (num(r[3]), num(r[5]), num(r[6]));
        assert!(presented > at, "presented before it arrived: {r:?}");
        assert!((presented - at - latency).abs() < 0.002, "{r:?}");
    }

    // The replay gives every edge the tick the window gave it.
    let r = common::lab::replayed(&rec);
    let replayed: Vec<(String, String, u64)> = r["summary"]["inputs"]
        .as_array()
        .expect("summary.inputs")
        .iter()
        .map(|i| {
            (
                i["action"].as_str().unwrap().into(),
                i["edge"].as_str().unwrap().into(),
                i["tick"].as_u64().unwrap(),
            )
        })
        .collect();
    let logged: Vec<(String, String, u64)> =
        rows.iter().map(|r| (r[0].to_owned(), r[1].to_owned(), num(r[4]) as u64)).collect();
    assert_eq!(logged, replayed, "{ctx}");
}
