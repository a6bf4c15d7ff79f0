//! Rendering: sprites from one instance buffer, interpolated positions, integer pixel scale.
//!
//! Clock: render frame (the display's rate). Reads [`view::FrameView`] snapshots; never writes
//! the world. `view`, `atlas`, `spin` and `surface_state` are pure (no wgpu) so the loop and
//! the lab can use them (`spin`'s angles are functions of the tick count); `overlay` builds the
//! HUD, pause/end screens and F3 telemetry as plain data (quads and [`text::TextItem`]s), which
//! `sprites` (screen-space quads) and `text` (glyphon) draw.

pub mod atlas;
pub mod gpu;
pub mod overlay;
pub mod spin;
pub mod sprites;
pub mod stress;
pub mod surface_state;
pub mod text;
pub mod view;
