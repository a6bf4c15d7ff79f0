//! The shipped font, rasterised: each character's anti-aliased coverage at each size the UI
//! asks for, packed into one coverage atlas ([`GlyphAtlas`]) that `render::text` uploads and
//! draws from. The CPU half of text; no GPU here.
//!
//! Clock: render frame. A glyph is rasterised the first frame it is drawn at a size and kept
//! until the atlas is full; then the atlas starts again from empty (a few hundred glyphs of
//! one font fit, so that is rare: a window resized through many scales).
//!
//! # Why no shaping library
//!
//! The UI writes in one monospace font (DejaVu Sans Mono, [`FONT_PATH`]) with no ligatures, no
//! kerning and no right-to-left text, so a line's layout is its characters at a fixed advance
//! (`present::text::mono_width`) and needs no shaper. [ab_glyph] parses the font and
//! rasterises outlines (it is already in the native build, under winit's Wayland decorations).
//! Dropping glyphon's shaping stack (cosmic-text, harfrust, swash, skrifa) took about 0.9 MB of
//! code out of the browser build (docs/speed.md).
//!
//! Sizes and positions are window pixels. Pen positions and baselines are whole pixels, so a
//! glyph's bitmap lands on the window's pixel grid as it was rasterised: text stays sharp at
//! every size.

use ab_glyph::{Font as _, FontVec, PxScale};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The font file, relative to the assets folder (see [`crate::assets::assets_dir`]).
pub const FONT_PATH: &str = "fonts/DejaVuSansMono.ttf";

/// Width and height of the coverage atlas, texels: the largest 2D texture WebGL2 promises
/// (`wgpu::Limits::downlevel_webgl2_defaults`), 4 MiB at one byte a texel.
pub const ATLAS_SIZE: u32 = 2048;

/// Empty texels kept around every glyph in the atlas, so no fragment at a bitmap's edge reads
/// its neighbour's coverage.
const PADDING: u32 = 1;

/// Why text could not start.
#[derive(Debug, thiserror::Error)]
pub enum TextError {
    /// The assets folder could not be found.
    #[error("{0}")]
    Assets(#[from] crate::assets::AssetError),
    /// The font file could not be read.
    #[error("{path}: {source}")]
    FontIo {
        /// The font file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file was read but holds no font face ab_glyph can parse.
    #[error("{0}: not a font file (no face found)")]
    NotAFont(PathBuf),
}

/// The shipped font, parsed, with the metrics layout needs.
pub struct Font {
    font: FontVec,
    /// Font units per em (2048 for DejaVu Sans Mono).
    units_per_em: f32,
}

impl std::fmt::Debug for Font {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Font").field("units_per_em", &self.units_per_em).finish_non_exhaustive()
    }
}

impl Font {
    /// Load [`FONT_PATH`] from the assets folder. System fonts are never read, so a machine
    /// with no fonts installed draws the same text.
    ///
    /// # Errors
    /// No assets folder, the file unreadable, or not a font ([`TextError`]).
    pub fn load() -> Result<Self, TextError> {
        let path = crate::assets::assets_dir()?.join(FONT_PATH);
        // 16 MiB: the shipped DejaVu Sans Mono is 340 KB.
        let data = crate::read_limit::read_file_at_most(&path, 16 << 20)
            .map_err(|source| TextError::FontIo { path: path.clone(), source })?;
        Self::from_bytes(data, &path)
    }

    /// Parse a font file's bytes; `path` names it in the error.
    ///
    /// # Errors
    /// [`TextError::NotAFont`] when the bytes are not a TrueType/OpenType face with an em size.
    pub fn from_bytes(data: Vec<u8>, path: &Path) -> Result<Self, TextError> {
        let not_a_font = || TextError::NotAFont(path.to_path_buf());
        let font = FontVec::try_from_vec(data).map_err(|_| not_a_font())?;
        let units_per_em = font.units_per_em().filter(|u| *u > 0.0).ok_or_else(not_a_font)?;
        Ok(Self { font, units_per_em })
    }

    /// Font units per em.
    pub fn units_per_em(&self) -> f32 {
        self.units_per_em
    }

    /// `c`'s advance width in ems (unhinted).
    pub fn advance_em(&self, c: char) -> f32 {
        self.font.h_advance_unscaled(self.font.glyph_id(c)) / self.units_per_em
    }

