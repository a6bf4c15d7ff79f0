//! The race's input ([`NetInput`], ggrs's `Config::Input`) and the datagram codec for ggrs's
//! [`ggrs::Message`] over any transport ([`encode`], [`decode`], [`PeerFilter`]).
//!
//! Clock: none for the codec and the input; one rule of [`decode`] reads the system wall clock
//! in milliseconds since the Unix epoch (`web_time::SystemTime`), the clock ggrs stamps its
//! quality reports with, to bound the round trip a `QualityReply` implies.
//!
//! # The wire format
//!
//! A datagram is one `ggrs::Message` in bincode 1 with the options `bincode::serialize` uses
//! (`DefaultOptions::new().with_fixint_encoding().allow_trailing_bytes()`: little-endian
//! fixed-width integers, `u64` lengths, `u32` enum tags), which is what ggrs 0.13's own
//! `UdpNonBlockingSocket` sends (`udp_socket.rs`: `bincode::serialize(&msg).unwrap()`), so a
//! Ledge peer and a plain ggrs UDP peer understand each other.
//!
//! # What decode refuses, and why
//!
//! ggrs trusts a `Message` it is handed: its fields are `pub(crate)`, so [`decode`] first reads
//! the same bytes into private mirror structs with the same serde layout (field and variant
//! order of ggrs's `network/messages.rs`), checks them, and only then decodes the
//! `ggrs::Message`. Each rule names what it protects (ggrs 0.13.0 source):
//!
//! - **Size.** At most [`MAX_DATAGRAM`] bytes, and bincode runs with a byte limit equal to the
//!   datagram's length, so no length prefix can make it allocate more than the datagram holds
//!   (serde's `Vec` visitor also caps its first allocation). Trailing bytes are refused (ggrs
//!   accepts them; no ggrs peer sends them).
//! - **Header magic 0.** ggrs never sends it (`UdpProtocol::new` redraws 0), and 0 is its
//!   "no remote magic yet" value in `handle_message`.
//! - **Input `peer_connect_status` length** must equal the session's player count, also when
//!   `disconnect_requested` is set. `on_input` checks the length only when no disconnect is
//!   requested, then indexes `body.peer_connect_status[i]` for every player; and
//!   `update_player_disconnects` reads the stored statuses by handle.
//! - **Frames.** `start_frame` in `0..=`[`MAX_FRAME`] with room for every input of the message,
//!   `ack_frame` and every status's `last_frame` in `-1..=MAX_FRAME`, a checksum report's frame
//!   in `0..=MAX_FRAME`. In a debug build (overflow checks, ggrs included) `on_input`'s
//!   `body.start_frame + i as i32` and `on_checksum_report`'s `body.frame - 31 * interval`
//!   overflow and panic on frames near `i32::MAX`/`i32::MIN`; in a release build they wrap.
//! - **Input `bytes`** must decompress as ggrs's `compression::decode` would, and into the shape
//!   ggrs expects. `bitfield_rle::decode` (0.2.1) indexes past the end on a truncated varint
//!   (`varinteger::decode_with_offset`: `buf[off]`, a panic in every build), overflows its
//!   varint arithmetic on a long one (a debug panic), and allocates the run length a varint
//!   claims before looking at anything else (`vec![0; decode_len]`: ten bytes claim 2^62 and
//!   abort the process). Here the run-length walk is checked: varints of at most 4 bytes, the
//!   decoded size at most [`MAX_INPUT_PAYLOAD`], literal runs inside the buffer. Then the delta
//!   layer: every length prefix complete, every input a whole number of [`NetInput::WIRE_SIZE`]
//!   inputs, one to `num_players` of them (`InputBytes::to_player_inputs` divides by the handle
//!   count), 1 to [`MAX_PENDING_INPUTS`] frames.
//! - **QualityReply `pong`** must imply a round trip of at most [`MAX_RTT_MS`]. ggrs stores
//!   `now_ms - pong` (saturating) as the round trip, and `update_local_frame_advantage` computes
//!   `i32::try_from(rtt / 2).unwrap_or(i32::MAX) * fps`: a pong of 0 (a round trip of 56 years)
//!   overflows that product, a panic in a debug build, a nonsense frame advantage in release.
//!
//! [`PeerFilter`] adds the rules that need to remember a peer: its magic stays the same; an
//! `Input` starts no later than one past the last frame the filter let through from it (the
//! first one anywhere) and adds at most [`MAX_NEW_FRAMES`] frames beyond that (counting from
//! frame 0 for the first). ggrs accepts any `start_frame` in a peer's first input packet and
//! any number of frames in one packet, and each new frame goes into the remote player's
//! 128-slot input queue (`InputQueue::advance_queue_head` first replicates the frames before
//! `start_frame`), which fails `assert!(self.length <= INPUT_QUEUE_LENGTH)` past 128: a first
//! packet starting at frame 200, or one carrying 129 new frames, panics the receiver. And a
//! `ChecksumReport` reaches a session only when desync detection is on (`on_checksum_report`'s
//! `debug_assert!(false, ...)`).
//!
//! Not guarded (no stateless or per-peer rule can see it): a disconnect, requested by a peer
//! or reported in its connection statuses (or found by the receiver's own timeout), of a player
//! whose last input is the frame just before the receiver's current one panics ggrs 0.13.0:
//! `P2PSession::disconnect_player_at_frame` sets `disconnect_frame = last_frame + 1` when
//! `current_frame > last_frame`, and the next `advance_frame` asks `SyncLayer::load_frame` for
//! the current frame ("must load frame in the past"); fixed upstream after the release
//! (gschup/ggrs 0cda022, `current_frame > last_frame + 1`), found by this module's mutation
//! test. A disconnect report can also name a frame older than the receiver's prediction window
//! (`load_frame`'s other asserts); ggrs keeps the highest frame each peer reported, which
//! narrows that to a peer's first reports. A peer that acknowledges frames it
//! never received only loses them itself; checksum reports for far-future frames stay in
//! ggrs's `pending_checksums` map until the session ends.

