//! libasound's own error messages, kept off stderr. By default libasound prints them straight
//! to stderr ("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'", "ALSA lib
//! pcm_file.c:443:(snd_pcm_file_write_bytes) ... write failed ...: Broken pipe"); the game
//! wants one warning line of its own instead. libasound's handler for them is per thread
//! (`snd_lib_error_set_local`, through the `alsa` crate's `Output::local_error_handler`), so it
//! is installed on every thread that calls into libasound: the event loop's while it opens the
//! device ([`quietly`]), the device-opening thread ([`quietly`] again) and the cpal stream's
//! own thread ([`catch_here`], from the stream's callback).
//!
//! Clock: none (called on whichever thread talks to libasound).

/// Run `f` with libasound's messages on this thread caught in a buffer instead of printed, and
/// logged at debug level once `f` returns.
#[cfg(target_os = "linux")]
pub fn quietly<T>(f: impl FnOnce() -> T) -> T {
    let caught = alsa::Output::local_error_handler();
    let result = f();
    if let Ok(buf) = caught {
        log_lines(&buf.borrow().to_string());
    }
    result
}

/// Run `f` (libasound is Linux only: nothing to catch elsewhere).
#[cfg(not(target_os = "linux"))]
pub fn quietly<T>(f: impl FnOnce() -> T) -> T {
    f()
}

#[cfg(target_os = "linux")]
type Caught = std::rc::Rc<std::cell::RefCell<alsa::Output>>;

#[cfg(target_os = "linux")]
std::thread_local! {
    /// This thread's buffer for libasound's messages, once [`catch_here`] installed it.
    static CAUGHT: std::cell::RefCell<Option<Caught>> = const { std::cell::RefCell::new(None) };
}

/// From now on, catch libasound's messages on this thread in a buffer ([`take_caught`] reads
/// it). Cheap after the first call on a thread (one thread-local look-up), so the audio
/// callback calls it every time; the first call allocates libasound's buffer.
#[cfg(target_os = "linux")]
pub fn catch_here() {
    CAUGHT.with_borrow_mut(|c| {
        if c.is_none() {
            *c = alsa::Output::local_error_handler().ok();
        }
    });
}

/// Nothing to catch off Linux.
#[cfg(not(target_os = "linux"))]
pub fn catch_here() {}

/// The messages libasound wrote on this thread since [`catch_here`] (or the last call), one a
/// line, and an empty buffer from now on; `""` when none were caught. Allocates: call it when
/// something failed, not in every audio callback.
#[cfg(target_os = "linux")]
pub fn take_caught() -> String {
    CAUGHT.with_borrow_mut(|c| {
        let Some(buf) = c.as_ref() else { return String::new() };
        let text = buf.borrow().to_string();
        if !text.is_empty() {
            // A fresh buffer; the old one is closed when its last handle drops.
            *c = alsa::Output::local_error_handler().ok();
        }
        text
    })
}

/// Nothing is caught off Linux.
#[cfg(not(target_os = "linux"))]
pub fn take_caught() -> String {
    String::new()
}

/// Each non-empty line of `text` (libasound's messages) at debug level.
pub fn log_lines(text: &str) {
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        log::debug!("audio: libasound: {line}");
    }
}
