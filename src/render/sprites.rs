//! The sprite renderer: one atlas, one unit quad, one instance buffer, one draw per texture run.
//!
//! Clock: render frame. [`build_instances`] turns a [`FrameView`] snapshot into
//! [`SpriteInstance`]s on the CPU (pure: benchable and unit-tested without a GPU);
//! [`SpriteRenderer`] uploads them and draws them with `shaders/sprite.wgsl`. It never writes
//! the world.
//!
//! Draw order in the one instance list: the sky (a solid quad covering the view), the tiles in
//! view (checkpoints and the goal are tiles in `Level::gfx` too; the goal is drawn rotated by
//! [`FrameView::goal_angle`], everything else upright), then the player. Instances
//! are grouped into runs that share a texture ([`SpriteBatch`], as Bevy's sprite renderer
//! does); Ledge has one atlas, so that is one run and one draw call.
//!
//! Pixel crispness: the view (640 x 360 level pixels, [`VIEW_SIZE`]) is drawn at the largest
//! integer scale that fits the window ([`letterbox`]), centred with dark bars, and the shader
//! snaps every quad corner to a whole window pixel, so every texel is `scale` x `scale`
//! window pixels at any camera offset. The atlas is sampled with nearest filtering, and each
//! instance's UV rectangle is the *inner* atlas cell (the 1 px extruded padding stays
//! outside), so neighbouring cells never bleed in.
//!
//! Rotation ([`SpriteInstance::rotation`], only the goal today): the quad turns about its
//! centre, which is snapped to a whole window pixel (so it keeps step with the tiles around it
//! as the camera moves); its corners then land off the pixel grid, and nearest sampling makes
//! the edges stair-stepped at angles that are not a multiple of 90°, which is the honest look
//! of rotated pixel art. The UVs still span only the inner cell, and a fragment whose
//! interpolated UV rounds just past the cell's edge reads the 1 px extruded border (a copy of
//! the edge), never the neighbour.
//!
//! Screen space: the same pipeline also draws a second, small instance list in *window*
//! pixels over the whole target (HUD panels, the pause dimmer, telemetry graphs), through a
//! second camera uniform ([`screen_uniform`]: centre at the target's middle, view the target's
//! size, scale 1), so the shader needs no extra mode. [`SpriteRenderer::prepare_screen`] uploads
//! it; [`SpriteRenderer::draw_screen`] records it into the overlay pass
//! ([`begin_overlay_pass`]), before the text.

use super::atlas::{self, AtlasRegion};
use super::gpu::{GpuContext, RenderError};
use super::view::{FrameView, VIEW_SIZE};
use crate::level::TILE;
use std::ops::Range;

/// The sky, sRGB 0..255: a clear light blue.
pub const SKY_SRGB: [u8; 3] = [110, 193, 234];
/// The letterbox bars around the view, sRGB 0..255: near black with a touch of blue.
pub const LETTERBOX_SRGB: [u8; 3] = [18, 18, 28];

/// Instance flag: mirror the sprite horizontally (the player facing left).
pub const FLAG_FLIP_X: u32 = 1;
/// Instance flag: fill the quad with a solid colour; `uv_rect` holds linear RGBA.
pub const FLAG_SOLID: u32 = 2;

/// One sprite as the GPU reads it (vertex buffer slot 0, stepped per instance). Mirrors
/// `Instance` in `shaders/sprite.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SpriteInstance {
    /// Top-left corner, level pixels.
    pub pos: [f32; 2],
    /// Width and height, level pixels.
    pub size: [f32; 2],
    /// Inner atlas cell `[u0, v0, u1, v1]`, normalised 0..1 (padding excluded); for
    /// [`FLAG_SOLID`] the linear RGBA fill colour.
    pub uv_rect: [f32; 4],
    /// Bit 0 [`FLAG_FLIP_X`], bit 1 [`FLAG_SOLID`].
    pub flags: u32,
    /// Rotation about the quad's centre, radians, clockwise on screen (y grows downward); 0
    /// for everything but the spinning goal ([`FrameView::goal_angle`]). A rotated quad's
    /// centre is snapped to a whole window pixel instead of its corners; an unrotated one is
    /// drawn exactly as before rotation existed.
    pub rotation: f32,
}

impl SpriteInstance {
    /// Shader locations 0..=4: pos, size, uv_rect, flags, rotation.
    const ATTRIBUTES: [wgpu::VertexAttribute; 5] = wgpu::vertex_attr_array![
        0 => Float32x2, 1 => Float32x2, 2 => Float32x4, 3 => Uint32, 4 => Float32
    ];

    /// The per-instance vertex buffer layout (40-byte stride).
    pub fn desc() -> wgpu::VertexBufferLayout<'static> {
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<SpriteInstance>() as wgpu::BufferAddress,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &Self::ATTRIBUTES,
        }
    }
}

