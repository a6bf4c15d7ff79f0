//! The fixed-step accumulator: frame time clamp, catch-up cap, remainder, alpha.
//!
//! Clock: event loop, once per render frame. All arithmetic is in integers: the accumulator
//! counts *tick-scaled nanoseconds* (nanoseconds x tick rate), so one tick is exactly
//! [`UNITS_PER_TICK`] units for every integer rate and 1/60 s never rounds (seed 001: "never a
//! running float"). Over any run with no clamp and no cap hit, ticks = floor(elapsed x rate).
//!
//! Policies (Gaffer, "Fix Your Timestep"; seeds 000, 001, 004):
//! - a frame delta above `max_frame_ns` is clamped to it (default 250 ms) and the excess is
//!   counted as dropped time (a debugger pause or a hitch never fast-forwards the game);
//! - at most `max_steps` ticks run in one frame (default 8); when more are due, the newest whole
//!   overdue ticks are dropped and counted, and the fraction of a tick is kept so alpha stays
//!   continuous (seed 004's overrun policy: fall behind wall time rather than spiral);
//! - alpha = remainder / step, always in [0, 1);
//! - the clamped delta is scaled by the game speed ([`super::speed`]) before it is banked, and
//!   event offsets with it: the tick is 1/tick_hz of *game* time.

/// Accumulator units in one tick: the accumulator counts nanoseconds x tick rate, so one tick
/// (1e9 / rate ns) is exactly 1e9 units.
pub const UNITS_PER_TICK: u64 = 1_000_000_000;

/// The largest allowed `max_frame_ns`: one hour. Keeps `delta x tick_hz` far inside `u64`.
pub const MAX_FRAME_NS_LIMIT: u64 = 3_600_000_000_000;

use super::speed::{GameSpeed, SpeedScaler};

/// Loop settings (LAB.md `config` keys): the one config type of the game, the loop and the
/// lab. Serialised as the lab report's `config` section (`tick_hz`, `max_frame_ms`,
/// `max_steps`; see [`StepperConfig::max_frame_ms`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepperConfig {
    /// Fixed tick rate in Hz, an integer in 1..=1000 (default 60).
    pub tick_hz: u32,
    /// Longest frame delta taken as is, nanoseconds, in 1..=[`MAX_FRAME_NS_LIMIT`] (default
    /// 250 ms, seed 001). Written in milliseconds in scripts and reports (`max_frame_ms`).
    pub max_frame_ns: u64,
    /// Most ticks run in one frame (default 8, seed 004); at least 1.
    pub max_steps: u32,
}

/// A loop setting out of range. The message is one line, as the lab prints it after
/// `config KEY: `.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ConfigError {
    /// `tick_hz` outside 1..=1000.
    #[error("tick_hz must be an integer in 1..=1000, got {0}")]
    TickHz(u32),
    /// `max_steps` of 0.
    #[error("max_steps must be at least 1")]
    MaxSteps,
    /// `max_frame_ms` as written is not a number in (0, 3600000].
    #[error("max_frame_ms must be in (0, 3600000], got {0}")]
    MaxFrameMs(f64),
    /// `max_frame_ns` outside 1..=[`MAX_FRAME_NS_LIMIT`] (e.g. a positive `max_frame_ms` that
    /// rounds to 0 ns).
    #[error("max_frame_ms must be in (0, 3600000] (one hour)")]
    MaxFrameNs,
}

impl Default for StepperConfig {
    fn default() -> Self {
        Self { tick_hz: 60, max_frame_ns: 250_000_000, max_steps: 8 }
    }
}

