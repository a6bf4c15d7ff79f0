//! The saved data in the real game (issue #12), in a window on a private Xvfb like
//! `window_e2e.rs`: a settings file that rebinds jump to J and right to L (a hand edit, before
//! the settings screen exists), a tiny level whose goal is five tiles right of the spawn.
//! Space (unbound now) does not jump, J does, L runs to the goal; the game's `progress.toml`
//! then holds that level's record (deathless, its time in ticks within the run's ticks), and
//! the settings file is untouched.
//!
//! The level played through all three shipped levels with the progress checked is
//! `scripts/xdo-playthrough` (run by `window_e2e.rs`).
//!
//! Clock: wall time (real processes, real sleeps).

mod common;

use common::exit::{exit_stats, stat};
use common::levels::write_flat_level;
use common::scratch::Scratch;
use common::xvfb::{Xvfb, serial};
use ledge::save::{Progress, Settings, Store};
use std::fs;
use std::thread;
use std::time::Duration;

#[test]
fn rebound_keys_play_and_the_finished_level_is_saved() {
    let _serial = serial();
    let scratch = Scratch::new("save-e2e");
    let level = scratch.path("tiny.tmx");
    write_flat_level(&level);
    // the goal, 80 px right of the spawn (x = 56)
    let tmx = fs::read_to_string(&level).unwrap().replace(
        "  </object>\n </objectgroup>",
        "  </object>\n  <object id=\"2\" name=\"goal\" type=\"goal\" gid=\"16\" x=\"136\" y=\"288\" width=\"16\" height=\"16\"/>\n </objectgroup>",
    );
    assert!(tmx.contains("type=\"goal\""), "goal added");
    fs::write(&level, tmx).unwrap();

    let save = scratch.path("save");
    fs::create_dir_all(&save).unwrap();
    let mut settings = Settings::default();
    settings.keys.keyboard.jump = vec!["KeyJ".into()];
    settings.keys.keyboard.right = vec!["KeyL".into()];
    let settings_text = settings.to_text();
    fs::write(save.join("settings.toml"), &settings_text).unwrap();

    let stats = scratch.path("stats.json");
    let x = Xvfb::start();
    let args = [
        "--level",
        level.to_str().expect("utf-8 temp path"),
        "--save-dir",
        save.to_str().expect("utf-8 temp path"),
        "--fps-cap",
        "60",
        "--exit-after",
        "7",
        "--stats",
        stats.to_str().expect("utf-8 temp path"),
    ];
    let mut game = x.game(&scratch, &args);
    let win = x.wait_window(&mut game);
    x.focus(&win);
    thread::sleep(Duration::from_millis(500));
    // Space is unbound now: no jump. J jumps.
    x.xdo(&["key", "--delay", "100", "space"]);
    thread::sleep(Duration::from_millis(800));
    x.xdo(&["keydown", "j"]);
    thread::sleep(Duration::from_millis(120));
    x.xdo(&["keyup", "j"]);
    thread::sleep(Duration::from_millis(900));
    // L runs right, into the goal.
    x.xdo(&["keydown", "l"]);
    thread::sleep(Duration::from_millis(1500));
    x.xdo(&["keyup", "l"]);

    let (s, ctx) = exit_stats(game, &stats);
    assert_eq!(stat(&s, "jumps"), 1.0, "J jumped once, Space never{ctx}");
    assert_eq!(stat(&s, "levels_completed"), 1.0, "L ran to the goal{ctx}");

    let (store, warnings) = Store::open(Some(&save));
    assert!(warnings.is_empty(), "{warnings:?}");
    let progress: &Progress = store.progress();
    assert_eq!(progress.levels.len(), 1, "{progress:?}");
    let (id, record) = progress.levels.iter().next().unwrap();
    assert!(id.ends_with("tiny.tmx"), "a level outside assets/levels is kept by its path: {id}");
    let ticks = stat(&s, "ticks");
    assert!(
        record.best_ticks > 30 && (record.best_ticks as f64) <= ticks,
        "best_ticks {} within the run's {ticks} ticks{ctx}",
        record.best_ticks
    );
    assert_eq!(record.fewest_deaths, 0);
    assert!(record.deathless);
    assert_eq!(fs::read_to_string(save.join("settings.toml")).unwrap(), settings_text, "settings untouched");
}
