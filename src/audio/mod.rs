//! The game's sound output through kira (on cpal: ALSA on Linux): effects for the tick's cues,
//! a music loop, volumes from the saved settings. The only code that touches kira.
//!
//! Clock: event loop / render frame. [`Audio::play_ticks`] is called once per render frame
//! with the ticks that frame ran ([`crate::game_loop::Loop::ticks_this_frame`]) and plays each
//! tick's cues ([`crate::sim::cues`]) at once, once: a frame that runs three catch-up ticks
//! plays each tick's sound once, and nothing is scheduled ahead (every tick a frame runs is
//! already due, so "at once" is the earliest a sound can start; docs/speed.md has the
//! measured latency). Rewind ticks carry no cues; the lab, replays and ghosts never reach
//! this module, so they make no sound. The simulation never reads anything from here.
//!
//! No audio device (a server, CI, a broken driver): [`Audio::open`] prints one warning line on
//! stderr and returns a silent [`Audio`] whose methods do nothing; it never panics. On Linux
//! libasound's own complaints while looking for the device are caught (`alsa`'s thread-local
//! error handler) and kept off stderr, so that the warning is the only line. `LEDGE_AUDIO=off`
//! ([`AUDIO_ENV`]) opens no device and prints nothing (the test harness sets it for the tests
//! that are not about sound).
//!
//! The device going away mid-game (a USB headset unplugged, the sound server restarting, the
//! test's software card losing its reader): [`Audio::watch`], once per render frame, prints one
//! warning line `ledge: warning: sound device lost (...): the game plays silently until it is
//! back`, the game plays on silent (no effect is queued meanwhile, so none bursts out later),
//! and the default device is opened again, at once and then at most once a second, off the
//! event loop; when it plays again, so does the sound, the music where it stopped ([`device`]
//! has how, and why kira's own cpal backend is not used).

mod alsa_log;
pub mod device;
pub mod recovery;
pub mod rollsafe;

use crate::game_loop::TickRecord;
use crate::save::settings::Volume;
use crate::sim::cues::Cue;
use device::{DeviceBackend, DeviceEvent};
use kira::sound::static_sound::{StaticSoundData, StaticSoundHandle};
use kira::track::{TrackBuilder, TrackHandle};
use kira::{AudioManager, AudioManagerSettings, Decibels, Tween};
use std::path::{Path, PathBuf};
use std::time::Duration;
use web_time::Instant;

/// Environment variable: `off` opens no audio device and warns about nothing (the game is
/// silent). Any other value, or none, plays sound when a device is there.
pub const AUDIO_ENV: &str = "LEDGE_AUDIO";

/// Largest sound file read, bytes (16 MiB: the longest shipped sound, a music loop, is
/// 282 KB).
pub const MAX_SOUND_BYTES: u64 = 16 << 20;

/// Fade for pausing and resuming the music, and for volume changes: short enough to feel
/// immediate, long enough not to click.
const FADE: Duration = Duration::from_millis(20);

/// The music loops (`assets/sounds/music_NAME.wav`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Music {
    /// Played in the levels.
    Level,
    /// Played on the menus (title, level select, settings).
    Menu,
}

impl Music {
    /// The loop's file stem in `assets/sounds/`.
    pub fn name(self) -> &'static str {
        match self {
            Music::Level => "music_level",
            Music::Menu => "music_menu",
        }
    }
}

/// Why the sound output could not be opened; [`Audio::open_or_silent`] prints it as the one
/// warning line.
#[derive(Debug, thiserror::Error)]
pub enum AudioError {
    /// kira/cpal found no usable output device (or could not start its stream).
    #[error("no audio output ({0})")]
    Device(String),
    /// A sound file is missing or is not a WAV kira can decode.
    #[error("{path}: {message}")]
    Sound {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The output opened but a mixer track could not be added.
    #[error("audio mixer: {0}")]
    Mixer(String),
}

/// The open output: manager, the two sub-tracks, the decoded sounds.
struct Output {
    manager: AudioManager<DeviceBackend>,
    effects: TrackHandle,
    music: TrackHandle,
    /// Indexed like [`Cue::ALL`].
    cues: Vec<StaticSoundData>,
    level_music: StaticSoundData,
    menu_music: StaticSoundData,
    playing: Option<(Music, StaticSoundHandle)>,
    /// The music's playback rate: the game speed's factor (pitch and tempo follow it).
    music_rate: f64,
}

/// The game's sound: open, or silent when there is no device (every method then does
/// nothing).
pub struct Audio {
    out: Option<Output>,
}

impl std::fmt::Debug for Audio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Audio").field("silent", &self.out.is_none()).finish()
    }
}

/// A linear gain in 0..=1 (the settings' volumes) as kira's decibels: 20·log10(gain), with
/// gains at or below 0.001 (−60 dB) as kira's silence. Values outside 0..=1 are clamped.
pub fn gain_to_decibels(gain: f64) -> Decibels {
    let g = gain.clamp(0.0, 1.0);
    if g <= 0.001 { Decibels::SILENCE } else { Decibels((20.0 * g.log10()) as f32) }
}

