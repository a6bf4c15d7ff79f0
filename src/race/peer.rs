//! One peer of an online race as a state machine polled once a frame, whatever drives the
//! frames (the headless peer's 60 Hz wall-clock loop, the browser page's animation frames)
//! and whatever carries the datagrams ([`Transport`]: UDP, a matchbox room).
//!
//! Clock: the wall clock (`web_time::Instant`, monotonic), read by the caller and passed to
//! [`RacePeer::poll`]; the race's own clock counts from the moment ggrs's session runs (every
//! peer synchronised). The phases:
//!
//! 1. **Gathering**: the transport names the players in order ([`Transport::roster`]; a room
//!    waits until it is full).
//! 2. **Meeting**: the handshake ([`crate::net::handshake`]), a hello every 100 ms until every
//!    peer has heard every other; a difference refuses, after 1 s more of hellos so the others
//!    refuse too.
//! 3. **Syncing**: ggrs's synchronisation.
//! 4. **Countdown** ([`COUNTDOWN`], on every peer): the session kept alive, no tick; the
//!    race's clock starts at its end.
//! 5. **Racing**: each frame feeds the autoplay script's edges that are due into the loop,
//!    whose ticks ggrs drives ([`crate::net::race`]); with an end tick the race ends once every
//!    peer still racing has confirmed it (or 3 s after it, with what was confirmed).

use super::Refused;
use crate::game_loop::{FrameStats, Loop};
use crate::input::InputEvent;
use crate::lab::race_record::race_record;
use crate::lab::script::LevelSource;
use crate::net::handshake::Hello;
use crate::net::race::{DISCONNECT_TIMEOUT_S, INPUT_DELAY, PREDICTION_WINDOW, RaceConfig, RaceDriver};
use crate::net::transport::{Roster, Transport};
use ggrs::{DesyncDetection, PlayerType, SessionBuilder, SessionState};
use serde::Serialize;
use std::time::Duration;
use web_time::Instant;

/// How long the handshake and ggrs's synchronisation may take once the players are known
/// before the race is given up: 30 s (a peer started by hand may be late).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long an end tick waits for the peers to confirm it (NET.md: 3 s).
const CONFIRM_WAIT: Duration = Duration::from_secs(3);

/// The countdown between every peer synchronised and the race's start, the same on every peer
/// (headless included) so that they start together: 3 s ("3, 2, 1" in a window or page).
pub const COUNTDOWN: Duration = Duration::from_secs(3);

/// Time sync: while ahead, the race clock loses 1/10 of each frame's wall time (runs at 90 %).
const SLOWDOWN_DIVISOR: u64 = 10;

/// How often a hello is sent while meeting: every 100 ms.
const HELLO_EVERY: Duration = Duration::from_millis(100);

/// How long a peer that refuses the handshake keeps sending its hello, so that every other
/// peer hears the difference and refuses too: 1 s.
const REFUSE_FOR: Duration = Duration::from_secs(1);

/// What the race's end reports: the summary line's and the `net:` line's fields (NET.md "Command
/// line"; the browser's `window.ledgeRaceSummary`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RaceSummary {
    /// Frames polled while racing.
    pub frames: u64,
    /// Ticks simulated (the loop's tick at the end, prediction included).
    pub ticks: u64,
    /// Jumps, all players (the world's count at the end).
    pub jumps: u64,
    /// Respawns, all players.
    pub respawns: u64,
    /// `state_hash` of the end tick, 16 hex digits.
    pub state_hash: String,
    /// The end tick: the last tick confirmed with every peer still racing (with an end tick:
    /// the earlier of it and the confirmed tick).
    pub confirmed_tick: u64,
    /// This peer's player, 1-based.
    pub player: usize,
    /// The largest round trip to a peer ggrs measured, ms.
    pub ping_ms: u128,
    /// Ticks of input delay.
    pub input_delay: usize,
    /// Rollbacks.
    pub rollbacks: u64,
    /// The deepest rollback, ticks.
    pub max_rollback: u64,
    /// Ticks simulated again after rollbacks.
    pub resimulated: u64,
    /// Frames in which the session waited for the others.
    pub stalls: u64,
    /// Desyncs (0 after a race that ended normally).
    pub desyncs: u64,
    /// Datagrams dropped (strangers, undecodable).
    pub dropped: u64,
    /// Bytes this peer sent.
    pub bytes_sent: u64,
    /// From joining (the peer created) to every peer synchronised (the countdown's start),
    /// ms; 0 when the race never got there.
    pub join_ms: u64,
}

