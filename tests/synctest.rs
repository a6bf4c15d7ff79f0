//! `ledge lab --synctest D` (LAB.md Version 4 "Rollback check"): every shipped level script,
//! every lab case in `tests/cases` (the copies of the shared cases and Ledge's own) and the
//! Version 4 race cases run with every tick rolled back 7 ticks by ggrs's sync-test session
//! and simulated again; each gives exactly the report it gives without the sync test, frames
//! and ticks included. Scripts that rewind are refused (rewind is off in a rollback session).
//!
//! Clock: fixed tick (the lab's scripted clock).

mod common;

use ledge::lab::run_script;
use ledge::lab::synctest::{SyncTestFailure, run_synctest};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.lab` under `dir`, recursively, sorted.
fn scripts(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(scripts(&path));
        } else if path.extension().is_some_and(|e| e == "lab") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Runs `path` plainly and under `--synctest depth`; both reports must be the same JSON.
/// Returns false when the plain run is refused (a case that checks a refusal) or the script
/// rewinds (refused by the sync test, checked).
fn same_report(path: &Path, depth: usize) -> bool {
    let text = std::fs::read_to_string(path).expect("readable script");
    let dir = path.parent().expect("a folder");
    let opts = common::lab::options(&path.display().to_string(), dir, false);
    let Ok(plain) = run_script(&text, &opts) else { return false };
    match run_synctest(&text, &opts, depth) {
        Ok(tested) => {
            assert_eq!(
                tested.to_json(),
                plain.to_json(),
                "{}: the sync test changed the report",
                path.display()
            );
            true
        }
        Err(SyncTestFailure::Script(e))
            if e.msg.contains("rewinds") || e.msg.contains("loads a savestate") =>
        {
            false
        }
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

#[test]
fn every_level_script_and_case_passes_at_depth_7_with_the_same_report() {
    let mut all = scripts(&root().join("tests/levels"));
    all.extend(scripts(&root().join("tests/cases")));
    assert!(all.len() >= 50, "found only {} scripts", all.len());
    let passed = all.iter().filter(|p| same_report(p, 7)).count();
    // Every script but the few that rewind or check a refusal.
    assert!(passed * 10 >= all.len() * 8, "only {passed} of {} scripts were sync-tested", all.len());
}

#[test]
fn a_race_passes_at_every_depth() {
    let two = root().join("tests/cases/v4/v4-players-two.lab");
    for depth in 1..=8 {
        assert!(same_report(&two, depth), "depth {depth}");
    }
}

#[test]
fn a_script_that_rewinds_is_refused_with_one_line() {
    let path = root().join("tests/cases/time/rewind-2s-1s.lab");
    let text = std::fs::read_to_string(&path).expect("readable");
    let opts = common::lab::options("rewind-2s-1s.lab", path.parent().expect("folder"), true);
    let e = run_synctest(&text, &opts, 7).expect_err("refused");
    assert!(e.to_string().contains("--synctest: the script rewinds"), "{e}");
    assert!(!e.to_string().contains('\n'));
}
