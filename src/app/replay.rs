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
//! | Q | Select | quit (watching every attempt: Esc, Q or Select go back to the game) |
//!
//! # Every attempt at once
//!
//! After a level is finished the pause menu (and after the last, the end screen) offers
//! "Watch every attempt" (Super Meat Boy's
//! ending replay): the same window over the game, playing the finishing attempt, with every
//! earlier attempt of that visit (each ended by a restart) drawn as a ghost from the level's
//! first tick alongside, and a red cross where any of them died, from the tick it died in on.
//! All of it comes from the attempts' tick scripts ([`super::ghosts::Visit`]), none from
//! recorded pixels. Esc or Q goes back to that menu, the game as it was (its clock stood still
//! meanwhile). "Copy run link" puts the finishing attempt's link
//! ([`crate::lab::link`]) on the clipboard in a page, or prints it in a window.

use super::App;
use super::session::Mode;
use crate::game_loop::Loop;
use crate::input::{Action, InputEvent};
use crate::lab::playback::{Playback, PlaybackStatus};
use crate::lab::{LabOptions, link};
use crate::present::ghost::GhostTrack;
use crate::present::view::PlayerDraw;
use glam::DVec2;
use std::path::{Path, PathBuf};
use web_time::Instant;
use winit::event::KeyEvent;
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::{KeyCode, PhysicalKey};

pub use crate::lab::replay_cli::ReplaySource;

/// A replay window's playback and what it keeps between frames.
#[derive(Debug)]
pub(super) struct Replaying {
    pub(super) playback: Playback,
    /// The bar's title: the file's name, or "link".
    pub(super) title: String,
    /// When the last frame was drawn (the real time handed to the next advance).
    last: Option<Instant>,
    /// Watching every attempt: the game's own loop, given back on leaving, and the mode it
    /// was in (the pause menu or the end screen).
    game: Option<(Loop, Mode)>,
    /// The other attempts, drawn as ghosts from the level's first tick.
    attempts: Vec<GhostTrack>,
    /// Every attempt's deaths: the tick and the hitbox top-left.
    deaths: Vec<(u64, DVec2)>,
    /// This frame's attempts and death marks as drawn (kept to reuse the allocations).
    pub(super) drawn_attempts: Vec<PlayerDraw>,
    pub(super) drawn_marks: Vec<DVec2>,
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
        let (playback, lp) = Playback::open(&src.text, &opts).map_err(|e| anyhow::anyhow!("{e}"))?;
        let title =
            Path::new(&src.name).file_name().map_or(src.name.clone(), |n| n.to_string_lossy().into_owned());
        let r = Replaying {
            playback,
            title,
            last: None,
            game: None,
            attempts: Vec::new(),
            deaths: Vec::new(),
            drawn_attempts: Vec::new(),
            drawn_marks: Vec::new(),
        };
        Ok((r, lp))
    }

    /// Watching every attempt over the game (not `ledge replay`'s window).
    pub(super) fn watching(&self) -> bool {
        self.game.is_some()
    }

    /// The attempts and death marks as drawn on `lp`'s frame: each attempt's ghost between
    /// the loop's previous and current tick at its alpha, and the deaths up to its tick.
    fn draw_extras(&mut self, lp: &Loop) {
        let (prev, tick, alpha) = (lp.prev_tick(), lp.world().tick, lp.stepper().alpha());
        self.drawn_attempts.clear();
        self.drawn_attempts.extend(self.attempts.iter().filter_map(|a| a.drawn(prev, tick, alpha)));
        self.drawn_marks.clear();
        self.drawn_marks.extend(self.deaths.iter().filter(|(t, _)| *t <= tick).map(|(_, p)| *p));
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
        r.draw_extras(&self.game);
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
            KeyCode::Escape | KeyCode::KeyQ if r.game.is_some() => {
                self.leave_watch();
                return true;
            }
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
        if let Some(r) = &mut self.replay {
            r.draw_extras(&self.game);
        }
        true
    }

    /// A pad's menu button in the replay window: Start pauses or plays, Select leaves "watch
    /// every attempt" (the replay window alone quits with Q).
    pub(super) fn replay_pad_menu(&mut self, m: crate::input::gamepad::PadMenu) {
        use crate::input::gamepad::PadMenu;
        match m {
            PadMenu::Start => {
                if let Some(r) = &mut self.replay {
                    r.playback.toggle_pause(&mut self.game);
                }
            }
            PadMenu::Select => self.leave_watch(),
            PadMenu::Practice(_) => {}
        }
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

impl App {
    /// "Watch every attempt" (pause menu): the replay window over the game, on the last level
    /// finished (see the module docs); a run that cannot be replayed is one line on the menu.
    pub(super) fn watch_attempts(&mut self) {
        let Some(visit) = self.ghosts.last_visit().cloned() else { return };
        let src =
            ReplaySource { text: visit.finished.clone(), name: visit.level.clone(), dir: PathBuf::new() };
        let hz = self.game.config().tick_hz;
        let opened = Replaying::open(&src).and_then(|(mut r, lp)| {
            let name = Path::new(&visit.level);
            for text in &visit.earlier {
                r.attempts.push(crate::lab::ghost::load_text(text, name, hz)?);
            }
            let finished = crate::lab::ghost::load_text(&visit.finished, name, hz)?;
            r.deaths = r.attempts.iter().chain([&finished]).flat_map(GhostTrack::deaths).collect();
            r.deaths.sort_by_key(|(t, _)| *t);
            r.title = format!("{}: {} attempts", lp.level().name, visit.earlier.len() + 1);
            Ok((r, lp))
        });
        match opened {
            Ok((mut r, lp)) => {
                r.game = Some((std::mem::replace(&mut self.game, lp), self.session.mode));
                r.draw_extras(&self.game);
                self.replay = Some(r);
                // The game's clock stays stopped: the replay paces itself.
                self.session.mode = Mode::Playing;
                self.request_redraw();
            }
            Err(e) => {
                log::warn!("ledge: cannot watch the attempts: {e}");
                self.menus.menu.say("These attempts do not replay (see the log)");
            }
        }
    }

    /// Leave "watch every attempt": the game's loop back, with the menu it was watched from
    /// (the pause menu or the end screen) open again.
    pub(super) fn leave_watch(&mut self) {
        if let Some(mode) = self.give_back_game() {
            self.stop(mode);
        }
    }

    /// Watching every attempt: the game's loop put back in place of the replay's (the game
    /// quit while watching ends with the game's own summary); returns the mode it was watched
    /// from. `None`, and nothing changes, when not watching.
    pub(super) fn give_back_game(&mut self) -> Option<Mode> {
        if !self.replay.as_ref().is_some_and(Replaying::watching) {
            return None;
        }
        let (game, mode) = self.replay.take().and_then(|r| r.game)?;
        self.game = game;
        Some(mode)
    }

    /// "Copy run link" (pause menu): the last level's finishing run as a link, copied in a page
    /// ([`super::page::copy_link`]), printed on stdout in a window (`ledge: run link: …`).
    pub(super) fn copy_run_link(&mut self) {
        let Some(visit) = self.ghosts.last_visit() else { return };
        let link = link::link(&visit.finished);
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        {
            let fragment = link.find('#').map_or(link.as_str(), |i| &link[i..]);
            super::page::copy_link(fragment);
            self.menus.menu.say("Link copied");
        }
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        {
            println!("ledge: run link: {link}");
            self.menus.menu.say("Link printed in the terminal");
        }
    }
}
