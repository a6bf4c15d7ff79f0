//! Tiled maps (`.tmx`, via the `tiled` crate) turned into a [`Level`].
//!
//! Clock: none. Loaded once on the event-loop thread (or by the lab) before the first frame.
//!
//! What Ledge reads from a map (anything else is an error, never a panic):
//!
//! - an orthogonal, finite map of 16 x 16 px tiles;
//! - a tile layer named `tiles`, drawn from one tileset laid out like the atlas
//!   (`assets/tilesets/ledge.tsx`); each tile's string property `kind` is `solid`, `oneway`
//!   or `hazard`, and a tile without `kind` is decoration (drawn, no collision). Other tile
//!   layers are skipped with a warning;
//! - an object layer named `objects` holding exactly one object of class (or type) `spawn`
//!   (a point, or a rectangle or tile object whose bottom-centre is used: the player's feet
//!   stand there), any number of `checkpoint` rectangles (the player respawns standing on the
//!   rectangle's bottom edge, centred) and at most one `goal` rectangle. Tile objects (placed
//!   with a tile from the tileset) count as their rectangle, and their tile is drawn in the
//!   cell under the object's centre;
//! - in the same layer, objects of class `platform`, `crumble`, `spring`, `saw` and `walker`
//!   place entities, in object order ([`super::tiled_entities`]: their rectangle or point and
//!   custom properties become the keys of `../shared/design/LAB.md`'s `entity` line);
//! - the map's string property `name`, if any (else the file stem);
//! - the map's string property `sky`, the level's backdrop ([`super::Sky::from_name`]:
//!   `hills`, `forest`, `caves`, `tower`, `dusk`); none: `hills`.

use super::files::{DiskFiles, LevelFiles, Reading};
use super::guard::MAX_SIDE;
use super::origin::{ContentHash, Origin};
use super::tiled_entities::{ENTITY_CLASSES, entity_from_object, solid_at_start_overlapping};
use super::tiles;
use super::{Checkpoint, HITBOX, Level, LevelError, Rect, Sky, TILE, TileKind};
use super::{EntityKind, EntitySpec};
use glam::DVec2;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tiled::{LayerType, ObjectShape, Orientation, PropertyValue, TileLayer, TilesetLocation};

/// Name of the tile layer Ledge collides with and draws.
pub const TILES_LAYER: &str = "tiles";

/// Name of the object layer holding spawn, checkpoints and goal.
pub const OBJECTS_LAYER: &str = "objects";

/// Loads the Tiled map at `path` from disk (its tilesets are found relative to it): see
/// [`load_tmx_from`].
///
/// # Errors
///
/// As [`load_tmx_from`].
pub fn load_tmx(path: &Path) -> Result<Level, LevelError> {
    load_tmx_from(path, &mut DiskFiles)
}

/// Loads the Tiled map at `path`, reading it and every file it uses (tilesets, templates)
/// through `files`, each checked by [`super::guard::check`] before `tiled` parses it. The
/// level's [`Origin`] lists the files read and their [`ContentHash`].
///
/// # Errors
///
/// [`LevelError::Load`] when the map or a file it uses cannot be read, is over its size limit
/// ([`super::guard::file_limit`]), breaks a limit of [`super::guard`] (a tile layer that does not
/// decode to exactly width x height cells, too many objects, …, with the line) or cannot be
/// parsed; [`LevelError::Invalid`] when it breaks one of the rules in this module's docs (for
/// example "tile size must be 16x16, got 32x32", "no tile layer named 'tiles'", "unknown tile
/// kind 'lava' on tile 3", "tileset image '…' not found", "no spawn object in layer
/// 'objects'"). Every message is one line starting with the map's path.
pub fn load_tmx_from(path: &Path, files: &mut dyn LevelFiles) -> Result<Level, LevelError> {
    let mut loader = tiled::Loader::with_reader(Reading::new(files));
    let loaded = loader.load_tmx_map(path);
    let (_, reading) = loader.into_inner();
    let map =
        loaded.map_err(|e| LevelError::Load { path: path.to_owned(), msg: reading.describe(path, &e) })?;
    let (files, read) = reading.finish();
    let origin = Origin {
        files: read.iter().map(|(p, _)| p.clone()).collect(),
        sha256: ContentHash::of(read.iter().map(|(_, bytes)| bytes.as_slice())),
    };
    let invalid = |msg: String| LevelError::Invalid { path: path.to_owned(), msg };
    convert(path, &map, &*files, origin).map_err(invalid)
}

