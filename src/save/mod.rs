//! Saved data that is never lost: the settings (volumes, display, key bindings) and the
//! player's progress, in the operating system's config and data folders or in one
//! `--save-dir`, written atomically, and read so that a bad file never costs more than itself.
//!
//! Clock: none of its own. [`Store::open`] runs once before the event loop starts; the app
//! calls [`Store::finish_level`] on the event loop when a level is completed (a save blocks
//! for its two `fsync`s, a few milliseconds). Pure of winit and wgpu: the input adapters turn
//! the binding names into device codes.
//!
//! | file | folder ([`SaveDirs::os`]) | module |
//! |---|---|---|
//! | `settings.toml` | config | [`settings`] |
//! | `progress.toml` | data | [`progress`] |
//! | `ghosts/LEVEL.lab` (each level's best run) | data | [`ghosts`] |
//!
//! What can go wrong, and what happens (each a [`SaveWarning`]: one line, printed by `main`):
//! - no file: a new player; defaults, no warning (a missing `settings.toml` is written with
//!   the defaults so it can be edited);
//! - a bad file (unreadable, empty, not text, not TOML, cut off, no or a future `version`, a
//!   value out of range): it is renamed to `NAME.bad-<n>` (the first free `n`), that file
//!   starts from defaults, the other file loads as usual;
//! - a bad file that cannot be renamed (read-only folder): defaults, and that file is never
//!   written this session, so nothing overwrites it;
//! - a folder that cannot be created or written: the game plays without saving;
//! - a save that fails later (disk full): that file is not saved again this session.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub mod atomic;
pub mod disk;
pub mod file;
pub mod ghosts;
pub mod progress;
pub mod settings;

pub use file::Problem;
pub use progress::{LevelRecord, Progress, level_id};
pub use settings::{Bindings, PracticeBinds, PracticeKey, PracticeKeys, Settings};

use progress::{PROGRESS_VERSION, ProgressFile};
use settings::SETTINGS_VERSION;
use std::path::{Path, PathBuf};

/// The settings file's name.
pub const SETTINGS_FILE: &str = "settings.toml";
/// The progress file's name.
pub const PROGRESS_FILE: &str = "progress.toml";

/// The folders the saved files go in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveDirs {
    /// Where `settings.toml` goes.
    pub config: PathBuf,
    /// Where `progress.toml` goes.
    pub data: PathBuf,
}

impl SaveDirs {
    /// The operating system's folders for "Ledge" (`directories::ProjectDirs`; in a browser the page's
    /// `localStorage`, see [`disk`]): on Linux
    /// `$XDG_CONFIG_HOME/ledge` (`~/.config/ledge`) and `$XDG_DATA_HOME/ledge`
    /// (`~/.local/share/ledge`); on macOS `~/Library/Application Support/Ledge` for both; on
    /// Windows `%APPDATA%\Ledge\config` and `%APPDATA%\Ledge\data`. `None` when there is no
    /// home folder.
    pub fn os() -> Option<Self> {
        if cfg!(all(target_arch = "wasm32", target_os = "unknown")) {
            // A browser: the page's localStorage, items named like the files (`disk`).
            return Some(SaveDirs::single(Path::new("")));
        }
        directories::ProjectDirs::from("", "", "Ledge")
            .map(|d| SaveDirs { config: d.config_dir().to_path_buf(), data: d.data_dir().to_path_buf() })
    }

    /// Both files in `dir` (`--save-dir DIR`).
    pub fn single(dir: &Path) -> Self {
        SaveDirs { config: dir.to_path_buf(), data: dir.to_path_buf() }
    }

    /// `settings.toml`'s path.
    pub fn settings_file(&self) -> PathBuf {
        self.config.join(SETTINGS_FILE)
    }

    /// `progress.toml`'s path.
    pub fn progress_file(&self) -> PathBuf {
        self.data.join(PROGRESS_FILE)
    }
}

