//! `ledge netlab [--link SPEC] [--json OUT] [--record OUT.lab] A.lab B.lab [C.lab [D.lab]]`
//! (LAB.md Version 4 "Two or more peers in one process"): one peer per script, each a real
//! [`Loop`] driven by ggrs's P2P session ([`crate::net::race`]) over a seeded, simulated
//! network ([`crate::net::link`]); peer K plays player K.
//!
//! Clock: simulated, integer nanoseconds. Every peer's frames come from its own script
//! (frame times and input edges, counted from the race start); the peers' frames are run in
//! order of their end times, the network's clock set to each before it runs. Before the race
//! the sessions synchronise on the same clock in 1 ms steps (ggrs's own retry timers run on
//! the wall clock: while synchronising, each step also waits 1 ms of wall time, so a lost
//! handshake datagram is sent again). After the scripts, every peer runs empty frames of one
//! tick until all have confirmed the longest script's last tick.

use super::report::ConfigEcho;
use super::runner::{LabError, LabOptions, build_loop, parse_script};
use super::script::{At, Script, Step};
use crate::game_loop::Loop;
use crate::input::InputEvent;
use crate::net::link::{Hub, LinkSocket, LinkSpec};
use crate::net::race::{
    DISCONNECT_TIMEOUT_S, INPUT_DELAY, PREDICTION_WINDOW, RaceConfig, RaceDriver, RaceStats,
};
use crate::sim::MAX_PLAYERS;
use ggrs::{DesyncDetection, PlayerType, SessionBuilder, SessionState};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;

/// One peer's script, as read.
#[derive(Clone, Debug)]
pub struct PeerScript {
    /// Its name for messages (the path as given).
    pub name: String,
    /// Its text.
    pub text: String,
    /// Its folder (relative `level` paths are tried from there first).
    pub dir: PathBuf,
}

/// A netlab failure that is not the peers disagreeing: one line naming the script (and line)
/// and the problem; exit 2.
pub type NetlabError = LabError;

/// One peer in the report (LAB.md Version 4).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PeerReport {
    /// Its player number, 1-based.
    pub player: u8,
    /// `state_hash` of the world after the common confirmed tick, 16 hex digits.
    pub state_hash: String,
    /// The common confirmed tick: the longest script's last tick, which every peer confirmed.
    pub confirmed_tick: u64,
    /// Rollbacks, the deepest (ticks), ticks re-simulated, stalled loop ticks, desyncs ggrs
    /// reported.
    #[serde(flatten)]
    pub stats: RaceStats,
    /// Bytes this peer sent, and datagrams (an addition to LAB.md: the measure of
    /// docs/racing.md).
    pub bytes_sent: u64,
    /// Datagrams it sent.
    pub datagrams_sent: u64,
}

/// The netlab report: `peers`, `agree` and, when they do not agree, the first tick whose
/// hashes differ.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct NetlabReport {
    /// Every peer, in player order.
    pub peers: Vec<PeerReport>,
    /// Every peer's hash at the common confirmed tick is the same.
    pub agree: bool,
    /// The first tick whose hash differs between two peers (`null` when they agree).
    pub first_difference: Option<u64>,
    /// The link, as given (`latency=…`), and the simulated time the race took, ms (additions).
    pub link: String,
    /// Simulated milliseconds from the race start to the last confirmed tick's frame.
    pub race_ms: f64,
}

/// The run: the report, and the confirmed inputs as a tick-by-tick lab script (`--record`).
#[derive(Clone, Debug)]
pub struct NetlabRun {
    /// The report.
    pub report: NetlabReport,
    /// The race's confirmed inputs up to the common confirmed tick as a lab script (`players
    /// N`, `pK`, one frame a tick); `ledge lab` on it ends on the peers' hash.
    pub record: String,
}

/// Frames of one peer's script: each frame's end time and the edges arriving up to it.
struct Timeline {
    frames: Vec<(u64, Vec<(u64, InputEvent)>)>,
}

/// Most simulated time the sessions get to synchronise, and the peers to confirm the last
/// tick after the scripts end: 20 s each.
const GRACE_NS: u64 = 20_000_000_000;