/// The camera as the shader reads it (bind group 0, binding 0). Mirrors `Camera` in
/// `shaders/sprite.wgsl`; 32 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SpriteUniform {
    /// Camera centre, level pixels.
    pub center: [f32; 2],
    /// Visible area, level pixels ([`VIEW_SIZE`]).
    pub view_size: [f32; 2],
    /// Window pixels per level pixel ([`Letterbox::scale`]); quad corners snap to 1/scale.
    pub scale: f32,
    /// Padding to 16-byte alignment.
    pub _pad0: f32,
    /// Padding to 16-byte alignment.
    pub _pad1: [f32; 2],
}

/// A run of consecutive instances drawn with one texture: one draw call (Bevy's
/// `SpriteBatch { range }`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteBatch {
    /// Instance indices in the instance buffer.
    pub range: Range<u32>,
}

/// Where the view lands in a target: an integer-scaled, centred rectangle (window pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Letterbox {
    /// Left edge, pixels from the target's left.
    pub x: u32,
    /// Top edge, pixels from the target's top.
    pub y: u32,
    /// Width, pixels (`640 * scale`).
    pub w: u32,
    /// Height, pixels (`360 * scale`).
    pub h: u32,
    /// Window pixels per level pixel.
    pub scale: f32,
}

/// Fit the 640 x 360 view into a `target_w` x `target_h` pixel target: the largest integer
/// scale that fits (`max(1, floor(min(w / 640, h / 360)))`), centred, bars around. A target
/// smaller than 640 x 360 gets the fractional scale that fits instead (smaller, not crisp, but
/// whole) rather than a cropped view.
pub fn letterbox(target_w: u32, target_h: u32) -> Letterbox {
    let fit = (f64::from(target_w) / VIEW_SIZE.x).min(f64::from(target_h) / VIEW_SIZE.y);
    let scale = if fit >= 1.0 { fit.floor() } else { fit.max(1e-6) };
    let w = ((VIEW_SIZE.x * scale).round() as u32).clamp(1, target_w.max(1));
    let h = ((VIEW_SIZE.y * scale).round() as u32).clamp(1, target_h.max(1));
    Letterbox {
        x: target_w.saturating_sub(w) / 2,
        y: target_h.saturating_sub(h) / 2,
        w,
        h,
        scale: scale as f32,
    }
}

/// The camera uniform that makes instance positions window pixels: the view is the whole
/// `target_w` x `target_h` target, centred on its middle, at scale 1 (so the shader's
/// `floor(world - top_left + 0.5)` snaps a quad to whole window pixels and its NDC mapping
/// spans the full-target viewport).
pub fn screen_uniform(target_w: u32, target_h: u32) -> SpriteUniform {
    let (w, h) = (target_w.max(1) as f32, target_h.max(1) as f32);
    SpriteUniform { center: [w * 0.5, h * 0.5], view_size: [w, h], scale: 1.0, _pad0: 0.0, _pad1: [0.0; 2] }
}

