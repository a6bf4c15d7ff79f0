//! `ledge lab SCRIPT --synctest D` (LAB.md Version 4 "Rollback check"): the script's run with
//! every tick driven by ggrs's sync-test session ([`crate::net::synctest`]), which rolls back
//! D ticks and simulates them again every tick. The report is the run's own; a state that
//! re-simulates differently is a [`SyncTestFailure::Mismatch`] (exit 3).
//!
//! Clock: scripted wall clock, as every lab run ([`super::runner`]).

use super::report::Report;
use super::runner::{LabError, LabOptions, parse_script, run_driven};
use crate::net::synctest::{Mismatch, SyncTest};

/// Why a sync test did not pass.
#[derive(Debug, thiserror::Error)]
pub enum SyncTestFailure {
    /// The script is malformed, cannot be run, or cannot be sync-tested (names the line).
    #[error(transparent)]
    Script(#[from] LabError),
    /// A re-simulated tick ended on another state than its first simulation.
    #[error("{script}: {mismatch}")]
    Mismatch {
        /// The script's name.
        script: String,
        /// The tick and both hashes.
        mismatch: Mismatch,
    },
}

/// Run `text` under a sync test of depth `depth` (1..=8 ticks).
///
/// # Errors
/// [`SyncTestFailure::Script`] for anything `ledge lab` refuses, an out-of-range depth, or a
/// script that rewinds or loads a savestate (both are off in a race, and a rewound or loaded
/// tick is no rollback frame);
/// [`SyncTestFailure::Mismatch`] for the first tick that re-simulates differently.
pub fn run_synctest(text: &str, opts: &LabOptions, depth: usize) -> Result<Report, SyncTestFailure> {
    let fail = |line: usize, msg: String| LabError { script: opts.script_name.clone(), line, msg };
    let script = parse_script(text, opts)?;
    if script.rewinds() {
        return Err(
            fail(0, "--synctest: the script rewinds; rewind is off in a rollback session".into()).into()
        );
    }
    if script.loads() {
        return Err(fail(
            0,
            "--synctest: the script loads a savestate; savestates are off in a rollback session".into(),
        )
        .into());
    }
    let mut test = SyncTest::new(script.players, depth).map_err(|e| fail(0, e.to_string()))?;
    let report = run_driven(&script, opts, None, None, Some(&mut test))?;
    if let Some(mismatch) = test.mismatch() {
        return Err(SyncTestFailure::Mismatch { script: opts.script_name.clone(), mismatch });
    }
    if let Some(why) = test.failed() {
        return Err(fail(0, format!("--synctest: the rollback session failed: {why}")).into());
    }
    Ok(report)
}
