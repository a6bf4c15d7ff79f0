//! `ledge --record FILE`: write the live session as a lab script that replays it exactly.
//!
//! Clock: event loop. The game calls [`Recorder::event`] with each edge's arrival time and
//! [`Recorder::frame`] with each frame's time, both in the monotonic nanoseconds the
//! [`Loop`](crate::game_loop::Loop) itself was given; times are written in milliseconds with six
//! decimals (whole nanoseconds), so `ledge lab FILE` feeds the loop the very same integers and
//! ends on the same `state_hash` (LAB.md "Recording").
//!
//! What is written: the level (`level` with its absolute path), every tuning value (so a later
//! edit of `tuning.toml` does not change the replay), the loop config, then the timeline:
//! every event as `@MS` before the frame that delivers it, and every frame's measured delta.

use crate::input::{InputEvent, Source};
use crate::sim::Tuning;
use crate::time::StepperConfig;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Nanoseconds as milliseconds with six decimals: exact, and parsed back to the same ns.
fn ms(ns: u64) -> String {
    format!("{}.{:06}", ns / 1_000_000, ns % 1_000_000)
}

/// Collects a session as lab-script text.
#[derive(Clone, Debug)]
pub struct Recorder {
    path: PathBuf,
    text: String,
    last_frame_ns: u64,
    pending_frames: Vec<u64>,
}

impl Recorder {
    /// Start a recording of `level_path` played with `tuning` and `config`, to be written to
    /// `path` by [`Recorder::finish`].
    pub fn new(path: &Path, level_path: &Path, tuning: &Tuning, config: &StepperConfig) -> Self {
        let mut text = String::from("# Recorded by `ledge --record`; replay with `ledge lab FILE`.\n");
        let level = std::fs::canonicalize(level_path).unwrap_or_else(|_| level_path.to_path_buf());
        let _ = writeln!(text, "level {}", level.display());
        let mut t = tuning.clone();
        for key in Tuning::KEYS {
            let v = *t.field_mut(key).expect("KEYS are fields");
            let _ = writeln!(text, "tuning {key} {v:?}");
        }
        let _ = writeln!(text, "config tick_hz {}", config.tick_hz);
        let _ = writeln!(text, "config max_frame_ms {:?}", config.max_frame_ms());
        let _ = writeln!(text, "config max_steps {}", config.max_steps);
        Recorder { path: path.to_path_buf(), text, last_frame_ns: 0, pending_frames: Vec::new() }
    }

    fn flush_frames(&mut self) {
        // Runs of equal deltas are written once with `xN` to keep files small.
        let mut i = 0;
        while i < self.pending_frames.len() {
            let d = self.pending_frames[i];
            let run = self.pending_frames[i..].iter().take_while(|&&x| x == d).count();
            if run > 1 {
                let _ = writeln!(self.text, "frame {} x{run}", ms(d));
            } else {
                let _ = writeln!(self.text, "frame {}", ms(d));
            }
            i += run;
        }
        self.pending_frames.clear();
    }

    /// Record an input edge that arrived at `t_ns` (the time given to `Loop::push_event`).
    pub fn event(&mut self, t_ns: u64, ev: &InputEvent) {
        self.flush_frames();
        let at = ms(t_ns);
        let src = |s: &Source| if *s == Source::Pad { " pad" } else { "" };
        let line = match ev {
            InputEvent::Press(s, a) => format!("press {}{} @{at}", a.name(), src(s)),
            InputEvent::Release(s, a) => format!("release {}{} @{at}", a.name(), src(s)),
            InputEvent::Repeat(s, a) => format!("repeat {}{} @{at}", a.name(), src(s)),
            InputEvent::SyntheticPress(s, a) => format!("press {} synthetic{} @{at}", a.name(), src(s)),
            InputEvent::FocusLost => format!("focus lost @{at}"),
            InputEvent::FocusGained => format!("focus gained @{at}"),
            InputEvent::PadConnected => format!("pad connect @{at}"),
            InputEvent::PadDisconnected => format!("pad disconnect @{at}"),
            InputEvent::AxisX(v) => format!("axis X {v:?} @{at}"),
        };
        self.text.push_str(&line);
        self.text.push('\n');
    }

    /// Record a frame run at `now_ns` (the time given to `Loop::frame`).
    pub fn frame(&mut self, now_ns: u64) {
        self.pending_frames.push(now_ns.saturating_sub(self.last_frame_ns));
        self.last_frame_ns = now_ns;
    }

    /// Record a window resize to `w` x `h` pixels.
    pub fn resize(&mut self, w: u32, h: u32) {
        self.flush_frames();
        let _ = writeln!(self.text, "resize {w} {h}");
    }

    /// The script so far.
    pub fn text(&mut self) -> &str {
        self.flush_frames();
        &self.text
    }

    /// Write the script (atomically: a temporary file renamed into place), with the state hash
    /// the session ended on as a comment and an `expect` line for `labcheck`.
    ///
    /// # Errors
    /// The file could not be written; the message names it.
    pub fn finish(mut self, state_hash: u64) -> anyhow::Result<PathBuf> {
        self.flush_frames();
        let _ = writeln!(self.text, "# state_hash at exit: {state_hash:016x}");
        let _ = writeln!(self.text, "# expect: summary[\"state_hash\"] == \"{state_hash:016x}\"");
        let tmp = self.path.with_extension("lab.partial");
        std::fs::write(&tmp, &self.text).map_err(|e| anyhow::anyhow!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &self.path).map_err(|e| anyhow::anyhow!("{}: {e}", self.path.display()))?;
        Ok(self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Action;
    use crate::lab::{LabOptions, run_script};

    #[test]
    fn ms_is_exact_to_the_nanosecond() {
        assert_eq!(ms(16_666_667), "16.666667");
        assert_eq!(ms(5), "0.000005");
        for ns in [1u64, 16_666_667, 3_600_000_000_123, 86_400_000_000_001] {
            assert_eq!(crate::lab::runner::ms_to_ns(ms(ns).parse().unwrap()), ns);
        }
    }

    #[test]
    fn a_recorded_session_replays_to_the_same_hash() {
        use crate::game_loop::Loop;
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let level_path = root.join("assets/levels/level1.tmx");
        let level = crate::level::tiled_map::load_tmx(&level_path).unwrap();
        let tuning = Tuning::default();
        let config = StepperConfig::default();
        let mut lp = Loop::new(level, tuning.clone(), config).unwrap();
        let mut rec = Recorder::new(Path::new("/tmp/unused.lab"), &level_path, &tuning, &config);
        // irregular frames, events between them, a pad
        let mut now = 0u64;
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
        while now < 1_500_000_000 {
            now += deltas.next().unwrap();
            while next < events.len() && events[next].0 <= now {
                lp.push_event(events[next].0, events[next].1);
                rec.event(events[next].0, &events[next].1);
                next += 1;
            }
            lp.frame(now);
            rec.frame(now);
        }
        let text = rec.text().to_string();
        let opts = LabOptions { script_name: "rec".into(), script_dir: root.into(), summary_only: true };
        let report = run_script(&text, &opts).unwrap();
        assert_eq!(report.summary.state_hash, format!("{:016x}", lp.state_hash()), "{text}");
        assert_eq!(report.summary.totals.ticks, lp.totals().ticks);
        assert!(report.summary.jumps >= 1);
    }
}
