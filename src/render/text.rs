//! Text on screen: a small wrapper around [glyphon] (cosmic-text shaping, swash rasterising,
//! an etagere-packed glyph atlas, one instanced draw).
//!
//! Clock: render frame. [`TextRenderer::prepare`] shapes and uploads this frame's
//! [`TextItem`]s; [`TextRenderer::draw`] records them into a render pass that is already open
//! (the overlay pass, after the world and the overlay's quads).
//!
//! # Why glyphon and not egui
//!
//! Ledge needs a few lines of text (HUD, pause and end screens, the F3 telemetry overlay) and
//! some bar graphs; it has no widgets, no layout and no mouse interaction. glyphon does only
//! text, plugs straight into an open `wgpu::RenderPass` on the same wgpu version (30), and
//! costs one pipeline and one draw call. The graphs and the panels behind the text are
//! solid-colour quads drawn by the sprite renderer Ledge already has (`FLAG_SOLID` in
//! `shaders/sprite.wgsl`, screen-space camera in [`super::pipeline`]), so an immediate-mode
//! GUI (egui + egui-wgpu + egui-winit: its own input routing, tessellator, fonts, and a
//! second event consumer beside the game's latch) would be a lot of machinery for what amounts
//! to text.
//!
//! # Fonts
//!
//! One font, shipped in `assets/fonts/` ([`FONT_PATH`], DejaVu Sans Mono, Bitstream Vera
//! licence, see `assets/fonts/README.md`), loaded into a font database of its own. System fonts
//! are never read, so a fresh machine with no fonts installed draws the same text, and the
//! monospace advance (`present::text::MONO_ADVANCE_EM`) lets the pure overlay code size its panels
//! without shaping anything.
//!
//! # Crispness
//!
//! Sizes and positions are window (physical) pixels. Each item's top-left is rounded to a whole
//! pixel and metrics hinting snaps glyph advances to whole pixels, so text stays sharp at any
//! size; the overlay picks sizes as multiples of the view's integer scale (16 px at 2x).

use super::gpu::GpuContext;
use crate::present::text::{Align, LINE_HEIGHT, TextItem};
use glyphon::cosmic_text::Hinting;
use glyphon::{
    Attrs, Buffer, Cache, Color, Family, FontSystem, Metrics, Resolution, Shaping, SwashCache, TextArea,
    TextAtlas, TextBounds, Viewport,
};
use std::path::PathBuf;

/// The font file, relative to the assets folder (see [`crate::assets::assets_dir`]).
pub const FONT_PATH: &str = "fonts/DejaVuSansMono.ttf";

/// Drawn width of a laid-out line, pixels: the right edge of its last glyph. (cosmic-text's
/// `line_w` sums the unhinted advances; with hinting the glyphs sit on rounded positions.)
fn run_width(run: &glyphon::LayoutRun<'_>) -> f32 {
    run.glyphs.iter().map(|g| g.x + g.w).fold(0.0, f32::max)
}

/// Why text could not start or draw.
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
    /// The file was read but holds no font face fontdb can parse.
    #[error("{0}: not a font file (no face found)")]
    NotAFont(PathBuf),
}

/// A shaped buffer kept from one frame to the next, reshaped only when its text or size
/// changes (most HUD lines change a few times a second at most).
struct Slot {
    buffer: Buffer,
    text: String,
    size: f32,
    /// Width of the widest line, pixels, after shaping.
    width: f32,
}

/// glyphon's pieces for one target format: font system, glyph cache and atlas, viewport,
/// renderer, and the shaped buffers reused between frames.
pub struct TextRenderer {
    font_system: FontSystem,
    swash: SwashCache,
    atlas: TextAtlas,
    viewport: Viewport,
    renderer: glyphon::TextRenderer,
    family: String,
    slots: Vec<Slot>,
    /// Items prepared this frame (draw order).
    prepared: usize,
}

impl std::fmt::Debug for TextRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextRenderer")
            .field("family", &self.family)
            .field("slots", &self.slots.len())
            .field("prepared", &self.prepared)
            .finish_non_exhaustive()
    }
}

