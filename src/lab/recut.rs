//! `ledge lab SCRIPT --recut R` (LAB.md "Time tools"): run a script with its frames replaced by
//! another cut of the same wall time — a steady 30, 60, 144 or 240 Hz display, or jittery
//! frames drawn from a seeded splitmix64 stream — with every input event at the same wall time.
//! With no clamp, cap or pause the run ends on the original's `state_hash`: the determinism
//! promise, checked on any recording or level script.
//!
//! Clock: scripted wall clock, integer nanoseconds. The script runs once as written (summary
//! only) to learn where each event, resize and teleport fell and the total time after any
//! `tick-cost` stretching ([`Timeline`]); then the re-cut script runs and is reported.
//!
//! How the cut is made: frame k ends at round(k·10⁹/R) ns (`R` Hz) or after 3 ms + (x mod
//! 37,000,001) ns (`jitter:SEED`, x the stream's next number), frames that would end at or
//! past the total are replaced by one that ends exactly at it. `tick-cost` lines are dropped
//! (their stretch is already in the total); every event becomes `@MS` at its original time; a
//! `resize` stays at its place on the clock. A `teleport` applies at the first tick after the
//! frame it follows, so the frame that spans a teleport's time is split there (one extra frame
//! boundary): that keeps the teleport on the same tick as in the original.
//!
//! The re-cut script is built in memory before it runs: one step (at most 40 bytes; 32 on
//! x86-64) and one end time (8 bytes) a frame, so an hour at 240 Hz (864,000 frames) takes
//! about 35 MB.

use super::report::Report;
use super::runner::{LabError, LabOptions, parse_script, run_parsed};
use super::script::{At, Script, Step};
use super::shots::ObserverError;
use crate::game_loop::Loop;
use crate::sim::rng::SplitMix64;
use std::fmt;
use std::str::FromStr;

/// The shortest jitter frame, nanoseconds (3 ms, LAB.md).
pub const JITTER_MIN_NS: u64 = 3_000_000;

/// The jitter spread: a frame lasts [`JITTER_MIN_NS`] + (x mod this) ns, so 3 to 40 ms.
pub const JITTER_SPREAD: u64 = 37_000_001;

/// A re-cut: how the script's wall time is cut into frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recut {
    /// A steady display at this rate, Hz (30, 60, 144 or 240): frame k ends at
    /// round(k·10⁹/R) ns.
    Hz(u32),
    /// Jittery frames of 3 ms + (x mod 37,000,001) ns, x from splitmix64 seeded with the value.
    Jitter(u64),
}

/// A `--recut` argument that is none of `30`, `60`, `144`, `240`, `jitter:SEED`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--recut '{0}': expected 30, 60, 144, 240 or jitter:SEED (SEED a whole number < 2^64)")]
pub struct RecutError(pub String);

impl FromStr for Recut {
    type Err = RecutError;

    fn from_str(s: &str) -> Result<Self, RecutError> {
        match s {
            "30" => Ok(Recut::Hz(30)),
            "60" => Ok(Recut::Hz(60)),
            "144" => Ok(Recut::Hz(144)),
            "240" => Ok(Recut::Hz(240)),
            _ => s
                .strip_prefix("jitter:")
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|d| d.parse().ok())
                .map(Recut::Jitter)
                .ok_or_else(|| RecutError(s.to_string())),
        }
    }
}

/// Written as parsed: `144`, `jitter:7` (the report's `config.recut`).
impl fmt::Display for Recut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Recut::Hz(hz) => write!(f, "{hz}"),
            Recut::Jitter(seed) => write!(f, "jitter:{seed}"),
        }
    }
}

