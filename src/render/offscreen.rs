//! The renderer without a window: draws into a texture and reads it back. For golden images,
//! the lab's `--shot` (through `main`) and `examples/level_shots.rs`.
//!
//! Clock: render frame, on demand (one image per call). It draws with the same
//! [`Renderer::encode`] as the window, so an off-screen image is the window's frame.

use super::gpu::{GpuContext, RenderError};
use super::renderer::{FrameTarget, Renderer};
use crate::present::view::FrameView;
use crate::ui::Layer;

/// Off-screen target format: RGBA bytes in sRGB, what PNG files hold.
pub const OFFSCREEN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// [`OFFSCREEN_FORMAT`]'s plain twin: the same bytes, viewed without sRGB decoding.
const PLAIN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// A headless GPU context and a [`Renderer`] drawing into [`OFFSCREEN_FORMAT`] images.
#[derive(Debug)]
pub struct Offscreen {
    /// GPU context (no surface).
    pub ctx: GpuContext,
    renderer: Renderer,
    /// Whether images get a plain view for the raw composite, as a window's frames do where
    /// the device allows (`render::composite` "Two composites"); true where the device can.
    /// Tests turn it off to compare the two composites.
    pub raw_composite: bool,
}

impl Offscreen {
    /// Open a headless GPU context and load the atlas and the font.
    ///
    /// # Errors
    /// No adapter, no device, or the atlas or the font cannot be loaded.
    pub fn new() -> Result<Self, RenderError> {
        let ctx = GpuContext::headless()?;
        let renderer = Renderer::new(&ctx, OFFSCREEN_FORMAT)?;
        let raw_composite = super::composite::raw_supported(&ctx);
        Ok(Self { ctx, renderer, raw_composite })
    }

    /// Draw the sky and the opaque world runs raw (the default where the device can) or through
    /// sRGB views ([`Renderer::set_raw_art`]).
    pub fn set_raw_art(&mut self, on: bool) {
        self.renderer.set_raw_art(on);
    }

    /// Draw `view` into a `width` x `height` image and return its pixels: RGBA8 sRGB,
    /// row-major from the top-left, `width * height * 4` bytes.
    ///
    /// # Errors
    /// [`RenderError::Readback`] if the image cannot be mapped back (device lost), or a zero
    /// size.
    pub fn render(&mut self, view: &FrameView<'_>, width: u32, height: u32) -> Result<Vec<u8>, RenderError> {
        self.render_with_overlay(view, width, height, &Layer::default())
    }

    /// Like [`Offscreen::render`], with `ui` (quads, then text, in window pixels) over the
    /// whole image, as the window draws its HUD and screens.
    ///
    /// # Errors
    /// As [`Offscreen::render`].
    pub fn render_with_overlay(
        &mut self,
        view: &FrameView<'_>,
        width: u32,
        height: u32,
        ui: &Layer,
    ) -> Result<Vec<u8>, RenderError> {
        if width == 0 || height == 0 {
            return Err(RenderError::Readback(format!("cannot render a {width}x{height} image")));
        }
        let device = &self.ctx.device;
        let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen target"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: OFFSCREEN_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::COPY_DST,
            view_formats: if self.raw_composite { &[PLAIN_FORMAT] } else { &[] },
        });
        let target = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("offscreen target view"),
            ..Default::default()
        });
        let plain = self.raw_composite.then(|| {
            texture.create_view(&wgpu::TextureViewDescriptor {
                label: Some("offscreen target view (plain)"),
                format: Some(PLAIN_FORMAT),
                ..Default::default()
            })
        });
        // Rows in a texture→buffer copy must be 256-byte aligned.
        let row = 4 * width;
        let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let padded_row = row.div_ceil(align) * align;
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen readback"),
            size: u64::from(padded_row) * u64::from(height),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });

        let frame = FrameTarget { view: &target, plain: plain.as_ref(), copy_dst: Some(&texture) };
        let mut encoder = self.renderer.encode(&self.ctx, frame, (width, height), view, ui);
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded_row),
                    rows_per_image: Some(height),
                },
            },
            size,
        );
        self.ctx.queue.submit([encoder.finish()]);

        let (tx, rx) = std::sync::mpsc::channel();
        readback.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            // The receiver waits below; a send error means it is gone, nothing to do.
            let _ = tx.send(r);
        });
        device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| RenderError::Readback(e.to_string()))?;
        rx.recv()
            .map_err(|e| RenderError::Readback(e.to_string()))?
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        let mut pixels = Vec::with_capacity((row * height) as usize);
        {
            let mapped = readback.get_mapped_range(..).map_err(|e| RenderError::Readback(e.to_string()))?;
            for chunk in mapped.chunks(padded_row as usize) {
                pixels.extend_from_slice(&chunk[..row as usize]);
            }
        }
        readback.unmap();
        Ok(pixels)
    }
}
