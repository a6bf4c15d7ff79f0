//! The replay window (`ledge replay FILE`) under Xvfb, as a viewer uses it: level 1's finishing
//! run plays (the bar says so), Space pauses it (two screenshots apart in time are the same
//! picture), → steps it a tick at a time, R held rewinds it, = twice plays it at 400 %, and at
//! its end the window's exit line is `ledge replay --headless`'s, word for word; left alone it
//! plays to that same end (the window's focus never reaches the replayed loop). A bad link or
//! file, a script the lab refuses, a frame cap out of range and `--link` on a script that does
//! not play are one line and exit status 2, with no window.
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
    let want = headless_line(RUN);
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
    let (line, ctx) = exit_line(game);
    assert_eq!(line, want, "the window ends where the headless replay does{ctx}");
}

/// The replay window's exit line, once it has exited by itself with status 0 (within 40 s),
/// and a context string (its stdout and stderr) for assertion messages.
fn exit_line(mut game: common::proc::Proc) -> (String, String) {
    let status = game.wait_for(Duration::from_secs(40));
    let (_, stdout, stderr) = game.finish();
    let ctx = format!("\nstdout: {stdout}\nstderr: {stderr}");
    assert!(status.is_some_and(|s| s.success()), "{status:?}{ctx}");
    let line =
        stdout.lines().find(|l| l.starts_with("ledge replay: ")).unwrap_or_else(|| panic!("no line{ctx}"));
    (line.to_owned(), ctx)
}

/// What `ledge replay FILE --headless` prints for `file`.
fn headless_line(file: &str) -> String {
    let out = common::ledge().args(["replay", file, "--headless"]).output().expect("run ledge replay");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// Left alone, with the window's focus taken and given by the X server as it opens and the
/// test focusing it, the run plays to its end unchanged: the window's focus never reaches the
/// replayed loop (it once released the keys the script held at its start).
#[test]
fn left_alone_it_plays_to_the_headless_end() {
    require_tools(&["Xvfb", "xdotool", "xwd", "convert"]);
    let _serial = serial();
    let scratch = Scratch::new("replay-alone");
    let want = headless_line(RUN);
    let x = Xvfb::start();
    let save = scratch.path("save");
    let mut game = x.game(
        &scratch,
        &["replay", RUN, "--fps-cap", "60", "--exit-after", "11.5", "--save-dir", save.to_str().unwrap()],
    );
    let win = x.wait_window(&mut game);
    x.focus(&win);
    let (line, ctx) = exit_line(game);
    assert_eq!(line, want, "{ctx}");
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
    // A link is only made of a run that plays.
    let out = common::ledge().args(["replay"]).arg(&bad).arg("--link").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), err.lines().count(), out.stdout.len()), (Some(2), 1, 0), "{err}");
    let _ = std::fs::remove_file(bad);
    // A frame cap the pacer cannot keep (it once panicked at 1e-30 Hz and hung at 0.001 Hz).
    for hz in ["1e-30", "0.001", "5000", "NaN"] {
        let out =
            common::ledge().args(["replay", RUN, "--fps-cap", hz]).env_remove("DISPLAY").output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--fps-cap {hz}: {err}");
        assert!(err.lines().next().is_some_and(|l| l.contains("1 to 1000")), "--fps-cap {hz}: {err}");
    }
}