fn timeline(script: &Script, name: &str) -> Result<Timeline, LabError> {
    let fail = |line: usize, msg: &str| LabError { script: name.to_string(), line, msg: msg.to_string() };
    let mut frames = Vec::new();
    let mut pending: Vec<(u64, InputEvent)> = Vec::new();
    let mut clock = 0u64;
    for (step, line) in &script.steps {
        match *step {
            Step::Event { event, at, player } => {
                if player != 0 {
                    return Err(fail(
                        *line,
                        "netlab: a peer's script gives its own player's input, without pK",
                    ));
                }
                let t = match at {
                    At::AfterFrame(o) => clock.saturating_add(o),
                    At::Absolute(t) if t < clock => {
                        return Err(fail(*line, "netlab: this @MS is already in the past"));
                    }
                    At::Absolute(t) => t,
                };
                let i = pending.partition_point(|(p, _)| *p <= t);
                pending.insert(i, (t, event));
            }
            Step::Frame { ns, count } => {
                for _ in 0..count {
                    clock = clock.saturating_add(ns);
                    let due = pending.partition_point(|(p, _)| *p <= clock);
                    frames.push((clock, pending.drain(..due).collect()));
                }
            }
            Step::Resize(..) => {}
            Step::Teleport(..) | Step::TickCost(..) | Step::Savestate(_) | Step::Loadstate(_) => {
                return Err(fail(
                    *line,
                    "netlab: a peer's script has frames and input only (no teleport, tick-cost, savestate)",
                ));
            }
        }
    }
    Ok(Timeline { frames })
}

/// One peer: its loop, its session, its script's frames.
struct Peer {
    lp: Loop,
    driver: RaceDriver<usize>,
    timeline: Timeline,
    next: usize,
}

