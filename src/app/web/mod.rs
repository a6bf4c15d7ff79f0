//! The browser's entry (wasm32-unknown-unknown, `scripts/web`): fetch the page's files, then
//! play, or run a lab script in the page.
//!
//! - The page's `assets/manifest.txt` lists every file of its `assets/` folder; each is fetched
//!   into memory ([`crate::preloaded`]) before anything starts, so the levels, tileset, atlas,
//!   skies, font, sounds and tuning are read exactly as from disk (the same size limits, the
//!   same one-line refusals).
//! - `?lab=URL` fetches a lab script (relative to the page), runs it headless on this build
//!   (`ledge lab SCRIPT --summary`), logs the report and sets `window.ledgeLabReport` to it; a
//!   `level assets/levels/…` line finds the shipped level, as natively from the project root.
//!   A script the lab refuses sets `window.ledgeLabError` to its one line. `?labs=LIST` runs
//!   every script a list names into `window.ledgeLabReports` (`scripts/determinism`'s browser
//!   column).
//! - `#run=…` (a link from `ledge replay --link`) replays the run the link holds the same way,
//!   headless, into `window.ledgeLabReport` (a bad link or an edited level: `window.ledgeLabError`).
//! - Otherwise the game (`crate::app::run_in_page`): saved data in `localStorage`
//!   ([`crate::save::disk`]); `?record` keeps the session as a lab script (`--record`);
//!   `?backend=webgl2` leaves WebGPU out.
//!
//! Clock: none of its own: it runs once at page load, before the event loop starts.

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod console;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod entry;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod fetch;
pub mod query;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use entry::{main, start};
pub use query::Query;

/// The page's file listing its assets, one path per line relative to the page.
pub const MANIFEST: &str = "assets/manifest.txt";
