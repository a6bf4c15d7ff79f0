//! The input latch: timestamped edges in, one plain [`TickInput`] per fixed tick out.
//!
//! Clock: fixed tick. Events are scheduled for the tick that owns their arrival time (the loop
//! computes it from the stepper, LAB.md "Which tick gets an event") and applied when that tick —
//! or, if it was dropped or lies in a frame's leftover, the next tick to run — asks for its
//! input. This fixes the per-frame `just_pressed` bug (Bevy #6183): a press is an edge of
//! exactly one tick, never of zero or of every catch-up tick in a long frame.
//!
//! Rules: a press of a held button is nothing; OS auto-repeat and synthetic presses are
//! ignored; a press and release inside one tick still count as a press (a short hop); focus
//! loss releases everything (keys, pad, stick); pad disconnect releases what the pad held; the
//! stick's dead zone returns exactly 0.

pub use crate::sim::action::TickInput;

use super::{InputEvent, Source};
use crate::sim::Action;
use std::collections::VecDeque;

/// Stick dead zone: |x| below this reads exactly 0; above it the value is rescaled to reach
/// 1 at full tilt. 0.15 is a common default for worn sticks (the issue asks for ≥ 0.1).
pub const STICK_DEAD_ZONE: f32 = 0.15;

/// Apply the dead zone to a raw stick value: exactly 0 when |raw| < [`STICK_DEAD_ZONE`],
/// else rescaled so the edge of the zone is 0 and full tilt is ±1. NaN reads as 0.
pub fn dead_zone(raw: f32) -> f32 {
    if raw.is_nan() || raw.abs() < STICK_DEAD_ZONE {
        return 0.0;
    }
    let mag = ((raw.abs() - STICK_DEAD_ZONE) / (1.0 - STICK_DEAD_ZONE)).min(1.0);
    mag.copysign(raw)
}

/// Scheduled edges and the held state they build. Platform-free.
#[derive(Clone, Debug, Default)]
pub struct Latch {
    queue: VecDeque<(u64, InputEvent)>,
    keys: [bool; Action::COUNT],
    pad: [bool; Action::COUNT],
    pad_connected: bool,
    stick_x: f32,
}

impl Latch {
    /// An empty latch: nothing held, no pad.
    pub fn new() -> Self {
        Self::default()
    }

    /// Schedule `ev` for tick number `tick` (absolute, 1-based). Events must be scheduled in
    /// arrival order; ticks are non-decreasing in that order.
    pub fn schedule(&mut self, tick: u64, ev: InputEvent) {
        self.queue.push_back((tick, ev));
    }

    /// Apply every event scheduled for `tick` or earlier and return the tick's input plus how
    /// many events it consumed.
    pub fn input_for_tick(&mut self, tick: u64) -> (TickInput, u32) {
        let mut pressed = [false; Action::COUNT];
        let mut consumed = 0;
        while let Some(&(t, ev)) = self.queue.front() {
            if t > tick {
                break;
            }
            self.queue.pop_front();
            consumed += 1;
            self.apply(ev, &mut pressed);
        }
        let held = std::array::from_fn(|i| self.keys[i] || self.pad[i]);
        (TickInput { held, pressed, stick_x: self.stick_x }, consumed)
    }