use bincode::Options;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::sim::{Action, TickInput};

/// The largest datagram [`decode`] accepts, in bytes: ggrs's own UDP socket's receive buffer
/// (`RECV_BUFFER_SIZE`). The largest message ggrs 0.13 sends in a Ledge race is an `Input`
/// with [`MAX_PENDING_INPUTS`] frames of four players (1,806 bytes before run-length coding,
/// at most about 2,800 after it, plus a 60-byte header).
pub const MAX_DATAGRAM: usize = 4096;

/// The most players a session may have: the race's 1 to 4.
pub const MAX_PLAYERS: usize = 4;

/// The highest frame (tick) number a message may carry: 2^24 − 1, 77.7 hours at 60 Hz. Far
/// above any race, far enough below `i32::MAX` that ggrs's frame arithmetic cannot overflow.
pub const MAX_FRAME: i32 = (1 << 24) - 1;

/// The most frames one `Input` message may carry: ggrs's pending-output queue
/// (`PENDING_OUTPUT_SIZE`, 128) plus the one frame it sends before it notices the overflow.
pub const MAX_PENDING_INPUTS: usize = 129;

/// The largest decompressed `Input` payload, in bytes: [`MAX_PENDING_INPUTS`] frames, each a
/// 2-byte length and [`MAX_PLAYERS`] inputs of [`NetInput::WIRE_SIZE`] bytes.
pub const MAX_INPUT_PAYLOAD: usize = MAX_PENDING_INPUTS * (2 + MAX_PLAYERS * NetInput::WIRE_SIZE);

/// The most frames one `Input` may add beyond the last frame [`PeerFilter`] let through from
/// its peer (for a peer's first, counting from frame 0). An honest peer is at most its input
/// delay plus the prediction window plus ours ahead (under 40 frames for delays up to 10 and a
/// window of 8); ggrs's input queue holds 128.
pub const MAX_NEW_FRAMES: i32 = 64;

/// The longest round trip a `QualityReply` may imply, in milliseconds (one minute).
pub const MAX_RTT_MS: u128 = 60_000;

/// The actions a race sends, bit `i` of [`NetInput::held`] and [`NetInput::pressed`] being
/// `NET_ACTIONS[i]` (which is also its [`Action::index`]). Rewind is off in a race and never sent.
pub const NET_ACTIONS: [Action; 5] = [Action::Left, Action::Right, Action::Up, Action::Down, Action::Jump];

