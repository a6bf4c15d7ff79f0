//! The sound device under kira: a kira [`Backend`] on cpal that lets the device go away and
//! come back while the game plays on (issue #20; docs/architecture.md "Sound").
//!
//! What happened before, with kira's own cpal backend, when the test's software card
//! (`tests/common/alsa_sink.py`, behind ALSA's `plug` → `file` → `null`) lost its reader
//! mid-game: the `file` plugin's write into the pipe failed (`EPIPE`; libasound printed "ALSA
//! lib pcm_file.c:443:(snd_pcm_file_write_bytes) ... write failed, file data may be corrupt:
//! Broken pipe" on stderr), `snd_pcm_writei` returned `EIO` (cpal's `BackendError`, which
//! kira ignores), and on its next turn cpal's stream thread asked for the stream's status,
//! where libasound 1.2.8 asserts (`pcm_plugin.c:572: snd_pcm_plugin_status: Assertion
//! 'status->appl_ptr == *pcm->appl.ptr' failed`: `plug` counted the frames its `null` slave
//! took, `file` refused them) and aborts the process: the game died with SIGABRT (exit 134,
//! no summary) within 0.3 s, three runs out of three. kira's own recovery
//! (`backend/cpal/desktop/stream_manager.rs`, 0.12.6) would not have helped: it looks at the
//! errors every 500 ms, rebuilds the stream only for `DeviceNotAvailable` or
//! `StreamInvalidated`, once, with an `.unwrap()` (a panic on its thread, and the mixer lost,
//! when that fails), and never tries again.
//!
//! This backend does instead:
//!
//! - kira's mixer ([`Renderer`]) lives behind a mutex the stream's callback locks (`try_lock`:
//!   the audio thread never waits; silence if it cannot), so a stream can be dropped and a new
//!   one built without losing what plays: the music goes on where it stopped;
//! - any stream error but an underrun (`Xrun`), a followed route change (`DeviceChanged`) or a
//!   refused real-time priority (`RealtimeDenied`) marks the stream lost, and, on Linux (cpal's
//!   ALSA host, whose stream thread is plain Rust calling the error callback from its loop),
//!   the error callback ends that thread there and then with
//!   [`std::panic::resume_unwind`] (no panic message: the hook is not called; cpal's drop
//!   ignores the thread's result), so it never touches the failed PCM again: no status call,
//!   no assertion. This needs `panic = "unwind"` (the default; `Cargo.toml` sets no other).
//!   Elsewhere, or built to abort on panic, the lost stream's callback writes silence and naps
//!   [`LOST_NAP`] until it is dropped;
//! - [`DeviceBackend::watch`], called once per render frame on the event loop, sees the loss
//!   (one atomic load per frame otherwise), reports it once ([`DeviceEvent::Lost`]) and starts
//!   a short-lived thread that drops the dead stream and opens the default device again: at
//!   once after a loss, then no sooner than [`RETRY`] after the previous attempt started
//!   ([`Recovery`] decides). Opening runs off the event loop because it may block: the `file`
//!   plugin opens its named pipe for writing, which waits until a reader opens it (so with the
//!   test's card the first attempt simply waits for the next reader; an attempt that blocks is
//!   waited for, however long, and no second one starts meanwhile). A new stream plays at
//!   once; once it has played [`PLAYS_FOR`](super::recovery::PLAYS_FOR) without failing it
//!   is [`DeviceEvent::Back`], and one that fails sooner is the same loss (no second warning).
//!
//! libasound's messages on the stream's thread and the opening thread are caught
//! (`alsa_log.rs`); the first one of a failure is part of its reason.
//!
//! Clock: event loop ([`DeviceBackend::watch`], per render frame); the stream's callback runs
//! on cpal's audio thread, opening on its own thread.

use super::alsa_log;
use super::recovery::{RETRY, Recovery};
use kira::backend::cpal::cpal;
use kira::backend::{Backend, Renderer};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;
use web_time::Instant;

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

