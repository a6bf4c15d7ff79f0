//! A run written tick by tick as a lab script: the game's record of each level attempt, kept as
//! the level's ghost when it is a new best (`ghosts/LEVEL.lab` in the save folder).
//!
//! Clock: fixed tick ([`TickScript::tick`] once for every tick the loop ran, forward or
//! rewind, with the [`TickInput`] it saw). Unlike `--record` ([`super::record`], the wall
//! clock's frames and event times), this writes one frame per tick — frame k ends at
//! ⌈k·10⁹ / tick_hz⌉ ns, so each frame runs exactly one tick from an empty accumulator — and
//! before it the edges that give exactly the tick's input (presses, releases, the stick), so
//! the replay feeds every tick the input it had, whatever the game speed, pauses, frame rate or
//! sub-tick time banked before the level started. Replayed by the lab it ends on the run's
//! states tick for tick (the tick numbers count from the level's start).

use super::record::write_setup;
use super::script::{At, Step};
use super::writer::{Repeat, ScriptWriter};
use crate::input::latch::{STICK_DEAD_ZONE, dead_zone};
use crate::input::{Action, InputEvent, Source};
use crate::level::ContentHash;
use crate::sim::{MAX_PLAYERS, TickInput, Tuning};
use crate::time::StepperConfig;
use std::path::Path;

/// Builds the tick-by-tick script of one level attempt, or of a race (every player's input,
/// `pK` on the lines of players 2..=4).
#[derive(Clone, Debug)]
pub struct TickScript {
    script: ScriptWriter,
    tick_hz: u32,
    /// Ticks written so far.
    ticks: u64,
    /// Each player's input as written so far.
    players: [Written; MAX_PLAYERS],
}

/// What one player's lines so far leave the latch holding.
#[derive(Clone, Copy, Debug, Default)]
struct Written {
    /// Held after the last tick written.
    held: [bool; Action::COUNT],
    /// The stick after the last tick written.
    stick_x: f32,
    /// A `pad connect` was written (the stick reads only with a pad).
    pad: bool,
}

impl TickScript {
    /// An attempt at `level_path` played with `tuning` and `config`, from its start.
    /// `sha256` is the level's content hash (written on the `level` line, so that the ghost is
    /// refused once the level changes).
    pub fn new(
        level_path: &Path,
        sha256: Option<ContentHash>,
        tuning: &Tuning,
        config: &StepperConfig,
    ) -> TickScript {
        let mut script = ScriptWriter::new(Repeat::WhenMany);
        script.comment(
            "A level attempt written tick by tick by `ledge` (a ghost); replay with `ledge lab FILE`.",
        );
        write_setup(&mut script, level_path, sha256, tuning, config);
        TickScript::after_setup(script, config.tick_hz)
    }

    /// Continue `script`, whose setup lines (level, tuning, config, `players N`) are written,
    /// with ticks of 1 / `tick_hz` s.
    pub fn after_setup(script: ScriptWriter, tick_hz: u32) -> TickScript {
        TickScript { script, tick_hz, ticks: 0, players: [Written::default(); MAX_PLAYERS] }
    }

    /// Write the next tick, which saw `input`: its edges, then its frame.
    pub fn tick(&mut self, input: &TickInput) {
        self.tick_all(std::slice::from_ref(input));
    }

    /// Write the next tick of a race, which saw `inputs` (player order, at most
    /// [`MAX_PLAYERS`]): every player's edges, then the frame.
    pub fn tick_all(&mut self, inputs: &[TickInput]) {
        for (k, input) in inputs.iter().enumerate().take(MAX_PLAYERS) {
            self.edges(k as u8, input);
        }
        self.ticks += 1;
        let hz = u64::from(self.tick_hz.max(1));
        let end = |k: u64| (u128::from(k) * 1_000_000_000).div_ceil(u128::from(hz)) as u64;
        self.script.frame(end(self.ticks) - end(self.ticks - 1));
    }

