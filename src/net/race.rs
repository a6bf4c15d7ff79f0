//! A peer's side of a race (NET.md): ggrs's [`P2PSession`] as the loop's [`TickDriver`]. Each
//! tick the local player's latched input goes to the session (quantised, [`NetInput`]); the
//! session's requests save the world, load it back after a misprediction and advance it on
//! every player's input; the checksum ggrs compares between peers is [`World::state_hash`].
//!
//! Clock: fixed tick (ggrs frame F is the race's tick F + 1; one [`TickDriver::tick`] per loop
//! tick, which may re-simulate earlier ticks or stall).
//!
//! What the driver keeps for the tools and the exit line: every tick's hash after its last
//! simulation ([`RaceDriver::hash_at`]), every tick's inputs as last simulated (confirmed once
//! the tick is, [`RaceDriver::inputs_at`]), the rollback counts ([`RaceStats`]), the first
//! desync ggrs reports and the players who left.

use super::codec::NetInput;
use crate::game_loop::{RollbackSim, TickDriver};
use crate::input::latch::TickInput;
use crate::sim::{MAX_PLAYERS, World};
use ggrs::{Config, GgrsEvent, GgrsRequest, InputStatus, P2PSession, PredictRepeatLast};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::marker::PhantomData;

/// Ticks of prediction before a peer waits for the others (NET.md: 8).
pub const PREDICTION_WINDOW: usize = 8;

/// Input delay a race starts with, ticks (NET.md: 2).
pub const INPUT_DELAY: usize = 2;

/// The most input delay adaptation goes to, ticks.
pub const MAX_INPUT_DELAY: usize = 8;

/// Adaptive input delay's margin over the one-way latency, ticks: 40 ms of jitter and a lost
/// datagram (ggrs sends every unacknowledged input again the next tick) at 60 Hz.
const DELAY_MARGIN_TICKS: f64 = 4.0;

/// The input delay a round trip of `rtt_ms` asks for at `tick_hz`, ticks: the other peers'
/// input for a tick is made `delay` ticks early and arrives half a round trip later, so it is
/// in time while `rtt / 2 + margin ≤ delay + PREDICTION_WINDOW` ticks:
/// `delay = ceil(rtt / 2 / tick + DELAY_MARGIN_TICKS) − PREDICTION_WINDOW`, clamped to
/// [`INPUT_DELAY`]..=[`MAX_INPUT_DELAY`]. 2 up to about 130 ms of round trip at 60 Hz; 5 at
/// 300 ms.
pub fn delay_for_ping(rtt_ms: u128, tick_hz: u32) -> usize {
    let one_way_ticks = rtt_ms as f64 / 2.0 * f64::from(tick_hz.max(1)) / 1000.0;
    let need = (one_way_ticks + DELAY_MARGIN_TICKS).ceil() as usize;
    need.saturating_sub(PREDICTION_WINDOW).clamp(INPUT_DELAY, MAX_INPUT_DELAY)
}

/// A peer silent this long is dropped and the others race on, seconds (NET.md: 3 s).
pub const DISCONNECT_TIMEOUT_S: u64 = 3;

/// The race's ggrs configuration over addresses of type `A` (a socket address, a WebRTC peer
/// id, a simulated link's endpoint number).
#[derive(Debug)]
pub struct RaceConfig<A>(PhantomData<A>);

impl<A: Clone + PartialEq + Eq + Hash + Debug + 'static> Config for RaceConfig<A> {
    type Input = NetInput;
    type InputPredictor = PredictRepeatLast;
    type State = World;
    type Address = A;
}

/// A peer's rollback figures (the `net:` exit line and netlab's report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RaceStats {
    /// Rollbacks (loads of an earlier state).
    pub rollbacks: u64,
    /// The deepest rollback, ticks.
    pub max_rollback: u64,
    /// Ticks simulated again after a rollback.
    pub resimulated_ticks: u64,
    /// Loop ticks in which the session could not advance (waiting for the others).
    pub stalled_frames: u64,
    /// Desyncs ggrs reported (checksums of a confirmed tick that differ between peers).
    pub desyncs: u64,
}

/// The first desync ggrs reported: the tick and both hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Desync {
    /// The race's tick (1-based).
    pub tick: u64,
    /// This peer's hash of it.
    pub local: u64,
    /// The other peer's.
    pub remote: u64,
}

