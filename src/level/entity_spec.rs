//! Entity specifications: the moving things a level places — platforms, crumbling blocks,
//! springs, saws and walkers — as `../shared/design/LAB.md` ("Version 2 additions",
//! "Entities") defines them.
//!
//! Clock: none. A spec is parsed once, from a lab script's `entity KIND KEY=VALUE ...` line or
//! from a Tiled object's class, rectangle and properties, by the one parser here
//! ([`EntitySpec::parse`]); the fixed tick builds the entity's live state from it.
//!
//! Units: positions are pixels (the top-left of the entity's box, y down), speeds pixels per
//! second, times seconds. Defaults are LAB.md's.

use glam::DVec2;

/// The kinds of entity, by their script and Tiled class names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntityKind {
    /// `platform`: moves between two points, carries riders; solid or one-way.
    Platform,
    /// `crumble`: a solid block that breaks after the player stands on it and comes back.
    Crumble,
    /// `spring`: launches the player upwards.
    Spring,
    /// `saw`: a moving round hazard.
    Saw,
    /// `walker`: a patrolling enemy, defeated by a landing from above.
    Walker,
}

impl EntityKind {
    /// Every kind, in the order the docs list them.
    pub const ALL: [EntityKind; 5] =
        [EntityKind::Platform, EntityKind::Crumble, EntityKind::Spring, EntityKind::Saw, EntityKind::Walker];

    /// The kind's name in scripts, reports and Tiled classes.
    pub fn name(self) -> &'static str {
        match self {
            EntityKind::Platform => "platform",
            EntityKind::Crumble => "crumble",
            EntityKind::Spring => "spring",
            EntityKind::Saw => "saw",
            EntityKind::Walker => "walker",
        }
    }

    /// The kind named `name`, if any.
    pub fn from_name(name: &str) -> Option<EntityKind> {
        EntityKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The keys a spec of this kind accepts, required ones first.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            EntityKind::Platform => &["x", "y", "w", "h", "to", "speed", "wait", "oneway"],
            EntityKind::Crumble => &["x", "y", "w", "delay", "back"],
            EntityKind::Spring => &["x", "y", "speed"],
            EntityKind::Saw => &["x", "y", "to", "speed", "r"],
            EntityKind::Walker => &["x", "y", "speed"],
        }
    }

    /// The keys a spec of this kind must give.
    pub fn required(self) -> &'static [&'static str] {
        match self {
            EntityKind::Platform => &["x", "y", "w", "h"],
            _ => &["x", "y"],
        }
    }
}

/// The largest magnitude any number of a spec may have: positions, sizes and speeds in
/// pixels (per second), times in seconds. The lab bounds teleports (±1e7 px) and tuning values
/// (≤ 1e7) the same way; beyond it a spring or a path sends bodies to coordinates that the
/// renderer's `f32` cannot hold.
pub const MAX_MAGNITUDE: f64 = 1e7;

/// A crumbling block's height, pixels (LAB.md: `w × 16`).
pub const CRUMBLE_HEIGHT: f64 = 16.0;
/// A spring's box, pixels (LAB.md: 16 × 8).
pub const SPRING_SIZE: DVec2 = DVec2::new(16.0, 8.0);
/// A walker's box, pixels (LAB.md: 16 × 16).
pub const WALKER_SIZE: DVec2 = DVec2::new(16.0, 16.0);

/// One entity as a level or script places it. Every field is validated by
/// [`EntitySpec::parse`]: sizes > 0, times ≥ 0, speeds > 0 (a walker's may be negative or 0:
/// its sign is the starting direction), all finite.
#[derive(Clone, Debug, PartialEq)]
pub enum EntitySpec {
    /// A moving platform.
    Platform {
        /// Start position, top-left, pixels.
        pos: DVec2,
        /// Size, pixels.
        size: DVec2,
        /// The other end of its path (top-left, pixels); `None`: it stays at `pos`.
        to: Option<DVec2>,
        /// Travel speed, px/s (default 60).
        speed: f64,
        /// Wait at each end, seconds (default 0).
        wait: f64,
        /// One-way (solid from above only) instead of solid (default false).
        oneway: bool,
    },
    /// A crumbling block, `width × 16` pixels.
    Crumble {
        /// Top-left, pixels.
        pos: DVec2,
        /// Width, pixels (default 16).
        width: f64,
        /// Seconds from the end of the first tick the player stands on it until it breaks
        /// (default 0.5).
        delay: f64,
        /// Seconds from breaking until it may come back (default 2).
        back: f64,
    },
    /// A spring, 16 × 8 pixels.
    Spring {
        /// Top-left, pixels.
        pos: DVec2,
        /// Launch speed, px/s upwards (default 370).
        speed: f64,
    },
    /// A saw: a circle of radius `r` whose box's top-left is `pos`.
    Saw {
        /// Start position of its box's top-left, pixels.
        pos: DVec2,
        /// The other end of its path; `None`: it stays.
        to: Option<DVec2>,
        /// Travel speed, px/s (default 60).
        speed: f64,
        /// Radius, pixels (default 8).
        radius: f64,
    },
    /// A walker, 16 × 16 pixels.
    Walker {
        /// Start position, top-left, pixels.
        pos: DVec2,
        /// Walking speed, px/s (default 40; negative: it starts walking left).
        speed: f64,
    },
}