    /// ab_glyph's scale for an em of `size` px (ab_glyph scales the ascent-to-descent height).
    fn scale(&self, size: f32) -> PxScale {
        PxScale::from(size * self.font.height_unscaled() / self.units_per_em)
    }

    /// The first baseline's distance below the top of a text block at `size` px, whole pixels:
    /// the glyph box (ascent + descent) centred in a line of `line_height` px, as cosmic-text
    /// lays out a line (the layout glyphon used before, so text sits where it sat).
    pub fn baseline(&self, size: f32, line_height: f32) -> f32 {
        let k = size / self.units_per_em;
        let ascent = self.font.ascent_unscaled() * k;
        let descent = -self.font.descent_unscaled() * k;
        ((line_height - (ascent + descent)) / 2.0 + ascent).round()
    }
}

/// Where one glyph's bitmap is, relative to its pen position on the baseline and in the atlas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The bitmap's top-left from the pen position (x right, y down), whole pixels.
    pub offset: [i32; 2],
    /// The bitmap's width and height, pixels (at least 1 each).
    pub size: [u32; 2],
    /// The bitmap's top-left texel in the atlas.
    pub texel: [u32; 2],
}

/// A glyph bitmap rasterised since the last [`GlyphAtlas::take_uploads`], to copy into the
/// atlas texture at `texel`: `size[0] * size[1]` coverage bytes, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upload {
    /// Destination top-left texel.
    pub texel: [u32; 2],
    /// Width and height, texels.
    pub size: [u32; 2],
    /// Coverage 0..=255, one byte a texel.
    pub coverage: Vec<u8>,
}

/// The atlas has no room for one more glyph; [`GlyphAtlas::clear`] and try again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtlasFull;

/// Rows of glyphs packed left to right, top to bottom (a shelf packer: one font's glyphs at a
/// few sizes are near enough in height that rows waste little).
#[derive(Clone, Copy, Debug, Default)]
struct Shelf {
    x: u32,
    y: u32,
    row: u32,
}

impl Shelf {
    /// A `w` x `h` place (padding included by the caller), or `None` when full.
    fn alloc(&mut self, w: u32, h: u32) -> Option<[u32; 2]> {
        if w > ATLAS_SIZE || h > ATLAS_SIZE {
            return None;
        }
        if self.x + w > ATLAS_SIZE {
            self.y += self.row;
            self.x = 0;
            self.row = 0;
        }
        if self.y + h > ATLAS_SIZE {
            return None;
        }
        let at = [self.x, self.y];
        self.x += w;
        self.row = self.row.max(h);
        Some(at)
    }
}

/// Every glyph rasterised so far, by character and size, and the bitmaps still to upload.
#[derive(Debug, Default)]
pub struct GlyphAtlas {
    /// `None`: the character draws nothing at that size (a space).
    glyphs: HashMap<(char, u32), Option<Placed>>,
    shelf: Shelf,
    uploads: Vec<Upload>,
}

impl GlyphAtlas {
    /// An empty atlas.
    pub fn new() -> Self {
        Self::default()
    }

    /// `c` at `size` px: rasterised and packed the first time it is asked for. `Ok(None)` for
    /// a character with no outline (a space); a character the font lacks draws its
    /// missing-glyph box.
    ///
    /// # Errors
    /// [`AtlasFull`] when a new bitmap does not fit.
    pub fn glyph(&mut self, font: &Font, c: char, size: f32) -> Result<Option<Placed>, AtlasFull> {
        let key = (c, size.to_bits());
        if let Some(&placed) = self.glyphs.get(&key) {
            return Ok(placed);
        }
        let glyph =
            font.font.glyph_id(c).with_scale_and_position(font.scale(size), ab_glyph::point(0.0, 0.0));
        let Some(outline) = font.font.outline_glyph(glyph) else {
            self.glyphs.insert(key, None);
            return Ok(None);
        };
        let bounds = outline.px_bounds();
        let (w, h) = (bounds.width() as u32, bounds.height() as u32);
        if w == 0 || h == 0 {
            self.glyphs.insert(key, None);
            return Ok(None);
        }
        let texel = self.shelf.alloc(w + 2 * PADDING, h + 2 * PADDING).ok_or(AtlasFull)?;
        let texel = [texel[0] + PADDING, texel[1] + PADDING];
        let mut coverage = vec![0u8; (w * h) as usize];
        outline.draw(|x, y, c| {
            if x < w && y < h {
                coverage[(y * w + x) as usize] = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
            }
        });
        let placed = Placed { offset: [bounds.min.x as i32, bounds.min.y as i32], size: [w, h], texel };
        self.uploads.push(Upload { texel, size: [w, h], coverage });
        self.glyphs.insert(key, Some(placed));
        Ok(Some(placed))
    }

