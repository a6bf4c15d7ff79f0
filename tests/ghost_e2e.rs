//! The ghost and the splits in a real window, as a player meets them (issue #13): on a private
//! Xvfb, a tiny level (a flat run to a goal 20 tiles right of the spawn) with a scratch
//! `--save-dir`. Run 1 runs straight to the goal: the end screen shows the first finish, and
//! the save folder now holds that run as `ghosts/LEVEL.lab`. Enter plays again: the player
//! stands still while the ghost of run 1 runs off ahead (G hides it: the two screenshots differ
//! where the ghost is, outside the HUD), then runs to the goal later than the ghost did: the
//! end screen shows IGT, RTA and a red split behind the best; the slower run does not replace
//! the kept ghost.
//!
//! `LEDGE_E2E_SHOT_DIR=DIR cargo test --test ghost_e2e` keeps `ghost.png` (the player and the
//! ghost) and `splits.png` (the end screen), cut to the window (docs/playing.md's pictures).
//!
//! Clock: wall time (real processes, real sleeps).

mod common;

use common::exit::{exit_stats, stat};
use common::images::{keep_window_shot, read_rgb};
use common::levels::write_flat_level;
use common::scratch::Scratch;
use common::xvfb::{Xvfb, require_tools, serial, window_rect};
use ledge::save::Store;
use std::fs;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

/// The `.lab` files in `dir` (the save folder's `ghosts/`).
fn ghosts(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir).map_or_else(|_| Vec::new(), |d| d.map(|e| e.unwrap().path()).collect())
}

#[test]
fn a_finished_run_comes_back_as_a_ghost_and_the_end_screen_shows_the_splits() {
    require_tools(&["Xvfb", "xdotool", "xwd", "convert"]);
    let _serial = serial();
    let scratch = Scratch::new("ghost-e2e");
    let level = scratch.path("tiny.tmx");
    write_flat_level(&level);
    // The goal, 320 px right of the spawn (x = 56): under 2 s of running at 180 px/s.
    let tmx = fs::read_to_string(&level).unwrap().replace(
        "  </object>\n </objectgroup>",
        "  </object>\n  <object id=\"2\" name=\"goal\" type=\"goal\" gid=\"16\" x=\"376\" y=\"288\" width=\"16\" height=\"16\"/>\n </objectgroup>",
    );
    fs::write(&level, tmx).unwrap();
    let save = scratch.path("save");
    let stats = scratch.path("stats.json");
    let shots = ["first-end.png", "ghost.png", "hidden.png", "splits.png"].map(|n| scratch.path(n));
    let arg = |p: &Path| p.to_str().expect("utf-8 temp path").to_owned();

    let x = Xvfb::start();
    let args = ["--level", &arg(&level), "--save-dir", &arg(&save), "--fps-cap", "60"];
    let more = ["--exit-after", "20", "--stats", &arg(&stats)];
    let mut game = x.game(&scratch, &[&args[..], &more[..]].concat());
    let win = x.wait_window(&mut game);
    x.focus(&win);
    thread::sleep(Duration::from_millis(300));

    // Run 1: straight to the goal.
    x.xdo(&["keydown", "Right"]);
    thread::sleep(Duration::from_millis(2600));
    x.xdo(&["keyup", "Right"]);
    thread::sleep(Duration::from_millis(200));
    x.screenshot(&shots[0]);
    let kept = ghosts(&save.join("ghosts"));
    assert_eq!(kept.len(), 1, "run 1 kept as the level's ghost: {kept:?}");
    let ghost_script = fs::read_to_string(&kept[0]).unwrap();

    // Run 2: play again, stand while the ghost runs ahead, G hides it, G shows it, then run.
    x.xdo(&["key", "Return"]);
    thread::sleep(Duration::from_millis(1000));
    x.screenshot(&shots[1]);
    x.xdo(&["key", "g"]);
    thread::sleep(Duration::from_millis(150));
    x.screenshot(&shots[2]);
    x.xdo(&["key", "g"]);
    x.xdo(&["keydown", "Right"]);
    thread::sleep(Duration::from_millis(2600));
    x.xdo(&["keyup", "Right"]);
    thread::sleep(Duration::from_millis(200));
    x.screenshot(&shots[3]);
    let rect = window_rect(&x, &win);
    x.xdo(&["key", "Escape"]);

    let (s, ctx) = exit_stats(game, &stats);
    keep_window_shot(&shots[1], rect, "ghost.png");
    keep_window_shot(&shots[3], rect, "splits.png");
    assert_eq!(stat(&s, "levels_completed"), 2.0, "both runs reached the goal{ctx}");

    // The ghost: shown and hidden frames differ where it runs, right of the standing player
    // and below the HUD (the HUD's clock changes too, so its corner is left out).
    let (w, _, a) = read_rgb(&shots[1]);
    let (_, _, b) = read_rgb(&shots[2]);
    let (x0, y0, ww, wh) = rect;
    let at = |x: usize, y: usize| (y * w + x) * 3;
    let changed = (y0 + wh / 4..y0 + wh)
        .flat_map(|y| (x0..x0 + ww).map(move |x| (x, y)))
        .filter(|&(x, y)| a[at(x, y)..at(x, y) + 3] != b[at(x, y)..at(x, y) + 3])
        .count();
    assert!(changed > 200, "only {changed} pixels differ between the ghost shown and hidden{ctx}");

    // The slower run 2 kept the best and its ghost; progress has run 1's time.
    assert_eq!(fs::read_to_string(&kept[0]).unwrap(), ghost_script, "a slower run replaces no ghost");
    let (store, _) = Store::open(Some(&save));
    let best = store.progress().levels.values().next().expect("a record").best_ticks;
    assert!((90..=150).contains(&best), "run 1 took {best} ticks{ctx}");
    // The end screen's total row: the split against the best is red (behind), in the picture.
    let (_, _, end) = read_rgb(&shots[3]);
    let red = (y0..y0 + wh)
        .flat_map(|y| (x0..x0 + ww).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let p = &end[at(x, y)..at(x, y) + 3];
            p[0] > 180 && p[1] < 120 && p[2] < 120
        })
        .count();
    assert!(red > 30, "only {red} red pixels on the end screen: no split behind the best?{ctx}");
}
