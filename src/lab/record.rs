//! `ledge --record FILE`: write the live session as a lab script that replays it exactly.
//!
//! Clock: event loop. The game calls [`Recorder::event`] with each edge's arrival time and
//! [`Recorder::frame`] with each frame's time, both in the monotonic nanoseconds the
//! [`Loop`](crate::game_loop::Loop) itself was given; the lab's one [`ScriptWriter`] writes
//! them in milliseconds with six decimals (whole nanoseconds), so `ledge lab FILE` feeds the
//! loop the very same integers and ends on the same `state_hash` (LAB.md "Recording").
//!
//! What is written: the level (`level` with its absolute path), every tuning value (so a later
//! edit of `tuning.toml` does not change the replay), the loop config, then the timeline:
//! every event as `@MS` before the frame that delivers it, and every frame's measured delta,
//! and a `level-changed TICK` (`tuning-changed TICK`) line where hot reload swapped the level
//! (the tuning) mid-session: the lab refuses such a recording on that line.

use super::script::{At, Step};
use super::writer::{Repeat, ScriptWriter};
use crate::input::InputEvent;
use crate::level::ContentHash;
use crate::sim::Tuning;
use crate::time::{GameSpeed, StepperConfig};
use std::path::{Path, PathBuf};

/// A recording that could not be written: the file and the I/O error.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct RecordError {
    /// The file that could not be written or renamed into place.
    pub path: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

/// Collects a session as lab-script text.
#[derive(Clone, Debug)]
pub struct Recorder {
    path: PathBuf,
    script: ScriptWriter,
    last_frame_ns: u64,
}

impl Recorder {
    /// Start a recording of `level_path` played with `tuning` and `config` at `speed` (written
    /// as `config game_speed` when not full speed) and with the invincibility assist or not
    /// (`config assist_invincible 1`), to be written to `path` by
    /// [`Recorder::finish`].
    pub fn new(
        path: &Path,
        level_path: &Path,
        sha256: Option<ContentHash>,
        tuning: &Tuning,
        config: &StepperConfig,
        speed: GameSpeed,
        invincible: bool,
    ) -> Self {
        let mut script = ScriptWriter::new(Repeat::WhenMany);
        script.comment("Recorded by `ledge --record`; replay with `ledge lab FILE`.");
        write_setup(&mut script, level_path, sha256, tuning, config);
        if speed != GameSpeed::FULL {
            script.config("game_speed", speed.factor());
        }
        if invincible {
            script.config("assist_invincible", 1.0);
        }
        Recorder { path: path.to_path_buf(), script, last_frame_ns: 0 }
    }

    /// Record an input edge that arrived at `t_ns` (the time given to `Loop::push_event`).
    pub fn event(&mut self, t_ns: u64, ev: &InputEvent) {
        self.script.step(&Step::Event { event: *ev, at: At::Absolute(t_ns), player: 0 });
    }

    /// Record a savestate kept now, after the last frame recorded (`savestate NAME`).
    pub fn savestate(&mut self, name: &str) {
        self.script.step(&Step::Savestate(name.into()));
    }

    /// Record a savestate load asked for now, for the next tick (`loadstate NAME`).
    pub fn loadstate(&mut self, name: &str) {
        self.script.step(&Step::Loadstate(name.into()));
    }

    /// Record a frame run at `now_ns` (the time given to `Loop::frame`). Runs of equal deltas
    /// are written once with `xN` to keep files small.
    pub fn frame(&mut self, now_ns: u64) {
        self.script.frame(now_ns.saturating_sub(self.last_frame_ns));
        self.last_frame_ns = now_ns;
    }

    /// Hot reload swapped the level (`tuning` false) or the tuning (`tuning` true) after tick
    /// `tick`, before the next frame: written as `level-changed TICK` / `tuning-changed TICK`
    /// at this place in the timeline, which `ledge lab` refuses on that line ("the level
    /// changed during this recording at tick N") rather than replay the session on the first
    /// files.
    pub fn changed(&mut self, tuning: bool, tick: u64) {
        self.script.changed(tuning, tick);
    }

    /// Record a window resize to `w` x `h` pixels.
    pub fn resize(&mut self, w: u32, h: u32) {
        self.script.step(&Step::Resize(w, h));
    }

    /// The script so far.
    pub fn text(&mut self) -> &str {
        self.script.text()
    }

    /// Write the script (atomically: a temporary file renamed into place), with the state hash
    /// the session ended on as a comment and an `expect` line for `labcheck`.
    ///
    /// # Errors
    /// [`RecordError`] naming the file that could not be written.
    pub fn finish(self, state_hash: u64) -> Result<PathBuf, RecordError> {
        let path = self.path.clone();
        let text = self.finish_text(state_hash);
        let tmp = path.with_extension("lab.partial");
        std::fs::write(&tmp, text).map_err(|source| RecordError { path: tmp.clone(), source })?;
        std::fs::rename(&tmp, &path).map_err(|source| RecordError { path: path.clone(), source })?;
        Ok(path)
    }

