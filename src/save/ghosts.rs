//! The best run of each level, kept as its ghost: `ghosts/LEVEL.lab` in the folder that holds
//! `progress.toml`, a lab script (`crate::lab::tick_script`) written atomically
//! ([`super::atomic`]) when a level is finished faster than ever before. Beside them,
//! `races/NAME.lab`: each online race played from the menu, its confirmed inputs as a lab script
//! (`ledge lab FILE` replays it to the race's hash).
//!
//! Clock: event loop (read when a level starts, written on the frame that sees a new best).

use super::{SaveWarning, Store};
use std::path::PathBuf;

/// The file name a level's ghost is kept under: the level id with every character other than
/// an ASCII letter, digit, `-` or `_` made `_` (a shipped level's id is its file stem; another
/// level's is its absolute path), then `.lab`.
pub fn ghost_file_name(level_id: &str) -> String {
    let safe: String = level_id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    format!("{safe}.lab")
}

impl Store {
    /// Where level `level_id`'s ghost is kept (`ghosts/` beside `progress.toml`); `None` when
    /// progress is not saved.
    pub fn ghost_file(&self, level_id: &str) -> Option<PathBuf> {
        let dir = self.progress_to.as_deref()?.parent()?.join("ghosts");
        Some(dir.join(ghost_file_name(level_id)))
    }

    /// Keep `script` as level `level_id`'s ghost, replacing the one before (atomically: a kill
    /// leaves the old ghost or the new one whole). Nothing happens when progress is not saved.
    ///
    /// # Errors
    /// [`SaveWarning::WriteFailed`] naming the file (the folder cannot be made, disk full, ...).
    pub fn save_ghost(&self, level_id: &str, script: &str) -> Result<(), SaveWarning> {
        let Some(path) = self.ghost_file(level_id) else { return Ok(()) };
        let fail = |e: std::io::Error| SaveWarning::WriteFailed { path: path.clone(), error: e.to_string() };
        super::disk::write(&path, script.as_bytes()).map_err(fail)
    }

    /// Where a race named `name` is kept (`races/` beside `progress.toml`, the name made safe
    /// as a ghost's is); `None` when progress is not saved.
    pub fn race_file(&self, name: &str) -> Option<PathBuf> {
        let dir = self.progress_to.as_deref()?.parent()?.join("races");
        Some(dir.join(ghost_file_name(name)))
    }

    /// Keep a race's `script` as `name` (atomically); returns where, `None` when progress is
    /// not saved.
    ///
    /// # Errors
    /// [`SaveWarning::WriteFailed`] naming the file.
    pub fn save_race(&self, name: &str, script: &str) -> Result<Option<PathBuf>, SaveWarning> {
        let Some(path) = self.race_file(name) else { return Ok(None) };
        let fail = |e: std::io::Error| SaveWarning::WriteFailed { path: path.clone(), error: e.to_string() };
        super::disk::write(&path, script.as_bytes()).map_err(fail)?;
        Ok(Some(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::save::SaveDirs;

    #[test]
    fn a_ghost_is_written_beside_the_progress_and_replaced_whole() {
        let dir = std::env::temp_dir().join(format!("ledge-ghosts-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (store, warnings) = Store::open_in(&SaveDirs::single(&dir));
        assert!(warnings.is_empty(), "{warnings:?}");
        let path = store.ghost_file("level1").expect("saving");
        assert_eq!(path, dir.join("ghosts/level1.lab"));
        store.save_ghost("level1", "frame 10\n").expect("written");
        store.save_ghost("level1", "frame 20\n").expect("replaced");
        let race = store.save_race("race-KQXZ032-1", "players 2\n").expect("written").expect("saving");
        assert_eq!(race, dir.join("races/race-KQXZ032-1.lab"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "frame 20\n");
        assert_eq!(std::fs::read_dir(dir.join("ghosts")).unwrap().count(), 1, "no temporary file left");
        assert_eq!(ghost_file_name("/home/a b/lv.tmx"), "_home_a_b_lv_tmx.lab");
        // Without a save folder nothing is written.
        let none = Store::default();
        assert_eq!(none.ghost_file("level1"), None);
        assert!(none.save_ghost("level1", "x").is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
