//! The F3 overlay's memory: the last frames' [`FrameStats`] (the loop's own record) in a ring
//! buffer ([`Telemetry`]) and the numbers over them ([`TelemetryStats`]).
//!
//! Clock: render frame (one sample pushed per frame the loop ran). Pure: no GPU, no clock.

use crate::game_loop::FrameStats;

/// Frames kept by [`Telemetry`]: four seconds at 60 fps, one graph column each.
pub const HISTORY: usize = 240;

/// The last `capacity` frames' [`FrameStats`]: a ring buffer (fixed storage, the oldest sample
/// overwritten once full).
#[derive(Clone, Debug)]
pub struct Telemetry {
    samples: Vec<FrameStats>,
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
    pub fn push(&mut self, s: FrameStats) {
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
    pub fn iter(&self) -> impl Iterator<Item = &FrameStats> + '_ {
        let (newer, older) = self.samples.split_at(self.next);
        older.iter().chain(newer)
    }

    /// The newest sample.
    pub fn latest(&self) -> Option<&FrameStats> {
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
            sum_ms += s.frame_ms();
            st.frame_ms_max = st.frame_ms_max.max(s.frame_ms());
            st.clamps += usize::from(s.clamped);
            st.caps += usize::from(s.capped);
            st.ticks_histogram[(s.steps as usize).min(3)] += 1;
            if s.steps > 0 {
                sum_us += s.tick_us();
                ticked += 1;
                st.tick_us_max = st.tick_us_max.max(s.tick_us());
            }
            st.events += u64::from(s.events_consumed);
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
    /// The newest frame.
    pub last: FrameStats,
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

    fn sample(frame_ms: u64) -> FrameStats {
        FrameStats { dt_ns: frame_ms * 1_000_000, steps: 1, ..Default::default() }
    }

    #[test]
    fn ring_buffer_wraps_and_keeps_order() {
        let mut t = Telemetry::new(4);
        assert!(t.is_empty() && t.latest().is_none());
        for i in 1..=3 {
            t.push(sample(i));
        }
        assert_eq!(t.len(), 3);
        assert_eq!(t.latest().map(FrameStats::frame_ms), Some(3.0));
        for i in 4..=10 {
            t.push(sample(i));
        }
        assert_eq!(t.len(), 4, "never grows past its capacity");
        let v: Vec<f64> = t.iter().map(FrameStats::frame_ms).collect();
        assert_eq!(v, vec![7.0, 8.0, 9.0, 10.0], "oldest first after wrapping");
        assert_eq!(t.latest().map(FrameStats::frame_ms), Some(10.0));
        t.clear();
        assert!(t.is_empty());
        let mut full = Telemetry::default();
        for i in 0..HISTORY + 10 {
            full.push(sample(i as u64));
        }
        assert_eq!(full.len(), HISTORY);
        assert_eq!(full.iter().next().map(FrameStats::frame_ms), Some(10.0));
    }

    #[test]
    fn frame_stats_in_the_overlay_units() {
        let fs = FrameStats { dt_ns: 16_666_667, tick_ns_measured: 45_000, ..Default::default() };
        assert!((fs.frame_ms() - 16.666667).abs() < 1e-9);
        assert_eq!(fs.tick_us(), 45.0);
    }

    #[test]
    fn stats_over_the_history() {
        let mut t = Telemetry::new(8);
        for (ms, ticks) in [(10, 0), (20, 1), (20, 2), (30, 5)] {
            t.push(FrameStats {
                dt_ns: ms * 1_000_000,
                steps: ticks,
                tick_ns_measured: 10_000 * u64::from(ticks),
                events_consumed: 1,
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
