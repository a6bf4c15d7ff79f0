//! The sprite pipeline: the atlas and the skies on the GPU, the camera uniforms, instance
//! buffers that grow, and the two render pipelines over `shaders/sprite.wgsl`.
//!
//! Clock: created once; [`InstanceLayer::upload`] and [`SpritePipeline::draw`] run once per
//! render frame. It draws [`SpriteInstance`]s built by `present::instances` (world, level
//! pixels) or by `ui` (screen space, window pixels) and never writes the world.
//!
//! Two textures, one layout: the atlas (`assets/sprites/atlas.png`: tiles, player, entities) and
//! the skies (`assets/sprites/skies.png`: every level's parallax backdrop, too tall to share
//! the atlas's 144 px wide image). Each [`InstanceLayer`] has a bind group per [`Texture`]
//! over the same camera uniform; a draw names the texture its run samples.
//!
//! Blending follows the content. The world (sky, tiles, `--stress` sprites, the player) is
//! opaque or alpha-tested: the shader discards texels with alpha < 0.5 and the atlas holds only
//! alpha 0 and 255, so [`Blend::Opaque`] writes fragments as they are, with no read of the
//! target (blending there would cost a read-modify-write per fragment on a software rasteriser
//! and change nothing). The UI's panels and graph bars are solid quads with a fractional alpha:
//! [`Blend::Alpha`] blends them over the world.
//!
//! Where the device has plain views of sRGB textures (Vulkan, Metal, D3D12, WebGPU; not
//! WebGL2), the opaque art runs draw raw ([`Blend::Raw`]): the atlas or the skies read through
//! their plain views and the art image written through its plain view, so an opaque texel lands
//! as its stored bytes with no decode per sample or encode per fragment, as the raw composite
//! does (`render::composite` "Two composites"). The bytes are those of the sRGB path
//! (`tests/render_offscreen.rs`); on llvmpipe it draws `--stress 3000` at 85-92 fps where the
//! sRGB path drew 57-59 (docs/speed.md "The renderer").
//!
//! Screen space: the same shader draws the UI in *window* pixels over the whole target through
//! a second camera uniform ([`screen_uniform`]: centre at the target's middle, view the
//! target's size, scale 1), so it needs no extra mode.
//!
//! The atlas is sampled with nearest filtering; the shader snaps every quad corner (or a
//! rotated quad's centre) to a whole window pixel.

use super::gpu::{GpuContext, RenderError};
use super::textures::{Rgba, SampledImage, load_texture, upload_texture};
use crate::present::atlas;
use crate::present::instances::SpriteInstance;
use crate::present::parallax;

/// The camera as the shader reads it (bind group 0, binding 0). Mirrors `Camera` in
/// `shaders/sprite.wgsl`; 32 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SpriteUniform {
    /// Camera centre, level pixels.
    pub center: [f32; 2],
    /// Visible area, level pixels ([`crate::present::view::VIEW_SIZE`]).
    pub view_size: [f32; 2],
    /// Window pixels per level pixel ([`crate::present::letterbox::Letterbox::scale`]); quad
    /// corners snap to 1/scale.
    pub scale: f32,
    /// Padding to 16-byte alignment.
    pub _pad0: f32,
    /// Padding to 16-byte alignment.
    pub _pad1: [f32; 2],
}

/// The camera uniform that makes instance positions window pixels: the view is the whole
/// `target_w` x `target_h` target, centred on its middle, at scale 1 (so the shader's
/// `floor(world - top_left + 0.5)` snaps a quad to whole window pixels and its NDC mapping
/// spans the full-target viewport).
pub fn screen_uniform(target_w: u32, target_h: u32) -> SpriteUniform {
    let (w, h) = (target_w.max(1) as f32, target_h.max(1) as f32);
    SpriteUniform { center: [w * 0.5, h * 0.5], view_size: [w, h], scale: 1.0, _pad0: 0.0, _pad1: [0.0; 2] }
}

/// Shader locations 0..=4 of [`SpriteInstance`]: pos, size, uv_rect, flags, rotation.
const INSTANCE_ATTRIBUTES: [wgpu::VertexAttribute; 5] = wgpu::vertex_attr_array![
    0 => Float32x2, 1 => Float32x2, 2 => Float32x4, 3 => Uint32, 4 => Float32
];

