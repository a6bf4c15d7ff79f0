//! Inline ASCII maps, as written in lab scripts between `map` and `end` (docs: LAB.md).
//!
//! Clock: none. Parsed once while the lab script is read, before the first frame.
//!
//! Legend, one character per 16 x 16 px tile: `#` solid, `-` one-way platform, `^` hazard,
//! `P` player spawn, `C` checkpoint, `G` goal, `.` or space empty. Rows may be ragged; short
//! rows are padded with empty tiles to the widest row.

use super::tiles;
use super::{Checkpoint, HITBOX, Level, LevelError, Rect, TILE, TileKind};
use glam::DVec2;

/// Top-left of a hitbox standing on the bottom edge of tile (`col`, `row`), horizontally
/// centred on it: x = col * 16 + 2, y = (row + 1) * 16 - 22, pixels.
fn standing_in(col: usize, row: usize) -> DVec2 {
    DVec2::new(col as f64 * TILE + (TILE - HITBOX.x) / 2.0, (row + 1) as f64 * TILE - HITBOX.y)
}

/// Builds a [`Level`] from the rows of an inline map. `first_line` is the 1-based line number
/// of `rows[0]` in the script, for error messages.
///
/// Cells: `#` [`TileKind::Solid`] (drawn as [`tiles::GROUND_TOP`] where the cell above is not
/// solid, else [`tiles::GROUND_FILL`]); `-` [`TileKind::OneWay`] ([`tiles::ONEWAY`]); `^`
/// [`TileKind::Hazard`] ([`tiles::HAZARD`]); `P` the spawn (empty cell, nothing drawn); `C` a
/// checkpoint whose trigger is the tile and whose respawn stands on its bottom edge (empty
/// cell, drawn as [`tiles::CHECKPOINT`]); `G` the goal, the tile itself (empty cell, drawn as
/// [`tiles::GOAL`]). Trailing `\r` is ignored.
///
/// # Errors
///
/// [`LevelError::Ascii`] with the line of the problem: an unknown character, no `P` (reported
/// at `first_line`), a second `P`, a second `G`, or no rows at all.
pub fn parse_ascii(rows: &[String], first_line: usize) -> Result<Level, LevelError> {
    let err = |line: usize, msg: String| LevelError::Ascii { line, msg };
    let rows: Vec<&str> = rows.iter().map(|r| r.strip_suffix('\r').unwrap_or(r)).collect();
    let height = rows.len();
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    if height == 0 || width == 0 {
        return Err(err(first_line, "map is empty".to_owned()));
    }

    let mut kinds = vec![TileKind::Empty; width * height];
    let mut gfx = vec![None; width * height];
    let mut spawn: Option<(DVec2, usize)> = None;
    let mut checkpoints = Vec::new();
    let mut goal: Option<Rect> = None;

    for (row, text) in rows.iter().enumerate() {
        let line = first_line + row;
        for (col, ch) in text.chars().enumerate() {
            let i = row * width + col;
            let tile_rect = Rect::new(col as f64 * TILE, row as f64 * TILE, TILE, TILE);
            match ch {
                '.' | ' ' => {}
                '#' => kinds[i] = TileKind::Solid,
                '-' => {
                    kinds[i] = TileKind::OneWay;
                    gfx[i] = Some(tiles::ONEWAY);
                }
                '^' => {
                    kinds[i] = TileKind::Hazard;
                    gfx[i] = Some(tiles::HAZARD);
                }
                'P' => {
                    if let Some((_, first)) = spawn {
                        return Err(err(line, format!("two P spawns (the first is on line {first})")));
                    }
                    spawn = Some((standing_in(col, row), line));
                }
                'C' => {
                    gfx[i] = Some(tiles::CHECKPOINT);
                    checkpoints.push(Checkpoint { area: tile_rect, respawn: standing_in(col, row) });
                }
                'G' => {
                    if goal.is_some() {
                        return Err(err(line, "two G goals".to_owned()));
                    }
                    gfx[i] = Some(tiles::GOAL);
                    goal = Some(tile_rect);
                }
                other => {
                    return Err(err(
                        line,
                        format!(
                            "unknown map character {other:?} in column {} (legend: # - ^ P C G . space)",
                            col + 1
                        ),
                    ));
                }
            }
        }
    }

    for row in 0..height {
        for col in 0..width {
            let i = row * width + col;
            if kinds[i] == TileKind::Solid {
                let air_above = row == 0 || kinds[i - width] != TileKind::Solid;
                gfx[i] = Some(if air_above { tiles::GROUND_TOP } else { tiles::GROUND_FILL });
            }
        }
    }

    let Some((spawn, _)) = spawn else {
        return Err(err(first_line, "map has no P spawn".to_owned()));
    };
    Ok(Level {
        name: "inline map".to_owned(),
        origin: None,
        object_ids: Vec::new(),
        width,
        height,
        kinds,
        gfx,
        spawn,
        checkpoints,
        sky: super::Sky::default(),
        goal,
        entities: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    fn msg(r: Result<Level, LevelError>) -> String {
        r.expect_err("should fail").to_string()
    }

    #[test]
    fn legend_builds_kinds_objects_and_graphics() {
        let level = parse_ascii(
            &rows(
                "\
.........G
..C...--..
P.........
####^^####
##########",
            ),
            7,
        )
        .unwrap();
        assert_eq!((level.width, level.height), (10, 5));
        assert_eq!(level.name, "inline map");
        assert_eq!(level.origin, None);
        assert_eq!(level.kind_at(0, 3), TileKind::Solid);
        assert_eq!(level.kind_at(4, 3), TileKind::Hazard);
        assert_eq!(level.kind_at(6, 1), TileKind::OneWay);
        assert_eq!(level.kind_at(0, 2), TileKind::Empty, "P is empty");
        assert_eq!(level.kind_at(2, 1), TileKind::Empty, "C is empty");
        assert_eq!(level.kind_at(9, 0), TileKind::Empty, "G is empty");

        // The spawn's hitbox (12 x 22) stands on the P tile's bottom edge, centred.
        assert_eq!(level.spawn, DVec2::new(2.0, 3.0 * 16.0 - 22.0));
        assert_eq!(level.spawn.y + 22.0, 48.0, "feet on the top of row 3");

        assert_eq!(level.checkpoints.len(), 1);
        let cp = level.checkpoints[0];
        assert_eq!(cp.area, Rect::new(32.0, 16.0, 16.0, 16.0));
        assert_eq!(cp.respawn, DVec2::new(34.0, 32.0 - 22.0));
        assert_eq!(level.goal, Some(Rect::new(144.0, 0.0, 16.0, 16.0)));

        let g = |x: usize, y: usize| level.gfx[y * level.width + x];
        assert_eq!(g(0, 3), Some(tiles::GROUND_TOP));
        assert_eq!(g(0, 4), Some(tiles::GROUND_FILL));
        assert_eq!(g(4, 4), Some(tiles::GROUND_TOP), "under a hazard there is air");
        assert_eq!(g(4, 3), Some(tiles::HAZARD));
        assert_eq!(g(6, 1), Some(tiles::ONEWAY));
        assert_eq!(g(2, 1), Some(tiles::CHECKPOINT));
        assert_eq!(g(9, 0), Some(tiles::GOAL));
        assert_eq!(g(0, 2), None);
        assert_eq!(g(1, 0), None);
    }

    #[test]
    fn ragged_rows_are_padded_and_spaces_are_empty() {
        let level = parse_ascii(&rows("P\n## #\n#"), 1).unwrap();
        assert_eq!((level.width, level.height), (4, 3));
        assert_eq!(level.kinds.len(), 12);
        assert_eq!(level.kind_at(2, 1), TileKind::Empty);
        assert_eq!(level.kind_at(3, 1), TileKind::Solid);
        assert_eq!(level.kind_at(3, 2), TileKind::Empty, "padding");
        assert_eq!(level.gfx[2 * 4], Some(tiles::GROUND_FILL));
        assert_eq!(level.gfx[2 * 4 + 3], None);
    }

    #[test]
    fn carriage_returns_are_ignored() {
        let level = parse_ascii(&["P.\r".to_owned(), "##\r".to_owned()], 1).unwrap();
        assert_eq!(level.width, 2);
    }

    #[test]
    fn spawn_must_exist_exactly_once() {
        assert_eq!(msg(parse_ascii(&rows("...\n###"), 12)), "line 12: map has no P spawn");
        assert_eq!(
            msg(parse_ascii(&rows("P..\n..P\n###"), 12)),
            "line 13: two P spawns (the first is on line 12)"
        );
    }

    #[test]
    fn unknown_characters_name_their_line() {
        let m = msg(parse_ascii(&rows("P..\n#x#"), 20));
        assert!(m.starts_with("line 21: unknown map character 'x' in column 2"), "{m}");
        assert!(!m.contains('\n'));
    }

    #[test]
    fn empty_maps_and_two_goals_are_errors() {
        assert_eq!(msg(parse_ascii(&[], 3)), "line 3: map is empty");
        assert_eq!(msg(parse_ascii(&rows("\n\n"), 3)), "line 3: map is empty");
        assert_eq!(msg(parse_ascii(&rows("PG\n.G"), 3)), "line 4: two G goals");
    }
}
