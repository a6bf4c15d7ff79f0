//! Tiled objects that place entities: an object in the `objects` layer whose class is
//! `platform`, `crumble`, `spring`, `saw` or `walker` becomes an [`EntitySpec`] through the one
//! parser, [`EntitySpec::parse`], from `KEY=VALUE` pairs built here.
//!
//! Clock: none. Run once while a map loads ([`super::tiled_map`]).
//!
//! The pairs: `x` and `y` are the object's top-left (a point's position; a tile object's
//! rectangle moved up by its height, as Tiled anchors it at its bottom-left); a platform's
//! `w` and `h` are its rectangle's size (required: a platform must be a rectangle with a
//! size), a crumble's `w` its rectangle's width when it has one; every other key is one of
//! the object's custom properties, by name: numbers (`float`, `int`) as written, a `bool` as
//! 1 or 0, a `string` as is (so `to` is a string property `X2,Y2`). A `bool` is only for a flag
//! (`oneway`): `speed = true` would silently be 1 px/s, so it is refused, as are properties of
//! other types. A kind whose box has a fixed size (a spring, walker or saw, a crumble's height)
//! may be drawn as a point or as a rectangle of exactly that size; a rectangle of another size is
//! refused rather than silently shrunk. The entity's box at its start, and at the far end of its
//! path (`to`), must lie inside the map.

use super::Rect;
use super::entity_spec::{CRUMBLE_HEIGHT, EntityKind, EntitySpec};
use glam::DVec2;
use tiled::PropertyValue;

/// The classes that place an entity, as the unknown-class message lists them.
pub const ENTITY_CLASSES: &str = "platform, crumble, spring, saw, walker";

/// The keys that are flags (0 or 1): the only ones a `bool` property may give.
const FLAG_KEYS: [&str; 1] = ["oneway"];

/// The entity an object of class `kind` places. `label` names the object in messages
/// ("object 7 ('lift')"), `area` is its rectangle in pixels (zero-size for a point), `map_px`
/// the map's size in pixels.
///
/// # Errors
/// A one-line message starting with `label` and the class: a platform without a size, a
/// rectangle whose size is not the kind's fixed size, a property of an unsupported type (a
/// `bool` for a key that is not a flag), anything [`EntitySpec::parse`] refuses, a box or path
/// end outside the map.
pub fn entity_from_object(
    kind: EntityKind,
    label: &str,
    area: Rect,
    properties: &tiled::Properties,
    map_px: DVec2,
) -> Result<EntitySpec, String> {
    let class = kind.name();
    let fail = |msg: String| format!("{label} ({class}): {msg}");
    let has_size = area.size.x > 0.0 && area.size.y > 0.0;
    let mut pairs: Vec<(String, String)> = vec![("x".into(), num(area.pos.x)), ("y".into(), num(area.pos.y))];
    match kind {
        EntityKind::Platform if !has_size => {
            return Err(fail("a platform must be a rectangle with a size (its w and h)".into()));
        }
        EntityKind::Platform => {
            pairs.push(("w".into(), num(area.size.x)));
            pairs.push(("h".into(), num(area.size.y)));
        }
        EntityKind::Crumble if has_size => pairs.push(("w".into(), num(area.size.x))),
        _ => {}
    }
    let mut props: Vec<(&String, &PropertyValue)> = properties.iter().collect();
    props.sort_by(|a, b| a.0.cmp(b.0));
    for (name, value) in props {
        let text = match value {
            PropertyValue::FloatValue(v) => v.to_string(),
            PropertyValue::IntValue(v) => v.to_string(),
            PropertyValue::BoolValue(_)
                if kind.keys().contains(&name.as_str()) && !FLAG_KEYS.contains(&name.as_str()) =>
            {
                return Err(fail(format!(
                    "property '{name}' is a bool, but only a flag (oneway) may be a bool"
                )));
            }
            PropertyValue::BoolValue(v) => u8::from(*v).to_string(),
            PropertyValue::StringValue(s) => s.trim().to_owned(),
            _ => return Err(fail(format!("property '{name}' must be a number, bool or string"))),
        };
        pairs.push((name.clone(), text));
    }
    let borrowed: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let spec = EntitySpec::parse(class, &borrowed).map_err(|e| fail(e.to_string()))?;
    let (pos, size) = spec.start_box();
    if kind != EntityKind::Platform && area.size != DVec2::ZERO && area.size != size {
        let (w, h) = (area.size.x, area.size.y);
        return Err(fail(if kind == EntityKind::Crumble {
            format!(
                "its rectangle is {w}x{h} px, but a crumble's is Wx{CRUMBLE_HEIGHT} px (W > 0; a point: 16x16)"
            )
        } else {
            format!(
                "its rectangle is {w}x{h} px, but a {class} is {}x{} px (draw it as a point, or a rectangle of that size)",
                size.x, size.y
            )
        }));
    }
    if !inside(pos, size, map_px) {
        return Err(fail(format!(
            "its {}x{} px box at ({}, {}) is not inside the map ({}x{} px)",
            size.x, size.y, pos.x, pos.y, map_px.x, map_px.y
        )));
    }
    if let Some(to) = path_end(&spec) {
        if !inside(to, size, map_px) {
            return Err(fail(format!(
                "its path ends at to={},{}, which puts its {}x{} px box outside the map ({}x{} px)",
                to.x, to.y, size.x, size.y, map_px.x, map_px.y
            )));
        }
    }
    Ok(spec)
}

