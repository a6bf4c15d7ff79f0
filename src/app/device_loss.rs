//! A lost GPU device survived: a GPU reset, a driver update, a browser taking WebGPU away, or
//! `--lose-device-after S` (for tests) destroys the device; the next frame opens a new one
//! ([`crate::render::gpu::Gpu::recreate`]), builds the renderer again and plays on. Only the
//! renderer is lost: the loop, its ticks and its hash never notice (the frames in between are
//! skipped draws, as a hidden window's are).
//!
//! In a page the new GPU opens off the event loop (`page.rs`), on a fresh canvas put in the old
//! one's place: WebGPU again, unless the lost device was WebGL2's or a WebGPU device recreated
//! less than [`WEBGPU_AGAIN_WITHIN`] ago was lost again (headless Chromium with `--disable-gpu`
//! loses every WebGPU device at once); then WebGL2, the backend every browser has.
//!
//! Clock: wall time, checked once per render frame before the frame is acquired.

use std::time::Duration;
use web_time::Instant;

/// How long to wait after a failed recreate before trying again.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
const RETRY_EVERY: Duration = Duration::from_secs(1);

/// In a page: a WebGPU device lost again within this long of its recreation is not tried a
/// third time; the page falls back to WebGL2.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(super) const WEBGPU_AGAIN_WITHIN: Duration = Duration::from_secs(10);

/// The `--lose-device-after` schedule and the recoveries so far.
#[derive(Debug, Default)]
pub(super) struct DeviceLoss {
    /// `--lose-device-after S`: wall seconds after the game clock starts at which the device
    /// is destroyed, once; `None` once done (or never asked).
    lose_after: Option<f64>,
    /// Lost devices replaced by a new one (the `--stats` field `device_losses`).
    pub recreated: u32,
    /// After a failed recreate: not before this instant again.
    retry_at: Option<Instant>,
    /// In a page: `Some(webgl2_only)` while a new GPU is being opened off the event loop.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    pub reopening: Option<bool>,
    /// In a page: when the last lost device was replaced.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    pub recovered_at: Option<Instant>,
}

impl DeviceLoss {
    /// A schedule that destroys the device `lose_after` seconds into the game clock, if given.
    pub fn new(lose_after: Option<f64>) -> Self {
        Self { lose_after, ..Self::default() }
    }

    /// Whether the forced loss is due now, `elapsed` seconds after the game clock started;
    /// true once.
    fn due(&mut self, elapsed: f64) -> bool {
        let due = self.lose_after.is_some_and(|s| elapsed >= s);
        if due {
            self.lose_after = None;
        }
        due
    }
}

impl super::App {
    /// Before a frame is acquired: destroy the device if `--lose-device-after` is due, and when
    /// the device is lost make a new one and the renderer on it, with one line, `device lost,
    /// recreated`. A failed attempt is logged and tried again a second later; meanwhile
    /// frames are not drawn and the game plays on.
    pub(super) fn keep_device(&mut self, event_loop: &winit::event_loop::ActiveEventLoop) {
        let Some(g) = self.gfx.as_mut() else { return };
        let elapsed = self.start.map_or(0.0, |s| s.elapsed().as_secs_f64());
        if self.device_loss.due(elapsed) {
            log::info!("--lose-device-after: destroying the device");
            g.gpu.ctx.device.destroy();
            // wgpu reports a destroyed device lost once its queue is empty, on a poll.
            if let Err(e) = g.gpu.ctx.device.poll(wgpu::PollType::Poll) {
                log::info!("poll after destroy: {e}");
            }
        }
        let loss = &mut self.device_loss;
        if !g.gpu.ctx.is_lost() || loss.retry_at.is_some_and(|t| Instant::now() < t) {
            return;
        }
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        match g.recover() {
            Ok(()) => {
                loss.recreated += 1;
                loss.retry_at = None;
                eprintln!("device lost, recreated");
            }
            Err(e) => {
                log::error!("device lost; cannot recreate it yet: {e:#}");
                loss.retry_at = Some(Instant::now() + RETRY_EVERY);
            }
        }
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        {
            let webgpu = g.gpu.ctx.info.backend == "BrowserWebGpu";
            let again = loss.recovered_at.is_some_and(|t| t.elapsed() < WEBGPU_AGAIN_WITHIN);
            let webgl2_only = self.page.webgl2_only || !webgpu || again;
            log::warn!(
                "ledge: the GPU device was lost; opening {}",
                if webgl2_only { "WebGL2" } else { "WebGPU" }
            );
            self.gfx = None;
            if let Err(e) = self.reopen_in_page(event_loop, webgl2_only) {
                self.fail(event_loop, e);
            }
        }
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        let _ = event_loop;
    }
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
impl super::App {
    /// In a page: the GPU reopened after a loss ([`super::App::reopen_in_page`]) is in place;
    /// the game clock ran on meanwhile and is not restarted.
    pub(super) fn device_reopened(&mut self, mut gfx: super::Graphics, backend: &str) {
        if let Some(frames) = self.opts.frame_latency {
            gfx.gpu.set_frame_latency(frames);
        }
        gfx.window.request_redraw();
        self.gfx = Some(gfx);
        self.device_loss.recreated += 1;
        self.device_loss.recovered_at = Some(Instant::now());
        log::warn!("device lost, recreated ({backend})");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forced_loss_is_due_once() {
        let mut d = DeviceLoss::new(Some(2.0));
        assert!(!d.due(1.9));
        assert!(d.due(2.0));
        assert!(!d.due(3.0));
        assert!(!DeviceLoss::new(None).due(100.0));
    }
}
