//! Runs a parsed lab script against the real [`Loop`] on a scripted clock.
//!
//! Clock: scripted wall clock, integer nanoseconds (the script's times are read as exact
//! integers of nanoseconds; nothing accumulates in floating point).

use super::cursor::Cursor;
use super::recut::Timeline;
use super::report::*;
use super::script::{LevelSource, Script, parse};
use super::shots::ObserverError;
use crate::cosmetic::{CosmeticSettings, ShakeLevel};
use crate::game_loop::{Loop, Point};
use crate::level::{Level, ascii::parse_ascii, tiled_map::load_tmx};
use crate::sim::Tuning;
use crate::time::{GameSpeed, StepperConfig};
use std::path::PathBuf;

/// How to run a script.
#[derive(Clone, Debug, Default)]
pub struct LabOptions {
    /// The script's name for messages (its path, or `<stdin>`).
    pub script_name: String,
    /// Folder relative `level` paths are tried from first.
    pub script_dir: PathBuf,
    /// Leave `frames` and `ticks` out of the report.
    pub summary_only: bool,
    /// `--force`: replay on a level whose content hash differs from the script's `level …
    /// sha256=` (with a warning) instead of refusing.
    pub force: bool,
}

/// A lab failure: one line naming the script, the line (when there is one) and the problem
/// (what it quotes from the script, a path or a word, escaped: [`crate::printable::escape`]).
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}: {}", crate::printable::escape(script), crate::printable::escape(msg))]
pub struct LabError {
    /// Script name.
    pub script: String,
    /// 1-based line, 0 when the problem is not on a line (e.g. a missing shipped asset).
    pub line: usize,
    /// The problem.
    pub msg: String,
}

/// Parse and run a script; return its report.
///
/// # Errors
/// [`LabError`] for a malformed script, a bad override, a missing or malformed level, an event
/// offset past its frame, or an `@MS` already in the past.
pub fn run_script(text: &str, opts: &LabOptions) -> Result<Report, LabError> {
    run_parsed(&parse_script(text, opts)?, opts, None, None)
}

/// [`run_script`], calling `observe(frame_index, &loop)` after every frame (frame indices from
/// 0, as in the report), e.g. to draw screenshots. An observer error stops the run.
///
/// # Errors
/// As [`run_script`], plus the observer's error, reported on the line of the frame directive.
pub fn run_script_observed(
    text: &str,
    opts: &LabOptions,
    observe: &mut dyn FnMut(u64, &Loop) -> Result<(), ObserverError>,
) -> Result<Report, LabError> {
    run_parsed(&parse_script(text, opts)?, opts, Some(observe), None)
}

/// Parse `text`; a malformed line is a [`LabError`] naming the script and the line.
pub(crate) fn parse_script(text: &str, opts: &LabOptions) -> Result<Script, LabError> {
    parse(text).map_err(|e| LabError { script: opts.script_name.clone(), line: e.line, msg: e.msg })
}

/// What sees every frame of a run ([`run_script_observed`]'s `observe`).
pub(crate) type Observer<'a> = &'a mut dyn FnMut(u64, &Loop) -> Result<(), ObserverError>;

/// Run a parsed script ([`run_script_observed`]; `observe`: `None` when nothing looks at the
/// frames, which with `summary_only` lets the loop skip what only drawing needs,
/// [`Loop::set_presenting`]); when `timeline` is given, note in it where on the wall clock each
/// event, resize and teleport fell and the total time (for `--recut`).
pub(crate) fn run_parsed(
    script: &Script,
    opts: &LabOptions,
    observe: Option<Observer<'_>>,
    timeline: Option<&mut Timeline>,
) -> Result<Report, LabError> {
    run_driven(script, opts, observe, timeline, None)
}

