//! The two art-resolution images the world is drawn into, and the pass that puts them on the
//! window ([`crate::present::art`]; `shaders/composite.wgsl`).
//!
//! Clock: render frame. The sky image is the view itself (640 x 360, view-aligned: the
//! parallax layers keep their whole-pixel places in the view, as they always had); the world
//! image is [`ART_SIZE`] (level-aligned: tiles and bodies on the art-pixel grid), cleared
//! transparent, its translucent sprites blended into it as premultiplied alpha. The composite
//! draws one triangle over the letterboxed viewport: each window pixel reads one texel of each
//! image (no filtering) and puts the world over the sky, the world shifted by the camera's
//! sub-pixel remainder in whole window pixels.
//!
//! # Two composites
//!
//! Both images are sRGB and the world is blended in linear light. The **exact** composite
//! reads them through sRGB views (decoded per texel), blends in linear and writes through the
//! target's sRGB view (encoded per pixel). On a software rasteriser those conversions are half
//! the composite's cost (lavapipe, 1280x720: 6.5 ms of which 3.3 are the conversions). Where
//! the device can view a texture in its plain format too (`DownlevelFlags::VIEW_FORMATS`:
//! Vulkan, Metal, D3D12, WebGPU; not WebGL2) and the target offers a plain view, the **raw**
//! composite reads and writes the stored sRGB bytes as they are and blends them in a gamma-2
//! approximation of linear light, `sqrt(world² + sky² * (1 - alpha))`: the same bytes wherever a
//! world texel is opaque or empty (everything but translucent sprites' texels), and within
//! 10 / 255 of the exact blend (0 to 3 for 81 % of them) where it is translucent.

use super::gpu::GpuContext;
use super::pipeline::{PipelineDesc, render_pipeline, shader_and_layout, texture_entry, uniform_entry};
use crate::present::art::{ART_SIZE, ArtPlacement};
use crate::present::letterbox::Letterbox;
use crate::present::view::VIEW_SIZE;

/// What `shaders/composite.wgsl` reads (bind group 0, binding 0); 32 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct CompositeUniform {
    /// The letterboxed viewport's top-left, window pixels.
    pub origin: [f32; 2],
    /// The world image's shift left and up, whole window pixels ([`ArtPlacement::shift_px`]).
    pub shift: [f32; 2],
    /// Window pixels per art pixel ([`Letterbox::scale`]).
    pub scale: f32,
    /// Padding to 16-byte alignment.
    pub _pad0: f32,
    /// Padding to 16-byte alignment.
    pub _pad1: [f32; 2],
}

impl CompositeUniform {
    /// The uniform for a frame placed at `placed` in the letterbox `lb`.
    pub fn new(lb: &Letterbox, placed: &ArtPlacement) -> Self {
        CompositeUniform {
            origin: [lb.x as f32, lb.y as f32],
            shift: [placed.shift_px.x as f32, placed.shift_px.y as f32],
            scale: lb.scale,
            _pad0: 0.0,
            _pad1: [0.0; 2],
        }
    }
}

/// The sky and world images and the pipelines that composite them onto targets of one format.
#[derive(Debug)]
pub struct Composite {
    /// The view-aligned sky image (640 x 360).
    pub sky: wgpu::TextureView,
    /// The level-aligned world image ([`ART_SIZE`]), premultiplied alpha.
    pub world: wgpu::TextureView,
    /// The exact composite: sRGB views in, the target's sRGB format out.
    exact: (wgpu::RenderPipeline, wgpu::BindGroup),
    /// The raw composite, where the device has plain views: plain views in, the target's plain
    /// format out.
    raw: Option<(wgpu::RenderPipeline, wgpu::BindGroup)>,
    uniform: wgpu::Buffer,
}