/// One player's input for one tick as the race sends it: ggrs's `Config::Input`.
///
/// Bit `i` of `held` and `pressed` is action `i` of [`NET_ACTIONS`] (bits 0..=4; bits 5..=7 are
/// zero when sent and ignored when read). `stick` is the left stick's x quantised to 1/127:
/// `stick = round(stick_x * 127)` clamped to `-127..=127` (NaN sends 0), read back as
/// `stick / 127` (−128, which no honest peer sends, reads as −127).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NetInput {
    /// Held at the end of the tick's events: bit `i` is [`NET_ACTIONS`]`[i]`.
    pub held: u8,
    /// Pressed (an edge) during the tick: bit `i` is [`NET_ACTIONS`]`[i]`.
    pub pressed: u8,
    /// The stick's x in 1/127 steps, −127..=127.
    pub stick: i8,
}

impl NetInput {
    /// The size of one input on the wire (bincode, fixed-width), in bytes.
    pub const WIRE_SIZE: usize = 3;

    /// The bits of [`NetInput::held`]/[`NetInput::pressed`] that carry an action.
    pub const ACTION_BITS: u8 = (1 << NET_ACTIONS.len()) - 1;

    /// The [`TickInput`] this input stands for: the five race actions' held and pressed state
    /// (bits 5..=7 ignored), Rewind neither held nor pressed, the stick as `stick / 127`, in
    /// [−1, 1].
    pub fn to_tick_input(&self) -> TickInput {
        let mut t = TickInput::default();
        for (bit, action) in NET_ACTIONS.iter().enumerate() {
            t.held[action.index()] = self.held & (1 << bit) != 0;
            t.pressed[action.index()] = self.pressed & (1 << bit) != 0;
        }
        t.stick_x = f32::from(self.stick.max(-127)) / 127.0;
        t
    }

    /// `input` as every other peer will see it: sent and read back (Rewind dropped, the stick
    /// quantised). The local peer steps on this so that every peer steps on the same input.
    /// Idempotent.
    pub fn quantise(input: &TickInput) -> TickInput {
        NetInput::from(input).to_tick_input()
    }
}

impl From<&TickInput> for NetInput {
    /// The race's input for a tick: see [`NetInput`] for the bits and the stick's quantisation.
    fn from(t: &TickInput) -> Self {
        let mut n = NetInput::default();
        for (bit, action) in NET_ACTIONS.iter().enumerate() {
            n.held |= u8::from(t.held[action.index()]) << bit;
            n.pressed |= u8::from(t.pressed[action.index()]) << bit;
        }
        // `as` saturates and sends NaN to 0; the clamp keeps −128 out.
        n.stick = (t.stick_x * 127.0).round().clamp(-127.0, 127.0) as i8;
        n
    }
}

/// Why a datagram was refused. Every refusal is a dropped, counted datagram, never a panic.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// Over [`MAX_DATAGRAM`] bytes.
    #[error("datagram of {0} bytes is over the {MAX_DATAGRAM}-byte limit")]
    TooLong(usize),
    /// Not a bincode `ggrs::Message`: truncated, a bad tag or bool, trailing bytes (bincode's
    /// reason).
    #[error("not a ggrs message: {0}")]
    Malformed(String),
    /// The session's player count given to [`decode`] is not 1..=[`MAX_PLAYERS`].
    #[error("a session of {0} players (1..={MAX_PLAYERS})")]
    SessionPlayers(usize),
    /// An `Input` whose connection statuses are not one per player of the session.
    #[error("input for {got} players, the session has {expected}")]
    PlayerCount {
        /// Statuses in the message.
        got: usize,
        /// Players in the session.
        expected: usize,
    },
    /// A frame number outside its range (see [`MAX_FRAME`]).
    #[error("{field} {frame} out of range")]
    Frame {
        /// Which field.
        field: &'static str,
        /// Its value.
        frame: i32,
    },
    /// An `Input`'s bytes do not decompress into whole inputs.
    #[error("bad input bytes: {0}")]
    InputBytes(&'static str),
    /// Header magic 0, which ggrs never sends.
    #[error("header magic 0")]
    ZeroMagic,
    /// A `QualityReply` implying a round trip over [`MAX_RTT_MS`].
    #[error("quality reply implies a round trip of {0} ms")]
    RoundTrip(u128),
    /// ([`PeerFilter`]) The peer's magic changed.
    #[error("magic {got:#06x}, the peer's is {pinned:#06x}")]
    Magic {
        /// In this message.
        got: u16,
        /// The peer's first.
        pinned: u16,
    },
    /// ([`PeerFilter`]) An `Input` starting after the next frame the peer can send.
    #[error("input starts at frame {start}, the peer's next is at most {max}")]
    FrameGap {
        /// The message's `start_frame`.
        start: i32,
        /// The latest start accepted.
        max: i32,
    },
    /// ([`PeerFilter`]) An `Input` adding more than [`MAX_NEW_FRAMES`] frames.
    #[error("input frames {start}..={last} add too many after frame {next}")]
    TooManyFrames {
        /// The message's `start_frame`.
        start: i32,
        /// Its last frame.
        last: i32,
        /// The peer's next frame before it.
        next: i32,
    },
    /// ([`PeerFilter`]) A checksum report to a session without desync detection.
    #[error("checksum report without desync detection")]
    UnexpectedChecksum,
}

