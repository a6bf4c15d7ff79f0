//! Fast screenshots for the windowed tests that take a series: raw `xwd` grabs of the X
//! screen (about 70 ms each) decoded here, cropped to the game window, instead of `xwd |
//! convert` (about a second each). The same decoder as `tests/window_feel.rs`'s.
//!
//! Clock: wall time (runs `xwd`).

use super::images::save_png;
use super::proc::run_tool;
use super::xvfb::Xvfb;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The game window's pixels in one screenshot, RGB, `w` x `h`.
pub struct Shot {
    /// Width, pixels.
    pub w: usize,
    /// Height, pixels.
    pub h: usize,
    /// Row-major RGB bytes.
    pub rgb: Vec<u8>,
}

impl Shot {
    /// The pixel at (`x`, `y`).
    pub fn px(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.w + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// Writes the shot as a PNG at `path`, at half size (one pixel per level pixel at 2x).
    pub fn save_half(&self, path: &Path) {
        let px = |x, y| {
            let [r, g, b] = self.px(2 * x, 2 * y);
            [r, g, b, 255]
        };
        let rgba: Vec<u8> =
            (0..self.h / 2).flat_map(|y| (0..self.w / 2).flat_map(move |x| px(x, y))).collect();
        save_png(path, (self.w / 2) as u32, (self.h / 2) as u32, &rgba).expect("save a screenshot");
    }
}

/// Grabs the whole screen of `x` as a raw `xwd` file at `path`.
pub fn grab(x: &Xvfb, path: &Path) {
    let p = path.to_str().expect("utf-8 temp path");
    let (s, _, err) = run_tool(
        Command::new("xwd").args(["-root", "-silent", "-display", &x.display, "-out", p]),
        "xwd",
        Duration::from_secs(20),
    );
    assert!(s.success(), "xwd failed ({s}): {err}");
}

/// Decodes an `xwd` file as Xvfb's 24-bit TrueColor screen writes it (ZPixmap, 32 bits per
/// pixel, bytes B G R x), cropped to the rectangle `(x, y, w, h)` of the screen (a window, or
/// a small part of one: decoding only what a check reads keeps a series of grabs fast).
pub fn read_xwd(path: &Path, (rx, ry, rw, rh): (usize, usize, usize, usize)) -> Shot {
    let d = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let field = |i: usize| u32::from_be_bytes(d[i * 4..i * 4 + 4].try_into().unwrap()) as usize;
    let (header, width, height, stride, ncolors) = (field(0), field(4), field(5), field(12), field(19));
    let layout = [field(2), field(7), field(11), field(14), field(15), field(16)];
    assert_eq!(layout, [2, 0, 32, 0xff0000, 0xff00, 0xff], "{}: not a BGRx ZPixmap", path.display());
    assert!(
        rx + rw <= width && ry + rh <= height,
        "{rw}x{rh} at ({rx}, {ry}) not on the {width}x{height} screen"
    );
    let start = header + ncolors * 12;
    // Plain loops: the tests are built without optimisation, where iterator chains over a
    // million pixels take most of a second.
    let mut rgb = vec![0u8; rw * rh * 3];
    for y in 0..rh {
        let row = start + (ry + y) * stride + rx * 4;
        for x in 0..rw {
            let (i, o) = (row + x * 4, (y * rw + x) * 3);
            rgb[o] = d[i + 2];
            rgb[o + 1] = d[i + 1];
            rgb[o + 2] = d[i];
        }
    }
    Shot { w: rw, h: rh, rgb }
}