/// The period asked of the device, frames: cpal sets up two periods, so at 48 kHz the device
/// buffer is 2 × 512 / 48000 = 21 ms. Left to itself, ALSA may choose a buffer of a third of a
/// second (the `null` and `file` plugins do), which is heard as a late jump. A device that
/// refuses it gets its own default.
pub const PERIOD_FRAMES: u32 = 512;

/// What a lost stream's callback sleeps each time it is called, until it is dropped (at most a
/// frame later): a period's worth at 48 kHz (512 / 48000 = 10.7 ms), so a device that takes
/// samples without waiting (ALSA's `null`) costs no more CPU than a working one.
pub const LOST_NAP: Duration = Duration::from_millis(10);

/// Why the sound output could not be opened.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DeviceError(pub String);

/// kira's mixer and the sample rate it renders at, shared by the stream playing it and the
/// thread opening the next stream.
struct Mixer {
    renderer: Renderer,
    sample_rate: u32,
}

type SharedMixer = Arc<Mutex<Mixer>>;

/// One stream's failure, written by its error callback on the audio thread, and whether its
/// callback ran.
#[derive(Default)]
struct Health {
    lost: AtomicBool,
    /// The first failure's words.
    why: Mutex<String>,
    /// The stream's callback has been called (it renders the mixer, or silence).
    called: AtomicBool,
}

impl Health {
    fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Acquire)
    }

    /// Mark the stream lost with `why` (only the first failure is kept).
    fn lose(&self, why: String) {
        if let Ok(mut w) = self.why.lock()
            && w.is_empty()
        {
            *w = why;
        }
        self.lost.store(true, Ordering::Release);
    }

    fn why(&self) -> String {
        self.why.lock().map(|w| w.clone()).unwrap_or_default()
    }

    fn has_played(&self) -> bool {
        self.called.load(Ordering::Relaxed)
    }
}

/// A stream built for the mixer, with its own health.
struct Built {
    stream: cpal::Stream,
    health: Arc<Health>,
}

/// A stream that plays, and since when (the event loop's clock).
struct Playing {
    built: Built,
    since: Instant,
}

enum State {
    /// After `setup`, before `start`: the default device and its configuration.
    Ready { device: cpal::Device, config: cpal::StreamConfig },
    /// A stream plays (or has just failed: its health says).
    Playing(Playing),
    /// A thread is opening the device again.
    Opening(Receiver<Result<Built, String>>),
    /// The next attempt to open the device is due `at`; it drops the `dead` stream first.
    Waiting { at: Instant, dead: Option<cpal::Stream> },
    /// Between two of the above.
    Empty,
}

/// A change [`DeviceBackend::watch`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceEvent {
    /// The stream failed, for this reason (cpal's error, then libasound's first message): no
    /// sound until [`DeviceEvent::Back`].
    Lost(String),
    /// A new stream has played on the default device for [`PLAYS_FOR`](super::recovery::PLAYS_FOR).
    Back,
}

/// The kira backend on cpal's default output device that survives its loss (module docs).
pub struct DeviceBackend {
    state: State,
    /// The mixer, once kira handed it over (`start`).
    mixer: Option<SharedMixer>,
    /// Whether a loss is being reported, when the device was last tried.
    recovery: Recovery,
}

impl DeviceBackend {
    /// A stream plays and has not failed: what is played now is heard.
    pub fn is_playing(&self) -> bool {
        matches!(&self.state, State::Playing(p) if !p.built.health.is_lost())
    }

