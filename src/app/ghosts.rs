//! The ghost in the game: each level attempt written tick by tick
//! ([`crate::lab::tick_script`]); a new best kept as the level's ghost (in the save folder,
//! [`crate::save::ghosts`], and in memory for this session); the level's ghost (`--ghost FILE`
//! for the first level, else the kept best) drawn beside the player, aligned by the level's
//! tick numbers ([`crate::present::ghost`]); G shows or hides it.
//!
//! Clock: event loop (a level's start and goal, the toggle) and render frame
//! ([`Ghosts::after_frame`] once per loop frame, [`Ghosts::drawn`] once per drawn frame).
//! Replaying a file into a track takes milliseconds (a few thousand ticks through the real
//! loop), so it runs on a worker thread and the ghost appears when it is ready (a frame or
//! two later): the event loop never stalls at a level's start or goal, where input timing
//! matters. Nothing here writes the loop or its world: the ghost never reaches the state hash.

use crate::game_loop::Loop;
use crate::lab::ghost::{GhostError, load_text};
use crate::lab::tick_script::TickScript;
use crate::present::ghost::GhostTrack;
use crate::present::view::PlayerDraw;
use crate::save::Store;
use crate::timer::Split;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// A track being replayed on a worker thread.
type Pending = Receiver<Result<GhostTrack, GhostError>>;

/// Replay `text` (named `path`) into a track on a worker thread.
fn replay_in_background(text: String, path: PathBuf, tick_hz: u32) -> Pending {
    let (tx, rx) = channel();
    let replay = move || {
        let _ = tx.send(load_text(&text, &path, tick_hz));
    };
    // A page has no threads (wasm32-unknown-unknown): the replay runs at once there.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    replay();
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    std::thread::spawn(replay);
    rx
}

/// A level's finished visit: every attempt at it, as tick scripts from the level's start
/// ([`TickScript`]), the finishing one last.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Visit {
    /// The level's progress id.
    pub level: String,
    /// The attempts ended by a restart, in order.
    pub earlier: Vec<String>,
    /// The attempt that reached the goal.
    pub finished: String,
}

/// The app's ghosts: the one playing, the attempt being written, the bests of this session.
#[derive(Debug)]
pub struct Ghosts {
    /// `--ghost FILE`, played on the level the game started with.
    flag: Option<(PathBuf, GhostTrack)>,
    /// Bests kept this session, by level id (they win over the files read at a level start).
    bests: HashMap<String, GhostTrack>,
    /// The ghost of the level being played.
    playing: Option<GhostTrack>,
    /// The level's ghost, still being replayed.
    loading: Option<Pending>,
    /// A new best's ghost, still being replayed, with its level id.
    keeping: Option<(String, Pending)>,
    /// The id of the level being played.
    level: String,
    /// The attempt being played, tick by tick.
    attempt: Option<TickScript>,
    /// This visit's earlier attempts at the level (each ended by a restart), as scripts.
    visit: Vec<String>,
    /// The last level finished: its attempts ("watch every attempt", "copy run link").
    last_visit: Option<Visit>,
    /// Drawn (G toggles).
    shown: bool,
}

impl Ghosts {
    /// Ghosts for a game whose first level is `first_level`, with `--ghost`'s `flag` track.
    pub fn new(first_level: &Path, flag: Option<GhostTrack>) -> Ghosts {
        Ghosts {
            flag: flag.map(|t| (first_level.to_path_buf(), t)),
            bests: HashMap::new(),
            playing: None,
            loading: None,
            keeping: None,
            level: String::new(),
            attempt: None,
            visit: Vec::new(),
            last_visit: None,
            shown: true,
        }
    }

    /// A level (`level_path`, progress id `id`) starts in `game`: its ghost is `--ghost`'s for
    /// the first level, else this session's best, else the one kept in `store`'s folder (a bad
    /// file there: one warning line, no ghost); a new attempt is written from here.
    pub fn start(&mut self, level_path: &Path, id: &str, game: &Loop, store: &Store) {
        self.poll();
        let hz = game.config().tick_hz;
        // A restart: the attempt so far is one of this visit's; another level: a new visit.
        match self.attempt.take() {
            Some(mut a) if self.level == id && a.ticks() > 0 => self.visit.push(a.text().to_owned()),
            _ if self.level == id => {}
            _ => self.visit.clear(),
        }
        self.level = id.to_owned();
        self.loading = None;
        self.playing = match &self.flag {
            Some((first, track)) if first == level_path => Some(track.clone()),
            _ => self.bests.get(id).cloned(),
        };
        if self.playing.is_none() {
            if let Some(file) = store.ghost_file(id).filter(|f| crate::save::disk::exists(f)) {
                let text =
                    crate::save::disk::read(&file, crate::lab::script::MAX_SCRIPT_BYTES).and_then(|b| {
                        String::from_utf8(b)
                            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
                    });
                match text {
                    Ok(text) => self.loading = Some(replay_in_background(text, file, hz)),
                    Err(error) => eprintln!("ledge: warning: {}", GhostError::Read { path: file, error }),
                }
            }
        }
        let sha256 = game.level().origin.as_ref().map(|o| o.sha256);
        self.attempt = Some(TickScript::new(level_path, sha256, game.tuning(), game.config()));
    }

