//! The beam search over macro-actions (the main module's docs): the macros, the search state,
//! and the search itself.
//!
//! Clock: fixed tick (every candidate is stepped through [`step`], tick by tick).

use crate::field::Field;
use crate::jitter::{Delays, Jitter, MacroRun, Variant, advance_variants, held_only};
use crate::mechanics::{Mechanic, mechanics_used};
use crate::phase::Phases;
use crate::selection::select;
use crate::{Args, Sim, TICK_HZ};
use ledge::input::latch::TickInput;
use ledge::input::{Action, InputEvent, Source};
use ledge::sim::{World, step};
use std::collections::{HashMap, HashSet};

/// What a macro does with the jump button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Jump {
    /// Released for the whole macro.
    Off,
    /// Kept held (only when it already is: no new edge).
    Keep,
    /// Pressed at the first tick (released first if held, so it is a new edge), held for this
    /// many ticks (the whole macro when at least its length).
    Press(usize),
    /// Kept held for this many ticks, then released (only when it is held).
    KeepThenRelease(usize),
}

/// One macro-action: a direction, what the jump button does, Down held or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Macro {
    /// -1 left, 0 none, 1 right.
    dir: i8,
    jump: Jump,
    down: bool,
}

fn macros(len: usize) -> Vec<Macro> {
    let mut out = Vec::new();
    for dir in [1i8, 0, -1] {
        let mut jumps = vec![Jump::Off, Jump::Keep, Jump::Press(len), Jump::Press(1)];
        if len > 2 {
            jumps.push(Jump::Press(2));
            jumps.push(Jump::KeepThenRelease(2));
        }
        for jump in jumps {
            out.push(Macro { dir, jump, down: false });
        }
        out.push(Macro { dir, jump: Jump::Press(1), down: true });
    }
    out
}

/// The per-tick inputs of `m`, given whether jump was held before it; `None` when the macro
/// needs a held button that is not.
fn expand(m: Macro, len: usize, jump_held_before: bool) -> Option<Vec<TickInput>> {
    if matches!(m.jump, Jump::Keep | Jump::KeepThenRelease(_)) && !jump_held_before {
        return None;
    }
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        let mut t = TickInput::default();
        t.held[Action::Left.index()] = m.dir < 0;
        t.held[Action::Right.index()] = m.dir > 0;
        t.held[Action::Down.index()] = m.down;
        let (held, pressed) = match m.jump {
            Jump::Off => (false, false),
            Jump::Keep => (true, false),
            Jump::Press(n) => (i < n, i == 0),
            Jump::KeepThenRelease(n) => (i < n, false),
        };
        t.held[Action::Jump.index()] = held;
        t.pressed[Action::Jump.index()] = pressed;
        out.push(t);
    }
    Some(out)
}

/// A state in the search: the world, whether jump is held, and how we got here.
#[derive(Clone)]
struct Node {
    world: World,
    jump_held: bool,
    /// Direction held at the end of the macro (-1, 0, 1).
    dir: i8,
    /// Ticks since the last jump press.
    since_press: usize,
    /// Index of the parent in the arena (`usize::MAX` for the root).
    parent: usize,
    /// The ticks this node's macro added.
    inputs: Vec<TickInput>,
    /// Press and turn costs minus mechanic bonuses so far, pixels.
    cost: f64,
    /// Distance to go plus cost, pixels: lower is better.
    score: f64,
    /// Ticks lived so far.
    tick: u64,
    /// The jittered copies of the run so far (`--variants`).
    variants: Vec<Variant>,
}

/// The merge key: the player's look (position to the pixel, velocity in 15 px/s buckets,
/// flags, timers, wall slide and wall-jump memory), the checkpoint, and the entities' state
/// ([`Phases::key`]).
type Key = (i32, i32, i32, i32, u32, u32, u32, u32, i64, u64, u64);

fn key(n: &Node, phases: &Phases) -> Key {
    key_of(&n.world, n.jump_held, n.world.checkpoint, phases)
}

fn key_of(world: &World, jump_held: bool, checkpoint: Option<usize>, phases: &Phases) -> Key {
    let p = &world.player;
    let flags = (p.on_ground as u32)
        | (jump_held as u32) << 1
        | ((p.var_jump > 0) as u32) << 2
        | ((p.drop_through > 0) as u32) << 3;
    let w = &p.wall;
    let wall = (w.side as u8 as u64)
        | u64::from(w.grace) << 8
        | u64::from(w.force) << 24
        | (w.force_dir as u8 as u64) << 40;
    (
        p.pos.x.round() as i32,
        p.pos.y.round() as i32,
        (p.vel.x / 15.0).round() as i32,
        (p.vel.y / 15.0).round() as i32,
        flags,
        p.coyote,
        p.jump_buffer.min(1),
        p.var_jump,
        checkpoint.map_or(-1, |c| c as i64),
        wall,
        phases.key(world),
    )
}

