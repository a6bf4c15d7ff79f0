//! The simulation: pure, deterministic, one fixed tick at a time.
//!
//! Clock: fixed tick (default 60 Hz). `step(&mut World, &TickInput, &Level, &Tuning, tick_hz)`
//! advances one tick of 1 / `tick_hz` seconds and knows nothing of winit, wgpu, gilrs or
//! wall-clock time; [`World`] is plain data that can be cloned, compared and hashed, so two
//! runs can be checked for equality.
//!
//! # The same hash on every architecture
//!
//! `state_hash` is bit-identical on x86-64, aarch64 and wasm32 (`scripts/determinism` checks
//! every level script and lab case on the three). What could break that, and why it does not:
//!
//! - **Transcendental functions** (`sin`, `cos`, `exp`, `ln`, `powf`, `powi`, `hypot`, `cbrt`,
//!   ...): `std` calls the platform's libm (glibc on Linux, wasi-libc's musl on wasm32), whose
//!   last bits differ. None is used here nor in what feeds a tick (`time`, `level`, the input
//!   latch); tests/determinism_rules.rs fails if one appears. Only IEEE 754 operations that
//!   are correctly rounded, and so the same everywhere, are: `+ - * /`, `sqrt`, `abs`, `floor`,
//!   `ceil`, `round`, `trunc`, `fract`, `min`, `max`, `clamp`, `signum`, `copysign`, `%`
//!   (exact), and `as` casts (saturating, defined by Rust on every target).
//! - **FMA contraction**: Rust never fuses `a * b + c` into one rounding (LLVM may fuse only
//!   `fmuladd`, which rustc does not emit); `mul_add` is not used (tested).
//! - **SIMD reduction order** (avian #1030: glam's f32 SIMD sums reduce in another order on
//!   NEON): positions and velocities are `DVec2` (f64), which glam implements as plain scalar
//!   fields on every target; the SIMD-backed f32 types (`Vec3A`, `Vec4`, `Quat`, `Mat*`,
//!   `Affine*`) and glam's `fast-math` feature are not used (tested).
//! - **f32**: the stick value is f32; x86-64 does it in SSE, not x87, so f32 and f64 round the
//!   same on the three (a 32-bit x86 build without SSE2 would not).
//! - **Float parsing**: tuning, scripts and Tiled numbers go through Rust's own `str::parse`
//!   (correctly rounded, no libc `strtod`); lab times are read as exact integer nanoseconds.
//! - **Iteration order**: no `HashMap`/`HashSet` here (tested); `std`'s are randomly seeded per
//!   process. Checkpoints and entities keep the level file's order (`Vec`).
//! - **`usize` is 32 bits on wasm32**: tile lookups index with `i64` and bounds-check before
//!   the `as usize`; indices and lengths are hashed as `u64` values, which are the same.
//! - **NaN bits**: x86 and ARM make different default NaNs and wasm leaves NaN payloads
//!   unspecified; no state should ever be NaN (inputs and tuning are checked finite), and
//!   [`hash::StableHasher::f64`] hashes every NaN as one canonical NaN all the same.

pub mod action;
pub mod collision;
pub mod cues;
pub mod entities;
pub mod entity_state;
pub mod hash;
pub mod player;
pub mod race;
pub mod rewind;
pub mod rng;
pub mod tuning;
pub mod wall;
pub mod world;

pub use action::{Action, TickInput};
pub use entity_state::EntityState;
pub use player::{HITBOX, TickOutcome, step};
pub use race::{RaceOutcome, step_race};
pub use tuning::{Tuning, TuningError, ValueError};
pub use world::{MAX_PLAYERS, Player, Runner, World};
