//! The segment timer against the lab's ticks: on a level with two checkpoints and a goal, the
//! splits land on the exact ticks the checkpoints and the goal were touched (the first tick the
//! player's hitbox overlaps each), the same at 60, 30 and 144 frames a second and with irregular
//! frames; a rewind back before a split takes it back.
//!
//! Clock: a scripted frame clock (the loop driven in-process).

use ledge::game_loop::Loop;
use ledge::input::{Action, InputEvent, Source};
use ledge::level::ascii::parse_ascii;
use ledge::sim::{HITBOX, Tuning};
use ledge::time::StepperConfig;
use ledge::timer::{SegmentEnd, Segments};

const MAP: [&str; 10] = [
    "......................................................",
    "......................................................",
    "......................................................",
    "......................................................",
    "......................................................",
    "......................................................",
    "......................................................",
    "......................................................",
    "..P..........C..............C...................G.....",
    "######################################################",
];

fn level() -> ledge::level::Level {
    let rows: Vec<String> = MAP.iter().map(|r| (*r).to_owned()).collect();
    parse_ascii(&rows, 1).expect("the map parses")
}

/// Run right from the start with frames of `frame_ns` (or the irregular list), splitting the
/// timer after every frame; returns the splits and, from a 1-tick-per-frame run, the first tick
/// each checkpoint and the goal overlapped the hitbox.
fn run(frames: &mut dyn Iterator<Item = u64>) -> Vec<(SegmentEnd, u64)> {
    let mut lp = Loop::new(level(), Tuning::default(), StepperConfig::default()).unwrap();
    lp.push_event(0, InputEvent::Press(Source::Keyboard, Action::Right));
    let mut seg = Segments::start(lp.world().tick);
    let mut now = 0;
    for d in frames {
        now += d;
        lp.frame(now);
        let w = lp.world();
        seg.observe(w.tick, w.checkpoint, w.checkpoint_at, w.finished_at);
        if w.level_complete {
            break;
        }
    }
    seg.splits()
}

/// The first ticks at which the hitbox overlaps each checkpoint's area and the goal, from a
/// run of one tick a frame.
fn touches() -> Vec<u64> {
    let l = level();
    let mut lp = Loop::new(l.clone(), Tuning::default(), StepperConfig::default()).unwrap();
    lp.push_event(0, InputEvent::Press(Source::Keyboard, Action::Right));
    let areas: Vec<ledge::level::Rect> = l.checkpoints.iter().map(|c| c.area).chain(l.goal).collect();
    let mut first = vec![None; areas.len()];
    let mut now = 0;
    while first.iter().any(Option::is_none) && now < 20_000_000_000 {
        now += 16_666_667;
        lp.frame(now);
        let hb = ledge::level::Rect { pos: lp.world().player.pos, size: HITBOX };
        for (i, a) in areas.iter().enumerate() {
            if first[i].is_none() && a.overlaps(&hb) {
                first[i] = Some(lp.world().tick);
            }
        }
    }
    first.into_iter().map(|t| t.expect("every area is reached")).collect()
}

#[test]
fn splits_land_on_the_touch_ticks_at_any_frame_rate() {
    let t = touches();
    let want = vec![
        (SegmentEnd::Checkpoint(0), t[0]),
        (SegmentEnd::Checkpoint(1), t[1] - t[0]),
        (SegmentEnd::Goal, t[2] - t[1]),
    ];
    for (name, frame) in [("60 Hz", 16_666_667u64), ("30 Hz", 33_333_333), ("144 Hz", 6_944_444)] {
        assert_eq!(run(&mut std::iter::repeat(frame)), want, "{name}");
    }
    let irregular = [3_000_000u64, 41_000_000, 16_666_667, 9_000_000, 70_000_000];
    assert_eq!(run(&mut irregular.iter().copied().cycle()), want, "irregular frames");
}

#[test]
fn a_rewind_before_a_split_takes_it_back() {
    let t = touches();
    let mut lp = Loop::new(level(), Tuning::default(), StepperConfig::default()).unwrap();
    let kb = Source::Keyboard;
    lp.push_event(0, InputEvent::Press(kb, Action::Right));
    let mut seg = Segments::start(0);
    let mut now = 0;
    let step = |lp: &mut Loop, seg: &mut Segments, now: &mut u64| {
        *now += 16_666_667;
        lp.frame(*now);
        let w = lp.world();
        seg.observe(w.tick, w.checkpoint, w.checkpoint_at, w.finished_at);
    };
    while lp.world().tick < t[0] + 10 {
        step(&mut lp, &mut seg, &mut now);
    }
    assert_eq!(seg.count(), 1, "the first checkpoint split");
    lp.push_event(now, InputEvent::Press(kb, Action::Rewind));
    for _ in 0..30 {
        step(&mut lp, &mut seg, &mut now);
    }
    assert!(lp.world().tick < t[0]);
    assert_eq!(seg.count(), 0, "rewound before the checkpoint: the split is taken back");
}
