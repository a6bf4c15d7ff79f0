//! Time: the fixed-step accumulator that turns frame deltas into ticks.
//!
//! Clock: runs on the event loop, once per render frame, in integer nanoseconds; it decides how
//! many fixed ticks the frame runs and the interpolation alpha for what is drawn.

pub mod speed;
pub mod stepper;

pub use speed::{GameSpeed, SpeedError, SpeedScaler};
pub use stepper::{ConfigError, FramePlan, Stepper, StepperConfig};
