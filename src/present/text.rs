//! Text as plain data: [`TextItem`]s (what to write, where, how big, which colour) and the
//! monospace metrics that let the pure UI code size its panels without shaping anything.
//!
//! Clock: render frame. Built by `ui`, drawn by `render::text` with the shipped
//! font, DejaVu Sans Mono: its advance ([`MONO_ADVANCE_EM`]) is fixed, so a line's width is
//! known from its character count ([`mono_width`]; a test in `render::glyphs` reads the advance
//! from the font to keep this true). `render::text` lays text out with the same formula.

/// Advance width of one DejaVu Sans Mono character, in ems (1233 of 2048 font units). Each
/// advance is rounded to whole pixels, so a line of `n` characters at
/// `size` px is `n * round(size * MONO_ADVANCE_EM)` px wide ([`mono_width`]). A test reads the
/// advance from the shipped font to keep this true.
pub const MONO_ADVANCE_EM: f32 = 1233.0 / 2048.0;

/// Line height as a multiple of the font size (the distance between baselines of a
/// multi-line [`TextItem`]).
pub const LINE_HEIGHT: f32 = 1.25;

/// Width in pixels of `chars` characters at `size` px: the rounded advance (whole pixels, at
/// least 1) times the count.
pub fn mono_width(chars: usize, size: f32) -> f32 {
    chars as f32 * (size * MONO_ADVANCE_EM).round().max(1.0)
}

/// Where an item's `x` is on its text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Align {
    /// `x` is the left edge.
    #[default]
    Left,
    /// `x` is the centre of the widest line.
    Center,
    /// `x` is the right edge of the widest line.
    Right,
}

/// One block of text to draw this frame. Plain data: built by the pure overlay code.
#[derive(Clone, Debug, PartialEq)]
pub struct TextItem {
    /// The text; `\n` starts a new line (lines are `size * LINE_HEIGHT` apart). No wrapping.
    pub text: String,
    /// Anchor x, window pixels from the left (see [`TextItem::align`]).
    pub x: f32,
    /// Top of the first line, window pixels from the top.
    pub y: f32,
    /// Font size, window pixels (the em height).
    pub size: f32,
    /// Colour, sRGB 0..255 with straight alpha.
    pub color: [u8; 4],
    /// How `x` anchors the text.
    pub align: Align,
}

impl TextItem {
    /// A left-aligned item at (`x`, `y`) window pixels.
    pub fn new(text: impl Into<String>, x: f32, y: f32, size: f32, color: [u8; 4]) -> Self {
        Self { text: text.into(), x, y, size, color, align: Align::Left }
    }

    /// The same item with `align`.
    pub fn aligned(mut self, align: Align) -> Self {
        self.align = align;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_builder() {
        let t = TextItem::new("hi", 1.0, 2.0, 16.0, [255; 4]).aligned(Align::Center);
        assert_eq!(t.align, Align::Center);
        assert_eq!(mono_width(10, 16.0), 100.0, "9.63 px advances hint to 10");
        assert_eq!(mono_width(10, 14.0), 80.0);
    }
}