/// A one-line description of a `tiled` error, without repeating the map's own path.
pub(super) fn describe_tiled_error(map_path: &Path, e: &tiled::Error) -> String {
    let msg = match e {
        tiled::Error::ResourceLoadingError { path, err } if path == map_path => {
            format!("cannot read map: {err}")
        }
        tiled::Error::ResourceLoadingError { path, err } => {
            format!("cannot read '{}': {err}", path.display())
        }
        other => format!("not a valid Tiled map: {other}"),
    };
    one_line(&msg)
}

pub(super) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Checks the map against Ledge's rules and builds the level; errors are messages without the
/// path (the caller adds it).
fn convert(path: &Path, map: &tiled::Map, files: &dyn LevelFiles, origin: Origin) -> Result<Level, String> {
    if map.orientation != Orientation::Orthogonal {
        let o = format!("{:?}", map.orientation).to_lowercase();
        return Err(format!("orientation must be orthogonal, got {o}"));
    }
    if map.infinite() {
        return Err("infinite maps are not supported".to_owned());
    }
    if (map.tile_width, map.tile_height) != (16, 16) {
        return Err(format!("tile size must be 16x16, got {}x{}", map.tile_width, map.tile_height));
    }
    if map.width == 0
        || map.height == 0
        || u64::from(map.width) > MAX_SIDE
        || u64::from(map.height) > MAX_SIDE
    {
        return Err(format!(
            "map size must be 1 to {MAX_SIDE} tiles a side, got {}x{}",
            map.width, map.height
        ));
    }
    check_tilesets(map, files)?;

    let (width, height) = (map.width as usize, map.height as usize);
    let mut kinds = vec![TileKind::Empty; width * height];
    let mut gfx = vec![None; width * height];
    read_tiles(map, width, height, &mut kinds, &mut gfx)?;
    let objects = read_objects(map)?;
    for (cell, id) in objects.drawn {
        let (x, y) = cell;
        if x < width && y < height && gfx[y * width + x].is_none() {
            gfx[y * width + x] = Some(id);
        }
    }

    let name = match map.properties.get("name") {
        Some(PropertyValue::StringValue(s)) if !s.trim().is_empty() => s.clone(),
        Some(PropertyValue::StringValue(_)) | None => {
            path.file_stem().map_or_else(|| "map".to_owned(), |s| s.to_string_lossy().into_owned())
        }
        Some(_) => return Err("map property 'name' must be a string".to_owned()),
    };

    let sky = sky_of(&map.properties)?;

    let level = Level {
        name,
        origin: Some(origin),
        width,
        height,
        kinds,
        gfx,
        spawn: objects.spawn,
        checkpoints: objects.checkpoints,
        sky,
        goal: objects.goal,
        entities: objects.entities,
        object_ids: objects.object_ids,
    };
    let size = level.size_px();
    let inside = |p: DVec2| p.x >= 0.0 && p.x + HITBOX.x <= size.x && p.y + HITBOX.y <= size.y;
    if !inside(level.spawn) {
        return Err(format!(
            "spawn at ({}, {}) puts the player outside the map",
            level.spawn.x + HITBOX.x / 2.0,
            level.spawn.y + HITBOX.y
        ));
    }
    if let Some(id) = solid_at_start_overlapping(&level.entities, Rect { pos: level.spawn, size: HITBOX }) {
        return Err(format!(
            "spawn at ({}, {}) puts the player inside entity {id} ({}), solid there at the start",
            level.spawn.x + HITBOX.x / 2.0,
            level.spawn.y + HITBOX.y,
            level.entities[id].kind().name()
        ));
    }
    Ok(level)
}

/// The map's `sky` property: absent is [`Sky::Hills`]; anything but a known name in a string
/// is an error listing the names.
fn sky_of(properties: &tiled::Properties) -> Result<Sky, String> {
    let known = || Sky::ALL.map(Sky::name).join(", ");
    match properties.get("sky") {
        None => Ok(Sky::Hills),
        Some(PropertyValue::StringValue(s)) => Sky::from_name(s)
            .ok_or_else(|| format!("unknown sky '{s}' (map property 'sky': expected {})", known())),
        Some(_) => Err(format!("map property 'sky' must be a string: one of {}", known())),
    }
}

