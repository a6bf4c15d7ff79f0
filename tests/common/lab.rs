//! Lab runs through the library (`ledge::lab::run_script`) and the small functions the lab
//! tests share with `../shared/tools/labcheck`.
//!
//! Clock: fixed tick (the lab's scripted clock).

use ledge::game_loop::TickRecord;
use ledge::lab::report::Report;
use ledge::lab::{LabOptions, run_script};
use std::path::Path;

/// Options for a script called `name` in messages, whose relative `level` paths are tried
/// from `dir` first; `summary_only` leaves frames and ticks out of the report.
pub fn options(name: &str, dir: &Path, summary_only: bool) -> LabOptions {
    LabOptions { script_name: name.to_owned(), script_dir: dir.to_path_buf(), summary_only, force: false }
}

/// Runs `text`; fails the test with the lab's error and the script when it does not run.
pub fn run(text: &str, opts: &LabOptions) -> Report {
    run_script(text, opts).unwrap_or_else(|e| panic!("{e}\n--- script ---\n{text}"))
}

/// `ledge lab FILE --summary` on a game's `--record` file (the binary, as a player would
/// replay it): its report as JSON. Fails the test when the lab refuses the file.
pub fn replayed(rec: &Path) -> serde_json::Value {
    let out = super::ledge().arg("lab").arg(rec).arg("--summary").output().expect("run ledge lab");
    assert!(out.status.success(), "ledge lab failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("lab report is JSON")
}

/// labcheck's `rise(ticks)`: y on the tick before the first `jump_started` tick (the first
/// tick when the jump starts on tick 1) minus the smallest y from that jump on; 0 with no
/// jump. Pixels, y down, so a positive rise is upwards.
pub fn rise(ticks: &[TickRecord]) -> f64 {
    let Some(j) = ticks.iter().position(|t| t.jump_started) else {
        return 0.0;
    };
    let base = if j > 0 { ticks[j - 1].player.y } else { ticks[0].player.y };
    base - ticks[j..].iter().map(|t| t.player.y).fold(f64::INFINITY, f64::min)
}
