//! A race's sounds under rollback (NET.md "Rollback and the picture"): a two-player race on
//! level 1 driven by ggrs's sync-test session, which rolls every tick back 7 ticks and
//! simulates them again, hands the sounds' ledger (`audio::rollsafe`) every simulation of every
//! tick; the ledger plays each (cue, tick) exactly once — the cues a plain run of the same race
//! makes for player 1 — and stops none (a sync test's re-simulations never differ).
//!
//! Clock: fixed tick (frames of exactly one tick each).

use ledge::audio::rollsafe::Ledger;
mod common;

use ledge::game_loop::Loop;
use ledge::input::{Action, InputEvent, Source};
use ledge::net::synctest::SyncTest;
use ledge::sim::cues::Cue;

const TICK_NS: u64 = 16_666_667;

fn race_loop() -> Loop {
    common::levels::race_on_level1(2)
}

/// Player 1 runs right and jumps every 40 ticks; player 2 runs right from tick 30.
fn push_inputs(lp: &mut Loop, frame: u64) {
    let t = frame * TICK_NS;
    let ev = |a| InputEvent::Press(Source::Keyboard, a);
    let up = |a| InputEvent::Release(Source::Keyboard, a);
    match frame {
        0 => lp.push_event_for(0, t, ev(Action::Right)),
        30 => lp.push_event_for(1, t, ev(Action::Right)),
        _ => {}
    }
    if frame % 40 == 5 {
        lp.push_event_for(0, t, ev(Action::Jump));
    }
    if frame % 40 == 20 {
        lp.push_event_for(0, t, up(Action::Jump));
    }
}

#[test]
fn every_cue_plays_once_under_the_sync_tests_rollbacks() {
    const FRAMES: u64 = 400;
    // The plain race: player 1's cues, tick by tick.
    let mut plain = race_loop();
    let mut want: Vec<(u64, Cue)> = Vec::new();
    for f in 0..FRAMES {
        push_inputs(&mut plain, f);
        plain.frame((f + 1) * TICK_NS);
        for t in plain.ticks_this_frame() {
            want.extend(t.sounds.iter().map(|c| (t.tick, c)));
        }
    }
    assert!(want.iter().any(|(_, c)| *c == Cue::Jump), "the plain race jumps: {want:?}");

    // The same race, every tick rolled back 7 ticks and simulated again.
    let mut driven = race_loop();
    let mut driver = SyncTest::new(2, 7).expect("a sync test");
    let mut ledger: Ledger<(u64, Cue)> = Ledger::default();
    let (mut played, mut stopped) = (Vec::new(), Vec::new());
    let mut simulated = 0usize;
    for f in 0..FRAMES {
        push_inputs(&mut driven, f);
        driven.frame_driven((f + 1) * TICK_NS, &mut driver);
        let ticks = driven.race_cues().to_vec();
        simulated += ticks.len();
        let newest = ticks.iter().map(|(t, _)| *t).max().unwrap_or(0);
        ledger.update(
            &ticks,
            |c| {
                played.push((newest, c));
                (newest, c)
            },
            |c, _| stopped.push(c),
        );
    }
    assert!(driver.mismatch().is_none(), "{:?}", driver.mismatch());
    assert!(simulated > 3 * FRAMES as usize, "re-simulations reach the ledger: {simulated} simulations");
    let mut got: Vec<Cue> = played.iter().map(|(_, c)| *c).collect();
    let mut expected: Vec<Cue> = want.iter().map(|(_, c)| *c).collect();
    got.sort_by_key(|c| c.name());
    expected.sort_by_key(|c| c.name());
    assert_eq!(got, expected, "each cue once, as the plain race makes them");
    assert!(stopped.is_empty(), "nothing rolled back differs: {stopped:?}");
}
