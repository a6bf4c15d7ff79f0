//! The race's wire: the per-tick input a peer sends ([`NetInput`]) and the datagram codec for
//! ggrs's [`Message`] over any transport ([`encode`], [`decode`]). A datagram that does not
//! decode, or decodes to a message no honest peer sends, is refused with a [`DecodeError`]:
//! the transports drop it and count it (NET.md "Bad input"), never a panic.
//!
//! Clock: none (pure functions of their bytes).

use crate::input::latch::TickInput;
use crate::sim::{Action, MAX_PLAYERS};
use bincode::Options;
use ggrs::Message;
use serde::{Deserialize, Serialize};

/// The actions a race sends, in [`Action::index`] order: everything but rewind (off in a
/// race).
const SENT: [Action; 5] = [Action::Left, Action::Right, Action::Up, Action::Down, Action::Jump];

/// One tick's input of one player as it crosses the network (ggrs's `Config::Input`): 3 bytes.
/// Bit `Action::index()` of `held` and `pressed` is that action (left, right, up, down, jump;
/// rewind is never sent). The stick is quantised to `round(x · 127)` in [−127, 127] and read
/// back as `q / 127`: 255 levels, finer than any pad's noise, and equal on every peer because
/// every peer, the sender included, steps on the quantised value ([`NetInput::quantise`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NetInput {
    /// Held actions after the tick's edges, one bit each.
    pub held: u8,
    /// Actions pressed (an edge) in the tick, one bit each.
    pub pressed: u8,
    /// The stick's x, quantised: −127..=127 (−128 reads as −127).
    pub stick: i8,
}

impl From<&TickInput> for NetInput {
    fn from(i: &TickInput) -> Self {
        let mut n = NetInput::default();
        for a in SENT {
            n.held |= u8::from(i.held(a)) << a.index();
            n.pressed |= u8::from(i.pressed(a)) << a.index();
        }
        // `round` is correctly rounded (no libm); the clamp keeps a NaN-free value in range.
        n.stick = (f64::from(i.stick_x) * 127.0).round().clamp(-127.0, 127.0) as i8;
        n
    }
}

impl NetInput {
    /// The tick input it stands for.
    pub fn to_tick_input(self) -> TickInput {
        let mut i = TickInput::default();
        for a in SENT {
            i.held[a.index()] = self.held & (1 << a.index()) != 0;
            i.pressed[a.index()] = self.pressed & (1 << a.index()) != 0;
        }
        i.stick_x = (f64::from(self.stick.max(-127)) / 127.0) as f32;
        i
    }

    /// `input` as the other peers will see it (round trip through the wire).
    pub fn quantise(input: &TickInput) -> TickInput {
        NetInput::from(input).to_tick_input()
    }
}

/// Most bytes in one datagram Ledge sends or reads: ggrs's own UDP socket reads into a buffer
/// of 4,096 bytes, and its largest message (an input message holding the 128 pending frames it
/// keeps at most, 3 bytes each, delta- and run-length-encoded) is far smaller.
pub const MAX_DATAGRAM: usize = 4096;

/// Most frames ggrs keeps unacknowledged and sends again (`PENDING_OUTPUT_SIZE`): an input
/// message's frames, encoded, cannot honestly be longer than this × the input's 3 bytes plus
/// the 2-byte length each.
const MAX_PENDING: usize = 128;

/// Why a datagram was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Longer than [`MAX_DATAGRAM`].
    #[error("datagram of {0} bytes (at most {MAX_DATAGRAM})")]
    TooLong(usize),
    /// Not a ggrs message.
    #[error("not a rollback message: {0}")]
    Malformed(String),
    /// A well-formed message no peer of this race sends (its reason).
    #[error("refused: {0}")]
    Refused(&'static str),
}

/// The wire layout of ggrs 0.13's `Message` (src/network/messages.rs: the same fields in the
/// same order, the same variants in the same order), to look inside a message before ggrs
/// does: its fields are private to ggrs.
#[derive(Deserialize)]
struct WireMessage {
    _magic: u16,
    body: WireBody,
}