/// Something about the saved data the player should know: one line each, naming the file or
/// folder and what happens now. Never fatal.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SaveWarning {
    /// A bad file, kept beside as `kept`; its defaults are used.
    #[error("{}: {problem}; kept it as {}, starting this file from defaults", path.display(), kept.display())]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: Problem,
        /// Where it is now (`NAME.bad-<n>`).
        kept: PathBuf,
    },
    /// A bad file that could not be renamed: defaults, and it is not written over.
    #[error("{}: {problem}; cannot keep it aside ({error}): using defaults and not saving this file", path.display())]
    BadFileStuck {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: Problem,
        /// Why the rename failed.
        error: String,
    },
    /// A save folder cannot be created or written: what it holds is not saved this session
    /// (with `--save-dir`, and on macOS, one folder holds both files).
    #[error("save folder {}: {error}: playing without saving {what}", dir.display())]
    FolderNotWritable {
        /// The folder.
        dir: PathBuf,
        /// The I/O error.
        error: String,
        /// What is not saved: `settings or progress`, `settings`, `progress`.
        what: &'static str,
    },
    /// No home folder, so no OS save folders.
    #[error("no home folder to save in: playing without saving (--save-dir DIR saves there)")]
    NoHome,
    /// A save failed: that file is not saved again this session.
    #[error("{}: cannot save ({error}): not saving it again this session", path.display())]
    WriteFailed {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: String,
    },
}

/// The loaded settings and progress, and where (if anywhere) each is saved. The default is
/// the defaults with no saving at all (what a program that never opened a folder gets).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Store {
    /// Where the settings were read from (or would have been): for warnings.
    settings_file: Option<PathBuf>,
    settings: Settings,
    progress: Progress,
    /// Where settings are saved; `None`: not saved (no folder, read-only, a stuck bad file).
    settings_to: Option<PathBuf>,
    /// Where progress is saved; `None` likewise.
    progress_to: Option<PathBuf>,
}

/// Load one file into `T` (via the on-disk type `F`), sorting out a bad one. Returns the
/// value, whether the file may be written this session, and the warning if any.
fn load<F: serde::de::DeserializeOwned, T: Default + From<F>>(
    path: &Path,
    version: i64,
    can_write: bool,
    validate: impl FnOnce(&F) -> Result<(), String>,
) -> (T, bool, Option<SaveWarning>) {
    match file::read_versioned(path, version, validate) {
        Ok(Some(f)) => (T::from(f), can_write, None),
        Ok(None) => (T::default(), can_write, None),
        Err(problem) => {
            let path = path.to_path_buf();
            let kept = if can_write {
                file::keep_aside(&path).map_err(|e| e.to_string())
            } else {
                Err("the folder is read-only".to_owned())
            };
            match kept {
                Ok(kept) => (T::default(), true, Some(SaveWarning::BadFile { path, problem, kept })),
                Err(error) => (T::default(), false, Some(SaveWarning::BadFileStuck { path, problem, error })),
            }
        }
    }
}

impl Store {
    /// Open the save: `dir` (`--save-dir`) for both files, else the OS folders
    /// ([`SaveDirs::os`]). Never fails: every problem is a [`SaveWarning`] (one line each, for
    /// the caller to print) and a fallback (see the module docs).
    pub fn open(dir: Option<&Path>) -> (Store, Vec<SaveWarning>) {
        match dir.map(SaveDirs::single).or_else(SaveDirs::os) {
            Some(dirs) => Store::open_in(&dirs),
            None => (Store::default(), vec![SaveWarning::NoHome]),
        }
    }

    /// Open the save in `dirs` (see [`Store::open`]).
    pub fn open_in(dirs: &SaveDirs) -> (Store, Vec<SaveWarning>) {
        let mut warnings = Vec::new();
        // (readable, writable) per folder; a folder that cannot be created holds nothing to
        // read. One warning per folder that cannot be written, saying what it holds.
        let mut folder = |dir: &Path, what: &'static str| match disk::writable(dir) {
            Ok(()) => (true, true),
            Err(error) => {
                let what = if dirs.config == dirs.data { "settings or progress" } else { what };
                let warning = SaveWarning::FolderNotWritable { dir: dir.to_path_buf(), error, what };
                if !warnings.contains(&warning) {
                    warnings.push(warning);
                }
                (disk::is_dir(dir), false)
            }
        };
        let config = folder(&dirs.config, "settings");
        let data = folder(&dirs.data, "progress");
        let mut store = Store::default();