/// `msg` as one datagram: bincode 1, `bincode::serialize`'s options (what ggrs's
/// `UdpNonBlockingSocket` sends). Any length; a Ledge race's messages are under
/// [`MAX_DATAGRAM`] bytes.
pub fn encode(msg: &ggrs::Message) -> Vec<u8> {
    // Cannot fail: a Message is plain data (no maps with non-string keys, no sequences of
    // unknown length) and the options have no size limit.
    bincode::serialize(msg).unwrap_or_default()
}

/// The `ggrs::Message` in `bytes`, for a session of `num_players` players, or why it was
/// refused (the module docs list every rule and what it protects). Never panics; allocates at
/// most about the datagram's size plus [`MAX_INPUT_PAYLOAD`].
///
/// # Errors
/// [`DecodeError::SessionPlayers`] for a `num_players` outside 1..=[`MAX_PLAYERS`]; any other
/// [`DecodeError`] but the [`PeerFilter`] ones for a refused datagram.
pub fn decode(bytes: &[u8], num_players: usize) -> Result<ggrs::Message, DecodeError> {
    decode_checked(bytes, num_players).map(|(msg, _)| msg)
}

/// What [`PeerFilter`] needs to know of a decoded message.
struct Summary {
    magic: u16,
    /// An `Input`'s first and last frame.
    input_frames: Option<(i32, i32)>,
    checksum: bool,
}

/// bincode 1 as `bincode::serialize`, but refusing trailing bytes and reading at most `limit`.
fn options(limit: usize) -> impl Options + Copy {
    bincode::DefaultOptions::new().with_fixint_encoding().with_limit(limit as u64)
}

fn decode_checked(bytes: &[u8], num_players: usize) -> Result<(ggrs::Message, Summary), DecodeError> {
    if !(1..=MAX_PLAYERS).contains(&num_players) {
        return Err(DecodeError::SessionPlayers(num_players));
    }
    if bytes.len() > MAX_DATAGRAM {
        return Err(DecodeError::TooLong(bytes.len()));
    }
    let opts = options(bytes.len());
    let wire: wire::Message = opts.deserialize(bytes).map_err(|e| DecodeError::Malformed(e.to_string()))?;
    let summary = check(&wire, num_players)?;
    let msg = opts.deserialize(bytes).map_err(|e| DecodeError::Malformed(e.to_string()))?;
    Ok((msg, summary))
}

fn frame_in(field: &'static str, frame: i32, min: i32, max: i32) -> Result<(), DecodeError> {
    if (min..=max).contains(&frame) { Ok(()) } else { Err(DecodeError::Frame { field, frame }) }
}

