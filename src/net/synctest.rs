//! `ledge lab SCRIPT --synctest D` (LAB.md Version 4 "Rollback check"): every tick of a lab
//! run goes through ggrs's [`SyncTestSession`], which rolls the world back D ticks and
//! simulates them again each tick, comparing [`World::state_hash`] of every re-simulated tick
//! with the first time it was simulated.
//!
//! Clock: fixed tick (one [`TickDriver::tick`] per loop tick; ggrs frame F is the loop's tick
//! F + 1).

use crate::game_loop::{RollbackSim, TickDriver};
use crate::input::latch::TickInput;
use crate::sim::{Action, World};
use ggrs::{Config, GgrsRequest, PredictRepeatLast, SessionBuilder, SyncTestSession};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Deepest sync test: ggrs's prediction window in a race is 8 (NET.md), and the check distance
/// must stay below the session's window.
pub const MAX_CHECK_DISTANCE: usize = 8;

/// A tick's input exactly as the latch gave it (every action's held and pressed bit, the
/// stick's f32 bits): a sync test replays the very input, so its report is the run's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExactInput {
    held: u8,
    pressed: u8,
    stick_bits: u32,
}

impl From<&TickInput> for ExactInput {
    fn from(i: &TickInput) -> Self {
        let bits =
            |a: &[bool; Action::COUNT]| a.iter().enumerate().fold(0u8, |b, (k, on)| b | (u8::from(*on) << k));
        ExactInput { held: bits(&i.held), pressed: bits(&i.pressed), stick_bits: i.stick_x.to_bits() }
    }
}

impl ExactInput {
    /// Back to the tick input it was made from (bit for bit).
    pub fn to_tick_input(self) -> TickInput {
        let mut i = TickInput { stick_x: f32::from_bits(self.stick_bits), ..TickInput::default() };
        for k in 0..Action::COUNT {
            i.held[k] = self.held & (1 << k) != 0;
            i.pressed[k] = self.pressed & (1 << k) != 0;
        }
        i
    }
}

/// The sync test's ggrs configuration: exact inputs, the world as the saved state.
#[derive(Debug)]
pub struct SyncTestConfig;

impl Config for SyncTestConfig {
    type Input = ExactInput;
    type InputPredictor = PredictRepeatLast;
    type State = World;
    type Address = usize;
}

/// The first re-simulated tick whose state differed from the first simulation of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--synctest: tick {tick} re-simulated to state_hash {again:016x}, first simulated to {first:016x}")]
pub struct Mismatch {
    /// The loop's tick (1-based).
    pub tick: u64,
    /// Its hash the first time it was simulated.
    pub first: u64,
    /// Its hash after the rollback.
    pub again: u64,
}

/// Why a sync test cannot start.
#[derive(Debug, thiserror::Error)]
pub enum SyncTestError {
    /// D outside 1..=[`MAX_CHECK_DISTANCE`].
    #[error("--synctest {0}: the rollback depth must be 1 to {MAX_CHECK_DISTANCE} ticks")]
    Depth(usize),
    /// ggrs refused the session (its message).
    #[error("--synctest: {0}")]
    Session(String),
}

/// The sync test as the loop's [`TickDriver`].
pub struct SyncTest {
    session: SyncTestSession<SyncTestConfig>,
    /// Each recent tick's hash the first time it was simulated, by ggrs frame.
    first: BTreeMap<i32, u64>,
    /// The first mismatch; after it the run goes on without the session.
    mismatch: Option<Mismatch>,
    /// ggrs failed otherwise (its message); the run goes on without the session.
    failed: Option<String>,
}

impl SyncTest {
    /// A sync test of `players` runners rolling back `depth` ticks every tick.
    ///
    /// # Errors
    /// [`SyncTestError`] when `depth` is out of range or ggrs refuses the session.
    pub fn new(players: usize, depth: usize) -> Result<SyncTest, SyncTestError> {
        if !(1..=MAX_CHECK_DISTANCE).contains(&depth) {
            return Err(SyncTestError::Depth(depth));
        }
        let session = SessionBuilder::<SyncTestConfig>::new()
            .with_num_players(players)
            .and_then(|b| {
                b.with_check_distance(depth).with_max_prediction_window(depth + 1).start_synctest_session()
            })
            .map_err(|e| SyncTestError::Session(e.to_string()))?;
        Ok(SyncTest { session, first: BTreeMap::new(), mismatch: None, failed: None })
    }

    /// The first mismatch found so far.
    pub fn mismatch(&self) -> Option<Mismatch> {
        self.mismatch
    }

