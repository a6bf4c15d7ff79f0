//! One entity as the lab report writes it after a tick (`ticks[].entities[]`, LAB.md
//! "Version 2 additions").
//!
//! Clock: fixed tick (a record of the state after one).

use super::Entity;
use serde::Serialize;

/// `{"id", "kind", "x", "y", "vx", "vy", "state"}`: the entity after the tick.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntityRecord {
    /// Its id (index in the level's entities).
    pub id: usize,
    /// Its kind's name (`platform`, `crumble`, `spring`, `saw`, `walker`).
    pub kind: &'static str,
    /// Box top-left x, pixels.
    pub x: f64,
    /// Box top-left y, pixels (down).
    pub y: f64,
    /// The tick's displacement × tick_hz, px/s (0 while waiting).
    pub vx: f64,
    /// The tick's displacement × tick_hz, px/s.
    pub vy: f64,
    /// LAB.md's state name.
    pub state: &'static str,
}

/// Every entity's record, in id order.
pub fn records(entities: &[Entity], tick_hz: u32) -> Vec<EntityRecord> {
    let hz = f64::from(tick_hz);
    entities
        .iter()
        .enumerate()
        .map(|(id, e)| EntityRecord {
            id,
            kind: e.kind.name(),
            x: e.pos.x,
            y: e.pos.y,
            vx: e.moved.x * hz,
            vy: e.moved.y * hz,
            state: e.state.name(),
        })
        .collect()
}
