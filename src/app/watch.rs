//! Hot reload's watcher (docs/levels.md "Hot reload"): a thread that watches the folders of the
//! level's files (the map, its tilesets and templates: [`crate::level::Origin::files`]) and of
//! the tuning file, loads what changed, and hands the result to the event loop.
//!
//! Clock: its own thread (file events, 50 ms retries); the event loop reads [`Change`]s with
//! [`Watcher::poll`] once a frame, and swaps between ticks. The load never runs on the tick or
//! the event loop.
//!
//! - **Folders, not files:** editors and Tiled save by writing a temporary file and renaming
//!   it over the old one, which ends a watch on the file itself (notify#531); a watch on the
//!   folder sees the rename. Tiled with "safe saving" off truncates and writes in place, which
//!   the folder watch sees too. Reading a file raises access events: they are ignored, so a
//!   load never triggers the next.
//! - **Debounced** by `notify-debouncer-full`, [`DEBOUNCE`] (200 ms: Bevy waits 300 ms, Tiled's
//!   own watcher 500 ms), so a save of several writes loads once.
//! - **Half-written files:** a load that fails is tried again every [`RETRY_EVERY`] for
//!   [`RETRY_FOR`] after the last change (a file read mid-write is empty or cut short) before
//!   it counts as broken; then one [`Change::Broken`], and the file keeps being watched
//!   (bevy#7470): while the level is broken, a change to any map, tileset or template in the
//!   watched folders tries again (the fix may be in a file the broken map names).
//! - **What counts:** a change to any file of the last good load reloads the map — a tileset
//!   or template change reloads the map that uses it (bevy#6780: files read inside a loader did
//!   not trigger a reload). A good load whose content hash is the one playing is
//!   [`Change::Same`] (nothing to swap; a banner goes).

use super::broken::{broken_level, broken_tuning};
use crate::level::{ContentHash, Level, Origin, tiled_map::load_tmx};
use crate::sim::Tuning;
use crate::ui::BrokenFile;
use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, new_debouncer};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// How long the debouncer waits after a file event before it hands it on: 200 ms (the issue's
/// ~200 ms; Bevy's asset watcher waits 300 ms, Tiled's own 500 ms).
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// How long a load that fails is tried again after the last change before the file counts as
/// broken: 500 ms (the issue's).
pub const RETRY_FOR: Duration = Duration::from_millis(500);

/// The pause between two tries of a load that failed: 50 ms, a choice (ten tries in
/// [`RETRY_FOR`], each a whole load on this thread).
pub const RETRY_EVERY: Duration = Duration::from_millis(50);

/// Which watched file a [`Change`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The level (its map, a tileset or a template).
    Level,
    /// The tuning file.
    Tuning,
}

/// What the watcher found after a change.
#[derive(Debug)]
pub enum Change {
    /// The map `map` loaded again with new content.
    Level {
        /// The map file followed when the change was seen.
        map: PathBuf,
        /// The level as it loaded.
        level: Box<Level>,
        /// When the first file event of the change happened (for the log: save to swap).
        since: Instant,
    },
    /// The tuning file loaded again with new values, and when its first file event happened.
    Tuning(Box<Tuning>, Instant),
    /// A good load of the same content as the one playing (a save with no change, or one
    /// undoing a broken save).
    Same(Which),
    /// A file failed to load for [`RETRY_FOR`].
    Broken(Which, BrokenFile),
}

/// What the watcher follows: the level playing and the tuning in force.
#[derive(Clone, Debug)]
pub struct Target {
    /// Where the level playing came from (its map first).
    pub origin: Origin,
    /// The tuning file and the tuning loaded from it.
    pub tuning: Option<(PathBuf, Tuning)>,
}

/// A message to the watcher's thread.
enum Msg {
    Follow(Box<Target>),
    Files(DebounceEventResult),
    Stop,
}

/// The watcher's thread, seen from the event loop. Dropping it stops the thread (within one
/// debouncer tick).
#[derive(Debug)]
pub struct Watcher {
    to_thread: Sender<Msg>,
    changes: Receiver<Change>,
}

