//! The simulation: pure, deterministic, one fixed tick at a time.
//!
//! Clock: fixed tick (default 60 Hz). `step(&mut World, &TickInput, &Level, &Tuning, dt)`
//! knows nothing of winit, wgpu, gilrs or wall-clock time; [`World`] is plain data that can be
//! cloned, compared and hashed, so two runs can be checked for equality.

pub mod collision;
pub mod hash;
pub mod player;
pub mod rng;
pub mod tuning;
pub mod world;

pub use player::{HITBOX, TickOutcome, step};
pub use tuning::{Tuning, TuningError};
pub use world::{Player, World};