/// The per-instance vertex buffer layout of [`SpriteInstance`] (vertex buffer slot 0, stepped
/// per instance, 40-byte stride). Mirrors `Instance` in `shaders/sprite.wgsl`.
pub fn instance_layout() -> wgpu::VertexBufferLayout<'static> {
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<SpriteInstance>() as wgpu::BufferAddress,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &INSTANCE_ATTRIBUTES,
    }
}

/// What differs between Ledge's render pipelines. Every one has one colour target (all
/// channels written), no depth or stencil and no multisampling.
pub(super) struct PipelineDesc<'a> {
    /// Debug label.
    pub label: &'a str,
    /// The pipeline layout.
    pub layout: &'a wgpu::PipelineLayout,
    /// The module holding both stages.
    pub shader: &'a wgpu::ShaderModule,
    /// Vertex buffers (empty: the vertex stage makes its own corners).
    pub buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    /// Triangle list or strip.
    pub topology: wgpu::PrimitiveTopology,
    /// The vertex stage's entry point.
    pub vertex: &'a str,
    /// The fragment stage's entry point.
    pub fragment: &'a str,
    /// The colour target's format.
    pub format: wgpu::TextureFormat,
    /// The colour target's blending (`None`: written as is).
    pub blend: Option<wgpu::BlendState>,
}

/// A render pipeline as `desc` says.
pub(super) fn render_pipeline(device: &wgpu::Device, desc: &PipelineDesc<'_>) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(desc.label),
        layout: Some(desc.layout),
        vertex: wgpu::VertexState {
            module: desc.shader,
            entry_point: Some(desc.vertex),
            compilation_options: Default::default(),
            buffers: desc.buffers,
        },
        primitive: wgpu::PrimitiveState { topology: desc.topology, ..Default::default() },
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: desc.shader,
            entry_point: Some(desc.fragment),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: desc.format,
                blend: desc.blend,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// The WGSL module `source` (named `name`) and a pipeline layout of the one bind group
/// `layout`: how each of Ledge's pipelines starts.
pub(super) fn shader_and_layout(
    device: &wgpu::Device,
    name: &str,
    source: &str,
    layout: &wgpu::BindGroupLayout,
) -> (wgpu::ShaderModule, wgpu::PipelineLayout) {
    let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(name),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(name),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    });
    (shader, pipeline_layout)
}

/// A bind group layout entry for a uniform buffer of one `T` at `binding`, read by `visibility`.
pub(super) fn uniform_entry<T>(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<T>() as u64),
        },
        count: None,
    }
}

/// A bind group layout entry for a 2D float texture at `binding`, read by the fragment stage
/// (`filterable`: a filtering sampler may read it; otherwise `textureLoad` or a non-filtering
/// sampler).
pub(super) fn texture_entry(binding: u32, filterable: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

/// sRGB 0..255 → the linear clear colour wgpu wants.
pub(super) fn wgpu_color(srgb: [u8; 3]) -> wgpu::Color {
    use crate::present::instances::srgb_to_linear;
    wgpu::Color { r: srgb_to_linear(srgb[0]), g: srgb_to_linear(srgb[1]), b: srgb_to_linear(srgb[2]), a: 1.0 }
}

/// How a list of instances meets what is already in the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blend {
    /// Fragments replace the target (opaque and alpha-tested content: the world).
    Opaque,
    /// Straight-alpha blending over the target (the UI's translucent quads).
    Alpha,
    /// As [`Blend::Opaque`], through plain views: the texture's stored sRGB bytes written to
    /// the target's plain view as they are, with no decode per sample or encode per fragment
    /// (the same bytes; solid fills are encoded once per vertex). Only where
    /// [`SpritePipeline::has_raw`]; the target is a plain view of an sRGB image.
    Raw,
}

/// Which image a run of instances samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Texture {
    /// `assets/sprites/atlas.png` ([`atlas::ATLAS_PATH`]): tiles, the player, entities (and
    /// every [`crate::present::instances::FLAG_SOLID`] quad, which samples nothing it uses).
    Atlas,
    /// `assets/sprites/skies.png` ([`parallax::SKIES_PATH`]): the parallax backdrops.
    Skies,
}

