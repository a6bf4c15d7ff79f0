//! Where a run of a lab script stands: its position in the timeline, the scripted clock, the
//! events waiting for their frame, the focus-loss pause. [`Cursor::next_frame`] reads the
//! script up to and including its next frame and runs that frame on the [`Loop`], so a script
//! can be run to its end in one go (the lab, [`super::runner`]) or one frame at a time and
//! taken back to a kept copy (the replay window, `crate::app::replay_view`).
//!
//! Clock: scripted wall clock, integer nanoseconds (the script's times are exact integers of
//! nanoseconds; nothing accumulates in floating point).

use super::recut::Timeline;
use super::runner::LabError;
use super::script::{At, Script, Step};
use super::writer::format_ms;
use crate::game_loop::{FrameStats, InputShown, Loop, TickDriver};
use crate::input::InputEvent;
use crate::present::surface_state::SurfaceState;
use glam::DVec2;
use std::collections::VecDeque;

/// An event waiting for the frame whose interval contains its time.
#[derive(Clone, Copy, Debug)]
struct Pending {
    t_ns: u64,
    event: InputEvent,
    /// Whose edge it is, 0-based.
    player: u8,
}

/// `config pause_on_focus_loss 1`: `focus lost` pauses the run, as it pauses the game, which
/// waits for a key to resume, the lab for the next `focus gained`. While paused no frame runs
/// (frames are reported with `paused: true` and no steps), edges other than `focus gained` are
/// dropped (the paused game ignores them), and the paused time is left out of the clock the
/// loop sees — exactly what the game does.
#[derive(Clone, Copy, Debug)]
struct Pause {
    enabled: bool,
    /// Wall time the pause began.
    since: Option<u64>,
    /// Wall time spent paused so far, ns.
    total_ns: u64,
}

impl Pause {
    /// Decide what an edge arriving at wall time `t` does; returns the game-clock time to hand
    /// it to the loop at, or `None` to drop it.
    fn admit(&mut self, t: u64, ev: &InputEvent) -> Option<u64> {
        match (self.since, ev) {
            (Some(since), InputEvent::FocusGained) => {
                self.total_ns += t - since;
                self.since = None;
                Some(t - self.total_ns)
            }
            (Some(_), _) => None,
            (None, InputEvent::FocusLost) if self.enabled => {
                self.since = Some(t);
                Some(t - self.total_ns)
            }
            (None, _) => Some(t - self.total_ns),
        }
    }
}

const CLOCK_OVERFLOW: &str = "the scripted clock passes 2^64 ns (584 years)";

/// One frame [`Cursor::next_frame`] ran.
#[derive(Clone, Debug)]
pub(crate) struct FrameRun {
    /// The frame's index from 0, as in the report.
    pub index: u64,
    /// Its stats, `dt_ns` the scripted delta (after `tick-cost` stretching).
    pub stats: FrameStats,
    /// Paused by a focus loss (no tick ran).
    pub paused: bool,
    /// The script line of its `frame` directive.
    pub line: usize,
    /// The presses and releases this frame showed first (`summary.inputs`).
    pub shown: Vec<InputShown>,
}

/// A run's position in its script: everything [`super::runner`] keeps between two frames
/// besides the loop itself. Cloning it with the loop keeps the run to go on from later.
#[derive(Clone, Debug)]
pub(crate) struct Cursor {
    /// The next step to read.
    step: usize,
    /// Frames of that step (a `frame MS xN`) already run.
    frames_in_step: u64,
    /// Events not yet delivered, sorted by time; equal times keep script order.
    pending: VecDeque<Pending>,
    /// The latest `+MS` event written since the last frame: it must arrive by the next frame.
    latest_relative: Option<(u64, usize)>,
    surface: SurfaceState,
    configures: u64,
    clock_ns: u64,
    tick_cost_ns: u64,
    last_steps: u32,
    frame_index: u64,
    pause: Pause,
}

impl Cursor {
    /// At the start of a script whose `config pause_on_focus_loss` is `pause_on_focus_loss`.
    pub fn new(pause_on_focus_loss: bool) -> Cursor {
        Cursor {
            step: 0,
            frames_in_step: 0,
            pending: VecDeque::new(),
            latest_relative: None,
            surface: SurfaceState::default(),
            configures: 0,
            clock_ns: 0,
            tick_cost_ns: 0,
            last_steps: 0,
            frame_index: 0,
            pause: Pause { enabled: pause_on_focus_loss, since: None, total_ns: 0 },
        }
    }

    /// The scripted wall clock after the last frame run, ns.
    pub fn clock_ns(&self) -> u64 {
        self.clock_ns
    }

    /// Surface configurations the `resize` lines read so far caused.
    pub fn configures(&self) -> u64 {
        self.configures
    }

    /// Frames run so far (the next frame's index).
    pub fn frames_run(&self) -> u64 {
        self.frame_index
    }

