//! A race's confirmed inputs written as a tick-by-tick lab script (`ledge netlab --record`,
//! `ledge --net … --record`; LAB.md Version 4): the level, every tuning value and the loop
//! config, `players N`, then each tick's edges for every player (`pK`) and one frame a tick.
//! `ledge lab` on it runs the same ticks on the same inputs and ends on the race's hash.
//!
//! Clock: fixed tick (one frame a tick, [`TickScript`]).

use super::script::LevelSource;
use super::tick_script::TickScript;
use super::writer::{Repeat, ScriptWriter};
use crate::game_loop::Loop;
use crate::net::race::RaceDriver;
use crate::sim::Tuning;
use std::fmt::Debug;
use std::hash::Hash;

/// Ticks 1..=`target` of the race `driver` ran on `lp`'s level (named as `level` names it:
/// an inline map is written out, a file by its absolute path and content hash), from the
/// inputs the driver last simulated them with (confirmed, for ticks every peer confirmed).
pub fn race_record<A: Clone + PartialEq + Eq + Hash + Debug + 'static>(
    level: &LevelSource,
    lp: &Loop,
    driver: &RaceDriver<A>,
    target: u64,
) -> String {
    let mut w = ScriptWriter::new(Repeat::WhenMany);
    w.comment("A race's confirmed inputs, tick by tick, written by `ledge`; replay with `ledge lab FILE`.");
    match level {
        LevelSource::Inline(rows, _) => w.map(rows),
        _ => {
            let origin = lp.level().origin.as_ref();
            let map = origin
                .and_then(|o| o.map())
                .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()));
            let path = map.map(|p| p.display().to_string()).unwrap_or_default();
            w.level(&path, origin.map(|o| o.sha256));
        }
    }
    let mut t: Tuning = lp.tuning().clone();
    for key in Tuning::KEYS {
        w.tuning(key, *t.field_mut(key).expect("KEYS are fields"));
    }
    let c = lp.config();
    w.config("tick_hz", f64::from(c.tick_hz));
    w.config("max_frame_ms", c.max_frame_ms());
    w.config("max_steps", f64::from(c.max_steps));
    w.players(lp.players());
    let mut ts = TickScript::after_setup(w, c.tick_hz);
    for tick in 1..=target {
        let inputs: Vec<_> =
            driver.inputs_at(tick).unwrap_or(&[]).iter().map(|i| i.to_tick_input()).collect();
        ts.tick_all(&inputs);
    }
    ts.text().to_string()
}
