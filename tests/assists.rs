//! The invincibility assist in the lab (`config assist_invincible 1`; Celeste's Assist Mode as
//! the reference): spikes, saws, walkers and squishes do not kill, a fall out of the level puts
//! the player back on the last tile ground stood on (a respawn, not a death), the same script
//! without it dies each time, and a script without the line hashes as it always did.
//!
//! Clock: the lab's scripted clock.

mod common;

use common::lab::{options, run};
use ledge::lab::report::Report;
use ledge::lab::run_script;
use std::path::Path;

fn lab(text: &str) -> Report {
    run(text, &options("assists", Path::new("."), false))
}

fn both(body: &str) -> (Report, Report) {
    (lab(body), lab(&format!("config assist_invincible 1\n{body}")))
}

/// Spikes on the floor ahead.
const SPIKES: &str = "map
..............................
..............................
..............................
..............................
..............................
..............................
..............................
..............................
..P.......^^^^................
##############################
end
press right @0
frame 16.666667 x150
";

#[test]
fn spikes_do_not_kill_and_the_run_goes_on_over_them() {
    let (mortal, invincible) = both(SPIKES);
    assert!(mortal.summary.deaths >= 1, "without the assist the spikes kill");
    assert_eq!(invincible.summary.deaths, 0);
    let ticks = invincible.ticks.as_deref().unwrap();
    assert!(ticks.iter().all(|t| !t.died));
    assert!(ticks.last().unwrap().player.x > 14.0 * 16.0, "the player walked past the spikes");
    assert_eq!(invincible.echo.assist_invincible, Some(1));
    assert_eq!(mortal.echo.assist_invincible, None);
}

#[test]
fn a_fall_out_of_the_level_puts_the_player_back_on_the_last_ground() {
    // The floor has a hole at columns 5..=8 over nothing: run into it.
    let body = "map
..............................
..............................
..............................
..............................
..............................
..............................
..............................
..............................
..P...........................
#####....#####################
end
press right @0
release right @300
frame 16.666667 x120
";
    let (mortal, invincible) = both(body);
    assert!(mortal.summary.deaths >= 1, "without the assist the fall kills");
    assert_eq!(invincible.summary.deaths, 0);
    let ticks = invincible.ticks.as_deref().unwrap();
    let back = ticks.iter().position(|t| t.respawned).expect("the fall put the player back");
    assert!(!ticks[back].died, "put back, not killed");
    let before = &ticks[back - 1];
    assert!(before.player.y > 9.0 * 16.0, "it had fallen below the floor: {}", before.player.y);
    // Back where it last stood on the floor, left of the hole, at rest.
    let at = &ticks[back].player;
    assert_eq!(at.y, 144.0 - ledge::sim::HITBOX.y, "{at:?}");
    assert!(at.x < 5.0 * 16.0 && at.x > 2.0 * 16.0, "{at:?}");
    assert_eq!((at.vx, at.vy), (0.0, 0.0));
    assert_eq!(mortal.summary.totals.ticks, invincible.summary.totals.ticks);
}

#[test]
fn saws_and_walkers_do_not_kill() {
    let body = "map
..............................
..............................
..............................
..............................
..............................
..............................
..............................
..............................
...P..........................
..............................
##############################
end
entity walker x=120 y=144 speed=-60
entity saw x=200 y=136 to=260,136 speed=50
press right @0
frame 16.666667 x240
";
    let (mortal, invincible) = both(body);
    assert!(mortal.summary.deaths >= 1, "without the assist the walker kills");
    assert_eq!(invincible.summary.deaths, 0);
    let ticks = invincible.ticks.as_deref().unwrap();
    assert!(ticks.last().unwrap().player.x > 280.0, "walked through the walker and the saw");
}

#[test]
fn a_squish_lifts_the_player_onto_the_solid_instead_of_killing() {
    let text = std::fs::read_to_string(common::root().join("tests/cases/v2/ent-squish-ceiling.lab")).unwrap();
    let (mortal, invincible) = (lab(&text), lab(&format!("config assist_invincible 1\n{text}")));
    assert!(mortal.ticks.as_deref().unwrap().iter().any(|t| t.died));
    let ticks = invincible.ticks.as_deref().unwrap();
    assert!(ticks.iter().all(|t| !t.died), "squished without dying");
    // Never above the ceiling's underside (y = 64): lifted onto the platform, not through.
    assert!(ticks.iter().all(|t| t.player.y >= 64.0 - ledge::sim::HITBOX.y - 16.0));
    assert_eq!(invincible.summary.deaths, 0);
}

#[test]
fn a_script_without_the_assist_hashes_as_before_and_with_it_differently() {
    let (mortal, invincible) = both("frame 16.666667 x30\n");
    // Standing still nothing differs but the hashed assist itself.
    assert_ne!(mortal.summary.state_hash, invincible.summary.state_hash);
    let off = lab("config assist_invincible 0\nframe 16.666667 x30\n");
    assert_eq!(off.summary.state_hash, mortal.summary.state_hash, "0 is the default");
}

#[test]
fn a_bad_value_or_a_race_is_refused_in_one_line() {
    for (text, want) in [
        ("config assist_invincible 2\nframe 1\n", "a.lab:1: config assist_invincible must be 0 or 1, got 2"),
        (
            "players 2\nconfig assist_invincible 1\nframe 1\n",
            "config assist_invincible: a race has no assists",
        ),
    ] {
        let e = run_script(text, &options("a.lab", Path::new("."), true)).unwrap_err();
        assert!(e.to_string().contains(want), "{e}");
    }
}

#[test]
fn a_recording_made_with_the_assist_replays_with_it() {
    use ledge::game_loop::Loop;
    use ledge::input::{Action, InputEvent, Source};
    use ledge::lab::record::Recorder;
    use ledge::sim::Tuning;
    use ledge::time::{GameSpeed, StepperConfig};
    let root = common::root();
    let level_path = root.join("assets/levels/level1.tmx");
    let level = ledge::level::tiled_map::load_tmx(&level_path).unwrap();
    let tuning = Tuning::load(&root.join("assets/tuning.toml")).unwrap();
    let config = StepperConfig::default();
    let mut lp = Loop::new(level, tuning.clone(), config).unwrap();
    lp.set_invincible(true);
    let mut rec = Recorder::new(
        Path::new("/tmp/unused.lab"),
        &level_path,
        None,
        &tuning,
        &config,
        GameSpeed::FULL,
        true,
    );
    let right = InputEvent::Press(Source::Keyboard, Action::Right);
    lp.push_event(0, right);
    rec.event(0, &right);
    // Level 1 runs into spikes within these 8 s: the assist keeps the player alive.
    let mut now = 0;
    for _ in 0..480 {
        now += 16_666_667;
        lp.frame(now);
        rec.frame(now);
    }
    assert_eq!(lp.world().deaths, 0);
    let text = rec.finish_text(lp.state_hash());
    assert!(text.contains("config assist_invincible 1"), "{text}");
    let replay = run(&text, &options("rec", root, true));
    assert_eq!(replay.summary.state_hash, format!("{:016x}", lp.state_hash()));
    assert_eq!(replay.summary.deaths, 0);
    let mortal = run(&text.replace("config assist_invincible 1\n", ""), &options("rec", root, true));
    assert!(mortal.summary.deaths >= 1, "the same keys without the assist die on level 1's spikes");
}
