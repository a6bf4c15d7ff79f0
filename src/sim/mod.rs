//! The simulation: pure, deterministic, one fixed tick at a time.
//!
//! Clock: fixed tick (default 60 Hz). `step(&mut World, &TickInput, &Level, &Tuning, tick_hz)`
//! advances one tick of 1 / `tick_hz` seconds and knows nothing of winit, wgpu, gilrs or
//! wall-clock time; [`World`] is plain data that can be cloned, compared and hashed, so two
//! runs can be checked for equality.

pub mod action;
pub mod collision;
pub mod cues;
pub mod entity_state;
pub mod hash;
pub mod player;
pub mod rewind;
pub mod rng;
pub mod tuning;
pub mod wall;
pub mod world;

pub use action::{Action, TickInput};
pub use entity_state::EntityState;
pub use player::{HITBOX, TickOutcome, step};
pub use tuning::{Tuning, TuningError, ValueError};
pub use world::{Player, World};
