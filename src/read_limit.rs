//! Reading a file or stream whole, but never more than a stated number of bytes: every file
//! Ledge is handed (a level, a script, a recording, a ghost, a save, a tuning file) goes through
//! here, so a huge or endless input (`/dev/zero`, a 10 GB file named `.lab`) is refused with
//! one line instead of filling memory. docs/levels.md "Limits" lists each limit.
//!
//! Clock: none.

use std::io::{self, Read};
use std::path::Path;

/// The error for input over `limit` bytes: "is over the limit of L bytes" (with the size when
/// it is known).
pub fn too_big(len: Option<u64>, limit: u64) -> io::Error {
    let msg = match len {
        Some(len) => format!("is {len} bytes, over the limit of {limit}"),
        None => format!("is over the limit of {limit} bytes"),
    };
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

/// `e` without the OS's error number for the common cases ("not found", "permission
/// denied"): the number differs between targets (ENOENT is 2 on Linux, 44 under WASI), and a
/// refused file must read the same everywhere.
fn in_words(e: io::Error) -> io::Error {
    match e.kind() {
        io::ErrorKind::NotFound => io::Error::new(e.kind(), "not found"),
        io::ErrorKind::PermissionDenied => io::Error::new(e.kind(), "permission denied"),
        _ => e,
    }
}

/// All of `r`, at most `limit` bytes (one more is read to tell).
///
/// # Errors
///
/// `r`'s own error, or [`too_big`] past `limit`.
pub fn read_at_most(r: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    r.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_big(None, limit));
    }
    Ok(bytes)
}

/// The file at `path`, at most `limit` bytes: refused from its size before reading when the
/// size is known (a regular file), else while reading (a pipe, `/dev/zero`).
///
/// # Errors
///
/// Opening or reading fails (`NotFound`, …), or [`too_big`].
pub fn read_file_at_most(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    // The browser has no file system: the page's files were fetched before the game started
    // (`crate::preloaded`).
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        let bytes = crate::preloaded::get(path).ok_or_else(|| in_words(io::ErrorKind::NotFound.into()))?;
        if bytes.len() as u64 > limit {
            return Err(too_big(Some(bytes.len() as u64), limit));
        }
        Ok(bytes)
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        let file = std::fs::File::open(path).map_err(in_words)?;
        let meta = file.metadata()?;
        if meta.is_file() && meta.len() > limit {
            return Err(too_big(Some(meta.len()), limit));
        }
        read_at_most(file, limit)
    }
}

/// Whether a file is at `path` for [`read_file_at_most`] to read (in a browser: whether the
/// page fetched one, `crate::preloaded`).
pub fn is_file(path: &Path) -> bool {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    return crate::preloaded::contains(path);
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    path.is_file()
}

/// As [`read_file_at_most`], as UTF-8 text.
///
/// # Errors
///
/// As [`read_file_at_most`], or `InvalidData` "stream did not contain valid UTF-8".
pub fn read_text_at_most(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_file_at_most(path, limit)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("is not UTF-8 text ({e})")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_or_file_over_the_limit_is_refused() {
        assert_eq!(read_at_most(&b"abcd"[..], 4).unwrap(), b"abcd");
        let e = read_at_most(io::repeat(0), 1 << 20).unwrap_err();
        assert_eq!(e.to_string(), "is over the limit of 1048576 bytes");
        let dir = std::env::temp_dir().join(format!("ledge-read-limit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.lab");
        std::fs::write(&path, "frame 16\n").unwrap();
        assert_eq!(read_text_at_most(&path, 9).unwrap(), "frame 16\n");
        assert_eq!(read_text_at_most(&path, 8).unwrap_err().to_string(), "is 9 bytes, over the limit of 8");
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(read_text_at_most(&path, 8).unwrap_err().to_string().starts_with("is not UTF-8 text"));
        std::fs::remove_dir_all(&dir).unwrap();
        #[cfg(unix)]
        assert_eq!(
            read_file_at_most(Path::new("/dev/zero"), 1000).unwrap_err().to_string(),
            "is over the limit of 1000 bytes"
        );
    }
}
