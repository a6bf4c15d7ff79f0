//! The F3 overlay's memory: the last frames' [`Sample`]s in a ring buffer ([`Telemetry`]) and
//! the numbers over them ([`TelemetryStats`]).
//!
//! Clock: render frame (one sample pushed per frame the loop ran). Pure: no GPU, no clock.

use crate::game_loop::FrameStats;

/// Frames kept by [`Telemetry`]: four seconds at 60 fps, one graph column each.
pub const HISTORY: usize = 240;

/// What one frame did, as the overlay graphs it. Built from the loop's [`FrameStats`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sample {
    /// Raw frame delta (before the clamp), milliseconds.
    pub frame_ms: f64,
    /// Fixed ticks run this frame.
    pub ticks: u32,
    /// Banked time after the frame's ticks, milliseconds.
    pub accumulator_ms: f64,
    /// Interpolation factor after the frame's ticks, [0, 1).
    pub alpha: f64,
    /// The delta exceeded the clamp (time dropped).
    pub clamped: bool,
    /// The catch-up cap was hit (whole ticks dropped).
    pub capped: bool,
    /// Wall time the frame's ticks took, microseconds (0 when none ran).
    pub tick_us: f64,
    /// Input events the frame's ticks consumed.
    pub events: u32,
}

impl From<&FrameStats> for Sample {
    fn from(s: &FrameStats) -> Self {
        Sample {
            frame_ms: s.dt_ns as f64 / 1e6,
            ticks: s.steps,
            accumulator_ms: s.accumulator_ms,
            alpha: s.alpha,
            clamped: s.clamped,
            capped: s.capped,
            tick_us: s.tick_ns_measured as f64 / 1e3,
            events: s.events_consumed,
        }
    }
}

/// The last `capacity` frames' [`Sample`]s: a ring buffer (fixed storage, the oldest sample
/// overwritten once full).
#[derive(Clone, Debug)]
pub struct Telemetry {
    samples: Vec<Sample>,
    /// Where the next sample goes once full (the oldest sample).
    next: usize,
    capacity: usize,
}

impl Default for Telemetry {
    fn default() -> Self {
        Self::new(HISTORY)
    }
}

impl Telemetry {
    /// An empty history of `capacity` frames (at least 1).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        Self { samples: Vec::with_capacity(capacity), next: 0, capacity }
    }

    /// Add the newest frame, dropping the oldest when full.
    pub fn push(&mut self, s: Sample) {
        if self.samples.len() < self.capacity {
            self.samples.push(s);
        } else {
            self.samples[self.next] = s;
            self.next = (self.next + 1) % self.capacity;
        }
    }

    /// Frames held (at most the capacity).
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// True before the first frame.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Frames held when full.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The samples, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Sample> + '_ {
        let (newer, older) = self.samples.split_at(self.next);
        older.iter().chain(newer)
    }

    /// The newest sample.
    pub fn latest(&self) -> Option<&Sample> {
        if self.samples.len() < self.capacity {
            self.samples.last()
        } else {
            self.samples.get((self.next + self.capacity - 1) % self.capacity)
        }
    }

    /// Forget every sample.
    pub fn clear(&mut self) {
        self.samples.clear();
        self.next = 0;
    }

    /// Numbers over the history, for the overlay's text.
    pub fn stats(&self) -> TelemetryStats {
        let mut st = TelemetryStats { frames: self.len(), ..Default::default() };
        let Some(last) = self.latest() else {
            return st;
        };
        st.last = *last;
        let mut sum_ms = 0.0;
        let mut sum_us = 0.0;
        let mut ticked = 0;
        for s in self.iter() {
            sum_ms += s.frame_ms;
            st.frame_ms_max = st.frame_ms_max.max(s.frame_ms);
            st.clamps += usize::from(s.clamped);
            st.caps += usize::from(s.capped);
            st.ticks_histogram[(s.ticks as usize).min(3)] += 1;
            if s.ticks > 0 {
                sum_us += s.tick_us;
                ticked += 1;
                st.tick_us_max = st.tick_us_max.max(s.tick_us);
            }
            st.events += u64::from(s.events);
        }
        st.frame_ms_mean = sum_ms / st.frames as f64;
        st.fps = if sum_ms > 0.0 { st.frames as f64 * 1000.0 / sum_ms } else { 0.0 };
        st.tick_us_mean = if ticked > 0 { sum_us / f64::from(ticked) } else { 0.0 };
        st
    }
}

