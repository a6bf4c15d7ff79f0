//! Choosing among runs: the finalists ranked by fresh random-delay replays (`--finish-window`),
//! and the press-early pass that moves jumps fired on landing to an earlier, held press.
//!
//! Clock: fixed tick (runs are replayed through [`step`]).

use crate::jitter::{Delays, Replays, Scripted, run_events, survivals};
use crate::{Args, Sim, TAIL_FRAMES, TICK_HZ, rate};
use glam::DVec2;
use ledge::input::Action;
use ledge::input::latch::TickInput;
use ledge::sim::{World, step};

/// Of the finishing runs `(dead variants, depth, inputs)`, the `--finalists` with the fewest
/// dead variants (earliest first among equals), the one surviving the most of
/// `--select-trials` random-delay replays (earliest first among equals).
pub fn select(
    sim: &Sim,
    start: &World,
    args: &Args,
    delays: &Delays,
    mut finishers: Vec<(usize, usize, Vec<TickInput>)>,
) -> Vec<TickInput> {
    finishers.sort_by_key(|(dead, depth, _)| (*dead, *depth));
    finishers.truncate(args.finalists.max(1));
    let seed = args.seed.wrapping_add(0x005e_1ec7);
    let mut best: Option<(usize, Vec<TickInput>)> = None;
    for (dead, depth, run) in finishers {
        let events = run_events(&run);
        let ticks = run.len() + TAIL_FRAMES as usize;
        let replays = Replays { delays, trials: args.select_trials, seed };
        let n = survivals(sim, start, &Scripted { events: &events, ticks }, &replays);
        eprintln!(
            "  finalist at depth {depth} ({} ticks, {dead} dead variants): survives {}",
            run.len(),
            rate(n, args.select_trials)
        );
        if best.as_ref().is_none_or(|(b, _)| n > *b) {
            best = Some((n, run));
        }
    }
    best.expect("finishers is not empty").1
}

/// Per-tick (position, velocity, on_ground) of a run, and whether it got `done` with no death.
fn trajectory(sim: &Sim, start: &World, inputs: &[TickInput]) -> (Vec<(DVec2, DVec2, bool)>, bool) {
    let mut w = start.clone();
    let mut out = Vec::with_capacity(inputs.len());
    for input in inputs {
        let o = step(&mut w, input, sim.level, sim.tuning, TICK_HZ);
        out.push((w.player.pos, w.player.vel, w.player.on_ground));
        if o.died {
            return (out, false);
        }
    }
    (out, (sim.done)(&w))
}

/// Move each jump fired on the tick after a landing to a press `early` ticks before that
/// landing, held through it, when the run stays tick for tick the same and survives at least
/// as many of `robust`'s random-delay replays (see the module docs).
pub fn press_early(
    sim: &Sim,
    start: &World,
    inputs: &mut [TickInput],
    early: usize,
    robust: &Replays,
) -> usize {
    if early == 0 {
        return 0;
    }
    let jump = Action::Jump.index();
    let (reference, ok) = trajectory(sim, start, inputs);
    assert!(ok, "the found run finishes");
    let survived = |inputs: &[TickInput]| {
        let events = run_events(inputs);
        let ticks = inputs.len() + TAIL_FRAMES as usize;
        survivals(sim, start, &Scripted { events: &events, ticks }, robust)
    };
    let mut best = survived(inputs);
    let mut moved = 0;
    for j in 2..inputs.len() {
        // tick j (0-based) starts a jump on the ground right after landing at tick j - 1
        let landed = reference[j - 1].2 && !reference[j - 2].2;
        let started = reference[j].1.y < 0.0 && reference[j - 1].1.y >= 0.0 && !reference[j].2;
        if !(landed && started) {
            continue;
        }
        let Some(press) = (j.saturating_sub(1)..=j).find(|&t| inputs[t].pressed[jump]) else {
            continue;
        };
        for lead in (1..=early).rev() {
            let Some(q) = (j - 1).checked_sub(lead) else {
                continue;
            };
            if q == 0 || inputs[q - 1].held[jump] || (q..press).any(|t| inputs[t].held[jump]) {
                continue;
            }
            let mut trial = inputs.to_vec();
            trial[press].pressed[jump] = false;
            trial[q].pressed[jump] = true;
            for t in trial.iter_mut().take(press + 1).skip(q) {
                t.held[jump] = true;
            }
            let (traj, ok) = trajectory(sim, start, &trial);
            if ok && traj == reference {
                let n = survived(&trial);
                if n >= best {
                    best = n;
                    inputs.copy_from_slice(&trial);
                    moved += 1;
                    break;
                }
            }
        }
    }
    moved
}
