//! A level's run: where its timer and ghost start ([`App::start_run`], at every level start)
//! and what happens at its goal ([`App::finish_run`]: the split against the best before this
//! run, the attempt kept as the ghost on a new best, the result noted for the screens).
//!
//! Clock: event loop (a level's start; the frame that sees the goal, before the progress is
//! saved, so the best it compares with is the one from before this run).

use super::App;
use crate::timer::{SegmentEnd, SegmentSplit};

impl App {
    /// The current level starts now: its timer ([`crate::timer::LevelClock`]: tick, wall
    /// clock, rewinds) and its ghost and attempt ([`super::ghosts::Ghosts::start`]).
    pub(super) fn start_run(&mut self) {
        let rewound = self.game.totals().rewound_ticks;
        self.session.start_level(self.game.world(), self.wall_ns(), rewound);
        // The last level's goal split is not this level's.
        self.last_segment.clear();
        let id = self.level_id();
        self.ghosts.start(&self.session.level_path, &id, &self.game, &self.opts.save);
    }

    /// The current level's goal was reached: its split (IGT, RTA, rewinds, assists) against
    /// the best saved before it, its attempt kept as the level's ghost if it is a new best
    /// without assists (one warning line if that fails), and its result noted.
    pub(super) fn finish_run(&mut self) {
        let id = self.level_id();
        let best = self.opts.save.progress().levels.get(&id).map(|r| r.best_ticks);
        let world = self.game.world();
        let split = crate::timer::Split {
            assists: self.session.assists(),
            ..self.session.level_clock().split(
                world.tick,
                self.wall_ns(),
                self.game.totals().rewound_ticks,
                best,
            )
        };
        if let Err(e) = self.ghosts.finish(&id, &split, &self.game, &self.opts.save) {
            eprintln!("ledge: warning: the ghost of this run is not kept: {e}");
        }
        let segments = self.segment_splits();
        self.session.finish_level(&self.game.level().name, self.game.world(), split, segments);
    }

    /// The current level's segments so far, each with the best saved before this run.
    fn segment_splits(&self) -> Vec<SegmentSplit> {
        let splits = self.session.segments().splits();
        splits.into_iter().map(|(end, ticks)| self.segment_split(end, ticks)).collect()
    }

    /// After a frame of a level (not a race): split the segment timer when a segment ended,
    /// and keep that split, with its best before this run, for the HUD's moment.
    pub(super) fn observe_segments(&mut self) {
        let Some((end, ticks)) = self.session.observe_segments(self.game.world()) else { return };
        let split = self.segment_split(end, ticks);
        self.last_segment.show(split);
    }

    /// A segment of the current level that ended at `end` in `ticks`, with the best of a
    /// segment ending there saved before this run (progress.toml's `[[segment]]`).
    fn segment_split(&self, end: SegmentEnd, ticks: u64) -> SegmentSplit {
        let bests = self.opts.save.progress().segment_bests(&self.level_id());
        SegmentSplit { end, ticks, best: bests.and_then(|b| b.get(&end.key()).copied()) }
    }
}
