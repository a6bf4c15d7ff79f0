//! Rendering: sprites from one instance buffer, interpolated positions, integer pixel scale.
//!
//! Clock: render frame (the display's rate). Reads [`view::FrameView`] snapshots; never writes
//! the world. `view`, `atlas` and `surface_state` are pure (no wgpu) so the lab can use them.

pub mod atlas;
pub mod gpu;
pub mod sprites;
pub mod surface_state;
pub mod view;