/// A font system holding only the shipped font (no system fonts), and its family name.
///
/// # Errors
/// No assets folder, the font file unreadable, or not a font.
pub fn load_font_system() -> Result<(FontSystem, String), TextError> {
    let path = crate::assets::assets_dir()?.join(FONT_PATH);
    // 16 MiB: the shipped DejaVu Sans Mono is 340 KB.
    let data = crate::read_limit::read_file_at_most(&path, 16 << 20)
        .map_err(|source| TextError::FontIo { path: path.clone(), source })?;
    let mut db = glyphon::fontdb::Database::new();
    db.load_font_data(data);
    let family = db
        .faces()
        .next()
        .and_then(|f| f.families.first().map(|(name, _)| name.clone()))
        .ok_or_else(|| TextError::NotAFont(path.clone()))?;
    db.set_monospace_family(family.clone());
    db.set_sans_serif_family(family.clone());
    db.set_serif_family(family.clone());
    // The locale only steers fallback choices; there is one font, so a fixed one is fine.
    let fs = FontSystem::new_with_locale_and_db("en-US".into(), db);
    Ok((fs, family))
}

impl TextRenderer {
    /// Load the shipped font ([`FONT_PATH`]) and build the glyph atlas and pipeline for
    /// targets of `format`.
    ///
    /// # Errors
    /// The assets folder or the font cannot be found or parsed ([`TextError`]).
    pub fn new(ctx: &GpuContext, format: wgpu::TextureFormat) -> Result<Self, TextError> {
        let (font_system, family) = load_font_system()?;
        let cache = Cache::new(&ctx.device);
        let viewport = Viewport::new(&ctx.device, &cache);
        let mut atlas = TextAtlas::new(&ctx.device, &ctx.queue, &cache, format);
        let renderer =
            glyphon::TextRenderer::new(&mut atlas, &ctx.device, wgpu::MultisampleState::default(), None);
        Ok(Self {
            font_system,
            swash: SwashCache::new(),
            atlas,
            viewport,
            renderer,
            family,
            slots: Vec::new(),
            prepared: 0,
        })
    }

    /// Shape `text` at `size` px into a slot (reusing its buffer) and return its widest line.
    fn shape(&mut self, i: usize, text: &str, size: f32) -> f32 {
        let metrics = Metrics::new(size, (size * LINE_HEIGHT).round());
        if i == self.slots.len() {
            let mut buffer = Buffer::new(&mut self.font_system, metrics);
            buffer.set_hinting(Hinting::Enabled);
            self.slots.push(Slot { buffer, text: String::new(), size: f32::NAN, width: 0.0 });
        }
        let slot = &mut self.slots[i];
        if slot.text != text || slot.size != size {
            slot.buffer.set_metrics_and_size(metrics, None, None);
            slot.buffer.set_text(
                text,
                &Attrs::new().family(Family::Name(&self.family)),
                Shaping::Advanced,
                None,
            );
            slot.buffer.shape_until_scroll(&mut self.font_system, false);
            slot.width = slot.buffer.layout_runs().map(|r| run_width(&r)).fold(0.0, f32::max);
            slot.text.clear();
            slot.text.push_str(text);
            slot.size = size;
        }
        slot.width
    }

