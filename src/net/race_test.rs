//! Test support (compiled for tests only): N ggrs P2P sessions on one [`Hub`], a tiny
//! deterministic game folded from every player's [`NetInput`], and a loop stepping them on a
//! simulated 60 Hz clock. The codec's and the link's tests share it.
//!
//! Clock: simulated network time in integer nanoseconds (one frame = 16,666,667 ns), advanced
//! by [`Race::step`]; ggrs's own timers run on the real clock, which the loop lets pass (1 ms
//! of sleep a frame) only while a session is still synchronizing.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Duration;

use ggrs::{
    Config, DesyncDetection, GgrsError, GgrsEvent, GgrsRequest, Message, NonBlockingSocket, P2PSession,
    PlayerType, PredictRepeatLast, SessionBuilder, SessionState,
};

use super::codec::{self, NetInput};
use super::link::{Hub, LinkSocket, LinkSpec};

/// One frame of the simulated clock, in ns.
pub(crate) const FRAME_NS: u64 = 16_666_667;

/// The test sessions' ggrs configuration.
pub(crate) struct TestConfig;

impl Config for TestConfig {
    type Input = NetInput;
    type InputPredictor = PredictRepeatLast;
    type State = Game;
    type Address = usize;
}

/// The tiny game: a frame counter and a 64-bit value folded with every player's input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Game {
    pub frame: i32,
    pub value: u64,
}

impl Game {
    fn step(&mut self, inputs: &[(NetInput, ggrs::InputStatus)]) {
        for (player, (input, _)) in inputs.iter().enumerate() {
            let x = u64::from(input.held)
                | u64::from(input.pressed) << 8
                | u64::from(input.stick as u8) << 16
                | (player as u64) << 24;
            self.value = (self.value ^ x).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(17);
        }
        self.frame += 1;
    }
}

/// Player `player`'s scripted input at frame `frame`.
pub(crate) fn script(player: usize, frame: i32) -> NetInput {
    let f = frame.max(0) as u32;
    let p = player as u32;
    NetInput {
        held: ((f / (5 + 3 * p)) % 32) as u8,
        pressed: if f.is_multiple_of(11 + p) { 1 << 4 } else { 0 },
        stick: ((f * 13 + p * 50) % 255) as i32 as i8,
    }
}

/// Every datagram sent, as (sender, bytes), in order.
pub(crate) type Log = Rc<RefCell<Vec<(usize, Vec<u8>)>>>;

/// A socket that records every datagram it sends.
struct Tap {
    inner: LinkSocket,
    log: Log,
}

impl NonBlockingSocket<usize> for Tap {
    fn send_to(&mut self, msg: &Message, addr: &usize) {
        self.log.borrow_mut().push((self.inner.address(), codec::encode(msg)));
        self.inner.send_to(msg, addr);
    }

    fn receive_all_messages(&mut self) -> Vec<(usize, Message)> {
        self.inner.receive_all_messages()
    }
}

/// ggrs's own UDP socket's receiving, on the hub: plain `bincode::deserialize`, no checks. To
/// show what the codec keeps from ggrs.
struct Raw {
    hub: Hub,
    me: usize,
    log: Log,
}

impl NonBlockingSocket<usize> for Raw {
    fn send_to(&mut self, msg: &Message, addr: &usize) {
        self.log.borrow_mut().push((self.me, codec::encode(msg)));
        self.hub.send(self.me, *addr, codec::encode(msg));
    }

    fn receive_all_messages(&mut self) -> Vec<(usize, Message)> {
        let due = self.hub.take_due(self.me);
        due.into_iter().filter_map(|(from, b)| bincode::deserialize(&b).ok().map(|m| (from, m))).collect()
    }
}

/// Which socket the peers use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wire {
    /// [`LinkSocket`].
    Link,
    /// [`LinkSocket`], every datagram sent recorded in [`Race::sent`].
    Tap,
    /// No codec checks (ggrs's own socket's decoding); every datagram sent recorded.
    Raw,
}

/// One peer: its session, game and what happened to it.
pub(crate) struct Peer {
    pub session: P2PSession<TestConfig>,
    pub game: Game,
    pub me: usize,
    /// The value after each simulated frame (rewritten by resimulation).
    pub history: BTreeMap<i32, u64>,
    /// `confirmed_frame()` right after the last successful `advance_frame`, capped at the last
    /// simulated frame (what `history` is final for).
    pub confirmed: i32,
    pub frames_advanced: u32,
    pub stalls: u32,
    pub rollbacks: u32,
    pub desyncs: u32,
    pub disconnects: u32,
}

/// N peers on one hub.
pub(crate) struct Race {
    pub hub: Hub,
    pub peers: Vec<Peer>,
    pub now_ns: u64,
    /// Every datagram sent, in order, unless the wire is [`Wire::Link`].
    pub sent: Log,
}