/// An image of `size` pixels of `format` that passes draw into and the composite reads: its
/// `format` view and, with `plain`, a view of its stored bytes in the plain format.
fn image(
    ctx: &GpuContext,
    label: &str,
    size: (u32, u32),
    format: wgpu::TextureFormat,
    plain: bool,
) -> (wgpu::TextureView, Option<wgpu::TextureView>) {
    let plain_format = format.remove_srgb_suffix();
    let view_formats = [plain_format];
    let texture = ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: if plain { &view_formats } else { &[] },
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor { label: Some(label), ..Default::default() });
    let raw = plain.then(|| {
        texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some(label),
            format: Some(plain_format),
            ..Default::default()
        })
    });
    (view, raw)
}

/// Whether `ctx`'s device can composite raw: view a texture in its plain format as well.
pub fn raw_supported(ctx: &GpuContext) -> bool {
    ctx.adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::VIEW_FORMATS)
}

impl Composite {
    /// The images (of `format`, the sprite pipelines' target format, an sRGB one) and the
    /// composite pipelines drawing into targets of `format` (exact) and of its plain format
    /// (raw, where [`raw_supported`]).
    pub fn new(ctx: &GpuContext, format: wgpu::TextureFormat) -> Self {
        let device = &ctx.device;
        let plain = raw_supported(ctx) && format.remove_srgb_suffix() != format;
        let view_size = (VIEW_SIZE.x as u32, VIEW_SIZE.y as u32);
        let (sky, sky_raw) = image(ctx, "sky image (art resolution)", view_size, format, plain);
        let (world, world_raw) = image(ctx, "world image (art resolution)", ART_SIZE, format, plain);
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("composite bind group layout"),
            entries: &[
                uniform_entry::<CompositeUniform>(0, wgpu::ShaderStages::FRAGMENT),
                texture_entry(1, false),
                texture_entry(2, false),
            ],
        });
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("composite uniform"),
            size: std::mem::size_of::<CompositeUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = |sky: &wgpu::TextureView, world: &wgpu::TextureView| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("composite bind group"),
                layout: &layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(sky) },
                    wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(world) },
                ],
            })
        };
        let (shader, pipeline_layout) = shader_and_layout(
            device,
            "composite.wgsl",
            include_str!("../../shaders/composite.wgsl"),
            &layout,
        );
        let pipeline = |label: &str, fragment: &str, format: wgpu::TextureFormat| {
            let desc = PipelineDesc {
                label,
                layout: &pipeline_layout,
                shader: &shader,
                buffers: &[],
                topology: wgpu::PrimitiveTopology::TriangleList,
                fragment,
                format,
                blend: None,
            };
            render_pipeline(device, &desc)
        };
        let exact = (pipeline("composite pipeline (exact)", "fs_main", format), bind_group(&sky, &world));
        let raw = sky_raw.zip(world_raw).map(|(sky_raw, world_raw)| {
            let raw_format = format.remove_srgb_suffix();
            (pipeline("composite pipeline (raw)", "fs_raw", raw_format), bind_group(&sky_raw, &world_raw))
        });
        Composite { sky, world, exact, raw, uniform }
    }

    /// Whether [`Composite::draw_raw`] can draw.
    pub fn has_raw(&self) -> bool {
        self.raw.is_some()
    }

    /// Upload this frame's placement.
    pub fn upload(&self, ctx: &GpuContext, uniform: &CompositeUniform) {
        ctx.queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(uniform));
    }

    /// Record the exact composite into `pass` (a target of the sRGB format given to
    /// [`Composite::new`]), whose viewport the caller set to the letterbox.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        let (pipeline, bind_group) = &self.exact;
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, bind_group, &[]);
        pass.draw(0..3, 0..1);
    }

    /// Record the raw composite into `pass` (a target of the plain format), whose viewport the
    /// caller set to the letterbox. Returns false, recording nothing, where the device has no
    /// plain views ([`Composite::has_raw`]).
    pub fn draw_raw(&self, pass: &mut wgpu::RenderPass<'_>) -> bool {
        let Some((pipeline, bind_group)) = &self.raw else { return false };
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, bind_group, &[]);
        pass.draw(0..3, 0..1);
        true
    }
}
