//! The race in a room (`--net ws://HOST:PORT/ROOM --players N`, the browser page's `?net=`,
//! NET.md): matchbox's WebRTC socket, one unreliable data channel to every peer of the room,
//! met through a signaling server (`ledge serve`). The room's players are ordered by their
//! peer ids (every peer sorts the same ids), so no one has to agree on an order beforehand.
//!
//! Clock: none of its own; polled by the race's loop. matchbox's message loop runs beside it:
//! natively on a thread of its own (`block_on`; webrtc-rs runs its connections on smol's
//! executor), in the browser as a promise (`spawn_local`).
//!
//! The adapter is Ledge's, not matchbox's `ggrs` feature: that one `expect()`s on a datagram it
//! cannot decode. Here a datagram from a peer outside the race, with an unknown tag or that does
//! not decode is dropped and counted ([`super::tagged::Tagged`]), never a panic.
//!
//! ICE: no STUN or TURN server unless given (`--ice URL`): loopback and a LAN connect on host
//! candidates; the internet needs STUN, and TURN behind symmetric NATs.

use super::handshake::Hello;
use super::tagged::{Counts, Tagged, ggrs_datagram, hello_datagram};
use super::transport::{Roster, Transport};
use ggrs::{Message, NonBlockingSocket};
use matchbox_socket::{
    ChannelConfig, MessageLoopFuture, PeerId, PeerState, RtcIceServerConfig, WebRtcSocket,
};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

/// The race's room socket.
pub struct RoomTransport {
    socket: WebRtcSocket,
    url: String,
    room: String,
    players: usize,
    /// The other peers connected so far, in the order they came.
    connected: Vec<PeerId>,
    /// Set once the room is full: this peer's index and every player's id.
    roster: Option<Roster<PeerId>>,
    tagged: Tagged<PeerId>,
    /// How matchbox's message loop ended, when it has (a refusal, a lost server).
    ended: Arc<Mutex<Option<String>>>,
}

impl std::fmt::Debug for RoomTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RoomTransport").field("url", &self.url).field("players", &self.players).finish()
    }
}

/// The query a race adds to its room's URL: the room's size, so that `ledge serve` refuses a
/// peer of a full room or of a race that has begun.
pub fn room_url(url: &str, players: usize) -> String {
    format!("{url}?players={players}")
}

impl RoomTransport {
    /// Join `url`'s room `room` for a race of `players`, with the STUN/TURN servers `ice`
    /// (none by default), and start matchbox's message loop.
    pub fn connect(url: &str, room: &str, players: usize, ice: &[String]) -> RoomTransport {
        let ice = RtcIceServerConfig { urls: ice.to_vec(), username: None, credential: None };
        let (socket, message_loop) = WebRtcSocket::builder(room_url(url, players))
            .ice_server(ice)
            .add_channel(ChannelConfig::unreliable())
            // One attempt: a refused peer retrying later could join the room's next race.
            .reconnect_attempts(Some(1))
            .build();
        let ended = Arc::new(Mutex::new(None));
        spawn_message_loop(message_loop, Arc::clone(&ended));
        RoomTransport {
            socket,
            url: url.to_string(),
            room: room.to_string(),
            players,
            connected: Vec::new(),
            roster: None,
            tagged: Tagged::new(Vec::new(), players),
            ended,
        }
    }

    /// Peers that came and went since the last call: kept while the room fills; once the race
    /// is set, newcomers are strangers (their datagrams are dropped and counted).
    fn update(&mut self) {
        let Ok(changes) = self.socket.try_update_peers() else { return };
        for (id, state) in changes {
            match state {
                PeerState::Connected => {
                    if !self.connected.contains(&id) {
                        self.connected.push(id);
                    }
                }
                PeerState::Disconnected => self.connected.retain(|p| *p != id),
            }
        }
    }

    fn receive_into(&mut self, out: &mut Vec<(PeerId, Message)>) {
        self.update();
        let Ok(channel) = self.socket.get_channel_mut(0) else { return };
        for (from, packet) in channel.receive() {
            self.tagged.accept(&from, &packet, out);
        }
    }

    fn send(&mut self, d: Vec<u8>, to: PeerId) {
        self.tagged.counts.bytes_sent += d.len() as u64;
        if let Ok(channel) = self.socket.get_channel_mut(0) {
            // A peer whose channel is gone: the datagram is lost, as on UDP.
            let _ = channel.try_send(d.into(), to);
        }
    }

    fn failure(&self) -> Option<String> {
        self.ended.lock().ok().and_then(|e| e.clone())
    }
}