impl RaceSummary {
    /// The two exit lines (NET.md).
    pub fn lines(&self) -> Vec<String> {
        vec![
            format!(
                "ledge: frames={} ticks={} jumps={} respawns={} state_hash={} confirmed_tick={}",
                self.frames, self.ticks, self.jumps, self.respawns, self.state_hash, self.confirmed_tick
            ),
            format!(
                "net: player={} ping_ms={} input_delay={} rollbacks={} max_rollback={} resimulated={} stalls={} desyncs={} dropped={} bytes_sent={} join_ms={}",
                self.player,
                self.ping_ms,
                self.input_delay,
                self.rollbacks,
                self.max_rollback,
                self.resimulated,
                self.stalls,
                self.desyncs,
                self.dropped,
                self.bytes_sent,
                self.join_ms
            ),
        ]
    }
}

/// When every runner has finished or left: the tick of the last finish (the current tick when
/// nobody finished); `None` while someone races.
fn all_done(world: &crate::sim::World) -> Option<u64> {
    let done = (0..world.players()).all(|k| {
        let r = world.runner_view(k);
        r.level_complete || r.left
    });
    done.then(|| {
        (0..world.players()).filter_map(|k| world.runner_view(k).finished_at).max().unwrap_or(world.tick)
    })
}

/// How a race ended: the summary and the race's confirmed inputs as a lab script.
#[derive(Clone, Debug)]
pub struct RaceEnd {
    /// The exit lines' fields.
    pub summary: RaceSummary,
    /// `--record`'s script (LAB.md Version 4), up to the end tick.
    pub record: String,
}

/// Where a peer is, for its caller (the page's status line, the headless loop).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Waiting for the players (a room filling): how many are there, this peer included.
    Gathering(usize),
    /// The handshake and ggrs's synchronisation.
    Connecting,
    /// Every peer synchronised: the race starts in this many ms.
    Countdown(u64),
    /// Racing: the tick the loop is at.
    Racing(u64),
}

/// What one [`RacePeer::poll`] came to.
#[derive(Debug)]
pub enum Polled {
    /// Still going.
    Going(Progress),
    /// The race is over.
    Ended(Box<RaceEnd>),
}

/// One peer's race.
pub struct RacePeer<T: Transport> {
    level: LevelSource,
    transport: T,
    players: usize,
    roster: Option<Roster<T::Addr>>,
    hello: Option<Hello>,
    theirs: Vec<Option<Hello>>,
    gathering_since: Instant,
    connecting_since: Option<Instant>,
    last_hello: Option<Instant>,
    refusing: Option<(String, Instant)>,
    driver: Option<RaceDriver<T::Addr>>,
    race_start: Option<Instant>,
    synced_at: Option<Instant>,
    edges: Vec<(u64, InputEvent)>,
    next_edge: usize,
    end_tick: Option<u64>,
    reached: Option<Instant>,
    announced: usize,
    frames: u64,
    notices: Vec<String>,
    gather_timeout: Option<Duration>,
    last_frame: FrameStats,
    /// Time sync: ns the race clock has held back from the wall clock, and the wall clock at
    /// the last frame.
    slowed_ns: u64,
    last_wall_ns: u64,
}

impl<T: Transport> RacePeer<T> {
    /// A peer racing `players` over `transport`, on a loop set up for them (level, tuning,
    /// players) that the caller keeps and passes to [`RacePeer::poll`]; `level` is the level line of its record; `edges` are the autoplay edges on
    /// the race's clock (ns from the start, in order); `end_tick` the tick `--exit-after`
    /// ends at; `gather_timeout` how long to wait for the players (`None`: as long as it
    /// takes).
    pub fn new(
        level: LevelSource,
        transport: T,
        players: usize,
        edges: Vec<(u64, InputEvent)>,
        end_tick: Option<u64>,
        gather_timeout: Option<Duration>,
    ) -> Self {
        RacePeer {
            level,
            transport,
            players,
            roster: None,
            hello: None,
            theirs: vec![None; players],
            gathering_since: Instant::now(),
            connecting_since: None,
            last_hello: None,
            refusing: None,
            driver: None,
            race_start: None,
            synced_at: None,
            edges,
            next_edge: 0,
            end_tick,
            reached: None,
            announced: 0,
            frames: 0,
            notices: Vec::new(),
            gather_timeout,
            last_frame: FrameStats::default(),
            slowed_ns: 0,
            last_wall_ns: 0,
        }
    }

