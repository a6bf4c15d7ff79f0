//! The one [`Renderer`]: a frame's passes, recorded the same way for the window and for
//! off-screen capture.
//!
//! Clock: render frame. [`Renderer::encode`] takes the loop's [`FrameView`] and the UI's
//! [`Layer`] and records, into a new command encoder:
//!
//! The world is drawn at art resolution (one pixel per level pixel, [`crate::present::art`])
//! into the two images of [`Composite`], from one instance list ([`build_instances`]) drawn as
//! its [`Batches`], one draw per texture and blend run, centred on the drawn view (the camera
//! plus the screen shake: everything in the world moves, the bars do not):
//!
//! 1. the sky pass: the view-aligned sky image cleared to the sky's plain top colour (which
//!    stands in for the backdrop's first instance), then the rest of the sky from `skies.png`;
//! 2. the world pass: the level-aligned world image cleared transparent, then tiles, entities
//!    and `--stress` sprites from the atlas **without blending** (opaque and alpha-tested
//!    content, see [`super::pipeline`]); the ghost and the particles blended; the player
//!    unblended; the flash and fade overlays blended over the whole view (the blend leaves
//!    premultiplied alpha where the image was transparent);
//! 3. the window pass: clear the target to the letterbox colour (not where the viewport is the
//!    whole target: the composite writes every pixel, `window_load`); in the letterboxed viewport
//!    ([`letterbox`]) the composite puts the world over the sky, scaled, the world shifted by
//!    the camera's sub-pixel remainder; then, when the UI has something to draw, over the whole
//!    target, the UI's quads **alpha-blended** and its text (blended).
//!
//! Where the device has plain views of sRGB textures, the sky pass and the world pass's opaque
//! runs draw raw ([`Blend::Raw`]: the stored bytes in and out, no sRGB conversion per
//! fragment), the blended runs through the sRGB view in passes of their own (`draw_world`).
//!
//! Work whose inputs have not changed is not done again ([`super::kept`]): the sky pass and
//! the world pass are skipped when their image already holds what they would draw (the same
//! clear colour, camera, runs and instances as its last pass; nothing else writes those
//! images), and where the target accepts copies, a picture that is the same as the last
//! frame's (both images unchanged, the same placement and size) is composited once more into
//! a kept image at window resolution and from then on copied to the target, with the UI drawn
//! over the copy. A still frame then costs a copy where it cost a composite.
//!
//! The window (`app`) submits the encoder and presents; [`super::offscreen::Offscreen`] adds a
//! copy into a readback buffer first. Nothing here writes the world.

use super::composite::{Composite, CompositeUniform, image};
use super::gpu::{GpuContext, RenderError};
use super::kept::{KeptImage, KeptPicture, PassInputs, PictureKey, Plan};
use super::pipeline::{
    Blend, InstanceLayer, SpritePipeline, SpriteUniform, Texture, screen_uniform, wgpu_color,
};
use super::text::TextRenderer;
use crate::present::art::{ART_SIZE, place};
use crate::present::backdrop::plain_top;
use crate::present::instances::{Batches, LETTERBOX_SRGB, SpriteInstance, build_instances};
use crate::present::letterbox::{Letterbox, letterbox};
use crate::present::view::{FrameView, VIEW_SIZE};
use crate::ui::Layer;
use std::ops::Range;

/// Initial world instance buffer capacity (grows by doubling).
const WORLD_CAPACITY: usize = 1024;

/// Initial screen-space instance buffer capacity (grows by doubling): the telemetry graphs
/// need a few hundred quads.
const SCREEN_CAPACITY: usize = 1024;

/// Sprites and text for targets of one format: the pipelines, the world and screen-space
/// instance lists, and the text renderer.
#[derive(Debug)]
pub struct Renderer {
    sprites: SpritePipeline,
    text: TextRenderer,
    /// The world camera (level pixels, the world image) and its instances.
    world: InstanceLayer,
    /// The view camera (level pixels, the sky image) and the sky's instances.
    sky: InstanceLayer,
    /// The art-resolution images and their composite onto the window.
    composite: Composite,
    /// The screen-space camera (window pixels) and the UI's quads.
    screen: InstanceLayer,
    /// This frame's world instances (kept to reuse the allocation).
    instances: Vec<SpriteInstance>,
    /// What the sky image holds (its last pass's inputs).
    sky_kept: KeptImage,
    /// What the world image holds.
    world_kept: KeptImage,
    /// Which window picture is kept, and its image (made at the first frame that keeps one,
    /// and again at another target size).
    picture: KeptPicture,
    picture_image: Option<PictureImage>,
    /// The targets' format (sRGB).
    format: wgpu::TextureFormat,
    /// Whether the opaque runs draw raw where the device allows ([`Blend::Raw`]); tests turn
    /// it off to compare the two ways ([`Renderer::set_raw_art`]).
    raw_art: bool,
}