    /// Call once per render frame, on the event loop, at `now`. Sees a failed stream (one
    /// atomic load when there is none), starts an attempt to open the device again (at once
    /// after a loss, then no sooner than [`RETRY`] after the previous attempt started), takes
    /// the new stream when an attempt built one. Returns what changed: [`DeviceEvent::Lost`]
    /// once per loss, [`DeviceEvent::Back`] once a new stream has played
    /// [`PLAYS_FOR`](super::recovery::PLAYS_FOR) ([`Recovery`] decides). Never blocks: opening runs on a thread of its own.
    pub fn watch(&mut self, now: Instant) -> Option<DeviceEvent> {
        let mixer = self.mixer.clone()?;
        let mut event = None;
        self.state = match std::mem::replace(&mut self.state, State::Empty) {
            State::Playing(p) if p.built.health.is_lost() => {
                let why = p.built.health.why();
                if self.recovery.failed() {
                    event = Some(DeviceEvent::Lost(why));
                } else {
                    log::debug!("audio: the new stream failed too ({why})");
                }
                self.attempt_or_wait(Some(p.built.stream), mixer, now)
            }
            State::Playing(p) => {
                if self.recovery.steady(p.built.health.has_played(), p.since, now) {
                    event = Some(DeviceEvent::Back);
                }
                State::Playing(p)
            }
            State::Opening(rx) => match rx.try_recv() {
                Ok(Ok(built)) => State::Playing(Playing { built, since: now }),
                Ok(Err(e)) => {
                    log::debug!("audio: no device yet ({e})");
                    self.attempt_or_wait(None, mixer, now)
                }
                Err(TryRecvError::Empty) => State::Opening(rx),
                Err(TryRecvError::Disconnected) => {
                    log::debug!("audio: the opening thread ended without a word");
                    self.attempt_or_wait(None, mixer, now)
                }
            },
            State::Waiting { at, dead } if now >= at => self.attempt_or_wait(dead, mixer, now),
            other => other,
        };
        event
    }

    /// Start an attempt to open the device (dropping `dead` first) if one may start at `now`,
    /// else wait until it may.
    fn attempt_or_wait(&mut self, dead: Option<cpal::Stream>, mixer: SharedMixer, now: Instant) -> State {
        match self.recovery.attempt(now) {
            Ok(()) => open_again(dead, mixer, now),
            Err(at) => State::Waiting { at, dead },
        }
    }
}

impl Backend for DeviceBackend {
    type Settings = ();
    type Error = DeviceError;

    /// The default output device and its default configuration; its sample rate, Hz.
    fn setup(_settings: (), _internal_buffer_size: usize) -> Result<(Self, u32), DeviceError> {
        let (device, config) = default_device().map_err(DeviceError)?;
        let rate = config.sample_rate;
        let state = State::Ready { device, config };
        Ok((DeviceBackend { state, mixer: None, recovery: Recovery::default() }, rate))
    }

    /// Play kira's mixer on the device found by `setup`.
    fn start(&mut self, renderer: Renderer) -> Result<(), DeviceError> {
        let State::Ready { device, config } = std::mem::replace(&mut self.state, State::Empty) else {
            return Err(DeviceError("the sound output was started twice".into()));
        };
        let mixer = Arc::new(Mutex::new(Mixer { renderer, sample_rate: config.sample_rate }));
        let built = play(&device, config, &mixer).map_err(DeviceError)?;
        self.state = State::Playing(Playing { built, since: Instant::now() });
        self.mixer = Some(mixer);
        Ok(())
    }
}

/// cpal's default output device and its default configuration.
fn default_device() -> Result<(cpal::Device, cpal::StreamConfig), String> {
    let device = cpal::default_host().default_output_device().ok_or("no default output device")?;
    let config = device.default_output_config().map_err(|e| e.to_string())?.config();
    Ok((device, config))
}

/// A thread that drops `old` (a failed stream: dropping joins its audio thread) and opens the
/// default device again for `mixer`; [`State::Opening`] with its answer to come, or
/// [`State::Waiting`] for [`RETRY`] when no thread could be started.
fn open_again(old: Option<cpal::Stream>, mixer: SharedMixer, now: Instant) -> State {
    let (tx, rx) = mpsc::sync_channel(1);
    let spawned = thread::Builder::new().name("ledge-audio-open".into()).spawn(move || {
        let result = alsa_log::quietly(|| {
            drop(old);
            let (device, config) = default_device()?;
            {
                let mut m = mixer.lock().unwrap_or_else(|e| e.into_inner());
                if m.sample_rate != config.sample_rate {
                    m.renderer.on_change_sample_rate(config.sample_rate);
                    m.sample_rate = config.sample_rate;
                }
            }
            play(&device, config, &mixer)
        });
        // The receiver is gone when the game has ended meanwhile: the stream then just drops.
        let _ = tx.send(result);
    });
    match spawned {
        Ok(_) => State::Opening(rx),
        Err(e) => {
            log::debug!("audio: no thread to open the device ({e}); trying again in {RETRY:?}");
            State::Waiting { at: now + RETRY, dead: None }
        }
    }
}

