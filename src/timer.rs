//! The speedrun timer: in-game time (IGT: fixed ticks of the level's own timeline — the game
//! time the HUD shows, exact at any frame rate and game speed; a rewind takes its ticks back)
//! and real time (RTA: wall time from the level's start to its goal, pauses and slow motion
//! included), per level and in total, with splits against the best (progress.toml's best
//! ticks per level) and whether rewind was used.
//!
//! Clock: none; pure arithmetic on tick counts and nanoseconds the app reads at a level's
//! start and at its goal (event loop). Shown by `ui` (the level-complete banner, the end
//! screen).

/// The clock as `m:ss.cc` from whole ticks: exact (integer centiseconds, rounded down), so it
/// reads the same at any frame rate. `tick_hz` 0 reads as 60.
pub fn format_clock(ticks: u64, tick_hz: u32) -> String {
    let hz = u64::from(if tick_hz == 0 { 60 } else { tick_hz });
    format_centis(ticks.saturating_mul(100) / hz)
}

/// Real time as `m:ss.cc` from nanoseconds (rounded down to the centisecond).
pub fn format_real(ns: u64) -> String {
    format_centis(ns / 10_000_000)
}

fn format_centis(centis: u64) -> String {
    format!("{}:{:02}.{:02}", centis / 6000, (centis / 100) % 60, centis % 100)
}

/// A split against the best as `+m:ss.cc` (slower), `-m:ss.cc` (faster) or `±0:00.00`, from
/// a difference in ticks (the magnitude rounded down to the centisecond, like the clock).
pub fn format_delta(delta_ticks: i64, tick_hz: u32) -> String {
    let sign = match delta_ticks.signum() {
        1 => "+",
        -1 => "-",
        _ => "±",
    };
    format!("{sign}{}", format_clock(delta_ticks.unsigned_abs(), tick_hz))
}

/// Whether a split is ahead of the best, behind it, level with it, or has nothing to compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Faster than the best (shown green).
    Ahead,
    /// Slower than the best (shown red).
    Behind,
    /// The same time.
    Even,
    /// No best to compare with (a first finish).
    NoBest,
}

impl Pace {
    /// The pace of a time `delta` ticks off its best (negative: faster; `None`: no best).
    pub fn of(delta: Option<i64>) -> Pace {
        match delta {
            None => Pace::NoBest,
            Some(d) if d < 0 => Pace::Ahead,
            Some(d) if d > 0 => Pace::Behind,
            Some(_) => Pace::Even,
        }
    }
}

/// The assists a level's run used (Celeste's Assist Mode as the reference): a run with any is
/// never a personal best or a ghost, and the results say which it used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunAssists {
    /// The game speed furthest from 100 % the run was played at, whole percent (`None`: always
    /// full speed; [`crate::time::GameSpeed`]).
    pub game_speed: Option<u32>,
    /// The invincibility assist was on at some point ([`crate::sim::World::invincible`]).
    pub invincible: bool,
    /// A practice savestate was loaded (`app/practice.rs`): the run is practice.
    pub practice: bool,
}

impl RunAssists {
    /// Note the assists in force in one frame of the run: `speed_percent` (100: none) and
    /// `invincible`.
    pub fn note(&mut self, speed_percent: u32, invincible: bool) {
        if speed_percent != 100 {
            let off = |p: u32| p.abs_diff(100);
            self.game_speed = Some(
                self.game_speed
                    .map_or(speed_percent, |p| if off(speed_percent) > off(p) { speed_percent } else { p }),
            );
        }
        self.invincible |= invincible;
    }

    /// Any assist was used.
    pub fn any(&self) -> bool {
        self.game_speed.is_some() || self.invincible || self.practice
    }

    /// The assists as the results say them, e.g. "80 % speed, invincible"; empty with none.
    pub fn label(&self) -> String {
        let speed = self.game_speed.map(|p| format!("{p} % speed"));
        let invincible = self.invincible.then(|| "invincible".to_owned());
        let practice = self.practice.then(|| "savestates".to_owned());
        [speed, invincible, practice].into_iter().flatten().collect::<Vec<_>>().join(", ")
    }

    /// Both runs' assists (a total over levels): each used in either.
    pub fn merged(self, other: RunAssists) -> RunAssists {
        let mut m = self;
        if let Some(p) = other.game_speed {
            m.note(p, false);
        }
        m.invincible |= other.invincible;
        m.practice |= other.practice;
        m
    }
}

