//! The assists and the input display in a real window under Xvfb, as a player meets them:
//! `settings.toml` with `input_display = true` and `--invincible`, Right held and Jump held a
//! moment (photographed: the HUD says `invincible`, the input display lights Right and Jump in
//! the view's bottom-left corner). The recording starts with `config assist_invincible 1` and
//! replays under `ledge lab` to the window's state hash. Practice savestates with their keys
//! rebound in `settings.toml` (K saves, L loads): the run is back at the spawn, and the
//! recording's `savestate` / `loadstate` lines replay to the window's hash.
//!
//! `LEDGE_E2E_SHOT_DIR=DIR cargo test --test window_assists` keeps the screenshot
//! (docs/img/input-display.png).
//!
//! Clock: wall time (real processes, real sleeps).

mod common;

use common::exit::exit_stats;
use common::images::read_rgb;
use common::levels::write_flat_level;
use common::scratch::Scratch;
use common::xvfb::{Xvfb, require_tools, serial};
use std::thread;
use std::time::Duration;

/// The input display's colour for a held cell (`ui::input_display`'s HELD, sRGB).
const HELD: [u8; 3] = [60, 110, 200];

#[test]
fn the_input_display_shows_held_keys_and_an_invincible_run_replays() {
    require_tools(&["Xvfb", "xdotool", "xwd", "convert"]);
    let _serial = serial();
    let scratch = Scratch::new("assists");
    let level = scratch.path("flat.tmx");
    write_flat_level(&level);
    let save = scratch.path("save");
    std::fs::create_dir_all(&save).unwrap();
    let settings =
        ledge::save::Settings::default().to_text().replace("input_display = false", "input_display = true");
    assert!(settings.contains("input_display = true"));
    std::fs::write(save.join("settings.toml"), settings).unwrap();
    let (rec, stats, shot) = (scratch.path("run.lab"), scratch.path("stats.json"), scratch.path("input.png"));
    let x = Xvfb::start();
    let arg = |p: &std::path::Path| p.to_str().expect("utf-8 temp path").to_owned();
    let args = ["--level", &arg(&level), "--record", &arg(&rec), "--invincible", "--save-dir", &arg(&save)];
    let more = ["--fps-cap", "60", "--exit-after", "5", "--stats", &arg(&stats)];
    let mut game = x.game(&scratch, &[&args[..], &more[..]].concat());
    let win = x.wait_window(&mut game);
    x.focus(&win);
    thread::sleep(Duration::from_millis(800));
    x.xdo(&["keydown", "Right"]);
    thread::sleep(Duration::from_millis(400));
    x.xdo(&["keydown", "space"]);
    thread::sleep(Duration::from_millis(150));
    x.screenshot(&shot);
    x.xdo(&["keyup", "space"]);
    thread::sleep(Duration::from_millis(600));
    x.xdo(&["keyup", "Right"]);
    let (s, ctx) = exit_stats(game, &stats);
    if let Some(dir) = std::env::var_os("LEDGE_E2E_SHOT_DIR") {
        std::fs::copy(&shot, std::path::Path::new(&dir).join("input-display.png")).expect("keep the shot");
    }

    // Two cells lit in the held colour (Right and Jump), in the bottom-left corner.
    let (w, h, rgb) = read_rgb(&shot);
    let lit = (h * 3 / 4..h)
        .flat_map(|y| (0..w / 4).map(move |x| (x, y)))
        .filter(|&(x, y)| rgb[(y * w + x) * 3..(y * w + x) * 3 + 3] == HELD)
        .count();
    assert!(lit > 2 * 20 * 20, "{lit} pixels of lit cells in the corner{ctx}");

    let text = std::fs::read_to_string(&rec).unwrap_or_else(|e| panic!("no recording: {e}{ctx}"));
    assert!(text.contains("\nconfig assist_invincible 1\n"), "{text}");
    let r = common::lab::replayed(&rec);
    assert!(s["state_hash"].is_string(), "{ctx}");
    assert_eq!(r["summary"]["state_hash"], s["state_hash"], "{ctx}");
    assert_eq!(r["config"]["assist_invincible"], 1);
    assert!(s["jumps"].as_f64().unwrap_or(0.0) >= 1.0, "{ctx}");
}

#[test]
fn practice_savestates_save_and_load_and_the_recording_replays_them() {
    require_tools(&["Xvfb", "xdotool", "xwd", "convert"]);
    let _serial = serial();
    let scratch = Scratch::new("practice");
    let level = scratch.path("flat.tmx");
    write_flat_level(&level);
    let save = scratch.path("save");
    std::fs::create_dir_all(&save).unwrap();
    // Practice on, its keys rebound to K (save) and L (load) as the settings page would write
    // them.
    let mut settings = ledge::save::Settings::default();
    settings.display.practice = true;
    settings.keys.practice.keyboard.savestate = vec!["KeyK".into()];
    settings.keys.practice.keyboard.loadstate = vec!["KeyL".into()];
    std::fs::write(save.join("settings.toml"), settings.to_text()).unwrap();
    let (rec, stats, shot) =
        (scratch.path("run.lab"), scratch.path("stats.json"), scratch.path("loaded.png"));
    let x = Xvfb::start();
    let arg = |p: &std::path::Path| p.to_str().expect("utf-8 temp path").to_owned();
    let args = ["--level", &arg(&level), "--record", &arg(&rec), "--save-dir", &arg(&save)];
    let more = ["--fps-cap", "60", "--exit-after", "5", "--stats", &arg(&stats)];
    let mut game = x.game(&scratch, &[&args[..], &more[..]].concat());
    let win = x.wait_window(&mut game);
    x.focus(&win);
    thread::sleep(Duration::from_millis(800));
    x.xdo(&["key", "k"]);
    thread::sleep(Duration::from_millis(200));
    x.xdo(&["keydown", "Right"]);
    thread::sleep(Duration::from_millis(1200));
    x.xdo(&["keyup", "Right"]);
    thread::sleep(Duration::from_millis(200));
    x.xdo(&["key", "l"]);
    thread::sleep(Duration::from_millis(300));
    x.screenshot(&shot);
    let (s, ctx) = exit_stats(game, &stats);
    if let Some(dir) = std::env::var_os("LEDGE_E2E_SHOT_DIR") {
        std::fs::copy(&shot, std::path::Path::new(&dir).join("savestate-loaded.png")).expect("keep the shot");
    }
    // Back where the state was kept: the spawn, at rest.
    assert!((s["player_x"].as_f64().unwrap() - s["start_x"].as_f64().unwrap()).abs() < 1.0, "{ctx}");
    let text = std::fs::read_to_string(&rec).unwrap_or_else(|e| panic!("no recording: {e}{ctx}"));
    assert!(text.contains("\nsavestate practice\n") && text.contains("\nloadstate practice\n"), "{text}");
    let r = common::lab::replayed(&rec);
    assert_eq!(r["summary"]["state_hash"], s["state_hash"], "{ctx}");
    assert_eq!(r["summary"]["loaded_ticks"], 1, "{ctx}");
}