/// Open the overlay pass over `target`: keeps what the sprite pass drew (`LoadOp::Load`), full
/// target viewport. Record [`SpriteRenderer::draw_screen`] then the text into it.
pub fn begin_overlay_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    target: &wgpu::TextureView,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("overlay pass"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// sRGB 0..255 → linear 0..1 (the exact sRGB transfer function, IEC 61966-2-1).
pub fn srgb_to_linear(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

fn linear_rgba(srgb: [u8; 3]) -> [f32; 4] {
    [srgb_to_linear(srgb[0]) as f32, srgb_to_linear(srgb[1]) as f32, srgb_to_linear(srgb[2]) as f32, 1.0]
}

fn wgpu_color(srgb: [u8; 3]) -> wgpu::Color {
    wgpu::Color { r: srgb_to_linear(srgb[0]), g: srgb_to_linear(srgb[1]), b: srgb_to_linear(srgb[2]), a: 1.0 }
}

/// Normalised `[u0, v0, u1, v1]` of an atlas region (inner cell, no padding).
fn uv_of(r: AtlasRegion) -> [f32; 4] {
    let (aw, ah) = (atlas::ATLAS_SIZE.x as f32, atlas::ATLAS_SIZE.y as f32);
    [r.x as f32 / aw, r.y as f32 / ah, (r.x + r.w) as f32 / aw, (r.y + r.h) as f32 / ah]
}

/// The checkpoint flag in cell (`tx`, `ty`) is drawn lit once its checkpoint was reached;
/// every other tile index is drawn as it is.
fn lit(view: &FrameView<'_>, index: u32, tx: usize, ty: usize) -> u32 {
    if index != atlas::CHECKPOINT {
        return index;
    }
    let centre = glam::DVec2::new((tx as f64 + 0.5) * TILE, (ty as f64 + 0.5) * TILE);
    let reached = view.level.checkpoints.iter().enumerate().any(|(i, cp)| {
        let a = cp.area;
        view.reached.get(i).copied().unwrap_or(false)
            && (a.pos.x..=a.pos.x + a.size.x).contains(&centre.x)
            && (a.pos.y..=a.pos.y + a.size.y).contains(&centre.y)
    });
    if reached { atlas::CHECKPOINT_LIT } else { index }
}

/// Build this frame's instances from `view` into `out` (cleared first): the sky, the tiles
/// whose cells overlap the view (culled by the camera), then the player. Pure CPU work.
pub fn build_instances(view: &FrameView<'_>, out: &mut Vec<SpriteInstance>) {
    out.clear();
    let top_left = view.camera - VIEW_SIZE * 0.5;
    out.push(SpriteInstance {
        pos: [top_left.x as f32, top_left.y as f32],
        size: [VIEW_SIZE.x as f32, VIEW_SIZE.y as f32],
        uv_rect: linear_rgba(SKY_SRGB),
        flags: FLAG_SOLID,
        rotation: 0.0,
    });

    let level = view.level;
    let bottom_right = top_left + VIEW_SIZE;
    let cells = |lo: f64, hi: f64, n: usize| -> Range<usize> {
        let a = (lo / TILE).floor().clamp(0.0, n as f64) as usize;
        let b = (hi / TILE).ceil().clamp(0.0, n as f64) as usize;
        a..b
    };
    let cols = cells(top_left.x, bottom_right.x, level.width);
    for ty in cells(top_left.y, bottom_right.y, level.height) {
        let row = &level.gfx[ty * level.width..(ty + 1) * level.width];
        for tx in cols.clone() {
            if let Some(index) = row[tx] {
                let region = atlas::tile_region(lit(view, index, tx, ty));
                // The goal portal spins in place (render/spin.rs); every other tile is upright.
                let rotation = if index == atlas::GOAL { view.goal_angle as f32 } else { 0.0 };
                out.push(SpriteInstance {
                    pos: [tx as f32 * TILE as f32, ty as f32 * TILE as f32],
                    size: [region.w as f32, region.h as f32],
                    uv_rect: uv_of(region),
                    flags: 0,
                    rotation,
                });
            }
        }
    }

    // `--stress` sprites: one run of instances sharing the atlas, like everything else.
    let stress = atlas::tile_region(atlas::GOAL);
    let stress_uv = uv_of(stress);
    out.extend(view.extra.iter().map(|p| SpriteInstance {
        pos: [p.x as f32, p.y as f32],
        size: [stress.w as f32, stress.h as f32],
        uv_rect: stress_uv,
        flags: 0,
        rotation: 0.0,
    }));

    // The player: the sprite (16 x 24) stands bottom-centred on the hitbox (12 x 22).
    let p = &view.player;
    let region = atlas::player_region(p.pose);
    let (w, h) = (f64::from(region.w), f64::from(region.h));
    let x = p.pos.x + (p.hitbox.x - w) * 0.5;
    let y = p.pos.y + p.hitbox.y - h;
    out.push(SpriteInstance {
        pos: [x as f32, y as f32],
        size: [w as f32, h as f32],
        uv_rect: uv_of(region),
        flags: if p.facing_left { FLAG_FLIP_X } else { 0 },
        rotation: 0.0,
    });
}

/// Split `n` instances into texture runs. One atlas, so one run (none when `n` is 0).
fn batches(n: usize, out: &mut Vec<SpriteBatch>) {
    out.clear();
    if n > 0 {
        out.push(SpriteBatch { range: 0..n as u32 });
    }
}

/// Initial instance buffer capacity (grows by doubling).
const INITIAL_CAPACITY: usize = 1024;

/// Initial screen-space instance buffer capacity (grows by doubling): the telemetry graphs
/// need a few hundred quads.
const SCREEN_CAPACITY: usize = 1024;

/// GPU side of sprite drawing: pipeline, atlas, camera uniform and the instance buffer.
#[derive(Debug)]
pub struct SpriteRenderer {
    pipeline: wgpu::RenderPipeline,
    bind_group: wgpu::BindGroup,
    uniform_buffer: wgpu::Buffer,
    instance_buffer: wgpu::Buffer,
    /// Instances the buffer holds.
    capacity: usize,
    /// This frame's instances (kept to reuse the allocation).
    instances: Vec<SpriteInstance>,
    /// This frame's texture runs.
    batches: Vec<SpriteBatch>,
    /// Where the view lands in the target this frame.
    letterbox: Letterbox,
    /// Quads in window pixels drawn by [`SpriteRenderer::draw_screen`].
    screen: ScreenLayer,
}

/// The screen-space instance list: its own camera uniform, bind group and instance buffer.
#[derive(Debug)]
struct ScreenLayer {
    uniform_buffer: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    instance_buffer: wgpu::Buffer,
    /// Instances the buffer holds.
    capacity: usize,
    /// Instances uploaded this frame.
    count: u32,
    /// Target size this frame, pixels.
    target: (u32, u32),
}

impl SpriteRenderer {
    /// Load the atlas PNG from the assets folder ([`atlas::ATLAS_PATH`]) and build a renderer
    /// drawing into targets of `format`.
    ///
    /// # Errors
    /// [`RenderError::Atlas`] when the assets folder or the PNG cannot be found or decoded.
    pub fn new(ctx: &GpuContext, format: wgpu::TextureFormat) -> Result<Self, RenderError> {
        let dir = crate::assets::assets_dir().map_err(|e| RenderError::Atlas(e.to_string()))?;
        let path = dir.join(atlas::ATLAS_PATH);
        let (w, h, rgba) =
            crate::assets::load_png_rgba(&path).map_err(|e| RenderError::Atlas(e.to_string()))?;
        if (w, h) != (atlas::ATLAS_SIZE.x, atlas::ATLAS_SIZE.y) {
            return Err(RenderError::Atlas(format!(
                "{}: {w}x{h}, expected {}x{}",
                path.display(),
                atlas::ATLAS_SIZE.x,
                atlas::ATLAS_SIZE.y
            )));
        }
        Ok(Self::with_atlas(ctx, format, w, h, &rgba))
    }

    /// Build a renderer from atlas pixels already in memory (`rgba`: `w * h * 4` bytes, sRGB).
    ///
    /// # Panics
    /// If `rgba.len() != w * h * 4` (a bug in the caller).
    pub fn with_atlas(ctx: &GpuContext, format: wgpu::TextureFormat, w: u32, h: u32, rgba: &[u8]) -> Self {
        assert_eq!(rgba.len(), (w * h * 4) as usize, "atlas pixels do not match its size");
        let device = &ctx.device;
        let size = wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 };
        let atlas_texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("sprite atlas"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8UnormSrgb,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        ctx.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &atlas_texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            rgba,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * w), rows_per_image: Some(h) },
            size,
        );
        let atlas_view = atlas_texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("sprite atlas view"),
            ..Default::default()
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("sprite atlas sampler (nearest)"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Nearest,
            min_filter: wgpu::FilterMode::Nearest,
            ..Default::default()
        });
        let uniform_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("sprite camera uniform"),
            size: std::mem::size_of::<SpriteUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sprite bind group layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<SpriteUniform>() as u64),
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        // One bind group per camera (world, screen space): its uniform, the atlas, the sampler.
        let camera_bind_group = |label: &str, uniform: &wgpu::Buffer| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(label),
                layout: &layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::TextureView(&atlas_view),
                    },
                    wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(&sampler) },
                ],
            })
        };
        let bind_group = camera_bind_group("sprite bind group", &uniform_buffer);
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("sprite.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/sprite.wgsl").into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("sprite pipeline layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("sprite pipeline"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[Some(SpriteInstance::desc())],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleStrip,
                ..Default::default()
            },
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let instance_buffer = Self::create_instance_buffer(device, INITIAL_CAPACITY);
        let screen_uniform_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("screen-space camera uniform"),
            size: std::mem::size_of::<SpriteUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let screen_bind_group = camera_bind_group("screen-space bind group", &screen_uniform_buffer);
        let screen = ScreenLayer {
            uniform_buffer: screen_uniform_buffer,
            bind_group: screen_bind_group,
            instance_buffer: Self::create_instance_buffer(device, SCREEN_CAPACITY),
            capacity: SCREEN_CAPACITY,
            count: 0,
            target: (1, 1),
        };
        Self {
            pipeline,
            bind_group,
            uniform_buffer,
            instance_buffer,
            capacity: INITIAL_CAPACITY,
            instances: Vec::with_capacity(INITIAL_CAPACITY),
            batches: Vec::new(),
            letterbox: letterbox(VIEW_SIZE.x as u32, VIEW_SIZE.y as u32),
            screen,
        }
    }

    fn create_instance_buffer(device: &wgpu::Device, capacity: usize) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("sprite instances"),
            size: (capacity * std::mem::size_of::<SpriteInstance>()) as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Build and upload this frame's instances and camera for a `target` of (width, height)
    /// pixels. Call once per frame before [`SpriteRenderer::draw`].
    pub fn prepare(&mut self, ctx: &GpuContext, view: &FrameView<'_>, target: (u32, u32)) {
        build_instances(view, &mut self.instances);
        batches(self.instances.len(), &mut self.batches);
        if self.instances.len() > self.capacity {
            let mut cap = self.capacity.max(1);
            while cap < self.instances.len() {
                cap *= 2;
            }
            log::debug!("sprite instance buffer grows {} → {cap}", self.capacity);
            self.instance_buffer = Self::create_instance_buffer(&ctx.device, cap);
            self.capacity = cap;
        }
        ctx.queue.write_buffer(&self.instance_buffer, 0, bytemuck::cast_slice(&self.instances));
        self.letterbox = letterbox(target.0, target.1);
        let uniform = SpriteUniform {
            center: [view.camera.x as f32, view.camera.y as f32],
            view_size: [VIEW_SIZE.x as f32, VIEW_SIZE.y as f32],
            scale: self.letterbox.scale,
            _pad0: 0.0,
            _pad1: [0.0; 2],
        };
        ctx.queue.write_buffer(&self.uniform_buffer, 0, bytemuck::bytes_of(&uniform));
    }

    /// Record this frame's render pass into `encoder`: clear `target` to the letterbox colour,
    /// then draw every run into the letterboxed viewport.
    pub fn draw(&self, encoder: &mut wgpu::CommandEncoder, target: &wgpu::TextureView) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("sprite pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu_color(LETTERBOX_SRGB)),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        let lb = self.letterbox;
        pass.set_viewport(lb.x as f32, lb.y as f32, lb.w as f32, lb.h as f32, 0.0, 1.0);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.set_vertex_buffer(0, self.instance_buffer.slice(..));
        for batch in &self.batches {
            pass.draw(0..4, batch.range.clone());
        }
    }

    /// Upload this frame's screen-space `quads` (positions and sizes in window pixels, e.g.
    /// [`FLAG_SOLID`] panels and graph bars) for a `target` of (width, height) pixels. Call once
    /// per frame before [`SpriteRenderer::draw_screen`]; an empty slice draws nothing.
    pub fn prepare_screen(&mut self, ctx: &GpuContext, quads: &[SpriteInstance], target: (u32, u32)) {
        let layer = &mut self.screen;
        if quads.len() > layer.capacity {
            let mut cap = layer.capacity.max(1);
            while cap < quads.len() {
                cap *= 2;
            }
            log::debug!("screen-space instance buffer grows {} → {cap}", layer.capacity);
            layer.instance_buffer = Self::create_instance_buffer(&ctx.device, cap);
            layer.capacity = cap;
        }
        if !quads.is_empty() {
            ctx.queue.write_buffer(&layer.instance_buffer, 0, bytemuck::cast_slice(quads));
        }
        layer.count = quads.len() as u32;
        layer.target = (target.0.max(1), target.1.max(1));
        let uniform = screen_uniform(target.0, target.1);
        ctx.queue.write_buffer(&layer.uniform_buffer, 0, bytemuck::bytes_of(&uniform));
    }

    /// Record the screen-space quads into `pass` (the overlay pass, [`begin_overlay_pass`]):
    /// one draw over the whole target, in upload order.
    pub fn draw_screen(&self, pass: &mut wgpu::RenderPass<'_>) {
        let layer = &self.screen;
        if layer.count == 0 {
            return;
        }
        let (w, h) = layer.target;
        pass.set_viewport(0.0, 0.0, w as f32, h as f32, 0.0, 1.0);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &layer.bind_group, &[]);
        pass.set_vertex_buffer(0, layer.instance_buffer.slice(..));
        pass.draw(0..4, 0..layer.count);
    }

    /// Instances drawn last frame.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }

    /// Draw calls issued last frame (one per texture run).
    pub fn draw_calls(&self) -> usize {
        self.batches.len()
    }

    /// Where the view landed in the target last frame.
    pub fn letterbox(&self) -> Letterbox {
        self.letterbox
    }
}