#[derive(Deserialize)]
enum WireBody {
    SyncRequest(#[allow(dead_code)] u32),
    SyncReply(#[allow(dead_code)] u32),
    Input(WireInput),
    InputAck(i32),
    QualityReport(#[allow(dead_code)] i16, #[allow(dead_code)] u128),
    QualityReply(#[allow(dead_code)] u128),
    ChecksumReport(#[allow(dead_code)] u128, i32),
    KeepAlive,
}

#[derive(Deserialize)]
struct WireInput {
    peer_connect_status: Vec<(bool, i32)>,
    _disconnect_requested: bool,
    start_frame: i32,
    ack_frame: i32,
    bytes: Vec<u8>,
}

/// bincode as ggrs's `UdpNonBlockingSocket` uses it (`bincode::serialize`/`deserialize`: fixed
/// width integers, trailing bytes allowed), with a size limit of the datagram's own length,
/// so no length prefix can make it allocate more than the datagram holds.
fn options(limit: usize) -> impl Options {
    bincode::DefaultOptions::new().with_fixint_encoding().allow_trailing_bytes().with_limit(limit as u64)
}

/// A message as bytes (what ggrs's own UDP socket sends).
pub fn encode(msg: &Message) -> Vec<u8> {
    // Serialising a plain struct of integers and vectors into memory cannot fail.
    bincode::serialize(msg).unwrap_or_default()
}

/// A datagram from any peer as a message for a race of `players`, or why not. Refused
/// besides what does not parse (each is something ggrs 0.13 handles by a warning at best):
/// an input message whose connection status list is not one entry a player (ggrs discards
/// those, `protocol.rs` `on_input`), whose frames are below ggrs's `NULL_FRAME` (−1) or whose
/// encoded inputs are longer than ggrs could have pending; a negative frame in an ack or a
/// checksum report.
///
/// # Errors
/// [`DecodeError`]: too long, malformed, or refused.
pub fn decode(bytes: &[u8], players: usize) -> Result<Message, DecodeError> {
    if bytes.len() > MAX_DATAGRAM {
        return Err(DecodeError::TooLong(bytes.len()));
    }
    let limit = bytes.len().max(1);
    let wire: WireMessage =
        options(limit).deserialize(bytes).map_err(|e| DecodeError::Malformed(e.to_string()))?;
    match wire.body {
        WireBody::Input(i) => {
            let n = i.peer_connect_status.len();
            if n != players || n > MAX_PLAYERS {
                return Err(DecodeError::Refused("connection status for another number of players"));
            }
            if i.start_frame < 0 || i.ack_frame < -1 || i.peer_connect_status.iter().any(|(_, f)| *f < -1) {
                return Err(DecodeError::Refused("a frame before the first"));
            }
            if i.bytes.len() > MAX_PENDING * (2 + std::mem::size_of::<NetInput>() * MAX_PLAYERS) {
                return Err(DecodeError::Refused("more input than a peer keeps"));
            }
        }
        WireBody::InputAck(f) | WireBody::ChecksumReport(_, f) if f < -1 => {
            return Err(DecodeError::Refused("a frame before the first"));
        }
        _ => {}
    }
    options(limit).deserialize(bytes).map_err(|e| DecodeError::Malformed(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::SplitMix64;

    #[test]
    fn every_held_and_pressed_combination_and_the_stick_round_trip() {
        for bits in 0u16..1024 {
            let mut i = TickInput::default();
            for (k, a) in SENT.iter().enumerate() {
                i.held[a.index()] = bits & (1 << k) != 0;
                i.pressed[a.index()] = bits & (1 << (k + 5)) != 0;
            }
            assert_eq!(NetInput::from(&i).to_tick_input(), i);
        }
        for (x, q) in [(0.0f32, 0i8), (1.0, 127), (-1.0, -127), (0.5, 64), (-0.003, 0)] {
            let i = TickInput { stick_x: x, ..TickInput::default() };
            assert_eq!(NetInput::from(&i).stick, q, "{x}");
            let once = NetInput::quantise(&i);
            assert_eq!(NetInput::quantise(&once), once, "idempotent at {x}");
        }
        let mut rewind = TickInput::default();
        rewind.held[Action::Rewind.index()] = true;
        assert_eq!(NetInput::from(&rewind), NetInput::default(), "rewind is never sent");
        assert_eq!(std::mem::size_of::<NetInput>(), 3);
    }

    #[test]
    fn garbage_and_mutated_datagrams_never_panic_and_refusals_are_named() {
        let mut rng = SplitMix64::new(7);
        for len in [0usize, 1, 2, 3, 7, 40, 300, 5000] {
            for _ in 0..200 {
                let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
                let _ = decode(&bytes, 2);
            }
        }
        assert!(matches!(decode(&[0; 5000], 2), Err(DecodeError::TooLong(5000))));
        // An input message (variant 2) claiming three connection statuses in a race of two.
        let mut m = vec![0u8, 0, 2, 0, 0, 0];
        m.extend(3u64.to_le_bytes());
        m.extend([0u8, 0xff, 0xff, 0xff, 0xff].repeat(3));
        m.extend([0u8]);
        m.extend(0i32.to_le_bytes());
        m.extend((-1i32).to_le_bytes());
        m.extend(0u64.to_le_bytes());
        assert!(matches!(decode(&m, 2), Err(DecodeError::Refused(_))), "{:?}", decode(&m, 2));
        assert!(decode(&m, 3).is_ok(), "{:?}", decode(&m, 3));
        // A vector length of 2^60 is malformed, not an allocation.
        let mut huge = vec![0u8, 0, 2, 0, 0, 0];
        huge.extend((1u64 << 60).to_le_bytes());
        assert!(matches!(decode(&huge, 2), Err(DecodeError::Malformed(_))));
    }
}
