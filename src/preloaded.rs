//! Files fetched before the game starts, for a build with no file system (the browser,
//! wasm32-unknown-unknown): the page's `assets/` and a lab script, held in memory under their
//! paths relative to the page (`assets/levels/level1.tmx`), and read through
//! [`crate::read_limit::read_file_at_most`] exactly as files on disk are read elsewhere.
//!
//! The table is filled once ([`install`]) by the browser entry (`web/`) before anything
//! reads a file; on other targets it stays empty and unused.
//!
//! Clock: none.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The files, by [`normalise`]d path.
fn table() -> &'static Mutex<HashMap<PathBuf, Vec<u8>>> {
    static TABLE: OnceLock<Mutex<HashMap<PathBuf, Vec<u8>>>> = OnceLock::new();
    TABLE.get_or_init(Default::default)
}

/// `path` with `.` dropped and `dir/..` folded, lexically (no file system):
/// `assets/levels/../tilesets/ledge.tsx` is `assets/tilesets/ledge.tsx`, the way `tiled`
/// names a map's tileset (its path joined to the map's folder). A leading `..` stays.
pub fn normalise(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out.iter().collect()
}

/// `path` [`normalise`]d as `/`-separated text: a `localStorage` item's name
/// (`crate::save::disk`). `None` when it is not UTF-8.
pub fn key(path: &Path) -> Option<String> {
    let path = normalise(path);
    let parts: Option<Vec<&str>> = path.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

/// Add (or replace) the file at `path`.
pub fn install(path: &Path, bytes: Vec<u8>) {
    table().lock().unwrap_or_else(|p| p.into_inner()).insert(normalise(path), bytes);
}

/// The file at `path`, if one was installed.
pub fn get(path: &Path) -> Option<Vec<u8>> {
    table().lock().unwrap_or_else(|p| p.into_inner()).get(&normalise(path)).cloned()
}

/// Whether a file was installed at `path`.
pub fn contains(path: &Path) -> bool {
    table().lock().unwrap_or_else(|p| p.into_inner()).contains_key(&normalise(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised_like_tiled_joins_them() {
        assert_eq!(
            key(Path::new("assets/levels/../tilesets/ledge.tsx")).unwrap(),
            "assets/tilesets/ledge.tsx"
        );
        assert_eq!(key(Path::new("./assets/tuning.toml")).unwrap(), "assets/tuning.toml");
        assert_eq!(key(Path::new("../x")).unwrap(), "../x");
        install(Path::new("preloaded-test/a/../b.lab"), b"frame 16\n".to_vec());
        assert_eq!(get(Path::new("preloaded-test/b.lab")).unwrap(), b"frame 16\n");
        assert!(contains(Path::new("./preloaded-test/b.lab")));
        assert!(get(Path::new("preloaded-test/c.lab")).is_none());
    }
}
