//! The one owner of the GPU: instance, adapter, device, queue and (for a window) the surface.
//!
//! Clock: created and resized on the event loop; [`Gpu::acquire`] and [`Gpu::present`] run
//! once per render frame.
//!
//! Lifecycle (after the wgpu examples' `framework.rs`):
//!
//! 1. [`Gpu::new`] (window) or [`GpuContext::headless`] (off-screen, tests, `--shot`): pick an
//!    adapter (any; the software fallback such as Mesa lavapipe if nothing else), open a device.
//! 2. [`Gpu::resize`] on every window size change. Zero sizes are remembered, never configured
//!    (wgpu 30 panics on a 0 x 0 configure); the next non-zero size configures
//!    (see [`crate::present::surface_state`]).
//! 3. Each frame: [`Gpu::acquire`] → draw into [`SurfaceFrame::view`] → submit →
//!    [`Gpu::present`]. Every [`wgpu::CurrentSurfaceTexture`] variant is handled on its own:
//!    `Timeout`/`Occluded` skip the frame, `Outdated` reconfigures and retries once, `Lost`
//!    recreates the surface, `Suboptimal` is drawn and presented then reconfigured,
//!    `Validation` is logged and the frame skipped. Nothing a window manager can do panics.

pub use crate::present::surface_state::SurfaceStats;
use crate::present::surface_state::{self, Acquired, SurfaceState};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use winit::window::Window;

/// Why the GPU or the renderer could not start or read back.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No adapter (GPU or software) is available on any backend.
    #[error("no graphics adapter: {0}")]
    NoAdapter(String),
    /// The adapter refused to open a device.
    #[error("cannot open graphics device: {0}")]
    Device(#[from] wgpu::RequestDeviceError),
    /// The window's surface could not be created.
    #[error("cannot create window surface: {0}")]
    Surface(#[from] wgpu::CreateSurfaceError),
    /// The adapter cannot present to this window (no surface formats).
    #[error("adapter {0} cannot present to this window")]
    SurfaceUnsupported(String),
    /// The sprite atlas could not be loaded.
    #[error("sprite atlas: {0}")]
    Atlas(String),
    /// The UI font could not be loaded.
    #[error("cannot load the UI font: {0}")]
    Text(#[from] super::text::TextError),
    /// Reading an off-screen image back failed.
    #[error("off-screen readback: {0}")]
    Readback(String),
}

/// Pick the present mode. Pure, so the table is unit-tested.
///
/// - `vsync` off: `Immediate` (tears, lowest latency) if supported, else `Mailbox` (no tearing,
///   newest frame wins), else `Fifo`.
/// - `vsync` on: `Fifo`, which every surface supports (WebGPU / Vulkan guarantee).
pub fn choose_present_mode(supported: &[wgpu::PresentMode], vsync: bool) -> wgpu::PresentMode {
    use wgpu::PresentMode::{Fifo, Immediate, Mailbox};
    if vsync {
        return Fifo;
    }
    [Immediate, Mailbox].into_iter().find(|m| supported.contains(m)).unwrap_or(Fifo)
}

/// One line about the adapter for logs: name, backend, device type, driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterSummary {
    /// Adapter name, e.g. "llvmpipe (LLVM 15.0.7, 256 bits)".
    pub name: String,
    /// Backend, e.g. "Vulkan".
    pub backend: String,
    /// Device type, e.g. "Cpu" or "DiscreteGpu".
    pub device_type: String,
    /// Driver and driver info, as the backend reports them.
    pub driver: String,
}

impl std::fmt::Display for AdapterSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}, {}, {})", self.name, self.backend, self.device_type, self.driver)
    }
}

impl AdapterSummary {
    fn of(adapter: &wgpu::Adapter) -> Self {
        let info = adapter.get_info();
        Self {
            name: info.name,
            backend: format!("{:?}", info.backend),
            device_type: format!("{:?}", info.device_type),
            driver: format!("{} {}", info.driver, info.driver_info).trim().to_string(),
        }
    }
}

/// Instance, adapter, device and queue: everything but a surface. Used on its own for
/// off-screen rendering.
#[derive(Debug)]
pub struct GpuContext {
    /// The wgpu instance (kept to recreate a lost surface).
    pub instance: wgpu::Instance,
    /// The chosen adapter.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// The device's queue.
    pub queue: wgpu::Queue,
    /// The adapter, for logs.
    pub info: AdapterSummary,
    /// Set by the device-lost callback (any reason, [`wgpu::Device::destroy`] included): the
    /// device and everything made from it are gone; [`Gpu::recreate`] opens a new one.
    lost: Arc<AtomicBool>,
}

