//! The ghost in the game: each level attempt written tick by tick
//! ([`crate::lab::tick_script`]); a new best kept as the level's ghost (in the save folder,
//! [`crate::save::ghosts`], and in memory for this session); the level's ghost (`--ghost FILE`
//! for the first level, else the kept best) drawn beside the player, aligned by the level's
//! tick numbers ([`crate::present::ghost`]); G shows or hides it.
//!
//! Clock: event loop (a level's start and goal, the toggle) and render frame
//! ([`Ghosts::after_frame`] once per loop frame, [`Ghosts::drawn`] once per drawn frame).
//! Nothing here writes the loop or its world: the ghost never reaches the state hash.

use crate::game_loop::Loop;
use crate::lab::ghost::{GhostError, load, load_text};
use crate::lab::tick_script::TickScript;
use crate::present::ghost::GhostTrack;
use crate::present::view::PlayerDraw;
use crate::save::Store;
use crate::timer::Split;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The app's ghosts: the one playing, the attempt being written, the bests of this session.
#[derive(Debug)]
pub struct Ghosts {
    /// `--ghost FILE`, played on the level the game started with.
    flag: Option<(PathBuf, GhostTrack)>,
    /// Bests kept this session, by level id (they win over the files read at a level start).
    bests: HashMap<String, GhostTrack>,
    /// The ghost of the level being played.
    playing: Option<GhostTrack>,
    /// The attempt being played, tick by tick.
    attempt: Option<TickScript>,
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
            attempt: None,
            shown: true,
        }
    }

    /// A level (`level_path`, progress id `id`) starts in `game`: its ghost is `--ghost`'s for
    /// the first level, else this session's best, else the one kept in `store`'s folder (a bad
    /// file there: one warning line, no ghost); a new attempt is written from here.
    pub fn start(&mut self, level_path: &Path, id: &str, game: &Loop, store: &Store) {
        let hz = game.config().tick_hz;
        self.playing = match &self.flag {
            Some((first, track)) if first == level_path => Some(track.clone()),
            _ => self.bests.get(id).cloned().or_else(|| {
                let file = store.ghost_file(id).filter(|f| f.is_file())?;
                load(&file, hz).map_err(|e| eprintln!("ledge: warning: {e}")).ok()
            }),
        };
        self.attempt = Some(TickScript::new(level_path, game.tuning(), game.config()));
    }

    /// After each loop frame: the ticks it ran go into the attempt.
    pub fn after_frame(&mut self, game: &Loop) {
        if let Some(a) = &mut self.attempt {
            for t in game.ticks_this_frame() {
                a.tick(&t.input);
            }
        }
    }

    /// The level (id `id`) was finished with `split`: on a new best, the attempt becomes the
    /// level's ghost for the next start, and is saved to `store`'s folder.
    ///
    /// # Errors
    /// The attempt does not replay (a level that cannot be read back), or the save failed;
    /// the game goes on either way.
    pub fn finish(&mut self, id: &str, split: &Split, game: &Loop, store: &Store) -> Result<(), String> {
        let Some(mut attempt) = self.attempt.take() else { return Ok(()) };
        if !split.is_new_best() {
            return Ok(());
        }
        let text = attempt.text().to_owned();
        let name = store.ghost_file(id).unwrap_or_else(|| PathBuf::from(format!("{id}.lab")));
        let track = load_text(&text, &name, game.config().tick_hz).map_err(|e: GhostError| e.to_string())?;
        self.bests.insert(id.to_owned(), track);
        store.save_ghost(id, &text).map_err(|w| w.to_string())
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
