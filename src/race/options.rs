//! The race's flags (NET.md "Command line"), checked: `--net`, `--peers`, and what goes with
//! them.
//!
//! Clock: none (parsed once, before anything runs).

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;

/// `--net`: how the peers meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetSpec {
    /// `udp:PORT`: a UDP socket on PORT, the peers named by `--peers`.
    Udp {
        /// The local port.
        port: u16,
    },
    /// `ws://HOST:PORT/ROOM` (or `wss://`): a room of a signaling server (`ledge serve`).
    Room {
        /// The URL as given.
        url: String,
        /// The room's name (the URL's path).
        room: String,
    },
}

impl std::str::FromStr for NetSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(p) = s.strip_prefix("udp:") {
            return p
                .parse::<u16>()
                .map(|port| NetSpec::Udp { port })
                .map_err(|_| format!("--net {s}: PORT must be 0 to 65535"));
        }
        let rest = s.strip_prefix("ws://").or_else(|| s.strip_prefix("wss://"));
        let Some(rest) = rest else {
            return Err(format!("--net {s}: expected udp:PORT or ws://HOST:PORT/ROOM"));
        };
        let (host, room) = rest.split_once('/').unwrap_or((rest, ""));
        if host.is_empty() {
            return Err(format!("--net {s}: no HOST:PORT"));
        }
        if room.is_empty()
            || room.len() > MAX_ROOM
            || !room.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(format!(
                "--net {s}: ROOM must be 1 to {MAX_ROOM} letters, digits, '-' or '_' (ws://HOST:PORT/ROOM)"
            ));
        }
        Ok(NetSpec::Room { url: s.to_string(), room: room.to_string() })
    }
}

/// The longest room name, bytes.
pub const MAX_ROOM: usize = 64;

/// How the race's players are known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Players {
    /// `--peers`: this peer's player (0-based, its `me`) and every player's address in
    /// order (`None` for this peer).
    Listed(usize, Vec<Option<SocketAddr>>),
    /// `--players N` in a room: the order is the room's (its peers' ids, sorted).
    Room(usize),
}

impl Players {
    /// How many race.
    pub fn count(&self) -> usize {
        match self {
            Players::Listed(_, a) => a.len(),
            Players::Room(n) => *n,
        }
    }
}

/// A peer's race, from its flags.
#[derive(Clone, Debug)]
pub struct RaceOptions {
    /// `--net`.
    pub net: NetSpec,
    /// `--peers` or `--players`.
    pub players: Players,
    /// `--level`.
    pub level: Option<PathBuf>,
    /// `--tuning`.
    pub tuning: Option<PathBuf>,
    /// `--autoplay`.
    pub autoplay: Option<PathBuf>,
    /// `--exit-after`, seconds of the race's clock.
    pub exit_after: Option<f64>,
    /// `--record`.
    pub record: Option<PathBuf>,
    /// `--ice URL`s: STUN/TURN servers for a room (none by default).
    pub ice: Vec<String>,
    /// `--headless`: no window.
    pub headless: bool,
}

/// `--peers LIST`: `me` or `HOST:PORT`, comma-separated, 2 to 4 of them, `me` exactly once.
/// Returns this peer's index and every address (`None` for `me`).
///
/// # Errors
/// One line naming the entry that is wrong.
pub fn parse_peers(list: &str) -> Result<(usize, Vec<Option<SocketAddr>>), String> {
    let parts: Vec<&str> = list.split(',').map(str::trim).collect();
    if !(2..=crate::sim::MAX_PLAYERS).contains(&parts.len()) {
        return Err(format!("--peers {list}: 2 to 4 players, got {}", parts.len()));
    }
    let mut me = None;
    let mut addrs = Vec::with_capacity(parts.len());
    for (k, p) in parts.iter().enumerate() {
        if *p == "me" {
            if me.replace(k).is_some() {
                return Err(format!("--peers {list}: 'me' more than once"));
            }
            addrs.push(None);
            continue;
        }
        let addr = p
            .to_socket_addrs()
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| format!("--peers: '{p}' is not HOST:PORT (or the host cannot be resolved)"))?;
        if addrs.contains(&Some(addr)) {
            return Err(format!("--peers: {addr} is named twice"));
        }
        addrs.push(Some(addr));
    }
    let me = me.ok_or_else(|| format!("--peers {list}: no 'me' (your own place in the order)"))?;
    Ok((me, addrs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peers_and_net_parse_and_refuse_with_one_line() {
        let (me, a) = parse_peers("127.0.0.1:7000,me,127.0.0.1:7002").expect("parses");
        assert_eq!((me, a.len(), a[1]), (1, 3, None));
        for (bad, want) in [
            ("me", "2 to 4 players"),
            ("me,me", "'me' more than once"),
            ("127.0.0.1:1,127.0.0.1:2", "no 'me'"),
            ("me,nonsense", "'nonsense' is not HOST:PORT"),
            ("me,127.0.0.1:1,127.0.0.1:1", "named twice"),
        ] {
            assert!(parse_peers(bad).expect_err(bad).contains(want), "{bad}");
        }
        assert_eq!("udp:7000".parse::<NetSpec>(), Ok(NetSpec::Udp { port: 7000 }));
        assert!("udp:70000".parse::<NetSpec>().is_err());
        assert!("tcp:1".parse::<NetSpec>().expect_err("refused").contains("expected udp:PORT"));
        assert_eq!(
            "ws://127.0.0.1:3536/race-1".parse::<NetSpec>(),
            Ok(NetSpec::Room { url: "ws://127.0.0.1:3536/race-1".into(), room: "race-1".into() })
        );
        for bad in ["ws://127.0.0.1:3536", "ws://127.0.0.1:3536/", "ws:///r", "ws://h:1/a/b", "ws://h:1/a?b"]
        {
            assert!(bad.parse::<NetSpec>().is_err(), "{bad}");
        }
    }
}