impl GpuContext {
    /// A context with no window (off-screen rendering). Blocks (pollster) while the adapter and
    /// device are requested.
    ///
    /// # Errors
    /// [`RenderError::NoAdapter`] when no backend offers any adapter, [`RenderError::Device`]
    /// when the adapter refuses a device.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn headless() -> Result<Self, RenderError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        Self::with_instance(instance, None)
    }

    /// Pick an adapter able to present to `surface` (if given) and open a device on it. Tries
    /// the default preference first, then the software fallback adapter (Mesa lavapipe,
    /// WARP) so a machine without a GPU still runs. Blocks (pollster); the browser, which
    /// cannot block, awaits [`GpuContext::request`].
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fn with_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self, RenderError> {
        pollster::block_on(Self::request(instance, surface))
    }

    /// Pick an adapter able to present to `surface` (if given) and open a device on it, as a
    /// future: the default preference first, then the software fallback adapter (Mesa
    /// lavapipe, WARP). What the browser build awaits; [`GpuContext::headless`] and [`Gpu::new`]
    /// block on it (pollster) elsewhere.
    ///
    /// # Errors
    /// As [`GpuContext::headless`].
    pub async fn request(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self, RenderError> {
        let options = |force_fallback_adapter| wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::default(),
            force_fallback_adapter,
            compatible_surface: surface,
            apply_limit_buckets: false,
        };
        let adapter = match instance.request_adapter(&options(false)).await {
            Ok(a) => a,
            Err(first) => {
                log::warn!("no hardware adapter ({first}); trying the software fallback");
                instance
                    .request_adapter(&options(true))
                    .await
                    .map_err(|e| RenderError::NoAdapter(format!("{first}; {e}")))?
            }
        };
        let info = AdapterSummary::of(&adapter);
        log::info!("adapter: {info}");
        let (device, queue, lost) = open_device(&adapter).await?;
        Ok(Self { instance, adapter, device, queue, info, lost })
    }

    /// Whether the device was lost (a GPU reset, a driver update, the browser taking WebGPU
    /// away, [`wgpu::Device::destroy`]): nothing made from it draws any more.
    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Acquire)
    }
}

/// Open a device and its queue on `adapter`, with Ledge's limits (WebGL2's, at the adapter's
/// resolution), its uncaptured-error handler and a device-lost flag.
///
/// # Errors
/// [`RenderError::Device`] when the adapter refuses.
async fn open_device(
    adapter: &wgpu::Adapter,
) -> Result<(wgpu::Device, wgpu::Queue, Arc<AtomicBool>), RenderError> {
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor {
            label: Some("ledge device"),
            required_features: wgpu::Features::empty(),
            required_limits: wgpu::Limits::downlevel_webgl2_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        })
        .await?;
    let lost = Arc::new(AtomicBool::new(false));
    // Uncaptured validation errors would otherwise panic inside wgpu; a bug in Ledge's GPU
    // code shows in the log and in the golden-image tests instead. Once the device is lost
    // every call fails the same way until it is recreated: those are not logged.
    let flag = lost.clone();
    device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
        if !flag.load(Ordering::Acquire) {
            log::error!("wgpu: {e}");
        }
    }));
    let flag = lost.clone();
    device.set_device_lost_callback(move |reason, msg| {
        log::info!("wgpu device lost ({reason:?}): {msg}");
        flag.store(true, Ordering::Release);
    });
    Ok((device, queue, lost))
}

/// A frame acquired from the surface: draw into `view`, submit, then [`Gpu::present`] it.
#[derive(Debug)]
pub struct SurfaceFrame {
    /// The surface texture to present.
    pub texture: wgpu::SurfaceTexture,
    /// A view of it to render into, in [`Gpu::format`] (sRGB).
    pub view: wgpu::TextureView,
    /// A view of it in its plain format, where the surface is a plain format with an sRGB
    /// view (the raw composite's target, [`crate::render::FrameTarget`]).
    pub plain: Option<wgpu::TextureView>,
    /// Its size, pixels.
    pub size: (u32, u32),
    /// Acquired `Suboptimal`: present it, then reconfigure.
    suboptimal: bool,
}