impl StepperConfig {
    /// Check the ranges: `tick_hz` in 1..=1000, `max_steps` ≥ 1, `max_frame_ns` in
    /// 1..=[`MAX_FRAME_NS_LIMIT`].
    ///
    /// # Errors
    /// The first value out of range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=1000).contains(&self.tick_hz) {
            return Err(ConfigError::TickHz(self.tick_hz));
        }
        if self.max_steps < 1 {
            return Err(ConfigError::MaxSteps);
        }
        if !(1..=MAX_FRAME_NS_LIMIT).contains(&self.max_frame_ns) {
            return Err(ConfigError::MaxFrameNs);
        }
        Ok(())
    }

    /// Set the frame clamp from milliseconds as a user writes them (LAB.md `config
    /// max_frame_ms`), rounded to the nearest nanosecond.
    ///
    /// # Errors
    /// [`ConfigError::MaxFrameMs`] for a value that is not finite or not in (0, 3600000];
    /// [`ConfigError::MaxFrameNs`] when it rounds to 0 ns.
    pub fn set_max_frame_ms(&mut self, ms: f64) -> Result<(), ConfigError> {
        if !(ms.is_finite() && ms > 0.0 && ms <= 3.6e6) {
            return Err(ConfigError::MaxFrameMs(ms));
        }
        self.max_frame_ns = (ms * 1e6).round() as u64;
        self.validate()
    }

    /// The frame clamp in milliseconds (`max_frame_ns` / 1e6): what scripts and reports write.
    pub fn max_frame_ms(&self) -> f64 {
        self.max_frame_ns as f64 / 1e6
    }
}

/// The report's `config` object: `{"tick_hz":…,"max_frame_ms":…,"max_steps":…}` (LAB.md).
impl serde::Serialize for StepperConfig {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("StepperConfig", 3)?;
        st.serialize_field("tick_hz", &self.tick_hz)?;
        st.serialize_field("max_frame_ms", &self.max_frame_ms())?;
        st.serialize_field("max_steps", &self.max_steps)?;
        st.end()
    }
}

/// What one frame does, decided by [`Stepper::advance`].
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct FramePlan {
    /// The frame's raw delta, nanoseconds.
    pub dt_ns: u64,
    /// The delta after the clamp, nanoseconds.
    pub dt_clamped_ns: u64,
    /// True when the raw delta exceeded `max_frame_ns`.
    pub clamped: bool,
    /// Ticks to run this frame, 0..=max_steps.
    pub steps: u32,
    /// True when more ticks were due than `max_steps` and whole ticks were dropped.
    pub capped: bool,
    /// Accumulator before this frame's delta was added, units (see [`UNITS_PER_TICK`]).
    pub acc_before: u64,
    /// Wall time this frame never simulates (clamp excess + dropped ticks), units.
    pub dropped_units: u64,
    /// The clamped delta as game time (scaled by the game speed), nanoseconds: what reached
    /// the accumulator. Equal to `dt_clamped_ns` at full speed.
    pub game_ns: u64,
    /// The game-speed scaler as the frame began, to place events by their scaled offsets.
    pub scale_before: SpeedScaler,
}

/// The fixed-step accumulator. One per loop; call [`Stepper::advance`] once per frame.
#[derive(Clone, Debug)]
pub struct Stepper {
    config: StepperConfig,
    /// Banked time, units (ns x tick_hz); always < UNITS_PER_TICK after `advance`.
    acc: u64,
    /// Wall time → game time ([`GameSpeed`]; full speed unless set).
    scaler: SpeedScaler,
}

impl Stepper {
    /// A stepper with an empty accumulator.
    ///
    /// # Panics
    /// If `config` fails [`StepperConfig::validate`] (callers validate user input first).
    pub fn new(config: StepperConfig) -> Self {
        if let Err(e) = config.validate() {
            panic!("invalid stepper config: {e}");
        }
        Self { config, acc: 0, scaler: SpeedScaler::default() }
    }

    /// Run at `speed` from the next frame on: each clamped delta is scaled by it before it is
    /// banked (LAB.md `config game_speed`). The tick length does not change.
    pub fn set_speed(&mut self, speed: GameSpeed) {
        self.scaler = SpeedScaler::new(speed);
    }

    /// The game speed in force.
    pub fn speed(&self) -> GameSpeed {
        self.scaler.speed()
    }

    /// The settings this stepper runs with.
    pub fn config(&self) -> &StepperConfig {
        &self.config
    }