/// Numbers over a [`Telemetry`] history (the overlay's text; refreshed a few times a second so
/// it can be read).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TelemetryStats {
    /// Frames in the history.
    pub frames: usize,
    /// The newest sample.
    pub last: Sample,
    /// Frames per second: frames / summed frame time.
    pub fps: f64,
    /// Mean frame time, milliseconds.
    pub frame_ms_mean: f64,
    /// Longest frame, milliseconds.
    pub frame_ms_max: f64,
    /// Frames with a clamp event.
    pub clamps: usize,
    /// Frames that hit the catch-up cap.
    pub caps: usize,
    /// Frames that ran 0, 1, 2, and 3 or more ticks.
    pub ticks_histogram: [usize; 4],
    /// Mean tick cost of frames that ran ticks, microseconds.
    pub tick_us_mean: f64,
    /// Worst tick cost, microseconds.
    pub tick_us_max: f64,
    /// Input events consumed.
    pub events: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(frame_ms: f64) -> Sample {
        Sample { frame_ms, ticks: 1, ..Default::default() }
    }

    #[test]
    fn ring_buffer_wraps_and_keeps_order() {
        let mut t = Telemetry::new(4);
        assert!(t.is_empty() && t.latest().is_none());
        for i in 1..=3 {
            t.push(sample(f64::from(i)));
        }
        assert_eq!(t.len(), 3);
        assert_eq!(t.latest().map(|s| s.frame_ms), Some(3.0));
        for i in 4..=10 {
            t.push(sample(f64::from(i)));
        }
        assert_eq!(t.len(), 4, "never grows past its capacity");
        let v: Vec<f64> = t.iter().map(|s| s.frame_ms).collect();
        assert_eq!(v, vec![7.0, 8.0, 9.0, 10.0], "oldest first after wrapping");
        assert_eq!(t.latest().map(|s| s.frame_ms), Some(10.0));
        t.clear();
        assert!(t.is_empty());
        let mut full = Telemetry::default();
        for i in 0..HISTORY + 10 {
            full.push(sample(i as f64));
        }
        assert_eq!(full.len(), HISTORY);
        assert_eq!(full.iter().next().map(|s| s.frame_ms), Some(10.0));
    }

    #[test]
    fn sample_from_frame_stats() {
        let fs = FrameStats {
            dt_ns: 16_666_667,
            clamped: true,
            steps: 2,
            capped: true,
            accumulator_ms: 3.5,
            alpha: 0.21,
            tick_ns_measured: 45_000,
            events_consumed: 3,
            ..Default::default()
        };
        let s = Sample::from(&fs);
        assert!((s.frame_ms - 16.666667).abs() < 1e-9);
        assert_eq!((s.ticks, s.clamped, s.capped, s.events), (2, true, true, 3));
        assert_eq!(s.tick_us, 45.0);
        assert_eq!(s.accumulator_ms, 3.5);
    }

    #[test]
    fn stats_over_the_history() {
        let mut t = Telemetry::new(8);
        for (ms, ticks) in [(10.0, 0), (20.0, 1), (20.0, 2), (30.0, 5)] {
            t.push(Sample {
                frame_ms: ms,
                ticks,
                tick_us: 10.0 * f64::from(ticks),
                events: 1,
                clamped: ticks == 5,
                ..Default::default()
            });
        }
        let st = t.stats();
        assert_eq!(st.frames, 4);
        assert!((st.fps - 4000.0 / 80.0).abs() < 1e-9);
        assert_eq!(st.frame_ms_mean, 20.0);
        assert_eq!(st.frame_ms_max, 30.0);
        assert_eq!(st.ticks_histogram, [1, 1, 1, 1]);
        assert_eq!(st.clamps, 1);
        assert_eq!(st.events, 4);
        // Tick cost only over frames that ran ticks: (10 + 20 + 50) / 3.
        assert!((st.tick_us_mean - 80.0 / 3.0).abs() < 1e-9);
        assert_eq!(Telemetry::new(3).stats(), TelemetryStats::default());
    }
}
