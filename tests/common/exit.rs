//! How a windowed game run ended: exit status, panic, summary line and `--stats` file.
//!
//! Clock: wall time (waits for the game process).

use super::proc::Proc;
use std::fs;
use std::path::Path;
use std::time::Duration;

/// The game's one-line exit summary (`ledge: frames=...`) in its stdout, if any.
pub fn summary_line(stdout: &str) -> Option<&str> {
    stdout.lines().find(|l| l.starts_with("ledge: frames="))
}

/// Waits up to 40 s for a game started with `--exit-after` to exit by itself, and fails the
/// test unless it exited with status 0, without a panic, after printing its summary line.
/// Returns its stdout and a context string (stdout, stderr) for assertion messages.
pub fn exit_ok(mut game: Proc) -> (String, String) {
    let status = game.wait_for(Duration::from_secs(40));
    let (_, stdout, stderr) = game.finish();
    let ctx = format!("\nstdout: {stdout}\nstderr: {stderr}");
    let status = status.unwrap_or_else(|| panic!("the game did not exit by itself; killed{ctx}"));
    assert!(status.success(), "exit status {status}{ctx}");
    assert!(!stderr.contains("panicked"), "a panic{ctx}");
    assert!(summary_line(&stdout).is_some(), "no 'ledge: frames=' summary line{ctx}");
    (stdout, ctx)
}

/// Waits for a game started with `--exit-after` to exit by itself with status 0 ([`exit_ok`]),
/// then reads its `--stats` file. Returns the stats and a context string (stats, stdout,
/// stderr) for assertion messages.
pub fn exit_stats(game: Proc, stats: &Path) -> (serde_json::Value, String) {
    let (_, ctx) = exit_ok(game);
    let text = fs::read_to_string(stats).unwrap_or_else(|e| panic!("no stats file: {e}{ctx}"));
    let s: serde_json::Value = serde_json::from_str(&text).expect("stats file is JSON");
    (s, format!("\nstats: {text}{ctx}"))
}

/// A number from the stats JSON (fails the test when missing).
pub fn stat(s: &serde_json::Value, key: &str) -> f64 {
    s[key].as_f64().unwrap_or_else(|| panic!("stats field {key} missing or not a number: {s}"))
}
