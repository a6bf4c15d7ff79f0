//! The game's UI, pure: the HUD, the pause and end screens, and the F3 telemetry overlay, built
//! as plain data — screen-space quads (`present::instances::SpriteInstance`s with
//! `FLAG_SOLID`, window pixels) and `present::text::TextItem`s in a [`Layer`].
//!
//! Clock: render frame. No GPU, no clock, no winit: the app feeds it numbers (the
//! [`Telemetry`] ring of the loop's frame samples, the level's tick count) and hands the
//! resulting [`Layer`] to `render::Renderer::encode`. Everything here is unit-tested without a
//! window. Text is DejaVu Sans Mono, so widths are known without shaping; panels are sized
//! from character counts.
//!
//! One job per module: [`layout`] (screen, rectangles, the layer), [`style`] (colours),
//! [`mod@hud`], [`mod@input_display`] (the tick's input, for speedrunners), [`screens`] (pause, end), [`splits`] (the speedrun splits' colours and the
//! level-complete banner), [`reload`] (hot reload's broken-file banner), [`replay_bar`] (the replay window's bar), [`menu`] (the
//! menus' state machine), [`pages`] (what each menu page draws), [`settings_menu`] (the
//! settings rows and the rebinding rule), [`telemetry`] (ring buffer, statistics), [`graphs`]
//! (the F3 bar graphs), [`f3`] (the F3 panel's text and layout).

pub mod f3;
pub mod graphs;
pub mod hud;
pub mod input_display;
pub mod layout;
pub mod menu;
pub mod pages;
pub mod race_menu;
pub mod reload;
pub mod replay_bar;
pub mod screens;
pub mod settings_menu;
pub mod splits;
pub mod style;
pub mod telemetry;

pub use f3::{Anchor, OverlayInfo, overlay_lines, overlay_rect, telemetry_overlay, telemetry_overlay_at};
pub use hud::{Hud, format_clock, hud, truncate};
pub use input_display::input_display;
pub use layout::{Layer, Rect, Screen, centre_clear_of, solid};
pub use reload::{BrokenFile, broken_banner};
pub use screens::{LevelResult, end_screen, pause_screen};
pub use splits::level_complete;
pub use style::colors;
pub use telemetry::{HISTORY, Telemetry, TelemetryStats};
