//! The race over UDP (`--net udp:PORT --peers LIST`, NET.md): one non-blocking socket carries
//! the handshake ([`super::handshake::Hello`]) and then ggrs's messages, each datagram tagged
//! by its first byte ([`super::tagged`]). Ledge's own adapter rather than ggrs's
//! `UdpNonBlockingSocket`: that one drops a datagram it cannot decode without a count, decodes
//! with no size limit and none of the race's checks ([`super::codec::PeerFilter`], one a
//! peer), and cannot carry the handshake.
//!
//! Clock: none of its own; polled by the race's loop on the wall clock.
//!
//! What is dropped and counted ([`Counts`]): a datagram from an address that is not a peer of
//! this race, one with an unknown tag, one that does not decode. Nothing a datagram holds can
//! make this panic.

use super::codec::MAX_DATAGRAM;
use super::handshake::Hello;
use super::tagged::{Counts, Tagged, ggrs_datagram, hello_datagram};
use super::transport::{Roster, Transport};
use ggrs::{Message, NonBlockingSocket};
use std::cell::RefCell;
use std::net::{SocketAddr, UdpSocket};
use std::rc::Rc;

/// The race's UDP socket.
#[derive(Debug)]
pub struct UdpTransport {
    socket: UdpSocket,
    roster: Roster<SocketAddr>,
    tagged: Tagged<SocketAddr>,
    buf: Vec<u8>,
}

impl UdpTransport {
    /// Bind `0.0.0.0:port` (non-blocking) for a race whose players are at `addrs` in order,
    /// this peer (`me`, 0-based) `None`.
    ///
    /// # Errors
    /// The operating system's error when the port cannot be bound.
    pub fn bind(port: u16, me: usize, addrs: Vec<Option<SocketAddr>>) -> std::io::Result<UdpTransport> {
        let socket = UdpSocket::bind(("0.0.0.0", port))?;
        socket.set_nonblocking(true)?;
        let peers: Vec<SocketAddr> = addrs.iter().flatten().copied().collect();
        let tagged = Tagged::new(peers, addrs.len());
        Ok(UdpTransport { socket, roster: (me, addrs), tagged, buf: vec![0; MAX_DATAGRAM + 2] })
    }

    fn send(&mut self, d: &[u8], to: &SocketAddr) {
        self.tagged.counts.bytes_sent += d.len() as u64;
        // A send that fails (no route yet, a full buffer) is a lost datagram: ggrs and the
        // handshake send again.
        let _ = self.socket.send_to(d, to);
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
            self.tagged.accept(&from, &self.buf[..n], out);
        }
    }
}

/// The transport shared by the race (the handshake, the counts) and ggrs's session, which
/// owns its socket.
#[derive(Clone, Debug)]
pub struct SharedUdp(pub Rc<RefCell<UdpTransport>>);

impl NonBlockingSocket<SocketAddr> for SharedUdp {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        self.0.borrow_mut().send(&ggrs_datagram(msg), addr);
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let mut out = Vec::new();
        let mut t = self.0.borrow_mut();
        t.receive_into(&mut out);
        // A late hello (a peer still repeating it) is of no more use.
        t.tagged.take_hellos();
        out
    }
}

impl Transport for SharedUdp {
    type Addr = SocketAddr;

    fn send_hello(&mut self, hello: &Hello) {
        let d = hello_datagram(hello);
        let mut t = self.0.borrow_mut();
        for to in t.tagged.peers().to_vec() {
            t.send(&d, &to);
        }
    }

    fn take_hellos(&mut self) -> Vec<(SocketAddr, Hello)> {
        let mut t = self.0.borrow_mut();
        t.receive_into(&mut Vec::new());
        t.tagged.take_hellos()
    }

    fn counts(&self) -> Counts {
        self.0.borrow().tagged.counts
    }

    fn peer_name(&self, addr: &SocketAddr) -> String {
        addr.to_string()
    }

    fn roster(&mut self) -> Result<Option<Roster<SocketAddr>>, String> {
        Ok(Some(self.0.borrow().roster.clone()))
    }

    fn gathered(&self) -> usize {
        self.0.borrow().roster.1.len()
    }

    fn gathering_line(&self) -> String {
        "the peers".into()
    }
}
