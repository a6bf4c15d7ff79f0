//! When the window surface needs configuring: the pure size logic behind `gpu::Gpu::resize`.
//!
//! Clock: event loop (resize and scale-factor events). No wgpu here, so the lab can count
//! configures for a scripted sequence of window sizes without a GPU.
//!
//! Rule: a surface is configured only at a non-zero size that differs from the size it is
//! configured at now. A zero width or height (a minimised window on Windows, a collapsed
//! X11 window) is remembered as "nothing to draw on" and configures nothing: wgpu 30 panics
//! on a 0 x 0 `Surface::configure`. The next non-zero size configures again.

/// Tracks the configured surface size and the latest size the window asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurfaceState {
    /// Size the surface is configured at now, pixels; `None` before the first configure.
    configured: Option<(u32, u32)>,
    /// Latest size the window reported, pixels (may be zero).
    requested: (u32, u32),
    /// How many configures [`SurfaceState::resize`] has asked for.
    configures: u64,
}

impl SurfaceState {
    /// The window now has inner size `w` x `h` physical pixels. Returns `Some((w, h))` when the
    /// surface must be configured at that size (non-zero and different from the configured
    /// size), and counts it; `None` when nothing is to be done (zero area or same size).
    pub fn resize(&mut self, w: u32, h: u32) -> Option<(u32, u32)> {
        self.requested = (w, h);
        if w == 0 || h == 0 || self.configured == Some((w, h)) {
            return None;
        }
        self.configured = Some((w, h));
        self.configures += 1;
        Some((w, h))
    }

    /// A forced configure at the current size (after `Outdated`, `Lost` or `Suboptimal`):
    /// returns the configured size if there is one and the window is not zero-sized now, and
    /// counts it.
    pub fn reconfigure(&mut self) -> Option<(u32, u32)> {
        let (w, h) = self.requested;
        if w == 0 || h == 0 {
            return None;
        }
        self.configured = Some((w, h));
        self.configures += 1;
        Some((w, h))
    }

    /// How many configures have been asked for since creation.
    pub fn configures(&self) -> u64 {
        self.configures
    }

    /// The size the surface is configured at, pixels; `None` before the first configure.
    pub fn configured(&self) -> Option<(u32, u32)> {
        self.configured
    }

    /// True when there is something to draw on: configured, and the window's latest size is
    /// not zero (a minimised window draws nothing until it comes back).
    pub fn drawable(&self) -> bool {
        let (w, h) = self.requested;
        self.configured.is_some() && w != 0 && h != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_sizes_never_configure() {
        let mut s = SurfaceState::default();
        assert_eq!(s.resize(800, 600), Some((800, 600)));
        assert_eq!(s.resize(0, 0), None);
        assert!(!s.drawable());
        assert_eq!(s.resize(800, 0), None);
        assert_eq!(s.resize(1024, 768), Some((1024, 768)));
        assert_eq!(s.configures(), 2);
        assert!(s.drawable());
    }

    #[test]
    fn same_size_does_not_reconfigure() {
        let mut s = SurfaceState::default();
        assert_eq!(s.resize(800, 600), Some((800, 600)));
        assert_eq!(s.resize(800, 600), None);
        assert_eq!(s.configures(), 1);
    }

    #[test]
    fn restore_after_minimise_to_the_same_size_needs_no_configure() {
        // The surface kept its old configuration while minimised; winit reports the old size.
        let mut s = SurfaceState::default();
        s.resize(800, 600);
        s.resize(0, 0);
        assert_eq!(s.resize(800, 600), None);
        assert!(s.drawable());
        assert_eq!(s.configures(), 1);
    }

    #[test]
    fn starting_at_zero_waits_for_a_real_size() {
        let mut s = SurfaceState::default();
        assert_eq!(s.resize(0, 0), None);
        assert!(!s.drawable());
        assert_eq!(s.reconfigure(), None);
        assert_eq!(s.resize(640, 360), Some((640, 360)));
        assert_eq!(s.configured(), Some((640, 360)));
    }

    #[test]
    fn reconfigure_counts_at_the_current_size() {
        let mut s = SurfaceState::default();
        s.resize(800, 600);
        assert_eq!(s.reconfigure(), Some((800, 600)));
        assert_eq!(s.configures(), 2);
    }
}
