//! Levels for tests: the shipped ones as the game loads them, and a generated flat level.
//!
//! Clock: none.

use super::root;
use ledge::level::Level;
use ledge::level::tiled_map::{level_path, load_tmx};
use std::fs;
use std::path::Path;

/// The shipped level `assets/levels/NAME.tmx`; fails the test when it does not load.
pub fn shipped(name: &str) -> Level {
    let path = level_path(&root().join("assets"), name);
    load_tmx(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// A flat 120 x 22 tile level (ground from tile row 18 down, spawn at x = 56, decoration
/// only above it), written to `path` with the shipped tileset, so a blind run to the right
/// never meets a pit, and a screenshot shows the usual mix of sky, clouds, grass and dirt.
pub fn write_flat_level(path: &Path) {
    let (w, h) = (120, 22);
    let gid = |col: usize, row: usize| match row {
        // clouds (decoration)
        4 if col % 23 == 9 => 20,
        4 if col % 23 == 10 => 21,
        // bush, flowers, grass tuft (decoration)
        17 if col % 11 == 6 => 17,
        17 if col % 7 == 3 => 19,
        17 if col % 5 == 1 => 18,
        18 => 1,                      // ground_top
        19 | 20 if col % 6 == 4 => 8, // ground_fill_alt
        19 | 20 => 5,                 // ground_fill
        21 => 23,                     // ground_deep
        _ => 0,
    };
    let rows: Vec<String> =
        (0..h).map(|r| (0..w).map(|c| gid(c, r).to_string()).collect::<Vec<_>>().join(",")).collect();
    let tileset = root().join("assets/tilesets/ledge.tsx");
    let tmx = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}" tilewidth="16" tileheight="16" infinite="0" nextlayerid="3" nextobjectid="2">
 <properties>
  <property name="name" value="e2e flat"/>
 </properties>
 <tileset firstgid="1" source="{tileset}"/>
 <layer id="1" name="tiles" width="{w}" height="{h}">
  <data encoding="csv">
{data}
</data>
 </layer>
 <objectgroup id="2" name="objects">
  <object id="1" name="start" type="spawn" x="56" y="288">
   <point/>
  </object>
 </objectgroup>
</map>
"#,
        tileset = tileset.display(),
        data = rows.join(",\n"),
    );
    fs::write(path, tmx).expect("write flat level");
}

/// A loop racing `players` on shipped level 1 with the shipped tuning.
pub fn race_on_level1(players: usize) -> ledge::game_loop::Loop {
    let tuning =
        ledge::sim::Tuning::load(&root().join("assets/tuning.toml")).unwrap_or_else(|e| panic!("{e}"));
    let mut lp =
        ledge::game_loop::Loop::new(shipped("level1"), tuning, ledge::time::StepperConfig::default())
            .unwrap_or_else(|e| panic!("{e}"));
    lp.set_players(players);
    lp
}
