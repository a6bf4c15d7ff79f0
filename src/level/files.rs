//! Where a Tiled map's files come from: the disk ([`DiskFiles`]), or memory ([`MemoryFiles`]:
//! the fuzz targets, tests, a build with no file system), behind one trait, [`LevelFiles`].
//! Every read is bounded by a byte limit checked before the bytes are kept (and, on disk,
//! before they are read: a file's size comes from its metadata, then at most `limit + 1` bytes
//! are read, in case it grew).
//!
//! Clock: none (a level loads before the first frame, or between ticks on a reload).

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

/// A source of a level's files (map, tilesets, templates, and the tileset image's existence).
pub trait LevelFiles {
    /// The whole content of `path`, at most `limit` bytes.
    ///
    /// # Errors
    ///
    /// The file cannot be read (`NotFound`, permissions, …), or holds more than `limit` bytes
    /// (`InvalidData`, "is N bytes, over the limit of L").
    fn read(&mut self, path: &Path, limit: u64) -> io::Result<Vec<u8>>;

    /// Whether `path` names a file (the tileset image check: Ledge draws from its own atlas,
    /// but a map whose tileset image is missing would not open in Tiled either).
    fn is_file(&self, path: &Path) -> bool;
}

/// Files on disk, read with `std::fs`.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiskFiles;

impl LevelFiles for DiskFiles {
    fn read(&mut self, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        crate::read_limit::read_file_at_most(path, limit)
    }

    fn is_file(&self, path: &Path) -> bool {
        crate::read_limit::is_file(path)
    }
}

/// Files held in memory, by path. Paths are compared after lexical normalisation (`.` dropped,
/// `dir/..` folded), so `levels/../tilesets/ledge.tsx` — the form `tiled` asks for, a tileset
/// path joined to its map's folder — finds a file inserted as `tilesets/ledge.tsx`.
#[derive(Clone, Debug, Default)]
pub struct MemoryFiles {
    files: HashMap<PathBuf, Vec<u8>>,
}

impl MemoryFiles {
    /// Adds (or replaces) the file at `path`.
    pub fn insert(&mut self, path: impl Into<PathBuf>, bytes: Vec<u8>) {
        self.files.insert(crate::preloaded::normalise(&path.into()), bytes);
    }
}

impl LevelFiles for MemoryFiles {
    fn read(&mut self, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        let bytes = self
            .files
            .get(&crate::preloaded::normalise(path))
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
        if bytes.len() as u64 > limit {
            return Err(crate::read_limit::too_big(Some(bytes.len() as u64), limit));
        }
        Ok(bytes.clone())
    }

    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(&crate::preloaded::normalise(path))
    }
}

/// `tiled`'s reader over a [`LevelFiles`]: every file it asks for is read within its size limit
/// ([`super::guard::file_limit`]) and checked by [`super::guard::check`] before `tiled` sees a
/// byte of it, and kept (path and bytes, in read order) for the level's
/// [`super::origin::Origin`].
pub(super) struct Reading<'a> {
    files: &'a mut dyn LevelFiles,
    read: Vec<(PathBuf, Vec<u8>)>,
    /// The file the guard refused, and why.
    refused: Option<(PathBuf, String)>,
}

impl<'a> Reading<'a> {
    pub(super) fn new(files: &'a mut dyn LevelFiles) -> Self {
        Reading { files, read: Vec::new(), refused: None }
    }

    /// One line for `e`, the error loading the map at `map_path` (without its path): the
    /// guard's refusal when there was one (prefixed with the file when it is not the map).
    pub(super) fn describe(&self, map_path: &Path, e: &tiled::Error) -> String {
        match &self.refused {
            Some((p, msg)) if p == map_path => super::tiled_map::one_line(msg),
            Some((p, msg)) => super::tiled_map::one_line(&format!("{}: {msg}", p.display())),
            None => super::tiled_map::describe_tiled_error(map_path, e),
        }
    }

    /// The source back, and what was read, in order.
    pub(super) fn finish(self) -> (&'a mut dyn LevelFiles, Vec<(PathBuf, Vec<u8>)>) {
        (self.files, self.read)
    }
}

impl tiled::ResourceReader for Reading<'_> {
    type Resource = io::Cursor<Vec<u8>>;
    type Error = io::Error;

    fn read_from(&mut self, path: &Path) -> io::Result<Self::Resource> {
        let bytes = self.files.read(path, super::guard::file_limit(path))?;
        if let Err(msg) = super::guard::check(&bytes) {
            self.refused = Some((path.to_owned(), msg.clone()));
            return Err(io::Error::new(io::ErrorKind::InvalidData, msg));
        }
        self.read.push((path.to_owned(), bytes.clone()));
        Ok(io::Cursor::new(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_files_find_a_tileset_through_its_map_folder() {
        let mut files = MemoryFiles::default();
        files.insert("assets/tilesets/ledge.tsx", b"<tileset/>".to_vec());
        let asked = Path::new("assets/levels/./../tilesets/ledge.tsx");
        assert_eq!(files.read(asked, 100).unwrap(), b"<tileset/>");
        assert!(files.is_file(asked));
        assert_eq!(files.read(Path::new("nope.tsx"), 100).unwrap_err().kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn a_file_over_its_limit_is_refused_from_memory_and_from_disk() {
        let mut files = MemoryFiles::default();
        files.insert("big.tmx", vec![b' '; 11]);
        let e = files.read(Path::new("big.tmx"), 10).unwrap_err();
        assert_eq!(e.to_string(), "is 11 bytes, over the limit of 10");
        assert_eq!(files.read(Path::new("big.tmx"), 11).unwrap().len(), 11);

        let dir = std::env::temp_dir().join(format!("ledge-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.tmx");
        std::fs::write(&path, vec![b' '; 11]).unwrap();
        assert_eq!(DiskFiles.read(&path, 10).unwrap_err().to_string(), "is 11 bytes, over the limit of 10");
        assert_eq!(DiskFiles.read(&path, 11).unwrap().len(), 11);
        assert!(DiskFiles.is_file(&path));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
