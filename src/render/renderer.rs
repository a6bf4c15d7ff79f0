//! The one [`Renderer`]: a frame's passes, recorded the same way for the window and for
//! off-screen capture.
//!
//! Clock: render frame. [`Renderer::encode`] takes the loop's [`FrameView`] and the UI's
//! [`Layer`] and records, into a new command encoder:
//!
//! 1. the world pass: clear the target to the letterbox colour (or, when the view fills the
//!    target, to the sky's plain top colour, which then stands in for the backdrop's first
//!    instance), then, in the letterboxed
//!    viewport ([`letterbox`]), with the camera centred on the drawn view (the camera plus the
//!    screen shake: everything in the world moves, the bars do not), one instance list
//!    ([`build_instances`]) drawn as its [`Batches`], one draw per texture and blend run: the
//!    sky from `skies.png`, then tiles, entities and `--stress` sprites from the atlas, both
//!    **without blending** (opaque and alpha-tested content, see [`super::pipeline`]); the
//!    ghost and the particles blended; the player unblended; the flash and fade overlays
//!    blended over the whole view;
//! 2. the overlay pass (only when the UI has something to draw): over the whole target, the
//!    UI's quads **alpha-blended**, then its text (glyphon, blended).
//!
//! The window (`app`) submits the encoder and presents; [`super::offscreen::Offscreen`] adds a
//! copy into a readback buffer first. Nothing here writes the world.

use super::gpu::{GpuContext, RenderError};
use super::pipeline::{
    Blend, InstanceLayer, SpritePipeline, SpriteUniform, Texture, screen_uniform, wgpu_color,
};
use super::text::TextRenderer;
use crate::present::backdrop::plain_top;
use crate::present::instances::{Batches, LETTERBOX_SRGB, SpriteInstance, build_instances};
use crate::present::letterbox::letterbox;
use crate::present::view::{FrameView, VIEW_SIZE};
use crate::ui::Layer;

/// Initial world instance buffer capacity (grows by doubling).
const WORLD_CAPACITY: usize = 1024;

/// Initial screen-space instance buffer capacity (grows by doubling): the telemetry graphs
/// need a few hundred quads.
const SCREEN_CAPACITY: usize = 1024;

/// Sprites and text for targets of one format: the pipelines, the world and screen-space
/// instance lists, and glyphon.
#[derive(Debug)]
pub struct Renderer {
    sprites: SpritePipeline,
    text: TextRenderer,
    /// The world camera (level pixels) and its instances.
    world: InstanceLayer,
    /// The screen-space camera (window pixels) and the UI's quads.
    screen: InstanceLayer,
    /// This frame's world instances (kept to reuse the allocation).
    instances: Vec<SpriteInstance>,
}

impl Renderer {
    /// Load the atlas, the skies and the shipped font and build everything that draws into targets of
    /// `format`.
    ///
    /// # Errors
    /// [`RenderError::Atlas`] or [`RenderError::Text`] when the assets cannot be loaded.
    pub fn new(ctx: &GpuContext, format: wgpu::TextureFormat) -> Result<Self, RenderError> {
        let sprites = SpritePipeline::new(ctx, format)?;
        let text = TextRenderer::new(ctx, format)?;
        let world = sprites.layer(ctx, "world instances", WORLD_CAPACITY);
        let screen = sprites.layer(ctx, "screen-space instances", SCREEN_CAPACITY);
        Ok(Self { sprites, text, world, screen, instances: Vec::with_capacity(WORLD_CAPACITY) })
    }

    /// Upload this frame (`view` and `ui` for a target of `size` = (width, height) pixels) and
    /// record its passes into `target`. Returns the encoder: the caller submits it (after
    /// adding any copy of its own).
    pub fn encode(
        &mut self,
        ctx: &GpuContext,
        target: &wgpu::TextureView,
        size: (u32, u32),
        view: &FrameView<'_>,
        ui: &Layer,
    ) -> wgpu::CommandEncoder {
        let batches = build_instances(view, &mut self.instances);
        let lb = letterbox(size.0, size.1);
        let centre = view.camera + view.shake;
        let camera = SpriteUniform {
            center: [centre.x as f32, centre.y as f32],
            view_size: [VIEW_SIZE.x as f32, VIEW_SIZE.y as f32],
            scale: lb.scale,
            _pad0: 0.0,
            _pad1: [0.0; 2],
        };
        self.world.upload(ctx, &self.instances, &camera);
        self.screen.upload(ctx, &ui.quads, &screen_uniform(size.0, size.1));
        self.text.prepare(ctx, size, &ui.text);

        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame encoder") });
        {
            // When the view fills the target (no letterbox bars), clearing to the sky's plain
            // top colour draws the backdrop's first instance (a solid quad of it) for free:
            // on lavapipe a full-width quad is fragment work the clear does not cost.
            let fills = lb.x == 0 && lb.y == 0 && (lb.w, lb.h) == size;
            let Batches { mut sky, world, translucent, player, overlays } = batches;
            let colour = if fills && !sky.is_empty() {
                sky.start += 1;
                plain_top(view.level.sky)
            } else {
                LETTERBOX_SRGB
            };
            let mut pass =
                begin_pass(&mut encoder, target, "world pass", wgpu::LoadOp::Clear(wgpu_color(colour)));
            pass.set_viewport(lb.x as f32, lb.y as f32, lb.w as f32, lb.h as f32, 0.0, 1.0);
            let runs = [
                (sky, Blend::Opaque, Texture::Skies),
                (world, Blend::Opaque, Texture::Atlas),
                (translucent, Blend::Alpha, Texture::Atlas),
                (player, Blend::Opaque, Texture::Atlas),
                (overlays, Blend::Alpha, Texture::Atlas),
            ];
            for (range, blend, texture) in runs {
                self.sprites.draw_range(&mut pass, &self.world, range, blend, texture);
            }
        }
        if !ui.quads.is_empty() || !ui.text.is_empty() {
            let mut pass = begin_pass(&mut encoder, target, "overlay pass", wgpu::LoadOp::Load);
            let (w, h) = (size.0.max(1), size.1.max(1));
            pass.set_viewport(0.0, 0.0, w as f32, h as f32, 0.0, 1.0);
            self.sprites.draw(&mut pass, &self.screen, 0, Blend::Alpha);
            self.text.draw(&mut pass);
        }
        encoder
    }

    /// Drop glyphs no longer used from the text atlas; call once per frame after submitting.
    pub fn trim(&mut self) {
        self.text.trim();
    }

    /// World instances drawn last frame.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }
}

/// Open a render pass over the whole of `target` that stores its result; `load` clears it or
/// keeps what earlier passes drew.
fn begin_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    target: &wgpu::TextureView,
    label: &str,
    load: wgpu::LoadOp<wgpu::Color>,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}
