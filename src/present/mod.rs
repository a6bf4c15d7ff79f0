//! Presentation, pure: what a frame shows, as plain data, with no GPU, window or font crate.
//!
//! Clock: render frame (the display's rate), except where a module says otherwise (the camera
//! is stepped on the fixed tick and drawn with the frame's alpha; `spin`'s angles and
//! `stress`'s motion are functions of the fixed tick; `surface_state` runs on the event loop's
//! resize events). The loop builds a [`view::FrameView`] snapshot after each
//! frame's ticks; everything here reads it or numbers like it and never writes the world:
//!
//! - [`view`]: the snapshot (interpolated player, camera, goal angle, extra sprites);
//! - [`interp`]: `lerp(prev, curr, alpha)`, the one interpolation every drawn body uses;
//! - [`bodies`]: every drawn body's previous and current position, drawn through `interp`
//!   ([`bodies::Track`], the one prev/curr blend: the world's bodies and the stress sprites);
//! - [`ghost`]: a recorded run's player by tick, drawn beside the live one through `interp`;
//! - [`camera`]: a body on the tick (dead zone, platform snapping, easing, bounds), drawn at
//!   `lerp(prev, curr, alpha)`;
//! - [`spin`]: tick → angle, and the short-way `lerp_angle`;
//! - [`atlas`]: where each sprite lives in the atlas image (regions, UVs);
//! - [`instances`]: a snapshot → [`instances::SpriteInstance`]s, the sprite pipeline's input;
//! - [`entity_sprites`]: the snapshot's entities → sprite instances (pieces, states, frames);
//! - [`backdrop`]: the level's sky → sprite instances (gradient, far and near layers);
//! - [`effect_sprites`]: the snapshot's particles and flash/fade overlays → sprite instances;
//! - [`letterbox`]: where the 640 x 360 view lands in a target of any size;
//! - [`art`]: where the world's art-resolution image lies and how it is shifted onto the window;
//! - [`pan`]: the title screen's camera, panning across a level;
//! - [`parallax`]: where the backdrop's three layers are drawn, from the drawn view;
//! - [`stress`]: the `--stress` sprites;
//! - [`ride_stats`]: how steady a rider is drawn on its platform and on screen (`--stats`);
//! - [`surface_state`]: the window surface's size rules and acquire state machine;
//! - [`text`]: [`text::TextItem`]s and the monospace metrics the UI lays out with.
//!
//! `render` (GPU) draws what this layer describes; the loop and the lab use it without any GPU.

pub mod art;
pub mod atlas;
pub mod backdrop;
pub mod bodies;
pub mod camera;
pub mod effect_sprites;
pub mod entity_sprites;
pub mod ghost;
pub mod instances;
pub mod interp;
pub mod letterbox;
pub mod pan;
pub mod parallax;
pub mod ride_stats;
pub mod spin;
pub mod stress;
pub mod surface_state;
pub mod text;
pub mod view;
