//! `ledge serve [HOST:PORT]` (NET.md): matchbox's signaling server, full mesh, one room a URL
//! path, run until stopped. Peers only meet through it: once their WebRTC connections are up
//! the race's datagrams go peer to peer.
//!
//! Clock: none of Ledge's; tokio's runtime (a few worker threads) runs the server.
//!
//! Rooms: a race joins `ws://HOST:PORT/ROOM?players=N` ([`crate::net::room::room_url`]). The
//! first peer sets the room's size; a peer asking for another size, or joining a room that is
//! full or whose race has begun (it filled once and not everyone has left), is refused before
//! its websocket opens (HTTP 401), with one line here. A room is forgotten when its last peer
//! leaves, so a rematch can fill it again.

use matchbox_signaling::SignalingServer;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// Where `ledge serve` listens without an address (NET.md).
pub const DEFAULT_ADDR: &str = "127.0.0.1:3536";

#[derive(Debug)]
struct Room {
    players: usize,
    members: usize,
    begun: bool,
}

/// Admit a peer to `room` for a race of `players`, or say why not.
fn admit(rooms: &mut HashMap<String, Room>, room: &str, players: Option<usize>) -> Result<(), String> {
    let Some(players) = players.filter(|p| (2..=crate::sim::MAX_PLAYERS).contains(p)) else {
        return Err(format!("room {room}: no ?players=2..4 in the request (not a Ledge race?)"));
    };
    let r = rooms.entry(room.to_string()).or_insert(Room { players, members: 0, begun: false });
    if r.players != players {
        return Err(format!("room {room} races {} players, the peer asked for {players}", r.players));
    }
    if r.begun {
        return Err(format!("room {room} is full: its race of {} has begun", r.players));
    }
    r.members += 1;
    if r.members == r.players {
        r.begun = true;
    }
    Ok(())
}

/// A peer left `room`: forget the room once it is empty.
fn leave(rooms: &mut HashMap<String, Room>, room: &str) {
    if let Some(r) = rooms.get_mut(room) {
        r.members = r.members.saturating_sub(1);
        if r.members == 0 {
            rooms.remove(room);
        }
    }
}

/// Run the server on `addr` until the process is stopped; `listening` is called with the
/// line to print once it accepts.
///
/// # Errors
/// One line: the address does not parse or cannot be bound, the runtime cannot start.
#[expect(
    clippy::result_large_err,
    reason = "matchbox_signaling's connection callback returns Result<bool, axum's Response>"
)]
pub fn serve(addr: &str, listening: impl FnOnce(String)) -> Result<(), String> {
    let sock: SocketAddr = addr
        .parse()
        .map_err(|_| format!("serve: '{addr}' is not HOST:PORT with an IP address (e.g. {DEFAULT_ADDR})"))?;
    let rooms: Arc<Mutex<RoomBook>> = Arc::default();
    let (on_request, on_id, on_gone) = (Arc::clone(&rooms), Arc::clone(&rooms), Arc::clone(&rooms));
    let mut server = SignalingServer::full_mesh_builder(sock)
        .on_connection_request(move |meta| {
            let room = meta.path.clone().unwrap_or_else(|| "world".into());
            let players = meta.query_params.get("players").and_then(|p| p.parse().ok());
            let Ok(mut book) = on_request.lock() else { return Ok(false) };
            match admit(&mut book.rooms, &room, players) {
                Ok(()) => {
                    book.joining.insert(meta.origin, room);
                    Ok(true)
                }
                Err(why) => {
                    eprintln!("ledge serve: refused {}: {}", meta.origin, crate::printable::escape(&why));
                    Ok(false)
                }
            }
        })
        .on_id_assignment(move |(origin, id)| {
            if let Ok(mut book) = on_id.lock()
                && let Some(room) = book.joining.remove(&origin)
            {
                book.peers.insert(id, room);
            }
        })
        .on_peer_disconnected(move |id| {
            if let Ok(mut book) = on_gone.lock()
                && let Some(room) = book.peers.remove(&id)
            {
                leave(&mut book.rooms, &room);
            }
        })
        .build();
    let bound = server.bind().map_err(|e| format!("serve: cannot listen on {addr}: {e}"))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("serve: cannot start the server's runtime: {e}"))?;
    listening(format!("ledge serve: listening on ws://{bound}"));
    runtime.block_on(server.serve()).map_err(|e| format!("serve: {e}"))
}

/// The server's book of rooms, shared by its callbacks.
#[derive(Debug, Default)]
struct RoomBook {
    rooms: HashMap<String, Room>,
    joining: HashMap<SocketAddr, String>,
    peers: HashMap<matchbox_socket::PeerId, String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_admits_its_size_then_refuses_until_empty() {
        let mut rooms = HashMap::new();
        assert!(admit(&mut rooms, "r", None).expect_err("no size").contains("?players"));
        assert!(admit(&mut rooms, "r", Some(5)).is_err());
        admit(&mut rooms, "r", Some(2)).expect("first");
        assert!(admit(&mut rooms, "r", Some(3)).expect_err("size").contains("races 2 players"));
        admit(&mut rooms, "r", Some(2)).expect("second");
        assert!(admit(&mut rooms, "r", Some(2)).expect_err("full").contains("is full"));
        leave(&mut rooms, "r");
        assert!(admit(&mut rooms, "r", Some(2)).expect_err("begun").contains("has begun"));
        leave(&mut rooms, "r");
        admit(&mut rooms, "r", Some(2)).expect("empty room forgotten: a rematch fills it again");
    }
}
