//! The kill test of issue #12: a game killed with SIGKILL at any moment while it saves leaves
//! either the old or the new file, never a half-written one.
//!
//! This test binary is its own saver (`harness = false` in Cargo.toml): run with
//! `--saver DIR` it opens the save in DIR with the library (`ledge::save::Store`) and then
//! completes one made-up level after another for ever, each a real `Store::finish_level`
//! (which saves `progress.toml` atomically) that adds one record, so the file grows and every
//! record says which save wrote it (`l{n}` has `best_ticks = n`). Run plainly it is the test:
//! [`ROUNDS`] times it starts a saver, waits a random 1–40 ms, kills it with SIGKILL, and loads
//! the folder with the library. Each load must give no warning (no bad file, nothing moved
//! aside), records `l1..=lN` with nothing missing and each consistent, and never fewer records
//! than the load before (old or new, never a mix, never going back). It counts the kills
//! that landed inside a save (a `.progress.toml.PID.tmp` left behind) and fails if none did,
//! since then it would have tested nothing.
//!
//! Clock: wall time (real processes, random sleeps; the seed is printed).

use ledge::save::{PROGRESS_FILE, Store};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

/// Kill-and-load rounds.
const ROUNDS: usize = 150;

/// The saver: complete levels and save, for ever (until killed).
fn saver(dir: &Path) -> ExitCode {
    let (mut store, warnings) = Store::open(Some(dir));
    if !warnings.is_empty() {
        eprintln!("saver: {warnings:?}");
        return ExitCode::from(3);
    }
    let mut n = store.progress().levels.len() as u64;
    loop {
        n += 1;
        let next = format!("l{}", n + 1);
        if let Err(w) = store.finish_level(&format!("l{n}"), n, 0, Some(&next), false, &[]) {
            eprintln!("saver: {w}");
            return ExitCode::from(4);
        }
    }
}

/// Load DIR and check it is whole; returns the number of records.
fn check(dir: &Path, round: usize, last: usize) -> Result<usize, String> {
    let (store, warnings) = Store::open(Some(dir));
    if !warnings.is_empty() {
        return Err(format!("round {round}: the load warned: {warnings:?}"));
    }
    let levels = &store.progress().levels;
    for n in 1..=levels.len() as u64 {
        match levels.get(&format!("l{n}")) {
            Some(r) if r.best_ticks == n && r.deathless => {}
            other => return Err(format!("round {round}: record l{n} of {} is {other:?}", levels.len())),
        }
    }
    if levels.len() < last {
        return Err(format!("round {round}: {} records after {last}: went back", levels.len()));
    }
    Ok(levels.len())
}

/// A small xorshift generator (the test needs only unpredictable sleeps, and prints its seed).
fn rng(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

fn kill_test() -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("ledge-save-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x5eed, |d| d.as_nanos() as u64)
        | 1;
    eprintln!("save_kill: seed {seed}");
    let (mut last, mut mid_save) = (0, 0);
    for round in 0..ROUNDS {
        let mut child = Command::new(&exe)
            .arg("--saver")
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| e.to_string())?;
        std::thread::sleep(Duration::from_micros(1000 + rng(&mut seed) % 39_000));
        child.kill().map_err(|e| e.to_string())?; // SIGKILL on Unix
        let status = child.wait().map_err(|e| e.to_string())?;
        if status.code().is_some() {
            return Err(format!("round {round}: the saver exited by itself ({status})"));
        }
        let temp = PathBuf::from(format!(".{PROGRESS_FILE}.{}.tmp", child.id()));
        if dir.join(&temp).exists() {
            mid_save += 1;
            let _ = std::fs::remove_file(dir.join(temp));
        }
        last = check(&dir, round, last)?;
    }
    let _ = std::fs::remove_dir_all(&dir);
    if mid_save == 0 {
        return Err(format!("none of {ROUNDS} kills landed inside a save: nothing was tested"));
    }
    Ok(format!(
        "{ROUNDS} kills ({mid_save} inside a save, leaving its temporary file), {last} records at the end; \
         every load whole, none went back"
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--saver") {
        return saver(Path::new(&args[i + 1]));
    }
    if args.iter().any(|a| a == "--list") {
        // `cargo test -- --list`: this binary has one test
        println!("kill_while_saving: test");
        return ExitCode::SUCCESS;
    }
    match kill_test() {
        Ok(what) => {
            println!("test kill_while_saving ... ok ({what})");
            println!("1 passed, 0 failed");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("test kill_while_saving ... FAILED: {e}");
            println!("0 passed, 1 failed");
            ExitCode::FAILURE
        }
    }
}
