//! The race's datagrams on any transport (UDP, a WebRTC data channel): each starts with a tag
//! byte, 0 for a ggrs message and 1 for a handshake hello. [`Tagged`] frames what a peer
//! sends and sorts what it receives: hellos kept aside, ggrs messages through the sender's
//! own [`PeerFilter`], everything else dropped and counted ([`Counts`]).
//!
//! Clock: none of its own; used by the transports, polled by the race's loop.

use super::codec::{PeerFilter, encode};
use super::handshake::Hello;
use ggrs::Message;

/// First byte of a ggrs message.
pub const TAG_GGRS: u8 = 0;
/// First byte of a handshake hello.
pub const TAG_HELLO: u8 = 1;

/// Datagrams dropped and kept, and bytes sent: the `net:` exit line's `dropped=` and
/// `bytes_sent=`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// From a sender that is not one of the race's peers.
    pub strangers: u64,
    /// That did not decode (unknown tag, malformed, refused by the codec).
    pub undecodable: u64,
    /// Datagrams received and kept.
    pub received: u64,
    /// Bytes sent.
    pub bytes_sent: u64,
}

impl Counts {
    /// Every datagram dropped.
    pub fn dropped(&self) -> u64 {
        self.strangers + self.undecodable
    }
}

/// A ggrs message as a tagged datagram.
pub fn ggrs_datagram(msg: &Message) -> Vec<u8> {
    tagged(TAG_GGRS, &encode(msg))
}

/// A hello as a tagged datagram.
pub fn hello_datagram(hello: &Hello) -> Vec<u8> {
    tagged(TAG_HELLO, &hello.encode())
}

fn tagged(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut d = Vec::with_capacity(body.len() + 1);
    d.push(tag);
    d.extend_from_slice(body);
    d
}

/// The receiving side for peers addressed by `A`: which senders are peers, one codec filter
/// each, the hellos heard, the counts.
#[derive(Debug)]
pub struct Tagged<A> {
    peers: Vec<A>,
    filters: Vec<PeerFilter>,
    hellos: Vec<(A, Hello)>,
    players: usize,
    /// The counts so far (the transport adds its bytes sent).
    pub counts: Counts,
}

impl<A: PartialEq + Clone> Tagged<A> {
    /// For a race of `players` whose other peers are `peers`.
    pub fn new(peers: Vec<A>, players: usize) -> Self {
        let filters = vec![PeerFilter::new(players, true); peers.len()];
        Tagged { peers, filters, hellos: Vec::new(), players, counts: Counts::default() }
    }

    /// The other peers.
    pub fn peers(&self) -> &[A] {
        &self.peers
    }

    /// Replace the peers (a room, once it is full), each with a fresh filter.
    pub fn set_peers(&mut self, peers: Vec<A>) {
        self.filters = vec![PeerFilter::new(self.players, true); peers.len()];
        self.peers = peers;
    }

    /// Sort one received datagram: a hello is kept for [`Tagged::take_hellos`], a ggrs
    /// message that decodes is pushed to `out`, anything else is counted.
    pub fn accept(&mut self, from: &A, d: &[u8], out: &mut Vec<(A, Message)>) {
        let Some(k) = self.peers.iter().position(|p| p == from) else {
            self.counts.strangers += 1;
            return;
        };
        match d.split_first() {
            Some((&TAG_GGRS, body)) => match self.filters[k].decode(body) {
                Ok(m) => {
                    self.counts.received += 1;
                    out.push((from.clone(), m));
                }
                Err(_) => self.counts.undecodable += 1,
            },
            Some((&TAG_HELLO, body)) => match Hello::decode(body) {
                Some(h) => {
                    self.counts.received += 1;
                    self.hellos.push((from.clone(), h));
                }
                None => self.counts.undecodable += 1,
            },
            _ => self.counts.undecodable += 1,
        }
    }

    /// The hellos received since the last call, with their senders.
    pub fn take_hellos(&mut self) -> Vec<(A, Hello)> {
        std::mem::take(&mut self.hellos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strangers_unknown_tags_and_garbage_are_counted_hellos_kept() {
        let mut t = Tagged::new(vec![7u32, 9], 3);
        let mut out = Vec::new();
        let level_rows: Vec<String> = ["..P.", "####"].iter().map(|r| r.to_string()).collect();
        let level = crate::level::ascii::parse_ascii(&level_rows, 1).expect("level");
        let hello = Hello::new(&level, &crate::sim::Tuning::default(), 60, 1, 3);
        t.accept(&9, &hello_datagram(&hello), &mut out);
        t.accept(&8, &hello_datagram(&hello), &mut out);
        t.accept(&7, &[5, 1, 2], &mut out);
        t.accept(&7, &[TAG_GGRS, 0xff, 0xff], &mut out);
        t.accept(&7, &[], &mut out);
        t.accept(&7, &[TAG_HELLO], &mut out);
        assert!(out.is_empty());
        assert_eq!(t.take_hellos(), vec![(9, hello)]);
        assert_eq!(t.counts, Counts { strangers: 1, undecodable: 4, received: 1, bytes_sent: 0 });
        assert_eq!(t.counts.dropped(), 5);
    }
}
