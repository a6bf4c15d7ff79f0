//! Runs as links (`ledge replay`, issue #28): every level script of tests/levels, and every
//! case of tests/cases/v2 (inline `map`s, whose `#` rows are tiles, not comments), survives
//! the trip into a link and back and replays to the same state hash; level 1's finishing run fits
//! in 2,048 characters; `ledge replay LINK --headless` prints the summary line; a bad link, a
//! missing file and an edited level are refused in one line with exit status 2.
//!
//! Clock: the lab's scripted clock.

mod common;

use common::lab::options;
use common::{ledge, root};
use ledge::lab::link;
use ledge::lab::run_script;

fn lab_hash(text: &str, dir: &std::path::Path) -> String {
    run_script(text, &options("run", dir, true)).unwrap_or_else(|e| panic!("{e}")).summary.state_hash
}

/// Every `.lab` in `folder` through a link and back: the same state hash; returns how many.
fn round_trips(folder: &str) -> usize {
    let dir = root().join(folder);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "lab") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let l = link::link(&text);
        let back = link::decode(&l).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(lab_hash(&back, root()), lab_hash(&text, &dir), "{}", path.display());
        n += 1;
    }
    n
}

#[test]
fn every_level_script_replays_from_its_link_to_the_same_hash() {
    let n = round_trips("tests/levels");
    assert!(n >= 12, "{n} level scripts");
}

#[test]
fn inline_maps_replay_from_their_links_to_the_same_hash() {
    let n = round_trips("tests/cases/v2");
    assert!(n >= 10, "{n} cases");
}

#[test]
fn level_ones_finishing_run_fits_in_2048_characters() {
    let text = std::fs::read_to_string(root().join("tests/levels/level1.lab")).unwrap();
    let r = run_script(&text, &options("level1", root(), true)).unwrap();
    assert!(r.summary.level_complete, "the script finishes the level");
    let l = link::link(&text);
    assert!(l.len() <= 2048, "{} characters", l.len());
}

#[test]
fn the_cli_prints_a_link_and_plays_it_headless() {
    let file = root().join("tests/levels/level1.lab");
    let out = ledge().args(["replay".as_ref(), "--link".as_ref(), file.as_os_str()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let l = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    assert!(l.starts_with("index.html#run="), "{l}");
    let out = ledge().args(["replay", &l, "--headless"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = String::from_utf8(out.stdout).unwrap();
    let want = lab_hash(&std::fs::read_to_string(&file).unwrap(), root());
    assert!(line.starts_with("ledge replay: ticks=") && line.contains("level_complete=true"), "{line}");
    assert!(line.trim_end().ends_with(&format!("state_hash={want}")), "{line}");
}

#[test]
fn bad_links_missing_files_and_edited_levels_are_one_line_and_exit_2() {
    let edited = "level assets/levels/level1.tmx sha256=0000000000000000000000000000000000000000000000000000000000000000\nframe 16.666667 x10\n";
    let cases = [
        ("index.html#run=not*base64".to_owned(), "not base64url"),
        ("/nonexistent/run.lab".to_owned(), "/nonexistent/run.lab: "),
        (link::link(edited), "has changed since this script was made"),
    ];
    for (source, want) in cases {
        let out = ledge().args(["replay", &source, "--headless"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{source}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("ledge replay: ") && err.contains(want), "{err}");
    }
}
