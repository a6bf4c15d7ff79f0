//! Hot reload on screen (docs/levels.md "Hot reload"): the banner across the bottom of the view
//! while a file being watched does not load — the file, the line and the message, over an
//! opaque red panel — until a good save. The "reloaded NAME" notice is a line of the HUD
//! ([`super::Hud::notice`]).
//!
//! Clock: render frame. Pure: builds quads and text into a [`Layer`].

use super::hud::truncate;
use super::layout::{Layer, Rect, Screen, rect_quad};
use super::style::colors;
use crate::present::text::{LINE_HEIGHT, TextItem, mono_width};

/// The banner's panel, sRGB: a dark red (a choice: the text colours read on it), drawn opaque
/// (the windowed test finds the banner by this colour).
pub const BANNER_PANEL: [u8; 3] = [112, 22, 26];

/// The banner's second line.
pub const BANNER_HINT: &str = "the last good version plays on; save the file again to reload";

/// A watched file that did not load, as the banner shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenFile {
    /// The file's name as shown (its name alone, or its path when that says more).
    pub file: String,
    /// The 1-based line the problem is on, when the loader says.
    pub line: Option<u32>,
    /// What is wrong, one line.
    pub message: String,
}

impl BrokenFile {
    /// `FILE:LINE: MESSAGE` (or `FILE: MESSAGE` without a line): the banner's first line and
    /// the warning the game prints.
    pub fn text(&self) -> String {
        match self.line {
            Some(line) => format!("{}:{line}: {}", self.file, self.message),
            None => format!("{}: {}", self.file, self.message),
        }
    }
}

/// The banner for `broken` (one line each, cut to the view's width, then [`BANNER_HINT`]) on a
/// [`BANNER_PANEL`] panel along the bottom of the view. Returns the panel's rectangle; nothing
/// is drawn (and a zero rectangle returned) when `broken` is empty.
pub fn broken_banner(out: &mut Layer, scr: &Screen, broken: &[BrokenFile]) -> Rect {
    if broken.is_empty() {
        return Rect { x: 0.0, y: 0.0, w: 0.0, h: 0.0 };
    }
    let size = scr.text_px();
    let line = (size * LINE_HEIGHT).round();
    let pad = 3.0 * scr.s;
    let x = scr.view.x as f32 + 4.0 * scr.s;
    let w = scr.view.w as f32 - 8.0 * scr.s;
    let fits = ((w - 2.0 * pad) / mono_width(1, size)).floor().max(1.0) as usize;
    let mut lines: Vec<(String, [u8; 4])> =
        broken.iter().map(|b| (truncate(&b.text(), fits), colors::TITLE)).collect();
    lines.push((truncate(BANNER_HINT, fits), colors::TEXT));
    let h = lines.len() as f32 * line + 2.0 * pad;
    let y = (scr.view.y + scr.view.h) as f32 - 4.0 * scr.s - h;
    let panel = Rect { x: x.round(), y: y.round(), w: w.round(), h: h.round() };
    out.quads.push(rect_quad(panel, BANNER_PANEL, 1.0));
    for (i, (text, color)) in lines.into_iter().enumerate() {
        out.text.push(TextItem::new(text, panel.x + pad, panel.y + pad + i as f32 * line, size, color));
    }
    panel
}

#[cfg(test)]
mod tests {
    use super::*;

    fn broken(line: Option<u32>) -> BrokenFile {
        BrokenFile { file: "level3.tmx".into(), line, message: "not well-formed XML: bad tag".into() }
    }

    #[test]
    fn the_banner_names_the_file_and_line_at_the_bottom_of_the_view() {
        let scr = Screen::new(1280, 720);
        let mut out = Layer::default();
        let r = broken_banner(&mut out, &scr, &[broken(Some(14))]);
        assert_eq!(out.text[0].text, "level3.tmx:14: not well-formed XML: bad tag");
        assert_eq!(out.text[1].text, BANNER_HINT);
        assert!(r.y + r.h <= 720.0 && r.y > 600.0, "{r:?}");
        assert_eq!(out.quads[0].uv_rect[3], 1.0, "opaque");
        assert_eq!(broken(None).text(), "level3.tmx: not well-formed XML: bad tag");
        let mut none = Layer::default();
        broken_banner(&mut none, &scr, &[]);
        assert_eq!(none, Layer::default());
    }

    #[test]
    fn a_long_message_is_cut_to_the_view() {
        let scr = Screen::new(640, 360);
        let mut out = Layer::default();
        let long = BrokenFile { message: "x".repeat(500), ..broken(Some(1)) };
        let r = broken_banner(&mut out, &scr, &[long, broken(Some(2))]);
        assert_eq!(out.text.len(), 3);
        for t in &out.text {
            let w = mono_width(t.text.chars().count(), t.size);
            assert!(t.x + w <= r.x + r.w, "{:?} leaves the panel", t.text);
        }
        assert!(out.text[0].text.ends_with('…'));
    }
}
