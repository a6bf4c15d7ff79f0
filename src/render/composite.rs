//! The two art-resolution images the world is drawn into, and the pass that puts them on the
//! window ([`crate::present::art`]; `shaders/composite.wgsl`).
//!
//! Clock: render frame. The sky image is the view itself (640 x 360, view-aligned: the
//! parallax layers keep their whole-pixel places in the view, as they always had); the world
//! image is [`ART_SIZE`] (level-aligned: tiles and bodies on the art-pixel grid), cleared
//! transparent, its translucent sprites blended into it as premultiplied alpha. The composite
//! draws one triangle over the letterboxed viewport: each window pixel reads one texel of each
//! image (a nearest sampler at coordinates the rasteriser interpolates, [`CompositeUniform`])
//! and puts the world over the sky, the world shifted by the camera's sub-pixel remainder in
//! whole window pixels.
//!
//! # Two composites
//!
//! Both images are sRGB and the world is blended in linear light. The **exact** composite
//! reads them through sRGB views (decoded per texel), blends in linear and writes through the
//! target's sRGB view (encoded per pixel). On a software rasteriser those conversions are a
//! large part of the composite's cost (`cargo bench --bench composite`, docs/speed.md). Where
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

/// What `shaders/composite.wgsl` reads (bind group 0, binding 0); 48 bytes.
///
/// The two images' normalised texture coordinates as affine functions of the window pixel:
/// at `p` window pixels from the viewport's top-left, the sky image's is `p * sky[..2] +
/// sky[2..]` and the world image's `p * world[..2] + world[2..]`; the shader samples both at
/// the pixel's centre (`p + 0.5`), so each pixel reads the texel `floor((p + shift) / scale)`
/// of the image at an integer scale ([`CompositeUniform::new`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct CompositeUniform {
    /// The letterboxed viewport's width and height, window pixels.
    pub viewport: [f32; 2],
    /// Padding to 16-byte alignment.
    pub _pad: [f32; 2],
    /// The sky image's coordinates: per window pixel (x, y), then at the viewport's top-left.
    pub sky: [f32; 4],
    /// The world image's coordinates: per window pixel (x, y), then at the viewport's top-left
    /// (the camera's sub-pixel remainder, [`ArtPlacement::shift_px`]).
    pub world: [f32; 4],
}