impl Race {
    /// `players` peers (player k at address k) over `spec`, with the race's session settings.
    pub fn new(spec: LinkSpec, players: usize, wire: Wire) -> Race {
        let hub = Hub::new(spec, players);
        let sent: Log = Rc::new(RefCell::new(Vec::new()));
        let peers = (0..players)
            .map(|me| {
                let mut b = SessionBuilder::<TestConfig>::new()
                    .with_num_players(players)
                    .expect("players")
                    .with_input_delay(2)
                    .with_max_prediction_window(8)
                    .with_desync_detection_mode(DesyncDetection::On { interval: 1 })
                    // ggrs's timeout runs on the real clock; a loaded test machine may pause
                    // this thread longer than the default 2 s.
                    .with_disconnect_timeout(Duration::from_secs(20))
                    .with_disconnect_notify_delay(Duration::from_secs(10));
                for other in 0..players {
                    let kind = if other == me { PlayerType::Local } else { PlayerType::Remote(other) };
                    b = b.add_player(kind, other).expect("player");
                }
                let socket = LinkSocket::new(&hub, me, players, true);
                let session = match wire {
                    Wire::Link => b.start_p2p_session(socket),
                    Wire::Tap => b.start_p2p_session(Tap { inner: socket, log: sent.clone() }),
                    Wire::Raw => b.start_p2p_session(Raw { hub: hub.clone(), me, log: sent.clone() }),
                }
                .expect("session");
                Peer {
                    session,
                    game: Game::default(),
                    me,
                    history: BTreeMap::new(),
                    confirmed: -1,
                    frames_advanced: 0,
                    stalls: 0,
                    rollbacks: 0,
                    desyncs: 0,
                    disconnects: 0,
                }
            })
            .collect();
        Race { hub, peers, now_ns: 0, sent }
    }

    /// One frame of the simulated clock: every peer polls, and advances when running.
    pub fn step(&mut self) {
        self.now_ns += FRAME_NS;
        self.hub.set_time(self.now_ns);
        let mut synchronizing = false;
        for peer in &mut self.peers {
            peer.session.poll_remote_clients();
            for event in peer.session.events() {
                match event {
                    GgrsEvent::DesyncDetected { .. } => peer.desyncs += 1,
                    GgrsEvent::Disconnected { .. } => peer.disconnects += 1,
                    _ => {}
                }
            }
            if peer.session.current_state() != SessionState::Running {
                synchronizing = true;
                continue;
            }
            let frame = peer.session.current_frame();
            peer.session.add_local_input(peer.me, script(peer.me, frame)).expect("local input");
            match peer.session.advance_frame() {
                Ok(requests) => {
                    peer.handle(requests);
                    peer.frames_advanced += 1;
                    let last_simulated = peer.game.frame - 1;
                    peer.confirmed = peer.session.confirmed_frame().min(last_simulated);
                }
                Err(GgrsError::PredictionThreshold) => peer.stalls += 1,
                Err(e) => panic!("peer {}: {e}", peer.me),
            }
        }
        if synchronizing {
            // Sync retries fire after 200 ms of real time.
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Step until every peer has advanced `frames` frames (at most `limit` steps).
    pub fn run(&mut self, frames: u32, limit: u32) {
        for _ in 0..limit {
            if self.peers.iter().all(|p| p.frames_advanced >= frames) {
                return;
            }
            self.step();
        }
        panic!("race did not reach {frames} frames in {limit} steps");
    }

    /// The latest frame every peer has confirmed and simulated, and each peer's value there.
    pub fn common_confirmed(&self) -> (i32, Vec<Option<u64>>) {
        let frame = self.peers.iter().map(|p| p.confirmed).min().unwrap_or(-1);
        (frame, self.peers.iter().map(|p| p.history.get(&frame).copied()).collect())
    }
}

impl Peer {
    fn handle(&mut self, requests: Vec<GgrsRequest<TestConfig>>) {
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    assert_eq!(frame, self.game.frame);
                    cell.save(frame, Some(self.game), Some(u128::from(self.game.value)));
                }
                GgrsRequest::LoadGameState { cell, frame } => {
                    self.game = cell.load().expect("saved state");
                    assert_eq!(frame, self.game.frame);
                    self.rollbacks += 1;
                }
                GgrsRequest::AdvanceFrame { inputs } => {
                    self.game.step(&inputs);
                    self.history.insert(self.game.frame - 1, self.game.value);
                }
            }
        }
    }
}

#[test]
fn the_input_delay_a_ping_asks_for() {
    use super::race::{INPUT_DELAY, MAX_INPUT_DELAY, delay_for_ping};
    assert_eq!(delay_for_ping(0, 60), INPUT_DELAY, "a LAN keeps the least");
    assert_eq!(delay_for_ping(120, 60), INPUT_DELAY, "60 ms one way: 3.6 + 4 ticks fit in 2 + 8");
    assert_eq!(delay_for_ping(300, 60), 5, "150 ms one way: 9 + 4 = 13 ticks = 5 + 8");
    assert_eq!(delay_for_ping(10_000, 60), MAX_INPUT_DELAY, "never past the most");
    assert_eq!(
        delay_for_ping(300, 120),
        MAX_INPUT_DELAY,
        "ticks are shorter at 120 Hz: 18 + 4 − 8 = 14, clamped"
    );
}