/// The GPU with a window surface. See the module docs for the lifecycle.
#[derive(Debug)]
pub struct Gpu {
    /// Instance, adapter, device, queue.
    pub ctx: GpuContext,
    /// The window the surface presents to (kept alive as long as the surface).
    window: Arc<Window>,
    /// The surface.
    surface: wgpu::Surface<'static>,
    /// Configuration used at the last configure (width/height updated on resize).
    config: wgpu::SurfaceConfiguration,
    /// Size bookkeeping: when to configure.
    state: SurfaceState,
    /// Acquire/present counters.
    stats: SurfaceStats,
}

impl Gpu {
    /// Create the surface for `window`, pick an adapter that can present to it and configure
    /// it at the window's current size (if non-zero). `vsync` picks the present mode through
    /// [`choose_present_mode`]. Blocks (pollster) during adapter and device requests.
    ///
    /// # Errors
    /// Surface creation, no adapter, no device, or an adapter that cannot present.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn new(window: Arc<Window>, vsync: bool) -> Result<Self, RenderError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(
            Box::new(window.clone()),
        ));
        pollster::block_on(Self::with_instance(instance, window, vsync))
    }

    /// [`Gpu::new`] for a page's canvas, awaited (a browser cannot block): WebGPU where the
    /// browser has an adapter for it, else WebGL2 (`navigator.gpu` can exist with no adapter:
    /// wgpu's `is_browser_webgpu_supported` asks for one). `webgl2_only` leaves WebGPU
    /// out (the page's `?backend=webgl2`).
    ///
    /// # Errors
    /// As [`Gpu::new`].
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    pub async fn for_canvas(
        window: Arc<Window>,
        vsync: bool,
        webgl2_only: bool,
    ) -> Result<Self, RenderError> {
        let mut desc = wgpu::InstanceDescriptor::new_with_display_handle(Box::new(window.clone()));
        // One backend, never both: with GL enabled beside WebGPU, the surface takes a WebGL2
        // context on the canvas too.
        let webgpu = !webgl2_only && wgpu::util::is_browser_webgpu_supported().await;
        desc.backends = if webgpu { wgpu::Backends::BROWSER_WEBGPU } else { wgpu::Backends::GL };
        let instance = wgpu::Instance::new(desc);
        Self::with_instance(instance, window, vsync).await
    }

    /// The surface on `window` from `instance`, an adapter and device for it, configured.
    async fn with_instance(
        instance: wgpu::Instance,
        window: Arc<Window>,
        vsync: bool,
    ) -> Result<Self, RenderError> {
        let surface = instance.create_surface(window.clone())?;
        let ctx = GpuContext::request(instance, Some(&surface)).await?;
        let caps = surface.get_capabilities(&ctx.adapter);
        let format = surface_format(&caps, &ctx.adapter)
            .ok_or_else(|| RenderError::SurfaceUnsupported(ctx.info.to_string()))?;
        let view_format = format.add_srgb_suffix();
        let present_mode = choose_present_mode(&caps.present_modes, vsync);
        log::info!(
            "surface: format {format:?}, present mode {present_mode:?} (supported {:?}, vsync {vsync})",
            caps.present_modes
        );
        let alpha_mode = caps.alpha_modes.first().copied().unwrap_or_default();
        // Copies into the frame too where the surface takes them: an unchanged picture is
        // copied from the kept one (`kept`); WebGL2's surfaces take none.
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | (caps.usages & wgpu::TextureUsages::COPY_DST);
        let config = wgpu::SurfaceConfiguration {
            usage,
            format,
            color_space: wgpu::SurfaceColorSpace::Auto,
            width: 0,
            height: 0,
            desired_maximum_frame_latency: 2,
            present_mode,
            alpha_mode,
            view_formats: if view_format == format { vec![] } else { vec![view_format] },
        };
        let mut gpu = Self {
            ctx,
            window,
            surface,
            config,
            state: SurfaceState::default(),
            stats: SurfaceStats::default(),
        };
        let size = gpu.window.inner_size();
        gpu.resize(size.width, size.height);
        Ok(gpu)
    }

    /// The window now has inner size `w` x `h` physical pixels. Configures only at a non-zero
    /// size different from the current one; a zero size is remembered and drawing pauses.
    pub fn resize(&mut self, w: u32, h: u32) {
        if let Some((w, h)) = self.state.resize(w, h) {
            self.configure(w, h);
        }
    }

    /// Configure the surface at `w` x `h` (non-zero; [`SurfaceState`] guarantees it).
    fn configure(&mut self, w: u32, h: u32) {
        self.config.width = w;
        self.config.height = h;
        self.surface.configure(&self.ctx.device, &self.config);
        log::debug!("surface configured at {w}x{h} (#{})", self.state.configures());
    }

    /// Configure again at the current size (after `Outdated`, `Lost`, `Suboptimal`).
    fn reconfigure(&mut self) {
        if let Some((w, h)) = self.state.reconfigure() {
            self.configure(w, h);
        }
    }

    /// Switch vsync on or off now: the present mode is chosen again ([`choose_present_mode`])
    /// and the surface configured again at its size (from the next frame on).
    pub fn set_vsync(&mut self, vsync: bool) {
        let caps = self.surface.get_capabilities(&self.ctx.adapter);
        self.config.present_mode = choose_present_mode(&caps.present_modes, vsync);
        log::info!("vsync {vsync}: present mode {:?}", self.config.present_mode);
        if let Some((w, h)) = self.state.configured() {
            self.configure(w, h);
        }
    }

    /// Let the presentation engine queue at most `frames` frames (1..=3,
    /// `desired_maximum_frame_latency`; clamped): fewer is less latency between a frame's input
    /// and its display, more keeps the GPU busier. The surface is configured again at its size.
    pub fn set_frame_latency(&mut self, frames: u32) {
        self.config.desired_maximum_frame_latency = frames.clamp(1, 3);
        if let Some((w, h)) = self.state.configured() {
            self.configure(w, h);
        }
    }

    /// The format frames are drawn in: the surface's sRGB format, or an sRGB view of a plain
    /// one (the pipelines are built for it).
    pub fn format(&self) -> wgpu::TextureFormat {
        self.config.format.add_srgb_suffix()
    }

    /// The present mode in use.
    pub fn present_mode(&self) -> wgpu::PresentMode {
        self.config.present_mode
    }

    /// The configured surface size in pixels, if configured.
    pub fn size(&self) -> Option<(u32, u32)> {
        self.state.configured()
    }

    /// Acquire/present counters.
    pub fn stats(&self) -> SurfaceStats {
        self.stats
    }

    /// Get the next frame to draw into, or `None` when this frame must be skipped (zero-size
    /// window, `Timeout`, `Occluded`, `Validation`, or a reconfigure that did not help). The
    /// decisions are [`surface_state::acquire`]'s, tested without a GPU.
    pub fn acquire(&mut self) -> Option<SurfaceFrame> {
        use wgpu::CurrentSurfaceTexture as C;
        let Self { ctx, window, surface, config, state, stats } = self;
        let surface = std::cell::RefCell::new(surface);
        let (texture, suboptimal) = surface_state::acquire(
            state,
            stats,
            || match surface.borrow().get_current_texture() {
                C::Success(t) => (Acquired::Success, Some(t)),
                C::Suboptimal(t) => (Acquired::Suboptimal, Some(t)),
                C::Timeout => (Acquired::Timeout, None),
                C::Occluded => (Acquired::Occluded, None),
                C::Outdated => (Acquired::Outdated, None),
                C::Lost => (Acquired::Lost, None),
                C::Validation => (Acquired::Validation, None),
            },
            |(w, h)| {
                config.width = w;
                config.height = h;
                surface.borrow().configure(&ctx.device, config);
            },
            || match ctx.instance.create_surface(window.clone()) {
                Ok(new) => {
                    **surface.borrow_mut() = new;
                    true
                }
                Err(e) => {
                    log::error!("cannot recreate the lost surface: {e}");
                    false
                }
            },
        )?;
        let view = texture.texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("surface frame view"),
            format: Some(config.format.add_srgb_suffix()),
            ..Default::default()
        });
        let plain = (config.format.add_srgb_suffix() != config.format).then(|| {
            texture.texture.create_view(&wgpu::TextureViewDescriptor {
                label: Some("surface frame view (plain)"),
                format: Some(config.format),
                ..Default::default()
            })
        });
        let size = (texture.texture.width(), texture.texture.height());
        Some(SurfaceFrame { texture, view, plain, size, suboptimal })
    }

    /// Present a frame drawn and submitted since [`Gpu::acquire`]; a `Suboptimal` frame is
    /// presented and then the surface reconfigured.
    pub fn present(&mut self, frame: SurfaceFrame) {
        let SurfaceFrame { texture, view, plain, suboptimal, .. } = frame;
        drop(view);
        drop(plain);
        self.ctx.queue.present(texture);
        self.stats.presented += 1;
        if suboptimal {
            self.reconfigure();
        }
    }

    /// After a lost device ([`GpuContext::is_lost`]): open a new device on the same adapter,
    /// else on a new adapter from the same instance (one able to present to the window), and
    /// configure the surface with it at its size. Everything made from the old device (the
    /// [`super::Renderer`]) must be made again. Blocks (pollster); the browser awaits
    /// [`Gpu::recreate_async`].
    ///
    /// # Errors
    /// No adapter or device could be had again ([`RenderError::NoAdapter`],
    /// [`RenderError::Device`]), or the new adapter cannot present to the window.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn recreate(&mut self) -> Result<(), RenderError> {
        pollster::block_on(self.recreate_async())
    }

    /// [`Gpu::recreate`] as a future.
    ///
    /// # Errors
    /// As [`Gpu::recreate`].
    pub async fn recreate_async(&mut self) -> Result<(), RenderError> {
        match open_device(&self.ctx.adapter).await {
            Ok((device, queue, lost)) => {
                (self.ctx.device, self.ctx.queue, self.ctx.lost) = (device, queue, lost);
            }
            Err(e) => {
                log::info!("the adapter refused a second device ({e}); asking the instance again");
                let instance = self.ctx.instance.clone();
                let ctx = GpuContext::request(instance, Some(&self.surface)).await?;
                let caps = self.surface.get_capabilities(&ctx.adapter);
                let format = surface_format(&caps, &ctx.adapter)
                    .ok_or_else(|| RenderError::SurfaceUnsupported(ctx.info.to_string()))?;
                let view_format = format.add_srgb_suffix();
                self.config.format = format;
                self.config.view_formats = if view_format == format { vec![] } else { vec![view_format] };
                self.ctx = ctx;
            }
        }
        self.reconfigure();
        Ok(())
    }
}

