//! A datagram from a peer of a race (`ledge::net::codec`): refused or decoded, never a panic;
//! then it is delivered to a live two-player ggrs session through the simulated link's socket
//! (which filters it as every transport does, `PeerFilter`), which must not panic either.
//!
//! Clock: the simulated network's (`ledge::net::link`), one step.

use super::Outcome;
use ggrs::{PlayerType, SessionBuilder};
use ledge::net::codec::{PeerFilter, decode};
use ledge::net::link::{Hub, LinkSocket, LinkSpec};
use ledge::net::race::RaceConfig;

/// `bytes` as a datagram from player 2 to player 1 of a race of two (and decoded for races of
/// three and four).
///
/// # Errors
/// None of its own: the rules are "no panic" (a panic is the finding).
pub fn datagram(bytes: &[u8]) -> Result<Outcome, String> {
    for players in [3, 4] {
        let _ = decode(bytes, players);
    }
    let hub = Hub::new(LinkSpec::default(), 2);
    let session = SessionBuilder::<RaceConfig<usize>>::new()
        .with_num_players(2)
        .and_then(|b| b.add_player(PlayerType::Local, 0))
        .and_then(|b| b.add_player(PlayerType::Remote(1), 1))
        .and_then(|b| b.start_p2p_session(LinkSocket::new(&hub, 0, 2, false)))
        .map_err(|e| e.to_string())?;
    let mut session = session;
    hub.inject(1, 0, bytes.to_vec(), 0);
    session.poll_remote_clients();
    let _ = session.events().count();
    Ok(match PeerFilter::new(2, false).decode(bytes) {
        Ok(_) => Outcome::Loaded,
        Err(e) => Outcome::Refused(e.to_string()),
    })
}
