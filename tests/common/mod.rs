//! Helpers shared by the integration tests. Each `tests/*.rs` file is its own crate and pulls
//! this folder in with `mod common;`, so a helper written once here replaces the copies the
//! test files used to carry:
//!
//! - [`root`], [`GAME`] and [`ledge`]: the project folder and the built `ledge` binary;
//! - [`scratch`]: temporary folders, removed on drop;
//! - [`lab`]: running lab scripts through the library, labcheck's `rise`, exact milliseconds;
//! - [`levels`]: the shipped levels and a generated flat level;
//! - [`images`]: PNG reading and writing (the library's own reader and writer);
//! - [`gpu`]: the off-screen renderer, failing (never skipping) without an adapter;
//! - [`golden`]: golden-image comparison and a lab frame drawn off-screen;
//! - the windowed harness: [`proc`] (child processes killed on drop), [`xvfb`] (a private X
//!   server, the game in it, xdotool, screenshots), [`xwd`] (fast raw screenshots for a
//!   series) and [`exit`] (the game's exit checks).
//!
//! Clock: none, except the windowed harness, which runs on wall time (real processes, real
//! sleeps).

// Every test crate compiles this whole folder but uses only its own part of it (no crate both
// drives a window and renders off-screen), so each one leaves some of it unused.
#![expect(dead_code, reason = "each test crate uses its own part of the shared helpers")]

pub mod exit;
#[cfg(feature = "game")]
pub mod golden;
#[cfg(feature = "game")]
pub mod gpu;
pub mod images;
pub mod lab;
pub mod levels;
pub mod proc;
pub mod scratch;
pub mod xvfb;
pub mod xwd;

use std::path::Path;
use std::process::Command;

/// The `ledge` binary cargo built for these tests.
pub const GAME: &str = env!("CARGO_BIN_EXE_ledge");

/// The project folder (where `Cargo.toml`, `assets/` and `tests/` are).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `ledge` run from the project folder, with its OS config and data folders (where the game
/// keeps `settings.toml` and `progress.toml` without `--save-dir`) under cargo's test scratch
/// folder, so no test reads or writes the real user's saved data; silent (`LEDGE_AUDIO=off`,
/// docs/playing.md "Sound"): only the sound tests open an audio device.
pub fn ledge() -> Command {
    let mut c = Command::new(GAME);
    let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join("xdg-home");
    c.current_dir(root()).env("XDG_CONFIG_HOME", home.join("config")).env("XDG_DATA_HOME", home.join("data"));
    c.env("LEDGE_AUDIO", "off");
    c
}

/// The value of `key=` in the line of `out` starting with `prefix` (a peer's exit lines:
/// `ledge: … state_hash=…`, `net: … player=…`).
pub fn field<'a>(out: &'a str, prefix: &str, key: &str) -> Option<&'a str> {
    let line = out.lines().find(|l| l.starts_with(prefix))?;
    line.split_whitespace().find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}
