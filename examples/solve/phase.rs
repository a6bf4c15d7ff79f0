//! The entities' part of the search's merge key: two states whose players look the same are
//! only the same state when the level's moving things are too.
//!
//! Clock: fixed tick (reads the entities' state after a tick).
//!
//! Platforms and saws move as a function of their clock (`ledge::sim::entities::path`), which
//! counts up forever; their position repeats every period (a round trip with both waits,
//! `2 · (length / speed + wait)` seconds). When a period is a whole number of ticks the key
//! takes the clock modulo it, so a state that waited one whole period matches the one before
//! the wait (the levels are drawn with such periods); otherwise the clock itself. Crumbling
//! blocks add their state and timer, walkers their position, direction and state, springs
//! nothing (their timer is drawing only). The key only prunes the search: the found run is
//! replayed exactly, so a merge too eager could lose a run but never write a wrong one.

use crate::TICK_HZ;
use ledge::level::{EntityKind, EntitySpec, Level};
use ledge::sim::World;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// The ticks after which each entity's path repeats (`None`: not periodic in whole ticks,
/// or not a path), by entity id.
pub struct Phases {
    periods: Vec<Option<u64>>,
}

impl Phases {
    /// The periods of `level`'s entities.
    pub fn new(level: &Level) -> Phases {
        let periods = level
            .entities
            .iter()
            .map(|spec| {
                let (from, to, speed, wait) = match *spec {
                    EntitySpec::Platform { pos, to, speed, wait, .. } => (pos, to?, speed, wait),
                    EntitySpec::Saw { pos, to, speed, .. } => (pos, to?, speed, 0.0),
                    _ => return None,
                };
                let ticks = 2.0 * (from.distance(to) / speed + wait) * f64::from(TICK_HZ);
                let whole = ticks.round();
                ((ticks - whole).abs() < 1e-6 && whole >= 1.0).then_some(whole as u64)
            })
            .collect();
        Phases { periods }
    }

    /// A hash of what the entities will do from `world` on (0 in a level without any).
    pub fn key(&self, world: &World) -> u64 {
        if world.entities.is_empty() {
            return 0;
        }
        let mut h = DefaultHasher::new();
        for (e, period) in world.entities.iter().zip(&self.periods) {
            match period {
                Some(p) => (e.clock % p).hash(&mut h),
                None => e.clock.hash(&mut h),
            }
            e.state.code().hash(&mut h);
            if e.kind == EntityKind::Crumble {
                e.timer.hash(&mut h);
            }
            e.pos.x.to_bits().hash(&mut h);
            e.pos.y.to_bits().hash(&mut h);
            e.facing_left.hash(&mut h);
        }
        world.riding.hash(&mut h);
        h.finish()
    }
}
