//! Ledge: a 2D platformer whose jump is the same on every screen.
//!
//! Clock: this root only declares modules; each module's `//!` names the clock it runs on
//! (event loop, fixed tick, render frame). See docs/architecture.md.
//!
//! The `game` feature (on by default) adds the window and GPU layers, `render` and `app`, and
//! input's keyboard and gamepad adapters, and `audio` (kira); without it the crate links no wgpu,
//! winit, gilrs, ab_glyph, kira or ALSA.
//!
//! Built for wasm32-unknown-unknown with `game` (`scripts/web`), `app::web` is the browser's
//! entry: the page, its files ([`preloaded`]), `localStorage` saves and the lab in the page.

#[cfg(feature = "game")]
pub mod app;
pub mod assets;
#[cfg(feature = "game")]
pub mod audio;
pub mod cosmetic;
pub mod game_loop;
pub mod input;
pub mod lab;
pub mod level;
pub mod net;
pub mod preloaded;
pub mod present;
pub mod printable;
pub mod race;
pub mod read_limit;
#[cfg(feature = "game")]
pub mod render;
pub mod save;
pub mod sim;
pub mod time;
pub mod timer;
pub mod ui;
