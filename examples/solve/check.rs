//! `--check SCRIPT.lab`: read a solver-written lab script back (with the lab's own parser) and
//! measure its survival rate under random per-edge delays.
//!
//! Clock: fixed tick (the script's frames are one tick each).

use crate::jitter::{Delays, Replays, Scripted, failures, survivals};
use crate::{Args, FRAME_NS, Sim, load_level, load_tuning, rate};
use ledge::input::{InputEvent, Source};
use ledge::lab::script::{At, LevelSource, Step, parse};
use ledge::level::TILE;
use ledge::sim::{HITBOX, World};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A solver-written lab script read back for `--check`: its level and tuning lines, and its
/// edges tick by tick (`events[t]` before tick `t + 1`), over `ticks` ticks.
struct ReadScript {
    level: PathBuf,
    tuning: Vec<(String, f64)>,
    events: Vec<Vec<InputEvent>>,
    ticks: usize,
}

/// Read a lab script and keep it to the subset the solver writes: `level`, `tuning`,
/// `press`/`release ACTION` at frame boundaries (no `+MS`/`@MS`) and `frame 16.666667 [xN]`.
/// The level path is taken from `root`.
fn read_script(path: &Path, root: &Path) -> anyhow::Result<ReadScript> {
    let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let script = parse(&text).map_err(|e| anyhow::anyhow!("{}:{}: {}", path.display(), e.line, e.msg))?;
    let bad = |n: usize| {
        let raw = text.lines().nth(n.saturating_sub(1)).unwrap_or("");
        anyhow::anyhow!("{}:{n}: not a solver script line: {raw}", path.display())
    };
    if let Some((_, _, n)) = script.config.first() {
        return Err(bad(*n));
    }
    let level = match script.level {
        LevelSource::File(p, _, _) => root.join(p),
        LevelSource::Inline(_, n) => return Err(bad(n - 1)),
        LevelSource::Default => anyhow::bail!("{}: no level line", path.display()),
    };
    let tuning = script.tuning.into_iter().map(|(k, v, _)| (k, v)).collect();
    let mut events: Vec<Vec<InputEvent>> = Vec::new();
    let mut ticks = 0usize;
    for (step, n) in script.steps {
        match step {
            Step::Frame { ns: FRAME_NS, count } => ticks += usize::try_from(count)?,
            Step::Event {
                event:
                    ev @ (InputEvent::Press(Source::Keyboard, _) | InputEvent::Release(Source::Keyboard, _)),
                at: At::AfterFrame(0),
                player: 0,
            } => {
                events.resize_with(events.len().max(ticks + 1), Vec::new);
                events[ticks].push(ev);
            }
            _ => return Err(bad(n)),
        }
    }
    Ok(ReadScript { level, tuning, events, ticks })
}

/// `--check`: the survival rate of a written script under random delays.
pub fn check(root: &Path, args: &Args, delays: &Delays, path: &Path) -> anyhow::Result<()> {
    let s = read_script(path, root)?;
    let level = load_level(&s.level)?;
    let tuning = load_tuning(root, args, &s.tuning)?;
    let start = World::for_level(&level);
    let done = |w: &World| w.level_complete;
    let sim = Sim { level: &level, tuning: &tuning, done: &done };
    let run = Scripted { events: &s.events, ticks: s.ticks };
    let exactly = Delays::parse("1").map_err(anyhow::Error::msg)?;
    let exact = survivals(&sim, &start, &run, &Replays { delays: &exactly, trials: 1, seed: 0 });
    anyhow::ensure!(exact == 1, "{}: the script does not finish the level as written", path.display());
    let (ok, failed) =
        failures(&sim, &start, &run, &Replays { delays, trials: args.trials, seed: args.seed });
    let mut at: HashMap<(usize, i64, i64), usize> = HashMap::new();
    for (tick, pos) in &failed {
        let c = *pos + HITBOX / 2.0;
        *at.entry((*tick, (c.x / TILE).floor() as i64, (c.y / TILE).floor() as i64)).or_default() += 1;
    }
    let mut at: Vec<_> = at.into_iter().collect();
    at.sort_by_key(|&(k, n)| (std::cmp::Reverse(n), k));
    for ((tick, col, row), n) in at.iter().take(8) {
        println!("  {n:4} failed replays ended at tick {tick} in tile ({col}, {row}) (hitbox centre)");
    }
    println!(
        "{}: survives {} replays with per-edge delays {:?} (weights of 0, 1, ... ticks), seed {}",
        path.display(),
        rate(ok, args.trials),
        args.delays,
        args.seed
    );
    Ok(())
}