    /// The whole recording as [`Recorder::finish`] writes it, ending with the session's
    /// `state_hash` (as a comment and an `expect:` line), not written anywhere: what a page's
    /// `?record` hands over as `window.ledgeRecording`.
    pub fn finish_text(mut self, state_hash: u64) -> String {
        self.script.comment(&format!("state_hash at exit: {state_hash:016x}"));
        self.script.comment(&format!("expect: summary[\"state_hash\"] == \"{state_hash:016x}\""));
        self.script.finish()
    }
}

/// A recording's setup lines: `level` with `level_path` made absolute, every tuning value (so
/// a later edit of `tuning.toml` does not change the replay) and the loop config.
pub(crate) fn write_setup(
    script: &mut ScriptWriter,
    level_path: &Path,
    sha256: Option<ContentHash>,
    tuning: &Tuning,
    config: &StepperConfig,
) {
    let level = std::fs::canonicalize(level_path).unwrap_or_else(|_| level_path.to_path_buf());
    script.level(&level.display().to_string(), sha256);
    let mut t = tuning.clone();
    for key in Tuning::KEYS {
        script.tuning(key, *t.field_mut(key).expect("KEYS are fields"));
    }
    script.config("tick_hz", f64::from(config.tick_hz));
    script.config("max_frame_ms", config.max_frame_ms());
    script.config("max_steps", f64::from(config.max_steps));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Action, Source};
    use crate::lab::{LabOptions, run_script};

    /// Play a session whose clock reads `late` ns at its start through the loop and the
    /// recorder, replay the recording in the lab: it must end on the live session's hash.
    fn record_and_replay(late: u64) {
        use crate::game_loop::Loop;
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let level_path = root.join("assets/levels/level1.tmx");
        let level = crate::level::tiled_map::load_tmx(&level_path).unwrap();
        let tuning = Tuning::default();
        let config = StepperConfig::default();
        let sha = |l: &crate::level::Level| l.origin.as_ref().map(|o| o.sha256);
        let mut rec = Recorder::new(
            Path::new("/tmp/unused.lab"),
            &level_path,
            sha(&level),
            &tuning,
            &config,
            GameSpeed::FULL,
            false,
        );
        // irregular frames, events between them, a pad
        let mut lp = Loop::new(level, tuning.clone(), config).unwrap();
        let mut now = late;
        let mut deltas = [7_000_001u64, 16_666_667, 33_000_000, 4_100_000, 300_000_000].iter().cycle();
        let events = [
            (5_000_000u64, InputEvent::Press(Source::Keyboard, Action::Right)),
            (90_000_000, InputEvent::Press(Source::Keyboard, Action::Jump)),
            (95_000_000, InputEvent::Release(Source::Keyboard, Action::Jump)),
            (400_000_000, InputEvent::PadConnected),
            (410_000_000, InputEvent::Press(Source::Pad, Action::Jump)),
            (420_000_000, InputEvent::AxisX(-0.7)),
            (900_000_000, InputEvent::FocusLost),
        ];
        let mut next = 0;
        while now < late + 1_500_000_000 {
            now += deltas.next().unwrap();
            while next < events.len() && late + events[next].0 <= now {
                lp.push_event(late + events[next].0, events[next].1);
                rec.event(late + events[next].0, &events[next].1);
                next += 1;
            }
            lp.frame(now);
            rec.frame(now);
        }
        let text = rec.text().to_string();
        let opts = LabOptions {
            script_name: "rec".into(),
            script_dir: root.into(),
            summary_only: true,
            force: false,
        };
        let report = run_script(&text, &opts).unwrap();
        assert_eq!(report.summary.state_hash, format!("{:016x}", lp.state_hash()), "{text}");
        assert_eq!(report.summary.totals.ticks, lp.totals().ticks);
        assert!(report.summary.jumps >= 1);
    }

    #[test]
    fn a_recorded_session_replays_to_the_same_hash() {
        record_and_replay(0);
    }

    #[test]
    fn a_session_whose_clock_starts_12_days_late_replays_to_the_same_hash() {
        // 2^20 s: its times are written and read back as exact nanoseconds.
        record_and_replay((1 << 20) * 1_000_000_000);
    }

    #[test]
    fn a_recording_across_a_reload_is_refused_by_the_lab_on_the_reloads_line() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let level = root.join("assets/levels/level1.tmx");
        let config = StepperConfig::default();
        let mut rec = Recorder::new(
            Path::new("/tmp/unused.lab"),
            &level,
            None,
            &Tuning::default(),
            &config,
            GameSpeed::FULL,
            false,
        );
        rec.frame(16_666_667);
        rec.changed(false, 1);
        rec.frame(33_333_334);
        let text = rec.text().to_string();
        let line = text.lines().position(|l| l == "level-changed 1").expect("the directive") + 1;
        let opts = LabOptions {
            script_name: "rec.lab".into(),
            script_dir: root.into(),
            summary_only: true,
            force: false,
        };
        let e = run_script(&text, &opts).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("rec.lab:{line}: the level changed during this recording at tick 1")
        );
    }
}