/// ggrs's P2P session driving the loop's ticks for the local player `me` (0-based).
pub struct RaceDriver<A: Clone + PartialEq + Eq + Hash + Debug + 'static> {
    session: P2PSession<RaceConfig<A>>,
    me: usize,
    players: usize,
    /// A press latched in a tick ggrs could not take (a stall after the tick's input was
    /// already given): merged into the next tick's input, so no edge is lost.
    carry: Option<TickInput>,
    /// The ggrs frame the local input was last given for.
    given_for: Option<i32>,
    /// Each tick's hash after its last simulation (world after tick T: ggrs's save of frame T).
    hashes: BTreeMap<u64, u64>,
    /// Each tick's inputs, player order, as last simulated (index: tick − 1).
    inputs: Vec<[NetInput; MAX_PLAYERS]>,
    /// Players left, bit K − 1 for player K, and the tick they left at.
    left: u8,
    left_at: Vec<(usize, u64)>,
    stats: RaceStats,
    /// The depth of the last rollback, ticks (the network panel).
    last_rollback: u64,
    /// Adaptive input delay at this tick rate ([`RaceDriver::adapt_input_delay`]).
    adaptive: Option<u32>,
    /// The input delay now, ticks.
    delay: usize,
    /// The ggrs frame of the next look at the ping (once a second).
    next_adapt: i32,
    /// The last input given had a press (a delay change repeats the last input: not then).
    last_pressed: bool,
    desync: Option<Desync>,
}

impl<A: Clone + PartialEq + Eq + Hash + Debug + 'static> RaceDriver<A> {
    /// Drive with `session`, whose local player is `me` (0-based).
    pub fn new(session: P2PSession<RaceConfig<A>>, me: usize) -> Self {
        let players = session.num_players();
        RaceDriver {
            session,
            me,
            players,
            carry: None,
            given_for: None,
            hashes: BTreeMap::new(),
            inputs: Vec::new(),
            left: 0,
            left_at: Vec::new(),
            stats: RaceStats::default(),
            last_rollback: 0,
            adaptive: None,
            delay: INPUT_DELAY,
            next_adapt: 0,
            last_pressed: false,
            desync: None,
        }
    }

    /// Let the input delay grow with the ping (NET.md "Input"; the session must have started
    /// with [`INPUT_DELAY`]): once a second of ticks at `tick_hz`, the largest round trip to a
    /// peer gives [`delay_for_ping`], and a delay below it grows to it. It never shrinks
    /// (ggrs drops the inputs of the frames a smaller delay removes: a press could be lost),
    /// and it does not change right after a press (a larger delay repeats the last input).
    /// Every peer simulates the same inputs either way: only the latency changes.
    pub fn adapt_input_delay(&mut self, tick_hz: u32) {
        self.adaptive = Some(tick_hz);
    }

    /// How many ticks ggrs estimates this peer ahead of the others (from their reports; 0 or
    /// below: level or behind). The race slows its clock while this is above 1.
    pub fn frames_ahead(&self) -> i32 {
        self.session.frames_ahead()
    }

    /// The input delay now, ticks.
    pub fn input_delay(&self) -> usize {
        self.delay
    }

    /// The largest round trip to another peer ggrs has measured, ms (0 before it has one).
    pub fn ping_ms(&self) -> u128 {
        (0..self.players)
            .filter(|&k| k != self.me)
            .filter_map(|k| self.session.network_stats(k).ok())
            .map(|n| n.ping)
            .max()
            .unwrap_or(0)
    }

    /// Grow the delay when a second has passed since the last look and the ping asks for more.
    fn adapt(&mut self, frame: i32) {
        let Some(hz) = self.adaptive else { return };
        if frame < self.next_adapt || self.last_pressed {
            return;
        }
        self.next_adapt = frame + i32::try_from(hz).unwrap_or(60);
        let rtt = self.ping_ms();
        let want = delay_for_ping(rtt, hz);
        if want > self.delay && self.session.set_input_delay(self.me, want).is_ok() {
            self.delay = want;
        }
    }

    /// The session (to poll it before the race starts, read its state and network stats).
    pub fn session(&mut self) -> &mut P2PSession<RaceConfig<A>> {
        &mut self.session
    }

    /// The local player, 0-based.
    pub fn me(&self) -> usize {
        self.me
    }

    /// Ticks whose inputs every peer has confirmed (ggrs's confirmed frame + 1), at most the
    /// last tick simulated here (with every other peer gone, ggrs confirms the local input
    /// delay's frames ahead of the simulation).
    pub fn confirmed_tick(&self) -> u64 {
        let confirmed = u64::try_from(self.session.confirmed_frame() + 1).unwrap_or(0);
        confirmed.min(self.hashes.keys().next_back().copied().unwrap_or(0))
    }

    /// The hash of the world after `tick` as last simulated here (confirmed once `tick` ≤
    /// [`RaceDriver::confirmed_tick`] and a later tick has been simulated).
    pub fn hash_at(&self, tick: u64) -> Option<u64> {
        self.hashes.get(&tick).copied()
    }

    /// Every tick's hash as last simulated here, by tick.
    pub fn hashes(&self) -> &BTreeMap<u64, u64> {
        &self.hashes
    }

    /// Tick `tick`'s inputs (1-based), player order, as last simulated here.
    pub fn inputs_at(&self, tick: u64) -> Option<&[NetInput]> {
        let i = usize::try_from(tick.checked_sub(1)?).ok()?;
        self.inputs.get(i).map(|a| &a[..self.players])
    }

    /// The depth of the last rollback, ticks (0 before any).
    pub fn last_rollback(&self) -> u64 {
        self.last_rollback
    }

    /// The rollback figures so far.
    pub fn stats(&self) -> RaceStats {
        self.stats
    }

    /// The first desync ggrs reported.
    pub fn desync(&self) -> Option<Desync> {
        self.desync
    }

    /// Players who left (0-based) and the tick they left at, in the order they left.
    pub fn left(&self) -> &[(usize, u64)] {
        &self.left_at
    }

    fn events(&mut self) {
        let events: Vec<_> = self.session.events().collect();
        for ev in events {
            if let GgrsEvent::DesyncDetected { frame, local_checksum, remote_checksum, .. } = ev {
                self.stats.desyncs += 1;
                // ggrs compares the checksum of frame F's save: the world after tick F.
                self.desync.get_or_insert(Desync {
                    tick: u64::try_from(frame).unwrap_or(0),
                    local: local_checksum as u64,
                    remote: remote_checksum as u64,
                });
            }
        }
    }
}

