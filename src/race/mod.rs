//! `ledge --net udp:PORT --peers LIST [--level FILE] [--autoplay SCRIPT] [--headless]
//! [--exit-after S] [--record FILE]` (NET.md "Command line"): a peer of an online race with
//! no window, GPU or sound, on the real clock at 60 frames a second.
//!
//! Clock: the wall clock (`web_time::Instant`, monotonic), frames every 1 / 60 s; the race's
//! own clock counts from the start (every session synchronised). Before it: the handshake
//! ([`crate::net::handshake`]), repeated every 100 ms until every peer has heard every other,
//! then ggrs's synchronisation. The race: each frame feeds the autoplay script's edges that
//! are due into the loop, whose ticks ggrs drives ([`crate::net::race`]); with `--exit-after
//! S` it ends at tick S × tick rate once every peer still racing has confirmed it (or 3 s
//! after that tick, with what was confirmed). At exit: the summary line, the `net:` line.
//!
//! Exit status: 0 after a race (a peer leaving included: one line `net: player K left at tick
//! T`), 2 for a bad flag, an address that cannot be bound or resolved, a refused handshake or
//! peers that never answer, 3 for a desync (one line; the confirmed inputs beside `--record`'s
//! file as `FILE.desync.lab`).

pub mod code;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod headless;
mod options;
pub mod peer;
#[cfg(all(feature = "game", not(target_arch = "wasm32")))]
pub mod serve;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use headless::run_headless;
pub use options::{MAX_ROOM, NetSpec, Players, RaceOptions, parse_peers};
pub use peer::{Polled, Progress, RaceEnd, RacePeer, RaceSummary};

use crate::game_loop::Loop;
use crate::input::InputEvent;
use crate::lab::LabOptions;
use crate::lab::runner::build_loop;
use crate::lab::script::{At, LevelSource, Script, Step, parse};
use std::path::Path;

/// A refused race: the one line to print and the exit status.
#[derive(Debug)]
pub struct Refused {
    /// The line (without the `ledge: ` prefix).
    pub line: String,
    /// 2, or 3 for a desync.
    pub code: u8,
    /// A desync's confirmed inputs as a lab script (`FILE.desync.lab`).
    pub record: Option<String>,
}

impl Refused {
    /// A refusal with exit status 2.
    pub fn new(line: impl Into<String>) -> Refused {
        Refused { line: line.into(), code: 2, record: None }
    }
}

fn refuse(line: impl Into<String>) -> Refused {
    Refused::new(line)
}

/// The autoplay script's edges on the race's clock, in order: (ns from the start, edge).
pub fn autoplay_edges(script: &Script) -> Vec<(u64, InputEvent)> {
    let (mut clock, mut edges) = (0u64, Vec::new());
    for (step, _) in &script.steps {
        match *step {
            Step::Frame { ns, count } => clock = clock.saturating_add(ns.saturating_mul(count)),
            Step::Event { event, at, .. } => {
                let t = match at {
                    At::AfterFrame(o) => clock.saturating_add(o),
                    At::Absolute(t) => t.max(clock),
                };
                let i = edges.partition_point(|(p, _)| *p <= t);
                edges.insert(i, (t, event));
            }
            _ => {}
        }
    }
    edges
}

/// The race's script: the autoplay script (its level, tuning and config lines, and its
/// edges), with `--level` in place of its level when given.
pub fn race_script(opts: &RaceOptions) -> Result<(Script, LabOptions), Refused> {
    let (mut script, name, dir) = match &opts.autoplay {
        Some(path) => {
            let text = crate::read_limit::read_text_at_most(path, crate::lab::script::MAX_SCRIPT_BYTES)
                .map_err(|e| refuse(format!("--autoplay {}: {e}", path.display())))?;
            let s = parse(&text)
                .map_err(|e| refuse(format!("--autoplay {}:{}: {}", path.display(), e.line, e.msg)))?;
            (s, path.display().to_string(), path.parent().map(Path::to_path_buf).unwrap_or_default())
        }
        None => (
            parse("").expect("an empty script parses"),
            "--level".to_string(),
            std::env::current_dir().unwrap_or_default(),
        ),
    };
    if script.players != 1 || script.steps.iter().any(|(s, _)| matches!(s, Step::Event { player: 1.., .. })) {
        return Err(refuse(format!(
            "--autoplay {name}: a peer's script plays its own player: no 'players', no pK"
        )));
    }
    if let Some(level) = &opts.level {
        let abs =
            std::fs::canonicalize(level).map_err(|e| refuse(format!("--level {}: {e}", level.display())))?;
        script.level = LevelSource::File(abs.display().to_string(), 0, None);
    }
    let lab = LabOptions { script_name: name, script_dir: dir, summary_only: true, force: false };
    Ok((script, lab))
}

/// The race's loop, set up: the script's level, tuning and config, `--tuning`, the players.
///
/// # Errors
/// [`Refused`] for a level or tuning that does not load, or a `game_speed` line.
pub fn race_loop(script: &Script, lab: &LabOptions, opts: &RaceOptions) -> Result<Loop, Refused> {
    let (mut lp, _, speed, _): (Loop, _, _, _) =
        build_loop(script, lab).map_err(|e| refuse(e.to_string()))?;
    if speed.is_some() {
        return Err(refuse("a race is always 100 %: no game_speed"));
    }
    if let Some(path) = &opts.tuning {
        let t = crate::sim::Tuning::load(path).map_err(|e| refuse(e.to_string()))?;
        lp.set_tuning(t);
    }
    lp.set_players(opts.players.count());
    lp.set_presenting(false);
    Ok(lp)
}
