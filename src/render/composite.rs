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

use super::gpu::GpuContext;
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

/// The sky and world images and the pipeline that composites them onto targets of one format.
#[derive(Debug)]
pub struct Composite {
    /// The view-aligned sky image (640 x 360).
    pub sky: wgpu::TextureView,
    /// The level-aligned world image ([`ART_SIZE`]), premultiplied alpha.
    pub world: wgpu::TextureView,
    pipeline: wgpu::RenderPipeline,
    uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
}

/// An image of `size` pixels of `format` that passes draw into and the composite reads.
fn image(ctx: &GpuContext, label: &str, size: (u32, u32), format: wgpu::TextureFormat) -> wgpu::TextureView {
    let texture = ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    });
    texture.create_view(&wgpu::TextureViewDescriptor { label: Some(label), ..Default::default() })
}

impl Composite {
    /// The images (of `format`, the sprite pipelines' target format) and the composite
    /// pipeline drawing into targets of `format`.
    pub fn new(ctx: &GpuContext, format: wgpu::TextureFormat) -> Self {
        let device = &ctx.device;
        let sky = image(ctx, "sky image (art resolution)", (VIEW_SIZE.x as u32, VIEW_SIZE.y as u32), format);
        let world = image(ctx, "world image (art resolution)", ART_SIZE, format);
        let texture_entry = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: false },
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("composite bind group layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: wgpu::BufferSize::new(
                            std::mem::size_of::<CompositeUniform>() as u64
                        ),
                    },
                    count: None,
                },
                texture_entry(1),
                texture_entry(2),
            ],
        });
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("composite uniform"),
            size: std::mem::size_of::<CompositeUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("composite bind group"),
            layout: &layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&sky) },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(&world) },
            ],
        });
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("composite.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/composite.wgsl").into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("composite pipeline layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("composite pipeline"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        Composite { sky, world, pipeline, uniform, bind_group }
    }

    /// Upload this frame's placement.
    pub fn upload(&self, ctx: &GpuContext, uniform: &CompositeUniform) {
        ctx.queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(uniform));
    }

    /// Record the composite into `pass`, whose viewport the caller set to the letterbox.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
}
