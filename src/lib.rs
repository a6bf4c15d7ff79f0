//! Ledge: a 2D platformer whose jump is the same on every screen.
//!
//! Clock: this root only declares modules; each module's `//!` names the clock it runs on
//! (event loop, fixed tick, render frame). See README.md "Architecture".

pub mod app;
pub mod assets;
pub mod camera;
pub mod game_loop;
pub mod input;
pub mod lab;
pub mod level;
pub mod render;
pub mod sim;
pub mod time;
