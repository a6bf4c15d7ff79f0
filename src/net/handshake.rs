//! The race's handshake (NET.md "Rules"): before ggrs synchronises, every peer tells every
//! other what it will race: the game's version, the level's content, the tuning, the tick
//! rate, its player number and the number of players. Any difference refuses the race on
//! every peer with one line saying which.
//!
//! Clock: none (plain data; the transport repeats the hello on its own clock).

use crate::level::Level;
use crate::sim::Tuning;
use crate::sim::hash::StableHasher;
use bincode::Options;
use serde::{Deserialize, Serialize};

/// Raised when the handshake's layout changes, so an older peer is told "another version".
pub const HANDSHAKE_VERSION: u32 = 1;

/// One peer's hello.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// [`HANDSHAKE_VERSION`].
    pub handshake: u32,
    /// The game's version (`CARGO_PKG_VERSION`), at most 32 bytes.
    pub version: String,
    /// [`level_hash`] of the level it loaded.
    pub level: u64,
    /// [`tuning_hash`] of its tuning.
    pub tuning: u64,
    /// Its tick rate, Hz.
    pub tick_hz: u32,
    /// Its player number, 0-based.
    pub player: u8,
    /// Players in its race.
    pub players: u8,
    /// The peers whose hello it has received, bit K for player K + 1 (its own included).
    pub heard: u8,
}

/// A stable hash of everything a tick reads of a level (tiles, spawn, checkpoints, goal,
/// entities), not where its files are: two machines with the same level agree.
pub fn level_hash(level: &Level) -> u64 {
    let mut h = StableHasher::default();
    let text = format!(
        "{}x{} {:?} {:?} {:?} {:?} {:?}",
        level.width, level.height, level.kinds, level.spawn, level.checkpoints, level.goal, level.entities
    );
    h.bytes(text.as_bytes());
    h.finish()
}

/// A stable hash of every tuning value, bit for bit.
pub fn tuning_hash(tuning: &Tuning) -> u64 {
    let mut h = StableHasher::default();
    let mut t = tuning.clone();
    for key in Tuning::KEYS {
        h.bytes(key.as_bytes());
        h.f64(*t.field_mut(key).expect("KEYS are fields"));
    }
    h.finish()
}

impl Hello {
    /// This peer's hello.
    pub fn new(level: &Level, tuning: &Tuning, tick_hz: u32, player: u8, players: u8) -> Hello {
        Hello {
            handshake: HANDSHAKE_VERSION,
            version: env!("CARGO_PKG_VERSION").to_string(),
            level: level_hash(level),
            tuning: tuning_hash(tuning),
            tick_hz,
            player,
            players,
            heard: 1 << player,
        }
    }

    /// The hello as bytes.
    pub fn encode(&self) -> Vec<u8> {
        bincode::serialize(self).unwrap_or_default()
    }

    /// A hello from bytes; `None` for anything else (at most 128 bytes are read).
    pub fn decode(bytes: &[u8]) -> Option<Hello> {
        let o = bincode::DefaultOptions::new().with_fixint_encoding().with_limit(128);
        o.deserialize(bytes).ok()
    }

    /// What differs between this peer's race and `theirs`, in words, or `None` when they
    /// race the same. `from` names the other peer in the line (its address).
    pub fn differs(&self, theirs: &Hello, expected_player: u8, from: &str) -> Option<String> {
        let who = format!("player {} ({from})", expected_player + 1);
        if theirs.handshake != self.handshake || theirs.version != self.version {
            let v = theirs.version.chars().take(32).collect::<String>();
            return Some(format!("{who} runs ledge {v}, this peer {}", self.version));
        }
        if theirs.player != expected_player {
            return Some(format!(
                "{who} says it is player {}: every peer must list the players in one order",
                theirs.player + 1
            ));
        }
        if theirs.players != self.players {
            return Some(format!("{who} races {} players, this peer {}", theirs.players, self.players));
        }
        if theirs.level != self.level {
            return Some(format!(
                "{who} races another level (content {:016x}, here {:016x})",
                theirs.level, self.level
            ));
        }
        if theirs.tuning != self.tuning {
            return Some(format!(
                "{who} races another tuning ({:016x}, here {:016x})",
                theirs.tuning, self.tuning
            ));
        }
        if theirs.tick_hz != self.tick_hz {
            return Some(format!("{who} ticks at {} Hz, this peer at {} Hz", theirs.tick_hz, self.tick_hz));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ascii::parse_ascii;

    #[test]
    fn hellos_round_trip_and_every_difference_is_named() {
        let rows: Vec<String> = ["..P.", "####"].iter().map(|r| r.to_string()).collect();
        let level = parse_ascii(&rows, 1).expect("level");
        let a = Hello::new(&level, &Tuning::default(), 60, 0, 2);
        assert_eq!(Hello::decode(&a.encode()), Some(a.clone()));
        assert_eq!(Hello::decode(&[1, 2, 3]), None);
        let b = Hello::new(&level, &Tuning::default(), 60, 1, 2);
        assert_eq!(a.differs(&b, 1, "x"), None);
        let mut t = Tuning::default();
        t.gravity += 1.0;
        let c = Hello::new(&level, &t, 60, 1, 2);
        assert!(
            a.differs(&c, 1, "10.0.0.2:7001")
                .expect("differs")
                .starts_with("player 2 (10.0.0.2:7001) races another tuning")
        );
        let d = Hello::new(&level, &Tuning::default(), 120, 1, 2);
        assert!(a.differs(&d, 1, "x").expect("differs").contains("ticks at 120 Hz"));
        let other: Vec<String> = ["..P#", "####"].iter().map(|r| r.to_string()).collect();
        let e = Hello::new(&parse_ascii(&other, 1).expect("level"), &Tuning::default(), 60, 1, 2);
        assert!(a.differs(&e, 1, "x").expect("differs").contains("another level"));
        assert!(a.differs(&b, 0, "x").expect("differs").contains("says it is player 2"));
    }
}