    /// This peer's player (0-based), once the players are known.
    pub fn me(&self) -> Option<usize> {
        self.roster.as_ref().map(|r| r.0)
    }

    /// The lines to show since the last call (`net: player K left at tick T`).
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// The loop's last frame while racing (the F3 overlay's sample).
    pub fn last_frame(&self) -> FrameStats {
        self.last_frame
    }

    /// The network panel's line (NET.md: F3): the largest round trip to a peer, the input
    /// delay, the last and the largest rollback, the stalled frames; `None` before the
    /// session exists.
    pub fn panel(&mut self) -> Option<String> {
        let driver = self.driver.as_ref()?;
        let ping = driver.ping_ms();
        let s = driver.stats();
        Some(format!(
            "net: ping {ping} ms · input delay {} · rollback {} (largest {}) · stalls {}",
            driver.input_delay(),
            driver.last_rollback(),
            s.max_rollback,
            s.stalled_frames
        ))
    }

    /// The ns since the race started, on the race's clock (0 before it).
    pub fn race_clock_ns(&self, now: Instant) -> u64 {
        self.wall_race_ns(now).saturating_sub(self.slowed_ns)
    }

    /// Wall ns since the race started (0 before it).
    fn wall_race_ns(&self, now: Instant) -> u64 {
        self.race_start.map_or(0, |s| now.saturating_duration_since(s).as_nanos() as u64)
    }

    /// Do what is due at `now`: read the network, send, and once racing, run the frame of
    /// `lp` (the race's loop; the local player's input latched into it as player `me`).
    ///
    /// # Errors
    /// [`Refused`]: the transport failed, the handshake found a difference, the peers never
    /// answered (exit status 2), or a desync (3, with the confirmed inputs in `record`).
    pub fn poll(&mut self, lp: &mut Loop, now: Instant) -> Result<Polled, Refused> {
        if let Some((why, until)) = &self.refusing {
            if now >= *until {
                return Err(Refused::new(format!("handshake refused: {why}")));
            }
            self.send_hello(now);
            return Ok(Polled::Going(Progress::Connecting));
        }
        if self.roster.is_none() {
            return self.gather(lp, now);
        }
        if self.driver.is_none() {
            return self.meet(lp, now);
        }
        if self.race_start.is_none() {
            return self.sync(now);
        }
        if let Some(left) = self.race_start.and_then(|s| s.checked_duration_since(now)) {
            // The countdown: keep the session alive, run no tick.
            self.driver.as_mut().expect("met").session().poll_remote_clients();
            return Ok(Polled::Going(Progress::Countdown(left.as_millis() as u64)));
        }
        self.race(lp, now)
    }

    fn gather(&mut self, lp: &Loop, now: Instant) -> Result<Polled, Refused> {
        match self.transport.roster().map_err(Refused::new)? {
            Some((me, addrs)) => {
                self.hello = Some(Hello::new(
                    lp.level(),
                    lp.tuning(),
                    lp.config().tick_hz,
                    me as u8,
                    self.players as u8,
                ));
                self.roster = Some((me, addrs));
                self.connecting_since = Some(now);
                Ok(Polled::Going(Progress::Connecting))
            }
            None => {
                if let Some(limit) = self.gather_timeout
                    && now.saturating_duration_since(self.gathering_since) > limit
                {
                    return Err(Refused::new(format!(
                        "{} within {} s",
                        self.transport.gathering_line(),
                        limit.as_secs()
                    )));
                }
                Ok(Polled::Going(Progress::Gathering(self.transport.gathered())))
            }
        }
    }

    fn send_hello(&mut self, now: Instant) {
        if self.last_hello.is_none_or(|t| now.saturating_duration_since(t) >= HELLO_EVERY) {
            if let Some(h) = &self.hello {
                self.transport.send_hello(h);
            }
            self.last_hello = Some(now);
        }
    }

