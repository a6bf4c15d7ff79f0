//! Where a level loaded from files came from: the files its load read and their content hash,
//! so that a recording or ghost can name the exact level it was made on (`level PATH
//! sha256=HEX`, docs/lab.md "Recording") and hot reload knows what to watch.
//!
//! Clock: none (computed once per load).

use sha2::{Digest, Sha256};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// The SHA-256 of a level's content: every file its load read (the map, then its tilesets and
/// templates, in the order `tiled` reads them), each as its length in bytes (u64,
/// little-endian) followed by its bytes. Paths are not hashed: moving a level's folder keeps
/// its hash; editing the map or a tileset it uses changes it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContentHash(pub [u8; 32]);

impl ContentHash {
    /// The hash of `files`' contents, in order (see the type's docs for the layout).
    pub fn of<'a>(files: impl IntoIterator<Item = &'a [u8]>) -> ContentHash {
        let mut h = Sha256::new();
        for bytes in files {
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(bytes);
        }
        ContentHash(h.finalize().into())
    }
}

/// Lower-case hex, 64 digits (the form `level PATH sha256=HEX` writes).
impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sha256={self}")
    }
}

/// Why a `sha256=` value is not a hash.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("sha256 must be 64 hex digits, got '{0}'")]
pub struct BadHash(pub String);

/// Parses 64 hex digits (either case).
impl FromStr for ContentHash {
    type Err = BadHash;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadHash(s.chars().take(80).collect());
        if s.len() != 64 || !s.is_ascii() {
            return Err(bad());
        }
        let mut out = [0u8; 32];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(ContentHash(out))
    }
}

/// The files a level was loaded from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Every file the load read: the map first, then its tilesets and templates in the order
    /// `tiled` read them (paths as `tiled` resolved them, relative to the map's folder).
    pub files: Vec<PathBuf>,
    /// The hash of their contents.
    pub sha256: ContentHash,
}

impl Origin {
    /// The map file (the first file read; `None` only for an `Origin` built by hand with no
    /// files).
    pub fn map(&self) -> Option<&std::path::Path> {
        self.files.first().map(PathBuf::as_path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_prints_and_parses_as_64_hex_digits() {
        let h = ContentHash::of([&b"abc"[..]]);
        let text = h.to_string();
        assert_eq!(text.len(), 64);
        assert_eq!(text.parse::<ContentHash>(), Ok(h));
        assert_eq!(text.to_uppercase().parse::<ContentHash>(), Ok(h));
        assert!("abc".parse::<ContentHash>().is_err());
        assert!(format!("{}zz", &text[..62]).parse::<ContentHash>().is_err());
        assert!("é".repeat(32).parse::<ContentHash>().is_err());
    }

    #[test]
    fn the_hash_frames_each_file_so_moving_bytes_between_files_changes_it() {
        let a = ContentHash::of([&b"ab"[..], &b"c"[..]]);
        let b = ContentHash::of([&b"a"[..], &b"bc"[..]]);
        assert_ne!(a, b);
        assert_eq!(a, ContentHash::of([&b"ab"[..], &b"c"[..]]));
    }
}