impl Recut {
    /// The end times of the re-cut frames over `total_ns`, strictly increasing, the last one
    /// `total_ns` (none when it is 0); `splits` (teleport times) are added as boundaries.
    pub fn frame_ends(&self, total_ns: u64, splits: &[u64]) -> Vec<u64> {
        let mut ends = Vec::new();
        match *self {
            Recut::Hz(hz) => {
                let hz = u128::from(hz);
                for k in 1u128.. {
                    // round(k·1e9/hz), halves up, in integers.
                    let end = (2 * k * 1_000_000_000 + hz) / (2 * hz);
                    if end >= u128::from(total_ns) {
                        break;
                    }
                    ends.push(end as u64);
                }
            }
            Recut::Jitter(seed) => {
                let mut rng = SplitMix64::new(seed);
                let mut end = 0u64;
                loop {
                    end = end.saturating_add(JITTER_MIN_NS + rng.next_u64() % JITTER_SPREAD);
                    if end >= total_ns {
                        break;
                    }
                    ends.push(end);
                }
            }
        }
        if total_ns > 0 {
            ends.push(total_ns);
        }
        ends.extend(splits.iter().copied().filter(|&t| t > 0 && t < total_ns));
        ends.sort_unstable();
        ends.dedup();
        ends
    }
}

/// Where the timeline's non-frame lines fell on the wall clock in a run of the script as
/// written, and how long it lasted: what a re-cut keeps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    /// (wall time ns, the line, its 1-based line number): events at their arrival time,
    /// resizes and teleports at the clock when they were read; in script order.
    pub items: Vec<(u64, Step, usize)>,
    /// The wall clock after the last frame, nanoseconds (after `tick-cost` stretching).
    pub total_ns: u64,
}

impl Timeline {
    /// Note `step` (written on `line`) at wall time `t_ns`.
    pub(crate) fn note(&mut self, t_ns: u64, step: &Step, line: usize) {
        self.items.push((t_ns, step.clone(), line));
    }
}

/// The script `script` with its frames re-cut by `recut` over `timeline` (a run of `script`
/// as written): same setup, every event `@MS` at its time, `tick-cost` dropped.
pub fn recut_script(script: &Script, timeline: &Timeline, recut: Recut) -> Script {
    let teleports: Vec<u64> =
        timeline.items.iter().filter(|(_, s, _)| at_tick_boundary(s)).map(|&(t, _, _)| t).collect();
    let ends = recut.frame_ends(timeline.total_ns, &teleports);
    let mut items: Vec<&(u64, Step, usize)> = timeline.items.iter().collect();
    items.sort_by_key(|(t, _, _)| *t); // stable: equal times keep script order
    let mut steps = Vec::with_capacity(ends.len() + items.len());
    let mut ends = ends.into_iter().peekable();
    let mut clock = 0u64;
    let mut frames_until = |t: u64, steps: &mut Vec<(Step, usize)>, clock: &mut u64| {
        while let Some(end) = ends.next_if(|&e| e <= t) {
            steps.push((Step::Frame { ns: end - *clock, count: 1 }, 0));
            *clock = end;
        }
    };
    for (t, step, line) in items {
        frames_until(*t, &mut steps, &mut clock);
        let step = match step {
            Step::Event { event, .. } => Step::Event { event: *event, at: At::Absolute(*t), player: 0 },
            other => other.clone(),
        };
        steps.push((step, *line));
    }
    frames_until(u64::MAX, &mut steps, &mut clock);
    Script { steps, ..script.clone() }
}

/// A step that acts at the first tick boundary after the frame it follows (a teleport, a
/// savestate, a load): the re-cut splits the frame that spans its time there, so it acts on
/// the same tick as in the original.
fn at_tick_boundary(step: &Step) -> bool {
    matches!(step, Step::Teleport(..) | Step::Savestate(_) | Step::Loadstate(_))
}

