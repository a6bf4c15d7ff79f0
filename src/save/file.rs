//! Reading one saved TOML file and sorting out what is wrong with a bad one: missing (a new
//! player), unreadable, empty, not text, not TOML, no or a future `version`, or values out of
//! range; and keeping a bad file beside as `NAME.bad-<n>`.
//!
//! Clock: none (called when the save folder is opened).

use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

/// What is wrong with a saved file: the second half of its warning line.
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum Problem {
    /// It exists but could not be read (permissions, an I/O error).
    #[error("cannot be read ({0})")]
    Unreadable(String),
    /// Zero bytes, or only white space (a save cut off before its first byte).
    #[error("is empty")]
    Empty,
    /// Not UTF-8 text.
    #[error("is not text (invalid UTF-8 at byte {0})")]
    NotText(usize),
    /// Text that is not TOML (corrupt, or cut off inside a value).
    #[error("is not valid TOML (line {line}: {msg})")]
    Syntax {
        /// 1-based line of the error.
        line: usize,
        /// The parser's message, on one line.
        msg: String,
    },
    /// TOML without a whole-number `version` field at the top.
    #[error("has no `version` number")]
    NoVersion,
    /// Written by a newer Ledge, in a format this one does not read.
    #[error("has version {found}, newer than the {supported} this Ledge reads")]
    FutureVersion {
        /// The file's `version`.
        found: i64,
        /// The newest version this build reads.
        supported: i64,
    },
    /// A `version` below 1.
    #[error("has version {0}, which no Ledge wrote")]
    BadVersion(i64),
    /// Valid TOML of the right version with a missing, mistyped or out-of-range value (or,
    /// for the progress file, fewer records than it says: cut off between two).
    #[error("has a bad value ({0})")]
    Invalid(String),
}

/// The 1-based line of byte offset `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// One line from a TOML error: its message, and the line it points at when it has a span.
fn toml_message(text: &str, e: &toml::de::Error) -> (usize, String) {
    let line = e.span().map_or(1, |s| line_of(text, s.start));
    (line, e.message().split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Largest saved file Ledge reads (`settings.toml`, `progress.toml`): 1 MiB. Each is under
/// 2 KB; a larger one is corrupt, kept aside like any other.
pub const MAX_SAVE_BYTES: u64 = 1 << 20;

/// Read the saved file at `path` (at most [`MAX_SAVE_BYTES`]) as a `T` of format `version`, checked by `validate`.
///
/// Returns `Ok(None)` when there is no file (a new player: defaults, no warning).
///
/// # Errors
/// The [`Problem`] with the file; the caller warns once and keeps the file aside.
pub fn read_versioned<T: DeserializeOwned>(
    path: &Path,
    version: i64,
    validate: impl FnOnce(&T) -> Result<(), String>,
) -> Result<Option<T>, Problem> {
    match super::disk::read(path, MAX_SAVE_BYTES) {
        Ok(bytes) => parse_versioned(&bytes, version, validate).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Problem::Unreadable(e.to_string())),
    }
}

/// [`read_versioned`] for a file already read: its `bytes` (at most [`MAX_SAVE_BYTES`]) as a
/// `T` of format `version`, checked by `validate`. Pure (no file system): the fuzz targets call
/// it directly.
///
/// # Errors
/// The [`Problem`] with the bytes (more than [`MAX_SAVE_BYTES`] is
/// [`Problem::Unreadable`], as from a file).
pub fn parse_versioned<T: DeserializeOwned>(
    bytes: &[u8],
    version: i64,
    validate: impl FnOnce(&T) -> Result<(), String>,
) -> Result<T, Problem> {
    if bytes.len() as u64 > MAX_SAVE_BYTES {
        let e = crate::read_limit::too_big(Some(bytes.len() as u64), MAX_SAVE_BYTES);
        return Err(Problem::Unreadable(e.to_string()));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| Problem::NotText(e.valid_up_to()))?;
    if text.trim().is_empty() {
        return Err(Problem::Empty);
    }
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let (line, msg) = toml_message(text, &e);
        Problem::Syntax { line, msg }
    })?;
    match table.get("version") {
        Some(toml::Value::Integer(v)) if *v > version => {
            return Err(Problem::FutureVersion { found: *v, supported: version });
        }
        Some(toml::Value::Integer(v)) if *v < 1 => return Err(Problem::BadVersion(*v)),
        Some(toml::Value::Integer(_)) => {}
        _ => return Err(Problem::NoVersion),
    }
    let value: T = toml::from_str(text).map_err(|e| {
        let (line, msg) = toml_message(text, &e);
        Problem::Invalid(format!("line {line}: {msg}"))
    })?;
    validate(&value).map_err(Problem::Invalid)?;
    Ok(value)
}