/// A playing stream of `mixer` on `device`: with a [`PERIOD_FRAMES`] period first, the
/// device's own default when it refuses that.
fn play(device: &cpal::Device, config: cpal::StreamConfig, mixer: &SharedMixer) -> Result<Built, String> {
    let short = cpal::StreamConfig { buffer_size: cpal::BufferSize::Fixed(PERIOD_FRAMES), ..config };
    stream(device, short, mixer).or_else(|e| {
        log::info!("audio: no {PERIOD_FRAMES}-frame period ({e}); the device's default");
        stream(device, config, mixer).map_err(|e| e.to_string())
    })
}

/// Build and start one stream of `mixer` on `device` with `config`.
fn stream(
    device: &cpal::Device,
    config: cpal::StreamConfig,
    mixer: &SharedMixer,
) -> Result<Built, cpal::Error> {
    let health = Arc::new(Health::default());
    let (m, h) = (mixer.clone(), health.clone());
    let channels = config.channels;
    let data = move |out: &mut [f32], _: &cpal::OutputCallbackInfo| {
        alsa_log::catch_here();
        h.called.store(true, Ordering::Relaxed);
        if h.is_lost() {
            out.fill(0.0);
            thread::sleep(LOST_NAP);
            return;
        }
        match m.try_lock() {
            Ok(mut mx) => {
                mx.renderer.on_start_processing();
                mx.renderer.process(out, channels);
            }
            Err(_) => out.fill(0.0),
        }
    };
    let h = health.clone();
    let error = move |e: cpal::Error| {
        let said = alsa_log::take_caught();
        match e.kind() {
            cpal::ErrorKind::Xrun | cpal::ErrorKind::DeviceChanged | cpal::ErrorKind::RealtimeDenied => {
                log::debug!("audio: {e}");
                alsa_log::log_lines(&said);
            }
            _ if h.is_lost() => {}
            _ => {
                h.lose(reason(&e, &said));
                end_stream_thread();
            }
        }
    };
    let stream = device.build_output_stream(config, data, error, None)?;
    stream.play()?;
    Ok(Built { stream, health })
}

/// What cpal's ALSA stream thread unwinds with when this backend ends it ([`end_stream_thread`]).
#[cfg(all(target_os = "linux", panic = "unwind"))]
struct StreamLost;

/// End the stream's thread from its error callback, quietly ([`std::panic::resume_unwind`]
/// does not call the panic hook): cpal's ALSA thread calls the callback from its own loop,
/// plain Rust frames, and its stream's drop ignores how the thread ended. Stops it from asking
/// a failed PCM for its status (libasound's assertion, module docs).
#[cfg(all(target_os = "linux", panic = "unwind"))]
fn end_stream_thread() -> ! {
    std::panic::resume_unwind(Box::new(StreamLost))
}

/// Off Linux, or built to abort on panic: the stream thread goes on, its callback writes
/// silence and naps [`LOST_NAP`] until the stream is dropped.
#[cfg(not(all(target_os = "linux", panic = "unwind")))]
fn end_stream_thread() {}

/// A failure's words: cpal's error, then libasound's first message when it said one.
fn reason(e: &cpal::Error, libasound: &str) -> String {
    match libasound.lines().map(str::trim).find(|l| !l.is_empty()) {
        Some(first) => format!("{e}; libasound: {first}"),
        None => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_reason_names_libasound_s_first_line() {
        let e = cpal::Error::from(cpal::ErrorKind::BackendError);
        assert_eq!(reason(&e, ""), e.to_string());
        assert_eq!(reason(&e, "\nf: it broke\ng: again\n"), format!("{e}; libasound: f: it broke"));
    }

    #[test]
    fn only_the_first_failure_is_kept() {
        let h = Health::default();
        assert!(!h.is_lost());
        h.lose("first".into());
        h.lose("second".into());
        assert!(h.is_lost());
        assert_eq!(h.why(), "first");
    }
}