/// Run the race of `scripts` (2..=4) over `link`.
///
/// # Errors
/// [`NetlabError`] for a malformed script, a script a peer cannot play (`players`, `pK`,
/// `teleport`, `tick-cost`, `ghost`, `entity`, a game speed, pausing), peers whose level,
/// tuning or tick rate differ (the race's handshake), or a race that never synchronises or
/// confirms. Peers that disagree are not an error: [`NetlabReport::agree`] is false.
pub fn run_netlab(
    scripts: &[PeerScript],
    link: &LinkSpec,
    link_text: &str,
) -> Result<NetlabRun, NetlabError> {
    let n = scripts.len();
    let whole = |msg: String| LabError { script: "netlab".into(), line: 0, msg };
    if !(2..=MAX_PLAYERS).contains(&n) {
        return Err(whole(format!("netlab: 2 to {MAX_PLAYERS} peer scripts, got {n}")));
    }
    let hub = Hub::new(*link, n);
    let mut peers = Vec::with_capacity(n);
    let mut first: Option<(Script, Loop)> = None;
    for (k, ps) in scripts.iter().enumerate() {
        let opts = LabOptions {
            script_name: ps.name.clone(),
            script_dir: ps.dir.clone(),
            summary_only: true,
            force: false,
        };
        let fail = |line: usize, msg: String| LabError { script: ps.name.clone(), line, msg };
        let script = parse_script(&ps.text, &opts)?;
        if script.players != 1 {
            return Err(fail(0, "netlab: a peer's script plays its own player: no 'players' line".into()));
        }
        if let Some((_, line)) = &script.ghost {
            return Err(fail(*line, "netlab: no 'ghost' in a peer's script".into()));
        }
        if let Some((_, line)) = script.entities.first() {
            return Err(fail(
                *line,
                "netlab: no 'entity' lines in a peer's script (put them in the level)".into(),
            ));
        }
        let (mut lp, pause, speed, _): (Loop, bool, Option<f64>, ConfigEcho) = build_loop(&script, &opts)?;
        if pause || speed.is_some() {
            return Err(fail(0, "netlab: no pause_on_focus_loss or game_speed in a race".into()));
        }
        if let Some((_, l0)) = &first {
            let differs = if l0.level() != lp.level() {
                Some("level")
            } else if l0.tuning() != lp.tuning() {
                Some("tuning")
            } else if l0.config() != lp.config() {
                Some("tick rate or loop config")
            } else {
                None
            };
            if let Some(what) = differs {
                let a = &scripts[0].name;
                return Err(fail(
                    0,
                    format!("netlab: its {what} differs from {a}'s (every peer races the same)"),
                ));
            }
        }
        lp.set_players(n);
        lp.set_presenting(false);
        let tick_hz = lp.config().tick_hz;
        let mut builder = SessionBuilder::<RaceConfig<usize>>::new()
            .with_num_players(n)
            .and_then(|b| b.with_fps(tick_hz as usize))
            .map_err(|e| fail(0, format!("netlab: {e}")))?
            .with_input_delay(INPUT_DELAY)
            .with_max_prediction_window(PREDICTION_WINDOW)
            .with_desync_detection_mode(DesyncDetection::On { interval: 1 })
            .with_disconnect_timeout(Duration::from_secs(DISCONNECT_TIMEOUT_S));
        for j in 0..n {
            let kind = if j == k { PlayerType::Local } else { PlayerType::Remote(j) };
            builder = builder.add_player(kind, j).map_err(|e| fail(0, format!("netlab: {e}")))?;
        }
        let session = builder
            .start_p2p_session(LinkSocket::new(&hub, k, n, true))
            .map_err(|e| fail(0, format!("netlab: {e}")))?;
        let timeline = timeline(&script, &ps.name)?;
        if first.is_none() {
            first = Some((script, lp.clone()));
        }
        peers.push(Peer { lp, driver: RaceDriver::new(session, k), timeline, next: 0 });
    }
    let (script0, loop0) = first.expect("two or more scripts");

    // The handshake: every session synchronised, on the shared clock.
    let mut now = 0u64;
    while peers.iter_mut().any(|p| p.driver.session().current_state() != SessionState::Running) {
        if now > GRACE_NS {
            return Err(whole("netlab: the peers did not synchronise within 20 s of simulated time".into()));
        }
        hub.set_time(now);
        for p in &mut peers {
            p.driver.session().poll_remote_clients();
        }
        std::thread::sleep(Duration::from_millis(1));
        now += 1_000_000;
    }
    let start = now;

    // The race: every peer's frames in order of their end times.
    loop {
        let next = peers
            .iter()
            .enumerate()
            .filter_map(|(k, p)| p.timeline.frames.get(p.next).map(|f| (f.0, k)))
            .min();
        let Some((t, k)) = next else { break };
        hub.set_time(start + t);
        let p = &mut peers[k];
        let events = std::mem::take(&mut p.timeline.frames[p.next].1);
        for (at, ev) in events {
            p.lp.push_event_for(k as u8, at, ev);
        }
        run_frame(p, t);
        p.next += 1;
    }
    let target = peers.iter().map(|p| p.lp.world().tick).max().unwrap_or(0);

    // Empty frames of one tick each until every peer has confirmed the last tick.
    let hz = u64::from(loop0.config().tick_hz.max(1));
    let mut clocks: Vec<u64> = peers.iter().map(|p| p.timeline.frames.last().map_or(0, |f| f.0)).collect();
    let end = clocks.iter().copied().max().unwrap_or(0);
    let done = |p: &Peer| p.driver.confirmed_tick() >= target && p.lp.world().tick > target;
    while !peers.iter().all(done) {
        let (t, k) = clocks.iter().enumerate().map(|(k, t)| (*t, k)).min().expect("peers");
        if t > end + GRACE_NS {
            let late = peers.iter().position(|p| !done(p)).map_or(1, |k| k + 1);
            return Err(whole(format!(
                "netlab: peer {late} did not confirm tick {target} within 20 s of simulated time"
            )));
        }
        let t = t + 1_000_000_000_u64.div_ceil(hz);
        clocks[k] = t;
        hub.set_time(start + t);
        run_frame(&mut peers[k], t);
    }
    let race_ms = clocks.iter().copied().max().unwrap_or(0) as f64 / 1e6;

    let hashes: Vec<Option<u64>> = peers.iter().map(|p| p.driver.hash_at(target)).collect();
    let agree = hashes.iter().all(|h| h.is_some() && *h == hashes[0]);
    let first_difference = (!agree).then(|| first_difference(&peers, target)).flatten();
    let report = NetlabReport {
        peers: peers
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let sent = hub.stats(k);
                PeerReport {
                    player: k as u8 + 1,
                    state_hash: hashes[k].map_or_else(|| "none".into(), |h| format!("{h:016x}")),
                    confirmed_tick: target,
                    stats: p.driver.stats(),
                    bytes_sent: sent.bytes_sent,
                    datagrams_sent: sent.datagrams_sent,
                }
            })
            .collect(),
        agree,
        first_difference,
        link: link_text.to_string(),
        race_ms,
    };
    let record = super::race_record::race_record(&script0.level, &loop0, &peers[0].driver, target);
    Ok(NetlabRun { report, record })
}

/// Run peer `p`'s frame ending at `t_ns` (its race clock). A frame in which the peer stalls
/// also waits 1 ms of wall time: a stall that lasts waits for a datagram ggrs sends again on
/// its wall-clock timer (200 ms), which a race run as fast as the machine goes would
/// otherwise never reach.
fn run_frame(p: &mut Peer, t_ns: u64) {
    let stalls = p.driver.stats().stalled_frames;
    p.lp.frame_driven(t_ns, &mut p.driver);
    if p.driver.stats().stalled_frames > stalls {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The first tick (1..=target) whose hashes, as each peer last simulated it, differ.
fn first_difference(peers: &[Peer], target: u64) -> Option<u64> {
    (1..=target).find(|&t| {
        let hs: Vec<Option<u64>> = peers.iter().map(|p| p.driver.hash_at(t)).collect();
        hs.iter().flatten().any(|h| Some(*h) != hs[0])
    })
}
