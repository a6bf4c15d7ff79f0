//! `ledge lab SCRIPT --shot FRAME=PATH.png`: draw chosen frames of a lab run off-screen.
//!
//! Clock: scripted (the lab's). Each shot is drawn after its frame's ticks, from the same
//! [`FrameView`] the game would draw, by a [`FrameObserver`]: the lab never links a GPU
//! crate, so `main` supplies one backed by the off-screen renderer (`render::Offscreen`,
//! lavapipe on machines without a GPU). A lab-only build (no `game` feature) has none, and
//! `--shot` says so.

use crate::game_loop::Loop;
use crate::present::view::FrameView;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Shot image size, pixels: the game's default window (640x360 view at scale 2).
pub const SHOT_SIZE: (u32, u32) = (1280, 720);

/// Parse `FRAME=PATH` (FRAME a frame index from 0, as in the report).
///
/// # Errors
/// A one-line message when the form is wrong.
pub fn parse_shot(arg: &str) -> Result<(u64, PathBuf), String> {
    let (frame, path) =
        arg.split_once('=').ok_or_else(|| format!("--shot {arg}: expected FRAME=PATH.png"))?;
    let frame = frame
        .trim()
        .parse::<u64>()
        .map_err(|_| format!("--shot {arg}: FRAME must be a frame index (0, 1, ...)"))?;
    if path.is_empty() {
        return Err(format!("--shot {arg}: missing PATH"));
    }
    Ok((frame, PathBuf::from(path)))
}

/// Write RGBA8 sRGB pixels as a PNG, atomically (a temporary file renamed into place).
///
/// # Errors
/// The file cannot be written; the message names it.
pub fn save_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("png.partial");
    let write = || -> Result<(), Box<dyn std::error::Error>> {
        let file = std::fs::File::create(&tmp)?;
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), width, height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
        enc.write_header()?.write_image_data(rgba)?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", path.display())
    })
}

/// Draws a frame the lab was asked to shoot. The lab calls it only for those frames, after
/// their ticks; `main` supplies one backed by the off-screen renderer.
pub trait FrameObserver {
    /// Draw `view` into a `width` x `height` image: RGBA8 sRGB, row-major from the top-left,
    /// `width * height * 4` bytes.
    ///
    /// # Errors
    /// A one-line message (no GPU adapter, not even a software one; a readback failure).
    fn draw(&mut self, view: &FrameView<'_>, width: u32, height: u32) -> Result<Vec<u8>, String>;
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
    pub fn observe(&mut self, frame: u64, lp: &Loop) -> Result<(), String> {
        let Some(path) = self.wanted.remove(&frame) else { return Ok(()) };
        let observer = self.observer.as_deref_mut().ok_or_else(|| {
            "--shot: this ledge was built without the `game` feature (no renderer)".to_owned()
        })?;
        let (w, h) = SHOT_SIZE;
        let pixels = observer.draw(&lp.view(), w, h).map_err(|e| format!("--shot {frame}: {e}"))?;
        save_png(&path, w, h, &pixels)
    }

    /// Frames asked for that the script never reached.
    pub fn missed(&self) -> Vec<u64> {
        self.wanted.keys().copied().collect()
    }
}
