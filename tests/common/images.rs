//! PNG images in tests, read and written with the library's own reader and writer (one PNG
//! codec in the project): goldens, the atlas, debug dumps, windowed screenshots.
//!
//! Clock: none.

use ledge::assets::AssetError;
use std::path::Path;

/// A PNG's pixels as RGBA8, read with the game's own loader (`ledge::assets::load_png_rgba`):
/// (width, height, rgba).
///
/// # Errors
/// The file is missing or not a readable 8-bit PNG; the message names it.
pub fn load_rgba(path: &Path) -> Result<(u32, u32, Vec<u8>), AssetError> {
    ledge::assets::load_png_rgba(path)
}

/// Writes RGBA8 sRGB pixels as a PNG with the game's own writer (`ledge::assets::save_png`,
/// atomic).
///
/// # Errors
/// The file cannot be written; the message names it.
pub fn save_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<(), AssetError> {
    ledge::assets::save_png(path, width, height, rgba)
}

/// A screenshot's pixels as RGB bytes (alpha dropped; grey expanded): (width, height, rgb).
/// Fails the test when the file is not a readable PNG.
pub fn read_rgb(path: &Path) -> (usize, usize, Vec<u8>) {
    let (w, h, rgba) = load_rgba(path).unwrap_or_else(|e| panic!("screenshot: {e}"));
    let rgb = rgba.chunks_exact(4).flat_map(|px| [px[0], px[1], px[2]]).collect();
    (w as usize, h as usize, rgb)
}

/// The screenshot `png` cut to the window `rect` (x, y, width, height), written to
/// `LEDGE_E2E_SHOT_DIR/name` when that is set (the windowed tests' pictures for docs/).
pub fn keep_window_shot(png: &Path, rect: (usize, usize, usize, usize), name: &str) {
    let Some(dir) = std::env::var_os("LEDGE_E2E_SHOT_DIR") else { return };
    let (w, _, rgb) = read_rgb(png);
    let (x0, y0, ww, wh) = rect;
    let mut rgba = Vec::with_capacity(ww * wh * 4);
    for y in y0..y0 + wh {
        for x in x0..x0 + ww {
            let i = (y * w + x) * 3;
            rgba.extend_from_slice(&[rgb[i], rgb[i + 1], rgb[i + 2], 255]);
        }
    }
    save_png(&Path::new(&dir).join(name), ww as u32, wh as u32, &rgba).expect("keep the shot");
}
