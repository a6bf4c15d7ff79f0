//! The forgiveness mechanics a run can be seen to use (coyote time, jump buffer, corner
//! correction), for `--prefer`, `--trace` and the run's summary.
//!
//! Clock: fixed tick (reads one tick's outcome).

use crate::TICK_HZ;
use ledge::sim::World;

/// A forgiveness mechanic a run can be seen to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mechanic {
    /// A jump started in the air (coyote time).
    Coyote,
    /// A jump started on a tick without a press (a buffered press).
    Buffer,
    /// A rising move slid sideways around a ceiling corner (corner correction).
    Corner,
}

/// Which mechanics one tick used: [coyote, buffer, corner]. `x0`/`before`: the player's x, and
/// whether it stood on the ground and had coyote time left, before the tick (a jump started in
/// the air without coyote time is a wall jump, not counted here); `since_press`: ticks since the last jump press (0: this tick). A jump that
/// fires on the tick after its press is not counted as buffered: the simulation fires a press
/// made on a landing tick on the next tick even with `jump_buffer_time 0`.
pub fn mechanics_used(
    world: &World,
    out: &ledge::sim::TickOutcome,
    x0: f64,
    before: (bool, bool),
    since_press: usize,
) -> [bool; 3] {
    let (was_ground, had_coyote) = before;
    let p = &world.player;
    // The x move is vel.x * dt unless a wall stopped it (vel.x = 0); anything else is the
    // corner nudge.
    let nudge = p.pos.x - x0 - p.vel.x / f64::from(TICK_HZ);
    [
        out.jump_started && !was_ground && had_coyote,
        out.jump_started && since_press >= 2,
        !out.respawned && p.vel.x != 0.0 && nudge.abs() > 1e-9,
    ]
}
