//! The TOML files: `tuning.toml` (read by the game and the lab before the first frame),
//! `settings.toml` and `progress.toml` (read when the save folder is opened), each through the
//! loader's own pure parse function, then what the game does with the value.
//!
//! Clock: none (a tuning file is then played on the real loop's fixed tick, [`super::play`]).

use super::{Outcome, play, refused};
use ledge::level::ascii::parse_ascii;
use ledge::save::file::parse_versioned;
use ledge::save::progress::{PROGRESS_VERSION, ProgressFile};
use ledge::save::settings::SETTINGS_VERSION;
use ledge::save::{PROGRESS_FILE, Progress, SETTINGS_FILE, Settings};
use ledge::sim::Tuning;
use std::path::Path;

/// The name a fuzzed tuning file is read under.
pub const TUNING_FILE: &str = "tuning.toml";

/// The small level a fuzzed tuning is played on: a floor with a pit, a hazard, a one-way
/// platform, a wall to slide and jump off, a checkpoint and a goal.
const PLAYGROUND: [&str; 8] = [
    "#..............#",
    "#..............#",
    "#.......---....#",
    "#..............#",
    "#.P.....C....G.#",
    "#####..###^^####",
    "#####..#########",
    "################",
];

/// `tuning.toml`, as `Tuning::load` reads it; a good one is then played ([`play`]).
///
/// # Errors
/// See [`super::replay`].
pub fn tuning(bytes: &[u8]) -> Result<Outcome, String> {
    match Tuning::from_bytes(bytes, Path::new(TUNING_FILE)) {
        Ok(t) => {
            let rows: Vec<String> = PLAYGROUND.iter().map(|r| (*r).to_owned()).collect();
            let level = parse_ascii(&rows, 1).map_err(|e| format!("the playground: {e}"))?;
            play(level, t)?;
            Ok(Outcome::Loaded)
        }
        Err(e) => refused(e.to_string(), TUNING_FILE),
    }
}

/// The warning line the game prints for a bad save file (the first half of
/// `SaveWarning::BadFile`).
fn warning(file: &str, problem: impl std::fmt::Display) -> String {
    format!("{file}: {problem}")
}

/// `settings.toml`, as `Store::open` reads it; a good one must write the same settings back
/// (`Settings::to_text`), and gives the cosmetic settings and frame cap the loop is given.
///
/// # Errors
/// See [`super::replay`]; also settings whose text reads back as something else.
pub fn settings(bytes: &[u8]) -> Result<Outcome, String> {
    let read = |b: &[u8]| parse_versioned::<Settings>(b, SETTINGS_VERSION, Settings::validate);
    match read(bytes) {
        Ok(s) => {
            let _ = (s.cosmetic(), s.fps_cap());
            let text = s.to_text();
            match read(text.as_bytes()) {
                Ok(back) if back == s => Ok(Outcome::Loaded),
                Ok(back) => Err(format!("settings read back as {back:?}, not {s:?}")),
                Err(e) => Err(format!("settings written as {text:?} read back as an error: {e}")),
            }
        }
        Err(problem) => refused(warning(SETTINGS_FILE, problem), SETTINGS_FILE),
    }
}

/// `progress.toml`, as `Store::open` reads it; a good one must write the same progress back
/// (`Progress::to_text`).
///
/// # Errors
/// See [`super::replay`]; also progress whose text reads back as something else.
pub fn progress(bytes: &[u8]) -> Result<Outcome, String> {
    let read = |b: &[u8]| {
        parse_versioned::<ProgressFile>(b, PROGRESS_VERSION, ProgressFile::validate).map(Progress::from)
    };
    match read(bytes) {
        Ok(p) => {
            let text = p.to_text();
            match read(text.as_bytes()) {
                Ok(back) if back == p => Ok(Outcome::Loaded),
                Ok(back) => Err(format!("progress read back as {back:?}, not {p:?}")),
                Err(e) => Err(format!("progress written as {text:?} read back as an error: {e}")),
            }
        }
        Err(problem) => refused(warning(PROGRESS_FILE, problem), PROGRESS_FILE),
    }
}