fn tween() -> Tween {
    Tween { duration: FADE, ..Tween::default() }
}

impl Audio {
    /// No output: every method does nothing.
    pub fn silent() -> Audio {
        Audio { out: None }
    }

    /// The sound output for the game: silent without a word when `LEDGE_AUDIO=off`, else
    /// [`Audio::open`] with the sounds in `sounds_dir`; when that fails, one line
    /// `ledge: warning: ...: the game plays silently` on stderr and a silent [`Audio`].
    pub fn open_or_silent(sounds_dir: &Path, volume: &Volume) -> Audio {
        if std::env::var(AUDIO_ENV).is_ok_and(|v| v.eq_ignore_ascii_case("off")) {
            log::info!("{AUDIO_ENV}=off: no sound");
            return Audio::silent();
        }
        match Audio::open(sounds_dir, volume) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("ledge: warning: {e}: the game plays silently");
                Audio::silent()
            }
        }
    }

    /// [`Audio::open_or_silent`] at the saved volumes (`save`'s settings), with the sounds in
    /// the assets folder's `sounds/` (silent, with one warning line, when there is no assets
    /// folder).
    pub fn for_game(save: &crate::save::Store) -> Audio {
        match crate::assets::assets_dir() {
            Ok(a) => Audio::open_or_silent(&a.join("sounds"), &save.settings().volume),
            Err(e) => {
                eprintln!("ledge: warning: {e}: the game plays silently");
                Audio::silent()
            }
        }
    }

    /// Open the default output device, add the music and effects tracks at `volume`, decode
    /// every cue's sound and both music loops from `sounds_dir` (`NAME.wav`).
    ///
    /// # Errors
    /// [`AudioError::Device`] without a usable device, [`AudioError::Sound`] for a missing or
    /// undecodable file, [`AudioError::Mixer`] when a track cannot be added.
    pub fn open(sounds_dir: &Path, volume: &Volume) -> Result<Audio, AudioError> {
        let load = |stem: &str| {
            let path = sounds_dir.join(format!("{stem}.wav"));
            // Through read_limit, which the browser build serves from the fetched files.
            let bytes = crate::read_limit::read_file_at_most(&path, MAX_SOUND_BYTES)
                .map_err(|e| AudioError::Sound { path: path.clone(), message: e.to_string() })?;
            StaticSoundData::from_cursor(std::io::Cursor::new(bytes))
                .map_err(|e| AudioError::Sound { path: path.clone(), message: e.to_string() })
        };
        let cues = Cue::ALL.iter().map(|c| load(c.name())).collect::<Result<Vec<_>, _>>()?;
        let level_music = load(Music::Level.name())?.loop_region(..);
        let menu_music = load(Music::Menu.name())?.loop_region(..);
        let mut manager = alsa_log::quietly(|| {
            AudioManager::<DeviceBackend>::new(AudioManagerSettings::default())
                .map_err(|e| AudioError::Device(e.to_string()))
        })?;
        let mut track = |gain: f64| {
            manager
                .add_sub_track(TrackBuilder::new().volume(gain_to_decibels(gain)))
                .map_err(|e| AudioError::Mixer(e.to_string()))
        };
        let effects = track(volume.effects)?;
        let music = track(volume.music)?;
        manager.main_track().set_volume(gain_to_decibels(volume.master), Tween::default());
        log::info!("audio: output open");
        Ok(Audio {
            out: Some(Output {
                manager,
                effects,
                music,
                cues,
                level_music,
                menu_music,
                playing: None,
                music_rate: 1.0,
            }),
        })
    }

    /// No device is open: nothing is heard.
    pub fn is_silent(&self) -> bool {
        self.out.is_none()
    }

    /// Call once per render frame, on the event loop, at `now` (never from the tick): when the
    /// device has gone away, one warning line on stderr, `ledge: warning: sound device lost
    /// (REASON): the game plays silently until it is back`, and attempts to open the default
    /// device again (at once, then at most once per [`recovery::RETRY`], off this thread);
    /// when one plays, sound again (logged at info level). One atomic load a frame while the
    /// device plays; never blocks.
    pub fn watch(&mut self, now: Instant) {
        let Some(o) = &mut self.out else { return };
        match o.manager.backend_mut().watch(now) {
            Some(DeviceEvent::Lost(why)) => {
                eprintln!(
                    "ledge: warning: sound device lost ({why}): the game plays silently until it is back"
                );
            }
            Some(DeviceEvent::Back) => log::info!("audio: a sound device plays again"),
            None => {}
        }
    }

    /// Play `cue` now on the effects track (the menus call this for `menu_move` and
    /// `menu_confirm`). A full voice table drops the sound (logged at debug level). While the
    /// device is lost ([`Audio::watch`]) nothing is queued: kira's mixer does not run then, and
    /// what was queued would all sound at once when the device is back.
    pub fn play(&mut self, cue: Cue) {
        let Some(o) = &mut self.out else { return };
        if !o.manager.backend_mut().is_playing() {
            return;
        }
        let i = Cue::ALL.iter().position(|c| *c == cue).unwrap_or(0);
        if let Err(e) = o.effects.play(o.cues[i].clone()) {
            log::debug!("audio: {} not played: {e}", cue.name());
        }
    }

    /// Play `cue` on the effects track and keep its handle (a race's sounds, which a rollback
    /// may stop: [`rollsafe`]); `None` when silent or when it could not play.
    pub fn play_kept(&mut self, cue: Cue) -> Option<StaticSoundHandle> {
        let o = self.out.as_mut()?;
        if !o.manager.backend_mut().is_playing() {
            return None;
        }
        let i = Cue::ALL.iter().position(|c| *c == cue).unwrap_or(0);
        o.effects.play(o.cues[i].clone()).ok()
    }

    /// A race frame's simulated ticks (`(tick, cues)`, re-simulations included) through
    /// `ledger`: each (cue, tick) played once, a rolled-back one stopped at once (a 10 ms fade).
    pub fn play_race(
        &mut self,
        ledger: &mut rollsafe::Ledger<Option<StaticSoundHandle>>,
        ticks: &[(u64, crate::sim::cues::CueSet)],
    ) {
        ledger.update(
            ticks,
            |cue| self.play_kept(cue),
            |_, h| {
                if let Some(h) = h {
                    h.stop(Tween { duration: Duration::from_millis(10), ..Tween::default() });
                }
            },
        );
    }

    /// Play the cues of the ticks one frame ran, each tick's once, in tick order (rewind ticks
    /// have none). Call once per frame with that frame's ticks.
    pub fn play_ticks(&mut self, ticks: &[TickRecord]) {
        for t in ticks.iter().filter(|t| !t.rewound) {
            for cue in t.sounds.iter() {
                self.play(cue);
            }
        }
    }

    /// Set the three volumes (linear gains in 0..=1, the settings' `[volume]`), fading over
    /// 20 ms. The settings screen calls this when a volume changes.
    pub fn set_volumes(&mut self, volume: &Volume) {
        let Some(o) = &mut self.out else { return };
        o.manager.main_track().set_volume(gain_to_decibels(volume.master), tween());
        o.music.set_volume(gain_to_decibels(volume.music), tween());
        o.effects.set_volume(gain_to_decibels(volume.effects), tween());
    }

    /// Loop `music` on the music track from its start, stopping the loop that played before
    /// (nothing changes when `music` is already playing).
    pub fn play_music(&mut self, music: Music) {
        let Some(o) = &mut self.out else { return };
        if o.playing.as_ref().is_some_and(|(m, _)| *m == music) {
            return;
        }
        if let Some((_, mut h)) = o.playing.take() {
            h.stop(tween());
        }
        let data = match music {
            Music::Level => o.level_music.clone(),
            Music::Menu => o.menu_music.clone(),
        };
        match o.music.play(data.playback_rate(o.music_rate)) {
            Ok(h) => o.playing = Some((music, h)),
            Err(e) => log::debug!("audio: {} not played: {e}", music.name()),
        }
    }

    /// Play the music at `rate` times its speed (pitch and tempo), the game-speed assist's
    /// factor (0.5–1): at 50 % the music runs at half speed, an octave down, as the game does.
    /// Effects keep their pitch: each one is a tick's event, already slowed with the ticks.
    pub fn set_music_rate(&mut self, rate: f64) {
        let Some(o) = &mut self.out else { return };
        o.music_rate = rate;
        if let Some((_, h)) = &mut o.playing {
            h.set_playback_rate(rate, tween());
        }
    }

    /// Pause the music (the game is paused); effects already playing finish.
    pub fn pause_music(&mut self) {
        if let Some(o) = &mut self.out {
            o.music.pause(tween());
        }
    }

    /// Resume the music where it was paused.
    pub fn resume_music(&mut self) {
        if let Some(o) = &mut self.out {
            o.music.resume(tween());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains_become_decibels() {
        assert_eq!(gain_to_decibels(1.0), Decibels(0.0));
        assert!((gain_to_decibels(0.5).0 - (-6.0206)).abs() < 1e-3);
        assert_eq!(gain_to_decibels(0.0), Decibels::SILENCE);
        assert_eq!(gain_to_decibels(-1.0), Decibels::SILENCE);
        assert_eq!(gain_to_decibels(2.0), Decibels(0.0));
    }

    #[test]
    fn a_silent_output_does_nothing_and_never_panics() {
        let mut a = Audio::silent();
        assert!(a.is_silent());
        a.play(Cue::Jump);
        a.play_music(Music::Level);
        a.pause_music();
        a.resume_music();
        a.set_volumes(&Volume { master: 0.5, music: 0.5, effects: 0.5 });
    }

    #[test]
    fn a_missing_sound_file_is_a_sound_error_naming_it() {
        let dir = std::env::temp_dir().join("ledge-audio-test-no-sounds");
        let e = Audio::open(&dir, &Volume { master: 1.0, music: 1.0, effects: 1.0 }).unwrap_err();
        assert!(matches!(&e, AudioError::Sound { path, .. } if path.ends_with("jump.wav")), "{e}");
    }
}