/// The window picture kept at window resolution: the target's size, pixels, its texture (copied
/// to later frames' targets), its sRGB view and its plain view where the raw composite draws.
#[derive(Debug)]
struct PictureImage {
    size: (u32, u32),
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    plain: Option<wgpu::TextureView>,
}

/// Where a frame is drawn: the target's sRGB view (the format the renderer was built for) and,
/// where the target has one, a view of the same texture in the plain format, through which the
/// raw composite writes (`composite` "Two composites"). Without it the exact composite draws.
#[derive(Clone, Copy, Debug)]
pub struct FrameTarget<'a> {
    /// The sRGB view.
    pub view: &'a wgpu::TextureView,
    /// The plain view of the same texture, if it can have one.
    pub plain: Option<&'a wgpu::TextureView>,
    /// The texture itself where it accepts copies (`TextureUsages::COPY_DST`): a picture that
    /// has not changed is then copied to it rather than composited again (`kept`).
    pub copy_dst: Option<&'a wgpu::Texture>,
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
        let sky = sprites.layer(ctx, "sky instances", WORLD_CAPACITY);
        let screen = sprites.layer(ctx, "screen-space instances", SCREEN_CAPACITY);
        let composite = Composite::new(ctx, format);
        let instances = Vec::with_capacity(WORLD_CAPACITY);
        Ok(Self {
            sprites,
            text,
            world,
            sky,
            composite,
            screen,
            instances,
            sky_kept: KeptImage::default(),
            world_kept: KeptImage::default(),
            picture: KeptPicture::default(),
            picture_image: None,
            format,
            raw_art: true,
        })
    }

    /// Upload this frame (`view` and `ui` for a target of `size` = (width, height) pixels) and
    /// record its passes into `target`. Returns the encoder: the caller submits it (after
    /// adding any copy of its own).
    pub fn encode(
        &mut self,
        ctx: &GpuContext,
        target: FrameTarget<'_>,
        size: (u32, u32),
        view: &FrameView<'_>,
        ui: &Layer,
    ) -> wgpu::CommandEncoder {
        let Batches { mut sky, world, translucent, player, overlays } =
            build_instances(view, &mut self.instances);
        let lb = letterbox(size.0, size.1);
        let centre = view.camera + view.shake;
        let placed = place(centre, lb.scale);
        let camera = |center: [f32; 2], view_size: [f32; 2]| SpriteUniform {
            center,
            view_size,
            scale: 1.0,
            _pad0: 0.0,
            _pad1: [0.0; 2],
        };
        let (view_w, view_h) = (VIEW_SIZE.x as f32, VIEW_SIZE.y as f32);
        let sky_camera = camera([centre.x as f32, centre.y as f32], [view_w, view_h]);
        // Clearing to the sky's plain top colour draws the backdrop's first instance (a solid
        // quad of it) for free: a full-view quad is fragment work the clear is not.
        let sky_clear = if sky.is_empty() {
            LETTERBOX_SRGB
        } else {
            sky.start += 1;
            plain_top(view.level.sky)
        };
        let sky_runs = [sky.clone()];
        let sky_inputs = PassInputs {
            clear: sky_clear,
            camera: sky_camera,
            runs: &sky_runs,
            instances: &self.instances[..sky.end as usize],
        };
        let sky_is_kept = self.sky_kept.holds(&sky_inputs);
        if !sky_is_kept {
            self.sky.upload(ctx, sky_inputs.instances, &sky_camera);
        }
        let (art_w, art_h) = (ART_SIZE.0 as f32, ART_SIZE.1 as f32);
        let origin = [placed.origin.x as f32 + art_w / 2.0, placed.origin.y as f32 + art_h / 2.0];
        let world_runs = [world, translucent, player, overlays];
        let world_inputs = PassInputs {
            clear: [0; 3],
            camera: camera(origin, [art_w, art_h]),
            runs: &world_runs,
            instances: &self.instances,
        };
        let world_is_kept = self.world_kept.holds(&world_inputs);
        if !world_is_kept {
            self.world.upload(ctx, world_inputs.instances, &world_inputs.camera);
        }
        let composite = CompositeUniform::new(&lb, &placed);
        self.composite.upload(ctx, &composite);
        self.screen.upload(ctx, &ui.quads, &screen_uniform(size.0, size.1));
        self.text.prepare(ctx, size, &ui.text);

        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame encoder") });
        let raw = self.composite.plain.as_ref().filter(|_| self.raw_art && self.sprites.has_raw());
        if !sky_is_kept {
            let label = "sky pass (art resolution)";
            let mut pass = match raw {
                // The plain view stores the clear colour as given: the sRGB bytes themselves.
                Some((sky_plain, _)) => {
                    let [r, g, b] = sky_clear.map(|c| f64::from(c) / 255.0);
                    let clear = wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a: 1.0 });
                    begin_pass(&mut encoder, sky_plain, label, clear)
                }
                None => begin_pass(
                    &mut encoder,
                    &self.composite.sky,
                    label,
                    wgpu::LoadOp::Clear(wgpu_color(sky_clear)),
                ),
            };
            let blend = if raw.is_some() { Blend::Raw } else { Blend::Opaque };
            self.sprites.draw_range(&mut pass, &self.sky, sky, blend, Texture::Skies);
            drop(pass);
            self.sky_kept.drawn(&sky_inputs);
        }
        if !world_is_kept {
            let opaque = if raw.is_some() { Blend::Raw } else { Blend::Opaque };
            let blends = [opaque, Blend::Alpha, opaque, Blend::Alpha];
            self.draw_world(&mut encoder, &world_runs, &blends, raw.map(|(_, world_plain)| world_plain));
            self.world_kept.drawn(&world_inputs);
        }
        let has_ui = !ui.quads.is_empty() || !ui.text.is_empty();
        let plan = match target.copy_dst {
            Some(_) => self.picture.plan(PictureKey {
                sky: self.sky_kept.generation(),
                world: self.world_kept.generation(),
                composite,
                size,
            }),
            None => {
                self.picture.not_kept();
                Plan::Draw
            }
        };
        if plan == Plan::DrawAndKeep {
            self.make_picture_image(ctx, size);
        }
        let picture = self.picture_image.as_ref().filter(|p| p.size == size);
        match (plan, target.copy_dst, picture) {
            (Plan::Copy | Plan::DrawAndKeep, Some(dst), Some(picture)) => {
                if plan == Plan::DrawAndKeep {
                    let kept =
                        FrameTarget { view: &picture.view, plain: picture.plain.as_ref(), copy_dst: None };
                    self.draw_window(&mut encoder, kept, &lb, size, false);
                }
                let src = &picture.texture;
                encoder.copy_texture_to_texture(src.as_image_copy(), dst.as_image_copy(), src.size());
                if has_ui {
                    let mut pass = begin_pass(&mut encoder, target.view, "UI pass", wgpu::LoadOp::Load);
                    self.draw_ui(&mut pass);
                }
            }
            _ => self.draw_window(&mut encoder, target, &lb, size, has_ui),
        }
        encoder
    }

    /// The world pass: `runs` of the world layer drawn with their `blends` into the world image,
    /// cleared transparent first. [`Blend::Raw`] runs draw through the image's `plain` view,
    /// the others through its sRGB view, so consecutive non-empty runs through the same view
    /// share a render pass: with no particles, ghost or overlay, one pass.
    fn draw_world(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        runs: &[Range<u32>; 4],
        blends: &[Blend; 4],
        plain: Option<&wgpu::TextureView>,
    ) {
        let label = "world pass (art resolution)";
        let through_plain = |i: usize| blends[i] == Blend::Raw;
        let mut load = wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT);
        let mut i = 0;
        while i < runs.len() {
            if runs[i].is_empty() {
                i += 1;
                continue;
            }
            let mut end = i + 1;
            while end < runs.len() && (runs[end].is_empty() || through_plain(end) == through_plain(i)) {
                end += 1;
            }
            let view = match plain {
                Some(plain) if through_plain(i) => plain,
                _ => &self.composite.world,
            };
            let mut pass = begin_pass(encoder, view, label, load);
            for k in i..end {
                self.sprites.draw_range(&mut pass, &self.world, runs[k].clone(), blends[k], Texture::Atlas);
            }
            load = wgpu::LoadOp::Load;
            i = end;
        }
        if load != wgpu::LoadOp::Load {
            // Nothing to draw: the image is still cleared.
            drop(begin_pass(encoder, &self.composite.world, label, load));
        }
    }

    /// The window pass into `target` (of `size` pixels, letterboxed as `lb`): the composite of
    /// the two images and, with `ui`, the UI over it.
    fn draw_window(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: FrameTarget<'_>,
        lb: &Letterbox,
        size: (u32, u32),
        ui: bool,
    ) {
        match target.plain.filter(|_| self.composite.has_raw()) {
            Some(plain) => {
                // The raw composite writes bytes through the plain view; the UI blends in
                // linear light through the sRGB view, in a pass of its own after it.
                let [r, g, b] = LETTERBOX_SRGB.map(|c| f64::from(c) / 255.0);
                let load = window_load(lb, size, wgpu::Color { r, g, b, a: 1.0 });
                let mut pass = begin_pass(encoder, plain, "window pass (raw composite)", load);
                pass.set_viewport(lb.x as f32, lb.y as f32, lb.w as f32, lb.h as f32, 0.0, 1.0);
                self.composite.draw_raw(&mut pass);
                drop(pass);
                if ui {
                    let mut pass = begin_pass(encoder, target.view, "UI pass", wgpu::LoadOp::Load);
                    self.draw_ui(&mut pass);
                }
            }
            None => {
                let load = window_load(lb, size, wgpu_color(LETTERBOX_SRGB));
                let mut pass = begin_pass(encoder, target.view, "window pass", load);
                pass.set_viewport(lb.x as f32, lb.y as f32, lb.w as f32, lb.h as f32, 0.0, 1.0);
                self.composite.draw(&mut pass);
                if ui {
                    let (w, h) = (size.0.max(1), size.1.max(1));
                    pass.set_viewport(0.0, 0.0, w as f32, h as f32, 0.0, 1.0);
                    self.draw_ui(&mut pass);
                }
            }
        }
    }

    /// Make the kept picture's image for a target of `size` pixels if it is missing or of
    /// another size.
    fn make_picture_image(&mut self, ctx: &GpuContext, size: (u32, u32)) {
        if self.picture_image.as_ref().is_some_and(|p| p.size == size) {
            return;
        }
        let copied = wgpu::TextureUsages::COPY_SRC;
        let label = "kept picture (window resolution)";
        let (texture, view, plain) = image(ctx, label, size, self.format, self.composite.has_raw(), copied);
        self.picture_image = Some(PictureImage { size, texture, view, plain });
    }

    /// The UI's quads, then its text, over the whole target (the pass's viewport).
    fn draw_ui(&self, pass: &mut wgpu::RenderPass<'_>) {
        self.sprites.draw(pass, &self.screen, 0, Blend::Alpha);
        self.text.draw(pass);
    }

    /// Record one pass that clears `target` to the letterbox colour and draws nothing: the
    /// floor a frame of this renderer stands on (the page's `?bare`).
    pub fn encode_clear(&self, ctx: &GpuContext, target: &wgpu::TextureView) -> wgpu::CommandEncoder {
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("bare frame encoder") });
        let clear = wgpu::LoadOp::Clear(wgpu_color(LETTERBOX_SRGB));
        drop(begin_pass(&mut encoder, target, "bare pass", clear));
        encoder
    }

    /// Draw the sky and the opaque world runs raw where the device allows (the default), or
    /// always through sRGB views: the same bytes, which a test checks. Forgets the kept images,
    /// since they were drawn the other way.
    pub fn set_raw_art(&mut self, on: bool) {
        self.raw_art = on;
        self.sky_kept = KeptImage::default();
        self.world_kept = KeptImage::default();
        self.picture = KeptPicture::default();
    }

    /// World instances drawn last frame.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }
}

/// The window pass's load op for a target of `size` pixels letterboxed as `lb`: clear to the
/// bars' `colour`, or, where the letterboxed viewport is the whole target (no bars: 1280 x 720,
/// 1920 x 1080, 2560 x 1440, ...), leave its contents undefined. The composite then writes every
/// pixel before anything reads one, and skipping the clear saves a fill of the whole target,
/// which on a software rasteriser is 0.5 to 1 ms of a 1280 x 720 frame (docs/speed.md "The
/// renderer"). WebGPU has no such load op; wgpu clears there instead.
fn window_load(lb: &Letterbox, size: (u32, u32), colour: wgpu::Color) -> wgpu::LoadOp<wgpu::Color> {
    if lb.covers(size.0, size.1) {
        // SAFETY: the viewport is the whole target and the composite draws one unblended
        // triangle over all of it (`shaders/composite.wgsl`, no discard) before the UI blends
        // over it, so every pixel is written before it is read or stored.
        #[expect(unsafe_code, reason = "wgpu's token for an undefined load (LoadOp::DontCare)")]
        wgpu::LoadOp::DontCare(unsafe { wgpu::LoadOpDontCare::enabled() })
    } else {
        wgpu::LoadOp::Clear(colour)
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