    /// Shape and upload `items` for a target of `size` (width, height) window pixels. Call
    /// once per frame before [`TextRenderer::draw`]; an empty slice draws nothing. Items are
    /// drawn in order (later ones on top where they overlap).
    pub fn prepare(&mut self, ctx: &GpuContext, size: (u32, u32), items: &[TextItem]) {
        self.viewport.update(&ctx.queue, Resolution { width: size.0, height: size.1 });
        let mut lefts = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let width = self.shape(i, &item.text, item.size);
            let left = match item.align {
                Align::Left => item.x,
                Align::Center => item.x - width * 0.5,
                Align::Right => item.x - width,
            };
            lefts.push(left.round());
        }
        self.prepared = items.len();
        let bounds = TextBounds {
            left: 0,
            top: 0,
            right: i32::try_from(size.0).unwrap_or(i32::MAX),
            bottom: i32::try_from(size.1).unwrap_or(i32::MAX),
        };
        let areas = items.iter().zip(&self.slots).zip(&lefts).map(|((item, slot), &left)| {
            let [r, g, b, a] = item.color;
            TextArea {
                buffer: &slot.buffer,
                left,
                top: item.y.round(),
                scale: 1.0,
                bounds,
                default_color: Color::rgba(r, g, b, a),
                custom_glyphs: &[],
            }
        });
        if let Err(e) = self.renderer.prepare(
            &ctx.device,
            &ctx.queue,
            &mut self.font_system,
            &mut self.atlas,
            &self.viewport,
            areas,
            &mut self.swash,
        ) {
            log::error!("text: cannot prepare this frame's text: {e}");
            self.prepared = 0;
        }
    }

    /// Record the prepared text into `pass` (one draw). The pass's target must have the
    /// format given to [`TextRenderer::new`] and the size given to
    /// [`TextRenderer::prepare`].
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        if self.prepared == 0 {
            return;
        }
        if let Err(e) = self.renderer.render(&self.atlas, &self.viewport, pass) {
            log::error!("text: cannot draw this frame's text: {e}");
        }
    }

    /// Drop glyphs no longer used from the atlas; call once per frame after submitting.
    pub fn trim(&mut self) {
        self.atlas.trim();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::text::mono_width;

    #[test]
    fn shipped_font_loads_without_system_fonts() {
        let (fs, family) = load_font_system().expect("assets/fonts has the font");
        assert_eq!(family, "DejaVu Sans Mono");
        assert_eq!(fs.db().len(), 1, "only the shipped face, never system fonts");
    }

    #[test]
    fn mono_advance_matches_the_shaped_font() {
        let (mut fs, family) = load_font_system().expect("font");
        for size in [12.0_f32, 14.0, 16.0, 24.0, 32.0] {
            let mut buffer = Buffer::new(&mut fs, Metrics::new(size, size * LINE_HEIGHT));
            buffer.set_hinting(Hinting::Enabled);
            let text = "fps 60.0 frame 16.67 ms";
            buffer.set_text(text, &Attrs::new().family(Family::Name(&family)), Shaping::Advanced, None);
            buffer.shape_until_scroll(&mut fs, false);
            let w = buffer.layout_runs().map(|r| run_width(&r)).fold(0.0, f32::max);
            let expected = mono_width(text.chars().count(), size);
            assert!((w - expected).abs() <= 1.0, "size {size}: shaped {w}, expected {expected}");
        }
    }

    /// Text and screen-space quads drawn off-screen on whatever adapter exists (failing when
    /// there is none): white glyphs on a black panel, the view untouched elsewhere.
    #[test]
    fn text_and_screen_quads_draw_off_screen() {
        use crate::level::{Level, TileKind};
        use crate::present::view::{FrameView, PlayerDraw};
        use crate::render::Offscreen;
        use crate::ui::{Layer, solid};
        use glam::DVec2;
        let mut off = match Offscreen::new() {
            Ok(o) => o,
            Err(e @ crate::render::gpu::RenderError::NoAdapter(_)) => panic!(
                "{e}: the GPU tests need a Vulkan adapter; without a GPU install Mesa's lavapipe \
                 (Debian/Ubuntu: mesa-vulkan-drivers libvulkan1; scripts/test installs them)"
            ),
            Err(e) => panic!("off-screen renderer: {e}"),
        };
        let level = Level {
            name: "text test".into(),
            origin: None,
            object_ids: Vec::new(),
            width: 40,
            height: 23,
            kinds: vec![TileKind::Empty; 40 * 23],
            gfx: vec![None; 40 * 23],
            spawn: DVec2::new(-100.0, -100.0),
            checkpoints: vec![],
            goal: None,
            entities: Vec::new(),
            sky: crate::level::Sky::default(),
        };
        let view = FrameView::still(
            &level,
            DVec2::new(320.0, 180.0),
            PlayerDraw::standing(DVec2::new(-100.0, -100.0)),
        );
        let (w, h) = (640, 360);
        let ui = Layer {
            quads: vec![solid(0.0, 0.0, 280.0, 60.0, [0, 0, 0], 1.0)],
            text: vec![TextItem::new("Ledge 1:02.45", 10.0, 10.0, 32.0, [255, 255, 255, 255])],
        };
        let px = off.render_with_overlay(&view, w, h, &ui).expect("renders");
        if let Some(dir) = std::env::var_os("LEDGE_TEST_DUMP") {
            let path = std::path::Path::new(&dir).join("text_offscreen.png");
            crate::assets::save_png(&path, w, h, &px).expect("write dump");
        }
        let at = |x: u32, y: u32| {
            let i = ((y * w + x) * 4) as usize;
            [px[i], px[i + 1], px[i + 2]]
        };
        // The panel's corner is black; the sky is untouched outside it (as drawn with no UI).
        assert_eq!(at(275, 55), [0, 0, 0]);
        let bare = off.render(&view, w, h).expect("renders");
        let i = ((200 * w + 400) * 4) as usize;
        let sky = [bare[i], bare[i + 1], bare[i + 2]];
        assert!((0..3).all(|c| at(400, 200)[c].abs_diff(sky[c]) <= 2), "{:?} vs {sky:?}", at(400, 200));
        // Glyphs: many near-white pixels inside the text's box, none outside the panel.
        let white = |x0: u32, x1: u32, y0: u32, y1: u32| {
            (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| at(x, y).iter().all(|&c| c > 200))
                .count()
        };
        assert!(white(10, 270, 10, 50) > 200, "text drawn: {}", white(10, 270, 10, 50));
        assert_eq!(white(0, 640, 60, 360), 0);
    }
}
