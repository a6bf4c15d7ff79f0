//! Jittered replays of a run: its key edges through the real [`Latch`], each delayed by a
//! random number of ticks drawn from `--delays` (the main module's docs say why and how much).
//!
//! Clock: fixed tick (one [`step`] per tick, edges scheduled on tick numbers).

use crate::{Sim, TAIL_FRAMES, TICK_HZ};
use glam::DVec2;
use ledge::input::latch::{Latch, TickInput};
use ledge::input::{Action, InputEvent, Source};
use ledge::sim::rng::SplitMix64;
use ledge::sim::{World, step};

/// The keyboard edges that turn `prev` into `now`, in the order the script writes them (the
/// latch rebuilds `now` from them): per action, a release, a press, and, for a jump press not
/// held at the end of its tick, a release after it.
pub fn edges(prev: &TickInput, now: &TickInput) -> Vec<InputEvent> {
    let mut events = Vec::new();
    for a in Action::ALL {
        let (was, held) = (prev.held(a), now.held(a));
        let edge = now.pressed(a) && a == Action::Jump;
        if was && (!held || edge) {
            events.push(InputEvent::Release(Source::Keyboard, a));
        }
        if (held && !was) || edge {
            events.push(InputEvent::Press(Source::Keyboard, a));
        }
        if edge && !held {
            events.push(InputEvent::Release(Source::Keyboard, a));
        }
    }
    events
}

/// The scripted edges of a run tick by tick: entry `t` holds the edges consumed by tick
/// `t + 1`; the last entry releases everything (the run ends idle).
pub fn run_events(inputs: &[TickInput]) -> Vec<Vec<InputEvent>> {
    let idle = TickInput::default();
    let mut prev = idle;
    let mut out = Vec::with_capacity(inputs.len() + 1);
    for input in inputs.iter().chain(std::iter::once(&idle)) {
        out.push(edges(&prev, input));
        prev = *input;
    }
    out
}

/// `input`'s held buttons, with no press edges.
pub fn held_only(input: &TickInput) -> TickInput {
    TickInput { held: input.held, ..TickInput::default() }
}

/// How late each input edge reaches the game, in whole ticks: cumulative weights of a delay
/// of 0, 1, 2, ... ticks (`--delays`).
#[derive(Clone, Debug)]
pub struct Delays {
    cumulative: Vec<u64>,
}

impl Delays {
    /// Read comma-separated weights (`45,45,10`).
    pub fn parse(s: &str) -> Result<Delays, String> {
        let mut cumulative = Vec::new();
        let mut sum = 0u64;
        for w in s.split(',') {
            let w: u64 = w.trim().parse().map_err(|e| format!("--delays '{s}': {e}"))?;
            sum += w;
            cumulative.push(sum);
        }
        if sum == 0 {
            return Err(format!("--delays '{s}': all weights are 0"));
        }
        Ok(Delays { cumulative })
    }

    /// One delay, ticks.
    fn draw(&self, rng: &mut SplitMix64) -> u64 {
        let total = *self.cumulative.last().expect("parse makes one weight at least");
        let u = rng.next_u64() % total;
        self.cumulative.iter().position(|&c| u < c).expect("u < total") as u64
    }
}

/// Random-delay replays: how many, with which delays, from which seed.
pub struct Replays<'a> {
    /// Per-edge delay weights.
    pub delays: &'a Delays,
    /// Number of replays.
    pub trials: usize,
    /// Seed of the first replay's draws (replay `k` is seeded from it and `k`).
    pub seed: u64,
}

/// A run's scripted edges (`events[t]` before tick `t + 1`, as [`run_events`] makes them),
/// played for at least `ticks` ticks.
pub struct Scripted<'a> {
    /// Edges tick by tick.
    pub events: &'a [Vec<InputEvent>],
    /// Ticks to play.
    pub ticks: usize,
}

/// One jittered copy of a run: the scripted edges go through the real [`Latch`], each
/// delayed by a random number of ticks (never before the edge ahead of it: X delivers events
/// in order), and the ticks through [`step`].
#[derive(Clone)]
pub struct Variant {
    /// The copy's world.
    pub world: World,
    /// The copy's latch, holding its delayed edges.
    pub latch: Latch,
    /// Tick the last edge was scheduled for.
    last: u64,
    rng: SplitMix64,
    /// Reached the target (the real game moves on: nothing after counts).
    pub done: bool,
    /// Died (or, at the end of the run, never reached the target): no longer simulated.
    pub dead: bool,
}

impl Variant {
    /// A copy starting from `start`, its delays drawn from `seed`.
    pub fn new(start: &World, seed: u64) -> Variant {
        Variant {
            world: start.clone(),
            latch: Latch::new(),
            last: 0,
            rng: SplitMix64::new(seed),
            done: false,
            dead: false,
        }
    }