/// Every tileset must have an image file that exists and the atlas's grid, so that a tile's
/// local id is its atlas index.
fn check_tilesets(map: &tiled::Map, files: &dyn LevelFiles) -> Result<(), String> {
    for ts in map.tilesets() {
        let name = tileset_name(&ts.source);
        let Some(image) = &ts.image else {
            return Err(format!("tileset {name} has no image (image collections are not supported)"));
        };
        if !files.is_file(&image.source) {
            return Err(format!(
                "tileset image '{}' not found (from tileset {name})",
                image.source.display()
            ));
        }
        let grid = (ts.tile_width, ts.tile_height, ts.margin, ts.spacing, ts.columns);
        let atlas_grid =
            (tiles::TILE_PX, tiles::TILE_PX, tiles::CELL_PAD, 2 * tiles::CELL_PAD, tiles::TILE_COLUMNS);
        if grid != atlas_grid {
            return Err(format!(
                "tileset {name} must match the atlas grid (16x16 tiles, margin 1, spacing 2, {} \
                 columns), got {}x{} tiles, margin {}, spacing {}, {} columns",
                tiles::TILE_COLUMNS,
                grid.0,
                grid.1,
                grid.2,
                grid.3,
                grid.4
            ));
        }
    }
    Ok(())
}

fn tileset_name(source: &Path) -> String {
    format!("'{}'", source.file_name().unwrap_or(source.as_os_str()).to_string_lossy())
}

/// The collision kind a tile declares with its `kind` property (`None`: decoration).
fn tile_kind(tile: Option<tiled::Tile<'_>>, id: u32) -> Result<TileKind, String> {
    let Some(value) = tile.as_ref().and_then(|t| t.properties.get("kind")) else {
        return Ok(TileKind::Empty);
    };
    match value {
        PropertyValue::StringValue(s) => match s.as_str() {
            "solid" => Ok(TileKind::Solid),
            "oneway" => Ok(TileKind::OneWay),
            "hazard" => Ok(TileKind::Hazard),
            other => {
                Err(format!("unknown tile kind '{other}' on tile {id} (expected solid, oneway or hazard)"))
            }
        },
        _ => Err(format!("tile {id}: property 'kind' must be a string")),
    }
}

fn read_tiles(
    map: &tiled::Map,
    width: usize,
    height: usize,
    kinds: &mut [TileKind],
    gfx: &mut [Option<u32>],
) -> Result<(), String> {
    let mut found = None;
    for layer in map.layers() {
        match (layer.name.as_str(), layer.layer_type()) {
            (TILES_LAYER, LayerType::Tiles(tiles)) => {
                if found.is_some() {
                    return Err(format!("two layers named '{TILES_LAYER}'"));
                }
                found = Some(tiles);
            }
            (TILES_LAYER, _) => return Err(format!("layer '{TILES_LAYER}' must be a tile layer")),
            (OBJECTS_LAYER, LayerType::Objects(_)) => {}
            (name, _) => log::warn!(
                "{}: layer '{name}' skipped (Ledge reads only '{TILES_LAYER}' and '{OBJECTS_LAYER}')",
                map.source.display()
            ),
        }
    }
    let Some(layer) = found else {
        return Err(format!("no tile layer named '{TILES_LAYER}'"));
    };
    let TileLayer::Finite(layer) = layer else {
        return Err("infinite maps are not supported".to_owned());
    };
    if (layer.width() as usize, layer.height() as usize) != (width, height) {
        return Err(format!(
            "layer '{TILES_LAYER}' is {}x{} tiles but the map is {width}x{height}",
            layer.width(),
            layer.height()
        ));
    }

    // super::guard checked, before `tiled` parsed the map, that this layer's data holds exactly
    // width x height cells: `get_tile` stays inside its cell vector.
    let mut cells = Vec::with_capacity(width * height);
    for y in 0..height as i32 {
        for x in 0..width as i32 {
            cells.push(layer.get_tile(x, y).map(|t| {
                let flipped = t.flip_h || t.flip_v || t.flip_d;
                (t.tileset_index(), t.id(), flipped, t.get_tile())
            }));
        }
    }

    let mut tileset_used: Option<usize> = None;
    let mut kind_of: HashMap<u32, TileKind> = HashMap::new();
    let mut warned_flip = false;
    for (i, cell) in cells.into_iter().enumerate() {
        let Some((tileset, id, flipped, tile)) = cell else {
            continue;
        };
        let (x, y) = (i % width, i / width);
        match tileset_used {
            None => tileset_used = Some(tileset),
            Some(first) if first != tileset => {
                let names = [first, tileset].map(|t| tileset_name(&map.tilesets()[t].source)).join(" and ");
                return Err(format!(
                    "layer '{TILES_LAYER}' uses two tilesets ({names}); Ledge draws tiles from one atlas"
                ));
            }
            Some(_) => {}
        }
        if id >= tiles::TILE_COUNT {
            return Err(format!(
                "tile {id} at ({x}, {y}) is not in the atlas (tiles 0 to {})",
                tiles::TILE_COUNT - 1
            ));
        }
        if flipped && !warned_flip {
            warned_flip = true;
            log::warn!(
                "{}: flipped or rotated tiles are drawn unflipped (first at ({x}, {y}))",
                map.source.display()
            );
        }
        let kind = match kind_of.get(&id) {
            Some(k) => *k,
            None => {
                let k = tile_kind(tile, id)?;
                kind_of.insert(id, k);
                k
            }
        };
        kinds[i] = kind;
        gfx[i] = Some(id);
    }
    Ok(())
}

