//! What a race needs of its transport, whatever carries the datagrams (UDP, matchbox's WebRTC
//! data channel): ggrs's socket, plus the handshake's hellos and the counts for the exit line.
//!
//! Clock: none of its own; polled by the race's loop.

use super::handshake::Hello;
use super::tagged::Counts;
use ggrs::NonBlockingSocket;
use std::fmt::Debug;
use std::hash::Hash;

/// The race's players in order: this peer's index (0-based) and each player's address,
/// `None` for this peer.
pub type Roster<A> = (usize, Vec<Option<A>>);

/// A race's transport, cloned into ggrs's session (the clones share one socket).
pub trait Transport: NonBlockingSocket<Self::Addr> + Clone + 'static {
    /// How a peer is addressed (a socket address, a WebRTC peer id).
    type Addr: Clone + PartialEq + Eq + Hash + Debug + 'static;

    /// Send `hello` to every peer of the race.
    fn send_hello(&mut self, hello: &Hello);

    /// The hellos received since the last call, with their senders (reads what is waiting).
    fn take_hellos(&mut self) -> Vec<(Self::Addr, Hello)>;

    /// Datagrams dropped and kept, bytes sent.
    fn counts(&self) -> Counts;

    /// A peer in words, for a refusal's line.
    fn peer_name(&self, addr: &Self::Addr) -> String;

    /// The race's players in order once every peer is there: this peer's index and each
    /// player's address (`None` for this peer); `Ok(None)` while a room is still filling.
    ///
    /// # Errors
    /// One line when the players can never be gathered (the server refused, the room closed).
    fn roster(&mut self) -> Result<Option<Roster<Self::Addr>>, String>;

    /// The players there so far, this peer included (while gathering).
    fn gathered(&self) -> usize;

    /// What is awaited while gathering, in words ("no one else joined room R"): the start of
    /// the line when the wait times out.
    fn gathering_line(&self) -> String;
}