/// One camera and its instances: a uniform buffer, a bind group per [`Texture`] over it, and
/// an instance buffer that grows by doubling. The world and the screen-space UI each have one.
#[derive(Debug)]
pub struct InstanceLayer {
    label: &'static str,
    uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    sky_bind_group: wgpu::BindGroup,
    /// The bind groups over the textures' plain views ([`Blend::Raw`]), atlas then skies.
    raw_bind_groups: Option<(wgpu::BindGroup, wgpu::BindGroup)>,
    buffer: wgpu::Buffer,
    /// Instances the buffer holds.
    capacity: usize,
    /// Instances uploaded this frame.
    count: u32,
}

impl InstanceLayer {
    fn create_buffer(device: &wgpu::Device, label: &str, capacity: usize) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: (capacity * std::mem::size_of::<SpriteInstance>()) as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Upload this frame's `instances` (the buffer doubles until they fit) and `camera`.
    pub fn upload(&mut self, ctx: &GpuContext, instances: &[SpriteInstance], camera: &SpriteUniform) {
        if instances.len() > self.capacity {
            let mut cap = self.capacity.max(1);
            while cap < instances.len() {
                cap *= 2;
            }
            log::debug!("{} grows {} → {cap}", self.label, self.capacity);
            self.buffer = Self::create_buffer(&ctx.device, self.label, cap);
            self.capacity = cap;
        }
        if !instances.is_empty() {
            ctx.queue.write_buffer(&self.buffer, 0, bytemuck::cast_slice(instances));
        }
        self.count = instances.len() as u32;
        ctx.queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(camera));
    }

    /// Instances uploaded this frame.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// True when nothing was uploaded this frame.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// GPU side of sprite drawing: the atlas and the skies, their bind group layout, and one
/// pipeline per [`Blend`].
#[derive(Debug)]
pub struct SpritePipeline {
    opaque: wgpu::RenderPipeline,
    blended: wgpu::RenderPipeline,
    /// [`Blend::Raw`]'s pipeline (the plain format), where the device has plain views.
    raw: Option<wgpu::RenderPipeline>,
    layout: wgpu::BindGroupLayout,
    atlas: SampledImage,
    skies: SampledImage,
    sampler: wgpu::Sampler,
}

impl SpritePipeline {
    /// Load the atlas and the skies PNGs from the assets folder ([`atlas::ATLAS_PATH`],
    /// [`parallax::SKIES_PATH`]) and build the pipelines drawing into targets of `format`.
    ///
    /// # Errors
    /// [`RenderError::Atlas`] when the assets folder or a PNG cannot be found or decoded, or
    /// has another size than [`atlas::ATLAS_SIZE`] / [`parallax::SKIES_SIZE`].
    pub fn new(ctx: &GpuContext, format: wgpu::TextureFormat) -> Result<Self, RenderError> {
        let (aw, ah, atlas_px) = load_texture(atlas::ATLAS_PATH, atlas::ATLAS_SIZE)?;
        let (sw, sh, skies_px) = load_texture(parallax::SKIES_PATH, parallax::SKIES_SIZE)?;
        Ok(Self::with_textures(ctx, format, (aw, ah, &atlas_px), (sw, sh, &skies_px)))
    }

