//! The same picture on every screen (LAB.md "Version 3 additions"): every presentation field of
//! a frame is a pure function of the ticks run so far and the frame's alpha.
//!
//! - within a tick at 240 Hz, every interpolated field lies on the straight line in alpha;
//! - each level script ends on one `state_hash` with effects, shake and flashes on or off and
//!   reduced motion on or off (no cosmetic setting or state reaches a tick);
//! - a rewind over a landing and a death shows, at the first forward tick after the release,
//!   the straight run's picture (the undone death's burst is gone), and a rewind over a jump
//!   ends on the straight run's `state_hash` (the hash rule: the counters are statistics).
//!
//! The re-cut comparison itself (30/60/144/240/jitter at every shared instant) is
//! `../shared/tools/picturecheck`, run by `scripts/test` on every level script and v2 case.
//!
//! Clock: the lab's scripted wall clock (in-process).

mod common;

use common::root;
use ledge::lab::recut::run_recut;
use ledge::lab::report::{FrameReport, Report};
use serde_json::Value;

fn level_script(n: u32) -> (String, ledge::lab::LabOptions) {
    let dir = root().join("tests/levels");
    let name = format!("level{n}.lab");
    let text = std::fs::read_to_string(dir.join(&name)).expect("level script");
    (text, common::lab::options(&name, &dir, false))
}

/// The presentation fields of a frame, as the report writes them.
const FIELDS: [&str; 8] =
    ["camera", "view", "drawn", "drawn_entities", "shake", "player_scale", "effects", "parallax"];

/// Every number in `v`, depth first (booleans and strings left out), in order.
fn numbers(v: &Value, out: &mut Vec<f64>) {
    match v {
        Value::Number(n) => out.push(n.as_f64().expect("finite")),
        Value::Array(a) => a.iter().for_each(|x| numbers(x, out)),
        Value::Object(o) => o.values().for_each(|x| numbers(x, out)),
        _ => {}
    }
}

fn picture(f: &FrameReport) -> Value {
    let v = serde_json::to_value(f).expect("frame serialises");
    Value::Object(FIELDS.iter().map(|k| (k.to_string(), v.get(*k).cloned().unwrap_or(Value::Null))).collect())
}

#[test]
fn within_a_tick_at_240_hz_every_interpolated_field_is_a_straight_line_in_alpha() {
    for n in [4, 10] {
        let (text, opts) = level_script(n);
        let r = run_recut(&text, &opts, "240".parse().expect("cut"), &mut |_, _| Ok(())).expect("runs");
        let frames = r.frames.as_deref().expect("frames");
        let (mut groups, mut checked) = (0, 0);
        // A frame that ran ticks starts a group; the frames after it that ran none show the same
        // two ticks at a larger alpha.
        let mut start = 0;
        while start < frames.len() {
            let mut end = start + 1;
            while end < frames.len() && frames[end].stats.steps == 0 {
                end += 1;
            }
            let group = &frames[start..end];
            start = end;
            if group.len() < 3 || group[0].stats.steps == 0 {
                continue;
            }
            groups += 1;
            let vals: Vec<(f64, Vec<f64>)> = group
                .iter()
                .map(|f| {
                    let mut v = vec![];
                    numbers(&picture(f), &mut v);
                    (f.stats.alpha, v)
                })
                .collect();
            let (a0, v0) = &vals[0];
            let (a1, v1) = &vals[1];
            for (a, v) in &vals[2..] {
                assert_eq!(
                    v.len(),
                    v0.len(),
                    "level {n} tick {}: the same items all tick",
                    group[0].stats.tick
                );
                for i in 0..v.len() {
                    let slope = (v1[i] - v0[i]) / (a1 - a0);
                    let on_line = v0[i] + slope * (a - a0);
                    assert!(
                        (v[i] - on_line).abs() < 1e-6,
                        "level {n} tick {} value {i}: {} at alpha {a}, the line gives {on_line}",
                        group[0].stats.tick,
                        v[i]
                    );
                    checked += 1;
                }
            }
        }
        assert!(groups > 500 && checked > 10_000, "level {n}: {groups} ticks, {checked} values checked");
    }
}

#[test]
fn every_level_script_ends_on_one_hash_whatever_the_cosmetic_settings() {
    let variants = [
        "",
        "config effects 0\nconfig shake 0\nconfig flashes 0\n",
        "config shake 1\n",
        "config reduced_motion 1\n",
        "config reduced_motion 1\nconfig effects 1\nconfig shake 2\nconfig flashes 0\n",
    ];
    for n in 1..=12 {
        let (text, opts) = level_script(n);
        let runs: Vec<Report> =
            variants.iter().map(|v| common::lab::run(&format!("{v}{text}"), &opts)).collect();
        let base = &runs[0];
        assert!(
            base.frames.as_deref().expect("frames").iter().any(|f| !f.effects.is_empty()),
            "level {n}: the default run draws effects"
        );
        for (v, r) in variants.iter().zip(&runs).skip(1) {
            assert_eq!(r.summary.state_hash, base.summary.state_hash, "level {n} with {v:?}");
            assert_eq!(r.ticks, base.ticks, "level {n} with {v:?}: every tick the same");
        }
        let off = runs[1].frames.as_deref().expect("frames");
        assert!(
            off.iter().all(|f| f.effects.is_empty() && f.shake.x == 0.0 && f.shake.y == 0.0),
            "level {n} off"
        );
        for r in &runs[3..] {
            assert!(
                r.frames.as_deref().expect("frames").iter().all(|f| f.shake.x == 0.0 && f.shake.y == 0.0)
            );
        }
    }
}