/// The stateless rules (module docs) on the mirror of a message.
fn check(msg: &wire::Message, num_players: usize) -> Result<Summary, DecodeError> {
    use wire::Body;
    if msg.header.magic == 0 {
        return Err(DecodeError::ZeroMagic);
    }
    let mut summary = Summary { magic: msg.header.magic, input_frames: None, checksum: false };
    match &msg.body {
        Body::SyncRequest(_) | Body::SyncReply(_) | Body::QualityReport(_) | Body::KeepAlive => {}
        Body::Input(input) => {
            if input.peer_connect_status.len() != num_players {
                return Err(DecodeError::PlayerCount {
                    got: input.peer_connect_status.len(),
                    expected: num_players,
                });
            }
            for status in &input.peer_connect_status {
                frame_in("connect status frame", status.last_frame, -1, MAX_FRAME)?;
            }
            frame_in("ack frame", input.ack_frame, -1, MAX_FRAME)?;
            frame_in("start frame", input.start_frame, 0, MAX_FRAME)?;
            let count = input_count(&input.bytes, num_players)?;
            // count ≤ MAX_PENDING_INPUTS, so this cannot overflow.
            let last = input.start_frame + count as i32 - 1;
            frame_in("last input frame", last, 0, MAX_FRAME)?;
            summary.input_frames = Some((input.start_frame, last));
        }
        Body::InputAck(ack) => frame_in("ack frame", ack.ack_frame, -1, MAX_FRAME)?,
        Body::QualityReply(reply) => {
            let rtt = now_ms().saturating_sub(reply.pong);
            if rtt > MAX_RTT_MS {
                return Err(DecodeError::RoundTrip(rtt));
            }
        }
        Body::ChecksumReport(report) => {
            frame_in("checksum frame", report.frame, 0, MAX_FRAME)?;
            summary.checksum = true;
        }
    }
    Ok(summary)
}

/// Milliseconds since the Unix epoch, as ggrs's `millis_since_epoch` (0 before 1970).
fn now_ms() -> u128 {
    web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0)
}

/// How many frames an `Input`'s compressed bytes hold, checking that ggrs's
/// `compression::decode` will read them without panicking or allocating more than
/// [`MAX_INPUT_PAYLOAD`], and into whole inputs for 1..=`num_players` players a frame.
fn input_count(bytes: &[u8], num_players: usize) -> Result<usize, DecodeError> {
    let buf = rle_decode(bytes).map_err(DecodeError::InputBytes)?;
    let mut pos = 0;
    let mut count = 0;
    while pos < buf.len() {
        let Some(prefix) = buf.get(pos..pos + 2) else {
            return Err(DecodeError::InputBytes("truncated length prefix"));
        };
        let len = usize::from(u16::from_le_bytes([prefix[0], prefix[1]]));
        pos += 2;
        if len == 0 || len % NetInput::WIRE_SIZE != 0 || len > num_players * NetInput::WIRE_SIZE {
            return Err(DecodeError::InputBytes("an input is not 1..=players whole inputs"));
        }
        if pos + len > buf.len() {
            return Err(DecodeError::InputBytes("truncated input"));
        }
        pos += len;
        count += 1;
    }
    if count == 0 {
        return Err(DecodeError::InputBytes("no inputs"));
    }
    if count > MAX_PENDING_INPUTS {
        return Err(DecodeError::InputBytes("too many frames"));
    }
    Ok(count)
}

/// `bitfield_rle::decode` (0.2.1), checked: each varint at most 4 bytes and complete, the
/// output at most [`MAX_INPUT_PAYLOAD`] bytes, every literal run inside `data`.
fn rle_decode(data: &[u8]) -> Result<Vec<u8>, &'static str> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let mut next: u64 = 0;
        let mut shift = 0;
        loop {
            let Some(&byte) = data.get(pos) else { return Err("truncated run length") };
            pos += 1;
            next |= u64::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
            if shift >= 28 {
                return Err("run length over 4 bytes");
            }
        }
        let repeat = next & 1 == 1;
        // next < 2^28, so the run fits a usize on every target.
        let run = (if repeat { next >> 2 } else { next >> 1 }) as usize;
        if out.len() + run > MAX_INPUT_PAYLOAD {
            return Err("decompresses to too many bytes");
        }
        if repeat {
            out.resize(out.len() + run, if next & 2 != 0 { 0xff } else { 0 });
        } else {
            let Some(literal) = data.get(pos..pos + run) else { return Err("literal run past the end") };
            out.extend_from_slice(literal);
            pos += run;
        }
    }
    Ok(out)
}