/// What the `objects` layer holds.
struct Objects {
    spawn: DVec2,
    checkpoints: Vec<Checkpoint>,
    goal: Option<Rect>,
    /// Tiles of tile objects: (cell, atlas index).
    drawn: Vec<((usize, usize), u32)>,
    /// Entities placed by objects, in object order.
    entities: Vec<EntitySpec>,
    /// The Tiled object id of each of `entities`.
    object_ids: Vec<u32>,
}

/// An object's area in pixels: rectangles as they are, tile objects moved up by their height
/// (Tiled anchors them at their bottom-left), points as a zero-size rectangle.
fn object_area(obj: &tiled::Object<'_>) -> Result<Rect, String> {
    let (x, y) = (f64::from(obj.x), f64::from(obj.y));
    match &obj.shape {
        ObjectShape::Rect { width, height } => {
            let (w, h) = (f64::from(*width), f64::from(*height));
            if obj.tile_data().is_some() { Ok(Rect::new(x, y - h, w, h)) } else { Ok(Rect::new(x, y, w, h)) }
        }
        ObjectShape::Point(..) => Ok(Rect::new(x, y, 0.0, 0.0)),
        other => {
            let shape = format!("{other:?}");
            let shape = shape.split([' ', '{', '(']).next().unwrap_or("").to_lowercase();
            let article = if shape.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
            Err(format!("must be a rectangle or point, not {article} {shape}"))
        }
    }
}

