//! A load error turned into what hot reload's banner shows ([`BrokenFile`]): which file is at
//! fault (the map, or the tileset or template it names), the line, and the message.
//!
//! Clock: none (pure; called on the watcher's thread).
//!
//! The loaders' messages are one line with the line number in them: the level loader says
//! `PATH: line N: …` for the map, `PATH: TILESET: line N: …` for a file the map uses
//! ([`crate::level::guard`]), and rule messages without a line; the tuning loader says
//! `line N: WHAT` ([`crate::sim::Tuning::load`]).

use crate::level::LevelError;
use crate::sim::TuningError;
use crate::ui::BrokenFile;
use std::path::{Path, PathBuf};

/// The file at fault in `e`, and the banner's entry for it.
pub fn broken_level(e: &LevelError) -> (PathBuf, BrokenFile) {
    let (map, msg) = match e {
        LevelError::Load { path, msg } | LevelError::Invalid { path, msg } => (path.clone(), msg.clone()),
        LevelError::Ascii { line, msg } => {
            return (
                PathBuf::new(),
                BrokenFile { file: "inline map".into(), line: Some(*line as u32), message: msg.clone() },
            );
        }
    };
    // `line N: rest`: the map's own line.
    if let Some((line, rest)) = line_prefix(&msg) {
        return (map.clone(), BrokenFile { file: shown(&map), line: Some(line), message: rest.to_owned() });
    }
    // `OTHER.tsx: line N: rest` or `OTHER.tsx: rest`: a file the map uses.
    if let Some((other, rest)) = msg.split_once(": ") {
        let other = Path::new(other);
        if matches!(other.extension().and_then(|x| x.to_str()), Some("tmx" | "tsx" | "tx")) {
            let file = shown(other);
            let (line, message) = line_prefix(rest).map_or((None, rest), |(l, r)| (Some(l), r));
            return (other.to_path_buf(), BrokenFile { file, line, message: message.to_owned() });
        }
    }
    (map.clone(), BrokenFile { file: shown(&map), line: None, message: msg })
}

/// The banner's entry for the tuning file at `path` that failed with `e`.
pub fn broken_tuning(path: &Path, e: &TuningError) -> BrokenFile {
    let file = shown(path);
    match e {
        TuningError::Parse { msg, .. } => match line_prefix(msg) {
            Some((line, what)) => BrokenFile { file, line: Some(line), message: what.to_owned() },
            None => BrokenFile { file, line: None, message: msg.clone() },
        },
        TuningError::Read { msg, .. } => BrokenFile { file, line: None, message: msg.clone() },
        TuningError::Range { reason, .. } => BrokenFile { file, line: None, message: reason.to_string() },
    }
}

/// A file as the banner names it: its name alone.
fn shown(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// `line N: rest` → (N, rest).
fn line_prefix(msg: &str) -> Option<(u32, &str)> {
    let rest = msg.strip_prefix("line ")?;
    let (n, rest) = rest.split_once(": ")?;
    Some((n.parse().ok()?, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_map_names_itself_and_its_line() {
        let e = LevelError::Load {
            path: "/tmp/x/level3.tmx".into(),
            msg: "line 14: not well-formed XML: bad".into(),
        };
        let (file, b) = broken_level(&e);
        assert_eq!(file, Path::new("/tmp/x/level3.tmx"));
        assert_eq!(b.text(), "level3.tmx:14: not well-formed XML: bad");
    }

    #[test]
    fn a_broken_tileset_under_a_map_is_named_with_its_line() {
        let msg = "/tmp/x/../tilesets/ledge.tsx: line 5: not well-formed XML: bad";
        let e = LevelError::Load { path: "/tmp/x/level3.tmx".into(), msg: msg.into() };
        let (file, b) = broken_level(&e);
        assert_eq!(file, Path::new("/tmp/x/../tilesets/ledge.tsx"));
        assert_eq!(b.text(), "ledge.tsx:5: not well-formed XML: bad");
        let e = LevelError::Invalid {
            path: "/tmp/x/level3.tmx".into(),
            msg: "no spawn object in layer 'objects'".into(),
        };
        assert_eq!(broken_level(&e).1.text(), "level3.tmx: no spawn object in layer 'objects'");
    }

    #[test]
    fn a_broken_tuning_file_names_its_line() {
        let path = Path::new("/tmp/x/tuning.toml");
        let e = crate::sim::Tuning::from_bytes(b"gravity = 1\njump_speed = =\n", path).unwrap_err();
        let b = broken_tuning(path, &e);
        assert_eq!((b.file.as_str(), b.line), ("tuning.toml", Some(2)), "{b:?}");
        assert!(!b.message.starts_with("line "), "{b:?}");
    }
}