/// One level's times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// In-game time, ticks.
    pub igt_ticks: u64,
    /// Real time, nanoseconds.
    pub rta_ns: u64,
    /// The best time before this run, ticks (`None`: never finished before).
    pub best_ticks: Option<u64>,
    /// Rewind ticks run on the level (0: rewind not used).
    pub rewound_ticks: u64,
    /// The assists the run used: any makes it no personal best ([`Split::is_new_best`]).
    pub assists: RunAssists,
}

impl Split {
    /// IGT minus the best, ticks (negative: faster), if there was a best.
    pub fn delta_ticks(&self) -> Option<i64> {
        self.best_ticks.map(|b| self.igt_ticks as i64 - b as i64)
    }

    /// How the split compares with the best.
    pub fn pace(&self) -> Pace {
        Pace::of(self.delta_ticks())
    }

    /// A new best: faster than the best, or the first finish, with no assist.
    pub fn is_new_best(&self) -> bool {
        !self.assists.any() && matches!(self.pace(), Pace::Ahead | Pace::NoBest)
    }

    /// Rewind was used on the level.
    pub fn rewind_used(&self) -> bool {
        self.rewound_ticks > 0
    }

    /// The splits of a run added up: IGT and RTA summed, the best the sum of the levels' bests
    /// (`None` unless every level had one), rewind ticks summed.
    pub fn total<'a>(splits: impl IntoIterator<Item = &'a Split>) -> Split {
        splits.into_iter().fold(Split { best_ticks: Some(0), ..Split::default() }, |t, s| Split {
            igt_ticks: t.igt_ticks + s.igt_ticks,
            rta_ns: t.rta_ns + s.rta_ns,
            best_ticks: t.best_ticks.zip(s.best_ticks).map(|(a, b)| a + b),
            rewound_ticks: t.rewound_ticks + s.rewound_ticks,
            assists: t.assists.merged(s.assists),
        })
    }
}

/// Where a segment of a level ends: every checkpoint splits a level into segments, the last
/// ending at the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SegmentEnd {
    /// The level's checkpoint of this index (its order in the level file, from 0).
    Checkpoint(usize),
    /// The goal.
    Goal,
}

impl SegmentEnd {
    /// The name progress.toml keeps a best under and the results show: `checkpoint 1` (from 1)
    /// or `goal`.
    pub fn key(self) -> String {
        match self {
            SegmentEnd::Checkpoint(i) => format!("checkpoint {}", i + 1),
            SegmentEnd::Goal => "goal".to_owned(),
        }
    }
}

/// One segment run: where it ended, its time in ticks, and the best before this run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentSplit {
    /// Where it ended.
    pub end: SegmentEnd,
    /// Its time, ticks (from the previous split, or the level's start).
    pub ticks: u64,
    /// The best time of a segment ending there before this run, ticks.
    pub best: Option<u64>,
}

impl SegmentSplit {
    /// The time minus the best, ticks (negative: faster), if there was a best.
    pub fn delta_ticks(&self) -> Option<i64> {
        self.best.map(|b| self.ticks as i64 - b as i64)
    }

    /// How the segment compares with its best.
    pub fn pace(&self) -> Pace {
        Pace::of(self.delta_ticks())
    }
}

/// The sum of best of a run's segments: each segment's best, this run's time counted where it
/// beat the best (or had none), ticks.
pub fn sum_of_best(segments: &[SegmentSplit]) -> u64 {
    segments.iter().map(|s| s.best.map_or(s.ticks, |b| b.min(s.ticks))).sum()
}

/// The current level's segments on the tick clock (the segment timer): a split at each
/// checkpoint touched for the first time and at the goal, at the exact tick of the touch
/// ([`crate::sim::World::checkpoint_at`], [`crate::sim::World::finished_at`]), whatever the
/// frame rate. A rewind or a savestate load back before a split takes it back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Segments {
    /// The tick the level started at.
    start_tick: u64,
    /// The splits so far: where, and the tick.
    done: Vec<(SegmentEnd, u64)>,
}

impl Segments {
    /// A level starting at tick `start_tick`.
    pub fn start(start_tick: u64) -> Self {
        Segments { start_tick, done: Vec::new() }
    }

