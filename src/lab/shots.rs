//! `ledge lab SCRIPT --shot FRAME=PATH.png`: draw chosen frames of a lab run off-screen.
//!
//! Clock: scripted (the lab's). Each shot is drawn after its frame's ticks, from the same
//! [`FrameView`](crate::render::view::FrameView) the game would draw, through the renderer's
//! off-screen path (`render::sprites::Offscreen`, lavapipe on machines without a GPU).

use crate::game_loop::Loop;
use crate::render::sprites::Offscreen;
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

/// Draws the requested frames as the lab runs.
pub struct Shooter {
    wanted: BTreeMap<u64, PathBuf>,
    offscreen: Option<Offscreen>,
}

impl Shooter {
    /// Shots to take: frame index → PNG path.
    pub fn new(wanted: BTreeMap<u64, PathBuf>) -> Self {
        Shooter { wanted, offscreen: None }
    }

    /// Called after every frame: draw it if a shot was asked for.
    ///
    /// # Errors
    /// No GPU adapter (not even a software one), or the PNG cannot be written.
    pub fn observe(&mut self, frame: u64, lp: &Loop) -> Result<(), String> {
        let Some(path) = self.wanted.remove(&frame) else { return Ok(()) };
        if self.offscreen.is_none() {
            self.offscreen = Some(Offscreen::new().map_err(|e| format!("--shot: {e}"))?);
        }
        let off = self.offscreen.as_mut().expect("set above");
        let (w, h) = SHOT_SIZE;
        let pixels = off.render(&lp.view(), w, h).map_err(|e| format!("--shot {frame}: {e}"))?;
        save_png(&path, w, h, &pixels)
    }

    /// Frames asked for that the script never reached.
    pub fn missed(&self) -> Vec<u64> {
        self.wanted.keys().copied().collect()
    }
}
