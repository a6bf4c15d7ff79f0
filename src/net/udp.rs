//! The race over UDP (`--net udp:PORT --peers LIST`, NET.md): one non-blocking socket carries
//! the handshake ([`super::handshake::Hello`]) and then ggrs's messages, each datagram tagged
//! by its first byte. Ledge's own adapter rather than ggrs's `UdpNonBlockingSocket`: that one
//! drops a datagram it cannot decode without a count, decodes with no size limit and none of
//! the race's checks ([`super::codec::PeerFilter`], one a peer), and cannot carry the handshake.
//!
//! Clock: none of its own; polled by the race's loop on the wall clock.
//!
//! What is dropped and counted ([`Counts`]): a datagram from an address that is not a peer of
//! this race, one with an unknown tag, one that does not decode. Nothing a datagram holds can
//! make this panic.

use super::codec::{MAX_DATAGRAM, PeerFilter, encode};
use super::handshake::Hello;
use ggrs::{Message, NonBlockingSocket};
use std::cell::RefCell;
use std::net::{SocketAddr, UdpSocket};
use std::rc::Rc;

/// First byte of a ggrs message.
const TAG_GGRS: u8 = 0;
/// First byte of a handshake hello.
const TAG_HELLO: u8 = 1;

/// Datagrams dropped, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// From an address that is not one of the race's peers.
    pub strangers: u64,
    /// That did not decode (unknown tag, malformed, refused by the codec).
    pub undecodable: u64,
    /// Datagrams received and kept.
    pub received: u64,
    /// Bytes sent.
    pub bytes_sent: u64,
}

/// The race's UDP socket.
#[derive(Debug)]
pub struct UdpTransport {
    socket: UdpSocket,
    peers: Vec<SocketAddr>,
    /// One filter per peer (the codec's per-peer rules), in `peers`' order.
    filters: Vec<PeerFilter>,
    hellos: Vec<(SocketAddr, Hello)>,
    counts: Counts,
    buf: Vec<u8>,
}

impl UdpTransport {
    /// Bind `0.0.0.0:port` (non-blocking) for a race of `players` whose other peers are at
    /// `peers`.
    ///
    /// # Errors
    /// The operating system's error when the port cannot be bound.
    pub fn bind(port: u16, peers: Vec<SocketAddr>, players: usize) -> std::io::Result<UdpTransport> {
        let socket = UdpSocket::bind(("0.0.0.0", port))?;
        socket.set_nonblocking(true)?;
        let filters = vec![PeerFilter::new(players, true); peers.len()];
        Ok(UdpTransport {
            socket,
            peers,
            filters,
            hellos: Vec::new(),
            counts: Counts::default(),
            buf: vec![0; MAX_DATAGRAM + 2],
        })
    }

    /// The dropped and received counts so far.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    fn send(&mut self, tag: u8, body: &[u8], to: &SocketAddr) {
        let mut d = Vec::with_capacity(body.len() + 1);
        d.push(tag);
        d.extend_from_slice(body);
        self.counts.bytes_sent += d.len() as u64;
        // A send that fails (no route yet, a full buffer) is a lost datagram: ggrs and the
        // handshake send again.
        let _ = self.socket.send_to(&d, to);
    }

    /// Send `hello` to every peer.
    pub fn send_hello(&mut self, hello: &Hello) {
        let body = hello.encode();
        for to in self.peers.clone() {
            self.send(TAG_HELLO, &body, &to);
        }
    }

    /// The hellos received since the last call, with their senders.
    pub fn take_hellos(&mut self) -> Vec<(SocketAddr, Hello)> {
        self.receive_into(&mut Vec::new());
        std::mem::take(&mut self.hellos)
    }

    /// Read every waiting datagram: hellos kept aside, ggrs messages into `out`.
    fn receive_into(&mut self, out: &mut Vec<(SocketAddr, Message)>) {
        loop {
            let (n, from) = match self.socket.recv_from(&mut self.buf) {
                Ok(r) => r,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                // ICMP "port unreachable" from a peer not up yet, and the like: nothing to read.
                Err(_) => break,
            };
            let Some(k) = self.peers.iter().position(|p| *p == from) else {
                self.counts.strangers += 1;
                continue;
            };
            let d = &self.buf[..n];
            match d.split_first() {
                Some((&TAG_GGRS, body)) => match self.filters[k].decode(body) {
                    Ok(m) => {
                        self.counts.received += 1;
                        out.push((from, m));
                    }
                    Err(_) => self.counts.undecodable += 1,
                },
                Some((&TAG_HELLO, body)) => match Hello::decode(body) {
                    Some(h) => {
                        self.counts.received += 1;
                        self.hellos.push((from, h));
                    }
                    None => self.counts.undecodable += 1,
                },
                _ => self.counts.undecodable += 1,
            }
        }
    }
}

/// The transport shared by the race (the handshake, the counts) and ggrs's session, which
/// owns its socket.
#[derive(Clone, Debug)]
pub struct SharedUdp(pub Rc<RefCell<UdpTransport>>);

impl NonBlockingSocket<SocketAddr> for SharedUdp {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        let body = encode(msg);
        self.0.borrow_mut().send(TAG_GGRS, &body, addr);
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let mut out = Vec::new();
        let mut t = self.0.borrow_mut();
        t.receive_into(&mut out);
        // A late hello (a peer still repeating it) is of no more use.
        t.hellos.clear();
        out
    }
}