    /// After a frame: the world is at `tick` with the respawn checkpoint `checkpoint` touched
    /// first at `checkpoint_at` and the goal touched at `finished_at`. Splits that lie after
    /// `tick` (a rewind, a load) are dropped; a new checkpoint or the goal is split. Returns
    /// the segment that ended this frame (the goal's when both did), with its time in ticks.
    pub fn observe(
        &mut self,
        tick: u64,
        checkpoint: Option<usize>,
        checkpoint_at: Option<u64>,
        finished_at: Option<u64>,
    ) -> Option<(SegmentEnd, u64)> {
        self.done.retain(|&(_, at)| at <= tick);
        let mut ended = None;
        let fresh = |end: SegmentEnd, done: &[(SegmentEnd, u64)]| !done.iter().any(|(e, _)| *e == end);
        if let (Some(i), Some(at)) = (checkpoint, checkpoint_at) {
            let end = SegmentEnd::Checkpoint(i);
            if at <= tick && at > self.last_tick() && fresh(end, &self.done) {
                ended = Some((end, at - self.last_tick()));
                self.done.push((end, at));
            }
        }
        if let Some(at) = finished_at.filter(|&at| at <= tick && at >= self.last_tick()) {
            if fresh(SegmentEnd::Goal, &self.done) {
                ended = Some((SegmentEnd::Goal, at - self.last_tick()));
                self.done.push((SegmentEnd::Goal, at));
            }
        }
        ended
    }

    /// The tick of the last split, or the level's start.
    fn last_tick(&self) -> u64 {
        self.done.last().map_or(self.start_tick, |&(_, at)| at)
    }

    /// The running segment's time at `tick`, ticks.
    pub fn running(&self, tick: u64) -> u64 {
        tick.saturating_sub(self.last_tick())
    }

    /// How many segments have ended.
    pub fn count(&self) -> usize {
        self.done.len()
    }

    /// Every segment run so far with its time, in order.
    pub fn splits(&self) -> Vec<(SegmentEnd, u64)> {
        let mut from = self.start_tick;
        self.done
            .iter()
            .map(|&(end, at)| {
                let t = at - from;
                from = at;
                (end, t)
            })
            .collect()
    }
}

/// Where a level's clocks stood at its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelClock {
    /// The loop's tick number at the start (IGT counts from here).
    pub start_tick: u64,
    /// Real nanoseconds at the start (the app's wall clock, pauses included).
    pub start_real_ns: u64,
    /// The loop's rewind-tick total at the start.
    pub start_rewound: u64,
}

impl LevelClock {
    /// In-game time at the loop's tick `tick`, ticks.
    pub fn igt(&self, tick: u64) -> u64 {
        tick.saturating_sub(self.start_tick)
    }

