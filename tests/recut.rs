//! `ledge lab SCRIPT --recut R` (LAB.md "Time tools"): every shipped level script and every lab
//! case in `tests/cases/` re-cut into 30, 60, 144 and 240 Hz frames and jittery frames ends on
//! the `state_hash` of the script as written, whenever neither run clamps, caps or pauses
//! (LAB.md's promise holds only then); so do the time-tool cases (`tests/cases/time`: game
//! speed, rewind); and the command line takes `--recut` and echoes it. (A live recording with
//! rewinds is re-cut in `tests/rewind.rs`.)
//!
//! Clock: the lab's scripted wall clock (in-process through `ledge::lab::recut::run_recut`; the
//! binary once for the flag).

mod common;

use common::root;
use ledge::lab::recut::{Recut, run_recut};
use ledge::lab::report::Report;
use std::path::{Path, PathBuf};

const CUTS: [&str; 5] = ["30", "60", "144", "240", "jitter:20261201"];

/// Every `.lab` directly in `dir`, sorted.
fn scripts(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "lab"))
        .collect();
    v.sort();
    v
}

fn clean(r: &Report) -> bool {
    r.summary.totals.clamp_events == 0 && r.summary.totals.cap_hits == 0
}

/// Re-cut each script of `dir` five ways; returns (comparisons made, runs skipped with why).
fn recut_all(dir: &Path) -> (usize, Vec<String>) {
    let (mut compared, mut skipped) = (0, Vec::new());
    for path in scripts(dir) {
        let text = std::fs::read_to_string(&path).expect("readable script");
        let name = path.display().to_string();
        let opts = common::lab::options(&name, dir, true);
        let original = common::lab::run(&text, &opts);
        if !clean(&original) || text.contains("pause_on_focus_loss 1") {
            skipped.push(format!("{name}: the original clamps, caps or pauses"));
            continue;
        }
        for cut in CUTS {
            let recut: Recut = cut.parse().expect("a valid cut");
            let r = run_recut(&text, &opts, recut, &mut |_, _| Ok(()))
                .unwrap_or_else(|e| panic!("{name} --recut {cut}: {e}"));
            assert_eq!(r.echo.recut.as_deref(), Some(cut));
            assert_eq!(r.summary.totals.wall_ns, original.summary.totals.wall_ns, "{name} --recut {cut}");
            if !clean(&r) {
                // Only a fast tick can make a 40 ms jitter frame (or a 30 Hz one) hit the cap.
                assert!(
                    original_tick_hz(&original) > 200,
                    "{name} --recut {cut} capped: {:?}",
                    r.summary.totals
                );
                skipped.push(format!("{name} --recut {cut}: the re-cut caps"));
                continue;
            }
            assert_eq!(
                r.summary.state_hash, original.summary.state_hash,
                "{name} --recut {cut}: ticks {} vs {}",
                r.summary.totals.ticks, original.summary.totals.ticks
            );
            assert_eq!(r.summary.totals.ticks, original.summary.totals.ticks);
            assert_eq!(
                (r.summary.jumps, r.summary.respawns),
                (original.summary.jumps, original.summary.respawns)
            );
            compared += 1;
        }
    }
    (compared, skipped)
}

fn original_tick_hz(r: &Report) -> u32 {
    r.config.tick_hz
}

#[test]
fn every_level_script_recut_five_ways_keeps_its_hash() {
    let (compared, skipped) = recut_all(&root().join("tests/levels"));
    assert!(skipped.is_empty(), "{skipped:#?}");
    assert!(compared >= 15, "{compared}");
}

#[test]
fn every_clean_lab_case_recut_five_ways_keeps_its_hash() {
    let (compared, skipped) = recut_all(&root().join("tests/cases"));
    println!("compared {compared}; skipped: {skipped:#?}");
    // 28 cases: the clamp, cap and pause ones are left out, all others are compared.
    assert!(compared >= 100, "{compared}; skipped: {skipped:#?}");
}

#[test]
fn every_entity_case_recut_five_ways_keeps_its_hash() {
    // Platforms, crumbles, springs, saws and walkers run on the fixed tick: re-cutting the
    // frames of every tests/cases/v2 script (squish, reversal, stomp, spring, teleport, ...)
    // changes no tick and no hash.
    let (compared, skipped) = recut_all(&root().join("tests/cases/v2"));
    assert!(skipped.is_empty(), "{skipped:#?}");
    assert!(compared >= 5 * 29, "{compared}");
}

#[test]
fn the_time_tool_cases_recut_five_ways_keep_their_hash() {
    // Game speed and rewind are applied by tick, from events at their wall times: a re-cut
    // changes neither.
    let (compared, skipped) = recut_all(&root().join("tests/cases/time"));
    assert!(skipped.is_empty(), "{skipped:#?}");
    assert!(compared >= 30, "{compared}");
}

#[test]
fn the_cli_takes_recut_and_echoes_it() {
    let case = "tests/cases/bug09-teleport-no-streak.lab";
    let run = |extra: &[&str]| {
        let mut args = vec!["lab", case, "--summary"];
        args.extend_from_slice(extra);
        let o = common::ledge().args(&args).output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, plain, _) = run(&[]);
    assert_eq!(code, Some(0));
    let plain: serde_json::Value = serde_json::from_str(&plain).unwrap();
    assert!(plain["config"].get("recut").is_none(), "no echo without --recut");
    let (code, out, err) = run(&["--recut", "jitter:5"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["config"]["recut"], "jitter:5");
    assert_eq!(v["summary"]["state_hash"], plain["summary"]["state_hash"]);
    let (code, _, err) = run(&["--recut", "50"]);
    assert_eq!(code, Some(2));
    assert!(err.lines().next().unwrap_or("").contains("--recut '50'"), "{err}");
}
