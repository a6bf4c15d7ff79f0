//! The timing lab (`ledge lab SCRIPT`): the real [`Loop`](crate::game_loop::Loop) on a scripted
//! clock, reported as JSON. The script and report are a public contract: LAB.md.
//!
//! Clock: a scripted wall clock in integer nanoseconds replaces `Instant`; everything else —
//! latch, stepper, simulation, interpolation, camera — is the game's own code.

pub mod changed;
pub(crate) mod cursor;
pub mod ghost;
pub mod link;
pub mod netlab;
pub mod netlab_cli;
pub mod playback;
pub mod race_record;
pub mod record;
pub mod recut;
pub mod replay_cli;
pub mod report;
pub mod runner;
pub mod script;
pub mod shots;
pub mod synctest;
pub mod tick_script;
pub mod writer;

pub use runner::{LabError, LabOptions, run_script, run_script_observed};
pub use shots::{FrameObserver, ObserverError, ShotError};

use std::io::Write;
use std::path::Path;

/// Why `ledge lab` failed; one line (printed after `ledge: `, exit status 2 in `main`).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The script is malformed or fails while it runs (names the script and the line).
    #[error(transparent)]
    Script(#[from] LabError),
    /// A `--shot` argument is malformed, or a shot cannot be drawn or written.
    #[error(transparent)]
    Shot(#[from] ShotError),
    /// `--shot` in a build without a renderer.
    #[error(
        "--shot: this ledge was built without the `game` feature (no renderer); rebuild with default features"
    )]
    NoRenderer,
    /// A `--shot` frame the script never reached.
    #[error("{script}: --shot {frame}: the script has only {frames} frames")]
    ShotMissed {
        /// The script's name.
        script: String,
        /// The first frame asked for and not reached.
        frame: u64,
        /// Frames the script ran.
        frames: u64,
    },
    /// A file (the script, `<stdin>`, the report) cannot be read or written.
    #[error("{path}: {error}")]
    File {
        /// The file, as named on the command line.
        path: String,
        /// The operating system's error (in the message, said once).
        error: std::io::Error,
    },
    /// The working directory or standard output failed.
    #[error("{0}")]
    Io(std::io::Error),
    /// `--synctest`: a re-simulated tick differed (exit 3; LAB.md Version 4).
    #[error(transparent)]
    SyncTest(synctest::SyncTestFailure),
    /// `--synctest` with `--recut` or `--shot`.
    #[error("--synctest runs the script as written: not with --recut or --shot")]
    SyncTestWith,
}

/// How `ledge lab` runs the script: as written, re-cut (`--recut`), or under the rollback
/// check (`--synctest D`); the two flags exclude each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RunMode {
    /// As written.
    Plain,
    /// `--recut R`.
    Recut(recut::Recut),
    /// `--synctest D`.
    SyncTest(usize),
}

impl CliError {
    /// The exit status LAB.md gives this failure: 3 for a sync-test mismatch, 2 for the rest.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::SyncTest(synctest::SyncTestFailure::Mismatch { .. }) => 3,
            _ => 2,
        }
    }
}

/// Entry point for `ledge lab SCRIPT [--json OUT] [--summary] [--shot FRAME=PATH.png]...
/// [--recut R] [--force]`: read the script (at most [`script::MAX_SCRIPT_BYTES`]) (`-` for standard input), run it (re-cut by `recut` when
/// given, [`recut::run_recut`]), draw the asked-for frames through `observer`
/// (`None` in a build without a renderer), write the report (atomically when OUT is a file).
///
/// # Errors
/// [`CliError`], one line naming the script, the line and the problem.
pub fn run_cli(
    script: &str,
    json: Option<&Path>,
    summary_only: bool,
    force: bool,
    shots: &[String],
    mode: RunMode,
    observer: Option<&mut dyn shots::FrameObserver>,
) -> Result<(), CliError> {
    if !shots.is_empty() && observer.is_none() {
        return Err(CliError::NoRenderer);
    }
    if matches!(mode, RunMode::SyncTest(_)) && !shots.is_empty() {
        return Err(CliError::SyncTestWith);
    }
    let mut wanted = std::collections::BTreeMap::new();
    for s in shots {
        let (frame, path) = shots::parse_shot(s)?;
        wanted.insert(frame, path);
    }
    let mut shooter = shots::Shooter::new(wanted, observer);
    let (text, name, dir) = if script == "-" {
        let bytes = crate::read_limit::read_at_most(std::io::stdin(), script::MAX_SCRIPT_BYTES)
            .map_err(file_error("<stdin>"))?;
        let s = String::from_utf8(bytes).map_err(|_| {
            file_error("<stdin>")(std::io::Error::new(std::io::ErrorKind::InvalidData, "is not UTF-8 text"))
        })?;
        (s, "<stdin>".to_string(), std::env::current_dir().map_err(CliError::Io)?)
    } else {
        let p = Path::new(script);
        let s =
            crate::read_limit::read_text_at_most(p, script::MAX_SCRIPT_BYTES).map_err(file_error(script))?;
        let dir = p.parent().map(Path::to_path_buf).unwrap_or_default();
        (s, script.to_string(), dir)
    };
    let opts = LabOptions { script_name: name, script_dir: dir, summary_only, force };
    let mut observe = |f, lp: &_| Ok(shooter.observe(f, lp)?);
    let report = match mode {
        RunMode::SyncTest(depth) => {
            synctest::run_synctest(&text, &opts, depth).map_err(CliError::SyncTest)?
        }
        RunMode::Recut(r) => recut::run_recut(&text, &opts, r, &mut observe)?,
        // Nothing to draw: the run need not keep the drawn state (`Loop::set_presenting`).
        RunMode::Plain if shots.is_empty() => run_script(&text, &opts)?,
        RunMode::Plain => run_script_observed(&text, &opts, &mut observe)?,
    };
    if let Some(&frame) = shooter.missed().first() {
        return Err(CliError::ShotMissed {
            script: opts.script_name,
            frame,
            frames: report.summary.totals.frames,
        });
    }
    let out = report.to_json();
    match json {
        Some(path) => {
            let tmp = path.with_extension("json.partial");
            std::fs::write(&tmp, out.as_bytes()).map_err(file_error(tmp.display()))?;
            std::fs::rename(&tmp, path).map_err(file_error(path.display()))?;
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(out.as_bytes()).map_err(CliError::Io)?;
            stdout.write_all(b"\n").map_err(CliError::Io)?;
        }
    }
    Ok(())
}

/// [`CliError::File`] for `path`.
fn file_error(path: impl std::fmt::Display) -> impl FnOnce(std::io::Error) -> CliError {
    let path = path.to_string();
    move |error| CliError::File { path, error }
}