    /// Take the tracks the worker threads finished (a bad saved ghost: one warning line, no
    /// ghost).
    fn poll(&mut self) {
        let done = |rx: &Pending| match rx.try_recv() {
            Ok(r) => Some(r.map_err(|e| e.to_string())),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the ghost's worker thread stopped".to_owned())),
        };
        if let Some(r) = self.loading.as_ref().and_then(done) {
            self.loading = None;
            match r {
                Ok(track) => self.playing = Some(track),
                Err(e) => eprintln!("ledge: warning: {e}"),
            }
        }
        if let Some(r) = self.keeping.as_ref().and_then(|(_, rx)| done(rx)) {
            let (id, _) = self.keeping.take().expect("checked above");
            match r {
                Ok(track) => {
                    // The level started again before its new ghost was ready: it plays now.
                    if id == self.level && self.playing.is_none() && self.loading.is_none() {
                        self.playing = Some(track.clone());
                    }
                    self.bests.insert(id, track);
                }
                Err(e) => eprintln!("ledge: warning: the ghost of this run is not kept: {e}"),
            }
        }
    }

    /// After each loop frame: the ticks it ran go into the attempt; ghosts replayed in the
    /// background are taken in.
    pub fn after_frame(&mut self, game: &Loop) {
        self.poll();
        if let Some(a) = &mut self.attempt {
            for t in game.ticks_this_frame() {
                a.tick(&t.input);
            }
        }
    }

    /// The level (id `id`) was finished with `split`: on a new best, the attempt becomes the
    /// level's ghost for the next start (replayed in the background), and is saved to
    /// `store`'s folder.
    ///
    /// # Errors
    /// The save failed (one line); the game goes on either way, with the ghost kept in memory.
    pub fn finish(&mut self, id: &str, split: &Split, game: &Loop, store: &Store) -> Result<(), String> {
        let earlier = std::mem::take(&mut self.visit);
        let Some(mut attempt) = self.attempt.take() else {
            self.last_visit = None;
            return Ok(());
        };
        let text = attempt.text().to_owned();
        // Invincibility is no line of a tick script: such a run would not replay as played.
        self.last_visit = (!split.assists.invincible).then(|| Visit {
            level: id.to_owned(),
            earlier,
            finished: text.clone(),
        });
        if !split.is_new_best() {
            return Ok(());
        }
        let name = store.ghost_file(id).unwrap_or_else(|| PathBuf::from(format!("{id}.lab")));
        let saved = store.save_ghost(id, &text).map_err(|w| w.to_string());
        self.bests.remove(id);
        self.keeping = Some((id.to_owned(), replay_in_background(text, name, game.config().tick_hz)));
        saved
    }

    /// The level or the tuning changed under the attempt being written (hot reload), or a
    /// savestate was loaded: it is dropped and never becomes a ghost (its replay would run on
    /// files it was not played on), nor are this visit's earlier attempts watched; the next
    /// level start writes a new one.
    pub fn drop_attempt(&mut self) {
        self.attempt = None;
        self.visit.clear();
    }

    /// The last level finished this session, with all its attempts (none after an invincible
    /// run, which no tick script replays).
    pub fn last_visit(&self) -> Option<&Visit> {
        self.last_visit.as_ref()
    }

    /// The ghost as drawn this frame: its tick (`prev`, `curr` of `game` counted from the
    /// level's start tick `start`) at the frame's alpha; `None` when hidden, when the level has
    /// no ghost, or past the ghost's end.
    pub fn drawn(&self, game: &Loop, start: u64) -> Option<PlayerDraw> {
        let track = self.playing.as_ref().filter(|_| self.shown)?;
        let (prev, curr) = (game.prev_tick().saturating_sub(start), game.world().tick.saturating_sub(start));
        track.drawn(prev, curr, game.stepper().alpha())
    }

    /// Show the ghost or not (for the pause menu).
    pub fn set_shown(&mut self, on: bool) {
        self.shown = on;
    }

    /// Show or hide the ghost (G); returns whether it is shown now.
    pub fn toggle(&mut self) -> bool {
        self.shown = !self.shown;
        self.shown
    }

