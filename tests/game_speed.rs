//! The game-speed assist (LAB.md "Time tools", `config game_speed F`): wall time is scaled
//! before the stepper, so the same input at the same ticks gives the same states at any speed
//! in [0.5, 1.6]; `dt_ms`/`clamped` stay wall time; the factor is echoed, out-of-range exits 2.
//!
//! Clock: the lab's scripted wall clock (in-process through `ledge::lab::run_script`).

mod common;

use common::root;
use ledge::lab::report::Report;

fn run(text: &str) -> Report {
    common::lab::run(text, &common::lab::options("speed", &root().join("tests/cases/time"), false))
}

fn file(name: &str) -> String {
    std::fs::read_to_string(root().join("tests/cases/time").join(name)).expect("readable case")
}

fn jump_ticks(r: &Report) -> Vec<u64> {
    r.ticks.as_deref().unwrap_or(&[]).iter().filter(|t| t.jump_started).map(|t| t.tick).collect()
}

/// Level 1 at speed `f`: run right from 0, press jump at game time 655 ms (tick 40) and release
/// at 800, for 1005 ms of game time cut into 10 ms wall frames (`f` = 1: the reference).
fn script(f: f64) -> String {
    let wall = |game_ms: u64| (game_ms as f64 * 1e6 / f).ceil() as u64;
    let ms = |ns: u64| format!("{}.{:06}", ns / 1_000_000, ns % 1_000_000);
    let total = wall(1005);
    let mut s = String::new();
    if f != 1.0 {
        s += &format!("config game_speed {f}\n");
    }
    s += &format!("press right @0\npress jump @{}\nrelease jump @{}\n", ms(wall(655)), ms(wall(800)));
    s += &format!("frame 10 x{}\n", total / 10_000_000);
    if total % 10_000_000 > 0 {
        s += &format!("frame {}\n", ms(total % 10_000_000));
    }
    s
}

#[test]
fn the_case_pair_at_half_and_full_speed_ends_on_one_hash() {
    let half = run(&file("speed-half.lab"));
    let full = run(&file("speed-ref.lab"));
    assert_eq!(jump_ticks(&half), [40]);
    assert_eq!(jump_ticks(&full), [40]);
    assert_eq!(half.summary.totals.ticks, 60);
    assert_eq!(half.summary.state_hash, full.summary.state_hash);
    assert_eq!(half.echo.game_speed, Some(0.5));
    assert_eq!(full.echo.game_speed, None);
    // dt_ms is wall time: 20 ms frames at half speed, though each banks 10 ms of game time.
    let frames = half.frames.as_deref().unwrap();
    assert_eq!(frames[0].stats.dt_ns, 20_000_000);
    assert_eq!(half.summary.totals.wall_ns, 2_010_000_000);
    let json: serde_json::Value = serde_json::from_str(&half.to_json()).unwrap();
    assert_eq!(json["config"]["game_speed"], 0.5);
}

#[test]
fn every_speed_from_50_to_100_percent_gives_the_same_states_at_the_same_ticks() {
    let reference = run(&script(1.0));
    assert_eq!(jump_ticks(&reference), [40]);
    assert_eq!(reference.summary.totals.ticks, 60);
    for f in [0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 0.999] {
        let r = run(&script(f));
        assert_eq!(jump_ticks(&r), [40], "speed {f}");
        assert_eq!(r.summary.totals.ticks, 60, "speed {f}");
        assert_eq!(r.summary.state_hash, reference.summary.state_hash, "speed {f}");
        // Tick by tick, not only at the end.
        assert_eq!(r.ticks, reference.ticks, "speed {f}");
        assert!(r.summary.totals.wall_ns > reference.summary.totals.wall_ns, "speed {f}");
    }
}

#[test]
fn every_speed_from_110_to_160_percent_gives_the_same_states_at_the_same_ticks() {
    let reference = run(&script(1.0));
    for f in [1.1, 1.25, 1.3, 1.5, 1.6] {
        let r = run(&script(f));
        assert_eq!(jump_ticks(&r), [40], "speed {f}");
        assert_eq!(r.summary.totals.ticks, 60, "speed {f}");
        assert_eq!(r.ticks, reference.ticks, "speed {f}");
        assert_eq!(r.echo.game_speed, Some(f));
        assert!(r.summary.totals.wall_ns < reference.summary.totals.wall_ns, "speed {f}");
        // 10 ms wall frames bank 16 ms of game time at 160 %: never over the catch-up cap.
        assert_eq!(r.summary.totals.cap_hits, 0, "speed {f}");
    }
}

#[test]
fn a_speed_out_of_range_is_one_line_naming_the_line() {
    for bad in ["0.4", "1.61", "0", "-1"] {
        let text = format!("# c\nconfig game_speed {bad}\nframe 10\n");
        let e = ledge::lab::run_script(&text, &common::lab::options("s.lab", root(), true)).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert_eq!(e.to_string(), format!("s.lab:2: config game_speed must be in [0.5, 1.6], got {bad}"));
    }
    let dir = common::scratch::Scratch::new("speed");
    let path = dir.path("fast.lab");
    std::fs::write(&path, "config game_speed 2\nframe 1\n").unwrap();
    let o = common::ledge().args(["lab".as_ref(), path.as_os_str()]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("fast.lab:1: config game_speed must be in [0.5, 1.6], got 2"), "{err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn the_game_refuses_a_bad_game_speed_in_one_line() {
    if !cfg!(feature = "game") {
        return;
    }
    for bad in ["55", "170", "fast"] {
        let o = common::ledge().args(["--game-speed", bad]).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            err.trim_end(),
            format!("ledge: --game-speed must be 50 to 160 in steps of 10 (percent), got {bad}")
        );
    }
}
