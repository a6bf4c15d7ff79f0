//! How long each press and release waits before it is seen (LAB.md Version 4 "Latency";
//! `--latency-log` and the F3 panel in the game).
//!
//! Clock: event loop (an edge is noted when the frame that received it gives it a tick, on the
//! loop's monotonic nanosecond clock) and render frame (after each frame, the edges whose tick
//! the frame draws anything of are due; they are timed when the caller says the frame was
//! shown: the lab at the frame's end on its scripted clock, the game when `present` returns).
//!
//! "Draws anything of tick K": the frame's last tick run is after K, or is K with `alpha` > 0
//! (at `alpha` = 0 the frame draws tick K − 1's state exactly). Ticks are the latch's numbers
//! (ticks run, forward, rewind or load), so a rewind does not hide an edge. This is the delay
//! the two clocks add by design: waiting for the tick, then interpolating towards it. What
//! happens after `present` returns (the compositor, scan-out, the panel) is not seen here.

use crate::input::InputEvent;
use crate::sim::Action;
use std::collections::VecDeque;

/// One press or release and when it was seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InputShown {
    /// The action pressed or released.
    pub action: Action,
    /// A press (`true`) or a release.
    pub press: bool,
    /// Whose edge, 0-based.
    pub player: u8,
    /// Arrival, nanoseconds on the loop's clock.
    pub at_ns: u64,
    /// The tick it applied in (the latch's tick number, 1-based).
    pub tick: u64,
    /// When the first frame drawing anything of `tick` was shown, nanoseconds on the loop's
    /// clock; `None` while none has been (or the run ended first).
    pub shown_ns: Option<u64>,
}

impl InputShown {
    /// `shown_ns − at_ns` in milliseconds, if shown.
    pub fn delay_ms(&self) -> Option<f64> {
        self.shown_ns.map(|s| s.saturating_sub(self.at_ns) as f64 / 1e6)
    }
}

/// The edges on their way to the screen, in arrival order.
#[derive(Clone, Debug, Default)]
pub(super) struct LatencyProbe {
    /// Given a tick, not yet drawn.
    waiting: VecDeque<InputShown>,
    /// Drawn by the last frame, waiting for its shown time.
    due: Vec<InputShown>,
    /// Shown, not yet taken by [`super::Loop::take_inputs_shown`].
    done: Vec<InputShown>,
}

/// The most edges kept unshown or untaken: 1,000,000 (the lab's event limit); older ones are
/// dropped first, so a game nobody reads the log of cannot grow without bound.
const MAX_KEPT: usize = 1_000_000;

impl LatencyProbe {
    /// Note `ev` (from `player`, arrived at `at_ns`) if it is a press or release, applying in
    /// `tick`.
    pub fn note(&mut self, player: u8, at_ns: u64, tick: u64, ev: InputEvent) {
        let (action, press) = match ev {
            InputEvent::Press(_, a) => (a, true),
            InputEvent::Release(_, a) => (a, false),
            _ => return,
        };
        if self.waiting.len() >= MAX_KEPT {
            self.waiting.pop_front();
        }
        self.waiting.push_back(InputShown { action, press, player, at_ns, tick, shown_ns: None });
    }

    /// A frame ended with `last_tick` run and `alpha`: the edges it draws anything of are due.
    pub fn frame_drawn(&mut self, last_tick: u64, alpha: f64) {
        while let Some(e) = self.waiting.front() {
            if e.tick > last_tick || (e.tick == last_tick && alpha <= 0.0) {
                break;
            }
            let e = self.waiting.pop_front().expect("checked above");
            self.due.push(e);
        }
    }

    /// The last frame was shown at `t_ns`: time its due edges.
    pub fn shown_at(&mut self, t_ns: u64) {
        if self.done.len() + self.due.len() > MAX_KEPT {
            let over = (self.done.len() + self.due.len() - MAX_KEPT).min(self.done.len());
            self.done.drain(..over);
        }
        self.done.extend(self.due.drain(..).map(|e| InputShown { shown_ns: Some(t_ns), ..e }));
    }

    /// The edges shown since the last call, in the order they were shown.
    pub fn take_done(&mut self) -> Vec<InputShown> {
        std::mem::take(&mut self.done)
    }

    /// Every edge not yet shown (`shown_ns` `None`), in arrival order.
    pub fn unshown(&self) -> impl Iterator<Item = &InputShown> {
        self.due.iter().chain(&self.waiting)
    }
}

/// p50, p99 and the largest of `delays` (milliseconds), nearest rank (the smallest value with
/// at least p % of the values at or below it); `None` each for no values.
pub fn percentiles(delays: &[f64]) -> (Option<f64>, Option<f64>, Option<f64>) {
    let mut v: Vec<f64> = delays.iter().copied().filter(|d| d.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    let rank = |p: usize| -> Option<f64> {
        let n = v.len();
        (n > 0).then(|| v[(n * p).div_ceil(100).clamp(1, n) - 1])
    };
    (rank(50), rank(99), v.last().copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Source::Keyboard;

    #[test]
    fn an_edge_is_due_once_its_tick_is_drawn_past_alpha_zero() {
        let mut p = LatencyProbe::default();
        p.note(0, 100, 7, InputEvent::Press(Keyboard, Action::Jump));
        p.note(0, 110, 7, InputEvent::Repeat(Keyboard, Action::Jump));
        p.frame_drawn(6, 0.9);
        p.frame_drawn(7, 0.0);
        p.shown_at(200);
        assert!(p.take_done().is_empty(), "tick 7 at alpha 0 draws tick 6");
        p.frame_drawn(7, 0.25);
        p.shown_at(300);
        let done = p.take_done();
        assert_eq!(done.len(), 1, "a repeat is no edge");
        assert_eq!(done[0].delay_ms(), Some(200.0 / 1e6));
        assert_eq!(p.unshown().count(), 0);
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let d: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(percentiles(&d), (Some(5.0), Some(10.0), Some(10.0)));
        assert_eq!(percentiles(&[]), (None, None, None));
        assert_eq!(percentiles(&[3.0]), (Some(3.0), Some(3.0), Some(3.0)));
    }
}