    /// Run tick `t` (1-based) of a run whose script has `events` before that tick. False on a
    /// death.
    fn tick(&mut self, sim: &Sim, delays: &Delays, t: u64, events: &[InputEvent]) -> bool {
        for &ev in events {
            let at = self.last.max(t + delays.draw(&mut self.rng));
            self.latch.schedule(at, ev);
            self.last = at;
        }
        if self.done {
            return true;
        }
        let (input, _) = self.latch.input_for_tick(t);
        if step(&mut self.world, &input, sim.level, sim.tuning, TICK_HZ).died {
            return false;
        }
        self.done = (sim.done)(&self.world);
        true
    }
}

/// Replay `run` from `start` as `replays` says, each edge delayed by a fresh draw; the number
/// of replays that got `done` with no death.
pub fn survivals(sim: &Sim, start: &World, run: &Scripted, replays: &Replays) -> usize {
    failures(sim, start, run, replays).0
}

/// As [`survivals`], plus where each failed replay ended: the tick and the player's position
/// before the death (or at the end, when it never got `done`).
pub fn failures(sim: &Sim, start: &World, run: &Scripted, replays: &Replays) -> (usize, Vec<(usize, DVec2)>) {
    let (events, ticks) = (run.events, run.ticks);
    let mut ok = 0;
    let mut failed = Vec::new();
    for trial in 0..replays.trials {
        let mut v = Variant::new(start, replays.seed.wrapping_mul(0x1_0000_0001).wrapping_add(trial as u64));
        let mut end = None;
        for t in 0..ticks.max(events.len()) {
            let evs = events.get(t).map_or(&[][..], Vec::as_slice);
            let before = v.world.player.pos;
            if !v.tick(sim, replays.delays, t as u64 + 1, evs) {
                end = Some((t + 1, before));
                break;
            }
            if v.done {
                break;
            }
        }
        if v.done {
            ok += 1;
        } else {
            failed.push(end.unwrap_or((ticks, v.world.player.pos)));
        }
    }
    (ok, failed)
}

/// One macro of the exact run, for [`advance_variants`].
pub struct MacroRun<'a> {
    /// The input of the tick before the macro.
    pub prev: TickInput,
    /// The macro's ticks (only up to the target when it is reached).
    pub inputs: &'a [TickInput],
    /// The last tick before the macro.
    pub tick: u64,
    /// The exact run reached the target in the macro's last tick.
    pub finishing: bool,
}

/// What the search asks of its jittered copies (`--delays`, `--max-dead`, `--finish-hold`).
pub struct Jitter<'a> {
    /// Per-edge delay weights.
    pub delays: &'a Delays,
    /// A candidate is dropped when more than this many copies died.
    pub max_dead: usize,
    /// Ticks the last buttons are held on the target before going idle.
    pub finish_hold: usize,
}

/// The node's variants after the macro `m` (its first `m.inputs.len()` ticks), starting after
/// tick `m.tick` whose input was `m.prev`; `None` when more than `max_dead` have died. When
/// `m.finishing` (the exact run reached the target in the macro's last tick) the run then goes
/// idle and every variant keeps holding what it held (no new presses) for `finish_hold` ticks,
/// then goes idle; a variant that does not reach the target by then plus [`TAIL_FRAMES`] ticks
/// counts as dead.
pub fn advance_variants(
    sim: &Sim,
    variants: &[Variant],
    m: &MacroRun,
    jitter: &Jitter,
) -> Option<Vec<Variant>> {
    let (inputs, finishing) = (m.inputs, m.finishing);
    let mut events: Vec<Vec<InputEvent>> = Vec::with_capacity(inputs.len() + 1);
    let mut last = m.prev;
    for input in inputs {
        events.push(edges(&last, input));
        last = *input;
    }
    let extra = if finishing {
        let hold = held_only(&last);
        for _ in 0..jitter.finish_hold {
            events.push(edges(&last, &hold));
            last = hold;
        }
        events.push(edges(&last, &TickInput::default()));
        jitter.finish_hold + TAIL_FRAMES as usize
    } else {
        0
    };
    let mut out = Vec::with_capacity(variants.len());
    let mut dead = variants.iter().filter(|v| v.dead).count();
    for v in variants {
        let mut v = v.clone();
        if !v.dead {
            for i in 0..inputs.len() + extra {
                let evs = events.get(i).map_or(&[][..], Vec::as_slice);
                if !v.tick(sim, jitter.delays, m.tick + i as u64 + 1, evs) {
                    v.dead = true;
                    break;
                }
                if finishing && i >= inputs.len() && v.done {
                    break;
                }
            }
            if finishing && !v.done {
                v.dead = true;
            }
            if v.dead {
                dead += 1;
                if dead > jitter.max_dead {
                    return None;
                }
            }
        }
        out.push(v);
    }
    Some(out)
}