    fn timed_out(&self, now: Instant) -> bool {
        self.connecting_since.is_some_and(|s| now.saturating_duration_since(s) > CONNECT_TIMEOUT)
    }

    fn meet(&mut self, lp: &Loop, now: Instant) -> Result<Polled, Refused> {
        let (me, addrs) = self.roster.clone().expect("gathered");
        let players = self.players;
        let all = ((1u16 << players) - 1) as u8;
        for (from, h) in self.transport.take_hellos() {
            let Some(k) = addrs.iter().position(|a| a.as_ref() == Some(&from)) else { continue };
            let hello = self.hello.as_mut().expect("gathered");
            if let Some(why) = hello.differs(&h, k as u8, &self.transport.peer_name(&from)) {
                self.refusing = Some((why, now + REFUSE_FOR));
                return Ok(Polled::Going(Progress::Connecting));
            }
            hello.heard |= 1 << k;
            self.theirs[k] = Some(h);
        }
        let hello = self.hello.as_ref().expect("gathered");
        let heard_all = self
            .theirs
            .iter()
            .enumerate()
            .all(|(k, h)| k == me || h.as_ref().is_some_and(|h| h.heard == all));
        if heard_all && hello.heard == all {
            self.driver = Some(self.start_session(lp, me, &addrs)?);
            return Ok(Polled::Going(Progress::Connecting));
        }
        if self.timed_out(now) {
            let silent: Vec<String> = (0..players)
                .filter(|&k| k != me && self.theirs[k].is_none())
                .map(|k| match &addrs[k] {
                    Some(a) => format!("player {} ({})", k + 1, self.transport.peer_name(a)),
                    None => format!("player {}", k + 1),
                })
                .collect();
            let who = if silent.is_empty() { "every peer".to_string() } else { silent.join(", ") };
            return Err(Refused::new(format!("no answer from {who} within {} s", CONNECT_TIMEOUT.as_secs())));
        }
        self.send_hello(now);
        Ok(Polled::Going(Progress::Connecting))
    }

    fn start_session(
        &self,
        lp: &Loop,
        me: usize,
        addrs: &[Option<T::Addr>],
    ) -> Result<RaceDriver<T::Addr>, Refused> {
        let fail = |e: ggrs::GgrsError| Refused::new(format!("rollback session: {e}"));
        let mut builder = SessionBuilder::<RaceConfig<T::Addr>>::new()
            .with_num_players(self.players)
            .and_then(|b| b.with_fps(lp.config().tick_hz as usize))
            .map_err(fail)?
            .with_input_delay(INPUT_DELAY)
            .with_max_prediction_window(PREDICTION_WINDOW)
            .with_desync_detection_mode(DesyncDetection::On { interval: 1 })
            .with_disconnect_timeout(Duration::from_secs(DISCONNECT_TIMEOUT_S))
            .with_disconnect_notify_delay(Duration::from_secs(1));
        for (k, a) in addrs.iter().enumerate() {
            let kind = match a {
                None => PlayerType::Local,
                Some(addr) => PlayerType::Remote(addr.clone()),
            };
            builder = builder.add_player(kind, k).map_err(fail)?;
        }
        let session = builder.start_p2p_session(self.transport.clone()).map_err(fail)?;
        let mut driver = RaceDriver::new(session, me);
        driver.adapt_input_delay(lp.config().tick_hz);
        Ok(driver)
    }

    fn sync(&mut self, now: Instant) -> Result<Polled, Refused> {
        if self.timed_out(now) {
            return Err(Refused::new("the peers did not synchronise within 30 s"));
        }
        // Late peers still in the handshake need this peer's hello.
        self.send_hello(now);
        let driver = self.driver.as_mut().expect("met");
        driver.session().poll_remote_clients();
        if driver.session().current_state() == SessionState::Running {
            self.synced_at = Some(now);
            self.race_start = Some(now + COUNTDOWN);
            return Ok(Polled::Going(Progress::Countdown(COUNTDOWN.as_millis() as u64)));
        }
        Ok(Polled::Going(Progress::Connecting))
    }

