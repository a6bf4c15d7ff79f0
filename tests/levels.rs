//! Level files: the shipped levels load and make sense; malformed maps are rejected with a
//! one-line message naming the file, never a panic.

mod common;

use ledge::level::HITBOX;
use ledge::level::tiled_map::load_tmx;
use ledge::level::{Level, LevelError, TILE, TileKind};
use ledge::present::atlas;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    common::root().join("tests/fixtures/levels").join(name)
}

fn level1() -> Level {
    common::levels::shipped("level1")
}

/// The cell (column, row) holding the pixel (x, y).
fn cell(x: f64, y: f64) -> (i64, i64) {
    ((x / TILE).floor() as i64, (y / TILE).floor() as i64)
}

/// True when a hitbox at `pos` (top-left) overlaps no solid or hazard cell.
fn is_clear(level: &Level, pos: glam::DVec2) -> bool {
    let (x0, y0) = cell(pos.x, pos.y);
    let (x1, y1) = cell(pos.x + HITBOX.x - 0.001, pos.y + HITBOX.y - 0.001);
    (y0..=y1).all(|y| (x0..=x1).all(|x| matches!(level.kind_at(x, y), TileKind::Empty | TileKind::OneWay)))
}

/// True when a hitbox at `pos` stands on a solid cell (under the centre of its feet).
fn stands_on_solid(level: &Level, pos: glam::DVec2) -> bool {
    let feet = pos + glam::DVec2::new(HITBOX.x / 2.0, HITBOX.y);
    let (x, y) = cell(feet.x, feet.y);
    feet.y % TILE == 0.0 && level.kind_at(x, y) == TileKind::Solid
}

#[test]
fn level1_has_spawn_on_ground_checkpoint_hazards_and_goal() {
    let level = level1();
    assert_eq!(level.name, "First Steps");
    assert!(level.width >= 100 && level.height >= 20, "{}x{}", level.width, level.height);
    assert_eq!(level.kinds.len(), level.width * level.height);

    assert!(stands_on_solid(&level, level.spawn), "spawn {:?}", level.spawn);
    assert!(is_clear(&level, level.spawn), "spawn hitbox overlaps a tile");

    assert!(!level.checkpoints.is_empty());
    for cp in &level.checkpoints {
        assert!(stands_on_solid(&level, cp.respawn), "checkpoint respawn {:?}", cp.respawn);
        assert!(is_clear(&level, cp.respawn));
        let (x, y) = cell(cp.area.pos.x, cp.area.pos.y);
        let drawn = level.gfx[y as usize * level.width + x as usize];
        assert_eq!(drawn, Some(atlas::CHECKPOINT), "the flag is drawn at its checkpoint");
    }

    let goal = level.goal.expect("level1 has a goal");
    let (gx, gy) = cell(goal.pos.x, goal.pos.y);
    assert_eq!(level.kind_at(gx, gy + 1), TileKind::Solid, "the goal stands on ground");
    assert!(goal.pos.x > level.checkpoints[0].area.pos.x, "goal after the checkpoint");
    assert!(level.checkpoints[0].area.pos.x > level.spawn.x, "checkpoint after the spawn");

    assert!(level.kinds.contains(&TileKind::Hazard));
    assert!(level.kinds.contains(&TileKind::OneWay));
}

#[test]
fn level1_draws_only_atlas_tiles_and_keeps_its_sky_open() {
    let level = level1();
    for (i, g) in level.gfx.iter().enumerate() {
        if let Some(g) = g {
            assert!(*g < atlas::TILE_COUNT, "cell {i}: tile {g}");
        }
        if level.kinds[i] != TileKind::Empty {
            assert!(g.is_some(), "cell {i} collides but draws nothing");
        }
    }
    for y in 0..4 {
        for x in 0..level.width as i64 {
            assert_eq!(level.kind_at(x, y), TileKind::Empty, "sky at ({x}, {y})");
        }
    }
}

#[test]
fn level1_gaps_are_at_most_four_tiles() {
    // Walk the floor line by line: no run of columns without anything to stand on (solid or
    // one-way, any height) is wider than 4 tiles.
    let level = level1();
    let mut run = 0;
    for x in 0..level.width as i64 {
        let footing = (0..level.height as i64)
            .any(|y| matches!(level.kind_at(x, y), TileKind::Solid | TileKind::OneWay));
        run = if footing { 0 } else { run + 1 };
        assert!(run <= 4, "gap wider than 4 tiles ending at column {x}");
    }
}

/// Loads a fixture that must fail; returns its one-line message after checking it names the
/// file.
fn rejected(name: &str) -> (LevelError, String) {
    let path = fixture(name);
    let err = match load_tmx(&path) {
        Ok(level) => panic!("{name} loaded: {level:?}"),
        Err(e) => e,
    };
    let msg = err.to_string();
    assert!(msg.starts_with(&format!("{}: ", path.display())), "{msg}");
    assert!(!msg.contains('\n'), "not one line: {msg:?}");
    let problem = msg[path.display().to_string().len() + 2..].to_owned();
    (err, problem)
}

