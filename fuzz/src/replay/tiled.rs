//! Tiled maps, tilesets and templates, loaded from memory (`ledge::level::files::MemoryFiles`)
//! by the same loader the game uses for files on disk, which reads every tile of the map as
//! the game does; a good level is then played ([`super::play`]).
//!
//! Clock: none (a good level is then played on the real loop's fixed tick).
//!
//! The files, laid out as in the repository (the shipped levels' `../tilesets/ledge.tsx` finds
//! the tileset): the map `assets/levels/fuzz.tmx`, the tileset `assets/tilesets/ledge.tsx`,
//! its image `assets/sprites/atlas.png` (only its existence is checked: Ledge draws from its
//! own atlas) and a template `assets/levels/fuzz.tx`. Each target puts its input in one of
//! them and the shipped or fixture file in the others.

use super::{Outcome, play, refused, shipped_tuning};
use ledge::level::files::MemoryFiles;
use ledge::level::tiled_map::load_tmx_from;
use std::path::Path;

/// Where the map is.
pub const MAP: &str = "assets/levels/fuzz.tmx";
/// Where the tileset is (the shipped levels' `source="../tilesets/ledge.tsx"`).
pub const TILESET: &str = "assets/tilesets/ledge.tsx";
/// Where the tileset's image is.
pub const IMAGE: &str = "assets/sprites/atlas.png";
/// Where the template is (`template="fuzz.tx"` in the map).
pub const TEMPLATE: &str = "assets/levels/fuzz.tx";

/// The shipped tileset.
const SHIPPED_TILESET: &[u8] = include_bytes!("../../../assets/tilesets/ledge.tsx");
/// The map the tileset target loads: every atlas tile, a tile object of each kind.
const TSX_HOST: &[u8] = include_bytes!("../../fixtures/tsx-host.tmx");
/// The map the template target loads: three objects from the template.
const TX_HOST: &[u8] = include_bytes!("../../fixtures/tx-host.tmx");
/// The template beside the maps the map target loads: a one-way platform.
const FIXED_TEMPLATE: &[u8] = include_bytes!("../../fixtures/fixed.tx");

/// Load `map`, `tileset` and `template` from memory and play a good level.
fn load(map: &[u8], tileset: &[u8], template: &[u8]) -> Result<Outcome, String> {
    let mut files = MemoryFiles::default();
    files.insert(MAP, map.to_vec());
    files.insert(TILESET, tileset.to_vec());
    files.insert(IMAGE, Vec::new());
    files.insert(TEMPLATE, template.to_vec());
    match load_tmx_from(Path::new(MAP), &mut files) {
        Ok(level) => {
            play(level, shipped_tuning()?)?;
            Ok(Outcome::Loaded)
        }
        Err(e) => refused(e.to_string(), MAP),
    }
}

/// A map, with the shipped tileset and the fixed template.
///
/// # Errors
/// See [`super::replay`].
pub fn map(bytes: &[u8]) -> Result<Outcome, String> {
    load(bytes, SHIPPED_TILESET, FIXED_TEMPLATE)
}

/// A tileset, used by a small map of every atlas tile.
///
/// # Errors
/// See [`super::replay`].
pub fn tileset(bytes: &[u8]) -> Result<Outcome, String> {
    load(TSX_HOST, bytes, FIXED_TEMPLATE)
}

/// A template, used by three objects of a small map.
///
/// # Errors
/// See [`super::replay`].
pub fn template(bytes: &[u8]) -> Result<Outcome, String> {
    load(TX_HOST, SHIPPED_TILESET, bytes)
}