    /// ggrs's error, if the session failed for another reason than a mismatch.
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    fn save(&mut self, frame: i32, sim: &mut dyn RollbackSim) -> (World, u64) {
        let (world, hash) = sim.save();
        match self.first.get(&frame) {
            Some(&first) if first != hash && self.mismatch.is_none() => {
                self.mismatch = Some(Mismatch { tick: frame as u64 + 1, first, again: hash });
            }
            Some(_) => {}
            None => {
                self.first.insert(frame, hash);
            }
        }
        let keep_from = frame - 2 * MAX_CHECK_DISTANCE as i32;
        while self.first.first_key_value().is_some_and(|(&f, _)| f < keep_from) {
            self.first.pop_first();
        }
        (world, hash)
    }
}

impl TickDriver for SyncTest {
    fn tick(&mut self, inputs: &[TickInput], sim: &mut dyn RollbackSim) -> bool {
        if self.mismatch.is_some() || self.failed.is_some() {
            sim.advance(inputs, 0);
            return true;
        }
        for (k, i) in inputs.iter().enumerate() {
            if let Err(e) = self.session.add_local_input(k, ExactInput::from(i)) {
                self.failed = Some(e.to_string());
            }
        }
        let requests = match self.session.advance_frame() {
            Ok(r) => r,
            Err(e) => {
                self.failed.get_or_insert(e.to_string());
                sim.advance(inputs, 0);
                return true;
            }
        };
        let mut scratch = Vec::with_capacity(inputs.len());
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    let (world, hash) = self.save(frame, sim);
                    cell.save(frame, Some(world), Some(u128::from(hash)));
                }
                GgrsRequest::LoadGameState { cell, frame } => match cell.load() {
                    Some(world) => sim.load(&world),
                    None => {
                        self.failed.get_or_insert(format!("no saved state for tick {}", frame + 1));
                    }
                },
                GgrsRequest::AdvanceFrame { inputs: given } => {
                    scratch.clear();
                    scratch.extend(given.iter().map(|(i, _)| i.to_tick_input()));
                    sim.advance(&scratch, 0);
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_input_round_trips_every_bit() {
        let mut i = TickInput { stick_x: -0.123_456_79, ..TickInput::default() };
        i.held[Action::Rewind.index()] = true;
        i.pressed[Action::Jump.index()] = true;
        i.held[Action::Left.index()] = true;
        assert_eq!(ExactInput::from(&i).to_tick_input(), i);
        assert_eq!(ExactInput::from(&TickInput::default()), ExactInput::default());
    }

    /// A simulation with a hidden counter its saved state leaves out: every re-simulation ends
    /// elsewhere, as a tick that read something outside the world would.
    struct Leaky {
        world: World,
        hidden: f64,
    }

    impl RollbackSim for Leaky {
        fn save(&mut self) -> (World, u64) {
            (self.world.clone(), self.world.state_hash())
        }
        fn load(&mut self, world: &World) {
            self.world.clone_from(world);
        }
        fn advance(&mut self, _: &[TickInput], _: u8) {
            self.world.tick += 1;
            self.hidden += 1.0;
            self.world.player.pos.x += self.hidden;
        }
    }

    #[test]
    fn a_state_that_re_simulates_differently_is_found_with_its_tick_and_both_hashes() {
        let mut test = SyncTest::new(1, 3).expect("session");
        let mut sim = Leaky { world: World::default(), hidden: 0.0 };
        for _ in 0..10 {
            test.tick(&[TickInput::default()], &mut sim);
        }
        let m = test.mismatch().expect("found");
        assert_ne!(m.first, m.again);
        assert!((1..=10).contains(&m.tick), "{m}");
        assert!(test.failed().is_none());
        // A pure simulation passes.
        let mut test = SyncTest::new(2, 7).expect("session");
        let mut sim = Leaky { world: World::default(), hidden: 0.0 };
        struct Pure<'a>(&'a mut Leaky);
        impl RollbackSim for Pure<'_> {
            fn save(&mut self) -> (World, u64) {
                self.0.save()
            }
            fn load(&mut self, world: &World) {
                self.0.load(world);
            }
            fn advance(&mut self, i: &[TickInput], _: u8) {
                self.0.world.tick += 1;
                self.0.world.player.pos.x += f64::from(i[1].stick_x);
            }
        }
        for k in 0..40 {
            let other = TickInput { stick_x: k as f32 / 40.0, ..TickInput::default() };
            test.tick(&[TickInput::default(), other], &mut Pure(&mut sim));
        }
        assert_eq!(test.mismatch(), None);
        assert_eq!(sim.world.tick, 40);
    }

    #[test]
    fn the_depth_is_checked() {
        assert!(matches!(SyncTest::new(1, 0), Err(SyncTestError::Depth(0))));
        assert!(matches!(SyncTest::new(1, 9), Err(SyncTestError::Depth(9))));
        assert!(SyncTest::new(4, 8).is_ok());
    }
}