    /// The split at the goal: the loop at tick `tick` with `rewound` rewind ticks in total,
    /// the wall clock at `real_ns`, against `best_ticks`.
    pub fn split(&self, tick: u64, real_ns: u64, rewound: u64, best_ticks: Option<u64>) -> Split {
        Split {
            igt_ticks: self.igt(tick),
            rta_ns: real_ns.saturating_sub(self.start_real_ns),
            best_ticks,
            rewound_ticks: rewound.saturating_sub(self.start_rewound),
            assists: RunAssists::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_and_deltas_are_exact_centiseconds() {
        assert_eq!(format_clock(3630, 60), "1:00.50");
        assert_eq!(format_real(61_239_999_999), "1:01.23");
        assert_eq!(format_delta(-30, 60), "-0:00.50");
        assert_eq!(format_delta(61, 60), "+0:01.01");
        assert_eq!(format_delta(0, 60), "±0:00.00");
    }

    #[test]
    fn a_split_against_the_best() {
        let clock = LevelClock { start_tick: 1000, start_real_ns: 5_000_000_000, start_rewound: 40 };
        let s = clock.split(1600, 16_000_000_000, 100, Some(630));
        assert_eq!(
            s,
            Split {
                igt_ticks: 600,
                rta_ns: 11_000_000_000,
                best_ticks: Some(630),
                rewound_ticks: 60,
                assists: RunAssists::default()
            }
        );
        assert_eq!(
            (s.delta_ticks(), s.pace(), s.is_new_best(), s.rewind_used()),
            (Some(-30), Pace::Ahead, true, true)
        );
        let slow = Split { best_ticks: Some(500), ..s };
        assert_eq!((slow.pace(), slow.is_new_best()), (Pace::Behind, false));
        assert_eq!(Split { best_ticks: Some(600), ..s }.pace(), Pace::Even);
        let first = Split { best_ticks: None, rewound_ticks: 0, ..s };
        assert_eq!((first.pace(), first.is_new_best(), first.rewind_used()), (Pace::NoBest, true, false));
    }

    #[test]
    fn assists_are_noted_named_and_never_a_best() {
        let mut a = RunAssists::default();
        a.note(100, false);
        assert!(!a.any() && a.label().is_empty());
        a.note(90, false);
        a.note(60, false);
        a.note(120, false);
        assert_eq!(a.game_speed, Some(60), "the speed furthest from 100 %");
        a.note(100, true);
        assert_eq!(a.label(), "60 % speed, invincible");
        let fast = RunAssists { game_speed: Some(160), ..RunAssists::default() };
        let practice = RunAssists { practice: true, ..RunAssists::default() };
        assert!(practice.any());
        assert_eq!(fast.merged(practice).label(), "160 % speed, savestates");
        assert_eq!(fast.merged(RunAssists::default()).label(), "160 % speed");
        let s = Split { best_ticks: None, assists: fast, ..Split::default() };
        assert!(!s.is_new_best(), "a first finish with an assist is no best");
        let ahead = Split { igt_ticks: 10, best_ticks: Some(20), assists: a, ..Split::default() };
        assert_eq!((ahead.pace(), ahead.is_new_best()), (Pace::Ahead, false));
    }

    #[test]
    fn segments_split_at_each_new_checkpoint_and_the_goal_and_undo_on_a_rewind() {
        let mut s = Segments::start(100);
        assert_eq!(s.observe(150, None, None, None), None);
        assert_eq!(s.running(150), 50);
        assert_eq!(s.observe(161, Some(0), Some(160), None), Some((SegmentEnd::Checkpoint(0), 60)));
        assert_eq!(s.observe(170, Some(0), Some(160), None), None, "split once");
        assert_eq!(s.running(170), 10);
        // A rewind back before the split takes it back; touching it again splits again.
        assert_eq!(s.observe(155, None, None, None), None);
        assert_eq!(s.count(), 0);
        assert_eq!(s.observe(166, Some(0), Some(165), None), Some((SegmentEnd::Checkpoint(0), 65)));
        assert_eq!(s.observe(240, Some(2), Some(230), None), Some((SegmentEnd::Checkpoint(2), 65)));
        assert_eq!(s.observe(300, Some(2), Some(230), Some(299)), Some((SegmentEnd::Goal, 69)));
        assert_eq!(
            s.splits(),
            [(SegmentEnd::Checkpoint(0), 65), (SegmentEnd::Checkpoint(2), 65), (SegmentEnd::Goal, 69)]
        );
        assert_eq!(SegmentEnd::Checkpoint(2).key(), "checkpoint 3");
        let split = SegmentSplit { end: SegmentEnd::Goal, ticks: 69, best: Some(70) };
        assert_eq!(split.delta_ticks(), Some(-1));
        let slow = SegmentSplit { end: SegmentEnd::Checkpoint(0), ticks: 80, best: Some(60) };
        let first = SegmentSplit { end: SegmentEnd::Checkpoint(1), ticks: 50, best: None };
        assert_eq!(sum_of_best(&[slow, first, split]), 60 + 50 + 69);
    }

    #[test]
    fn totals_sum_and_compare_with_the_sum_of_bests_only_when_every_level_has_one() {
        let a = Split {
            igt_ticks: 600,
            rta_ns: 11,
            best_ticks: Some(630),
            rewound_ticks: 0,
            assists: RunAssists::default(),
        };
        let b = Split {
            igt_ticks: 300,
            rta_ns: 5,
            best_ticks: Some(290),
            rewound_ticks: 7,
            assists: RunAssists::default(),
        };
        let t = Split::total([&a, &b]);
        assert_eq!(
            t,
            Split {
                igt_ticks: 900,
                rta_ns: 16,
                best_ticks: Some(920),
                rewound_ticks: 7,
                assists: RunAssists::default()
            }
        );
        assert_eq!(t.delta_ticks(), Some(-20));
        let c = Split { best_ticks: None, ..b };
        assert_eq!(Split::total([&a, &c]).best_ticks, None);
        assert_eq!(Split::total([]), Split { best_ticks: Some(0), ..Split::default() });
    }
}
