//! A room code (the title menu's "Race online"): what one player reads out to the others,
//! which names the room on the signalling server *and* the race in it, so that joining needs
//! the code alone: four letters, then the level's number (two digits), then the number of
//! players: `KQXZ032` is a race of 2 on level 3. The letters keep rooms of one server apart.
//!
//! Clock: none (made once when a race is hosted; the letters come from the wall clock's
//! nanoseconds, which only have to differ between hosts).

use std::fmt;

/// Letters a code uses: no I or O (read as 1 and 0).
const LETTERS: &[u8; 24] = b"ABCDEFGHJKLMNPQRSTUVWXYZ";

/// A room code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomCode {
    /// The four letters.
    pub tag: [u8; 4],
    /// The level's number, 1-based (1..=99).
    pub level: u8,
    /// The number of players (2..=4).
    pub players: u8,
}

impl RoomCode {
    /// A new code for a race of `players` on level `level` (1-based), its letters drawn from
    /// `seed` (any number: the wall clock's nanoseconds).
    pub fn new(level: u8, players: u8, seed: u64) -> RoomCode {
        let mut x = seed ^ 0x9e37_79b9_7f4a_7c15;
        let mut tag = [0u8; 4];
        for t in &mut tag {
            // splitmix64's finaliser: every bit of the seed reaches every letter.
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            *t = LETTERS[((z ^ (z >> 31)) % LETTERS.len() as u64) as usize];
        }
        RoomCode { tag, level: level.clamp(1, 99), players: players.clamp(2, 4) }
    }
}

impl fmt::Display for RoomCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tag: String = self.tag.iter().map(|&b| char::from(b)).collect();
        write!(f, "{tag}{:02}{}", self.level, self.players)
    }
}

impl std::str::FromStr for RoomCode {
    type Err = String;

    /// A code as typed: spaces and dashes ignored, letters in either case, and O or I typed
    /// where the digits go read as 0 and 1 (a code never has those letters).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut clean: Vec<u8> =
            s.bytes().filter(|b| !matches!(b, b' ' | b'-')).map(|b| b.to_ascii_uppercase()).collect();
        for b in clean.iter_mut().skip(4) {
            *b = match *b {
                b'O' => b'0',
                b'I' => b'1',
                other => other,
            };
        }
        let bad = || {
            format!("room code '{}': four letters, the level (two digits), the players (2 to 4)", s.trim())
        };
        let [a, b, c, d, l1, l2, p] = clean[..] else { return Err(bad()) };
        let tag = [a, b, c, d];
        if !tag.iter().all(|t| LETTERS.contains(t)) || !l1.is_ascii_digit() || !l2.is_ascii_digit() {
            return Err(bad());
        }
        let level = (l1 - b'0') * 10 + (l2 - b'0');
        let players = p.wrapping_sub(b'0');
        if level == 0 || !(2..=4).contains(&players) {
            return Err(bad());
        }
        Ok(RoomCode { tag, level, players })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_bad_ones_are_refused() {
        let c = RoomCode::new(3, 2, 1_234_567);
        let text = c.to_string();
        assert_eq!(text.len(), 7);
        assert!(text.ends_with("032"), "{text}");
        assert_eq!(text.parse::<RoomCode>(), Ok(c));
        assert_eq!(text.to_lowercase().parse::<RoomCode>(), Ok(c), "either case");
        assert_eq!(format!("{}-{}", &text[..4], &text[4..]).parse::<RoomCode>(), Ok(c), "dashes ignored");
        assert_eq!("kqxz o3 2".parse::<RoomCode>().map(|c| (c.level, c.players)), Ok((3, 2)), "O for 0");
        assert_ne!(RoomCode::new(3, 2, 1).tag, RoomCode::new(3, 2, 2).tag, "the seed picks the letters");
        for bad in ["", "KQXZ03", "KQXZ0325", "KQXZ001", "KQXZ035", "KQXO032", "1QXZ032", "KQXZ0A2"] {
            assert!(bad.parse::<RoomCode>().is_err(), "{bad}");
        }
    }
}