/// Run `text` re-cut by `recut` ([`super::run_script_observed`] on the re-cut script);
/// `observe` sees the re-cut frames. The report echoes `config.recut`.
///
/// # Errors
/// [`LabError`] as for the script run as written (it is run first).
pub fn run_recut(
    text: &str,
    opts: &LabOptions,
    recut: Recut,
    observe: &mut dyn FnMut(u64, &Loop) -> Result<(), ObserverError>,
) -> Result<Report, LabError> {
    let script = parse_script(text, opts)?;
    let mut timeline = Timeline::default();
    let first = LabOptions { summary_only: true, ..opts.clone() };
    run_parsed(&script, &first, None, Some(&mut timeline))?;
    let cut = recut_script(&script, &timeline, recut);
    let mut report = run_parsed(&cut, opts, Some(observe), None)?;
    report.echo.recut = Some(recut.to_string());
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Action, InputEvent, Source};

    #[test]
    fn arguments_parse_and_echo_as_written() {
        for (arg, want) in [("30", Recut::Hz(30)), ("240", Recut::Hz(240)), ("jitter:0", Recut::Jitter(0))] {
            assert_eq!(arg.parse::<Recut>(), Ok(want));
            assert_eq!(want.to_string(), arg);
        }
        assert_eq!("jitter:18446744073709551615".parse(), Ok(Recut::Jitter(u64::MAX)));
        for bad in ["50", "jitter:", "jitter:-1", "jitter:1x", "jitter:18446744073709551616", ""] {
            let e = bad.parse::<Recut>().unwrap_err();
            assert!(e.to_string().starts_with(&format!("--recut '{bad}'")), "{e}");
        }
    }

    #[test]
    fn steady_cuts_end_on_the_rounded_grid_and_at_the_total() {
        let ends = Recut::Hz(60).frame_ends(50_000_000, &[]);
        assert_eq!(ends, [16_666_667, 33_333_333, 50_000_000]);
        let ends = Recut::Hz(144).frame_ends(20_000_000, &[]);
        assert_eq!(ends, [6_944_444, 13_888_889, 20_000_000]);
        // A total off the grid: the last frame is cut short.
        assert_eq!(Recut::Hz(30).frame_ends(40_000_000, &[]), [33_333_333, 40_000_000]);
        assert!(Recut::Hz(30).frame_ends(0, &[]).is_empty());
        // A teleport's time becomes a boundary.
        assert_eq!(Recut::Hz(30).frame_ends(40_000_000, &[5, 0, 40_000_000]), [5, 33_333_333, 40_000_000]);
    }

    #[test]
    fn jitter_frames_are_3_to_40_ms_from_the_seeded_stream() {
        let ends = Recut::Jitter(7).frame_ends(10_000_000_000, &[]);
        let mut rng = SplitMix64::new(7);
        let first = JITTER_MIN_NS + rng.next_u64() % JITTER_SPREAD;
        assert_eq!(ends[0], first);
        let mut prev = 0;
        for (i, &e) in ends.iter().enumerate() {
            let d = e - prev;
            assert!(d > 0 && d <= 40_000_000, "frame {i}: {d} ns");
            if i + 1 < ends.len() {
                assert!(d >= 3_000_000, "frame {i}: {d} ns");
            }
            prev = e;
        }
        assert_eq!(prev, 10_000_000_000);
        assert_eq!(ends, Recut::Jitter(7).frame_ends(10_000_000_000, &[]), "same seed, same cut");
        assert_ne!(ends, Recut::Jitter(8).frame_ends(10_000_000_000, &[]));
    }

    #[test]
    fn a_recut_frame_costs_40_bytes_or_less() {
        // The re-cut script is held in memory: one step a frame (docs/lab.md "Re-cut").
        let size = std::mem::size_of::<(Step, usize)>();
        assert!(size <= 40, "{size}");
    }

    #[test]
    fn events_become_absolute_and_frames_follow_the_cut() {
        let jump = InputEvent::Press(Source::Keyboard, Action::Jump);
        let script =
            crate::lab::script::parse("frame 10\npress jump +3\nframe 30\nteleport 5 6\nframe 10\n").unwrap();
        let timeline = Timeline {
            items: vec![
                (13_000_000, Step::Event { event: jump, at: At::AfterFrame(3_000_000), player: 0 }, 2),
                (40_000_000, Step::Teleport(5.0, 6.0), 4),
            ],
            total_ns: 50_000_000,
        };
        let cut = recut_script(&script, &timeline, Recut::Hz(60));
        let f = |ns| (Step::Frame { ns, count: 1 }, 0);
        assert_eq!(
            cut.steps,
            [
                (Step::Event { event: jump, at: At::Absolute(13_000_000), player: 0 }, 2),
                f(16_666_667),
                f(16_666_666),
                f(6_666_667),
                (Step::Teleport(5.0, 6.0), 4),
                f(10_000_000),
            ]
        );
    }
}
