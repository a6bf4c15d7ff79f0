//! The UI's look: colours and opacities shared by the HUD, the screens and the F3 overlay.
//!
//! Clock: none (constants).

/// Colours, sRGB 0..255.
pub mod colors {
    /// Panels behind text: near black (drawn at [`super::PANEL_ALPHA`]).
    pub const PANEL: [u8; 3] = [8, 10, 18];
    /// Main text.
    pub const TEXT: [u8; 4] = [236, 240, 246, 255];
    /// Secondary text (labels, hints).
    pub const DIM: [u8; 4] = [160, 172, 190, 255];
    /// Headline text (pause, end screen), the selected menu row.
    pub const TITLE: [u8; 4] = [255, 222, 120, 255];
    /// A menu's message (a refused key, a rebinding done).
    pub const NOTE: [u8; 4] = [250, 176, 96, 255];
    /// A frame at or under one 60 Hz frame; one tick in a frame.
    pub const GOOD: [u8; 3] = [92, 214, 120];
    /// A frame longer than one 60 Hz frame; two ticks in a frame.
    pub const WARN: [u8; 3] = [240, 190, 70];
    /// A frame past the graph's top; three or more ticks; a clamp event.
    pub const BAD: [u8; 3] = [236, 78, 70];
    /// A cap hit (catch-up ticks dropped).
    pub const CAP: [u8; 3] = [222, 90, 230];
    /// Accumulator bars.
    pub const ACCUM: [u8; 3] = [96, 160, 246];
    /// A split faster than the best.
    pub const AHEAD: [u8; 4] = [92, 214, 120, 255];
    /// A split slower than the best.
    pub const BEHIND: [u8; 4] = [236, 78, 70, 255];
    /// Guide lines and zero-tick stubs.
    pub const GUIDE: [u8; 3] = [200, 206, 220];
}

/// Characters of overlay text a line may take before it is cut, where the graphs are
/// narrower than that (the graphs set the panel's width otherwise).
pub const OVERLAY_TEXT_CHARS: usize = 56;

/// Opacity of the panels behind text.
pub const PANEL_ALPHA: f32 = 0.72;

/// Opacity of the menus' list panels (more than [`PANEL_ALPHA`]: clouds and platforms behind
/// a list of words made them hard to read).
pub const MENU_ALPHA: f32 = 0.96;

/// Opacity of the full-screen dimmer behind the pause screen.
pub const PAUSE_DIM_ALPHA: f32 = 0.7;

/// Opacity of the full-screen panel behind the end screen.
pub const END_DIM_ALPHA: f32 = 0.88;
