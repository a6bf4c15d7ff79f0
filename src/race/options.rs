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
}

impl std::str::FromStr for NetSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.strip_prefix("udp:") {
            Some(p) => p
                .parse::<u16>()
                .map(|port| NetSpec::Udp { port })
                .map_err(|_| format!("--net {s}: PORT must be 0 to 65535")),
            None => Err(format!("--net {s}: expected udp:PORT")),
        }
    }
}

/// A peer's race, from its flags.
#[derive(Clone, Debug)]
pub struct RaceOptions {
    /// `--net`.
    pub net: NetSpec,
    /// This peer's player, 0-based (its `me` in `--peers`).
    pub me: usize,
    /// Every player's address in order; `None` for this peer.
    pub peer_addrs: Vec<Option<SocketAddr>>,
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
    }
}