/// Why an entity spec is malformed. Each message is one line; the caller adds where it is
/// (the script line or the map object).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// The kind is not one of [`EntityKind::ALL`].
    #[error("unknown entity kind '{0}' (expected platform, crumble, spring, saw or walker)")]
    UnknownKind(String),
    /// A key this kind does not take.
    #[error("{kind} has no key '{key}' (it takes {allowed})")]
    UnknownKey {
        /// The entity kind's name.
        kind: &'static str,
        /// The key given.
        key: String,
        /// The keys it takes, comma-separated.
        allowed: String,
    },
    /// A key given twice.
    #[error("key '{0}' given twice")]
    DuplicateKey(String),
    /// A required key is missing.
    #[error("{kind} needs '{key}'")]
    MissingKey {
        /// The entity kind's name.
        kind: &'static str,
        /// The missing key.
        key: &'static str,
    },
    /// A value that is not a finite number.
    #[error("{key}={value} is not a number")]
    NotANumber {
        /// The key.
        key: String,
        /// The value given.
        value: String,
    },
    /// A number beyond ±[`MAX_MAGNITUDE`].
    #[error("{key}={value} is beyond ±{max}", max = MAX_MAGNITUDE)]
    TooLarge {
        /// The key.
        key: String,
        /// The value given.
        value: String,
    },
    /// `to=` not of the form `X2,Y2`.
    #[error("to={0} is not X2,Y2 (two numbers, pixels)")]
    BadPoint(String),
    /// A flag that is not 0 or 1.
    #[error("{key}={value} is not 0 or 1")]
    BadFlag {
        /// The key.
        key: String,
        /// The value given.
        value: String,
    },
    /// A size, radius or (non-walker) speed that is not > 0.
    #[error("{key}={value} must be > 0")]
    NotPositive {
        /// The key.
        key: &'static str,
        /// The value given.
        value: f64,
    },
    /// A time that is negative.
    #[error("{key}={value} must not be negative")]
    Negative {
        /// The key.
        key: &'static str,
        /// The value given.
        value: f64,
    },
}

/// The `KEY=VALUE` pairs of one spec, checked for unknown, duplicate and missing keys.
struct Pairs<'a> {
    pairs: Vec<(&'a str, &'a str)>,
}

impl<'a> Pairs<'a> {
    fn new(kind: EntityKind, pairs: &[(&'a str, &'a str)]) -> Result<Self, SpecError> {
        for (i, (key, _)) in pairs.iter().enumerate() {
            if !kind.keys().contains(key) {
                return Err(SpecError::UnknownKey {
                    kind: kind.name(),
                    key: key.to_string(),
                    allowed: kind.keys().join(", "),
                });
            }
            if pairs[..i].iter().any(|(k, _)| k == key) {
                return Err(SpecError::DuplicateKey(key.to_string()));
            }
        }
        for &key in kind.required() {
            if !pairs.iter().any(|(k, _)| *k == key) {
                return Err(SpecError::MissingKey { kind: kind.name(), key });
            }
        }
        Ok(Pairs { pairs: pairs.to_vec() })
    }