/// The renderer without a window: draws into a texture and reads it back. For golden images,
/// the lab's screenshots and `--shot`.
#[derive(Debug)]
pub struct Offscreen {
    /// GPU context (no surface).
    pub ctx: GpuContext,
    renderer: SpriteRenderer,
}

/// Off-screen target format: RGBA bytes in sRGB, what PNG files hold.
pub const OFFSCREEN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

impl Offscreen {
    /// Open a headless GPU context and load the atlas.
    ///
    /// # Errors
    /// No adapter, no device, or the atlas cannot be loaded.
    pub fn new() -> Result<Self, RenderError> {
        let ctx = GpuContext::headless()?;
        let renderer = SpriteRenderer::new(&ctx, OFFSCREEN_FORMAT)?;
        Ok(Self { ctx, renderer })
    }

    /// Draw `view` into a `width` x `height` image and return its pixels: RGBA8 sRGB,
    /// row-major from the top-left, `width * height * 4` bytes.
    ///
    /// # Errors
    /// [`RenderError::Readback`] if the image cannot be mapped back (device lost), or a zero
    /// size.
    pub fn render(&mut self, view: &FrameView<'_>, width: u32, height: u32) -> Result<Vec<u8>, RenderError> {
        self.render_with_overlay(view, width, height, &[], |_, _| {})
    }

