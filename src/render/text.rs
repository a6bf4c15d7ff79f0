//! Text on screen: [`TextItem`]s laid out in the shipped monospace font, their glyphs cut
//! from the coverage atlas [`super::glyphs`] rasterises, one instanced draw
//! (`shaders/text.wgsl`).
//!
//! Clock: render frame. [`TextRenderer::prepare`] lays out and uploads this frame's
//! [`TextItem`]s; [`TextRenderer::draw`] records them into a render pass that is already open
//! (the window pass, after the composite and the UI's quads).
//!
//! # Why not egui
//!
//! Ledge needs a few lines of text (HUD, pause and end screens, the F3 telemetry overlay) and
//! some bar graphs; it has no widgets, no layout and no mouse interaction. The graphs and the
//! panels behind the text are solid-colour quads drawn by the sprite renderer Ledge already
//! has (`FLAG_SOLID` in `shaders/sprite.wgsl`, screen-space camera in [`super::pipeline`]), so
//! an immediate-mode GUI (egui + egui-wgpu + egui-winit: its own input routing, tessellator,
//! fonts, and a second event consumer beside the game's latch) would be a lot of machinery
//! for what amounts to text.
//!
//! # Layout
//!
//! One font ([`FONT_PATH`], DejaVu Sans Mono, Bitstream Vera licence, see
//! `assets/fonts/README.md`). Its advance is fixed, so character `i` of a line starts
//! `i * round(size * MONO_ADVANCE_EM)` px from the line's left edge ([`mono_width`]: the pure
//! UI code sizes its panels with the same formula), lines are `round(size * LINE_HEIGHT)` px
//! apart, and each item's left edge and baselines are whole pixels, so text stays sharp at any
//! size; the overlay picks sizes as multiples of the view's integer scale (16 px at 2x).

use super::glyphs::{ATLAS_SIZE, Font, GlyphAtlas, Placed};
pub use super::glyphs::{FONT_PATH, TextError};
use super::gpu::GpuContext;
use super::pipeline::{PipelineDesc, render_pipeline, shader_and_layout, texture_entry, uniform_entry};
use crate::present::instances::srgb_to_linear;
use crate::present::text::{Align, LINE_HEIGHT, TextItem, mono_width};

/// The target's size as `shaders/text.wgsl` reads it (bind group 0, binding 0); 16 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct TextUniform {
    /// Target width and height, window pixels.
    pub size: [f32; 2],
    /// Padding to 16 bytes.
    pub _pad: [f32; 2],
}

/// One glyph quad as `shaders/text.wgsl` reads it (vertex buffer 0, one per instance); 40 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct GlyphInstance {
    /// Top-left, window pixels (whole).
    pub pos: [f32; 2],
    /// Width and height, pixels: the glyph's bitmap.
    pub size: [f32; 2],
    /// The bitmap's top-left texel in the atlas.
    pub texel: [f32; 2],
    /// Colour in the target's encoding (linear for an sRGB target), straight alpha 0..1.
    pub color: [f32; 4],
}

/// Glyph instances the buffer holds before it first grows (a full F3 overlay is about 600).
const INITIAL_CAPACITY: usize = 1024;

/// The font, its atlas on the CPU and the GPU, the pipeline, and this frame's glyph quads.
pub struct TextRenderer {
    font: Font,
    glyphs: GlyphAtlas,
    atlas: wgpu::Texture,
    uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    pipeline: wgpu::RenderPipeline,
    instances: wgpu::Buffer,
    capacity: usize,
    /// This frame's quads (kept to reuse the allocation).
    quads: Vec<GlyphInstance>,
    /// Whether the target stores sRGB (colours are converted to linear for it).
    srgb_target: bool,
}

impl std::fmt::Debug for TextRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextRenderer")
            .field("glyphs", &self.glyphs.len())
            .field("quads", &self.quads.len())
            .finish_non_exhaustive()
    }
}

