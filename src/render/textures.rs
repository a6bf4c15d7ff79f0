//! The sprite textures on the GPU: the atlas and the skies PNGs loaded, checked and uploaded,
//! each with a view of its stored bytes where the raw passes read them.
//!
//! Clock: load time (once per renderer); nothing here runs per frame.

use super::gpu::{GpuContext, RenderError};

/// An RGBA8 sRGB image in memory: (width, height, `width * height * 4` bytes).
pub type Rgba<'a> = (u32, u32, &'a [u8]);

/// A sampled sRGB texture: its sRGB view (decoded to linear when sampled) and, where asked for,
/// its plain view (`Rgba8Unorm`: the stored bytes, no decode).
#[derive(Debug)]
pub struct SampledImage {
    /// The sRGB view.
    pub view: wgpu::TextureView,
    /// The plain view, when the texture was made with one.
    pub plain: Option<wgpu::TextureView>,
}

/// Load the PNG `rel` under the assets folder and check it is `size` pixels.
///
/// # Errors
/// [`RenderError::Atlas`] when the assets folder or the PNG cannot be found or decoded, or it
/// has another size.
pub fn load_texture(rel: &str, size: glam::UVec2) -> Result<(u32, u32, Vec<u8>), RenderError> {
    let dir = crate::assets::assets_dir().map_err(|e| RenderError::Atlas(e.to_string()))?;
    let path = dir.join(rel);
    let (w, h, rgba) = crate::assets::load_png_rgba(&path).map_err(|e| RenderError::Atlas(e.to_string()))?;
    if (w, h) != (size.x, size.y) {
        return Err(RenderError::Atlas(format!(
            "{}: {w}x{h}, expected {}x{}",
            path.display(),
            size.x,
            size.y
        )));
    }
    Ok((w, h, rgba))
}

/// A sampled texture holding `rgba` (sRGB), labelled `label`, with a plain view too when
/// `plain` (the device must have `DownlevelFlags::VIEW_FORMATS`).
///
/// # Panics
/// If `rgba` is not `width * height * 4` bytes (a bug in the caller).
pub fn upload_texture(ctx: &GpuContext, label: &str, (w, h, rgba): Rgba<'_>, plain: bool) -> SampledImage {
    assert_eq!(rgba.len(), (w * h * 4) as usize, "{label}: pixels do not match its size");
    let size = wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 };
    let plain_format = [wgpu::TextureFormat::Rgba8Unorm];
    let texture = ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: if plain { &plain_format } else { &[] },
    });
    ctx.queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture: &texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        rgba,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * w), rows_per_image: Some(h) },
        size,
    );
    let view = texture.create_view(&wgpu::TextureViewDescriptor { label: Some(label), ..Default::default() });
    let plain = plain.then(|| {
        texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some(label),
            format: Some(plain_format[0]),
            ..Default::default()
        })
    });
    SampledImage { view, plain }
}