/// v3-fx-ref's map (run right, a jump, its landing, then into the spikes) at a tick rate whose
/// tick is a whole number of milliseconds, and frames that keep one alpha throughout (a 7 ms
/// frame, then 20 ms ones: alpha 0.35 at every frame), so two runs that reach a tick by other
/// roads show it at the same alpha; then `body`.
fn spikes(body: &str) -> String {
    let mut t = String::from("config tick_hz 50\nmap\n");
    for _ in 0..6 {
        t += &".".repeat(40);
        t.push('\n');
    }
    t += "..P.....................................\n##############^^^^######################\nend\n";
    t += "press right @0\npress jump @250\nrelease jump @500\n";
    t + body
}

fn run(text: &str) -> Report {
    common::lab::run(text, &common::lab::options("same_picture", &root().join("tests"), false))
}

#[test]
fn a_rewind_over_a_landing_and_a_death_shows_the_straight_runs_picture_after_the_release() {
    let straight = run(&spikes("frame 7\nframe 20 x150\n"));
    let ticks = straight.ticks.as_deref().expect("ticks");
    let jump = ticks.iter().find(|t| t.jump_started).expect("a jump").tick;
    let land = ticks
        .iter()
        .find(|t| t.tick > jump && t.sounds.contains(ledge::sim::cues::Cue::Land))
        .expect("a landing")
        .tick;
    let death = ticks.iter().find(|t| t.died).expect("a death").tick;
    // Hold rewind from 5 ticks after the death until 10 ticks before the landing.
    let (press_tick, back_to) = (death + 5, land - 10);
    let held = press_tick - back_to;
    let press_ms = 7 + 20 * (press_tick - 1);
    let release_ms = press_ms + 20 * held;
    let rewound = run(&spikes(&format!(
        "press rewind @{press_ms}\nrelease rewind @{release_ms}\nframe 7\nframe 20 x150\n"
    )));
    let frames = rewound.frames.as_deref().expect("frames");
    let burst_before =
        frames.iter().any(|f| f.stats.tick > death && f.effects.iter().any(|e| e.kind == "burst"));
    assert!(burst_before, "the death burst is drawn before the rewind");
    let rt = rewound.ticks.as_deref().expect("ticks");
    let first_forward = rt
        .iter()
        .position(|t| t.rewound)
        .map(|i| i + rt[i..].iter().position(|t| !t.rewound).unwrap())
        .unwrap();
    let t = rt[first_forward].tick;
    assert!(
        t.abs_diff(back_to) <= 2 && t < land,
        "the first forward tick after the release is {t} (back to {back_to}, landing {land}, death {death})"
    );
    // The frame that ran that tick: the one whose steps take the tick count past it.
    let mut run_so_far = 0;
    let after = frames
        .iter()
        .find(|f| {
            run_so_far += f.stats.steps as usize;
            run_so_far > first_forward
        })
        .expect("frame");
    assert_eq!(after.stats.tick, t);
    let before =
        straight.frames.as_deref().unwrap().iter().find(|f| f.stats.tick == t).expect("straight frame");
    assert_eq!(after.stats.alpha, before.stats.alpha);
    assert_eq!(picture(after), picture(before), "tick {t}: the straight run's picture");
    assert!(after.effects.iter().all(|e| e.kind != "burst"), "the undone death's burst is gone");
    // From there on the two runs are the same run, picture and all, to the landing and past it.
    let straight_frames = straight.frames.as_deref().expect("frames");
    let later = frames.iter().filter(|f| f.frame > after.frame);
    let straight_later = straight_frames.iter().filter(|f| f.frame > before.frame);
    let mut compared = 0;
    for (a, b) in later.zip(straight_later) {
        assert_eq!((a.stats.tick, picture(a)), (b.stats.tick, picture(b)), "frame {}", a.frame);
        compared += 1;
    }
    assert!(compared > 20, "{compared} frames compared");
}

#[test]
fn a_rewind_over_a_jump_ends_on_the_straight_runs_hash() {
    let flat = |body: &str| {
        let mut t = String::from("map\n");
        for _ in 0..6 {
            t += &".".repeat(70);
            t.push('\n');
        }
        t += &format!(".....P{}\n{}\nend\n", ".".repeat(64), "#".repeat(70));
        run(&(t + body))
    };
    // 2 s with two jumps; rewind held over the second (ticks 90 back to 42), then 1 s more.
    let rewound = flat(
        "press jump @200\nrelease jump @400\npress jump @1200\nrelease jump @1400\n\
         press rewind @1500\nrelease rewind @2300\nframe 16.6667 x180\n",
    );
    assert_eq!(rewound.summary.jumps, 2, "the counters keep counting what happened");
    assert_eq!(rewound.summary.totals.rewound_ticks, 48);
    let end_tick = rewound.ticks.as_deref().unwrap().last().unwrap().tick;
    let straight = flat(&format!("press jump @200\nrelease jump @400\nframe 16.6667 x{end_tick}\n"));
    assert_eq!(straight.ticks.as_deref().unwrap().last().unwrap().tick, end_tick);
    assert_eq!(straight.summary.jumps, 1);
    assert_eq!(rewound.summary.state_hash, straight.summary.state_hash);
}