    fn race(&mut self, lp: &mut Loop, now: Instant) -> Result<Polled, Refused> {
        self.frames += 1;
        // Time sync (NET.md "Time"): while ggrs estimates this peer more than a tick ahead of
        // the others, its race clock runs at 90 % of the wall clock until it is level again:
        // never a frozen frame, never an extrapolated one.
        let wall = self.wall_race_ns(now);
        let dt = wall.saturating_sub(self.last_wall_ns);
        self.last_wall_ns = wall;
        if self.driver.as_ref().is_some_and(|d| d.frames_ahead() > 1) {
            self.slowed_ns += dt / SLOWDOWN_DIVISOR;
        }
        let t = self.race_clock_ns(now);
        let me = self.me().expect("gathered") as u8;
        while let Some(&(at, ev)) = self.edges.get(self.next_edge).filter(|(at, _)| *at <= t) {
            lp.push_event_for(me, at, ev);
            self.next_edge += 1;
        }
        let driver = self.driver.as_mut().expect("met");
        self.last_frame = lp.frame_driven(t, driver);
        for &(k, tick) in &driver.left()[self.announced..] {
            self.notices.push(format!("net: player {} left at tick {tick}", k + 1));
        }
        self.announced = driver.left().len();
        if let Some(d) = driver.desync() {
            return Err(Refused {
                line: format!(
                    "desync at tick {}: this peer {:016x}, another {:016x}",
                    d.tick, d.local, d.remote
                ),
                code: 3,
                record: Some(race_record(&self.level, lp, driver, d.tick)),
            });
        }
        // With no end tick, the race ends once every runner has finished or left: at the tick
        // of the last finish, once that finish is confirmed (every peer picks the same tick).
        if self.end_tick.is_none()
            && let Some(last) = all_done(lp.world())
            && driver.confirmed_tick() >= last
        {
            self.end_tick = Some(last);
        }
        if let Some(target) = self.end_tick
            && lp.world().tick >= target
        {
            let when = *self.reached.get_or_insert(now);
            if (driver.confirmed_tick() >= target && lp.world().tick > target)
                || now.saturating_duration_since(when) > CONFIRM_WAIT
            {
                return Ok(Polled::Ended(Box::new(self.end(lp))));
            }
        }
        Ok(Polled::Going(Progress::Racing(lp.world().tick)))
    }

    /// End the race now, at the last tick every peer still racing confirmed (or the end tick,
    /// when earlier): the summary and the record. Before the race runs: tick 0.
    pub fn end(&mut self, lp: &Loop) -> RaceEnd {
        let join_ms = self
            .synced_at
            .map_or(0, |t| t.saturating_duration_since(self.gathering_since).as_millis() as u64);
        let me = self.me().unwrap_or(0);
        let counts = self.transport.counts();
        let w = lp.world();
        let (ticks, jumps, respawns) = (w.tick, w.jumps, w.respawns);
        let Some(driver) = self.driver.as_mut() else {
            return RaceEnd {
                summary: RaceSummary {
                    frames: self.frames,
                    ticks,
                    jumps,
                    respawns,
                    state_hash: format!("{:016x}", lp.world().state_hash()),
                    confirmed_tick: 0,
                    player: me + 1,
                    ping_ms: 0,
                    input_delay: INPUT_DELAY,
                    rollbacks: 0,
                    max_rollback: 0,
                    resimulated: 0,
                    stalls: 0,
                    desyncs: 0,
                    dropped: counts.dropped(),
                    bytes_sent: counts.bytes_sent,
                    join_ms,
                },
                record: String::new(),
            };
        };
        let end = self.end_tick.map_or(driver.confirmed_tick(), |t| t.min(driver.confirmed_tick()));
        let hash = driver.hash_at(end).unwrap_or(0);
        let ping = driver.ping_ms();
        let s = driver.stats();
        RaceEnd {
            summary: RaceSummary {
                frames: self.frames,
                ticks,
                jumps,
                respawns,
                state_hash: format!("{hash:016x}"),
                confirmed_tick: end,
                player: me + 1,
                ping_ms: ping,
                input_delay: driver.input_delay(),
                rollbacks: s.rollbacks,
                max_rollback: s.max_rollback,
                resimulated: s.resimulated_ticks,
                stalls: s.stalled_frames,
                desyncs: s.desyncs,
                dropped: counts.dropped(),
                bytes_sent: counts.bytes_sent,
                join_ms,
            },
            record: race_record(&self.level, lp, driver, end),
        }
    }
}