    /// Add one frame's delta (nanoseconds) and decide how many ticks run: the delta is clamped,
    /// scaled by the game speed, then banked. The accumulator is debited for those ticks at
    /// once; the caller runs exactly `plan.steps` ticks.
    pub fn advance(&mut self, dt_ns: u64) -> FramePlan {
        let hz = self.config.tick_hz as u64;
        let clamped = dt_ns > self.config.max_frame_ns;
        let dt_clamped_ns = dt_ns.min(self.config.max_frame_ns);
        let acc_before = self.acc;
        let mut dropped_units = (dt_ns - dt_clamped_ns).saturating_mul(hz);
        let scale_before = self.scaler;
        let game_ns = self.scaler.scale(dt_clamped_ns);
        self.acc += game_ns * hz;
        let due = self.acc / UNITS_PER_TICK;
        let steps = due.min(self.config.max_steps as u64);
        let capped = due > steps;
        self.acc -= steps * UNITS_PER_TICK;
        if capped {
            let overdue = self.acc / UNITS_PER_TICK;
            self.acc -= overdue * UNITS_PER_TICK;
            // Saturating: a frame may be up to u64::MAX ns long (the lab reads any u64 time).
            dropped_units = dropped_units.saturating_add(overdue * UNITS_PER_TICK);
        }
        FramePlan {
            dt_ns,
            dt_clamped_ns,
            clamped,
            steps: steps as u32,
            capped,
            acc_before,
            dropped_units,
            game_ns,
            scale_before,
        }
    }

    /// Interpolation factor: remainder / step, in [0, 1).
    pub fn alpha(&self) -> f64 {
        self.acc as f64 / UNITS_PER_TICK as f64
    }

    /// Wall time until the next tick is due, nanoseconds, rounded up: (one tick − the banked
    /// remainder) / `tick_hz`, in (0, 1 s / `tick_hz`]. A loop with nothing to draw (window
    /// minimised or occluded) sleeps this long, so it wakes at most once per tick.
    pub fn ns_to_next_tick(&self) -> u64 {
        let hz = self.config.tick_hz as u64;
        (UNITS_PER_TICK - self.acc).div_ceil(hz)
    }

    /// Banked remainder, units (ns x tick_hz), < [`UNITS_PER_TICK`].
    pub fn accumulator_units(&self) -> u64 {
        self.acc
    }

    /// Banked remainder in milliseconds.
    pub fn accumulator_ms(&self) -> f64 {
        self.units_to_ms(self.acc)
    }

    /// Convert accumulator units to milliseconds at this stepper's rate.
    pub fn units_to_ms(&self, units: u64) -> f64 {
        units as f64 / self.config.tick_hz as f64 / 1e6
    }
}

impl FramePlan {
    /// Which of this frame's ticks (1-based; may exceed `steps`) owns an event that arrived
    /// `offset_ns` after the previous frame: the tick whose span of banked time
    /// [(i-1)·T, i·T) contains `acc_before + offset` (LAB.md "Which tick gets an event").
    /// The offset is clamped to the clamped delta, then scaled by the game speed as the delta
    /// was (LAB.md `config game_speed`).
    pub fn tick_for_offset(&self, offset_ns: u64, tick_hz: u32) -> u64 {
        let o = self.scale_before.peek(offset_ns.min(self.dt_clamped_ns));
        (self.acc_before + o * tick_hz as u64) / UNITS_PER_TICK + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: f64) -> u64 {
        (v * 1e6).round() as u64
    }

    fn stepper(hz: u32) -> Stepper {
        Stepper::new(StepperConfig { tick_hz: hz, ..Default::default() })
    }

    #[test]
    fn thirty_fps_on_64hz_is_two_ticks_every_frame() {
        let mut s = stepper(64);
        let mut ticks = 0;
        for _ in 0..32 {
            let p = s.advance(ms(31.25));
            assert_eq!(p.steps, 2);
            assert_eq!(s.alpha(), 0.0);
            assert_eq!(s.accumulator_units(), 0);
            ticks += p.steps;
        }
        assert_eq!(ticks, 64);
    }

    #[test]
    fn sleeping_until_the_next_tick_wakes_on_it() {
        let mut s = stepper(60);
        assert_eq!(s.ns_to_next_tick(), 16_666_667, "a whole tick, rounded up");
        s.advance(10_000_000);
        assert_eq!(s.ns_to_next_tick(), 6_666_667);
        // Sleeping exactly that long makes the next frame run exactly one tick.
        let p = s.advance(s.ns_to_next_tick());
        assert_eq!(p.steps, 1);
        assert_eq!(s.accumulator_units(), 20, "rounded up: never wakes short of the tick");
    }