/// [`run_parsed`] with every tick run by `driver` when one is given (a rollback session:
/// `--synctest`, [`super::synctest`]).
pub(crate) fn run_driven(
    script: &Script,
    opts: &LabOptions,
    mut observe: Option<Observer<'_>>,
    mut timeline: Option<&mut Timeline>,
    mut driver: Option<&mut dyn crate::game_loop::TickDriver>,
) -> Result<Report, LabError> {
    let fail = |line: usize, msg: String| LabError { script: opts.script_name.clone(), line, msg };
    let (mut lp, pause_on_focus_loss, game_speed, cosmetic_echo) = build_loop(script, opts)?;
    lp.set_record_entities(!opts.summary_only);
    lp.set_presenting(!opts.summary_only || observe.is_some());
    let ghost = super::ghost::for_script(script.ghost.as_ref(), opts, lp.config().tick_hz)?;
    lp.set_rewind_history(script.rewinds());

    let mut frames = Vec::new();
    let mut ticks = Vec::new();
    let mut cursor = Cursor::new(pause_on_focus_loss);
    // Presses and releases shown so far (`summary.inputs`).
    let mut inputs = Vec::new();
    while let Some(run) = cursor.next_frame(
        script,
        &opts.script_name,
        &mut lp,
        driver.as_mut().map(|d| &mut **d as &mut dyn crate::game_loop::TickDriver),
        timeline.as_deref_mut(),
    )? {
        inputs.extend_from_slice(&run.shown);
        if let Some(observe) = observe.as_deref_mut() {
            observe(run.index, &lp).map_err(|e| fail(run.line, e.to_string()))?;
        }
        if !opts.summary_only {
            let (view, shake, player_scale, effects, parallax) = look_of(&lp);
            frames.push(FrameReport {
                frame: run.index,
                stats: run.stats,
                paused: run.paused,
                drawn_entities: DrawnEntity::of(&lp),
                drawn_ghost: ghost.as_ref().map(|g| drawn_ghost(g, &lp, run.stats.alpha)),
                view,
                shake,
                player_scale,
                effects,
                parallax,
                drawn_players: DrawnPlayer::of(&lp),
            });
            if !run.paused {
                ticks.extend_from_slice(lp.ticks_this_frame());
            }
        }
    }
    if let Some(tl) = timeline {
        tl.total_ns = cursor.clock_ns();
    }

    inputs.extend(lp.inputs_unshown().copied());
    inputs.sort_by_key(|e| e.at_ns); // stable: equal times keep their order
    let inputs: Vec<InputReport> = inputs.iter().map(InputReport::from).collect();
    let shown_ms = ShownStats::of(&inputs);
    let w = lp.world();
    Ok(Report {
        config: *lp.config(),
        echo: ConfigEcho { game_speed, recut: None, ..cosmetic_echo },
        frames: (!opts.summary_only).then_some(frames),
        ticks: (!opts.summary_only).then_some(ticks),
        summary: SummaryReport {
            totals: *lp.totals(),
            jumps: w.jumps,
            respawns: w.respawns,
            surface_configures: cursor.configures(),
            state_hash: format!("{:016x}", lp.state_hash()),
            deaths: w.deaths,
            level_complete: w.level_complete,
            finish_ticks: (w.players() > 1)
                .then(|| (0..w.players()).map(|k| w.runner_view(k).finished_at).collect()),
            inputs,
            shown_ms,
        },
    })
}

/// `frames[].drawn_ghost`: the ghost drawn between the loop's previous and current tick at
/// `alpha`, `None` (written `null`) past the ghost's last tick.
fn drawn_ghost(g: &crate::present::ghost::GhostTrack, lp: &Loop, alpha: f64) -> Option<Point> {
    g.drawn(lp.prev_tick(), lp.world().tick, alpha).map(|d| d.pos.into())
}