/// `later` after `earlier` in one tick: held and the stick as `later` has them, every press
/// of either (a one-shot press fires once, in the tick the session takes).
fn merge(earlier: TickInput, later: TickInput) -> TickInput {
    let mut m = later;
    for (p, e) in m.pressed.iter_mut().zip(earlier.pressed) {
        *p |= e;
    }
    m
}

impl<A: Clone + PartialEq + Eq + Hash + Debug + 'static> TickDriver for RaceDriver<A> {
    fn tick(&mut self, inputs: &[TickInput], sim: &mut dyn RollbackSim) -> bool {
        let mut local = inputs.get(self.me).copied().unwrap_or_default();
        if let Some(c) = self.carry.take() {
            local = merge(c, local);
        }
        let frame = self.session.current_frame();
        if self.given_for == Some(frame) {
            // ggrs keeps the first input given for a frame: hold this one for the next.
            self.carry = Some(local);
        }
        self.given_for = Some(frame);
        self.adapt(frame);
        let given = NetInput::from(&local);
        self.last_pressed = given.pressed != 0;
        // Only a local handle fails here, and `me` is the local one.
        let _ = self.session.add_local_input(self.me, given);
        let requests = match self.session.advance_frame() {
            Ok(r) => r,
            Err(_) => {
                // Not synchronised yet, or a peer is gone mid-request: no tick this time.
                self.stats.stalled_frames += 1;
                self.events();
                return false;
            }
        };
        let mut at = frame;
        let mut advanced = false;
        let mut scratch = Vec::with_capacity(self.players);
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    let (world, hash) = sim.save();
                    self.hashes.insert(u64::try_from(frame).unwrap_or(0), hash);
                    cell.save(frame, Some(world), Some(u128::from(hash)));
                }
                GgrsRequest::LoadGameState { cell, frame: to } => {
                    if let Some(world) = cell.load() {
                        sim.load(&world);
                    }
                    self.stats.rollbacks += 1;
                    self.last_rollback = u64::try_from(frame - to).unwrap_or(0);
                    self.stats.max_rollback = self.stats.max_rollback.max(self.last_rollback);
                    at = to;
                }
                GgrsRequest::AdvanceFrame { inputs: given } => {
                    scratch.clear();
                    let mut row = [NetInput::default(); MAX_PLAYERS];
                    let mut left = 0u8;
                    for (k, (input, status)) in given.iter().enumerate().take(MAX_PLAYERS) {
                        row[k] = *input;
                        scratch.push(input.to_tick_input());
                        if *status == InputStatus::Disconnected {
                            left |= 1 << k;
                        }
                    }
                    let tick = u64::try_from(at).unwrap_or(0) + 1;
                    let newly = left & !self.left;
                    if newly != 0 && at == frame {
                        self.left |= newly;
                        let gone = (0..self.players).filter(|k| newly & (1 << k) != 0);
                        self.left_at.extend(gone.map(|k| (k, tick)));
                    }
                    sim.advance(&scratch, left);
                    let i = usize::try_from(at).unwrap_or(0);
                    if self.inputs.len() <= i {
                        self.inputs.resize(i + 1, [NetInput::default(); MAX_PLAYERS]);
                    }
                    self.inputs[i] = row;
                    if at == frame {
                        advanced = true;
                    } else {
                        self.stats.resimulated_ticks += 1;
                    }
                    at += 1;
                }
            }
        }
        if !advanced {
            self.stats.stalled_frames += 1;
        }
        self.events();
        advanced
    }
}
