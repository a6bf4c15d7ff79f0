//! Time: the fixed-step accumulator that turns frame deltas into ticks.
//!
//! Clock: runs on the event loop, once per render frame, in integer nanoseconds; it decides how
//! many fixed ticks the frame runs and the interpolation alpha for what is drawn.

pub mod speed;
pub mod stepper;

pub use speed::{GameSpeed, SpeedError, SpeedScaler};

/// The frame caps `--fps-cap` and `settings.toml`'s `fps_cap` take, Hz: 1 to 1000 (a choice:
/// from one frame a second, still a window that answers Q, to past any display; below 1 Hz a
/// frame's wait outlasts `--exit-after`, and 1e-30 Hz overflows a `Duration`).
pub const FPS_CAP_HZ: std::ops::RangeInclusive<f64> = 1.0..=1000.0;

/// `hz` if it is a frame cap [`FPS_CAP_HZ`] takes.
///
/// # Errors
/// One line naming the value and the range.
pub fn fps_cap(hz: f64) -> Result<f64, String> {
    if FPS_CAP_HZ.contains(&hz) { Ok(hz) } else { Err(format!("{hz} Hz is no frame cap: 1 to 1000")) }
}
pub use stepper::{ConfigError, FramePlan, Stepper, StepperConfig};
