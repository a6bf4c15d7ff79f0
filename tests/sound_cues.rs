//! Sound cues on the fixed tick (`ledge::sim::cues`, docs/architecture.md "Sound"): a frame that
//! runs three catch-up ticks reports each tick's cue once, in its own tick; rewind ticks are
//! silent; the lab report lists them as `ticks[].sounds`.
//!
//! Clock: the lab's scripted wall clock (in-process).

mod common;

use common::root;
use ledge::game_loop::TickRecord;
use ledge::lab::report::Report;

/// A flat floor 70 tiles wide, the player standing near its left end; then `body`.
fn flat(body: &str) -> Report {
    let mut text = String::from("map\n");
    for _ in 0..6 {
        text += &".".repeat(70);
        text.push('\n');
    }
    text += &format!(".....P{}\n{}\nend\n", ".".repeat(64), "#".repeat(70));
    text += body;
    let dir = root().join("tests/cases");
    common::lab::run(&text, &common::lab::options("flat", &dir, false))
}

fn ticks(r: &Report) -> &[TickRecord] {
    r.ticks.as_deref().expect("full report")
}

/// (tick, cue names) of every tick that has cues.
fn heard(r: &Report) -> Vec<(u64, Vec<&'static str>)> {
    ticks(r)
        .iter()
        .filter(|t| !t.sounds.is_empty())
        .map(|t| (t.tick, t.sounds.iter().map(|c| c.name()).collect()))
        .collect()
}

#[test]
fn a_catch_up_frame_reports_each_ticks_cue_once() {
    // Settle on the floor (the spawn lands first), press jump, then one 50 ms frame: three
    // ticks in one frame; the jump is in the first, and the other two are silent.
    let r = flat("frame 16.6667 x30\npress jump\nframe 50\nrelease jump\nframe 16.6667 x90\n");
    let all = heard(&r);
    let jumps: Vec<_> = all.iter().filter(|(_, c)| c.contains(&"jump")).collect();
    assert_eq!(jumps.len(), 1, "one jump cue: {all:?}");
    let t = ticks(&r);
    let jump_tick = t.iter().find(|t| t.jump_started).expect("a jump").tick;
    assert_eq!(jumps[0].0, jump_tick, "the cue is in the jump's own tick");
    assert_eq!(r.frames.as_ref().expect("frames")[30].stats.steps, 3, "frame 30 runs 3 ticks");
    // Up, then down again: one landing after the jump.
    let lands: Vec<_> = all.iter().filter(|(n, c)| *n > jump_tick && c.contains(&"land")).collect();
    assert_eq!(lands.len(), 1, "one land cue after the jump: {all:?}");
}

#[test]
fn rewind_ticks_are_silent_and_the_forward_ticks_again_heard() {
    let r = flat(
        "frame 16.6667 x30\npress jump\nframe 16.6667\nrelease jump\nframe 16.6667 x60\n\
         press rewind\nframe 16.6667 x70\nrelease rewind\nframe 16.6667 x5\n",
    );
    let t = ticks(&r);
    assert!(t.iter().any(|t| t.rewound), "the script rewinds");
    for tick in t.iter().filter(|t| t.rewound) {
        assert!(tick.sounds.is_empty(), "rewind tick {} has cues {:?}", tick.tick, tick.sounds);
    }
    // Rewinding back through the jump and the landing does not play them backwards.
    let forward_jumps = t.iter().filter(|t| !t.rewound && t.sounds.contains(ledge::sim::cues::Cue::Jump));
    assert_eq!(forward_jumps.count(), 1);
}

#[test]
fn the_report_lists_sounds_as_names_on_every_tick() {
    let r = flat("frame 16.6667 x30\npress jump\nframe 16.6667\nrelease jump\nframe 16.6667 x5\n");
    let json = serde_json::to_value(&r).expect("report serialises");
    let ticks = json["ticks"].as_array().expect("ticks");
    assert!(ticks.iter().all(|t| t["sounds"].is_array()), "every tick has a sounds list");
    let jump = ticks.iter().find(|t| t["jump_started"] == true).expect("a jump tick");
    assert_eq!(jump["sounds"], serde_json::json!(["jump"]));
    // As a list of names in the JSON text itself.
    let text = serde_json::to_string(&r).expect("report serialises");
    assert_eq!(text.matches(r#""sounds":["jump"]"#).count(), 1, "one tick lists the jump");
}

#[test]
fn the_shipped_sounds_are_what_the_generator_makes() {
    let out = std::process::Command::new("python3")
        .arg(root().join("scripts/make-sounds.py"))
        .arg("--check")
        .output()
        .expect("python3 runs (scripts/test installs it)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for cue in ledge::sim::cues::Cue::ALL {
        let path = root().join(format!("assets/sounds/{}.wav", cue.name()));
        assert!(path.is_file(), "{} missing", path.display());
    }
}