    /// Like [`Offscreen::render`], then an overlay pass over the whole image
    /// ([`begin_overlay_pass`]): the screen-space `quads` (window pixels), then whatever
    /// `overlay` records into the pass (e.g. [`super::text::TextRenderer::draw`], prepared
    /// beforehand with [`OFFSCREEN_FORMAT`] and this size).
    ///
    /// # Errors
    /// As [`Offscreen::render`].
    pub fn render_with_overlay(
        &mut self,
        view: &FrameView<'_>,
        width: u32,
        height: u32,
        quads: &[SpriteInstance],
        overlay: impl FnOnce(&GpuContext, &mut wgpu::RenderPass<'_>),
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
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let target = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("offscreen target view"),
            ..Default::default()
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

        self.renderer.prepare(&self.ctx, view, (width, height));
        let mut encoder = device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("offscreen encoder") });
        self.renderer.draw(&mut encoder, &target);
        self.renderer.prepare_screen(&self.ctx, quads, (width, height));
        {
            let mut pass = begin_overlay_pass(&mut encoder, &target);
            self.renderer.draw_screen(&mut pass);
            overlay(&self.ctx, &mut pass);
        }
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

/// Draw `view` off-screen into a `width` x `height` RGBA8 (sRGB) image, with no window. Opens
/// a GPU context for the call; use [`Offscreen`] to draw many images.
///
/// # Errors
/// No adapter, no device, atlas missing, or readback failure.
pub fn render_to_rgba(view: &FrameView<'_>, width: u32, height: u32) -> Result<Vec<u8>, RenderError> {
    Offscreen::new()?.render(view, width, height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Level, TileKind};
    use crate::render::view::{PlayerDraw, PlayerPose};
    use glam::DVec2;

    fn level(width: usize, height: usize) -> Level {
        let mut gfx = vec![None; width * height];
        // A floor on the bottom row.
        for x in 0..width {
            gfx[(height - 1) * width + x] = Some(0);
        }
        Level {
            name: "test".into(),
            source: None,
            width,
            height,
            kinds: vec![TileKind::Empty; width * height],
            gfx,
            spawn: DVec2::new(32.0, 32.0),
            checkpoints: vec![],
            goal: None,
        }
    }

    fn view(level: &Level, camera: DVec2, facing_left: bool) -> FrameView<'_> {
        FrameView {
            level,
            camera,
            player: PlayerDraw {
                pos: DVec2::new(100.0, 50.0),
                hitbox: DVec2::new(12.0, 22.0),
                facing_left,
                pose: PlayerPose::Idle,
            },
            reached: &[],
            goal_angle: 0.0,
            extra: &[],
        }
    }