    fn raw(&self, key: &str) -> Option<&'a str> {
        self.pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    fn number(&self, key: &'static str, default: f64) -> Result<f64, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => parse_number(key, v),
        }
    }

    fn positive(&self, key: &'static str, default: f64) -> Result<f64, SpecError> {
        let v = self.number(key, default)?;
        if v > 0.0 { Ok(v) } else { Err(SpecError::NotPositive { key, value: v }) }
    }

    fn time(&self, key: &'static str, default: f64) -> Result<f64, SpecError> {
        let v = self.number(key, default)?;
        if v >= 0.0 { Ok(v) } else { Err(SpecError::Negative { key, value: v }) }
    }

    fn pos(&self) -> Result<DVec2, SpecError> {
        Ok(DVec2::new(self.number("x", 0.0)?, self.number("y", 0.0)?))
    }

    fn to(&self) -> Result<Option<DVec2>, SpecError> {
        let Some(v) = self.raw("to") else { return Ok(None) };
        let bad = || SpecError::BadPoint(v.to_string());
        let (a, b) = v.split_once(',').ok_or_else(bad)?;
        let point = |t: &str| match parse_number("to", t.trim()) {
            Err(SpecError::TooLarge { .. }) => {
                Err(SpecError::TooLarge { key: "to".into(), value: v.to_string() })
            }
            other => other.map_err(|_| bad()),
        };
        let (x, y) = (point(a)?, point(b)?);
        Ok(Some(DVec2::new(x, y)))
    }

    fn flag(&self, key: &str) -> Result<bool, SpecError> {
        match self.raw(key) {
            None | Some("0") => Ok(false),
            Some("1") => Ok(true),
            Some(v) => Err(SpecError::BadFlag { key: key.to_string(), value: v.to_string() }),
        }
    }
}

fn parse_number(key: &str, v: &str) -> Result<f64, SpecError> {
    match v.parse::<f64>() {
        Ok(n) if n.is_finite() && n.abs() > MAX_MAGNITUDE => {
            Err(SpecError::TooLarge { key: key.to_string(), value: v.to_string() })
        }
        Ok(n) if n.is_finite() => Ok(n),
        _ => Err(SpecError::NotANumber { key: key.to_string(), value: v.to_string() }),
    }
}

impl EntitySpec {
    /// Parse a spec from its kind name and `KEY=VALUE` pairs (keys and values as written).
    ///
    /// Errors: an unknown kind or key, a key twice, a missing required key, a value that is
    /// not a finite number or is beyond ±[`MAX_MAGNITUDE`], `to` not `X2,Y2`, a size, radius
    /// or speed ≤ 0 (a walker's speed may be any number), a negative time.
    pub fn parse(kind: &str, pairs: &[(&str, &str)]) -> Result<EntitySpec, SpecError> {
        let kind = EntityKind::from_name(kind).ok_or_else(|| SpecError::UnknownKind(kind.to_string()))?;
        let p = Pairs::new(kind, pairs)?;
        let pos = p.pos()?;
        Ok(match kind {
            EntityKind::Platform => EntitySpec::Platform {
                pos,
                size: DVec2::new(p.positive("w", 0.0)?, p.positive("h", 0.0)?),
                to: p.to()?,
                speed: p.positive("speed", 60.0)?,
                wait: p.time("wait", 0.0)?,
                oneway: p.flag("oneway")?,
            },
            EntityKind::Crumble => EntitySpec::Crumble {
                pos,
                width: p.positive("w", 16.0)?,
                delay: p.time("delay", 0.5)?,
                back: p.time("back", 2.0)?,
            },
            EntityKind::Spring => EntitySpec::Spring { pos, speed: p.positive("speed", 370.0)? },
            EntityKind::Saw => EntitySpec::Saw {
                pos,
                to: p.to()?,
                speed: p.positive("speed", 60.0)?,
                radius: p.positive("r", 8.0)?,
            },
            EntityKind::Walker => EntitySpec::Walker { pos, speed: p.number("speed", 40.0)? },
        })
    }

