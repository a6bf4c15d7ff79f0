//! The one way Ledge writes a saved file: atomically, so a game killed at any instant leaves
//! either the old file or the new one, never a mixture or a half.
//!
//! Clock: none (called on the event loop when something is saved; it blocks for two
//! `fsync`s, a few milliseconds on a local disk).
//!
//! The steps (the classic POSIX recipe, as in SQLite's and LMDB's documentation of `rename`):
//! 1. write the whole content to a temporary file *in the same folder* (a rename is atomic only
//!    within one file system), named `.NAME.PID.tmp` so two games never share one;
//! 2. flush it and `sync_all` (the data is on the disk before the name points at it);
//! 3. `rename` it over `NAME` (atomic on POSIX; `MoveFileExW` with replace on Windows);
//! 4. `sync_all` the folder (on Unix), so the rename itself survives a power cut.
//!
//! A game killed between 1 and 3 leaves a stray `.NAME.PID.tmp`; [`remove_stale_temps`]
//! removes those older than a minute when the save folder is opened.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A temporary file this old is a leftover of a killed game, not one being written.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// The temporary file [`write_atomic`] writes before renaming it over `path`:
/// `.NAME.PID.tmp` in the same folder.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Replace the file at `path` with `bytes` atomically (see the module docs): afterwards the
/// file holds either its old content (on an error, or a kill before the rename) or exactly
/// `bytes`, never a part.
///
/// # Errors
/// Any I/O error of the steps (folder not writable, disk full, ...); the temporary file is
/// removed on an error and `path` is left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temp_path(path);
    let written = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.flush()?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    sync_dir(path.parent().unwrap_or(Path::new(".")))
}

/// `fsync` the folder so a rename in it is on the disk (Unix). Elsewhere a no-op: Windows
/// cannot open a folder as a file, and its `MoveFileExW` rename is journalled by NTFS.
fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Remove `.NAME.*.tmp` leftovers of killed games beside `path` that are older than a minute
/// (a younger one may be another game's save in progress). Errors are ignored: a stray
/// temporary file is only clutter.
pub fn remove_stale_temps(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!(".{}.", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if !(file.starts_with(&prefix) && file.ends_with(".tmp")) {
            continue;
        }
        let age = entry.metadata().and_then(|m| m.modified()).ok().and_then(|t| now.duration_since(t).ok());
        if age.is_some_and(|a| a >= STALE_AFTER) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ledge-atomic-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn writes_new_and_replaces_old_leaving_no_temp() {
        let dir = scratch("replace");
        let path = dir.join("a.toml");
        write_atomic(&path, b"one").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one");
        write_atomic(&path, b"two, longer").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two, longer");
        assert!(!temp_path(&path).exists());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "only the file itself");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = scratch("fail");
        let path = dir.join("a.toml");
        write_atomic(&path, b"old").unwrap();
        // A folder where the temporary file should go makes File::create fail.
        fs::create_dir(temp_path(&path)).unwrap();
        assert!(write_atomic(&path, b"new").is_err());
        assert_eq!(fs::read(&path).unwrap(), b"old");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn stale_temps_go_fresh_ones_stay() {
        let dir = scratch("stale");
        let path = dir.join("a.toml");
        let old = dir.join(".a.toml.1.tmp");
        let fresh = dir.join(".a.toml.2.tmp");
        let other = dir.join(".b.toml.1.tmp");
        for p in [&old, &fresh, &other] {
            fs::write(p, b"x").unwrap();
        }
        let long_ago = SystemTime::now() - Duration::from_secs(3600);
        for p in [&old, &other] {
            File::options().write(true).open(p).unwrap().set_modified(long_ago).unwrap();
        }
        remove_stale_temps(&path);
        assert!(!old.exists());
        assert!(fresh.exists(), "younger than a minute: maybe another game's save");
        assert!(other.exists(), "another file's temporary");
        fs::remove_dir_all(dir).unwrap();
    }
}