    /// Read `script` (named `name` in errors) up to its next frame and run that frame on `lp`
    /// (each tick by `driver` when given); `None` at the end of the script. When `timeline` is
    /// given, note in it where on the wall clock each event, resize, teleport and savestate
    /// line fell.
    ///
    /// # Errors
    /// [`LabError`] naming the line: an event offset past its frame, an `@MS` already in the
    /// past, a clock past 2^64 ns, a teleport in a race, a savestate line the loop refuses.
    pub fn next_frame(
        &mut self,
        script: &Script,
        name: &str,
        lp: &mut Loop,
        mut driver: Option<&mut dyn TickDriver>,
        mut timeline: Option<&mut Timeline>,
    ) -> Result<Option<FrameRun>, LabError> {
        let fail = |line: usize, msg: String| LabError { script: name.to_owned(), line, msg };
        while let Some((step, line)) = script.steps.get(self.step) {
            let line = *line;
            match *step {
                Step::Frame { ns, count } => {
                    if self.frames_in_step >= count {
                        self.step += 1;
                        self.frames_in_step = 0;
                        continue;
                    }
                    self.frames_in_step += 1;
                    let driver = driver.as_mut().map(|d| &mut **d as &mut dyn TickDriver);
                    return self.frame(ns, line, lp, driver).map(Some).map_err(|(l, m)| fail(l, m));
                }
                Step::Event { event, at, player } => {
                    let (t_ns, relative) = match at {
                        At::AfterFrame(offset) => {
                            let t = self
                                .clock_ns
                                .checked_add(offset)
                                .ok_or_else(|| fail(line, CLOCK_OVERFLOW.into()))?;
                            (t, true)
                        }
                        At::Absolute(t) => {
                            if t < self.clock_ns {
                                return Err(fail(
                                    line,
                                    format!(
                                        "@{} is already in the past (the clock is at {} ms)",
                                        format_ms(t),
                                        format_ms(self.clock_ns)
                                    ),
                                ));
                            }
                            (t, false)
                        }
                    };
                    if let Some(tl) = timeline.as_deref_mut() {
                        tl.note(t_ns, step, line);
                    }
                    if relative && self.latest_relative.is_none_or(|(t, _)| t_ns > t) {
                        self.latest_relative = Some((t_ns, line));
                    }
                    let at = self.pending.partition_point(|p| p.t_ns <= t_ns);
                    self.pending.insert(at, Pending { t_ns, event, player });
                }
                Step::Resize(w, h) => self.configures += self.surface.resize(w, h).is_some() as u64,
                Step::Teleport(..) if script.players > 1 => {
                    return Err(fail(
                        line,
                        "teleport: only with one player (a race places no runner by hand)".into(),
                    ));
                }
                Step::Teleport(x, y) => lp.teleport(DVec2::new(x, y)),
                Step::TickCost(ns) => self.tick_cost_ns = ns,
                Step::Savestate(ref n) => lp.savestate(n).map_err(|e| fail(line, e.to_string()))?,
                Step::Loadstate(ref n) => lp.loadstate(n).map_err(|e| fail(line, e.to_string()))?,
            }
            let noted = matches!(
                step,
                Step::Resize(..) | Step::Teleport(..) | Step::Savestate(_) | Step::Loadstate(_)
            );
            if let (Some(tl), true) = (timeline.as_deref_mut(), noted) {
                tl.note(self.clock_ns, step, line);
            }
            self.step += 1;
        }
        Ok(None)
    }

    /// Run one frame of `ns` (line `line`): the clock moves, the events due are handed over,
    /// the loop runs. An error is (line, message).
    fn frame(
        &mut self,
        ns: u64,
        line: usize,
        lp: &mut Loop,
        driver: Option<&mut dyn TickDriver>,
    ) -> Result<FrameRun, (usize, String)> {
        let dt = ns.max((self.last_steps as u64).saturating_mul(self.tick_cost_ns));
        self.clock_ns = self.clock_ns.checked_add(dt).ok_or((line, CLOCK_OVERFLOW.to_owned()))?;
        if let Some((t, l)) = self.latest_relative.take() {
            if t > self.clock_ns {
                return Err((l, "event offset falls after the next frame".into()));
            }
        }
        while self.pending.front().is_some_and(|p| p.t_ns <= self.clock_ns) {
            let p = self.pending.pop_front().expect("checked above");
            if let Some(game_t) = self.pause.admit(p.t_ns, &p.event) {
                lp.push_event_for(p.player, game_t, p.event);
            }
        }
        let paused = self.pause.since.is_some();
        let now = self.clock_ns - self.pause.total_ns;
        let f = match driver {
            _ if paused => lp.idle_stats(),
            Some(d) => lp.frame_driven(now, d),
            None => lp.frame(now),
        };
        self.last_steps = f.steps;
        let shown = if paused {
            Vec::new()
        } else {
            lp.inputs_shown_at(now);
            lp.take_inputs_shown()
        };
        let index = self.frame_index;
        self.frame_index += 1;
        Ok(FrameRun { index, stats: FrameStats { dt_ns: dt, ..f }, paused, line, shown })
    }
}
