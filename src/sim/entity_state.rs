//! The discrete state of an entity after a tick, by LAB.md's names (the report's
//! `ticks[].entities[].state`).
//!
//! Clock: fixed tick. Discrete: the renderer draws the current tick's state and never blends it.

/// An entity's discrete state (LAB.md "Version 2 additions", the `state` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EntityState {
    /// A platform or saw travelling along its path.
    #[default]
    Moving,
    /// A platform waiting at one end of its path.
    Waiting,
    /// A crumbling block that is whole and nobody has stood on yet.
    Solid,
    /// A crumbling block counting down to breaking (still solid).
    Breaking,
    /// A crumbling block that has broken (not solid, not drawn whole).
    Broken,
    /// A spring.
    Idle,
    /// A walker that is patrolling.
    Alive,
    /// A walker defeated by a landing from above.
    Defeated,
}

impl EntityState {
    /// LAB.md's name for the state, as the report writes it.
    pub fn name(self) -> &'static str {
        match self {
            EntityState::Moving => "moving",
            EntityState::Waiting => "waiting",
            EntityState::Solid => "solid",
            EntityState::Breaking => "breaking",
            EntityState::Broken => "broken",
            EntityState::Idle => "idle",
            EntityState::Alive => "alive",
            EntityState::Defeated => "defeated",
        }
    }

    /// A stable number for `state_hash`.
    pub fn code(self) -> u64 {
        self as u64
    }
}