fn instance_buffer(device: &wgpu::Device, capacity: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("glyph instances"),
        size: (capacity * std::mem::size_of::<GlyphInstance>()) as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

impl TextRenderer {
    /// Load the shipped font ([`FONT_PATH`]) and build the glyph atlas and pipeline for
    /// targets of `format`.
    ///
    /// # Errors
    /// The assets folder or the font cannot be found or parsed ([`TextError`]).
    pub fn new(ctx: &GpuContext, format: wgpu::TextureFormat) -> Result<Self, TextError> {
        let font = Font::load()?;
        let device = &ctx.device;
        let atlas = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("glyph atlas (coverage)"),
            size: wgpu::Extent3d { width: ATLAS_SIZE, height: ATLAS_SIZE, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::R8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let atlas_view = atlas.create_view(&wgpu::TextureViewDescriptor::default());
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("text uniform"),
            size: std::mem::size_of::<TextUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("text bind group layout"),
            entries: &[uniform_entry::<TextUniform>(0, wgpu::ShaderStages::VERTEX), texture_entry(1, false)],
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("text bind group"),
            layout: &layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&atlas_view),
                },
            ],
        });
        let (shader, pipeline_layout) =
            shader_and_layout(device, "text.wgsl", include_str!("../../shaders/text.wgsl"), &layout);
        let attributes =
            wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2, 2 => Float32x2, 3 => Float32x4];
        let buffers = [Some(wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<GlyphInstance>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &attributes,
        })];
        let pipeline = render_pipeline(
            device,
            &PipelineDesc {
                label: "text pipeline",
                layout: &pipeline_layout,
                shader: &shader,
                buffers: &buffers,
                topology: wgpu::PrimitiveTopology::TriangleStrip,
                vertex: "vs_main",
                fragment: "fs_main",
                format,
                blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
            },
        );
        Ok(Self {
            font,
            glyphs: GlyphAtlas::new(),
            atlas,
            uniform,
            bind_group,
            pipeline,
            instances: instance_buffer(device, INITIAL_CAPACITY),
            capacity: INITIAL_CAPACITY,
            quads: Vec::with_capacity(INITIAL_CAPACITY),
            srgb_target: format.is_srgb(),
        })
    }

    /// This frame's quads for `items`, or the first glyph that did not fit the atlas.
    fn lay_out(&mut self, items: &[TextItem]) -> Result<(), super::glyphs::AtlasFull> {
        self.quads.clear();
        for item in items {
            let line_height = (item.size * LINE_HEIGHT).round();
            let advance = mono_width(1, item.size);
            let widest = item.text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
            let width = mono_width(widest, item.size);
            let left = match item.align {
                Align::Left => item.x,
                Align::Center => item.x - width * 0.5,
                Align::Right => item.x - width,
            }
            .round();
            let baseline = item.y.round() + self.font.baseline(item.size, line_height);
            let [r, g, b, a] = item.color;
            let channel =
                |c: u8| if self.srgb_target { srgb_to_linear(c) as f32 } else { f32::from(c) / 255.0 };
            let color = [channel(r), channel(g), channel(b), f32::from(a) / 255.0];
            for (row, line) in item.text.lines().enumerate() {
                let y = baseline + row as f32 * line_height;
                for (col, c) in line.chars().enumerate() {
                    let Some(Placed { offset, size, texel }) = self.glyphs.glyph(&self.font, c, item.size)?
                    else {
                        continue;
                    };
                    let x = left + col as f32 * advance;
                    self.quads.push(GlyphInstance {
                        pos: [x + offset[0] as f32, y + offset[1] as f32],
                        size: [size[0] as f32, size[1] as f32],
                        texel: [texel[0] as f32, texel[1] as f32],
                        color,
                    });
                }
            }
        }
        Ok(())
    }

    /// Lay out and upload `items` for a target of `size` (width, height) window pixels. Call
    /// once per frame before [`TextRenderer::draw`]; an empty slice draws nothing. Items are
    /// drawn in order (later ones on top where they overlap).
    pub fn prepare(&mut self, ctx: &GpuContext, size: (u32, u32), items: &[TextItem]) {
        if self.lay_out(items).is_err() {
            // The atlas is full of glyphs from earlier sizes: start it again with this frame's.
            self.glyphs.clear();
            if self.lay_out(items).is_err() {
                log::warn!(
                    "text: this frame's glyphs do not fit a {ATLAS_SIZE}-texel atlas; some are not drawn"
                );
            }
        }
        for up in self.glyphs.take_uploads() {
            ctx.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &self.atlas,
                    mip_level: 0,
                    origin: wgpu::Origin3d { x: up.texel[0], y: up.texel[1], z: 0 },
                    aspect: wgpu::TextureAspect::All,
                },
                &up.coverage,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(up.size[0]),
                    rows_per_image: None,
                },
                wgpu::Extent3d { width: up.size[0], height: up.size[1], depth_or_array_layers: 1 },
            );
        }
        if self.quads.is_empty() {
            return;
        }
        if self.quads.len() > self.capacity {
            self.capacity = self.quads.len().next_power_of_two();
            self.instances = instance_buffer(&ctx.device, self.capacity);
        }
        let uniform = TextUniform { size: [size.0.max(1) as f32, size.1.max(1) as f32], _pad: [0.0; 2] };
        ctx.queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        ctx.queue.write_buffer(&self.instances, 0, bytemuck::cast_slice(&self.quads));
    }

    /// Record the prepared text into `pass` (one draw). The pass's target must have the
    /// format given to [`TextRenderer::new`] and the size given to
    /// [`TextRenderer::prepare`].
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        if self.quads.is_empty() {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.set_vertex_buffer(0, self.instances.slice(..));
        pass.draw(0..4, 0..self.quads.len() as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