    #[test]
    fn alpha_is_the_leftover_fraction() {
        let mut s = stepper(64);
        assert_eq!(s.advance(ms(15.625)).steps, 1);
        assert_eq!(s.alpha(), 0.0);
        assert_eq!(s.advance(ms(7.8125)).steps, 0);
        assert_eq!(s.alpha(), 0.5);
        assert_eq!(s.advance(ms(3.90625)).steps, 0);
        assert_eq!(s.alpha(), 0.75);
        assert_eq!(s.accumulator_ms(), 11.71875);
    }

    #[test]
    fn five_second_frame_is_clamped_then_capped() {
        let mut s = stepper(60);
        let first = s.advance(ms(10.0));
        assert_eq!((first.steps, first.clamped, first.capped), (0, false, false));
        let p = s.advance(ms(5000.0));
        assert!(p.clamped);
        assert_eq!(p.steps, 8);
        assert!(p.capped);
        // 10 + 250 = 260 ms = 15.6 ticks: 8 run, 7 dropped, 0.6 kept.
        assert!((s.alpha() - 0.6).abs() < 1e-9);
        let plans = [first, p];
        assert_eq!(plans.iter().filter(|p| p.clamped).count(), 1);
        assert_eq!(plans.iter().filter(|p| p.capped).count(), 1);
        // dropped = 4750 ms of clamp + 7 ticks.
        let dropped_ms = s.units_to_ms(plans.iter().map(|p| p.dropped_units).sum());
        assert!((dropped_ms - (4750.0 + 7000.0 / 60.0)).abs() < 1e-6);
        assert!((0.0..1.0).contains(&s.alpha()));
    }

    #[test]
    fn integer_accumulator_never_drifts() {
        // 30 ms at 100 Hz is exactly 3 ticks every time; 16.666667 ms frames at 60 Hz over a
        // simulated day give floor(elapsed * 60) ticks.
        let mut s = stepper(100);
        for _ in 0..10_000 {
            assert_eq!(s.advance(ms(30.0)).steps, 3);
            assert_eq!(s.alpha(), 0.0);
        }
        let mut s = stepper(60);
        let frame = 16_666_667u64;
        let frames = 24 * 3600 * 60u64;
        let mut ticks = 0u64;
        for _ in 0..frames {
            ticks += u64::from(s.advance(frame).steps);
        }
        assert_eq!(ticks, frame * frames * 60 / 1_000_000_000);
    }

    #[test]
    fn ticks_over_a_second_do_not_depend_on_the_frame_pattern() {
        let patterns: [&[f64]; 3] = [&[15.625], &[8.0, 40.0, 5.0, 30.0, 8.5, 8.5], &[1.0, 99.0]];
        for pat in patterns {
            let mut s = stepper(64);
            let mut t = 0.0;
            let mut i = 0;
            let mut ticks = 0;
            while t < 1000.0 {
                let d = pat[i % pat.len()].min(1000.0 - t);
                ticks += s.advance(ms(d)).steps;
                t += d;
                i += 1;
            }
            assert_eq!(ticks, 64, "pattern {pat:?}");
        }
    }

    #[test]
    fn event_offsets_map_to_the_tick_whose_span_contains_them() {
        let mut s = stepper(64);
        s.advance(ms(7.8125)); // half a tick banked
        let p = s.advance(ms(31.25)); // two ticks run, half banked again
        assert_eq!(p.steps, 2);
        assert_eq!(p.tick_for_offset(0, 64), 1);
        assert_eq!(p.tick_for_offset(ms(7.0), 64), 1);
        assert_eq!(p.tick_for_offset(ms(7.8125), 64), 2);
        assert_eq!(p.tick_for_offset(ms(23.4375), 64), 3); // lies in the leftover
        assert_eq!(p.tick_for_offset(ms(1000.0), 64), 3); // clamped to the delta
    }
}