/// Left held, nothing else.
fn left_only() -> TickInput {
    let mut t = TickInput::default();
    t.held[Action::Left.index()] = true;
    t
}

/// A run found by [`search`].
pub struct Found {
    /// Its input, tick by tick.
    pub inputs: Vec<TickInput>,
    /// Ticks simulated to find it, jittered copies included.
    pub expanded: u64,
}

/// The beam search (the main module's docs): a deathless run from `start` to the target that
/// `field` measures, or why there is none.
pub fn search(sim: &Sim, start: World, args: &Args, delays: &Delays, field: &Field) -> Result<Found, String> {
    let len = args.macro_ticks.max(1);
    let jitter = Jitter { delays, max_dead: args.max_dead, finish_hold: args.finish_hold };
    let all = macros(len);
    let phases = Phases::new(sim.level);
    let prefer = [Mechanic::Coyote, Mechanic::Buffer, Mechanic::Corner].map(|m| args.prefer.contains(&m));
    // Kept nodes: (parent, inputs), to rebuild the run.
    let mut arena: Vec<(usize, Vec<TickInput>)> = Vec::new();
    // `--settle`: the run opens holding Left against the level's left wall; the search starts
    // after it, every variant in step (the wall stops them all at the same x).
    let settle = vec![held_only(&left_only()); args.settle];
    let start_world = &start.clone();
    let mut settled = start;
    for input in &settle {
        step(&mut settled, input, sim.level, sim.tuning, TICK_HZ);
    }
    let variants = (0..args.variants as u64)
        .map(|k| {
            let mut v = Variant::new(&settled, args.seed << 32 | k);
            if args.settle > 0 {
                v.latch.schedule(0, InputEvent::Press(Source::Keyboard, Action::Left));
            }
            v
        })
        .collect();
    let root = Node {
        score: field.at(settled.player.pos),
        tick: settle.len() as u64,
        variants,
        world: settled,
        jump_held: false,
        dir: if args.settle > 0 { -1 } else { 0 },
        since_press: usize::MAX,
        parent: usize::MAX,
        inputs: settle,
        cost: 0.0,
    };
    let mut beam = vec![root];
    let mut seen: HashSet<Key> = HashSet::new();
    let mut expanded = 0u64;
    let mut best_ever = f64::INFINITY;
    let mut depth = 0;
    // Finishing runs: (dead variants, depth, inputs); the depth of the first one.
    let mut finishers: Vec<(usize, usize, Vec<TickInput>)> = Vec::new();
    let mut first_finish: Option<usize> = None;
    while depth * len < args.max_ticks {
        depth += 1;
        let mut next: Vec<Node> = Vec::new();
        let mut finished: Option<(usize, Vec<TickInput>)> = None;
        for node in &beam {
            let idx = arena.len();
            arena.push((node.parent, node.inputs.clone()));
            for &m in &all {
                if m.down && !node.world.player.on_ground {
                    continue;
                }
                let Some(inputs) = expand(m, len, node.jump_held) else {
                    continue;
                };
                let mut world = node.world.clone();
                let mut cost = node.cost;
                if m.dir != node.dir {
                    cost += args.turn_cost;
                }
                let mut died = false;
                let mut finished_at = None;
                let mut since_press = node.since_press;
                for (i, input) in inputs.iter().enumerate() {
                    since_press = if input.pressed(Action::Jump) { 0 } else { since_press.saturating_add(1) };
                    let (x0, was_ground, had_coyote) =
                        (world.player.pos.x, world.player.on_ground, world.player.coyote > 0);
                    let out = step(&mut world, input, sim.level, sim.tuning, TICK_HZ);
                    expanded += 1;
                    if out.died {
                        died = true;
                        break;
                    }
                    if input.pressed(Action::Jump) {
                        cost += args.press_cost;
                    }
                    let used = mechanics_used(&world, &out, x0, (was_ground, had_coyote), since_press);
                    for k in 0..3 {
                        if used[k] && prefer[k] {
                            cost -= 48.0;
                        }
                    }
                    if (sim.done)(&world) {
                        finished_at = Some(i + 1);
                        break;
                    }
                }
                if died {
                    continue;
                }
                let jump_held = inputs.last().is_some_and(|t| t.held(Action::Jump));
                let ticks = finished_at.unwrap_or(len);
                let child_tick = node.tick + ticks as u64;
                // A child seen already is dropped before its variants cost anything.
                let probe_key =
                    finished_at.is_none().then(|| key_of(&world, jump_held, world.checkpoint, &phases));
                if probe_key.as_ref().is_some_and(|k| seen.contains(k)) {
                    continue;
                }
                // The jittered copies replay the same macro; one death drops the child. On
                // the target, the run ends idle and every copy must get there too.
                let run = MacroRun {
                    prev: node.inputs.last().copied().unwrap_or_default(),
                    inputs: &inputs[..ticks],
                    tick: node.tick,
                    finishing: finished_at.is_some(),
                };
                let Some(variants) = advance_variants(sim, &node.variants, &run, &jitter) else {
                    continue;
                };
                expanded += (variants.len() * ticks) as u64;
                if let Some(n) = finished_at {
                    let mut chain = vec![inputs[..n].to_vec()];
                    let mut at = idx;
                    while at != usize::MAX {
                        let (parent, ref ins) = arena[at];
                        chain.push(ins.clone());
                        at = parent;
                    }
                    chain.reverse();
                    // Of the runs finishing at this depth, the one with the fewest dead
                    // variants wins (the first found among equals).
                    let dead = variants.iter().filter(|v| v.dead).count();
                    let mut run = chain.concat();
                    let hold = held_only(run.last().expect("a run has ticks"));
                    run.extend(std::iter::repeat_n(hold, args.finish_hold));
                    if args.finish_window > 0 {
                        finishers.push((dead, depth, run));
                    } else if finished.as_ref().is_none_or(|(d, _)| dead < *d) {
                        finished = Some((dead, run));
                    }
                    continue;
                }
                let worst = variants
                    .iter()
                    .filter(|v| !v.done && !v.dead)
                    .map(|v| field.at(v.world.player.pos))
                    .fold(field.at(world.player.pos), f64::max);
                let dead = variants.iter().filter(|v| v.dead).count() as f64 * args.dead_cost;
                let child = Node {
                    score: worst + cost + dead,
                    tick: child_tick,
                    variants,
                    world,
                    jump_held,
                    dir: m.dir,
                    since_press,
                    parent: idx,
                    inputs,
                    cost,
                };
                if seen.insert(key(&child, &phases)) {
                    next.push(child);
                }
            }
        }
        if let Some((_, inputs)) = finished {
            return Ok(Found { inputs, expanded });
        }
        if !finishers.is_empty() {
            let first = *first_finish.get_or_insert(depth);
            if depth >= first + args.finish_window || next.is_empty() {
                return Ok(Found { inputs: select(sim, start_world, args, delays, finishers), expanded });
            }
        }
        if next.is_empty() {
            return Err(format!(
                "no deathless path: the beam died out after {} ticks (closest {best_ever:.0} px \
                 from the target, {expanded} ticks simulated)",
                depth * len
            ));
        }
        next.sort_by(|a, b| a.score.total_cmp(&b.score));
        let mut per_cell: HashMap<(i32, i32, bool), usize> = HashMap::new();
        next.retain(|n| {
            let p = &n.world.player;
            let cell = ((p.pos.x / 8.0).floor() as i32, (p.pos.y / 8.0).floor() as i32, p.on_ground);
            let c = per_cell.entry(cell).or_default();
            *c += 1;
            *c <= args.per_cell
        });
        next.truncate(args.beam);
        let lead = field.at(next[0].world.player.pos);
        best_ever = best_ever.min(lead);
        if depth % 50 == 0 {
            let p = &next[0].world.player.pos;
            let spread = next[0]
                .variants
                .iter()
                .filter(|v| !v.dead)
                .map(|v| v.world.player.pos.distance(*p))
                .fold(0.0, f64::max);
            eprintln!(
                "  tick {:5}: beam {:5}, lead {:7.1} px to go at ({:.0}, {:.0}), its live variants \
                 within {spread:.0} px",
                depth * len,
                next.len(),
                lead,
                p.x,
                p.y
            );
        }
        beam = next;
    }
    Err(format!(
        "no path within {} ticks (closest {best_ever:.0} px from the target, {expanded} ticks \
         simulated)",
        args.max_ticks
    ))
}