    /// Parse the words after `entity` on a lab script line: `KIND KEY=VALUE ...`.
    ///
    /// Errors: as [`EntitySpec::parse`], plus a word that is not `KEY=VALUE`
    /// ([`SpecError::NotANumber`] naming the word) and a missing kind.
    pub fn parse_words(words: &[&str]) -> Result<EntitySpec, SpecError> {
        let Some((kind, rest)) = words.split_first() else {
            return Err(SpecError::UnknownKind(String::new()));
        };
        let mut pairs = Vec::with_capacity(rest.len());
        for w in rest {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| SpecError::NotANumber { key: w.to_string(), value: String::new() })?;
            pairs.push((k, v));
        }
        EntitySpec::parse(kind, &pairs)
    }

    /// The kind of this spec.
    pub fn kind(&self) -> EntityKind {
        match self {
            EntitySpec::Platform { .. } => EntityKind::Platform,
            EntitySpec::Crumble { .. } => EntityKind::Crumble,
            EntitySpec::Spring { .. } => EntityKind::Spring,
            EntitySpec::Saw { .. } => EntityKind::Saw,
            EntitySpec::Walker { .. } => EntityKind::Walker,
        }
    }

    /// The entity's box at its start: top-left and size, pixels (a saw's box is 2r × 2r).
    pub fn start_box(&self) -> (DVec2, DVec2) {
        match *self {
            EntitySpec::Platform { pos, size, .. } => (pos, size),
            EntitySpec::Crumble { pos, width, .. } => (pos, DVec2::new(width, CRUMBLE_HEIGHT)),
            EntitySpec::Spring { pos, .. } => (pos, SPRING_SIZE),
            EntitySpec::Saw { pos, radius, .. } => (pos, DVec2::splat(2.0 * radius)),
            EntitySpec::Walker { pos, .. } => (pos, WALKER_SIZE),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Result<EntitySpec, SpecError> {
        EntitySpec::parse_words(&line.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn a_platform_with_every_key() {
        let s = words("platform x=72 y=160 w=48 h=16 to=72,82.5 speed=90 wait=0.4 oneway=1");
        assert_eq!(
            s,
            Ok(EntitySpec::Platform {
                pos: DVec2::new(72.0, 160.0),
                size: DVec2::new(48.0, 16.0),
                to: Some(DVec2::new(72.0, 82.5)),
                speed: 90.0,
                wait: 0.4,
                oneway: true,
            })
        );
    }

    #[test]
    fn defaults_are_lab_md_s() {
        assert_eq!(
            words("crumble x=1 y=2"),
            Ok(EntitySpec::Crumble { pos: DVec2::new(1.0, 2.0), width: 16.0, delay: 0.5, back: 2.0 })
        );
        assert_eq!(words("spring x=0 y=0"), Ok(EntitySpec::Spring { pos: DVec2::ZERO, speed: 370.0 }));
        assert_eq!(
            words("saw x=0 y=0"),
            Ok(EntitySpec::Saw { pos: DVec2::ZERO, to: None, speed: 60.0, radius: 8.0 })
        );
        assert_eq!(
            words("walker x=0 y=0 speed=-40"),
            Ok(EntitySpec::Walker { pos: DVec2::ZERO, speed: -40.0 })
        );
        assert_eq!(words("saw x=0 y=0 r=4").unwrap().start_box().1, DVec2::splat(8.0));
    }

    #[test]
    fn malformed_lines_are_refused_with_the_reason() {
        let cases = [
            ("ladder x=0 y=0", "unknown entity kind 'ladder'"),
            ("platform x=0 y=0 w=16", "platform needs 'h'"),
            ("platform x=0 y=0 w=16 h=8 colour=red", "platform has no key 'colour'"),
            ("saw x=0 x=1 y=0", "key 'x' given twice"),
            ("platform x=0 y=0 w=0 h=8", "w=0 must be > 0"),
            ("platform x=0 y=0 w=16 h=8 to=5", "to=5 is not X2,Y2"),
            ("platform x=0 y=0 w=16 h=8 wait=-1", "wait=-1 must not be negative"),
            ("saw x=0 y=0 speed=-3", "speed=-3 must be > 0"),
            ("crumble x=abc y=0", "x=abc is not a number"),
            ("crumble x=inf y=0", "x=inf is not a number"),
            ("platform x=0 y=0 w=16 h=8 oneway=yes", "oneway=yes is not 0 or 1"),
            ("spring x=80 y=184 speed=1e300", "speed=1e300 is beyond ±10000000"),
            ("walker x=-1e8 y=0", "x=-1e8 is beyond ±10000000"),
            ("platform x=0 y=0 w=16 h=8 to=1e300,0", "to=1e300,0 is beyond ±10000000"),
            ("crumble x=0 y=0 delay=20000000", "delay=20000000 is beyond ±10000000"),
        ];
        for (line, want) in cases {
            let e = words(line).unwrap_err().to_string();
            assert!(e.starts_with(want), "{line}: {e}");
            assert!(!e.contains('\n'));
        }
    }
}
