//! Rewind (LAB.md "Time tools"): holding `rewind` restores the kept states one tick at a time,
//! bit-identically. Play 2 s, rewind 1 s, release: the state is the state of that tick in the
//! run without the rewind, and the same inputs from there give the same future. Plus the
//! contract's edges (dropped presses, the release tick, a waiting teleport, used-up history,
//! interpolation and snapping) and a `--record`ed session with rewinds replaying to its hash,
//! as recorded and re-cut five ways.
//!
//! Clock: the lab's scripted wall clock (in-process), and a hand-driven `Loop` standing in for
//! the game's event loop in the recording test.

mod common;

use common::root;
use ledge::game_loop::{Loop, TickRecord};
use ledge::input::{Action, InputEvent, Source};
use ledge::lab::record::Recorder;
use ledge::lab::recut::run_recut;
use ledge::lab::report::Report;
use ledge::time::{GameSpeed, StepperConfig};

fn dir() -> std::path::PathBuf {
    root().join("tests/cases/time")
}

fn case(name: &str) -> Report {
    let text = std::fs::read_to_string(dir().join(name)).expect("readable case");
    common::lab::run(&text, &common::lab::options(name, &dir(), false))
}

/// A flat floor 70 tiles wide, the player near its left end; then `body`.
fn flat(body: &str) -> Report {
    let mut text = String::from("map\n");
    for _ in 0..6 {
        text += &".".repeat(70);
        text.push('\n');
    }
    text += &format!(".....P{}\n{}\nend\n", ".".repeat(64), "#".repeat(70));
    text += body;
    common::lab::run(&text, &common::lab::options("flat", &dir(), false))
}

fn ticks(r: &Report) -> &[TickRecord] {
    r.ticks.as_deref().expect("full report")
}

#[test]
fn two_seconds_then_one_second_back_is_the_state_of_tick_60() {
    let rewound = case("rewind-2s-1s.lab");
    let reference = case("rewind-ref-1s.lab");
    assert_eq!(rewound.summary.state_hash, reference.summary.state_hash);
    assert_eq!(rewound.summary.totals.ticks, 180, "forward and rewind ticks both count");
    assert_eq!(rewound.summary.totals.rewound_ticks, 60);
    let t = ticks(&rewound);
    let numbers: Vec<u64> = t[120..].iter().map(|t| t.tick).collect();
    assert_eq!(numbers, (60..120).rev().collect::<Vec<u64>>(), "restored tick numbers, going down");
    // Each rewind tick lists exactly the state that forward tick had.
    for r in &t[120..] {
        let forward = &t[r.tick as usize - 1];
        assert_eq!((forward.tick, forward.player), (r.tick, r.player));
        assert!(r.rewound && !forward.rewound && !r.jump_started && !r.respawned);
    }
    let frames = rewound.frames.as_deref().unwrap();
    assert!(frames[250].stats.tick < frames[200].stats.tick, "frames[].tick goes down");
}

#[test]
fn the_same_inputs_after_the_rewind_give_the_same_future() {
    let rewound = case("rewind-future.lab");
    let reference = case("rewind-future-ref.lab");
    assert_eq!(rewound.summary.state_hash, reference.summary.state_hash);
    // Tick by tick after the release: the same states as the run that never rewound.
    let after: Vec<_> = ticks(&rewound)[180..].iter().map(|t| (t.tick, t.player, t.jump_started)).collect();
    let want: Vec<_> = ticks(&reference)[60..].iter().map(|t| (t.tick, t.player, t.jump_started)).collect();
    assert_eq!(after, want);
}

#[test]
fn presses_while_rewinding_are_dropped_and_a_press_in_the_release_tick_counts() {
    // Jump pressed (and held) during the rewind: no jump, neither then nor after the release.
    let r = flat("press rewind @500\npress jump @700\nrelease rewind @800\nframe 10 x120\n");
    assert!(ticks(&r).iter().all(|t| !t.jump_started), "no buffered jump after the release");
    // Jump pressed at the very time of the release (same tick): it counts in that tick.
    let r = flat("press rewind @500\nrelease rewind @800\npress jump @800\nframe 10 x120\n");
    // Ticks 1-30 forward, 31-48 rewind (back to world tick 12), 49 (800 ms) the release tick:
    // it runs forward to world tick 13, and the jump starts there.
    let jumps: Vec<(usize, u64)> =
        ticks(&r).iter().enumerate().filter(|(_, t)| t.jump_started).map(|(i, t)| (i, t.tick)).collect();
    assert_eq!(jumps, [(48, 13)]);
}

#[test]
fn a_teleport_waits_for_the_first_forward_tick_and_history_runs_out_at_the_oldest_state() {
    let r = flat(
        "press rewind @100\nframe 10 x20\nteleport 400 50\nframe 10 x10\nrelease rewind @300\nframe 10 x10\n",
    );
    let t = ticks(&r);
    // 6 forward ticks, then rewinds back to tick 0 and stays there (used up).
    assert_eq!(t[5].tick, 6);
    assert!(t[6..18].iter().all(|t| t.rewound));
    assert_eq!(t[11].tick, 0);
    assert!(t[11..18].iter().all(|x| x.tick == 0 && x.player == t[11].player), "stays at the oldest");
    // The release at 300 ms: tick 19 runs forward, and that is where the teleport lands.
    assert!(!t[18].rewound && t[18].respawned, "{:?}", t[18]);
    assert_eq!((t[18].tick, t[18].player.x, t[18].player.y), (1, 400.0, 50.0));
    assert_eq!(r.summary.respawns, 1);
}