    fn apply(&mut self, ev: InputEvent, pressed: &mut [bool; Action::COUNT]) {
        match ev {
            InputEvent::Press(src, a) => {
                let i = a.index();
                let was_held = self.keys[i] || self.pad[i];
                let slot = match src {
                    Source::Keyboard => &mut self.keys[i],
                    Source::Pad => &mut self.pad[i],
                };
                if !*slot {
                    *slot = true;
                    if !was_held {
                        pressed[i] = true;
                    }
                }
            }
            InputEvent::Release(src, a) => match src {
                Source::Keyboard => self.keys[a.index()] = false,
                Source::Pad => self.pad[a.index()] = false,
            },
            InputEvent::Repeat(..) | InputEvent::SyntheticPress(..) | InputEvent::FocusGained => {}
            InputEvent::FocusLost => {
                self.keys = [false; Action::COUNT];
                self.pad = [false; Action::COUNT];
                self.stick_x = 0.0;
            }
            InputEvent::PadConnected => self.pad_connected = true,
            InputEvent::PadDisconnected => {
                self.pad_connected = false;
                self.pad = [false; Action::COUNT];
                self.stick_x = 0.0;
            }
            InputEvent::AxisX(raw) => {
                if self.pad_connected {
                    self.stick_x = dead_zone(raw);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Action;
    use Action::*;
    use InputEvent::*;
    use Source::*;

    #[test]
    fn press_is_an_edge_of_exactly_one_tick() {
        let mut l = Latch::new();
        l.schedule(3, Press(Keyboard, Jump));
        assert!(!l.input_for_tick(2).0.pressed(Jump));
        let (i, n) = l.input_for_tick(3);
        assert!(i.pressed(Jump) && i.held(Jump) && n == 1);
        let (i, _) = l.input_for_tick(4);
        assert!(!i.pressed(Jump) && i.held(Jump));
    }

    #[test]
    fn press_and_release_in_one_tick_is_still_a_press() {
        let mut l = Latch::new();
        l.schedule(1, Press(Keyboard, Jump));
        l.schedule(1, Release(Keyboard, Jump));
        let (i, n) = l.input_for_tick(1);
        assert!(i.pressed(Jump) && !i.held(Jump));
        assert_eq!(n, 2);
    }

    #[test]
    fn late_events_apply_in_the_next_tick_that_runs() {
        let mut l = Latch::new();
        l.schedule(5, Press(Keyboard, Right));
        let (i, _) = l.input_for_tick(9);
        assert!(i.held(Right) && i.pressed(Right));
    }

    #[test]
    fn repeat_synthetic_and_double_press_start_nothing() {
        let mut l = Latch::new();
        l.schedule(1, Press(Keyboard, Jump));
        l.schedule(2, Repeat(Keyboard, Jump));
        l.schedule(3, Press(Keyboard, Jump));
        l.schedule(4, SyntheticPress(Keyboard, Left));
        l.schedule(5, Press(Pad, Jump));
        assert!(l.input_for_tick(1).0.pressed(Jump));
        for t in 2..=5 {
            let (i, _) = l.input_for_tick(t);
            assert!(i.pressed == [false; Action::COUNT], "tick {t}");
        }
        assert!(!l.input_for_tick(6).0.held(Left));
    }

    #[test]
    fn focus_loss_releases_everything_and_pad_loss_only_the_pad() {
        let mut l = Latch::new();
        l.schedule(1, PadConnected);
        l.schedule(1, Press(Keyboard, Left));
        l.schedule(1, Press(Pad, Jump));
        l.schedule(1, AxisX(0.9));
        let (i, _) = l.input_for_tick(1);
        assert!(i.held(Left) && i.held(Jump) && i.stick_x > 0.8);
        l.schedule(2, PadDisconnected);
        let (i, _) = l.input_for_tick(2);
        assert!(i.held(Left) && !i.held(Jump) && i.stick_x == 0.0);
        l.schedule(3, FocusLost);
        assert_eq!(l.input_for_tick(3).0, TickInput::default());
    }

    #[test]
    fn stick_ignored_without_pad_and_dead_zone_is_exact_zero() {
        let mut l = Latch::new();
        l.schedule(1, AxisX(1.0));
        assert_eq!(l.input_for_tick(1).0.stick_x, 0.0);
        assert_eq!(dead_zone(0.149), 0.0);
        assert_eq!(dead_zone(-0.1), 0.0);
        assert_eq!(dead_zone(f32::NAN), 0.0);
        assert_eq!(dead_zone(1.0), 1.0);
        assert_eq!(dead_zone(-1.0), -1.0);
    }

    #[test]
    fn key_and_pad_hold_the_same_action_independently() {
        let mut l = Latch::new();
        l.schedule(1, PadConnected);
        l.schedule(1, Press(Keyboard, Right));
        l.schedule(1, Press(Pad, Right));
        l.schedule(2, Release(Keyboard, Right));
        l.input_for_tick(1);
        assert!(l.input_for_tick(2).0.held(Right));
    }
}
