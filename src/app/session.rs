//! Where the player is in the run of levels: the [`Mode`] (playing, paused, end screen), the
//! level being played, where it started, and the results of the levels finished so far.
//!
//! Clock: event loop (changed on level completion, pause and play-again). Pure bookkeeping: the
//! app loads levels and drives the loop; this only remembers and answers.

use crate::level::Level;
use crate::sim::World;
use crate::timer::{LevelClock, SegmentEnd, SegmentSplit, Segments, Split};
use crate::ui::LevelResult;
use std::path::PathBuf;

/// What the game is doing: the game clock runs only while [`Mode::Playing`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Frames run the loop.
    Playing,
    /// The pause screen (Esc or focus lost): clock stopped.
    Paused,
    /// The end screen after the last level: clock stopped.
    Finished,
    /// The title screen and the pages opened from it (level select, settings): clock stopped,
    /// no level on.
    Title,
}

/// The run of levels from the first one to the end screen.
#[derive(Clone, Debug)]
pub struct Session {
    /// What the game is doing now.
    pub mode: Mode,
    /// The level file being played (for finding the next one).
    pub level_path: PathBuf,
    /// The first level, to loop back to from the end screen.
    first_level: (PathBuf, Level),
    /// Levels completed since the game started (play-again does not reset it).
    pub levels_completed: u32,
    /// Where the clocks stood when the current level started (the HUD's clock counts from its
    /// tick; the splits from all three).
    clock: LevelClock,
    /// Deaths when the current level started.
    level_start_deaths: u64,
    /// The assists the current level's run has used so far ([`Session::note_assists`]).
    assists: crate::timer::RunAssists,
    /// The current level's segment timer.
    segments: Segments,
    /// Levels finished since the first (for the end screen).
    results: Vec<LevelResult>,
}

impl Session {
    /// A session playing `level`, loaded from `path`, from tick 0.
    pub fn new(path: PathBuf, level: Level) -> Self {
        Self {
            mode: Mode::Playing,
            level_path: path.clone(),
            first_level: (path, level),
            levels_completed: 0,
            clock: LevelClock::default(),
            level_start_deaths: 0,
            assists: crate::timer::RunAssists::default(),
            segments: Segments::default(),
            results: Vec::new(),
        }
    }

    /// The current level starts now, in `world`, at `real_ns` on the wall clock with `rewound`
    /// rewind ticks run so far: its times, deaths and rewinds count from here.
    pub fn start_level(&mut self, world: &World, real_ns: u64, rewound: u64) {
        self.clock = LevelClock { start_tick: world.tick, start_real_ns: real_ns, start_rewound: rewound };
        self.level_start_deaths = world.deaths;
        self.assists = crate::timer::RunAssists::default();
        self.segments = Segments::start(world.tick);
    }

    /// A frame of the current level's run was played at `speed_percent` with invincibility
    /// on or off: both count as assists of the run (no personal best, no ghost).
    pub fn note_assists(&mut self, speed_percent: u32, invincible: bool) {
        self.assists.note(speed_percent, invincible);
    }

    /// A practice savestate was loaded in the current level's run: it is practice.
    pub fn note_practice(&mut self) {
        self.assists.practice = true;
    }

    /// The assists the current level's run has used so far.
    pub fn assists(&self) -> crate::timer::RunAssists {
        self.assists
    }

    /// Where the clocks stood when the current level started.
    pub fn level_clock(&self) -> LevelClock {
        self.clock
    }

    /// Deaths on the current level so far.
    pub fn level_deaths(&self, world: &World) -> u64 {
        world.deaths.saturating_sub(self.level_start_deaths)
    }

    /// Ticks on the current level so far.
    pub fn level_ticks(&self, world: &World) -> u64 {
        self.clock.igt(world.tick)
    }

    /// The current level (named `name`) is complete in `world` with `split` ([`LevelClock::split`]):
    /// note its result.
    pub fn finish_level(&mut self, name: &str, world: &World, split: Split, segments: Vec<SegmentSplit>) {
        self.levels_completed += 1;
        self.results.push(LevelResult {
            name: name.to_owned(),
            deaths: self.level_deaths(world),
            ticks: self.level_ticks(world),
            split,
            segments,
        });
    }

    /// After a frame of the current level: the segment timer's split, if a segment ended
    /// ([`Segments::observe`]).
    pub fn observe_segments(&mut self, world: &World) -> Option<(SegmentEnd, u64)> {
        self.segments.observe(world.tick, world.checkpoint, world.checkpoint_at, world.finished_at)
    }

    /// The current level's segment timer.
    pub fn segments(&self) -> &Segments {
        &self.segments
    }

    /// The first level (the title's background, and where play-again starts).
    pub fn first(&self) -> &Level {
        &self.first_level.1
    }

    /// A level chosen in the menus, loaded from `path`, is about to start: it becomes the
    /// current level and the run's results start afresh (the end screen lists this run).
    pub fn choose(&mut self, path: PathBuf) {
        self.level_path = path;
        self.results.clear();
    }

    /// The current level was swapped for `level`, a new version of it (hot reload): when it is
    /// the first level, play-again starts from this version too.
    pub fn reloaded(&mut self, level: &Level) {
        if self.first_level.0 == self.level_path {
            self.first_level.1 = level.clone();
        }
    }

    /// The levels finished since the first, in order.
    pub fn results(&self) -> &[LevelResult] {
        &self.results
    }

    /// Play again from the end screen: results cleared, and the first level (its path becomes
    /// the current one) for the caller to load, then [`Session::start_level`].
    pub fn restart(&mut self) -> Level {
        let (path, level) = self.first_level.clone();
        self.level_path = path;
        self.results.clear();
        level
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ascii::parse_ascii;

    #[test]
    fn results_count_from_each_level_start_and_clear_on_restart() {
        let rows: Vec<String> = ["P..G", "####"].map(String::from).to_vec();
        let level = parse_ascii(&rows, 1).expect("level");
        let mut s = Session::new(PathBuf::from("levels/level1.tmx"), level.clone());
        let mut w = World::new(level.spawn);
        w.tick = 100;
        w.deaths = 2;
        s.start_level(&w, 0, 0);
        w.tick = 160;
        w.deaths = 5;
        assert_eq!((s.level_ticks(&w), s.level_deaths(&w)), (60, 3));
        let split = s.level_clock().split(w.tick, 0, 0, None);
        s.finish_level("one", &w, split, Vec::new());
        s.level_path = PathBuf::from("levels/level2.tmx");
        assert_eq!(
            s.results(),
            &[LevelResult { name: "one".into(), deaths: 3, ticks: 60, split, segments: Vec::new() }]
        );
        assert_eq!(s.levels_completed, 1);
        assert_eq!(split.igt_ticks, 60);
        let first = s.restart();
        assert_eq!(first.name, level.name);
        assert_eq!(s.level_path, PathBuf::from("levels/level1.tmx"));
        assert!(s.results().is_empty());
        assert_eq!(s.levels_completed, 1, "play-again keeps the session's count");
        s.finish_level("one", &w, split, Vec::new());
        s.choose(PathBuf::from("levels/level3.tmx"));
        assert!(s.results().is_empty(), "a level chosen in the menus starts a new run");
        assert_eq!(
            (s.level_path.to_str(), s.first().name.as_str()),
            (Some("levels/level3.tmx"), level.name.as_str())
        );
    }
}