    /// The ghost is shown (when the level has one).
    pub fn shown(&self) -> bool {
        self.shown
    }

    /// The level being played has a ghost.
    pub fn has_ghost(&self) -> bool {
        self.playing.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Action, InputEvent, Source};
    use crate::save::SaveDirs;
    use crate::sim::Tuning;
    use crate::time::StepperConfig;

    /// Wait (up to 10 s) until the worker threads are done.
    fn settle(g: &mut Ghosts) {
        for _ in 0..1000 {
            g.poll();
            if g.loading.is_none() && g.keeping.is_none() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("the ghost's worker thread did not finish");
    }

    /// Shipped level 1 (its path and level), a save folder of its own named `name` (removed
    /// first), a loop on the level and ghosts for it.
    fn fixture(name: &str) -> (PathBuf, crate::level::Level, PathBuf, Store, Loop, Ghosts) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let level_path = root.join("assets/levels/level1.tmx");
        let level = crate::level::tiled_map::load_tmx(&level_path).unwrap();
        let dir = std::env::temp_dir().join(format!("ledge-app-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (store, _) = Store::open_in(&SaveDirs::single(&dir));
        let game = Loop::new(level.clone(), Tuning::default(), StepperConfig::default()).unwrap();
        let g = Ghosts::new(&level_path, None);
        (level_path, level, dir, store, game, g)
    }

    #[test]
    fn a_new_best_is_saved_and_plays_at_the_next_start_and_a_slower_run_keeps_it() {
        let (level_path, level, dir, store, mut game, mut g) = fixture("ghosts");
        g.start(&level_path, "level1", &game, &store);
        assert!(!g.has_ghost(), "nothing saved yet");
        game.push_event(0, InputEvent::Press(Source::Keyboard, Action::Right));
        for k in 1..=60u64 {
            game.frame(k * 16_666_667);
            g.after_frame(&game);
        }
        assert_eq!(g.drawn(&game, 0), None);
        let best = Split { igt_ticks: 60, ..Split::default() };
        g.finish("level1", &best, &game, &store).expect("saved");
        settle(&mut g);
        let file = store.ghost_file("level1").unwrap();
        let saved = std::fs::read_to_string(&file).expect("the ghost file");
        // The next start plays it, aligned from the level's start tick (60 here).
        game.load_level(level);
        g.start(&level_path, "level1", &game, &store);
        settle(&mut g);
        assert!(g.has_ghost());
        let at_start = g.drawn(&game, 60).expect("drawn at the start");
        game.frame(61 * 16_666_667 + 8_333_333);
        let moved = g.drawn(&game, 60).expect("drawn");
        assert!(moved.pos.x > at_start.pos.x, "the ghost runs right: {at_start:?} -> {moved:?}");
        assert!(!g.toggle() && g.drawn(&game, 60).is_none(), "G hides it");
        g.set_shown(true);
        // A slower run keeps the best's file.
        let slower = Split { igt_ticks: 90, best_ticks: Some(60), ..Split::default() };
        g.finish("level1", &slower, &game, &store).expect("nothing to save");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), saved);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_restart_keeps_the_attempt_for_the_visit_and_the_goal_keeps_the_visit() {
        let (level_path, level, dir, store, mut game, mut g) = fixture("visit");
        g.start(&level_path, "level1", &game, &store);
        game.push_event(0, InputEvent::Press(Source::Keyboard, Action::Right));
        for k in 1..=30u64 {
            game.frame(k * 16_666_667);
            g.after_frame(&game);
        }
        // Restart: a new attempt at the same level.
        game.load_level(level.clone());
        g.start(&level_path, "level1", &game, &store);
        for k in 31..=50u64 {
            game.frame(k * 16_666_667);
            g.after_frame(&game);
        }
        let split = Split { igt_ticks: 20, ..Split::default() };
        g.finish("level1", &split, &game, &store).expect("saved");
        let v = g.last_visit().expect("the visit").clone();
        assert_eq!((v.level.as_str(), v.earlier.len()), ("level1", 1));
        let first = crate::lab::ghost::load_text(&v.earlier[0], &level_path, 60).unwrap();
        assert_eq!(first.last_tick(), 30, "the first attempt, tick by tick");
        assert!(first.at(30).unwrap().pos.x > first.at(0).unwrap().pos.x, "it ran right");
        // Another level: a new visit; an invincible finish keeps none.
        g.start(&level_path, "level2", &game, &store);
        let invincible = Split {
            assists: crate::timer::RunAssists { invincible: true, ..Default::default() },
            ..Split::default()
        };
        g.finish("level2", &invincible, &game, &store).expect("nothing to save");
        assert_eq!(g.last_visit(), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
