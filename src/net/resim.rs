//! The online race's re-simulation cost (NET.md, docs/speed.md): a rollback of 8 ticks (ggrs's
//! prediction window) with 4 players on the largest shipped level by area (tiles and
//! entities): one load of a kept world, then 8 ticks each simulated (`sim::step_race`) and kept
//! again (a clone and `state_hash`, what [`super::race`] does for ggrs's save request). The
//! runners are mid-run: 4 players with different held inputs, 240 ticks in. Measured natively by
//! `benches/rollback.rs` (criterion) and in the browser by the page's `?bench=rollback`.
//!
//! Clock: none of its own (each [`Resim::rollback`] is 8 fixed ticks; the callers time them).

use crate::input::Action;
use crate::input::latch::TickInput;
use crate::level::Level;
use crate::sim::{self, MAX_PLAYERS, Tuning, World};

/// Ticks run before the rollback: the runners are mid-level.
const WARM_TICKS: u64 = 240;

/// Ticks a rollback simulates again (ggrs's prediction window, NET.md).
pub const ROLLBACK_TICKS: u64 = 8;

/// Player `k`'s input at tick `t`: right held (left for player 4), jump pressed every 20 ticks
/// from a different phase.
fn input(k: usize, t: u64) -> TickInput {
    let mut i = TickInput::default();
    i.held[Action::Right.index()] = k != 3;
    i.held[Action::Left.index()] = k == 3;
    let phase = t + 5 * k as u64;
    i.held[Action::Jump.index()] = phase % 20 < 8;
    i.pressed[Action::Jump.index()] = phase.is_multiple_of(20);
    i
}

fn inputs(t: u64) -> [TickInput; MAX_PLAYERS] {
    [input(0, t), input(1, t), input(2, t), input(3, t)]
}

/// The shipped level with the most tiles plus entities among `levels` (name, level), by index.
pub fn largest(levels: &[(String, Level)]) -> Option<usize> {
    (0..levels.len()).max_by_key(|&i| levels[i].1.width * levels[i].1.height + levels[i].1.entities.len())
}

/// A world kept mid-race and the scratch worlds a rollback uses.
#[derive(Debug)]
pub struct Resim {
    level: Level,
    tuning: Tuning,
    kept: World,
    scratch: World,
    saved: World,
}

impl Resim {
    /// A race of 4 on `level` with `tuning`, run 240 ticks and kept.
    pub fn new(level: Level, tuning: Tuning) -> Resim {
        let mut world = World::for_race(&level, MAX_PLAYERS);
        for t in 0..WARM_TICKS {
            sim::step_race(&mut world, &inputs(t), &level, &tuning, 60);
        }
        Resim { scratch: world.clone(), saved: world.clone(), kept: world, level, tuning }
    }

    /// One rollback: load the kept world, simulate and keep 8 ticks; the hashes xor-ed (so the
    /// work cannot be skipped).
    pub fn rollback(&mut self) -> u64 {
        self.scratch.clone_from(&self.kept);
        let mut hash = 0;
        for t in WARM_TICKS..WARM_TICKS + ROLLBACK_TICKS {
            sim::step_race(&mut self.scratch, &inputs(t), &self.level, &self.tuning, 60);
            self.saved.clone_from(&self.scratch);
            hash ^= self.saved.state_hash();
        }
        hash
    }

    /// The level's size: (width, height) in tiles and its entities.
    pub fn size(&self) -> (usize, usize, usize) {
        (self.level.width, self.level.height, self.level.entities.len())
    }
}