impl Watcher {
    /// Start watching `target` on a new thread.
    ///
    /// # Errors
    /// The system's file watcher cannot be started (on Linux, an inotify limit reached).
    pub fn start(target: Target) -> Result<Watcher, notify::Error> {
        let (to_thread, inbox) = channel();
        let (send_change, changes) = channel();
        let events = to_thread.clone();
        let debouncer = new_debouncer(DEBOUNCE, None, move |r: DebounceEventResult| {
            let _ = events.send(Msg::Files(r));
        })?;
        let mut worker = Worker {
            debouncer,
            folders: BTreeSet::new(),
            level: Followed::default(),
            tuning: Followed::default(),
            tuning_now: None,
            out: send_change,
        };
        worker.follow(target);
        std::thread::Builder::new()
            .name("ledge hot reload".into())
            .spawn(move || worker.run(&inbox))
            .map_err(|e| notify::Error::generic(&format!("cannot start the watcher's thread: {e}")))?;
        Ok(Watcher { to_thread, changes })
    }

    /// Follow `target` from now on (another level, or the same level after a swap).
    pub fn follow(&self, target: Target) {
        let _ = self.to_thread.send(Msg::Follow(Box::new(target)));
    }

    /// The next change found, if any (never blocks).
    pub fn poll(&self) -> Option<Change> {
        self.changes.try_recv().ok()
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.to_thread.send(Msg::Stop);
    }
}

/// One followed file set (the level's, or the tuning file alone).
#[derive(Debug, Default)]
struct Followed {
    /// The file loaded (the map, the tuning file).
    main: PathBuf,
    /// Every file of the last good load, and any file a failed load named, by [`key`].
    files: BTreeSet<PathBuf>,
    /// The content hash playing (levels only).
    hash: Option<ContentHash>,
    /// The last load failed for good: any map, tileset or template in a watched folder
    /// counts as a change (levels only).
    broken: bool,
    /// A load is due at this instant (a change seen, or the next retry).
    due: Option<Instant>,
    /// Tries fail from this instant on (reset by each change).
    failing_since: Option<Instant>,
    /// When the first file event of the change being loaded happened.
    first_event: Option<Instant>,
}

impl Followed {
    /// A change to this set, whose file event happened at `at`, was seen at `now`: load at
    /// once, and a failure is retried for [`RETRY_FOR`] from here.
    fn changed(&mut self, at: Instant, now: Instant) {
        self.due = Some(now);
        self.failing_since = None;
        self.first_event = Some(self.first_event.map_or(at, |t| t.min(at)));
    }

    /// A load failed at `now`: true when it is to be tried again, false when it now counts as
    /// broken.
    fn failed(&mut self, now: Instant) -> bool {
        let since = *self.failing_since.get_or_insert(now);
        if now.duration_since(since) < RETRY_FOR {
            self.due = Some(now + RETRY_EVERY);
            true
        } else {
            (self.due, self.failing_since, self.broken, self.first_event) = (None, None, true, None);
            false
        }
    }

    /// A load succeeded: returns when the first file event of its change happened (`now` if
    /// none was seen).
    fn loaded(&mut self, now: Instant) -> Instant {
        (self.due, self.failing_since, self.broken) = (None, None, false);
        self.first_event.take().unwrap_or(now)
    }
}

/// The thread's state.
struct Worker {
    debouncer:
        notify_debouncer_full::Debouncer<notify::RecommendedWatcher, notify_debouncer_full::RecommendedCache>,
    /// The folders watched now, canonical.
    folders: BTreeSet<PathBuf>,
    level: Followed,
    tuning: Followed,
    /// The tuning in force (a load with the same values changes nothing).
    tuning_now: Option<Tuning>,
    out: Sender<Change>,
}

/// A file's path with its folder made canonical (what a folder watch reports), or the path
/// as it is when its folder does not exist.
fn key(path: &Path) -> PathBuf {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return path.to_path_buf() };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    std::fs::canonicalize(dir).map_or_else(|_| path.to_path_buf(), |d| d.join(name))
}

/// A map, tileset or template file (what a broken level may be waiting for).
fn is_tiled_file(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("tmx" | "tsx" | "tx"))
}