    #[test]
    fn instance_layout_matches_the_shader() {
        assert_eq!(std::mem::size_of::<SpriteInstance>(), 40);
        assert_eq!(std::mem::size_of::<SpriteUniform>(), 32);
        assert_eq!(SpriteInstance::desc().array_stride, 40);

        // The vertex stage's @location inputs in shaders/sprite.wgsl, parsed with naga:
        // (name, location, type).
        use naga::{Binding, ScalarKind, TypeInner};
        use std::mem::{offset_of, size_of_val};
        use wgpu::VertexFormat as F;
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/sprite.wgsl");
        let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let module = naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|e| panic!("{path}: {}", e.emit_to_string(&source)));
        let vs = module.entry_points.iter().find(|e| e.stage == naga::ShaderStage::Vertex).expect("vs");
        let mut inputs = Vec::new();
        for arg in &vs.function.arguments {
            match (&arg.binding, &module.types[arg.ty].inner) {
                (Some(Binding::BuiltIn(_)), _) => {}
                (Some(Binding::Location { location, .. }), _) => {
                    inputs.push((arg.name.clone().unwrap_or_default(), *location, arg.ty));
                }
                (None, TypeInner::Struct { members, .. }) => {
                    for m in members {
                        if let Some(Binding::Location { location, .. }) = m.binding {
                            inputs.push((m.name.clone().unwrap_or_default(), location, m.ty));
                        }
                    }
                }
                other => panic!("{path}: unexpected vertex input {other:?}"),
            }
        }
        // The vertex format a WGSL input type reads. The buffer's formats are all 32-bit, where
        // the WGSL type names exactly one format (no normalised or narrower ones).
        let format_of = |ty| {
            let (scalar, n) = match module.types[ty].inner {
                TypeInner::Scalar(s) => (s, 1),
                TypeInner::Vector { size, scalar } => (scalar, size as u8),
                ref other => panic!("{path}: {other:?} is no vertex input type"),
            };
            assert_eq!(scalar.width, 4, "{path}: only 32-bit inputs are mapped here");
            match (scalar.kind, n) {
                (ScalarKind::Float, 1) => F::Float32,
                (ScalarKind::Float, 2) => F::Float32x2,
                (ScalarKind::Float, 3) => F::Float32x3,
                (ScalarKind::Float, 4) => F::Float32x4,
                (ScalarKind::Uint, 1) => F::Uint32,
                (ScalarKind::Uint, 2) => F::Uint32x2,
                (ScalarKind::Uint, 3) => F::Uint32x3,
                (ScalarKind::Uint, 4) => F::Uint32x4,
                (ScalarKind::Sint, 1) => F::Sint32,
                (ScalarKind::Sint, 2) => F::Sint32x2,
                (ScalarKind::Sint, 3) => F::Sint32x3,
                (ScalarKind::Sint, 4) => F::Sint32x4,
                other => panic!("{path}: no vertex format for {other:?}"),
            }
        };