/// Run matchbox's message loop beside the race; its end (an error, or the socket dropped) is
/// written to `ended`.
#[cfg(not(target_arch = "wasm32"))]
fn spawn_message_loop(message_loop: MessageLoopFuture, ended: Arc<Mutex<Option<String>>>) {
    std::thread::spawn(move || {
        let result = futures::executor::block_on(message_loop);
        if let Ok(mut e) = ended.lock() {
            *e = Some(describe(result));
        }
    });
}

/// Run matchbox's message loop beside the race; its end (an error, or the socket dropped) is
/// written to `ended`.
#[cfg(target_arch = "wasm32")]
fn spawn_message_loop(message_loop: MessageLoopFuture, ended: Arc<Mutex<Option<String>>>) {
    wasm_bindgen_futures::spawn_local(async move {
        let result = message_loop.await;
        if let Ok(mut e) = ended.lock() {
            *e = Some(describe(result));
        }
    });
}

fn describe(result: Result<(), matchbox_socket::Error>) -> String {
    match result {
        Ok(()) => "the signaling server closed the connection".into(),
        Err(matchbox_socket::Error::ConnectionFailed(e)) if e.to_string().contains("401") => {
            "the server refused to join the room: it is full, its race has begun, or it races \
             another number of players (the server's log says which)"
                .into()
        }
        Err(matchbox_socket::Error::ConnectionFailed(e)) => format!("cannot join: {e}"),
        Err(matchbox_socket::Error::Disconnected(e)) => format!("the signaling server went away: {e}"),
    }
}

/// The room socket shared by the race (the handshake, the counts) and ggrs's session.
#[derive(Clone, Debug)]
pub struct SharedRoom(pub Rc<RefCell<RoomTransport>>);

impl SharedRoom {
    /// [`RoomTransport::connect`], shared.
    pub fn connect(url: &str, room: &str, players: usize, ice: &[String]) -> SharedRoom {
        SharedRoom(Rc::new(RefCell::new(RoomTransport::connect(url, room, players, ice))))
    }
}

impl NonBlockingSocket<PeerId> for SharedRoom {
    fn send_to(&mut self, msg: &Message, addr: &PeerId) {
        self.0.borrow_mut().send(ggrs_datagram(msg), *addr);
    }

    fn receive_all_messages(&mut self) -> Vec<(PeerId, Message)> {
        let mut out = Vec::new();
        let mut t = self.0.borrow_mut();
        t.receive_into(&mut out);
        t.tagged.take_hellos();
        out
    }
}

impl Transport for SharedRoom {
    type Addr = PeerId;

    fn send_hello(&mut self, hello: &Hello) {
        let d = hello_datagram(hello);
        let mut t = self.0.borrow_mut();
        for to in t.tagged.peers().to_vec() {
            t.send(d.clone(), to);
        }
    }

    fn take_hellos(&mut self) -> Vec<(PeerId, Hello)> {
        let mut t = self.0.borrow_mut();
        t.receive_into(&mut Vec::new());
        t.tagged.take_hellos()
    }

    fn counts(&self) -> Counts {
        self.0.borrow().tagged.counts
    }

    fn peer_name(&self, addr: &PeerId) -> String {
        format!("peer {}", addr.to_string().get(..8).unwrap_or_default())
    }

    fn roster(&mut self) -> Result<Option<Roster<PeerId>>, String> {
        let mut t = self.0.borrow_mut();
        if let Some(r) = &t.roster {
            return Ok(Some(r.clone()));
        }
        t.update();
        if let Some(why) = t.failure() {
            return Err(format!("{}: {why}", t.url));
        }
        let Some(me) = t.socket.id() else { return Ok(None) };
        if t.connected.len() + 1 < t.players {
            return Ok(None);
        }
        if t.connected.len() + 1 > t.players {
            return Err(format!("{}: the room holds more than {} players", t.url, t.players));
        }
        let mut ids: Vec<PeerId> = t.connected.clone();
        ids.push(me);
        ids.sort();
        let k = ids.iter().position(|p| *p == me).unwrap_or(0);
        let others: Vec<PeerId> = ids.iter().copied().filter(|p| *p != me).collect();
        t.tagged.set_peers(others);
        let roster = (k, ids.into_iter().map(|p| (p != me).then_some(p)).collect());
        t.roster = Some(roster.clone());
        Ok(Some(roster))
    }

    fn gathered(&self) -> usize {
        self.0.borrow().connected.len() + 1
    }

    fn gathering_line(&self) -> String {
        let t = self.0.borrow();
        format!("room {}: {} of {} players joined", t.room, t.connected.len() + 1, t.players)
    }
}
