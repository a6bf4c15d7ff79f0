//! When the window surface needs configuring: the pure size logic behind `render::gpu::Gpu::resize`.
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

/// What one `Surface::get_current_texture` call returned, without the texture: wgpu 30's
/// `CurrentSurfaceTexture` variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acquired {
    /// A texture to draw into.
    Success,
    /// A texture, but the surface no longer matches the window exactly.
    Suboptimal,
    /// No texture in time (the compositor is busy).
    Timeout,
    /// The window is not visible.
    Occluded,
    /// The surface no longer matches the window: configure it again.
    Outdated,
    /// The surface is gone: create it again.
    Lost,
    /// A validation error was raised.
    Validation,
}

/// Acquire and present counters, for logs, the overlay and the exit summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurfaceStats {
    /// Frames presented.
    pub presented: u64,
    /// Acquires that returned `Timeout` (frame skipped).
    pub timeouts: u64,
    /// Acquires that returned `Occluded` (frame skipped).
    pub occluded: u64,
    /// Acquires that returned `Outdated` (reconfigured, retried).
    pub outdated: u64,
    /// Acquires that returned `Lost` (surface recreated, retried).
    pub lost: u64,
    /// Acquires that returned `Suboptimal` (presented, then reconfigured).
    pub suboptimal: u64,
    /// Acquires that returned `Validation` (logged, frame skipped).
    pub validation: u64,
    /// Frames not drawn because the window had zero area.
    pub zero_size: u64,
}

impl SurfaceStats {
    /// Frames that drew nothing (timeouts, occluded, validation, zero size).
    pub fn skipped(&self) -> u64 {
        self.timeouts + self.occluded + self.validation + self.zero_size
    }
}

/// How many times one frame retries an acquire after `Outdated` or `Lost` before it gives up
/// and skips (the next frame tries afresh).
pub const ACQUIRE_RETRIES: u32 = 1;

/// The acquire state machine, with the GPU calls passed in so it can be tested without one:
/// `get` makes one acquire and returns what it got (and the texture, for `Success` and
/// `Suboptimal`); `configure` is called with a size to configure at; `recreate` makes a new
/// surface after `Lost` and says whether it worked. Returns the texture to draw into and
/// whether it was `Suboptimal` (present it, then reconfigure), or `None` to skip the frame.
///
/// Policy (wgpu examples' `framework.rs`): Timeout, Occluded and Validation skip the frame;
/// Outdated reconfigures and Lost recreates, then retry up to [`ACQUIRE_RETRIES`] times; a zero
/// window draws nothing. Never panics.
pub fn acquire<T>(
    state: &mut SurfaceState,
    stats: &mut SurfaceStats,
    mut get: impl FnMut() -> (Acquired, Option<T>),
    mut configure: impl FnMut((u32, u32)),
    mut recreate: impl FnMut() -> bool,
) -> Option<(T, bool)> {
    if !state.drawable() {
        stats.zero_size += 1;
        return None;
    }
    for _attempt in 0..=ACQUIRE_RETRIES {
        let (what, texture) = get();
        match what {
            Acquired::Success | Acquired::Suboptimal => {
                let suboptimal = what == Acquired::Suboptimal;
                stats.suboptimal += suboptimal as u64;
                return texture.map(|t| (t, suboptimal));
            }
            Acquired::Timeout => {
                stats.timeouts += 1;
                return None;
            }
            Acquired::Occluded => {
                stats.occluded += 1;
                return None;
            }
            Acquired::Validation => {
                stats.validation += 1;
                log::error!("surface acquire raised a validation error; skipping the frame");
                return None;
            }
            Acquired::Outdated => {
                stats.outdated += 1;
                if let Some(size) = state.reconfigure() {
                    configure(size);
                }
            }
            Acquired::Lost => {
                stats.lost += 1;
                log::warn!("surface lost; recreating it");
                if !recreate() {
                    return None;
                }
                if let Some(size) = state.reconfigure() {
                    configure(size);
                }
            }
        }
    }
    None
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

    #[test]
    fn acquire_survives_outdated_lost_timeouts_and_occlusion() {
        use Acquired::*;
        let mut state = SurfaceState::default();
        let mut stats = SurfaceStats::default();
        state.resize(800, 600);
        // Injected results, in order, as successive acquires see them.
        let mut script = [Outdated, Lost, Timeout, Timeout, Timeout, Occluded, Success].into_iter();
        let mut configured = Vec::new();
        let mut recreated = 0;
        let mut drawn = Vec::new();
        for frame in 0..6 {
            let got = acquire(
                &mut state,
                &mut stats,
                || {
                    let a = script.next().unwrap_or(Success);
                    (a, matches!(a, Success | Suboptimal).then_some(frame))
                },
                |size| configured.push(size),
                || {
                    recreated += 1;
                    true
                },
            );
            drawn.push(got.map(|(f, _)| f));
        }
        // Frame 0: Outdated → reconfigure, retry → Lost → recreate; retries spent: skipped.
        // Frames 1-3: Timeout x3 skip; frame 4: Occluded skips; frame 5: Success draws.
        assert_eq!(drawn, vec![None, None, None, None, None, Some(5)]);
        assert_eq!(configured, vec![(800, 600), (800, 600)]);
        assert_eq!(recreated, 1);
        assert_eq!((stats.outdated, stats.lost, stats.timeouts, stats.occluded), (1, 1, 3, 1));
        assert_eq!(stats.skipped(), 4);
        assert_eq!(state.configures(), 3);
    }

    #[test]
    fn acquire_skips_a_zero_window_and_flags_suboptimal() {
        let mut state = SurfaceState::default();
        let mut stats = SurfaceStats::default();
        let none = |_: (u32, u32)| {};
        assert!(acquire(&mut state, &mut stats, || (Acquired::Success, Some(())), none, || true).is_none());
        assert_eq!(stats.zero_size, 1);
        state.resize(640, 360);
        let got = acquire(&mut state, &mut stats, || (Acquired::Suboptimal, Some(7)), none, || true);
        assert_eq!(got, Some((7, true)));
        // A recreate that fails skips the frame without panicking.
        assert!(acquire(&mut state, &mut stats, || (Acquired::Lost, None::<u8>), none, || false).is_none());
    }
}
