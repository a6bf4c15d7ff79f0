//! `ledge lab SCRIPT --shot FRAME=PATH.png`: draw chosen frames of a lab run off-screen.
//!
//! Clock: scripted (the lab's). Each shot is drawn after its frame's ticks, from the same
//! [`FrameView`] the game would draw, by a [`FrameObserver`]: the lab never links a GPU
//! crate, so `main` supplies one backed by the off-screen renderer (`render::Offscreen`,
//! lavapipe on machines without a GPU). A lab-only build (no `game` feature) has none, and
//! `--shot` says so.

use crate::assets::{AssetError, save_png};
use crate::game_loop::Loop;
use crate::present::view::FrameView;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Shot image size, pixels: the game's default window (640x360 view at scale 2).
pub const SHOT_SIZE: (u32, u32) = (1280, 720);

/// A `--shot` that cannot be taken; one line.
#[derive(Debug, thiserror::Error)]
pub enum ShotError {
    /// `--shot ARG` is not `FRAME=PATH`.
    #[error("--shot {0}: expected FRAME=PATH.png")]
    Form(String),
    /// FRAME is not a frame index.
    #[error("--shot {0}: FRAME must be a frame index (0, 1, ...)")]
    Frame(String),
    /// PATH is empty.
    #[error("--shot {0}: missing PATH")]
    MissingPath(String),
    /// This build has no renderer to draw with.
    #[error("--shot: this ledge was built without the `game` feature (no renderer)")]
    NoRenderer,
    /// The observer could not draw the frame.
    #[error("--shot {frame}: {msg}")]
    Draw {
        /// The frame index.
        frame: u64,
        /// The observer's error, on one line.
        msg: String,
    },
    /// The image could not be written.
    #[error(transparent)]
    Png(#[from] AssetError),
}

/// An observer's error: whatever its renderer reports (the lab cannot name GPU error types).
pub type ObserverError = Box<dyn std::error::Error + Send + Sync>;

/// Parse `FRAME=PATH` (FRAME a frame index from 0, as in the report).
///
/// # Errors
/// [`ShotError::Form`], [`ShotError::Frame`] or [`ShotError::MissingPath`].
pub fn parse_shot(arg: &str) -> Result<(u64, PathBuf), ShotError> {
    let (frame, path) = arg.split_once('=').ok_or_else(|| ShotError::Form(arg.to_owned()))?;
    let frame = frame.trim().parse::<u64>().map_err(|_| ShotError::Frame(arg.to_owned()))?;
    if path.is_empty() {
        return Err(ShotError::MissingPath(arg.to_owned()));
    }
    Ok((frame, PathBuf::from(path)))
}

/// Draws a frame the lab was asked to shoot. The lab calls it only for those frames, after
/// their ticks; `main` supplies one backed by the off-screen renderer.
pub trait FrameObserver {
    /// Draw `view` into a `width` x `height` image: RGBA8 sRGB, row-major from the top-left,
    /// `width * height * 4` bytes.
    ///
    /// # Errors
    /// The renderer's error (no GPU adapter, not even a software one; a readback failure).
    fn draw(&mut self, view: &FrameView<'_>, width: u32, height: u32) -> Result<Vec<u8>, ObserverError>;
}

/// Draws the requested frames as the lab runs, through a [`FrameObserver`].
pub struct Shooter<'o> {
    wanted: BTreeMap<u64, PathBuf>,
    observer: Option<&'o mut dyn FrameObserver>,
}

impl<'o> Shooter<'o> {
    /// Shots to take: frame index → PNG path, drawn by `observer` (`None` where this build
    /// has no renderer: asking for a shot is then an error).
    pub fn new(wanted: BTreeMap<u64, PathBuf>, observer: Option<&'o mut dyn FrameObserver>) -> Self {
        Shooter { wanted, observer }
    }

    /// Called after every frame: draw it if a shot was asked for.
    ///
    /// # Errors
    /// No renderer in this build, the observer's error, or the PNG cannot be written.
    pub fn observe(&mut self, frame: u64, lp: &Loop) -> Result<(), ShotError> {
        let Some(path) = self.wanted.remove(&frame) else { return Ok(()) };
        let observer = self.observer.as_deref_mut().ok_or(ShotError::NoRenderer)?;
        let (w, h) = SHOT_SIZE;
        let pixels =
            observer.draw(&lp.view(), w, h).map_err(|e| ShotError::Draw { frame, msg: e.to_string() })?;
        Ok(save_png(&path, w, h, &pixels)?)
    }

    /// Frames asked for that the script never reached.
    pub fn missed(&self) -> Vec<u64> {
        self.wanted.keys().copied().collect()
    }
}
