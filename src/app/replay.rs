//! The replay window (`ledge replay FILE|LINK`, the page's `#run=`): a run played back in the
//! game's own window with the game's own drawing, by [`crate::lab::playback`]: pause, a tick
//! forward or back, rewind, speed, from the start again. Nothing is played: game keys drive the
//! playback, and the loop only ever shows a frame of the run's script.
//!
//! Clock: render frame. Each drawn frame hands the real time since the last one to
//! [`Playback::advance`], which walks the script's own clock at the chosen speed; what is shown
//! is the loop after one of the script's frames, a pure function of the ticks the script ran
//! and its alpha, so the picture is the lab's.
//!
//! | key | pad | does |
//! |---|---|---|
//! | Space, K, Esc | A (jump), Start | pause / play (at the end: from the start) |
//! | → or L | d-pad → | a tick forward (paused) |
//! | ← or J | d-pad ← | a tick back (paused) |
//! | R or Backspace, held | the rewind button, held | play backwards |
//! | − / = (or ↓ / ↑) | — | speed down / up: 10–800 % |
//! | Home | — | back to the start |
//! | Q | Select | quit |

use super::App;
use crate::game_loop::Loop;
use crate::input::{Action, InputEvent};
use crate::lab::playback::{Playback, PlaybackStatus};
use crate::lab::{LabOptions, link};
use std::path::{Path, PathBuf};
use web_time::Instant;
use winit::event::KeyEvent;
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::{KeyCode, PhysicalKey};

/// The run a replay window opens: a script's text, its name for messages and the bar, and the
/// folder its relative level path is read from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplaySource {
    /// The script (a recording, a ghost, a race's record, any lab script).
    pub text: String,
    /// Its file, or `link` for one from a link.
    pub name: String,
    /// Where relative `level` paths are tried first.
    pub dir: PathBuf,
}

impl ReplaySource {
    /// The run at `source`: a link holding `#run=` ([`link::decode`]) or a file.
    ///
    /// # Errors
    /// One line: the bad link, or the file that cannot be read (missing, too big, not text).
    pub fn read(source: &str) -> Result<ReplaySource, String> {
        if link::is_link(source) {
            let text = link::decode(source).map_err(|e| e.to_string())?;
            return Ok(ReplaySource { text, name: "link".into(), dir: PathBuf::from(".") });
        }
        let path = Path::new(source);
        let text = crate::read_limit::read_text_at_most(path, crate::lab::script::MAX_SCRIPT_BYTES)
            .map_err(|e| format!("{}: {e}", crate::printable::escape(source)))?;
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Ok(ReplaySource { text, name: source.to_owned(), dir: dir.to_path_buf() })
    }
}

/// A replay window's playback and what it keeps between frames.
#[derive(Debug)]
pub(super) struct Replaying {
    pub(super) playback: Playback,
    /// The bar's title: the file's name, or "link".
    pub(super) title: String,
    /// When the last frame was drawn (the real time handed to the next advance).
    last: Option<Instant>,
}

impl Replaying {
    /// Open `src`: the script is run once to its end (see [`Playback::open`]); returns the
    /// loop showing its first frame.
    ///
    /// # Errors
    /// What `ledge lab` refuses, one line naming the script and the line.
    pub(super) fn open(src: &ReplaySource) -> anyhow::Result<(Replaying, Loop)> {
        let opts = LabOptions {
            script_name: src.name.clone(),
            script_dir: src.dir.clone(),
            summary_only: true,
            force: false,
        };
        let (playback, lp) = Playback::open(&src.text, &opts).map_err(|e| anyhow::anyhow!("replay {e}"))?;
        let title =
            Path::new(&src.name).file_name().map_or(src.name.clone(), |n| n.to_string_lossy().into_owned());
        Ok((Replaying { playback, title, last: None }, lp))
    }

    /// Where it stands, for the bar.
    pub(super) fn status(&self) -> PlaybackStatus {
        self.playback.status()
    }
}

impl App {
    /// A drawn frame of the replay window: the playback moved by the real time since the last
    /// one, the sounds of the ticks it ran forward played.
    pub(super) fn replay_frame(&mut self) {
        let Some(r) = &mut self.replay else { return };
        let now = Instant::now();
        let real_ns = r.last.map_or(0, |t| now.duration_since(t).as_nanos() as u64);
        r.last = Some(now);
        r.playback.advance(&mut self.game, real_ns);
        self.audio.play_ticks(r.playback.ticks_run());
        self.telemetry.push(self.game.idle_stats());
    }

    /// A key in the replay window (see the module docs); true when it was one of its keys.
    pub(super) fn replay_key(&mut self, event_loop: &ActiveEventLoop, event: &KeyEvent) -> bool {
        let Some(r) = &mut self.replay else { return false };
        let PhysicalKey::Code(code) = event.physical_key else { return false };
        let pressed = event.state.is_pressed();
        let pb = &mut r.playback;
        let lp = &mut self.game;
        match code {
            KeyCode::KeyR | KeyCode::Backspace if !event.repeat => pb.set_rewinding(pressed),
            _ if !pressed => return matches!(code, KeyCode::KeyR | KeyCode::Backspace),
            KeyCode::Space | KeyCode::KeyK | KeyCode::Escape if !event.repeat => pb.toggle_pause(lp),
            KeyCode::ArrowRight | KeyCode::KeyL => pb.step(lp, true),
            KeyCode::ArrowLeft | KeyCode::KeyJ => pb.step(lp, false),
            KeyCode::Minus | KeyCode::NumpadSubtract | KeyCode::ArrowDown => pb.step_speed(false),
            KeyCode::Equal | KeyCode::NumpadAdd | KeyCode::ArrowUp => pb.step_speed(true),
            KeyCode::Home => pb.restart(lp),
            KeyCode::KeyQ => event_loop.exit(),
            KeyCode::F3 => self.command(event_loop, super::Command::ToggleOverlay),
            KeyCode::F11 => self.command(event_loop, super::Command::ToggleFullscreen),
            _ => return false,
        }
        true
    }

    /// A pad's game edge in the replay window (see the module docs).
    pub(super) fn replay_pad(&mut self, ev: InputEvent) {
        let Some(r) = &mut self.replay else { return };
        let (pb, lp) = (&mut r.playback, &mut self.game);
        match ev {
            InputEvent::Press(_, Action::Jump) => pb.toggle_pause(lp),
            InputEvent::Press(_, Action::Right) => pb.step(lp, true),
            InputEvent::Press(_, Action::Left) => pb.step(lp, false),
            InputEvent::Press(_, Action::Rewind) => pb.set_rewinding(true),
            InputEvent::Release(_, Action::Rewind) => pb.set_rewinding(false),
            _ => {}
        }
    }
}