/// The per-peer rules of [`decode`] (module docs): one filter per remote address, fed every
/// datagram from it in arrival order.
#[derive(Clone, Debug)]
pub struct PeerFilter {
    num_players: usize,
    desync_detection: bool,
    magic: Option<u16>,
    /// One past the last input frame let through; `None` before the first input.
    next_frame: Option<i32>,
}

impl PeerFilter {
    /// A filter for one peer of a session of `num_players` players (1..=[`MAX_PLAYERS`]; other
    /// counts refuse every datagram), `desync_detection` saying whether the session checks
    /// checksums (ggrs's `DesyncDetection::On`).
    pub fn new(num_players: usize, desync_detection: bool) -> Self {
        PeerFilter { num_players, desync_detection, magic: None, next_frame: None }
    }

    /// [`decode`], then this peer's rules; an accepted message updates what the filter
    /// remembers (the peer's magic, its latest input frame).
    ///
    /// # Errors
    /// Any [`DecodeError`].
    pub fn decode(&mut self, bytes: &[u8]) -> Result<ggrs::Message, DecodeError> {
        let (msg, summary) = decode_checked(bytes, self.num_players)?;
        if let Some(pinned) = self.magic
            && pinned != summary.magic
        {
            return Err(DecodeError::Magic { got: summary.magic, pinned });
        }
        if summary.checksum && !self.desync_detection {
            return Err(DecodeError::UnexpectedChecksum);
        }
        if let Some((start, last)) = summary.input_frames {
            let next = self.next_frame.unwrap_or(0);
            if self.next_frame.is_some() && start > next {
                return Err(DecodeError::FrameGap { start, max: next });
            }
            // Frames are in 0..=MAX_FRAME: no overflow.
            if last + 1 - next > MAX_NEW_FRAMES {
                return Err(DecodeError::TooManyFrames { start, last, next });
            }
            self.next_frame = Some(next.max(last + 1));
        }
        self.magic = Some(summary.magic);
        Ok(msg)
    }
}

/// Mirrors of ggrs 0.13's `network/messages.rs`, field for field and variant for variant, so
/// that bincode reads the same bytes into them as into `ggrs::Message`.
mod wire {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Serialize, Deserialize)]
    pub struct ConnectionStatus {
        pub disconnected: bool,
        pub last_frame: i32,
    }

    #[derive(Debug, Serialize, Deserialize)]
    pub struct SyncRequest {
        pub random_request: u32,
    }

    #[derive(Debug, Serialize, Deserialize)]
    pub struct SyncReply {
        pub random_reply: u32,
    }

    #[derive(Debug, Serialize, Deserialize)]
    pub struct Input {
        pub peer_connect_status: Vec<ConnectionStatus>,
        pub disconnect_requested: bool,
        pub start_frame: i32,
        pub ack_frame: i32,
        pub bytes: Vec<u8>,
    }

    #[derive(Debug, Serialize, Deserialize)]
    pub struct InputAck {
        pub ack_frame: i32,
    }

    #[derive(Debug, Serialize, Deserialize)]
    pub struct QualityReport {
        pub frame_advantage: i16,
        pub ping: u128,
    }

    #[derive(Debug, Serialize, Deserialize)]
    pub struct QualityReply {
        pub pong: u128,
    }

    #[derive(Debug, Serialize, Deserialize)]
    pub struct ChecksumReport {
        pub checksum: u128,
        pub frame: i32,
    }

    #[derive(Debug, Serialize, Deserialize)]
    pub struct Header {
        pub magic: u16,
    }

    #[derive(Debug, Serialize, Deserialize)]
    pub enum Body {
        SyncRequest(SyncRequest),
        SyncReply(SyncReply),
        Input(Input),
        InputAck(InputAck),
        QualityReport(QualityReport),
        QualityReply(QualityReply),
        ChecksumReport(ChecksumReport),
        KeepAlive,
    }

    #[derive(Debug, Serialize, Deserialize)]
    pub struct Message {
        pub header: Header,
        pub body: Body,
    }
}

#[cfg(test)]
#[path = "codec_tests.rs"]
mod tests;