#[test]
fn the_good_fixture_loads() {
    // The bad fixtures are this one with one thing broken.
    let level = load_tmx(&fixture("good.tmx")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(level.name, "good");
    assert_eq!((level.width, level.height), (4, 3));
    assert_eq!(level.spawn, glam::DVec2::new(18.0, 10.0));
    assert_eq!(level.kind_at(0, 2), TileKind::Solid);
    assert_eq!(level.kind_at(2, 2), TileKind::Hazard);
    assert_eq!(level.gfx[8], Some(atlas::GROUND_TOP));
    assert!(level.goal.is_some());
    assert!(level.checkpoints.is_empty());
}

#[test]
fn missing_tiles_layer_is_rejected() {
    let (err, msg) = rejected("missing_tiles_layer.tmx");
    assert!(matches!(err, LevelError::Invalid { .. }));
    assert_eq!(msg, "no tile layer named 'tiles'");
}

#[test]
fn unknown_tile_kind_is_rejected() {
    let (_, msg) = rejected("unknown_kind.tmx");
    assert_eq!(msg, "unknown tile kind 'lava' on tile 0 (expected solid, oneway or hazard)");
}

#[test]
fn wrong_tile_size_is_rejected() {
    let (_, msg) = rejected("wrong_tile_size.tmx");
    assert_eq!(msg, "tile size must be 16x16, got 32x32");
}

#[test]
fn missing_tileset_image_is_rejected_naming_it() {
    let (_, msg) = rejected("missing_image.tmx");
    assert!(msg.starts_with("tileset image '"), "{msg}");
    assert!(msg.contains("no-such-atlas.png' not found"), "{msg}");
}

#[test]
fn missing_spawn_is_rejected() {
    let (_, msg) = rejected("no_spawn.tmx");
    assert_eq!(msg, "no spawn object in layer 'objects'");
}

#[test]
fn unknown_object_class_is_rejected() {
    let (_, msg) = rejected("unknown_class.tmx");
    assert_eq!(
        msg,
        "object 2 ('coin') has unknown class 'coin' (expected spawn, checkpoint, goal, platform, crumble, spring, saw, walker)"
    );
}

#[test]
fn entity_objects_become_level_entities_in_object_order() {
    use glam::DVec2;
    use ledge::level::EntitySpec;
    let level = load_tmx(&fixture("entities.tmx")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        level.entities,
        [
            EntitySpec::Platform {
                pos: DVec2::new(0.0, 8.0),
                size: DVec2::new(32.0, 8.0),
                to: Some(DVec2::new(32.0, 0.0)),
                speed: 30.0,
                wait: 0.5,
                oneway: true,
            },
            EntitySpec::Crumble { pos: DVec2::new(16.0, 16.0), width: 32.0, delay: 0.25, back: 2.0 },
            EntitySpec::Spring { pos: DVec2::new(0.0, 24.0), speed: 370.0 },
            EntitySpec::Saw {
                pos: DVec2::new(40.0, 0.0),
                to: Some(DVec2::new(40.0, 24.0)),
                speed: 60.0,
                radius: 12.0
            },
            EntitySpec::Walker { pos: DVec2::new(32.0, 16.0), speed: -20.0 },
        ]
    );
    // entity objects draw no map tile and leave the rest of the map as it was
    assert_eq!(level.gfx[..8], [None; 8]);
    assert!(level.goal.is_some());
}

#[test]
fn bad_entity_objects_are_rejected_naming_the_object() {
    let (_, msg) = rejected("platform_no_size.tmx");
    assert_eq!(msg, "object 2 ('lift') (platform): a platform must be a rectangle with a size (its w and h)");
    let (_, msg) = rejected("saw_path_outside.tmx");
    assert_eq!(
        msg,
        "object 2 ('blade') (saw): its path ends at to=200,8, which puts its 16x16 px box outside the map (64x48 px)"
    );
    // A spring drawn bigger than its fixed 16x8 box is refused, not silently shrunk.
    let (_, msg) = rejected("spring_rect.tmx");
    assert_eq!(
        msg,
        "object 2 ('pad') (spring): its rectangle is 32x16 px, but a spring is 16x8 px (draw it as a point, or a rectangle of that size)"
    );
    // `speed = true` is not 1 px/s: a bool is only for a flag.
    let (_, msg) = rejected("walker_speed_bool.tmx");
    assert_eq!(
        msg,
        "object 2 ('guard') (walker): property 'speed' is a bool, but only a flag (oneway) may be a bool"
    );
    // A spawn inside a solid entity (a crumble here; the one-way platform there is fine) would
    // start the player inside a solid.
    let (_, msg) = rejected("spawn_in_crumble.tmx");
    assert_eq!(msg, "spawn at (24, 32) puts the player inside entity 1 (crumble), solid there at the start");
    // A saw drawn as Tiled's ellipse is named as one (with its article).
    let (_, msg) = rejected("saw_ellipse.tmx");
    assert_eq!(msg, "object 2 ('blade') (saw) must be a rectangle or point, not an ellipse");
}

#[test]
fn infinite_maps_are_rejected() {
    let (_, msg) = rejected("infinite.tmx");
    assert_eq!(msg, "line 2: infinite maps are not supported");
}

#[test]
fn short_tile_data_is_an_error_not_a_panic() {
    let (_, msg) = rejected("short_data.tmx");
    assert_eq!(msg, "line 6: layer 'tiles': data holds 6 cells, not 4x3 = 12");
}

#[test]
fn unreadable_files_are_load_errors() {
    let (err, msg) = rejected("missing_tileset.tmx");
    assert!(matches!(err, LevelError::Load { .. }));
    assert!(msg.starts_with("cannot read '") && msg.contains("no_such_tileset.tsx"), "{msg}");

    let (err, msg) = rejected("not_xml.tmx");
    assert!(matches!(err, LevelError::Load { .. }), "{msg}");

    let (err, msg) = rejected("no_such_map.tmx");
    assert!(matches!(err, LevelError::Load { .. }));
    assert!(msg.starts_with("cannot read map: "), "{msg}");
}
