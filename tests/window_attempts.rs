//! "Watch every attempt" and "Copy run link" in a real window under Xvfb, as a player meets
//! them: two tiny levels (a flat run to a goal), the first played twice (a restart from the
//! pause menu, then a run to the goal); on the second level the pause menu has both items.
//! "Copy run link" prints the finishing run's link, which `ledge replay LINK --headless` plays
//! to the goal; "Watch every attempt" opens the replay window over the game (its bar along the
//! bottom, the first attempt's ghost beside the player), and Esc goes back to the pause menu.
//!
//! `LEDGE_E2E_SHOT_DIR=DIR cargo test --test window_attempts` keeps the screenshot
//! (docs/img/every-attempt.png).
//!
//! Clock: wall time (real processes, real sleeps).

mod common;

use common::exit::exit_ok;
use common::images::{keep_window_shot, read_rgb};
use common::levels::write_flat_level;
use common::scratch::Scratch;
use common::xvfb::{Xvfb, require_tools, serial, window_rect};
use std::fs;
use std::path::Path;
use std::thread;
use std::time::Duration;

/// The replay bar's filled part (`ui::replay_bar`'s FILLED, sRGB).
const FILLED: [u8; 3] = [60, 110, 200];

/// Pixels of the bar's colour in the bottom 8 % of the window `rect` of screenshot `png`.
fn bar_pixels(png: &Path, rect: (usize, usize, usize, usize)) -> usize {
    let (w, _, rgb) = read_rgb(png);
    let (x0, y0, ww, wh) = rect;
    (y0 + wh * 92 / 100..y0 + wh)
        .flat_map(|y| (x0..x0 + ww).map(move |x| (y * w + x) * 3))
        .filter(|&i| rgb[i..i + 3] == FILLED)
        .count()
}

fn sleep(ms: u64) {
    thread::sleep(Duration::from_millis(ms));
}

#[test]
fn the_pause_menu_watches_every_attempt_and_copies_a_link_that_replays() {
    require_tools(&["Xvfb", "xdotool", "xwd", "convert"]);
    let _serial = serial();
    let scratch = Scratch::new("attempts");
    for n in [1, 2] {
        let level = scratch.path(&format!("level{n}.tmx"));
        write_flat_level(&level);
        // The goal, 320 px right of the spawn: under 2 s of running.
        let tmx = fs::read_to_string(&level).unwrap().replace(
            "  </object>\n </objectgroup>",
            "  </object>\n  <object id=\"2\" name=\"goal\" type=\"goal\" gid=\"16\" x=\"376\" y=\"288\" width=\"16\" height=\"16\"/>\n </objectgroup>",
        );
        fs::write(&level, tmx).unwrap();
    }
    let arg = |p: &Path| p.to_str().expect("utf-8 temp path").to_owned();
    let (level, save) = (scratch.path("level1.tmx"), scratch.path("save"));
    let x = Xvfb::start();
    let args = ["--level", &arg(&level), "--save-dir", &arg(&save), "--fps-cap", "60", "--exit-after", "13"];
    let mut game = x.game(&scratch, &args);
    let win = x.wait_window(&mut game);
    x.focus(&win);
    let rect = window_rect(&x, &win);
    sleep(800);
    // Attempt 1: a few steps, then Restart from the pause menu.
    x.xdo(&["keydown", "Right"]);
    sleep(500);
    x.xdo(&["keyup", "Right"]);
    x.xdo(&["key", "Escape"]);
    sleep(300);
    x.xdo(&["key", "Down", "Return"]);
    sleep(400);
    // Attempt 2: to the goal; level 2 starts.
    x.xdo(&["keydown", "Right"]);
    sleep(2600);
    x.xdo(&["keyup", "Right"]);
    sleep(300);
    // The pause menu: Resume, Restart, Settings, Skip, Watch every attempt, Copy run link, ...
    x.xdo(&["key", "Escape"]);
    sleep(300);
    for _ in 0..5 {
        x.xdo(&["key", "Down"]);
        sleep(50);
    }
    x.xdo(&["key", "Return"]);
    sleep(200);
    x.xdo(&["key", "Up"]);
    sleep(100);
    x.xdo(&["key", "Return"]);
    sleep(700);
    let watching = scratch.path("watching.png");
    x.screenshot(&watching);
    x.xdo(&["key", "Escape"]);
    sleep(400);
    let back = scratch.path("back.png");
    x.screenshot(&back);
    keep_window_shot(&watching, rect, "every-attempt.png");
    let (stdout, ctx) = exit_ok(game);

    assert!(bar_pixels(&watching, rect) > 200, "the replay bar along the bottom while watching{ctx}");
    assert_eq!(bar_pixels(&back, rect), 0, "Esc: back to the game's pause menu{ctx}");
    let link = stdout
        .lines()
        .find_map(|l| l.strip_prefix("ledge: run link: "))
        .unwrap_or_else(|| panic!("no link printed{ctx}"));
    assert!(link.starts_with("index.html#run="), "{link}");
    let out = common::ledge().args(["replay", link, "--headless"]).output().unwrap();
    let line = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(line.contains("level_complete=true") && line.contains("deaths=0"), "{line}");
}
