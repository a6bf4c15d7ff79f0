//! Hot reload in the game (docs/levels.md "Hot reload"): while a level loaded from a file is on
//! (playing or paused; not the title, the level select or the end screen) and `--no-watch` is
//! not given, the [`Watcher`] follows its files and the tuning file; what it finds is put into
//! the loop here, before a frame's ticks, so a swap always lands between two ticks
//! ([`crate::game_loop::Loop::reload_level`] says what carries over; a tuning change applies
//! from the next tick). The HUD says "reloaded NAME" for [`NOTICE_FOR`]; a file that fails to
//! load keeps the last good version playing and a banner names the file, the line and the
//! problem until a good save. A reload mid-recording writes `level-changed TICK` into the
//! recording (the lab refuses it), and the level attempt being written is dropped, so it never
//! becomes a ghost.
//!
//! Clock: event loop (once a frame, [`App::hot_reload`], before the loop's frame).

use super::App;
use super::moment::Moment;
use super::session::Mode;
use super::watch::{Change, Target, Watcher, Which};
use crate::level::Origin;
use crate::ui::BrokenFile;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long the HUD says "reloaded NAME": 2 s of wall time, a choice (long enough to read two
/// words, short enough to be gone before the next save).
pub const NOTICE_FOR: Duration = Duration::from_secs(2);

/// The app's hot-reload state.
#[derive(Debug)]
pub struct HotReload {
    /// Watch at all (`--no-watch` turns it off).
    enabled: bool,
    /// The tuning file the game loaded (`--tuning FILE` or `assets/tuning.toml`).
    tuning_path: PathBuf,
    /// The watcher, while a level is on.
    watcher: Option<Watcher>,
    /// What the watcher was last told to follow.
    followed: Option<Origin>,
    /// The watcher could not start: not tried again every frame.
    failed: bool,
    /// The HUD's "reloaded NAME", for [`NOTICE_FOR`].
    notice: Moment<String>,
    /// The files that do not load, by what they are.
    broken: Vec<(Which, BrokenFile)>,
    /// The same, as the banner takes them.
    banner: Vec<BrokenFile>,
}

impl HotReload {
    /// Hot reload on (`enabled`) or off, with the tuning loaded from `tuning_path`.
    pub fn new(enabled: bool, tuning_path: PathBuf) -> Self {
        HotReload {
            enabled,
            tuning_path,
            watcher: None,
            followed: None,
            failed: false,
            notice: Moment::new(NOTICE_FOR),
            broken: Vec::new(),
            banner: Vec::new(),
        }
    }

    /// The HUD's notice, while it shows.
    pub fn notice(&self) -> Option<&str> {
        self.notice.get().map(String::as_str)
    }

    /// The files that do not load, for the banner (empty: no banner).
    pub fn banner(&self) -> &[BrokenFile] {
        &self.banner
    }

    /// `which` loads again (or is no longer watched): its banner entry goes. Returns whether it
    /// had one.
    fn fixed(&mut self, which: Which) -> bool {
        let before = self.broken.len();
        self.broken.retain(|(w, _)| *w != which);
        self.banner = self.broken.iter().map(|(_, b)| b.clone()).collect();
        self.broken.len() != before
    }

    fn set_broken(&mut self, which: Which, file: BrokenFile) {
        self.fixed(which);
        self.broken.push((which, file));
        self.banner = self.broken.iter().map(|(_, b)| b.clone()).collect();
    }

    fn say(&mut self, text: String) {
        self.notice.show(text);
    }
}

/// A file's name, for the notice.
fn name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

impl App {
    /// Once a frame, before the loop's frame: start, move or stop the watcher with the level on,
    /// and put in what it found.
    pub(super) fn hot_reload(&mut self) {
        // While watching a replay over the game the loop is the replay's: what changed is
        // swapped in once the game is back.
        if !self.reload.enabled || self.replay.is_some() {
            return;
        }
        if !matches!(self.session.mode, Mode::Playing | Mode::Paused) {
            // The title, the level select and the end screen do not watch.
            if self.reload.watcher.take().is_some() {
                self.reload.followed = None;
                self.reload.fixed(Which::Level);
                self.reload.fixed(Which::Tuning);
            }
            return;
        }
        let Some(origin) = self.game.level().origin.as_ref() else { return };
        if self.reload.followed.as_ref() != Some(origin) {
            let target = Target {
                origin: origin.clone(),
                tuning: Some((self.reload.tuning_path.clone(), self.game.tuning().clone())),
            };
            let old_map = self.reload.followed.as_ref().and_then(Origin::map);
            if old_map != origin.map() {
                // Another level: the last one's broken file is no longer played.
                self.reload.fixed(Which::Level);
            }
            self.reload.followed = Some(origin.clone());
            match &self.reload.watcher {
                Some(w) => w.follow(target),
                None if !self.reload.failed => match Watcher::start(target) {
                    Ok(w) => self.reload.watcher = Some(w),
                    Err(e) => {
                        eprintln!("ledge: warning: hot reload is off: cannot watch the level's files: {e}");
                        self.reload.failed = true;
                    }
                },
                None => {}
            }
        }
        while let Some(change) = self.reload.watcher.as_ref().and_then(Watcher::poll) {
            self.apply_change(change);
        }
    }

    /// Put in one change the watcher found.
    fn apply_change(&mut self, change: Change) {
        let tick = self.game.world().tick;
        match change {
            Change::Level { map, level, since } => {
                let playing = self.game.level().origin.as_ref().and_then(Origin::map);
                if playing != Some(map.as_path()) {
                    return; // another level started meanwhile
                }
                let carried = self.game.reload_level(*level);
                self.session.reloaded(self.game.level());
                self.changed_under_the_run(false, tick);
                self.reload.fixed(Which::Level);
                log::info!(
                    "reloaded {} at tick {tick}, {} ms after the file changed: player {}, {} entities \
                     kept, {} fresh",
                    map.display(),
                    since.elapsed().as_millis(),
                    if carried.player_kept { "kept" } else { "moved to the nearest respawn place" },
                    carried.entities_kept,
                    carried.entities_fresh
                );
                self.reload.say(format!("reloaded {}", name(&map)));
            }
            Change::Tuning(tuning, since) => {
                self.game.set_tuning(*tuning);
                self.changed_under_the_run(true, tick);
                self.reload.fixed(Which::Tuning);
                let ms = since.elapsed().as_millis();
                log::info!(
                    "reloaded {} at tick {tick}, {ms} ms after the file changed",
                    self.reload.tuning_path.display()
                );
                let text = format!("reloaded {}", name(&self.reload.tuning_path));
                self.reload.say(text);
            }
            Change::Same(which) => {
                if self.reload.fixed(which) {
                    let file = match which {
                        Which::Level => self.game.level().origin.as_ref().and_then(Origin::map).map(name),
                        Which::Tuning => Some(name(&self.reload.tuning_path)),
                    };
                    self.reload.say(format!("reloaded {}", file.unwrap_or_default()));
                }
            }
            Change::Broken(which, file) => {
                eprintln!("ledge: warning: {} (the last good version plays on)", file.text());
                self.reload.set_broken(which, file);
            }
        }
    }

    /// The level (`tuning` false) or the tuning changed after tick `tick`: the recording says
    /// so where it happened, and the attempt being written will not become a ghost.
    fn changed_under_the_run(&mut self, tuning: bool, tick: u64) {
        if let Some(r) = &mut self.recorder {
            r.changed(tuning, tick);
        }
        self.ghosts.drop_attempt();
    }
}