/// `NAME.bad-<n>` beside `path`, for the first `n` from 1 with no such file.
pub fn bad_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    (1u32..)
        .map(|n| path.with_file_name(format!("{name}.bad-{n}")))
        .find(|p| !super::disk::taken(p))
        .expect("some n in 1..u32::MAX is free")
}

/// Keep the bad file at `path` beside as `NAME.bad-<n>` (the first free `n`), by renaming
/// it: nothing of it is lost, and the next save cannot overwrite it.
///
/// # Errors
/// The rename's I/O error (a read-only folder); the file is then left where it is.
pub fn keep_aside(path: &Path) -> std::io::Result<PathBuf> {
    let to = bad_path(path);
    super::disk::rename(path, &to)?;
    Ok(to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct V {
        version: i64,
        x: i64,
    }

    fn read(name: &str, bytes: &[u8]) -> Result<Option<V>, Problem> {
        let dir = std::env::temp_dir().join(format!("ledge-file-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.toml");
        std::fs::write(&path, bytes).unwrap();
        let r = read_versioned(&path, 2, |v: &V| if v.x >= 0 { Ok(()) } else { Err("x < 0".into()) });
        std::fs::remove_dir_all(dir).unwrap();
        r
    }

    #[test]
    fn sorts_out_each_problem() {
        assert_eq!(read("ok", b"version = 2\nx = 3\n"), Ok(Some(V { version: 2, x: 3 })));
        assert_eq!(read("empty", b""), Err(Problem::Empty));
        assert_eq!(read("blank", b" \n\n"), Err(Problem::Empty));
        assert_eq!(read("bin", b"version = 1\n\xff\xfe"), Err(Problem::NotText(12)));
        assert!(matches!(read("cut", b"version = 1\nx = [1, 2"), Err(Problem::Syntax { line: 2, .. })));
        assert_eq!(read("nov", b"x = 1\n"), Err(Problem::NoVersion));
        assert_eq!(read("strv", b"version = \"1\"\n"), Err(Problem::NoVersion));
        assert_eq!(read("future", b"version = 3\n"), Err(Problem::FutureVersion { found: 3, supported: 2 }));
        assert_eq!(read("zero", b"version = 0\nx = 1\n"), Err(Problem::BadVersion(0)));
        let missing = read("missing", b"version = 1\n").unwrap_err();
        assert!(missing.to_string().contains("missing field `x`"), "{missing}");
        assert_eq!(read("range", b"version = 1\nx = -1\n"), Err(Problem::Invalid("x < 0".into())));
        // toml-rs#206 overflowed the stack at 20,000 `[`; the parser now stops at 80 levels.
        let deep = format!("version = 1\nx = {}{}\n", "[".repeat(20_000), "]".repeat(20_000));
        assert!(matches!(read("deep", deep.as_bytes()), Err(Problem::Syntax { line: 2, .. })));
        let big = vec![b'#'; MAX_SAVE_BYTES as usize + 1];
        let e = read("big", &big).unwrap_err();
        assert_eq!(
            e,
            Problem::Unreadable(format!(
                "is {} bytes, over the limit of {MAX_SAVE_BYTES}",
                MAX_SAVE_BYTES + 1
            ))
        );
    }

    #[test]
    fn bytes_in_memory_are_read_as_from_a_file_within_the_same_limit() {
        let ok = parse_versioned(b"version = 2\nx = 3\n", 2, |_: &V| Ok(()));
        assert_eq!(ok, Ok(V { version: 2, x: 3 }));
        let big = vec![b' '; MAX_SAVE_BYTES as usize + 1];
        let e = parse_versioned(&big, 2, |_: &V| Ok(())).unwrap_err();
        assert_eq!(
            e,
            Problem::Unreadable(format!("is {} bytes, over the limit of {MAX_SAVE_BYTES}", big.len()))
        );
    }

    #[test]
    fn missing_file_is_no_problem() {
        let path = std::env::temp_dir().join("ledge-file-surely-absent/f.toml");
        assert_eq!(read_versioned(&path, 1, |_: &V| Ok(())), Ok(None));
    }

    #[test]
    fn bad_files_are_numbered_from_one() {
        let dir = std::env::temp_dir().join(format!("ledge-file-{}-bad", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.toml");
        for (n, content) in ["a", "b", "c"].iter().enumerate() {
            std::fs::write(&path, content).unwrap();
            let kept = keep_aside(&path).unwrap();
            assert_eq!(kept, dir.join(format!("s.toml.bad-{}", n + 1)));
            assert_eq!(std::fs::read_to_string(&kept).unwrap(), *content);
            assert!(!path.exists());
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