        // The Rust side: each field's offset and size, and the attributes `desc()` declares.
        let z = <SpriteInstance as bytemuck::Zeroable>::zeroed();
        let fields = [
            ("pos", offset_of!(SpriteInstance, pos), size_of_val(&z.pos)),
            ("size", offset_of!(SpriteInstance, size), size_of_val(&z.size)),
            ("uv_rect", offset_of!(SpriteInstance, uv_rect), size_of_val(&z.uv_rect)),
            ("flags", offset_of!(SpriteInstance, flags), size_of_val(&z.flags)),
            ("rotation", offset_of!(SpriteInstance, rotation), size_of_val(&z.rotation)),
        ];
        assert_eq!(
            fields.iter().map(|f| f.2).sum::<usize>(),
            std::mem::size_of::<SpriteInstance>(),
            "the table lists every field of SpriteInstance (and it has no padding)"
        );
        let desc = SpriteInstance::desc();
        assert_eq!(desc.step_mode, wgpu::VertexStepMode::Instance);
        let names: Vec<&str> = inputs.iter().map(|i| i.0.as_str()).collect();
        assert_eq!(inputs.len(), desc.attributes.len(), "shader inputs {names:?} vs {:?}", desc.attributes);
        assert_eq!(inputs.len(), fields.len(), "shader inputs {names:?} vs SpriteInstance's fields");
        for (name, location, ty) in &inputs {
            let what = format!("@location({location}) {name}");
            let attr = desc
                .attributes
                .iter()
                .find(|a| a.shader_location == *location)
                .unwrap_or_else(|| panic!("{what}: no attribute at this location in desc()"));
            assert_eq!(attr.format, format_of(*ty), "{what}: format");
            let &(_, offset, size) = fields
                .iter()
                .find(|f| f.0 == name)
                .unwrap_or_else(|| panic!("{what}: SpriteInstance has no field {name}"));
            assert_eq!(attr.offset, offset as u64, "{what}: offset of SpriteInstance::{name}");
            assert_eq!(attr.format.size(), size as u64, "{what}: size of SpriteInstance::{name}");
        }
    }

    #[test]
    fn sky_tiles_in_view_then_player() {
        let lvl = level(200, 30);
        let mut out = Vec::new();
        // Camera at the level's bottom-left corner region: 640 x 360 view centred on (320, 300).
        build_instances(&view(&lvl, DVec2::new(320.0, 300.0), false), &mut out);
        assert_eq!(out[0].flags, FLAG_SOLID);
        assert_eq!(out[0].pos, [0.0, 120.0]);
        // Floor row y = 29 (464..480 px) is in view; columns 0..40 (640 px / 16).
        let tiles = &out[1..out.len() - 1];
        assert_eq!(tiles.len(), 40);
        assert!(tiles.iter().all(|t| t.pos[1] == 464.0 && t.size == [16.0, 16.0]));
        let player = out.last().copied().expect("player");
        assert_eq!(player.flags, 0);
    }

    #[test]
    fn culls_tiles_outside_the_view() {
        let lvl = level(200, 30);
        let mut out = Vec::new();
        // The view spans y 0..360: the floor (y 464) is below it.
        build_instances(&view(&lvl, DVec2::new(1000.0, 180.0), false), &mut out);
        assert_eq!(out.len(), 2, "sky and player only");
        // A half-tile camera offset shows a partial column at each side: 41 columns.
        build_instances(&view(&lvl, DVec2::new(1000.0, 300.0), false), &mut out);
        assert_eq!(out.len() - 2, 41);
        // Aligned to the grid: exactly 40 columns.
        build_instances(&view(&lvl, DVec2::new(1008.0, 300.0), false), &mut out);
        assert_eq!(out.len() - 2, 40);
    }

    #[test]
    fn player_is_bottom_centred_and_mirrored() {
        let lvl = level(10, 10);
        let mut out = Vec::new();
        build_instances(&view(&lvl, DVec2::new(320.0, 180.0), true), &mut out);
        let p = out.last().copied().expect("player");
        let r = atlas::player_region(PlayerPose::Idle);
        let (w, h) = (r.w as f32, r.h as f32);
        assert_eq!(p.size, [w, h]);
        assert_eq!(p.pos, [100.0 + (12.0 - w) / 2.0, 50.0 + 22.0 - h]);
        assert_eq!(p.flags, FLAG_FLIP_X);
    }

    #[test]
    fn only_the_goal_is_rotated() {
        let mut lvl = level(10, 10);
        lvl.gfx[8 * 10 + 3] = Some(atlas::GOAL);
        lvl.gfx[8 * 10 + 4] = Some(atlas::HAZARD);
        lvl.gfx[8 * 10 + 5] = Some(atlas::CHECKPOINT);
        let mut v = view(&lvl, DVec2::new(320.0, 180.0), true);
        v.goal_angle = 1.25;
        let extra = [DVec2::new(10.0, 10.0)];
        v.extra = &extra;
        let mut out = Vec::new();
        build_instances(&v, &mut out);
        let goal = atlas::tile_region(atlas::GOAL);
        let rotated: Vec<_> = out.iter().filter(|i| i.rotation != 0.0).collect();
        assert_eq!(rotated.len(), 1, "the goal tile only (not the stress sprite, hazard, player)");
        assert_eq!(rotated[0].rotation, 1.25);
        assert_eq!(rotated[0].pos, [48.0, 128.0]);
        assert_eq!(rotated[0].uv_rect, uv_of(goal));
        // Upright goal: nothing rotated at all.
        v.goal_angle = 0.0;
        build_instances(&v, &mut out);
        assert!(out.iter().all(|i| i.rotation == 0.0));
    }

    #[test]
    fn uv_rect_is_the_inner_cell() {
        let r = atlas::tile_region(0);
        let uv = uv_of(r);
        assert!(uv[0] > 0.0 && uv[1] > 0.0, "padding stays outside");
        assert!((uv[2] - uv[0]) * atlas::ATLAS_SIZE.x as f32 - r.w as f32 <= 1e-3);
    }

    #[test]
    fn letterbox_integer_scale() {
        assert_eq!(letterbox(1280, 720), Letterbox { x: 0, y: 0, w: 1280, h: 720, scale: 2.0 });
        assert_eq!(letterbox(1280, 800), Letterbox { x: 0, y: 40, w: 1280, h: 720, scale: 2.0 });
        assert_eq!(letterbox(1919, 1080), Letterbox { x: 319, y: 180, w: 1280, h: 720, scale: 2.0 });
        assert_eq!(letterbox(1920, 1080).scale, 3.0);
        assert_eq!(letterbox(640, 360), Letterbox { x: 0, y: 0, w: 640, h: 360, scale: 1.0 });
        let small = letterbox(320, 360);
        assert_eq!((small.w, small.h, small.scale), (320, 180, 0.5));
    }

    #[test]
    fn screen_uniform_maps_window_pixels_onto_the_target() {
        let u = screen_uniform(1280, 720);
        assert_eq!(u.scale, 1.0);
        assert_eq!(u.view_size, [1280.0, 720.0]);
        // The shader's top-left (centre - view / 2) is the origin: positions are window pixels.
        assert_eq!(u.center[0] - u.view_size[0] * 0.5, 0.0);
        assert_eq!(u.center[1] - u.view_size[1] * 0.5, 0.0);
        // Odd sizes too, and a zero size never divides by zero.
        let odd = screen_uniform(1279, 721);
        assert_eq!(odd.center[0] - odd.view_size[0] * 0.5, 0.0);
        assert_eq!(screen_uniform(0, 0).view_size, [1.0, 1.0]);
    }

    #[test]
    fn one_run_one_draw() {
        let mut b = Vec::new();
        batches(5, &mut b);
        assert_eq!(b, vec![SpriteBatch { range: 0..5 }]);
        batches(0, &mut b);
        assert!(b.is_empty());
    }

    #[test]
    fn srgb_round_trip_endpoints() {
        assert_eq!(srgb_to_linear(0), 0.0);
        assert!((srgb_to_linear(255) - 1.0).abs() < 1e-12);
        // The other direction, linear 0..1 → sRGB 0..255 (IEC 61966-2-1's encoding, what an
        // sRGB render target applies when it stores a pixel).
        let linear_to_srgb =
            |l: f64| 255.0 * if l <= 0.0031308 { 12.92 * l } else { 1.055 * l.powf(1.0 / 2.4) - 0.055 };
        assert_eq!(linear_to_srgb(0.0), 0.0);
        assert!((linear_to_srgb(1.0) - 255.0).abs() < 1e-9);
        // Every 8-bit value: to linear (strictly increasing, within 0..1) and back to itself.
        let mut last = -1.0;
        for c in 0..=255u8 {
            let l = srgb_to_linear(c);
            assert!(l > last && (0.0..=1.0).contains(&l), "{c} -> {l} after {last}");
            let back = linear_to_srgb(l);
            assert!((back - f64::from(c)).abs() < 1e-9, "{c} -> {l} -> {back}");
            last = l;
        }
        // A linear sweep: stored as the nearest 8-bit sRGB value, it reads back as a linear
        // value whose neighbouring codes bracket the original.
        for i in 0..=1000 {
            let l = f64::from(i) / 1000.0;
            let c = linear_to_srgb(l).round() as u8;
            let below = if c == 0 { 0.0 } else { srgb_to_linear(c - 1) };
            let above = if c == 255 { 1.0 } else { srgb_to_linear(c + 1) };
            assert!(below <= l && l <= above, "{l} -> {c} -> {}", srgb_to_linear(c));
        }
    }
}