    /// Forget every glyph: the next [`GlyphAtlas::glyph`] packs from the top-left again.
    pub fn clear(&mut self) {
        self.glyphs.clear();
        self.shelf = Shelf::default();
        self.uploads.clear();
    }

    /// The bitmaps rasterised since the last call, to copy into the atlas texture.
    pub fn take_uploads(&mut self) -> Vec<Upload> {
        std::mem::take(&mut self.uploads)
    }

    /// Glyphs (character and size pairs) rasterised and kept.
    pub fn len(&self) -> usize {
        self.glyphs.len()
    }

    /// Whether no glyph is kept.
    pub fn is_empty(&self) -> bool {
        self.glyphs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::text::{LINE_HEIGHT, MONO_ADVANCE_EM};

    fn font() -> Font {
        Font::load().expect("assets/fonts has the font")
    }

    #[test]
    fn shipped_font_loads_with_the_advance_the_ui_lays_out_with() {
        let f = font();
        assert_eq!(f.units_per_em(), 2048.0);
        for c in ['M', 'i', '0', ' ', '.', '▲'] {
            assert_eq!(f.advance_em(c), MONO_ADVANCE_EM, "{c:?}");
        }
    }

    #[test]
    fn not_a_font_is_one_error_naming_the_file() {
        let e = Font::from_bytes(b"not a font".to_vec(), Path::new("x/y.ttf")).unwrap_err();
        assert_eq!(e.to_string(), "x/y.ttf: not a font file (no face found)");
    }

    #[test]
    fn glyphs_are_rasterised_once_and_packed_apart() {
        let f = font();
        let mut atlas = GlyphAtlas::new();
        let m = atlas.glyph(&f, 'M', 16.0).unwrap().expect("M has an outline");
        assert_eq!(atlas.glyph(&f, ' ', 16.0), Ok(None), "a space draws nothing");
        let m_again = atlas.glyph(&f, 'M', 16.0).unwrap().unwrap();
        assert_eq!(m, m_again);
        let big = atlas.glyph(&f, 'M', 32.0).unwrap().unwrap();
        assert!(big.size[1] > m.size[1] + 8, "{big:?} vs {m:?}");
        // An M at 16 px: about 0.73 em tall (DejaVu's cap height), standing on the baseline.
        assert!((11..=13).contains(&m.size[1]), "{m:?}");
        assert_eq!(m.offset[1] + m.size[1] as i32, 0, "on the baseline");
        let uploads = atlas.take_uploads();
        assert_eq!(uploads.len(), 2, "one bitmap per rasterised glyph");
        assert!(atlas.take_uploads().is_empty());
        // Bitmaps do not overlap, padding included.
        let (a, b) = (&uploads[0], &uploads[1]);
        let apart =
            a.texel[0] + a.size[0] + PADDING <= b.texel[0] || a.texel[1] + a.size[1] + PADDING <= b.texel[1];
        assert!(apart, "{:?} {:?}", a.texel, b.texel);
        // Real coverage: solid stems and empty counters.
        assert!(uploads[0].coverage.contains(&255) && uploads[0].coverage.contains(&0));
    }

    #[test]
    fn a_full_atlas_says_so_and_clear_starts_again() {
        let f = font();
        let mut atlas = GlyphAtlas::new();
        let mut full = false;
        'sizes: for size in (100..400).step_by(7) {
            for c in 'A'..='Z' {
                if atlas.glyph(&f, c, size as f32) == Err(AtlasFull) {
                    full = true;
                    break 'sizes;
                }
            }
        }
        assert!(full, "hundreds of large glyphs fill a {ATLAS_SIZE}-texel atlas");
        atlas.clear();
        assert!(atlas.is_empty());
        let a = atlas.glyph(&f, 'A', 16.0).unwrap().unwrap();
        assert_eq!(a.texel, [PADDING, PADDING]);
    }

    #[test]
    fn baseline_centres_the_glyph_box_in_the_line() {
        let f = font();
        // DejaVu Sans Mono: ascent 1901, descent -483 of 2048.
        let size = 16.0;
        let b = f.baseline(size, (size * LINE_HEIGHT).round());
        assert_eq!(b, 16.0, "(20 - 18.63) / 2 + 14.85 = 15.54, rounded");
    }
}
