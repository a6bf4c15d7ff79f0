//! The ghost (LAB.md "Time tools", `ghost PATH`): a recording replayed in its own world and
//! drawn at the live run's tick numbers with the frame's alpha — exactly where the recording
//! draws its own player when the frames are the same, following the game speed and a rewind,
//! `null` past its end, never in the live `state_hash`; a missing, malformed or other-rate
//! ghost exits 2 naming it.
//!
//! Clock: the lab's scripted wall clock (in-process), and the binary for the exit status.

mod common;

use common::root;
use common::scratch::Scratch;
use ledge::game_loop::Point;
use ledge::lab::recut::{Recut, run_recut};
use ledge::lab::report::Report;
use ledge::lab::tick_script::TickScript;
use ledge::present::interp::lerp;

fn dir() -> std::path::PathBuf {
    root().join("tests/cases/ghost")
}

fn case(name: &str) -> Report {
    let text = std::fs::read_to_string(dir().join(name)).expect("readable case");
    common::lab::run(&text, &common::lab::options(name, &dir(), false))
}

/// The ghost's player by tick number (index 0: the start, at the cases' spawn) from its own
/// report.
fn track(r: &Report) -> Vec<glam::DVec2> {
    track_from(r, glam::DVec2::new(82.0, 90.0))
}

/// [`track`] for a run that starts at `spawn`.
fn track_from(r: &Report, spawn: glam::DVec2) -> Vec<glam::DVec2> {
    let mut v = vec![spawn];
    for t in r.ticks.as_deref().expect("full report") {
        v.truncate(t.tick as usize);
        v.push(glam::DVec2::new(t.player.x, t.player.y));
    }
    v
}

/// Every frame's `drawn_ghost` against `lerp(track[prev], track[curr], alpha)`, where `prev`
/// and `curr` are the live run's last two tick numbers after the frame (0 before any tick).
fn check_alignment(live: &Report, ghost: &[glam::DVec2]) -> usize {
    let ticks = live.ticks.as_deref().expect("full report");
    let mut seen = 0;
    let mut checked = 0;
    for f in live.frames.as_deref().expect("full report") {
        seen += f.stats.steps as usize;
        let curr = if seen == 0 { 0 } else { ticks[seen - 1].tick };
        let prev = if seen < 2 { 0 } else { ticks[seen - 2].tick };
        let got = f.drawn_ghost.expect("a ghost line writes drawn_ghost");
        match ghost.get(curr as usize) {
            Some(&now) => {
                let want = lerp(ghost[prev as usize], now, f.stats.alpha);
                assert_eq!(
                    got,
                    Some(Point { x: want.x, y: want.y }),
                    "frame {} (ticks {prev} -> {curr})",
                    f.frame
                );
                checked += 1;
            }
            None => assert_eq!(got, None, "frame {}: past the ghost's end", f.frame),
        }
    }
    checked
}

#[test]
fn in_the_same_frames_the_ghost_is_drawn_where_the_recording_draws_its_player() {
    let ghost = case("ghost-run.lab");
    let live = case("ghost-same-frames.lab");
    let plain = case("ghost-none.lab");
    let (gf, lf, pf) = (ghost.frames.unwrap(), live.frames.unwrap(), plain.frames.unwrap());
    assert_eq!(gf.len(), lf.len());
    for (g, l) in gf.iter().zip(&lf) {
        assert_eq!(l.drawn_ghost, Some(Some(g.stats.drawn)), "frame {}", l.frame);
    }
    // The live run is untouched: same frames (less the ghost), same hash.
    for (l, p) in lf.iter().zip(&pf) {
        assert_eq!(l.stats, p.stats);
    }
    assert_eq!(live.summary.state_hash, plain.summary.state_hash);
    assert!(pf.iter().all(|f| f.drawn_ghost.is_none()), "no ghost line, no drawn_ghost");
}

#[test]
fn at_half_speed_the_ghost_is_aligned_by_tick_and_moves_at_half_the_wall_speed() {
    let ghost = track(&case("ghost-run.lab"));
    let live = case("ghost-half-speed.lab");
    assert_eq!(live.summary.totals.ticks, 45);
    assert_eq!(check_alignment(&live, &ghost), 150);
    // After 1.5 s of wall time the ghost is where its own run was after 0.75 s (tick 45).
    let last = live.frames.as_deref().unwrap().last().unwrap().drawn_ghost.unwrap().unwrap();
    assert!((last.x - ghost[45].x).abs() < (ghost[45].x - ghost[44].x).abs() + 1e-9, "{last:?}");
}