/// The format to configure a surface with `caps` in, or `None` when it offers none: an sRGB
/// format, so the shaders' linear output is encoded for the display. A surface that offers none
/// (a browser's WebGPU canvas: `rgba8unorm`, `bgra8unorm`, `rgba16float`) is drawn through an
/// sRGB view of its plain format ([`Gpu::format`]). Where `adapter` lets surfaces and textures
/// have views of another format, the plain twin of the sRGB format is configured instead and
/// drawn through both views: sRGB for the sprites and the UI, plain for the raw composite
/// (`render::composite`).
fn surface_format(caps: &wgpu::SurfaceCapabilities, adapter: &wgpu::Adapter) -> Option<wgpu::TextureFormat> {
    let first = *caps.formats.first()?;
    let plain_views = adapter
        .get_downlevel_capabilities()
        .flags
        .contains(wgpu::DownlevelFlags::SURFACE_VIEW_FORMATS | wgpu::DownlevelFlags::VIEW_FORMATS);
    Some(match caps.formats.iter().copied().find(|f| f.is_srgb()) {
        Some(f) if plain_views && caps.formats.contains(&f.remove_srgb_suffix()) => f.remove_srgb_suffix(),
        Some(f) => f,
        None => first,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::PresentMode::{AutoVsync, Fifo, FifoRelaxed, Immediate, Mailbox};

    #[test]
    fn present_mode_table() {
        assert_eq!(choose_present_mode(&[Fifo], false), Fifo);
        assert_eq!(choose_present_mode(&[Fifo, Immediate], false), Immediate);
        assert_eq!(choose_present_mode(&[Fifo, Mailbox], true), Fifo);
        assert_eq!(choose_present_mode(&[Fifo, Mailbox], false), Mailbox);
        assert_eq!(choose_present_mode(&[Fifo, Mailbox, Immediate], false), Immediate);
        assert_eq!(choose_present_mode(&[Fifo, Mailbox, Immediate], true), Fifo);
        assert_eq!(choose_present_mode(&[FifoRelaxed, Fifo], false), Fifo);
        assert_eq!(choose_present_mode(&[], false), Fifo);
        assert_ne!(choose_present_mode(&[AutoVsync, Fifo], true), AutoVsync);
    }
}