#[test]
fn rewinding_is_drawn_with_the_same_lerp_and_snaps_only_across_a_reset() {
    // 25 ms frames (1.5 ticks): the drawn position is always between the last two states.
    let r = flat("press right @0\npress rewind @1000\nframe 25 x60\n");
    let frames = r.frames.as_deref().unwrap();
    let t = ticks(&r);
    for f in &frames[41..] {
        let i = (f.frame as usize + 1) * 3 / 2 - 1; // the frame's last tick: 1.5 ticks a frame
        assert!(t[i].rewound && t[i].tick == f.stats.tick);
        let (prev, cur) = (t[i - 1].player.x, t[i].player.x);
        let want = prev + (cur - prev) * f.stats.alpha;
        assert!((f.stats.drawn.x - want).abs() < 1e-9, "frame {}: {} vs {want}", f.frame, f.stats.drawn.x);
        assert!(f.stats.drawn.x <= prev && f.stats.drawn.x >= cur, "drawn between the two states");
    }
    // Rewinding across a teleport: the drawn position jumps with the state (no streak).
    let r = flat("frame 10 x10\nteleport 600 60\nframe 10 x10\npress rewind\nframe 10 x10\nframe 5\n");
    let frames = r.frames.as_deref().unwrap();
    // Ticks 13-18 rewind to 11 … 6; going back to 6 undoes tick 7, the teleport.
    // The last frame runs no tick and is drawn half a tick on (alpha 0.3): at the state itself.
    let back = frames.last().unwrap();
    assert_eq!((back.stats.tick, back.stats.steps), (6, 0));
    assert!(back.stats.alpha > 0.2);
    assert_eq!(back.stats.drawn.x, back.stats.player.x, "snapped at the undone teleport");
}

#[test]
fn a_recorded_session_with_rewinds_replays_to_the_same_hash() {
    let level_path = root().join("assets/levels/level1.tmx");
    let level = ledge::level::tiled_map::load_tmx(&level_path).unwrap();
    let tuning = ledge::sim::Tuning::load(&root().join("assets/tuning.toml")).unwrap();
    let config = StepperConfig::default();
    for speed in [GameSpeed::FULL, GameSpeed::SLOWEST] {
        let mut lp = Loop::new(level.clone(), tuning.clone(), config).unwrap();
        lp.set_game_speed(speed);
        let mut rec = Recorder::new(
            std::path::Path::new("/tmp/unused.lab"),
            &level_path,
            None,
            &tuning,
            &config,
            speed,
            false,
        );
        let kb = Source::Keyboard;
        let events = [
            (3_000_001u64, InputEvent::Press(kb, Action::Right)),
            (400_000_000, InputEvent::Press(kb, Action::Jump)),
            (450_000_000, InputEvent::Release(kb, Action::Jump)),
            (1_200_000_000, InputEvent::Press(kb, Action::Rewind)),
            (1_250_000_000, InputEvent::Press(kb, Action::Jump)),
            (1_700_000_000, InputEvent::Release(kb, Action::Rewind)),
            (1_700_000_000, InputEvent::Release(kb, Action::Jump)),
            (1_900_000_000, InputEvent::Press(Source::Pad, Action::Rewind)),
            (2_000_000_000, InputEvent::Release(Source::Pad, Action::Rewind)),
        ];
        let mut deltas = [7_000_001u64, 16_666_667, 33_000_000, 4_100_000].iter().cycle();
        let (mut now, mut next) = (0u64, 0);
        while now < 2_500_000_000 {
            now += deltas.next().unwrap();
            while next < events.len() && events[next].0 <= now {
                lp.push_event(events[next].0, events[next].1);
                rec.event(events[next].0, &events[next].1);
                next += 1;
            }
            lp.frame(now);
            rec.frame(now);
        }
        let text = rec.text().to_string();
        assert!(text.contains("press rewind @1200.000000"), "{text}");
        let report = common::lab::run(&text, &common::lab::options("rec", root(), true));
        assert_eq!(report.summary.state_hash, format!("{:016x}", lp.state_hash()), "{speed:?}");
        assert_eq!(report.summary.totals.rewound_ticks, lp.totals().rewound_ticks);
        assert!(lp.totals().rewound_ticks > 10, "{speed:?}: {:?}", lp.totals());
        // The recording re-cut five ways (LAB.md `--recut`): the same hash.
        for cut in ["30", "60", "144", "240", "jitter:99"] {
            let opts = common::lab::options("rec", root(), true);
            let r = run_recut(&text, &opts, cut.parse().unwrap(), &mut |_, _| Ok(())).unwrap();
            assert_eq!((r.summary.totals.clamp_events, r.summary.totals.cap_hits), (0, 0));
            assert_eq!(r.summary.state_hash, report.summary.state_hash, "{speed:?} --recut {cut}");
        }
    }
}