fn read_objects(map: &tiled::Map) -> Result<Objects, String> {
    let mut layers = map.layers().filter(|l| l.name == OBJECTS_LAYER);
    let layer = match (layers.next(), layers.next()) {
        (None, _) => return Err(format!("no object layer named '{OBJECTS_LAYER}'")),
        (Some(_), Some(_)) => return Err(format!("two layers named '{OBJECTS_LAYER}'")),
        (Some(layer), None) => layer,
    };
    let LayerType::Objects(layer) = layer.layer_type() else {
        return Err(format!("layer '{OBJECTS_LAYER}' must be an object layer"));
    };

    let mut spawn: Option<(DVec2, u32)> = None;
    let mut checkpoints = Vec::new();
    let mut goal: Option<(Rect, u32)> = None;
    let mut drawn = Vec::new();
    let mut entities = Vec::new();
    let mut object_ids = Vec::new();
    let map_px = DVec2::new(f64::from(map.width), f64::from(map.height)) * TILE;
    for obj in layer.objects() {
        let id = obj.id();
        let label = if obj.name.is_empty() {
            format!("object {id}")
        } else {
            format!("object {id} ('{}')", obj.name)
        };
        let class = obj.user_type.as_str();
        if obj.rotation != 0.0 {
            return Err(format!("{label}: rotated objects are not supported"));
        }
        let area = object_area(&obj).map_err(|e| format!("{label} ({class}) {e}"))?;
        if !(area.pos.is_finite() && area.size.is_finite()) {
            return Err(format!("{label}: position is not a finite number"));
        }
        let bottom_centre = DVec2::new(area.pos.x + area.size.x / 2.0, area.pos.y + area.size.y);
        let standing = bottom_centre - DVec2::new(HITBOX.x / 2.0, HITBOX.y);
        let needs_area = |what: &str| {
            if area.size.x > 0.0 && area.size.y > 0.0 {
                Ok(())
            } else {
                Err(format!("{label}: a {what} must be a rectangle with a size"))
            }
        };
        match class {
            "spawn" => {
                if let Some((_, first)) = spawn {
                    return Err(format!("two spawn objects (objects {first} and {id})"));
                }
                spawn = Some((standing, id));
            }
            "checkpoint" => {
                needs_area("checkpoint")?;
                checkpoints.push(Checkpoint { area, respawn: standing });
            }
            "goal" => {
                needs_area("goal")?;
                if let Some((_, first)) = goal {
                    return Err(format!("two goal objects (objects {first} and {id})"));
                }
                goal = Some((area, id));
            }
            other => {
                let Some(kind) = EntityKind::from_name(other) else {
                    return Err(format!(
                        "{label} has unknown class '{other}' (expected spawn, checkpoint, goal, {ENTITY_CLASSES})"
                    ));
                };
                // An entity is drawn by its own sprites where it is, never as a map tile.
                entities.push(entity_from_object(kind, &label, area, &obj.properties, map_px)?);
                object_ids.push(id);
                continue;
            }
        }
        if let Some(tile) = obj.tile_data() {
            if matches!(tile.tileset_location(), TilesetLocation::Map(_)) && tile.id() < tiles::TILE_COUNT {
                let centre = area.pos + area.size / 2.0;
                if centre.x >= 0.0 && centre.y >= 0.0 {
                    let cell = ((centre.x / TILE) as usize, (centre.y / TILE) as usize);
                    drawn.push((cell, tile.id()));
                }
            }
        }
    }
    let Some((spawn, _)) = spawn else {
        return Err(format!("no spawn object in layer '{OBJECTS_LAYER}'"));
    };
    Ok(Objects { spawn, checkpoints, goal: goal.map(|(r, _)| r), drawn, entities, object_ids })
}

