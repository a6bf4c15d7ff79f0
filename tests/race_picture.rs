//! The picture after a rollback (NET.md "Rollback and the picture", LAB.md Version 3): a race
//! of two on level 1, followed as player 2, driven by a session that mispredicts player 2's
//! input every tick (it guesses a jump) and corrects it one tick later — the worst a peer's
//! prediction can do. What was drawn of each wrong guess (the jump's dust, the squash, the
//! camera's lift) must vanish: at every frame, once the last tick is corrected, the view is the
//! one an undriven loop shows on the true inputs — camera, shake, every effect, every body.
//!
//! Clock: fixed tick (frames of exactly one tick each, alpha 0).

mod common;

use ledge::game_loop::{Loop, RollbackSim, TickDriver};
use ledge::input::latch::TickInput;
use ledge::input::{Action, InputEvent, Source};
use ledge::sim::World;

const TICK_NS: u64 = 16_666_667;

fn race_loop() -> Loop {
    let mut lp = common::levels::race_on_level1(2);
    lp.set_followed(1);
    lp
}

/// Player 2 runs right and jumps every 45 ticks; player 1 runs right.
fn push_inputs(lp: &mut Loop, frame: u64) {
    let t = frame * TICK_NS;
    let press = |a| InputEvent::Press(Source::Keyboard, a);
    let release = |a| InputEvent::Release(Source::Keyboard, a);
    if frame == 0 {
        lp.push_event_for(0, t, press(Action::Right));
        lp.push_event_for(1, t, press(Action::Right));
    }
    match frame % 45 {
        10 => lp.push_event_for(1, t, press(Action::Jump)),
        25 => lp.push_event_for(1, t, release(Action::Jump)),
        _ => {}
    }
}

/// Every tick: first corrects the last tick (loads the world before it and simulates it again
/// on its true inputs), then runs this tick with player 2 guessed wrong: a jump pressed and
/// held. With `settle`, this tick is run on its true inputs (nothing left to correct).
#[derive(Default)]
struct Mispredict {
    before_last: Option<World>,
    last_inputs: Vec<TickInput>,
    settle: bool,
}

impl TickDriver for Mispredict {
    fn tick(&mut self, inputs: &[TickInput], sim: &mut dyn RollbackSim) -> bool {
        if let Some(w) = self.before_last.take() {
            sim.load(&w);
            sim.advance(&self.last_inputs, 0);
            sim.save();
        }
        let (before, _) = sim.save();
        let mut guessed = inputs.to_vec();
        if !self.settle {
            guessed[1].held[Action::Jump.index()] = true;
            guessed[1].pressed[Action::Jump.index()] = true;
            self.before_last = Some(before);
            self.last_inputs = inputs.to_vec();
        }
        sim.advance(&guessed, 0);
        true
    }
}

/// What a frame shows, as text (every field of the view but the level).
fn shown(lp: &Loop) -> String {
    let v = lp.view();
    format!(
        "camera {:?} shake {:?} player {:?} scale {:?} effects {:?} rivals {:?} entities {:?} goal {:?}",
        v.camera, v.shake, v.player, v.player_scale, v.effects, v.rivals, v.entities, v.goal_angle
    )
}

#[test]
fn a_mispredicted_jump_leaves_nothing_on_screen_once_corrected() {
    const FRAMES: u64 = 300;
    let mut plain = race_loop();
    let mut driven = race_loop();
    let mut driver = Mispredict::default();
    let mut wrong_frames = 0;
    for f in 0..FRAMES {
        push_inputs(&mut plain, f);
        push_inputs(&mut driven, f);
        plain.frame((f + 1) * TICK_NS);
        // Every 30 frames, one frame runs on the true inputs: then nothing is left to correct,
        // and the picture must be the plain loop's.
        driver.settle = f % 30 == 29;
        driven.frame_driven((f + 1) * TICK_NS, &mut driver);
        if driver.settle {
            assert_eq!(driven.world().state_hash(), plain.world().state_hash(), "frame {f}: the same world");
            assert_eq!(shown(&driven), shown(&plain), "frame {f}: the same picture");
        } else if shown(&driven) != shown(&plain) {
            wrong_frames += 1;
        }
    }
    assert!(wrong_frames > 100, "the guesses were drawn meanwhile (else this tests nothing): {wrong_frames}");
}
