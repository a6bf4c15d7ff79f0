//! The GPU layer: wgpu and the font rasteriser, and nothing that decides what a frame shows.
//!
//! Clock: render frame (the display's rate). It draws what the pure layers describe — the
//! loop's [`crate::present::view::FrameView`] (as `present::instances` builds it) and the UI's
//! [`crate::ui::Layer`] — and never writes the world:
//!
//! - [`gpu`]: the one owner of instance, adapter, device, queue and the window surface;
//! - [`pipeline`]: the atlas, camera uniforms, growing instance buffers, and the opaque and
//!   alpha-blended sprite pipelines;
//! - [`composite`]: the world's art-resolution images and the pass that scales them onto the
//!   window;
//! - [`kept`]: what the images already hold, so that unchanged passes are skipped and an
//!   unchanged picture is copied;
//! - [`textures`]: the atlas and the skies loaded and uploaded, with plain views;
//! - [`glyphs`]: the shipped font rasterised into a coverage atlas (CPU);
//! - [`text`]: text laid out in that font and drawn from the atlas;
//! - [`renderer`]: the [`Renderer`], whose one `encode` records a frame's passes for the window
//!   and for off-screen capture alike;
//! - `offscreen`: `Offscreen`, a headless context that renders and reads images back (not in
//!   the browser build, which cannot block on a readback).

pub mod composite;
pub mod glyphs;
pub mod gpu;
pub mod kept;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub mod offscreen;
pub mod pipeline;
pub mod renderer;
pub mod text;
pub mod textures;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use offscreen::Offscreen;
pub use renderer::{FrameTarget, Renderer};