#[test]
fn the_ghost_goes_back_with_a_rewind_and_ends_with_its_run() {
    let ghost = track(&case("ghost-run.lab"));
    let live = case("ghost-rewind.lab");
    let plain = case("ghost-rewind-none.lab");
    assert_eq!(live.summary.totals.rewound_ticks, 30);
    let checked = check_alignment(&live, &ghost);
    assert!(checked > 150 && checked < 300, "{checked} frames within the ghost's 90 ticks");
    assert_eq!(live.summary.state_hash, plain.summary.state_hash, "the ghost is not in the hash");
    assert_eq!(live.ticks, plain.ticks);
}

#[test]
fn a_missing_malformed_or_other_rate_ghost_exits_2_naming_it() {
    let s = Scratch::new("ghost-errors");
    std::fs::write(s.path("bad.lab"), "frame 10\nbogus 1\n").unwrap();
    std::fs::write(s.path("fast.lab"), "config tick_hz 120\nframe 10\n").unwrap();
    for (ghost, why) in [("nowhere.lab", "nowhere.lab"), ("bad.lab", "bad.lab:2"), ("fast.lab", "120 Hz")] {
        let script = s.path(&format!("with-{ghost}"));
        std::fs::write(&script, format!("ghost {ghost}\nframe 10\n")).unwrap();
        let o = common::ledge().args(["lab", "--summary"]).arg(&script).output().expect("ledge runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{ghost}: {err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains(":1: ghost ") && err.contains(why), "{ghost}: {err}");
    }
}

#[test]
fn re_cut_five_ways_the_ghost_still_leaves_the_hash_alone() {
    let text = std::fs::read_to_string(dir().join("ghost-rewind.lab")).unwrap();
    let want = case("ghost-rewind-none.lab").summary.state_hash;
    for cut in ["30", "60", "144", "240", "jitter:20261201"] {
        let opts = common::lab::options("ghost-rewind.lab", &dir(), false);
        let r = run_recut(&text, &opts, cut.parse::<Recut>().unwrap(), &mut |_, _| Ok(())).unwrap();
        assert_eq!(r.summary.state_hash, want, "--recut {cut}");
        assert!(r.frames.unwrap().iter().all(|f| f.drawn_ghost.is_some()), "--recut {cut}");
    }
}

#[test]
fn an_attempt_written_tick_by_tick_plays_as_a_ghost_of_the_same_run() {
    // What the game keeps of a level attempt (lab::tick_script), used as a `ghost` line.
    let level = root().join("assets/levels/level1.tmx");
    let run = format!(
        "level {}\npress right @0\npress jump @250\nrelease jump @400\nframe 7 x50\nframe 23 x40\n",
        level.display()
    );
    let opts = common::lab::options("attempt", root(), false);
    let played = common::lab::run(&run, &opts);
    let tuning = ledge::sim::Tuning::load(&root().join("assets/tuning.toml")).unwrap();
    let mut attempt = TickScript::new(&level, None, &tuning, &ledge::time::StepperConfig::default());
    for t in played.ticks.as_deref().unwrap() {
        attempt.tick(&t.input);
    }
    let s = Scratch::new("ghost-attempt");
    std::fs::write(s.path("attempt.lab"), attempt.text()).unwrap();
    let live =
        format!("ghost {}\nlevel {}\nframe 10 x150\n", s.path("attempt.lab").display(), level.display());
    let live = common::lab::run(&live, &opts);
    let spawn = ledge::level::tiled_map::load_tmx(&level).unwrap().spawn;
    let ghost = track_from(&played, spawn);
    assert_eq!(ghost.len(), 76 + 1, "1,270 ms of ticks in the attempt");
    let checked = check_alignment(&live, &ghost);
    assert!(checked > 50 && checked < 150, "{checked} frames within the attempt's ticks");
}

#[cfg(feature = "game")]
#[test]
fn the_games_ghost_flag_exits_2_naming_a_missing_or_malformed_file() {
    let s = Scratch::new("ghost-flag");
    std::fs::write(s.path("bad.lab"), "frame 10\nbogus 1\n").unwrap();
    for (file, why) in [
        (s.path("nowhere.lab"), "nowhere.lab: not found"),
        (s.path("bad.lab"), "bad.lab:2: unknown directive"),
    ] {
        let o = common::ledge()
            .arg("--ghost")
            .arg(&file)
            .arg("--save-dir")
            .arg(s.path("save"))
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.lines().count() == 1 && err.starts_with("ledge: ghost ") && err.contains(why), "{err}");
    }
}