    /// Player `player`'s (0-based) edges that give exactly `input` after what was written.
    fn edges(&mut self, player: u8, input: &TickInput) {
        let edge = |script: &mut ScriptWriter, ev: InputEvent| {
            script.step(&Step::Event { event: ev, at: At::AfterFrame(0), player });
        };
        let w = &mut self.players[usize::from(player)];
        for a in Action::ALL {
            let (was, now, pressed) = (w.held[a.index()], input.held(a), input.pressed(a));
            if pressed {
                if was {
                    edge(&mut self.script, InputEvent::Release(Source::Keyboard, a));
                }
                edge(&mut self.script, InputEvent::Press(Source::Keyboard, a));
                if !now {
                    edge(&mut self.script, InputEvent::Release(Source::Keyboard, a));
                }
            } else if was && !now {
                edge(&mut self.script, InputEvent::Release(Source::Keyboard, a));
            } else if !was && now {
                // Held without a press edge cannot come out of the latch; write it as a press
                // all the same (the edge is the closest input there is).
                edge(&mut self.script, InputEvent::Press(Source::Keyboard, a));
            }
        }
        if input.stick_x.to_bits() != w.stick_x.to_bits() {
            if !w.pad {
                edge(&mut self.script, InputEvent::PadConnected);
                w.pad = true;
            }
            edge(&mut self.script, InputEvent::AxisX(raw_for(input.stick_x)));
        }
        w.held = input.held;
        w.stick_x = input.stick_x;
    }

    /// Ticks written.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// The script so far.
    pub fn text(&mut self) -> &str {
        self.script.text()
    }
}

/// A raw stick value the latch's dead zone turns into exactly `stick` (found next to the
/// inverse of [`dead_zone`], which rounds in `f32`); the inverse itself if none is.
fn raw_for(stick: f32) -> f32 {
    if stick == 0.0 {
        return 0.0;
    }
    let guess = (STICK_DEAD_ZONE + stick.abs() * (1.0 - STICK_DEAD_ZONE)).copysign(stick);
    (0..=64u32)
        .flat_map(|k| [guess.to_bits().wrapping_add(k), guess.to_bits().wrapping_sub(k)])
        .map(f32::from_bits)
        .find(|&raw| dead_zone(raw).to_bits() == stick.to_bits())
        .unwrap_or(guess)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::{LabOptions, run_script};

    /// A script's ticks transcribed and replayed: the same states tick for tick, the same hash.
    fn round_trip(body: &str) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let level = root.join("assets/levels/level1.tmx");
        let opts = LabOptions {
            script_name: "t".into(),
            script_dir: root.into(),
            summary_only: false,
            force: false,
        };
        let live = run_script(&format!("level {}\n{body}", level.display()), &opts).expect("runs");
        let config = StepperConfig::default();
        let mut t =
            TickScript::new(&level, None, &Tuning::load(&root.join("assets/tuning.toml")).unwrap(), &config);
        let ticks = live.ticks.as_deref().expect("full");
        for rec in ticks {
            t.tick(&rec.input);
        }
        assert_eq!(t.ticks(), ticks.len() as u64);
        let text = t.text().to_string();
        let again = run_script(&text, &opts).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let states = |r: &crate::lab::report::Report| {
            r.ticks
                .as_deref()
                .unwrap()
                .iter()
                .map(|t| (t.tick, t.player, t.rewound, t.input))
                .collect::<Vec<_>>()
        };
        assert_eq!(states(&again), states(&live), "{text}");
        assert_eq!(again.summary.state_hash, live.summary.state_hash);
    }

    #[test]
    fn taps_holds_rewinds_and_jitter_replay_tick_for_tick() {
        round_trip(
            "press right @0\npress jump @100\nrelease jump @101\npress jump @102\nrelease right @400\n\
             press left @401\npress rewind @700\nrelease rewind @900\nrelease jump @950\nframe 7 x40\nframe 33 x30\n",
        );
    }

    #[test]
    fn the_stick_replays_exactly() {
        round_trip(
            "pad connect @0\naxis X 0.6 @10\naxis X -0.93 @300\npress jump pad @320\naxis X 0.05 @500\nframe 16 x60\n",
        );
    }

    #[test]
    fn frames_each_run_one_tick() {
        let mut t = TickScript::new(Path::new("x.tmx"), None, &Tuning::default(), &StepperConfig::default());
        for _ in 0..6 {
            t.tick(&TickInput::default());
        }
        assert!(
            t.text().ends_with("frame 16.666667 x2\nframe 16.666666\nframe 16.666667 x2\nframe 16.666666\n")
        );
    }
}