impl CompositeUniform {
    /// The uniform for a frame placed at `placed` in the letterbox `lb`: one window pixel is
    /// `1 / scale` art pixels of either image, the sky's (view-sized) from the viewport's
    /// top-left, the world's ([`ART_SIZE`]) from `shift_px` window pixels further right and down.
    pub fn new(lb: &Letterbox, placed: &ArtPlacement) -> Self {
        let scale = f64::from(lb.scale);
        let sky = [scale * VIEW_SIZE.x, scale * VIEW_SIZE.y];
        let world = [scale * f64::from(ART_SIZE.0), scale * f64::from(ART_SIZE.1)];
        let (sx, sy) = (placed.shift_px.x, placed.shift_px.y);
        CompositeUniform {
            viewport: [lb.w as f32, lb.h as f32],
            _pad: [0.0; 2],
            sky: [(1.0 / sky[0]) as f32, (1.0 / sky[1]) as f32, 0.0, 0.0],
            world: [
                (1.0 / world[0]) as f32,
                (1.0 / world[1]) as f32,
                (sx / world[0]) as f32,
                (sy / world[1]) as f32,
            ],
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
    /// Plain views of the sky and world images (their stored bytes), where the device has
    /// them: the raw sprite pipeline draws the opaque runs through them
    /// ([`super::pipeline::Blend::Raw`]).
    pub plain: Option<(wgpu::TextureView, wgpu::TextureView)>,
    /// The exact composite: sRGB views in, the target's sRGB format out.
    exact: (wgpu::RenderPipeline, wgpu::BindGroup),
    /// The raw composite, where the device has plain views: plain views in, the target's plain
    /// format out.
    raw: Option<(wgpu::RenderPipeline, wgpu::BindGroup)>,
    uniform: wgpu::Buffer,
}

/// An image of `size` pixels of `format` that passes draw into and that is then read as
/// `usage` (the composite samples the art images; the kept picture is copied): the texture, its
/// `format` view and, with `plain`, a view of its stored bytes in the plain format.
pub fn image(
    ctx: &GpuContext,
    label: &str,
    size: (u32, u32),
    format: wgpu::TextureFormat,
    plain: bool,
    usage: wgpu::TextureUsages,
) -> (wgpu::Texture, wgpu::TextureView, Option<wgpu::TextureView>) {
    let plain_format = format.remove_srgb_suffix();
    let view_formats = [plain_format];
    let texture = ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | usage,
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
    (texture, view, raw)
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
        let sampled = wgpu::TextureUsages::TEXTURE_BINDING;
        let (_, sky, sky_raw) = image(ctx, "sky image (art resolution)", view_size, format, plain, sampled);
        let (_, world, world_raw) =
            image(ctx, "world image (art resolution)", ART_SIZE, format, plain, sampled);
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("composite bind group layout"),
            entries: &[
                uniform_entry::<CompositeUniform>(0, wgpu::ShaderStages::VERTEX),
                texture_entry(1, false),
                texture_entry(2, false),
                wgpu::BindGroupLayoutEntry {
                    binding: 3,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::NonFiltering),
                    count: None,
                },
            ],
        });
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("composite uniform"),
            size: std::mem::size_of::<CompositeUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        // Nearest, clamped to the edge: one whole texel a pixel, as textureLoad would read.
        let nearest = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("composite sampler (nearest)"),
            ..Default::default()
        });
        let bind_group = |sky: &wgpu::TextureView, world: &wgpu::TextureView| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("composite bind group"),
                layout: &layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(sky) },
                    wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(world) },
                    wgpu::BindGroupEntry { binding: 3, resource: wgpu::BindingResource::Sampler(&nearest) },
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
                vertex: "vs_main",
                fragment,
                format,
                blend: None,
            };
            render_pipeline(device, &desc)
        };
        let exact = (pipeline("composite pipeline (exact)", "fs_main", format), bind_group(&sky, &world));
        let plain = sky_raw.clone().zip(world_raw.clone());
        let raw = sky_raw.zip(world_raw).map(|(sky_raw, world_raw)| {
            let raw_format = format.remove_srgb_suffix();
            (pipeline("composite pipeline (raw)", "fs_raw", raw_format), bind_group(&sky_raw, &world_raw))
        });
        Composite { sky, world, plain, exact, raw, uniform }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::art::place;
    use crate::present::letterbox::letterbox;
    use glam::DVec2;

    /// The texel a pixel's centre samples with coordinates `c` (per pixel, at the origin) in an
    /// image `size` texels wide, in f32 as the GPU works it out.
    fn texel(c: [f32; 2], p: u32, size: u32) -> i64 {
        (((p as f32 + 0.5) * c[0] + c[1]) * size as f32).floor() as i64
    }

    #[test]
    fn each_pixel_samples_the_texel_under_it_at_every_integer_scale_and_shift() {
        for (w, h) in [(640, 360), (1280, 720), (1920, 1080), (2560, 1440), (3840, 2160), (5120, 2880)] {
            let lb = letterbox(w, h);
            let scale = f64::from(lb.scale);
            for step in 0..8 {
                // Camera centres whose remainders give every shift from 0 to the scale.
                let centre = DVec2::new(500.0 + f64::from(step) / 8.0, 300.0 + f64::from(7 - step) / 8.0);
                let placed = place(centre, lb.scale);
                let u = CompositeUniform::new(&lb, &placed);
                for p in 0..lb.w {
                    let want_sky = (f64::from(p) / scale).floor() as i64;
                    let want_world = ((f64::from(p) + placed.shift_px.x) / scale).floor() as i64;
                    assert_eq!(
                        texel([u.sky[0], u.sky[2]], p, VIEW_SIZE.x as u32),
                        want_sky,
                        "{w}x{h} sky x {p}"
                    );
                    assert_eq!(
                        texel([u.world[0], u.world[2]], p, ART_SIZE.0),
                        want_world,
                        "{w}x{h} world x {p}"
                    );
                }
                for p in 0..lb.h {
                    let want_world = ((f64::from(p) + placed.shift_px.y) / scale).floor() as i64;
                    assert_eq!(
                        texel([u.world[1], u.world[3]], p, ART_SIZE.1),
                        want_world,
                        "{w}x{h} world y {p}"
                    );
                }
            }
        }
    }
}
