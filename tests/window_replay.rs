//! The replay window (`ledge replay FILE`) under Xvfb, as a viewer uses it: level 1's finishing
//! run plays (the bar says so), Space pauses it (two screenshots apart in time are the same
//! picture), → steps it a tick at a time, R held rewinds it, = twice plays it at 400 %, and at
//! its end the window's exit line is `ledge replay --headless`'s, word for word. A bad link or
//! file is one line and exit status 2, with no window.
//!
//! `LEDGE_E2E_SHOT_DIR=DIR cargo test --test window_replay` keeps the paused screenshot
//! (docs/img/replay-window.png).
//!
//! Clock: wall time (real processes, real sleeps).

mod common;

use common::images::read_rgb;
use common::scratch::Scratch;
use common::xvfb::{Xvfb, require_tools, serial};
use std::thread;
use std::time::Duration;

const RUN: &str = "tests/levels/level1.lab";

/// Pixels that differ between two screenshots of the same size.
fn differing(a: &std::path::Path, b: &std::path::Path) -> usize {
    let ((w, h, p), (w2, h2, q)) = (read_rgb(a), read_rgb(b));
    assert_eq!((w, h), (w2, h2));
    p.chunks(3).zip(q.chunks(3)).filter(|(x, y)| x != y).count()
}

#[test]
fn a_run_plays_pauses_steps_rewinds_speeds_up_and_ends_on_the_headless_hash() {
    require_tools(&["Xvfb", "xdotool", "xwd", "convert"]);
    let _serial = serial();
    let scratch = Scratch::new("replay-window");
    let headless = common::ledge().args(["replay", RUN, "--headless"]).output().expect("run ledge replay");
    assert!(headless.status.success());
    let want = String::from_utf8(headless.stdout).unwrap();
    assert!(want.contains("level_complete=true"), "{want}");

    let x = Xvfb::start();
    let save = scratch.path("save");
    let save = save.to_str().unwrap();
    let mut game =
        x.game(&scratch, &["replay", RUN, "--fps-cap", "60", "--exit-after", "12", "--save-dir", save]);
    let win = x.wait_window(&mut game);
    x.focus(&win);
    thread::sleep(Duration::from_millis(1200));
    let shot = |name: &str| {
        let p = scratch.path(name);
        x.screenshot(&p);
        p
    };
    let playing = [shot("playing-a.png"), {
        thread::sleep(Duration::from_millis(300));
        shot("playing-b.png")
    }];
    assert!(differing(&playing[0], &playing[1]) > 1000, "it plays: the picture moves");
    x.xdo(&["key", "space"]);
    thread::sleep(Duration::from_millis(300));
    let paused = [shot("paused-a.png"), {
        thread::sleep(Duration::from_millis(400));
        shot("paused-b.png")
    }];
    assert_eq!(differing(&paused[0], &paused[1]), 0, "paused: the same picture");
    for _ in 0..6 {
        x.xdo(&["key", "Right"]);
        thread::sleep(Duration::from_millis(60));
    }
    thread::sleep(Duration::from_millis(200));
    let stepped = shot("stepped.png");
    assert!(differing(&paused[1], &stepped) > 100, "six ticks forward move the run");
    x.xdo(&["keydown", "r"]);
    thread::sleep(Duration::from_millis(500));
    x.xdo(&["keyup", "r"]);
    thread::sleep(Duration::from_millis(200));
    let rewound = shot("rewound.png");
    assert!(differing(&stepped, &rewound) > 1000, "R held goes back");
    if let Some(dir) = std::env::var_os("LEDGE_E2E_SHOT_DIR") {
        std::fs::copy(&paused[1], std::path::Path::new(&dir).join("replay-window.png"))
            .expect("keep the shot");
    }
    // 400 %, play: the rest of the run's ten seconds in under three.
    x.xdo(&["key", "equal", "equal", "space"]);
    let status = game.wait_for(Duration::from_secs(40));
    let (_, stdout, stderr) = game.finish();
    let ctx = format!("\nstdout: {stdout}\nstderr: {stderr}");
    assert!(status.is_some_and(|s| s.success()), "{status:?}{ctx}");
    let line =
        stdout.lines().find(|l| l.starts_with("ledge replay: ")).unwrap_or_else(|| panic!("no line{ctx}"));
    assert_eq!(line, want.trim(), "the window ends where the headless replay does{ctx}");
}

#[test]
fn a_bad_link_or_missing_file_is_one_line_and_no_window() {
    for (source, says) in [("index.html#run=%%%", "link"), ("no-such-run.lab", "no-such-run.lab")] {
        // No DISPLAY: the refusal comes before any window would open.
        let out = common::ledge().args(["replay", source]).env_remove("DISPLAY").output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
    let bad = std::env::temp_dir().join(format!("ledge-bad-replay-{}.lab", std::process::id()));
    std::fs::write(&bad, "frame 16.6\nbogus line\n").unwrap();
    let out = common::ledge().arg("replay").arg(&bad).env_remove("DISPLAY").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(":2:"), "names the line: {err}");
    let _ = std::fs::remove_file(bad);
}
