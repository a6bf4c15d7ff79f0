//! Loading a ghost (LAB.md "Time tools", `ghost PATH`; the game's `--ghost FILE` and its saved
//! best runs): a recording or lab script replayed, once, through the lab's own parser and the
//! real [`Loop`](crate::game_loop::Loop) in a world of its own, into a
//! [`GhostTrack`] — the player after each of the ghost's ticks.
//!
//! Clock: none while loading (the ghost's own scripted clock runs to its end before play); the
//! track is then read on the render frame ([`crate::present::ghost`]). The ghost's setup is its
//! own (level, entities, tuning, config); its own `ghost` lines are ignored; it must tick at the
//! live run's `tick_hz`, since it is aligned by tick number.

use super::runner::{LabError, LabOptions, parse_script, run_parsed};
use crate::present::ghost::{GhostTick, GhostTrack};
use crate::present::view::PlayerPose;
use glam::DVec2;
use std::path::{Path, PathBuf};

/// Why a ghost could not be loaded; one line naming the ghost file.
#[derive(Debug, thiserror::Error)]
pub enum GhostError {
    /// The file cannot be read (missing, a folder, not UTF-8, ...).
    #[error("ghost {}: {error}", crate::printable::escape(&path.display().to_string()))]
    Read {
        /// The ghost file.
        path: PathBuf,
        /// Why (in the message, said once).
        error: std::io::Error,
    },
    /// The file is no valid script, or fails while it replays (the error names its line).
    #[error("ghost {0}")]
    Script(LabError),
    /// The ghost runs at another tick rate than the live run, so tick n means another time.
    #[error("ghost {}: it ticks at {ghost} Hz, this run at {ours} Hz", crate::printable::escape(&path.display().to_string()))]
    TickHz {
        /// The ghost file.
        path: PathBuf,
        /// The ghost's `tick_hz`.
        ghost: u32,
        /// The live run's `tick_hz`.
        ours: u32,
    },
}

/// Replay the recording or lab script at `path` as a ghost for a run at `tick_hz`.
///
/// # Errors
/// [`GhostError`]: the file cannot be read, is malformed or fails to replay (a missing level,
/// a bad line), or ticks at another rate.
pub fn load(path: &Path, tick_hz: u32) -> Result<GhostTrack, GhostError> {
    let text = crate::read_limit::read_text_at_most(path, super::script::MAX_SCRIPT_BYTES)
        .map_err(|error| GhostError::Read { path: path.to_path_buf(), error })?;
    load_text(&text, path, tick_hz)
}

/// [`load`] for a script already in memory, named `path` (relative `level` paths are read
/// from its folder).
///
/// # Errors
/// As [`load`], but for reading.
pub fn load_text(text: &str, path: &Path, tick_hz: u32) -> Result<GhostTrack, GhostError> {
    let opts = LabOptions {
        script_name: path.display().to_string(),
        script_dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
        summary_only: true,
        force: false,
    };
    let mut script = parse_script(text, &opts).map_err(GhostError::Script)?;
    script.ghost = None;
    let mut builder = Builder::default();
    let report = run_parsed(
        &script,
        &opts,
        Some(&mut |_, lp| {
            builder.frame(lp);
            Ok(())
        }),
        None,
    )
    .map_err(GhostError::Script)?;
    if report.config.tick_hz != tick_hz {
        return Err(GhostError::TickHz {
            path: path.to_path_buf(),
            ghost: report.config.tick_hz,
            ours: tick_hz,
        });
    }
    Ok(builder.track.unwrap_or_default())
}

/// The lab's `ghost PATH` line of `opts`'s script, if it has one, loaded for a run at
/// `tick_hz`: PATH is read relative to the script's folder first, then as given.
///
/// # Errors
/// A [`LabError`] on the `ghost` line whose message is the [`GhostError`] (naming the file).
pub(crate) fn for_script(
    ghost: Option<&(String, usize)>,
    opts: &LabOptions,
    tick_hz: u32,
) -> Result<Option<GhostTrack>, LabError> {
    let Some((text, line)) = ghost else { return Ok(None) };
    let beside = opts.script_dir.join(text);
    let path = if beside.is_file() { beside } else { PathBuf::from(text) };
    load(&path, tick_hz).map(Some).map_err(|e| LabError {
        script: opts.script_name.clone(),
        line: *line,
        msg: e.to_string(),
    })
}

/// Builds the track from the replaying loop, frame by frame.
#[derive(Default)]
struct Builder {
    track: Option<GhostTrack>,
    /// Frames seen (a paused frame runs no tick and repeats the last frame's records).
    frames: u64,
    /// Consecutive ticks running on the ground (the run cycle's clock).
    run_ticks: u32,
    facing_left: bool,
}

impl Builder {
    fn frame(&mut self, lp: &crate::game_loop::Loop) {
        let track = self.track.get_or_insert_with(|| GhostTrack::new(lp.level().spawn));
        if lp.totals().frames == self.frames {
            return;
        }
        self.frames = lp.totals().frames;
        let hz = lp.config().tick_hz;
        for rec in lp.ticks_this_frame() {
            let p = rec.player;
            let vel = DVec2::new(p.vx, p.vy);
            self.run_ticks = if p.on_ground && p.vx != 0.0 { self.run_ticks.wrapping_add(1) } else { 0 };
            if p.vx != 0.0 {
                self.facing_left = p.vx < 0.0;
            }
            // A rewind tick restores a state the track holds already: keep that tick's snap.
            let kept_snap = rec.rewound && track.at(rec.tick).is_some_and(|g| g.snapped);
            track.push(
                rec.tick,
                GhostTick {
                    pos: DVec2::new(p.x, p.y),
                    snapped: rec.respawned || rec.loaded || kept_snap,
                    facing_left: self.facing_left,
                    pose: PlayerPose::of_motion(p.on_ground, vel, self.run_ticks, hz),
                    died: rec.died,
                },
            );
        }
    }
}