/// Resolve the level, tuning and config of a script into a ready [`Loop`]; also returns
/// `pause_on_focus_loss`, the `game_speed` factor when the script set one, and the echo of its
/// cosmetic settings (`effects`, `shake`, `flashes`).
pub(crate) fn build_loop(
    script: &Script,
    opts: &LabOptions,
) -> Result<(Loop, bool, Option<f64>, ConfigEcho), LabError> {
    let fail = |line: usize, msg: String| LabError { script: opts.script_name.clone(), line, msg };
    let assets = crate::assets::assets_dir().map_err(|e| fail(0, e.to_string()))?;
    let mut tuning = Tuning::load(&assets.join("tuning.toml")).map_err(|e| fail(0, e.to_string()))?;
    for (key, v, line) in &script.tuning {
        tuning.set(key, *v).map_err(|e| fail(*line, e.to_string()))?;
    }
    let mut config = StepperConfig::default();
    let mut reduced_motion = false;
    let mut pause_on_focus_loss = false;
    let mut game_speed = None;
    let mut cosmetic = CosmeticSettings::default();
    let mut cosmetic_echo = ConfigEcho::default();
    let mut invincible = false;
    for (key, v, line) in &script.config {
        let whole = |v: f64| -> Result<u32, LabError> {
            if v.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&v) {
                Ok(v as u32)
            } else {
                Err(fail(*line, format!("config {key} must be a whole number, got {v}")))
            }
        };
        let checked = match key.as_str() {
            "tick_hz" => {
                config.tick_hz = whole(*v)?;
                config.validate()
            }
            "max_steps" => {
                config.max_steps = whole(*v)?;
                config.validate()
            }
            "max_frame_ms" => config.set_max_frame_ms(*v),
            "reduced_motion" | "pause_on_focus_loss" | "assist_invincible" => {
                if *v != 0.0 && *v != 1.0 {
                    return Err(fail(*line, format!("config {key} must be 0 or 1, got {v}")));
                }
                let slot = match key.as_str() {
                    "reduced_motion" => &mut reduced_motion,
                    "pause_on_focus_loss" => &mut pause_on_focus_loss,
                    _ => {
                        cosmetic_echo.assist_invincible = Some(whole(*v)?);
                        &mut invincible
                    }
                };
                *slot = *v == 1.0;
                Ok(())
            }
            "effects" | "flashes" | "shake" => {
                let most = if key == "shake" { 2 } else { 1 };
                let n = whole(*v).ok().filter(|n| *n <= most).ok_or_else(|| {
                    let range = if most == 2 { "0, 1 or 2" } else { "0 or 1" };
                    fail(*line, format!("config {key} must be {range}, got {v}"))
                })?;
                match key.as_str() {
                    "effects" => (cosmetic.effects, cosmetic_echo.effects) = (n == 1, Some(n)),
                    "flashes" => (cosmetic.flashes, cosmetic_echo.flashes) = (n == 1, Some(n)),
                    _ => {
                        cosmetic.shake = ShakeLevel::from_index(n).expect("checked above");
                        cosmetic_echo.shake = Some(n);
                    }
                }
                Ok(())
            }
            "game_speed" => {
                let speed =
                    GameSpeed::from_factor(*v).map_err(|e| fail(*line, format!("config {key} {e}")))?;
                game_speed = Some((*v, speed));
                Ok(())
            }
            other => {
                return Err(fail(
                    *line,
                    format!(
                        "unknown config key '{other}' (known: tick_hz, max_frame_ms, max_steps, reduced_motion, pause_on_focus_loss, game_speed, assist_invincible, effects, shake, flashes)"
                    ),
                ));
            }
        };
        checked.map_err(|e| fail(*line, format!("config {key}: {e}")))?;
    }
    let mut level: Level = match &script.level {
        LevelSource::Default => {
            load_tmx(&assets.join("levels/level1.tmx")).map_err(|e| fail(0, e.to_string()))?
        }
        LevelSource::Inline(rows, first) => parse_ascii(rows, *first).map_err(|e| match e {
            crate::level::LevelError::Ascii { line, msg } => fail(line, msg),
            other => fail(*first, other.to_string()),
        })?,
        LevelSource::File(path, line, expected) => {
            let p = PathBuf::from(path);
            let candidates = if p.is_absolute() {
                vec![p.clone()]
            } else {
                let root = assets.parent().map(PathBuf::from).unwrap_or_default();
                vec![opts.script_dir.join(&p), root.join(&p)]
            };
            let Some(found) = candidates.iter().find(|c| crate::read_limit::is_file(c)) else {
                return Err(fail(*line, format!("level file not found: {path}")));
            };
            let level = load_tmx(found).map_err(|e| fail(*line, e.to_string()))?;
            let actual = level.origin.as_ref().map(|o| o.sha256);
            if let (Some(expected), Some(actual)) = (*expected, actual.filter(|a| Some(*a) != *expected)) {
                let msg = format!(
                    "level {path} has changed since this script was made: it is sha256={actual}, the script names sha256={expected}"
                );
                if !opts.force {
                    return Err(fail(*line, format!("{msg} (--force replays it anyway)")));
                }
                log::warn!("{}:{line}: {msg}; replaying anyway (--force)", opts.script_name);
            }
            level
        }
    };
    level.entities.extend(script.entities.iter().map(|(spec, _)| spec.clone()));
    let mut lp = Loop::new(level, tuning, config).map_err(|e| fail(0, e.to_string()))?;
    lp.set_players(script.players);
    if script.players > 1 && game_speed.is_some() {
        return Err(fail(0, "config game_speed: a race is always 100 % (NET.md)".into()));
    }
    if script.players > 1 && invincible {
        return Err(fail(0, "config assist_invincible: a race has no assists (NET.md)".into()));
    }
    lp.set_invincible(invincible);
    lp.set_reduced_motion(reduced_motion);
    lp.set_cosmetic_settings(cosmetic);
    if let Some((_, speed)) = game_speed {
        lp.set_game_speed(speed);
    }
    Ok((lp, pause_on_focus_loss, game_speed.map(|(f, _)| f), cosmetic_echo))
}
