//! Where saved files live: the file system, or in a browser (wasm32-unknown-unknown, no file
//! system) the page's `localStorage`, one item per file under the file's path (`settings.toml`,
//! `progress.toml`, `ghosts/level1.lab`, `progress.toml.bad-1`). The save's rules (a bad file
//! kept aside as `NAME.bad-N`, only that file falling back to defaults, a store that cannot be
//! written playing on without saving) are [`super`]'s and the same on both.
//!
//! Clock: none (called when the save is opened and when something is saved).

use std::io;
use std::path::Path;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod imp {
    use super::*;

    pub fn read(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        crate::read_limit::read_file_at_most(path, limit)
    }

    pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        super::super::atomic::write_atomic(path, bytes)
    }

    pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }

    pub fn exists(path: &Path) -> bool {
        path.exists()
    }

    pub fn taken(path: &Path) -> bool {
        std::fs::symlink_metadata(path).is_ok()
    }

    pub fn writable(dir: &Path) -> Result<(), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot be created ({e})"))?;
        let probe = dir.join(format!(".ledge-probe.{}", std::process::id()));
        std::fs::File::create(&probe).map_err(|e| format!("cannot be written ({e})"))?;
        let _ = std::fs::remove_file(&probe);
        Ok(())
    }

    pub fn is_dir(dir: &Path) -> bool {
        dir.is_dir()
    }

    pub fn tidy(path: &Path) {
        super::super::atomic::remove_stale_temps(path);
    }
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod imp {
    use super::*;

    fn storage() -> io::Result<web_sys::Storage> {
        web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .ok_or_else(|| io::Error::new(io::ErrorKind::PermissionDenied, "localStorage is not available"))
    }

    fn key(path: &Path) -> io::Result<String> {
        crate::preloaded::key(path)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a saved file's name"))
    }

    fn js(e: wasm_bindgen::JsValue) -> io::Error {
        let what = js_sys::Error::from(e).message().as_string().unwrap_or_else(|| "refused".to_owned());
        io::Error::other(format!("localStorage: {what}"))
    }

    pub fn read(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        let text = storage()?.get_item(&key(path)?).map_err(js)?;
        let text = text.ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "not found"))?;
        if text.len() as u64 > limit {
            return Err(crate::read_limit::too_big(Some(text.len() as u64), limit));
        }
        Ok(text.into_bytes())
    }

    pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
        let text = std::str::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        // One `setItem` replaces the item whole or not at all (a full storage throws).
        storage()?.set_item(&key(path)?, text).map_err(js)
    }

    pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
        let s = storage()?;
        let value = s.get_item(&key(from)?).map_err(js)?;
        let value = value.ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "not found"))?;
        s.set_item(&key(to)?, &value).map_err(js)?;
        s.remove_item(&key(from)?).map_err(js)
    }

    pub fn exists(path: &Path) -> bool {
        matches!((storage(), key(path)), (Ok(s), Ok(k)) if s.get_item(&k).ok().flatten().is_some())
    }

    pub fn taken(path: &Path) -> bool {
        exists(path)
    }

    pub fn writable(_dir: &Path) -> Result<(), String> {
        let s = storage().map_err(|e| e.to_string())?;
        s.set_item(".ledge-probe", "").map_err(|e| js(e).to_string())?;
        let _ = s.remove_item(".ledge-probe");
        Ok(())
    }

    pub fn is_dir(_dir: &Path) -> bool {
        storage().is_ok()
    }

    pub fn tidy(_path: &Path) {}
}

/// The saved file at `path`, at most `limit` bytes.
///
/// # Errors
/// `NotFound` when there is none; a read error; over `limit` ([`crate::read_limit::too_big`]).
pub fn read(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    imp::read(path, limit)
}

/// Save `bytes` as the file at `path`, whole or not at all (on disk: its folder made, then
/// [`super::atomic::write_atomic`]; in a browser one `setItem`, which only text can be).
///
/// # Errors
/// The folder cannot be made, the write fails (disk or storage full).
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    imp::write(path, bytes)
}

/// Move the saved file `from` to `to` (keeping a bad file aside).
///
/// # Errors
/// `from` does not exist or cannot be moved.
pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
    imp::rename(from, to)
}

/// Whether a saved file is at `path`.
pub fn exists(path: &Path) -> bool {
    imp::exists(path)
}

/// Whether anything at all is at `path`, a dangling link included (so a name kept aside is
/// never one already used).
pub fn taken(path: &Path) -> bool {
    imp::taken(path)
}

/// Make the folder `dir` and check that a file can be created in it (in a browser: that
/// `localStorage` takes an item).
///
/// # Errors
/// One phrase saying why not: "cannot be created (...)", "cannot be written (...)".
pub fn writable(dir: &Path) -> Result<(), String> {
    imp::writable(dir)
}

/// Whether the folder `dir` exists (in a browser: whether there is a `localStorage`).
pub fn is_dir(dir: &Path) -> bool {
    imp::is_dir(dir)
}

/// Remove what an interrupted save left beside `path` ([`super::atomic::remove_stale_temps`];
/// nothing in a browser).
pub fn tidy(path: &Path) {
    imp::tidy(path)
}
