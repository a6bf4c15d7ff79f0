//! Scratch folders for a test's files.
//!
//! Clock: none.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// A fresh, empty folder under the system's temporary folder (removed on drop), unique to
/// this process and call, with a private `XDG_RUNTIME_DIR` inside for the processes a test
/// starts.
#[derive(Debug)]
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// Creates `ledge-test-PID-N-NAME` in the temporary folder.
    pub fn new(name: &str) -> Scratch {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("ledge-test-{}-{n}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("xdg")).expect("create scratch dir");
        fs::set_permissions(dir.join("xdg"), fs::Permissions::from_mode(0o700))
            .expect("chmod 700 XDG_RUNTIME_DIR");
        Scratch { dir }
    }

    /// The folder itself.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A file (or folder) named `name` in the scratch folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The private `XDG_RUNTIME_DIR` (mode 700).
    pub fn xdg(&self) -> PathBuf {
        self.dir.join("xdg")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}