        let path = dirs.settings_file();
        store.settings_file = Some(path.clone());
        let (readable, can_write) = config;
        let mut write_defaults = false;
        if readable {
            let (settings, ok, warning): (Settings, _, _) =
                load(&path, SETTINGS_VERSION, can_write, |s: &Settings| s.validate());
            write_defaults = ok && !disk::exists(&path);
            store.settings = settings;
            store.settings_to = ok.then(|| path.clone());
            warnings.extend(warning);
        }
        let path = dirs.progress_file();
        let (readable, can_write) = data;
        if readable {
            let (progress, ok, warning): (Progress, _, _) =
                load(&path, PROGRESS_VERSION, can_write, ProgressFile::validate);
            store.progress = progress;
            store.progress_to = ok.then(|| path.clone());
            warnings.extend(warning);
        }
        for p in store.settings_to.iter().chain(&store.progress_to) {
            disk::tidy(p);
        }
        if write_defaults {
            // So a new player finds a file to edit.
            warnings.extend(store.save_settings().err());
        }
        (store, warnings)
    }

    /// The settings file's path (`None` without a save folder).
    pub fn settings_file(&self) -> Option<&Path> {
        self.settings_file.as_deref()
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The player's progress.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// True when settings or progress are saved somewhere.
    pub fn is_saving(&self) -> bool {
        self.settings_to.is_some() || self.progress_to.is_some()
    }

    /// Change the settings and save them.
    ///
    /// # Errors
    /// [`SaveWarning::WriteFailed`]; the new settings stay in force for this session.
    pub fn set_settings(&mut self, settings: Settings) -> Result<(), SaveWarning> {
        self.settings = settings;
        self.save_settings()
    }

    /// Level `id` was completed in `ticks` fixed ticks with `deaths` deaths; `next` is the
    /// level after it, now unlocked; `segments` its segment timer's splits (where each ended,
    /// ticks), each kept when a best. An `assisted` run (game speed, invincibility, a loaded
    /// savestate) only unlocks `next`: it is never a record. Saves the progress when anything
    /// changed.
    ///
    /// # Errors
    /// [`SaveWarning::WriteFailed`]; the progress stays in memory for this session.
    pub fn finish_level(
        &mut self,
        id: &str,
        ticks: u64,
        deaths: u64,
        next: Option<&str>,
        assisted: bool,
        segments: &[(String, u64)],
    ) -> Result<(), SaveWarning> {
        let changed = if assisted {
            self.progress.unlock(next)
        } else {
            // Both, always: `|` not `||`.
            self.progress.finish(id, ticks, deaths, next) | self.progress.note_segments(id, segments)
        };
        if changed { self.save_progress() } else { Ok(()) }
    }

    /// Write `settings.toml` (atomically) if settings are saved.
    ///
    /// # Errors
    /// [`SaveWarning::WriteFailed`]; settings are not saved again this session.
    pub fn save_settings(&mut self) -> Result<(), SaveWarning> {
        let text = self.settings.to_text();
        save(&mut self.settings_to, &text)
    }

    /// Write `progress.toml` (atomically) if progress is saved.
    ///
    /// # Errors
    /// [`SaveWarning::WriteFailed`]; progress is not saved again this session.
    pub fn save_progress(&mut self) -> Result<(), SaveWarning> {
        let text = self.progress.to_text();
        save(&mut self.progress_to, &text)
    }
}

/// Write `text` to `*to` atomically; on failure stop saving there (`*to = None`).
fn save(to: &mut Option<PathBuf>, text: &str) -> Result<(), SaveWarning> {
    let Some(path) = to.as_deref() else {
        return Ok(());
    };
    disk::write(path, text.as_bytes()).map_err(|e| {
        let path = to.take().unwrap_or_default();
        SaveWarning::WriteFailed { path, error: e.to_string() }
    })
}
