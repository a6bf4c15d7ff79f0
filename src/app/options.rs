//! What `ledge` (play mode) was asked to do: the options `main` fills from the command line
//! and the saved settings (a flag given on the command line wins over the settings file).
//!
//! Clock: none (read once before the event loop starts).

use std::path::PathBuf;
use std::time::Duration;
use web_time::Instant;

/// What `ledge` (play mode) was asked to do; filled from the command line by `main`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AppOptions {
    /// Wait for the display when presenting (Fifo); off: Immediate/Mailbox where supported.
    /// `--vsync`, else the settings' `display.vsync`.
    pub vsync: bool,
    /// Level to play (a Tiled `.tmx`); `None`: `levels/level1.tmx` in the assets folder.
    pub level: Option<PathBuf>,
    /// Frame limiter, Hz: frames start on a fixed grid of 1/HZ seconds (emulates a display
    /// where vsync does not pace, e.g. Xvfb). `--fps-cap`, else the settings' `display.fps_cap`.
    pub fps_cap: Option<f64>,
    /// Quit after this many seconds of wall time, counted from when the game clock starts
    /// (window and GPU ready).
    pub exit_after: Option<f64>,
    /// Also write the exit summary as JSON to this file.
    pub stats: Option<PathBuf>,
    /// Tuning file; `None`: `tuning.toml` in the assets folder.
    pub tuning: Option<PathBuf>,
    /// Record the session as a lab script here (`ledge lab FILE` replays it to the same
    /// state hash). A recording covers one level: finishing it ends the session.
    pub record: Option<PathBuf>,
    /// `--frame-latency N` (1..=3): frames the presentation engine may queue
    /// (`desired_maximum_frame_latency`); `None`: 2, wgpu's default.
    pub frame_latency: Option<u32>,
    /// `--lose-device-after S`: destroy the GPU device S seconds of wall time after the game
    /// clock starts, once, to see it survived (`device_loss.rs`).
    pub lose_device_after: Option<f64>,
    /// The page's `?bare`: draw nothing, only clear and present each frame.
    pub bare: bool,
    /// `--latency-log FILE`: one CSV row per press and release, from its arrival to the
    /// present of the first frame showing its tick (`app/latency_log.rs`).
    pub latency_log: Option<PathBuf>,
    /// No camera easing: the camera moves only with the player. `--reduced-motion` or the
    /// settings' `display.reduced_motion`.
    pub reduced_motion: bool,
    /// Inject stalls into the event loop (seed 004's hostile-timing test).
    pub hitch: Option<Hitch>,
    /// Draw this many extra moving sprites (renderer stress test; shown in the F3 overlay).
    pub stress: usize,
    /// Open the window in borderless fullscreen (the settings' `display.fullscreen`).
    pub fullscreen: bool,
    /// The saved settings and progress, opened by `main` from `--save-dir DIR` or the OS
    /// folders ([`crate::save::Store::open`]); the key bindings come from it and completed
    /// levels are saved to it. The default saves nothing.
    pub save: crate::save::Store,
    /// The game-speed assist (`--game-speed PCT`, 50–160 %, else the settings'
    /// `display.game_speed`): wall time is scaled before the fixed tick, the physics stays the
    /// same ([`crate::time::speed`]).
    pub game_speed: crate::time::GameSpeed,
    /// The invincibility assist: `--invincible`, else the settings' `display.invincible`
    /// ([`crate::sim::World::invincible`]).
    pub invincible: bool,
    /// `--ghost FILE`: a recording played as a ghost on the first level
    /// ([`crate::lab::ghost`]).
    pub ghost: Option<PathBuf>,
    /// Hot reload: watch the level's files and the tuning file while a level is on, and swap
    /// in each good save (docs/levels.md "Hot reload"). `main` sets it unless `--no-watch`; the
    /// default (tests driving [`crate::app::run`]) watches nothing.
    pub watch: bool,
    /// An online race to join instead of the run of levels (NET.md): no title, no ghosts,
    /// no recorder of the app's own (the race's record is its confirmed inputs).
    pub race: Option<super::race::RaceStart>,
    /// `ledge replay FILE|LINK` (or the page's `#run=`): a replay window of this run instead
    /// of the game (`replay.rs`): no title, no ghosts, no recorder.
    pub replay: Option<super::replay::ReplaySource>,
}

/// `--hitch MS[@EVERY_S]`: stall the event loop for `ms` milliseconds every `every_s` seconds
/// of wall time, to see the clamp, the catch-up cap and interpolation cope (seed 004 lists 50,
/// 100 and 250 ms stalls).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hitch {
    /// Stall length, milliseconds (> 0).
    pub ms: f64,
    /// Seconds between stalls (> 0); the first comes after one period.
    pub every_s: f64,
}

impl Hitch {
    /// Stall the calling thread now if a stall is due: the first comes one period after
    /// `start`, each next one a period after the last (`next` remembers when).
    pub fn stall_if_due(&self, start: Instant, next: &mut Option<Instant>) {
        let period = Duration::from_secs_f64(self.every_s);
        let due = *next.get_or_insert(start + period);
        if Instant::now() >= due {
            std::thread::sleep(Duration::from_secs_f64(self.ms / 1000.0));
            *next = Some(due + period);
        }
    }
}

/// A `--hitch` argument that is not `MS` or `MS@EVERY_S` with positive numbers.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("--hitch {arg}: {what} must be a positive number, got '{got}'")]
pub struct HitchError {
    /// The whole argument.
    pub arg: String,
    /// Which part: `MS` or `EVERY_S`.
    pub what: &'static str,
    /// That part as written.
    pub got: String,
}

impl std::str::FromStr for Hitch {
    type Err = HitchError;

    /// Parse `MS` or `MS@EVERY_S` (default every 2 s).
    fn from_str(s: &str) -> Result<Self, HitchError> {
        let (ms, every) = s.split_once('@').map_or((s, "2"), |(a, b)| (a, b));
        let num = |t: &str, what: &'static str| match t.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
            _ => Err(HitchError { arg: s.to_owned(), what, got: t.to_owned() }),
        };
        Ok(Hitch { ms: num(ms, "MS")?, every_s: num(every, "EVERY_S")? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hitch_parses_ms_and_period() {
        assert_eq!("100".parse::<Hitch>(), Ok(Hitch { ms: 100.0, every_s: 2.0 }));
        assert_eq!("250@5".parse::<Hitch>(), Ok(Hitch { ms: 250.0, every_s: 5.0 }));
        assert!("0".parse::<Hitch>().is_err());
        assert!("50@".parse::<Hitch>().is_err());
        assert!("x@1".parse::<Hitch>().unwrap_err().to_string().contains("--hitch x@1"));
    }
}