/// The first entity (its id, in object order) that is solid at its start — a solid platform or
/// a crumbling block — and whose start box overlaps `player` (top-left and size, pixels);
/// touching is not overlapping. A spawn there would start the player inside a solid.
pub fn solid_at_start_overlapping(entities: &[EntitySpec], player: Rect) -> Option<usize> {
    entities.iter().position(|spec| {
        let solid = match spec {
            EntitySpec::Platform { oneway, .. } => !oneway,
            EntitySpec::Crumble { .. } => true,
            _ => false,
        };
        let (pos, size) = spec.start_box();
        solid && Rect { pos, size }.overlaps(&player)
    })
}

/// A pixel coordinate as `EntitySpec::parse` reads it back exactly (Rust's shortest
/// round-trip formatting).
fn num(v: f64) -> String {
    v.to_string()
}

/// The far end of a moving entity's path (its box's top-left), if it has one.
fn path_end(spec: &EntitySpec) -> Option<DVec2> {
    match spec {
        EntitySpec::Platform { to, .. } | EntitySpec::Saw { to, .. } => *to,
        _ => None,
    }
}

/// True when the box at `pos` of `size` lies within [0, map_px] on both axes.
fn inside(pos: DVec2, size: DVec2, map_px: DVec2) -> bool {
    pos.x >= 0.0 && pos.y >= 0.0 && pos.x + size.x <= map_px.x && pos.y + size.y <= map_px.y
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const MAP: DVec2 = DVec2::new(320.0, 160.0);

    fn props(list: &[(&str, PropertyValue)]) -> tiled::Properties {
        list.iter().map(|(k, v)| (k.to_string(), v.clone())).collect::<HashMap<_, _>>()
    }

    fn float(v: f32) -> PropertyValue {
        PropertyValue::FloatValue(v)
    }

    fn text(s: &str) -> PropertyValue {
        PropertyValue::StringValue(s.into())
    }

    #[test]
    fn a_platform_takes_its_rectangle_and_properties() {
        let p = props(&[
            ("to", text("100, 40")),
            ("speed", float(62.5)),
            ("oneway", PropertyValue::BoolValue(true)),
        ]);
        let spec =
            entity_from_object(EntityKind::Platform, "object 3", Rect::new(40.0, 80.0, 48.0, 8.0), &p, MAP);
        assert_eq!(
            spec,
            Ok(EntitySpec::Platform {
                pos: DVec2::new(40.0, 80.0),
                size: DVec2::new(48.0, 8.0),
                to: Some(DVec2::new(100.0, 40.0)),
                speed: 62.5,
                wait: 0.0,
                oneway: true,
            })
        );
    }

    #[test]
    fn points_and_rectangles_place_the_other_kinds() {
        let none = props(&[]);
        let at = Rect::new(16.0, 32.0, 0.0, 0.0);
        assert_eq!(
            entity_from_object(EntityKind::Crumble, "o", Rect::new(16.0, 32.0, 48.0, 16.0), &none, MAP),
            Ok(EntitySpec::Crumble { pos: DVec2::new(16.0, 32.0), width: 48.0, delay: 0.5, back: 2.0 })
        );
        assert_eq!(
            entity_from_object(EntityKind::Crumble, "o", at, &none, MAP),
            Ok(EntitySpec::Crumble { pos: DVec2::new(16.0, 32.0), width: 16.0, delay: 0.5, back: 2.0 })
        );
        let fast = props(&[("speed", PropertyValue::IntValue(-40))]);
        assert_eq!(
            entity_from_object(EntityKind::Walker, "o", at, &fast, MAP),
            Ok(EntitySpec::Walker { pos: DVec2::new(16.0, 32.0), speed: -40.0 })
        );
        let saw = props(&[("to", text("200,32")), ("r", float(12.0))]);
        assert_eq!(
            entity_from_object(EntityKind::Saw, "o", at, &saw, MAP),
            Ok(EntitySpec::Saw {
                pos: DVec2::new(16.0, 32.0),
                to: Some(DVec2::new(200.0, 32.0)),
                speed: 60.0,
                radius: 12.0
            })
        );
        // A rectangle of the kind's own size is as good as a point.
        let r12 = props(&[("r", PropertyValue::IntValue(12))]);
        assert_eq!(
            entity_from_object(EntityKind::Saw, "o", Rect::new(16.0, 32.0, 24.0, 24.0), &r12, MAP),
            Ok(EntitySpec::Saw { pos: DVec2::new(16.0, 32.0), to: None, speed: 60.0, radius: 12.0 })
        );
        assert_eq!(
            entity_from_object(EntityKind::Walker, "o", Rect::new(16.0, 32.0, 16.0, 16.0), &none, MAP),
            Ok(EntitySpec::Walker { pos: DVec2::new(16.0, 32.0), speed: 40.0 })
        );
        assert_eq!(
            entity_from_object(EntityKind::Spring, "o", Rect::new(16.0, 32.0, 16.0, 8.0), &none, MAP),
            Ok(EntitySpec::Spring { pos: DVec2::new(16.0, 32.0), speed: 370.0 })
        );
        assert_eq!(
            entity_from_object(EntityKind::Spring, "o", at, &props(&[("speed", float(0.1))]), MAP),
            Ok(EntitySpec::Spring { pos: DVec2::new(16.0, 32.0), speed: 0.1 })
        );
    }

    #[test]
    fn bad_objects_are_one_line_naming_the_object() {
        let at = Rect::new(16.0, 32.0, 0.0, 0.0);
        let cases = [
            (
                EntityKind::Platform,
                at,
                props(&[]),
                "object 4 ('lift') (platform): a platform must be a rectangle with a size",
            ),
            (
                EntityKind::Platform,
                Rect::new(16.0, 32.0, 32.0, 8.0),
                props(&[("to", text("400,32"))]),
                "object 4 ('lift') (platform): its path ends at to=400,32, which puts its 32x8 px box outside the map (320x160 px)",
            ),
            (
                EntityKind::Walker,
                Rect::new(310.0, 32.0, 0.0, 0.0),
                props(&[]),
                "object 4 ('lift') (walker): its 16x16 px box at (310, 32) is not inside the map (320x160 px)",
            ),
            (EntityKind::Saw, at, props(&[("to", text("5"))]), "object 4 ('lift') (saw): to=5 is not X2,Y2"),
            (
                EntityKind::Spring,
                at,
                props(&[("colour", text("red"))]),
                "object 4 ('lift') (spring): spring has no key 'colour'",
            ),
            (
                EntityKind::Spring,
                at,
                props(&[("x", float(3.0))]),
                "object 4 ('lift') (spring): key 'x' given twice",
            ),
            (
                EntityKind::Saw,
                at,
                props(&[("target", PropertyValue::ObjectValue(2))]),
                "object 4 ('lift') (saw): property 'target' must be a number, bool or string",
            ),
            (
                EntityKind::Walker,
                at,
                props(&[("speed", PropertyValue::BoolValue(true))]),
                "object 4 ('lift') (walker): property 'speed' is a bool, but only a flag (oneway) may be",
            ),
            (
                EntityKind::Spring,
                Rect::new(16.0, 32.0, 48.0, 32.0),
                props(&[]),
                "object 4 ('lift') (spring): its rectangle is 48x32 px, but a spring is 16x8 px",
            ),
            (
                EntityKind::Walker,
                Rect::new(16.0, 32.0, 32.0, 32.0),
                props(&[]),
                "object 4 ('lift') (walker): its rectangle is 32x32 px, but a walker is 16x16 px",
            ),
            (
                EntityKind::Saw,
                Rect::new(16.0, 32.0, 32.0, 32.0),
                props(&[]),
                "object 4 ('lift') (saw): its rectangle is 32x32 px, but a saw is 16x16 px",
            ),
            (
                EntityKind::Crumble,
                Rect::new(16.0, 32.0, 48.0, 32.0),
                props(&[]),
                "object 4 ('lift') (crumble): its rectangle is 48x32 px, but a crumble's is Wx16 px (W > 0; a point: 16x16)",
            ),
            (
                EntityKind::Crumble,
                Rect::new(16.0, 32.0, 0.0, 16.0),
                props(&[]),
                "object 4 ('lift') (crumble): its rectangle is 0x16 px, but a crumble's is Wx16 px",
            ),
        ];
        for (kind, area, p, want) in cases {
            let e = entity_from_object(kind, "object 4 ('lift')", area, &p, MAP).unwrap_err();
            assert!(e.starts_with(want), "{e}");
            assert!(!e.contains('\n'));
        }
    }
}