    /// Build the pipelines from the atlas and skies pixels already in memory (sRGB).
    ///
    /// # Panics
    /// If an image's bytes are not `width * height * 4` (a bug in the caller).
    pub fn with_textures(
        ctx: &GpuContext,
        format: wgpu::TextureFormat,
        atlas: Rgba<'_>,
        skies: Rgba<'_>,
    ) -> Self {
        let device = &ctx.device;
        let plain = super::composite::raw_supported(ctx) && format.remove_srgb_suffix() != format;
        let atlas = upload_texture(ctx, "sprite atlas", atlas, plain);
        let skies = upload_texture(ctx, "skies", skies, plain);
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("sprite atlas sampler (nearest)"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Nearest,
            min_filter: wgpu::FilterMode::Nearest,
            ..Default::default()
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sprite bind group layout"),
            entries: &[
                uniform_entry::<SpriteUniform>(0, wgpu::ShaderStages::VERTEX),
                texture_entry(1, true),
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let (shader, pipeline_layout) =
            shader_and_layout(device, "sprite.wgsl", include_str!("../../shaders/sprite.wgsl"), &layout);
        let buffers = [Some(instance_layout())];
        let pipeline = |label: &str, raw: bool, blend: Option<wgpu::BlendState>| {
            render_pipeline(
                device,
                &PipelineDesc {
                    label,
                    layout: &pipeline_layout,
                    shader: &shader,
                    buffers: &buffers,
                    topology: wgpu::PrimitiveTopology::TriangleStrip,
                    vertex: if raw { "vs_raw" } else { "vs_main" },
                    fragment: if raw { "fs_raw" } else { "fs_main" },
                    format: if raw { format.remove_srgb_suffix() } else { format },
                    blend,
                },
            )
        };
        Self {
            opaque: pipeline("sprite pipeline (opaque, alpha-tested)", false, None),
            blended: pipeline(
                "sprite pipeline (alpha blended)",
                false,
                Some(wgpu::BlendState::ALPHA_BLENDING),
            ),
            raw: plain
                .then(|| pipeline("sprite pipeline (raw: opaque, alpha-tested, plain views)", true, None)),
            layout,
            atlas,
            skies,
            sampler,
        }
    }

    /// Whether [`Blend::Raw`] draws: the device has plain views of the sRGB textures.
    pub fn has_raw(&self) -> bool {
        self.raw.is_some()
    }

    /// A new camera with an instance buffer for `capacity` instances (it grows as needed).
    pub fn layer(&self, ctx: &GpuContext, label: &'static str, capacity: usize) -> InstanceLayer {
        let device = &ctx.device;
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: std::mem::size_of::<SpriteUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind = |what: &str, view: &wgpu::TextureView| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&format!("{label} ({what})")),
                layout: &self.layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(view) },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: wgpu::BindingResource::Sampler(&self.sampler),
                    },
                ],
            })
        };
        let bind_group = bind("atlas", &self.atlas.view);
        let sky_bind_group = bind("skies", &self.skies.view);
        let raw_bind_groups = (self.atlas.plain.as_ref().zip(self.skies.plain.as_ref()))
            .map(|(atlas, skies)| (bind("atlas, plain", atlas), bind("skies, plain", skies)));
        InstanceLayer {
            label,
            uniform,
            bind_group,
            sky_bind_group,
            raw_bind_groups,
            buffer: InstanceLayer::create_buffer(device, label, capacity),
            capacity,
            count: 0,
        }
    }

    /// Record `layer`'s instances from index `first` on into `pass` (whose viewport the caller
    /// set) with the `blend` pipeline, sampling the atlas: one draw (one texture run).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, layer: &InstanceLayer, first: u32, blend: Blend) {
        self.draw_range(pass, layer, first..layer.count, blend, Texture::Atlas);
    }

    /// [`SpritePipeline::draw`] for the instances in `range` only (cut to the layer's count),
    /// sampling `texture`; nothing is recorded for an empty range.
    pub fn draw_range(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        layer: &InstanceLayer,
        range: std::ops::Range<u32>,
        blend: Blend,
        texture: Texture,
    ) {
        let (first, end) = (range.start, range.end.min(layer.count));
        if first >= end {
            return;
        }
        let (pipeline, (atlas, skies)) = match (blend, &self.raw, &layer.raw_bind_groups) {
            (Blend::Raw, Some(raw), Some((atlas, skies))) => (raw, (atlas, skies)),
            // Raw without plain views is a caller's bug: draw nothing rather than wrong bytes.
            (Blend::Raw, ..) => return,
            (Blend::Opaque, ..) => (&self.opaque, (&layer.bind_group, &layer.sky_bind_group)),
            (Blend::Alpha, ..) => (&self.blended, (&layer.bind_group, &layer.sky_bind_group)),
        };
        pass.set_pipeline(pipeline);
        pass.set_bind_group(
            0,
            match texture {
                Texture::Atlas => atlas,
                Texture::Skies => skies,
            },
            &[],
        );
        pass.set_vertex_buffer(0, layer.buffer.slice(..));
        // One texture per run: the run is one draw call.
        pass.draw(0..4, first..end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_layout_matches_the_shader() {
        assert_eq!(std::mem::size_of::<SpriteInstance>(), 40);
        assert_eq!(std::mem::size_of::<SpriteUniform>(), 32);
        assert_eq!(instance_layout().array_stride, 40);

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

        // The Rust side: each field's offset and size, and the attributes `instance_layout()` declares.
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
        let desc = instance_layout();
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
                .unwrap_or_else(|| panic!("{what}: no attribute at this location in instance_layout()"));
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
}
