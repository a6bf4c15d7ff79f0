//! Lab scripts, recordings and ghosts: parsed by the lab's parser and replayed by its runner
//! (the real `Loop` on the scripted clock), cut to a bounded run first ([`bounded`]).
//!
//! Clock: the lab's scripted clock, integer nanoseconds.

use super::{Outcome, refused, root};
use ledge::lab::script::{LevelSource, Script, Step, parse};
use ledge::lab::writer::format_ms;
use ledge::lab::{LabOptions, ghost, run_script};
use std::path::{Component, Path};

/// Most frames a fuzzed script runs: 2,000, so every shipped level script runs whole (the
/// longest, level 10's, has 1,776 frames).
pub const MAX_FRAMES: u64 = 2_000;

/// Most ticks a fuzzed script may run, counted as frames × the most ticks its config lets one
/// frame run: 16,000 (2,000 frames at the default 8 a frame).
pub const MAX_TICKS: u64 = 16_000;

/// The name a fuzzed script runs under (what its errors must name).
pub const SCRIPT_NAME: &str = "fuzz.lab";

/// The most ticks one frame of `script` can run: `max_steps`, or fewer when a whole clamped
/// frame (`max_frame_ms` at `tick_hz`) holds fewer. Values the loop would refuse count at
/// their most, so the bound holds whatever the config says.
pub fn ticks_per_frame(script: &Script) -> u64 {
    let (mut tick_hz, mut max_steps, mut max_frame_ms) = (60.0f64, 8.0f64, 250.0f64);
    for (key, v, _) in &script.config {
        match key.as_str() {
            "tick_hz" => tick_hz = *v,
            "max_steps" => max_steps = *v,
            "max_frame_ms" => max_frame_ms = *v,
            _ => {}
        }
    }
    // StepperConfig::validate: tick_hz in 1..=1000, max_frame_ms at most one hour.
    let hz = tick_hz.clamp(1.0, 1000.0);
    let frame_s = max_frame_ms.clamp(0.0, 3_600_000.0) / 1000.0;
    let due = (frame_s * hz).ceil() + 1.0;
    max_steps.clamp(1.0, u32::MAX as f64).min(due) as u64
}

/// `text` cut so that it runs at most [`MAX_FRAMES`] frames and [`MAX_TICKS`] ticks: at the
/// first `frame` line past the budget, which keeps what fits of its repeat count; the lines
/// after it go. Unchanged when it fits, or does not parse (the runner then reports why).
pub fn bounded(text: &str) -> String {
    let Ok(script) = parse(text) else { return text.to_owned() };
    let frames = (MAX_TICKS / ticks_per_frame(&script)).min(MAX_FRAMES);
    let mut used = 0u64;
    for (step, line) in &script.steps {
        if let Step::Frame { ns, count } = *step {
            if used + count <= frames {
                used += count;
                continue;
            }
            let mut cut: Vec<&str> = text.lines().take(line - 1).collect();
            let left = frames - used;
            let last = format!("frame {} x{left}", format_ms(ns));
            if left > 0 {
                cut.push(&last);
            }
            return cut.iter().map(|l| format!("{l}\n")).collect();
        }
    }
    text.to_owned()
}

/// Whether a `level` or `ghost` path may be read: relative, under `assets/` or `tests/`, with
/// no `..` (the fuzzer must not send the runner to `/proc` or `/dev`).
pub fn path_allowed(path: &str) -> bool {
    let p = Path::new(path);
    p.components().all(|c| matches!(c, Component::Normal(_)))
        && (p.starts_with("assets") || p.starts_with("tests"))
}

/// Why `text` should not be run ([`path_allowed`]), `None` when it may (or does not parse).
fn outside(text: &str) -> Option<&'static str> {
    let script = parse(text).ok()?;
    match &script.level {
        LevelSource::File(path, ..) if !path_allowed(path) => {
            return Some("level path outside assets/ and tests/");
        }
        _ => {}
    }
    match &script.ghost {
        Some((path, _)) if !path_allowed(path) => Some("ghost path outside assets/ and tests/"),
        _ => None,
    }
}

/// A lab script or recording, run as `ledge lab fuzz.lab` from the repository's root would
/// (the whole report built, frames and ticks included).
///
/// # Errors
/// See [`super::replay`].
pub fn script(bytes: &[u8]) -> Result<Outcome, String> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        // `ledge lab` reads the script with read_to_string: not UTF-8 is an I/O error there.
        return Ok(Outcome::NotRun("not UTF-8"));
    };
    if let Some(why) = outside(text) {
        return Ok(Outcome::NotRun(why));
    }
    let text = bounded(text);
    let opts = LabOptions {
        script_name: SCRIPT_NAME.to_owned(),
        script_dir: root(),
        summary_only: false,
        ..LabOptions::default()
    };
    match run_script(&text, &opts) {
        // The report (frames and ticks included) is built but not written: writing and reading
        // back its JSON was three quarters of a level script's run in the fuzz build.
        Ok(_report) => Ok(Outcome::Loaded),
        Err(e) => refused(e.to_string(), SCRIPT_NAME),
    }
}

/// A ghost file (a recording, or a best run the game saved), loaded as the game loads
/// `ghosts/LEVEL.lab` for a run at 60 Hz.
///
/// # Errors
/// See [`super::replay`].
pub fn ghost(bytes: &[u8]) -> Result<Outcome, String> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Ok(Outcome::NotRun("not UTF-8"));
    };
    if let Some(why) = outside(text) {
        return Ok(Outcome::NotRun(why));
    }
    let path = root().join("ghosts").join(SCRIPT_NAME);
    match ghost::load_text(&bounded(text), &path, 60) {
        Ok(_) => Ok(Outcome::Loaded),
        Err(e) => refused(e.to_string(), &path.display().to_string()),
    }
}
