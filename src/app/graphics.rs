//! The window and everything that draws into it: the winit window, the [`Gpu`] (surface and
//! device) and the [`Renderer`].
//!
//! Clock: opened on the event loop's `resumed`; [`Graphics::draw`] runs once per render frame.

use crate::present::view::FrameView;
use crate::render::gpu::{Gpu, SurfaceFrame};
use crate::render::{FrameTarget, Renderer};
use crate::ui::Layer;
use anyhow::Context as _;
use std::sync::Arc;
use winit::event_loop::ActiveEventLoop;
use winit::window::{Fullscreen, Window};

/// Window, GPU and renderer: exist from `resumed` on.
pub(super) struct Graphics {
    /// The game's one window.
    pub window: Arc<Window>,
    /// Its surface, device and queue.
    pub gpu: Gpu,
    /// Draws each frame.
    pub renderer: Renderer,
}

impl Graphics {
    /// Open the 1280 x 720 (logical) window, its GPU surface (`vsync` picks the present mode)
    /// and the renderer, and ask for the first redraw.
    ///
    /// # Errors
    /// No window, no adapter or device, or the atlas or the font cannot be loaded.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn open(event_loop: &ActiveEventLoop, vsync: bool) -> anyhow::Result<Self> {
        let attrs = Window::default_attributes()
            .with_title("Ledge")
            .with_inner_size(winit::dpi::LogicalSize::new(1280.0, 720.0));
        let window = Arc::new(event_loop.create_window(attrs).context("cannot open a window")?);
        let gpu = Gpu::new(window.clone(), vsync)?;
        let renderer = Renderer::new(&gpu.ctx, gpu.format())?;
        log::info!(
            "ledge: adapter {}, present mode {:?}, surface {:?}",
            gpu.ctx.info,
            gpu.present_mode(),
            gpu.size()
        );
        window.request_redraw();
        Ok(Self { window, gpu, renderer })
    }

    /// In a page: the window on the page's `<canvas id="ledge">` (sized by the page's CSS,
    /// which winit follows with the device pixel ratio), then, off the event loop (a browser
    /// cannot block), the GPU (WebGPU, else WebGL2; `webgl2_only` for `?backend=webgl2`) and
    /// the renderer. The result lands in `slot` and `proxy` wakes the event loop for it
    /// (`App::user_event`).
    ///
    /// Returns the new window's id (its events are the game's; a replaced window's are not).
    ///
    /// # Errors
    /// No canvas with id `ledge` on the page, or no window on it; the GPU's errors arrive in
    /// `slot`.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    pub fn open_in_page(
        event_loop: &ActiveEventLoop,
        webgl2_only: bool,
        slot: super::page::GraphicsSlot,
        proxy: winit::event_loop::EventLoopProxy<()>,
    ) -> anyhow::Result<winit::window::WindowId> {
        use wasm_bindgen::JsCast as _;
        use winit::platform::web::WindowAttributesExtWebSys as _;
        let canvas = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(super::page::CANVAS_ID))
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
            .ok_or_else(|| anyhow::anyhow!("the page has no <canvas id=\"{}\">", super::page::CANVAS_ID))?;
        let attrs = Window::default_attributes()
            .with_title("Ledge")
            .with_canvas(Some(canvas))
            .with_prevent_default(true)
            .with_focusable(true);
        let window = Arc::new(event_loop.create_window(attrs).context("cannot open a window on the canvas")?);
        let id = window.id();
        wasm_bindgen_futures::spawn_local(async move {
            let result = async {
                // Fifo: the browser paces frames with requestAnimationFrame whatever is asked.
                let gpu = Gpu::for_canvas(window.clone(), true, webgl2_only).await?;
                let renderer = Renderer::new(&gpu.ctx, gpu.format())?;
                log::info!("ledge: adapter {}, surface {:?}", gpu.ctx.info, gpu.size());
                window.request_redraw();
                Ok::<_, anyhow::Error>(Self { window, gpu, renderer })
            }
            .await;
            *slot.borrow_mut() = Some(result);
            let _ = proxy.send_event(());
        });
        Ok(id)
    }

    /// Draw `view` and `ui` into the acquired `frame`, submit, and present it.
    pub fn draw(&mut self, frame: SurfaceFrame, view: &FrameView<'_>, ui: &Layer) {
        let texture = &frame.texture.texture;
        let copy_dst = texture.usage().contains(wgpu::TextureUsages::COPY_DST).then_some(texture);
        let target = FrameTarget { view: &frame.view, plain: frame.plain.as_ref(), copy_dst };
        let encoder = self.renderer.encode(&self.gpu.ctx, target, frame.size, view, ui);
        self.gpu.ctx.queue.submit([encoder.finish()]);
        self.window.pre_present_notify();
        self.gpu.present(frame);
    }

    /// Clear `frame` to the letterbox colour and present it, nothing else (the page's `?bare`).
    pub fn draw_bare(&mut self, frame: SurfaceFrame) {
        let encoder = self.renderer.encode_clear(&self.gpu.ctx, &frame.view);
        self.gpu.ctx.queue.submit([encoder.finish()]);
        self.window.pre_present_notify();
        self.gpu.present(frame);
    }

    /// The device was lost: open a new one ([`Gpu::recreate`]) and build the renderer again on
    /// it, then ask for a redraw.
    ///
    /// # Errors
    /// No device could be had again, or the atlas or the font cannot be loaded on it.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn recover(&mut self) -> anyhow::Result<()> {
        self.gpu.recreate()?;
        self.renderer = Renderer::new(&self.gpu.ctx, self.gpu.format())?;
        self.window.request_redraw();
        Ok(())
    }

    /// Borderless fullscreen on or off.
    pub fn toggle_fullscreen(&self) {
        let next = if self.window.fullscreen().is_some() { None } else { Some(Fullscreen::Borderless(None)) };
        log::info!("fullscreen: {}", next.is_some());
        self.window.set_fullscreen(next);
    }

    /// The present mode's name, e.g. "Fifo".
    pub fn present_mode(&self) -> String {
        format!("{:?}", self.gpu.present_mode())
    }

    /// The adapter as the F3 overlay names it: "name (backend)".
    pub fn adapter_short(&self) -> String {
        format!("{} ({})", self.gpu.ctx.info.name, self.gpu.ctx.info.backend)
    }
}