impl Worker {
    fn run(mut self, inbox: &Receiver<Msg>) {
        loop {
            let due = [self.level.due, self.tuning.due].into_iter().flatten().min();
            let msg = match due {
                Some(at) => inbox.recv_timeout(at.saturating_duration_since(Instant::now())),
                None => inbox.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match msg {
                Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Ok(Msg::Follow(target)) => self.follow(*target),
                Ok(Msg::Files(Ok(events))) => {
                    let now = Instant::now();
                    for e in events.iter().filter(|e| counts(&e.kind) || e.need_rescan()) {
                        for p in &e.paths {
                            self.seen(p, e.need_rescan(), e.time.min(now), now);
                        }
                    }
                }
                Ok(Msg::Files(Err(errors))) => {
                    for e in errors {
                        log::warn!("hot reload: the file watcher reports: {e}");
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            let now = Instant::now();
            if self.level.due.is_some_and(|t| t <= now) {
                self.load_level(now);
            }
            if self.tuning.due.is_some_and(|t| t <= now) {
                self.load_tuning(now);
            }
        }
    }

    /// Follow `target`: its files, the folders they are in.
    fn follow(&mut self, target: Target) {
        let files: BTreeSet<PathBuf> = target.origin.files.iter().map(|f| key(f)).collect();
        let main = target.origin.map().map(Path::to_path_buf).unwrap_or_default();
        if main != self.level.main {
            self.level = Followed::default();
        }
        self.level.main = main;
        self.level.files = files;
        self.level.hash = Some(target.origin.sha256);
        self.level.broken = false;
        match target.tuning {
            Some((path, tuning)) => {
                self.tuning.files = BTreeSet::from([key(&path)]);
                self.tuning.main = path;
                self.tuning_now = Some(tuning);
            }
            None => self.tuning = Followed::default(),
        }
        self.rewatch();
    }

    /// Watch exactly the folders of the followed files.
    fn rewatch(&mut self) {
        let want: BTreeSet<PathBuf> = self
            .level
            .files
            .iter()
            .chain(&self.tuning.files)
            .filter_map(|f| f.parent().map(Path::to_path_buf))
            .filter(|d| d.is_dir())
            .collect();
        for gone in self.folders.difference(&want).cloned().collect::<Vec<_>>() {
            let _ = self.debouncer.unwatch(&gone);
            self.folders.remove(&gone);
        }
        for dir in want {
            if !self.folders.contains(&dir) {
                match self.debouncer.watch(&dir, RecursiveMode::NonRecursive) {
                    Ok(()) => {
                        self.folders.insert(dir);
                    }
                    Err(e) => eprintln!("ledge: warning: hot reload cannot watch {}: {e}", dir.display()),
                }
            }
        }
    }

    /// A file event for `path` (`rescan`: the watcher lost events, everything may have
    /// changed) that happened at `at`, seen at `now`.
    fn seen(&mut self, path: &Path, rescan: bool, at: Instant, now: Instant) {
        let k = key(path);
        let level = &mut self.level;
        let in_folder = k.parent().is_some_and(|d| self.folders.contains(d));
        if rescan || level.files.contains(&k) || (level.broken && in_folder && is_tiled_file(&k)) {
            level.changed(at, now);
        }
        if !self.tuning.files.is_empty() && (rescan || self.tuning.files.contains(&k)) {
            self.tuning.changed(at, now);
        }
    }

    fn load_level(&mut self, now: Instant) {
        let map = self.level.main.clone();
        match load_tmx(&map) {
            Ok(level) => {
                let since = self.level.loaded(now);
                let origin = level.origin.clone();
                let same = origin.as_ref().map(|o| o.sha256) == self.level.hash;
                if let Some(o) = origin {
                    self.level.files = o.files.iter().map(|f| key(f)).collect();
                    self.level.hash = Some(o.sha256);
                    self.rewatch();
                }
                let change = if same {
                    Change::Same(Which::Level)
                } else {
                    Change::Level { map, level: Box::new(level), since }
                };
                let _ = self.out.send(change);
            }
            Err(e) if self.level.failed(now) => log::debug!("hot reload: {e} (trying again)"),
            Err(e) => {
                let (file, broken) = broken_level(&e);
                if self.level.files.insert(key(&file)) {
                    self.rewatch();
                }
                let _ = self.out.send(Change::Broken(Which::Level, broken));
            }
        }
    }

    fn load_tuning(&mut self, now: Instant) {
        match Tuning::load(&self.tuning.main) {
            Ok(t) => {
                let since = self.tuning.loaded(now);
                let change = if self.tuning_now.as_ref() == Some(&t) {
                    Change::Same(Which::Tuning)
                } else {
                    self.tuning_now = Some(t.clone());
                    Change::Tuning(Box::new(t), since)
                };
                let _ = self.out.send(change);
            }
            Err(e) if self.tuning.failed(now) => log::debug!("hot reload: {e} (trying again)"),
            Err(e) => {
                let _ = self.out.send(Change::Broken(Which::Tuning, broken_tuning(&self.tuning.main, &e)));
            }
        }
    }
}

/// A file event that may mean new content: not a read (an open, a read, a close after
/// reading), which every load of ours causes.
fn counts(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::TileKind;

    /// The next change other than [`Change::Same`] (fails after 10 s: never came).
    fn next(w: &Watcher) -> Change {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match w.poll() {
                Some(Change::Same(_)) | None => {}
                Some(c) => return c,
            }
            assert!(Instant::now() < deadline, "no change reported within 10 s");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// A map (`levels/copy.tmx`, the window tests' `feel.tmx`), its tileset (`tilesets/ledge.tsx`)
    /// and a tuning file in a fresh folder, as a level designer's checkout has them.
    fn checkout(name: &str) -> (PathBuf, String, String) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = std::env::temp_dir().join(format!("ledge-watch-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["levels", "tilesets"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let map = std::fs::read_to_string(root.join("tests/fixtures/levels/feel.tmx"))
            .unwrap()
            .replace("../../../assets/tilesets/ledge.tsx", "../tilesets/ledge.tsx");
        let atlas = root.join("assets/sprites/atlas.png");
        let tileset = std::fs::read_to_string(root.join("assets/tilesets/ledge.tsx"))
            .unwrap()
            .replace("../sprites/atlas.png", atlas.to_str().unwrap());
        std::fs::write(dir.join("levels/copy.tmx"), &map).unwrap();
        std::fs::write(dir.join("tilesets/ledge.tsx"), &tileset).unwrap();
        std::fs::write(dir.join("tuning.toml"), "gravity = 1800\n").unwrap();
        (dir, map, tileset)
    }

    /// Saves the Tiled way: a temporary file in the folder, renamed over `path`.
    fn save_renamed(path: &Path, text: &str) {
        let tmp = path.with_extension("tmp4711");
        std::fs::write(&tmp, text).unwrap();
        std::fs::rename(&tmp, path).unwrap();
    }

    #[test]
    fn saves_of_the_map_its_tileset_and_the_tuning_are_loaded_and_a_broken_one_is_reported() {
        let (dir, map_text, tileset_text) = checkout("saves");
        let map = dir.join("levels/copy.tmx");
        let level = load_tmx(&map).expect("the copy loads");
        assert_eq!(level.origin.as_ref().map(|o| o.files.len()), Some(2), "map and tileset");
        let tuning_path = dir.join("tuning.toml");
        let tuning = Tuning::load(&tuning_path).unwrap();
        let target =
            Target { origin: level.origin.clone().unwrap(), tuning: Some((tuning_path.clone(), tuning)) };
        let w = Watcher::start(target).expect("the watcher starts");
        let floor = 10 * level.width;

        // The map saved with a temporary file and a rename: a stone tile in the sky.
        save_renamed(&map, &map_text.replacen("0,0,0,0,9,9,", "9,0,0,0,9,9,", 1));
        let Change::Level { level: one, .. } = next(&w) else { panic!("not a level") };
        assert_eq!(one.kinds[8 * one.width], TileKind::Solid);

        // The tileset edited in place: the map that uses it reloads.
        std::fs::write(
            dir.join("tilesets/ledge.tsx"),
            tileset_text.replacen("value=\"solid\"", "value=\"hazard\"", 1),
        )
        .unwrap();
        let Change::Level { level: two, .. } = next(&w) else { panic!("not a level") };
        assert_eq!((level.kinds[floor], two.kinds[floor]), (TileKind::Solid, TileKind::Hazard));

        // A broken map: reported once it stayed broken, with its line; fixed, it loads.
        let line = map_text.lines().position(|l| l.contains("</layer>")).unwrap() + 1;
        save_renamed(&map, &map_text.replacen("</layer>", "</layr>", 1));
        let Change::Broken(Which::Level, b) = next(&w) else { panic!("not a broken level") };
        assert_eq!((b.file.as_str(), b.line), ("copy.tmx", Some(line as u32)), "{b:?}");
        std::fs::write(&map, &map_text).unwrap();
        assert!(matches!(next(&w), Change::Level { .. }));

        // The tuning file: new values apply; a broken one is reported with its line.
        std::fs::write(&tuning_path, "gravity = 1500\n").unwrap();
        let Change::Tuning(t, _) = next(&w) else { panic!("not a tuning") };
        assert_eq!(t.gravity, 1500.0);
        save_renamed(&tuning_path, "gravity = 1500\njump_speed = =\n");
        let Change::Broken(Which::Tuning, b) = next(&w) else { panic!("not a broken tuning") };
        assert_eq!((b.file.as_str(), b.line), ("tuning.toml", Some(2)), "{b:?}");
        drop(w);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failing_load_is_retried_for_500_ms_after_the_last_change_then_counts_as_broken() {
        let t0 = Instant::now();
        let mut f = Followed::default();
        f.changed(t0, t0);
        assert_eq!(f.due, Some(t0));
        assert!(f.failed(t0));
        assert_eq!(f.due, Some(t0 + RETRY_EVERY));
        assert!(f.failed(t0 + Duration::from_millis(450)));
        // A new change starts the 500 ms again.
        f.changed(t0 + Duration::from_millis(470), t0 + Duration::from_millis(480));
        assert!(f.failed(t0 + Duration::from_millis(900)));
        assert!(f.failed(t0 + Duration::from_millis(1350)));
        assert!(!f.failed(t0 + Duration::from_millis(1400)), "500 ms of failures since the change");
        assert!(f.broken && f.due.is_none());
        let later = t0 + Duration::from_secs(2);
        assert_eq!(f.loaded(later), later, "the broken change's events were forgotten");
        f.changed(t0 + Duration::from_millis(1), later);
        f.changed(t0 + Duration::from_millis(2), later);
        assert_eq!(f.loaded(later), t0 + Duration::from_millis(1), "the first event of the change");
        assert!(!f.broken && f.failing_since.is_none());
    }

    #[test]
    fn reads_are_no_change_and_writes_renames_and_removals_are() {
        use notify::event::{CreateKind, ModifyKind, RemoveKind, RenameMode};
        assert!(!counts(&EventKind::Access(AccessKind::Open(AccessMode::Any))));
        assert!(!counts(&EventKind::Access(AccessKind::Close(AccessMode::Read))));
        assert!(counts(&EventKind::Access(AccessKind::Close(AccessMode::Write))));
        assert!(counts(&EventKind::Modify(ModifyKind::Name(RenameMode::Both))));
        assert!(counts(&EventKind::Create(CreateKind::File)));
        assert!(counts(&EventKind::Remove(RemoveKind::File)));
    }

    #[test]
    fn a_files_key_is_its_canonical_folder_and_its_name() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let via_levels = root.join("assets/levels/../tilesets/ledge.tsx");
        assert_eq!(
            key(&via_levels),
            std::fs::canonicalize(root.join("assets/tilesets")).unwrap().join("ledge.tsx")
        );
        let missing = Path::new("/no/such/folder/x.tmx");
        assert_eq!(key(missing), missing);
        assert!(is_tiled_file(Path::new("a/b.tsx")) && !is_tiled_file(Path::new("a/b.tmx.swp")));
    }
}
