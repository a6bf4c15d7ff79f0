//! What the solver writes: the found run as a lab script (through the lab's own
//! [`ScriptWriter`], so `ledge lab` reads back exactly what was meant), and `--trace`.
//!
//! Clock: fixed tick (one 60 Hz frame per tick in the script; the trace steps the run).

use crate::jitter::run_events;
use crate::mechanics::mechanics_used;
use crate::{FRAME_NS, Sim, TAIL_FRAMES, TICK_HZ};
use ledge::input::Action;
use ledge::input::latch::TickInput;
use ledge::lab::script::{At, Step};
use ledge::lab::writer::{Repeat, ScriptWriter};
use ledge::sim::{World, step};

/// The lab script for `inputs`: `header` as comments, the level and tuning lines, then the
/// run's edges at tick boundaries (an edge after `frame ... xK` lines is consumed by tick
/// K + 1), one 60 Hz frame per tick, and [`TAIL_FRAMES`] idle frames after the last input.
pub fn script(level_line: &str, header: &[String], tuning: &[(String, f64)], inputs: &[TickInput]) -> String {
    let mut w = ScriptWriter::new(Repeat::Always);
    for line in header {
        w.comment(line);
    }
    w.level(level_line, None);
    for (k, v) in tuning {
        w.tuning(k, *v);
    }
    for events in run_events(inputs) {
        for event in events {
            w.step(&Step::Event { event, at: At::AfterFrame(0), player: 0 });
        }
        w.frame(FRAME_NS);
    }
    for _ in 1..TAIL_FRAMES {
        w.frame(FRAME_NS);
    }
    w.finish()
}

/// Print the run tick by tick.
pub fn trace(sim: &Sim, start: &World, inputs: &[TickInput]) {
    let mut w = start.clone();
    let mut since_press = usize::MAX;
    for (i, input) in inputs.iter().enumerate() {
        since_press = if input.pressed(Action::Jump) { 0 } else { since_press.saturating_add(1) };
        let (x0, was_ground, had_coyote) = (w.player.pos.x, w.player.on_ground, w.player.coyote > 0);
        let out = step(&mut w, input, sim.level, sim.tuning, TICK_HZ);
        let used = mechanics_used(&w, &out, x0, (was_ground, had_coyote), since_press);
        let p = &w.player;
        let keys: String = Action::ALL
            .iter()
            .map(|&a| match (input.pressed(a) && a == Action::Jump, input.held(a)) {
                (true, _) => 'J',
                (false, true) => a.name().chars().next().unwrap_or('?'),
                (false, false) => '.',
            })
            .collect();
        let mut notes = String::new();
        for (on, what) in [
            (p.on_ground, "ground"),
            (out.jump_started, "JUMP"),
            (used[0], "coyote"),
            (used[1], "buffered"),
            (used[2], "corner-nudge"),
            (out.died, "DIED"),
        ] {
            if on {
                notes.push(' ');
                notes.push_str(what);
            }
        }
        eprintln!(
            "{:5} {keys} x {:8.3} y {:8.3} vx {:7.2} vy {:7.2}{notes}",
            i + 1,
            p.pos.x,
            p.pos.y,
            p.vel.x,
            p.vel.y
        );
    }
}
