//! When the event loop runs the next frame: the wake-up decision after each frame and on each
//! wake-up, as pure functions of what the frame did and the clocks.
//!
//! Clock: event loop. Continuous rendering while playing (paced by the present mode, or by
//! `--fps-cap`, whose loop waits in the event loop rather than in a sleep so input that arrives
//! meanwhile is handled, and stamped, when it arrives; the pacer then spins only the last
//! stretch). With nothing to draw on (minimised, occluded, surface timeout), or a still
//! pause/end screen with no `--fps-cap` to pace it, the loop sleeps instead of spinning:
//! playing, until the next tick is due (at most one wake-up per tick); otherwise for one 60 Hz
//! frame ([`IDLE_FRAME`]).

use std::time::Duration;
use web_time::Instant;

/// Frame interval while the window cannot be drawn (minimised, occluded) or shows a still
/// screen: 60 Hz.
pub const IDLE_FRAME: Duration = Duration::from_micros(16_667);

/// What a frame did, for [`after_frame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameEnd {
    /// `--exit-after` is reached.
    pub exit_due: bool,
    /// The frame was drawn and presented.
    pub drawn: bool,
    /// The game clock runs (not paused, not the end screen).
    pub playing: bool,
    /// `--fps-cap` paces frames.
    pub paced: bool,
    /// With `--fps-cap`: when the event loop should wake before the next deadline, if that is
    /// still ahead (`Pacer::wake_before_deadline`).
    pub pace_wake: Option<Instant>,
    /// Time until the loop's next tick is due.
    pub to_next_tick: Duration,
}

/// What the event loop does after a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// Quit.
    Exit,
    /// Ask for the next redraw at once.
    Redraw,
    /// Wait (`ControlFlow::WaitUntil`) and run the next frame at this instant.
    At(Instant),
}

/// The decision after a frame, at `now`.
pub fn after_frame(end: &FrameEnd, now: Instant) -> Wake {
    if end.exit_due {
        Wake::Exit
    } else if end.drawn && (end.playing || end.paced) {
        end.pace_wake.map_or(Wake::Redraw, Wake::At)
    } else {
        Wake::At(now + if end.playing { end.to_next_tick } else { IDLE_FRAME })
    }
}

/// What a wake-up of the event loop does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wakeup {
    /// The planned frame is not due yet: keep waiting for it.
    Nothing,
    /// No frame is planned (frames come from redraw requests): stop any timed wait. A
    /// `WaitUntil` left from a frame that planned one, and not replaced since (a redraw asked
    /// for in between clears the plan but not the event loop's wait), would otherwise fire at
    /// once on every iteration once its time has passed: a busy loop of wake-ups, tens of
    /// thousands a second, each polling the pads, which in a browser tab starved the frames
    /// (WebGL2 level 1 at 62 ms a frame instead of 38 in some runs).
    Unplanned,
    /// A frame is due with nothing to draw on: run it (its ticks) in this wake-up rather than
    /// ask for a redraw, which would wake the loop a second time.
    RunFrame,
    /// A frame is due: ask for a redraw.
    Redraw,
}

/// On a wake-up at `now`, with the next frame planned at `next_frame_at` and the window
/// `hidden` or not.
pub fn on_wakeup(next_frame_at: Option<Instant>, now: Instant, hidden: bool) -> Wakeup {
    match next_frame_at {
        None => Wakeup::Unplanned,
        Some(at) if now >= at => {
            if hidden {
                Wakeup::RunFrame
            } else {
                Wakeup::Redraw
            }
        }
        _ => Wakeup::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end() -> FrameEnd {
        FrameEnd {
            exit_due: false,
            drawn: true,
            playing: true,
            paced: false,
            pace_wake: None,
            to_next_tick: Duration::from_millis(5),
        }
    }

    #[test]
    fn after_a_frame() {
        let now = Instant::now();
        assert_eq!(after_frame(&FrameEnd { exit_due: true, ..end() }, now), Wake::Exit);
        assert_eq!(after_frame(&end(), now), Wake::Redraw, "playing: continuous");
        let soon = now + Duration::from_millis(3);
        let capped = FrameEnd { paced: true, pace_wake: Some(soon), ..end() };
        assert_eq!(after_frame(&capped, now), Wake::At(soon), "--fps-cap waits in the event loop");
        let paused_capped = FrameEnd { playing: false, ..capped };
        assert_eq!(after_frame(&paused_capped, now), Wake::At(soon), "a paced pause keeps its pace");
        let hidden = FrameEnd { drawn: false, ..end() };
        assert_eq!(after_frame(&hidden, now), Wake::At(now + Duration::from_millis(5)), "next tick");
        let still = FrameEnd { playing: false, ..end() };
        assert_eq!(after_frame(&still, now), Wake::At(now + IDLE_FRAME), "a still screen at 60 Hz");
    }

    #[test]
    fn on_a_wakeup() {
        let now = Instant::now();
        assert_eq!(on_wakeup(None, now, false), Wakeup::Unplanned, "no frame planned: stop waiting");
        assert_eq!(on_wakeup(None, now, true), Wakeup::Unplanned);
        assert_eq!(on_wakeup(Some(now + Duration::from_millis(1)), now, false), Wakeup::Nothing);
        assert_eq!(on_wakeup(Some(now), now, false), Wakeup::Redraw);
        assert_eq!(on_wakeup(Some(now), now, true), Wakeup::RunFrame);
    }
}