/// The path of a level shipped with the game, `assets/levels/NAME.tmx`, under `assets_dir`.
pub fn level_path(assets_dir: &Path, name: &str) -> PathBuf {
    assets_dir.join("levels").join(format!("{name}.tmx"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_path_is_under_levels() {
        assert_eq!(
            level_path(Path::new("/a/assets"), "level1"),
            PathBuf::from("/a/assets/levels/level1.tmx")
        );
    }

    #[test]
    fn tiled_errors_become_one_line_without_repeating_the_map() {
        let p = Path::new("/x/map.tmx");
        let e = tiled::Error::ResourceLoadingError {
            path: p.to_owned(),
            err: Box::new(std::io::Error::new(std::io::ErrorKind::NotFound, "gone\nreally")),
        };
        assert_eq!(describe_tiled_error(p, &e), "cannot read map: gone really");
        let e = tiled::Error::ResourceLoadingError {
            path: PathBuf::from("/x/ts.tsx"),
            err: Box::new(std::io::Error::new(std::io::ErrorKind::NotFound, "gone")),
        };
        assert_eq!(describe_tiled_error(p, &e), "cannot read '/x/ts.tsx': gone");
    }

    #[test]
    fn kinds_come_from_the_kind_property() {
        assert_eq!(tile_kind(None, 3), Ok(TileKind::Empty));
        // One tile per case, read by the tiled crate from an in-memory tileset.
        const TSX: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="kinds" tilewidth="16" tileheight="16" tilecount="8" columns="8">
 <image source="kinds.png" width="128" height="16"/>
 <tile id="0"><properties><property name="kind" value="solid"/></properties></tile>
 <tile id="1"><properties><property name="kind" value="oneway"/></properties></tile>
 <tile id="2"><properties><property name="kind" value="hazard"/></properties></tile>
 <tile id="3"><properties><property name="name" value="bush"/></properties></tile>
 <tile id="4"><properties><property name="kind" value="lava"/></properties></tile>
 <tile id="5"><properties><property name="kind" type="int" value="1"/></properties></tile>
</tileset>"#;
        let read = |_: &Path| Ok::<_, std::io::Error>(std::io::Cursor::new(TSX.as_bytes()));
        let set = tiled::Loader::with_reader(read).load_tsx_tileset("kinds.tsx").expect("tileset parses");
        let kind = |id: u32| tile_kind(set.get_tile(id), id).map_err(|e| e.to_string());
        assert_eq!(kind(0), Ok(TileKind::Solid));
        assert_eq!(kind(1), Ok(TileKind::OneWay));
        assert_eq!(kind(2), Ok(TileKind::Hazard));
        assert_eq!(kind(3), Ok(TileKind::Empty), "decoration: properties but no kind");
        assert!(set.get_tile(6).is_some(), "tiled gives every tile of the image, listed or not");
        assert_eq!(kind(6), Ok(TileKind::Empty), "a tile with no properties at all");
        assert_eq!(
            kind(4),
            Err("unknown tile kind 'lava' on tile 4 (expected solid, oneway or hazard)".to_owned())
        );
        assert_eq!(kind(5), Err("tile 5: property 'kind' must be a string".to_owned()));
    }

    #[test]
    fn the_sky_property_names_a_sky_or_is_refused_naming_the_file() {
        let dir = std::env::temp_dir().join(format!("ledge-sky-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let assets = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets"));
        let tsx = assets.join("tilesets/ledge.tsx");
        let map = |property: &str| {
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="2" tilewidth="16" tileheight="16" infinite="0">
 <properties>{property}</properties>
 <tileset firstgid="1" source="{}"/>
 <layer id="1" name="tiles" width="4" height="2"><data encoding="csv">0,0,0,0,
1,1,1,1</data></layer>
 <objectgroup id="2" name="objects"><object id="1" type="spawn" x="8" y="16"><point/></object></objectgroup>
</map>"#,
                tsx.display()
            )
        };
        let load = |name: &str, property: &str| {
            let path = dir.join(format!("{name}.tmx"));
            std::fs::write(&path, map(property)).expect("write map");
            (load_tmx(&path), path)
        };
        assert_eq!(load("none", "").0.expect("loads").sky, Sky::Hills, "no property: hills");
        for sky in Sky::ALL {
            let (level, _) = load(sky.name(), &format!(r#"<property name="sky" value="{}"/>"#, sky.name()));
            assert_eq!(level.expect("loads").sky, sky);
        }
        let (err, path) = load("lava", r#"<property name="sky" value="lava"/>"#);
        let msg = err.expect_err("an unknown sky is refused").to_string();
        assert_eq!(
            msg,
            format!(
                "{}: unknown sky 'lava' (map property 'sky': expected hills, forest, caves, tower, dusk)",
                path.display()
            )
        );
        assert!(!msg.contains('\n'), "one line");
        let (err, path) = load("number", r#"<property name="sky" type="int" value="3"/>"#);
        assert!(matches!(err, Err(LevelError::Invalid { .. })));
        assert_eq!(
            err.expect_err("not a string").to_string(),
            format!(
                "{}: map property 'sky' must be a string: one of hills, forest, caves, tower, dusk",
                path.display()
            )
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_shipped_levels_name_varied_skies() {
        let assets = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets"));
        let sky = |n: u32| load_tmx(&level_path(assets, &format!("level{n}"))).map(|l| l.sky);
        let skies: Vec<Sky> = (1..=12).map(|n| sky(n).unwrap_or_else(|e| panic!("{e}"))).collect();
        assert_eq!(skies[9], Sky::Tower, "10. The Tower");
        assert_eq!(skies[10], Sky::Caves, "11. The Long Way Down");
        assert!(Sky::ALL.iter().all(|s| skies.contains(s)), "every sky is used: {skies:?}");
    }

    #[test]
    fn the_first_level_loads() {
        let path = level_path(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets")), "level1");
        let level = load_tmx(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(level.kinds.len(), level.width * level.height);
        assert_eq!(level.gfx.len(), level.kinds.len());
        assert!(level.goal.is_some());
    }
}
