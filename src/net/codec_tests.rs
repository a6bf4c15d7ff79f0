//! Tests of the race input and the datagram codec, on datagrams captured from live ggrs
//! sessions.
//!
//! Clock: simulated network time (the races these tests run); the panic demonstrations and the
//! quality-report sample let real time pass (ggrs's timers).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use super::*;
use crate::net::link::LinkSpec;
use crate::net::race_test::{Race, Wire};
use crate::sim::rng::SplitMix64;

fn tick(held: &[Action], pressed: &[Action], stick_x: f32) -> TickInput {
    let mut t = TickInput { stick_x, ..TickInput::default() };
    held.iter().for_each(|a| t.held[a.index()] = true);
    pressed.iter().for_each(|a| t.pressed[a.index()] = true);
    t
}

#[test]
fn every_held_and_pressed_combination_round_trips() {
    for held in 0..32u8 {
        for pressed in 0..32u8 {
            let n = NetInput { held, pressed, stick: -3 };
            let t = n.to_tick_input();
            assert!(!t.held(Action::Rewind) && !t.pressed(Action::Rewind));
            assert_eq!(NetInput::from(&t), n);
            for (bit, a) in NET_ACTIONS.iter().enumerate() {
                assert_eq!(t.held(*a), held & (1 << bit) != 0);
                assert_eq!(t.pressed(*a), pressed & (1 << bit) != 0);
            }
            assert_eq!(NetInput::quantise(&t), t);
        }
    }
    // Rewind is never sent; bits 5..=7 are ignored when read.
    let t = tick(&[Action::Rewind, Action::Jump], &[Action::Rewind], 0.0);
    assert_eq!(NetInput::from(&t), NetInput { held: 1 << 4, pressed: 0, stick: 0 });
    assert_eq!(
        NetInput { held: 0xe0, pressed: 0xff, stick: 0 }.to_tick_input(),
        tick(&[], &NET_ACTIONS, 0.0)
    );
}

#[test]
fn the_stick_is_quantised_to_127ths() {
    let q = |x: f32| NetInput::from(&tick(&[], &[], x)).stick;
    assert_eq!([q(1.0), q(-1.0), q(0.0), q(-0.0)], [127, -127, 0, 0]);
    assert_eq!(
        [q(2.0), q(-5.0), q(f32::NAN), q(f32::INFINITY), q(f32::NEG_INFINITY)],
        [127, -127, 0, 127, -127]
    );
    assert_eq!([q(0.5), q(-0.5), q(0.003), q(0.004)], [64, -64, 0, 1]);
    let back = |stick: i8| NetInput { stick, ..NetInput::default() }.to_tick_input().stick_x;
    assert_eq!([back(127), back(-127), back(0), back(-128)], [1.0, -1.0, 0.0, -1.0]);
    for k in -127..=127i8 {
        assert_eq!(q(back(k)), k, "step {k}");
    }
}

#[test]
fn quantise_is_idempotent() {
    let mut rng = SplitMix64::new(26);
    for _ in 0..10_000 {
        let bits = rng.next_u64();
        let x = (bits as u32 as f32 / u32::MAX as f32) * 2.4 - 1.2;
        let mut t = tick(&[], &[], x);
        for i in 0..Action::COUNT {
            t.held[i] = bits >> (32 + i) & 1 == 1;
            t.pressed[i] = bits >> (40 + i) & 1 == 1;
        }
        let once = NetInput::quantise(&t);
        assert_eq!(NetInput::quantise(&once), once);
        assert!((-1.0..=1.0).contains(&once.stick_x));
    }
}

/// Datagrams of two live sessions over a lossy link, quality reports and keep-alives included
/// (those wait for 200 ms of real time).
fn captured() -> Vec<Vec<u8>> {
    let mut race = Race::new("latency=30,jitter=20,loss=0.05,dup=0.05,seed=1".parse().unwrap(), 2, Wire::Tap);
    race.run(60, 5_000);
    std::thread::sleep(Duration::from_millis(250));
    race.run(120, 5_000);
    race.sent.take().into_iter().map(|(_, bytes)| bytes).collect()
}

/// A datagram's message kind: its `MessageBody` tag.
fn tag(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes[2..6].try_into().unwrap())
}

#[test]
fn real_messages_round_trip() {
    let sent = captured();
    let mut kinds: Vec<u32> = sent.iter().map(|b| tag(b)).collect();
    kinds.sort_unstable();
    kinds.dedup();
    // SyncRequest, SyncReply, Input, InputAck, QualityReport, QualityReply, ChecksumReport; the
    // keep-alive (7) only when nothing else was sent for 200 ms.
    assert!(kinds.starts_with(&[0, 1, 2, 3, 4, 5, 6]), "kinds {kinds:?}");
    let count = |k| sent.iter().filter(|b| tag(b) == k).count();
    eprintln!("sent by kind (SyncRequest..KeepAlive): {:?}", (0..8).map(count).collect::<Vec<_>>());
    for bytes in &sent {
        assert!(bytes.len() <= MAX_DATAGRAM);
        let msg = decode(bytes, 2).unwrap_or_else(|e| panic!("{e}: {bytes:?}"));
        assert_eq!(&encode(&msg), bytes);
        assert_eq!(bincode::serialize(&msg).unwrap(), *bytes);
        // The mirror reads and writes the same bytes.
        let wire: wire::Message = options(bytes.len()).deserialize(bytes).unwrap();
        assert_eq!(&bincode::serialize(&wire).unwrap(), bytes);
    }
    // A 2-player message is not a 4-player one: Inputs carry the player count.
    assert!(
        sent.iter()
            .filter(|b| tag(b) == 2)
            .all(|b| matches!(decode(b, 4), Err(DecodeError::PlayerCount { got: 2, expected: 4 })))
    );
}

/// One mutation of `base`, drawn from `rng`.
fn mutate(rng: &mut SplitMix64, base: &[u8]) -> Vec<u8> {
    let mut b = base.to_vec();
    let r = rng.next_u64();
    let pick = |n: usize, r: u64| if n == 0 { 0 } else { (r % n as u64) as usize };
    match r % 8 {
        0 => b.truncate(pick(b.len(), r >> 8)),
        1..=3 => {
            for _ in 0..=(r >> 3) % 3 {
                let bit = pick(b.len() * 8, rng.next_u64());
                if !b.is_empty() {
                    b[bit / 8] ^= 1 << (bit % 8);
                }
            }
        }
        4 => {
            let i = pick(b.len(), r >> 8);
            if !b.is_empty() {
                b[i] = (r >> 40) as u8;
            }
        }
        5 => {
            let i = pick(b.len() + 1, r >> 8);
            b.insert(i, (r >> 40) as u8);
        }
        6 => b.extend((0..(r >> 8) % 16).map(|_| rng.next_u64() as u8)),
        _ => b = (0..(r >> 8) % 64).map(|_| rng.next_u64() as u8).collect(),
    }
    b
}

#[test]
fn mutated_datagrams_never_panic_decode_or_a_live_session() {
    // Mutations of what peer 0 of a live race has just sent (its magic, its current frames),
    // injected into peer 1 as coming from peer 0, through peer 1's socket; a fresh race every
    // 5,000 mutations (a mutated disconnect request ends a race's interesting part).
    let fresh = || {
        let mut race = Race::new("latency=30,jitter=20,loss=0.05,seed=3".parse().unwrap(), 2, Wire::Tap);
        race.run(30, 5_000);
        race
    };
    let mut race = fresh();
    let (mut refused, mut disconnects, mut disconnect_reports) = (0, 0, 0);
    let mut rng = SplitMix64::new(2026);
    let (mut ok, mut four) = (0, 0);
    for i in 0..100_000 {
        if i % 5_000 == 4_999 {
            race.step();
            refused += race.hub.stats(1).undecodable;
            disconnects += race.peers[1].disconnects;
            race = fresh();
        }
        let bytes = {
            let sent = race.sent.borrow();
            let recent: Vec<&Vec<u8>> =
                sent.iter().rev().filter(|(from, _)| *from == 0).take(64).map(|(_, b)| b).collect();
            let pick = (rng.next_u64() % recent.len() as u64) as usize;
            mutate(&mut rng, recent[pick])
        };
        // The fuzz target's rule (fuzz/fuzz_targets/net_datagram.rs).
        for players in [2, 4] {
            match decode(&bytes, players) {
                Ok(msg) => assert_eq!(encode(&msg), bytes),
                Err(e) => assert!(!e.to_string().contains(['\n', '\r']), "{e}"),
            }
        }
        four += usize::from(decode(&bytes, 4).is_ok());
        if decode(&bytes, 2).is_ok() {
            ok += 1;
            // ggrs 0.13.0 panics on a disconnect of a player whose last input is the frame
            // before the current one (`disconnect_player_at_frame` then rolls back to the
            // current frame: `load_frame`'s "must load frame in the past"), fixed upstream
            // after the release (gschup/ggrs 0cda022). No codec rule can see it (the codec docs'
            // "Not guarded"); such messages are left out here until ggrs has the fix.
            if reports_a_disconnect(&bytes) {
                disconnect_reports += 1;
            } else {
                race.hub.inject(0, 1, bytes, race.now_ns);
            }
        }
        if i % 20 == 0 {
            race.step();
        }
    }
    race.step();
    refused += race.hub.stats(1).undecodable;
    eprintln!(
        "{ok} of 100000 mutations decoded for 2 players ({four} for 4); the peer filters refused \
         {refused}; {disconnect_reports} reporting a disconnect were left out; the sessions saw \
         {disconnects} disconnects"
    );
    assert!(ok > 10_000, "too few mutations decode ({ok}) to exercise the session");
    assert!(refused < ok as u64, "some mutations reach the session");
}

/// Whether `bytes` (a message [`decode`] accepts) is an `Input` requesting a disconnect or
/// reporting a player disconnected.
fn reports_a_disconnect(bytes: &[u8]) -> bool {
    let msg: wire::Message = options(bytes.len()).deserialize(bytes).unwrap();
    match msg.body {
        wire::Body::Input(i) => {
            i.disconnect_requested || i.peer_connect_status.iter().any(|s| s.disconnected)
        }
        _ => false,
    }
}

/// The message ggrs would get from `wire`.
fn bytes_of(msg: &wire::Message) -> Vec<u8> {
    bincode::serialize(msg).unwrap()
}

fn statuses(n: usize) -> Vec<wire::ConnectionStatus> {
    (0..n).map(|_| wire::ConnectionStatus { disconnected: false, last_frame: -1 }).collect()
}

/// Run-length coding as literals only: `[len << 1 as varint][bytes]`, which ggrs decodes.
fn rle_literal(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut n = (raw.len() as u64) << 1;
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
    out.extend_from_slice(raw);
    out
}

/// `frames` one-player inputs, delta-coded (each a 2-byte length and 3 bytes).
fn input_bytes(frames: usize) -> Vec<u8> {
    rle_literal(&[3, 0, 1, 2, 3].repeat(frames))
}

fn input(start_frame: i32, bytes: Vec<u8>, n: usize) -> wire::Message {
    wire::Message {
        header: wire::Header { magic: 0x4c44 },
        body: wire::Body::Input(wire::Input {
            peer_connect_status: statuses(n),
            disconnect_requested: false,
            start_frame,
            ack_frame: -1,
            bytes,
        }),
    }
}

fn other(body: wire::Body) -> wire::Message {
    wire::Message { header: wire::Header { magic: 0x4c44 }, body }
}

#[test]
fn a_message_whose_connect_status_length_is_wrong_is_refused() {
    assert!(decode(&bytes_of(&input(2, input_bytes(1), 2)), 2).is_ok());
    for n in [0, 1, 3, 4] {
        let got = decode(&bytes_of(&input(2, input_bytes(1), n)), 2);
        assert_eq!(got, Err(DecodeError::PlayerCount { got: n, expected: 2 }));
    }
    let mut msg = input(2, input_bytes(1), 3);
    if let wire::Body::Input(i) = &mut msg.body {
        i.disconnect_requested = true;
    }
    assert_eq!(decode(&bytes_of(&msg), 2), Err(DecodeError::PlayerCount { got: 3, expected: 2 }));
}

#[test]
fn hostile_well_formed_messages_are_refused() {
    use DecodeError as E;
    let refused = |msg: &wire::Message| decode(&bytes_of(msg), 2).expect_err("refused");
    let frame = |f| matches!(f, E::Frame { .. });
    let bad_bytes = |f| matches!(f, E::InputBytes(_));
    assert!(frame(refused(&input(i32::MAX - 1, input_bytes(2), 2))));
    assert!(frame(refused(&input(-1, input_bytes(1), 2))));
    assert!(frame(refused(&input(MAX_FRAME, input_bytes(2), 2))));
    let mut stale = input(0, input_bytes(1), 2);
    if let wire::Body::Input(i) = &mut stale.body {
        i.peer_connect_status[1].last_frame = i32::MIN;
    }
    assert!(frame(refused(&stale)));
    // Input bytes: a truncated varint, a run-length bomb (2^40 zeros), a long varint, a
    // literal past the end, a 2-byte input, a truncated length prefix, nothing, 130 frames.
    for bytes in [
        vec![0x80],
        vec![0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
        vec![0x82, 0x80, 0x80, 0x80, 0x00],
        vec![0x0a, 3, 0],
        rle_literal(&[2, 0, 1, 2]),
        rle_literal(&[3]),
        Vec::new(),
        input_bytes(130),
        rle_literal(&[9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
    ] {
        assert!(bad_bytes(refused(&input(0, bytes.clone(), 2))), "{bytes:?}");
    }
    assert!(decode(&bytes_of(&input(0, input_bytes(129), 2)), 2).is_ok());
    assert!(decode(&bytes_of(&input(0, rle_literal(&[6, 0, 1, 2, 3, 4, 5, 6]), 2)), 2).is_ok());
    let pong = |pong| other(wire::Body::QualityReply(wire::QualityReply { pong }));
    assert!(matches!(refused(&pong(0)), E::RoundTrip(_)));
    assert!(decode(&bytes_of(&pong(now_ms())), 2).is_ok());
    assert!(decode(&bytes_of(&pong(u128::MAX)), 2).is_ok(), "a pong from the future is a round trip of 0");
    let checksum = |frame| other(wire::Body::ChecksumReport(wire::ChecksumReport { checksum: 1, frame }));
    assert!(frame(refused(&checksum(i32::MIN))));
    assert!(frame(refused(&checksum(-1))));
    let ack = other(wire::Body::InputAck(wire::InputAck { ack_frame: -2 }));
    assert!(frame(refused(&ack)));
    let mut zero = other(wire::Body::KeepAlive);
    zero.header.magic = 0;
    assert_eq!(refused(&zero), E::ZeroMagic);
    // Size, trailing bytes, the session's player count.
    let keep_alive = bytes_of(&other(wire::Body::KeepAlive));
    assert!(decode(&keep_alive, 2).is_ok());
    assert_eq!(decode(&vec![0; MAX_DATAGRAM + 1], 2), Err(E::TooLong(MAX_DATAGRAM + 1)));
    assert!(matches!(decode(&[keep_alive.clone(), vec![0]].concat(), 2), Err(E::Malformed(_))));
    assert_eq!(decode(&keep_alive, 0), Err(E::SessionPlayers(0)));
    assert_eq!(decode(&keep_alive, 5), Err(E::SessionPlayers(5)));
    // A vector length prefix far beyond the datagram.
    let mut huge = bytes_of(&input(0, input_bytes(1), 2));
    huge[6..14].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(decode(&huge, 2), Err(E::Malformed(_))));
}

#[test]
fn the_peer_filter_keeps_frames_contiguous_and_the_magic_pinned() {
    let mut f = PeerFilter::new(2, true);
    let mut msg = input(70, input_bytes(1), 2);
    assert!(matches!(f.decode(&bytes_of(&msg)), Err(DecodeError::TooManyFrames { .. })));
    msg = input(2, input_bytes(3), 2);
    assert!(f.decode(&bytes_of(&msg)).is_ok()); // frames 2..=4
    assert!(f.decode(&bytes_of(&input(3, input_bytes(5), 2))).is_ok()); // 3..=7, overlapping
    assert_eq!(
        f.decode(&bytes_of(&input(9, input_bytes(1), 2))),
        Err(DecodeError::FrameGap { start: 9, max: 8 })
    );
    assert!(matches!(
        f.decode(&bytes_of(&input(8, input_bytes(65), 2))),
        Err(DecodeError::TooManyFrames { .. })
    ));
    assert!(f.decode(&bytes_of(&input(8, input_bytes(64), 2))).is_ok());
    let mut alien = other(wire::Body::KeepAlive);
    alien.header.magic = 7;
    assert_eq!(f.decode(&bytes_of(&alien)), Err(DecodeError::Magic { got: 7, pinned: 0x4c44 }));
    let checksum =
        bytes_of(&other(wire::Body::ChecksumReport(wire::ChecksumReport { checksum: 1, frame: 3 })));
    assert!(f.decode(&checksum).is_ok());
    assert_eq!(PeerFilter::new(2, false).decode(&checksum), Err(DecodeError::UnexpectedChecksum));
}

/// Whether a peer of a running race panics when `bytes` reach it from the other peer (with
/// that peer's magic, which ggrs checks once synchronized).
fn panics_on(wire_kind: Wire, mut bytes: Vec<u8>) -> bool {
    let mut race = Race::new(LinkSpec::default(), 2, wire_kind);
    race.run(20, 1_000);
    let magic = race.sent.borrow().iter().find(|(from, _)| *from == 0).map(|(_, b)| [b[0], b[1]]).unwrap();
    bytes[..2].copy_from_slice(&magic);
    race.hub.inject(0, 1, bytes, race.now_ns);
    catch_unwind(AssertUnwindSafe(|| {
        for _ in 0..3 {
            race.step();
        }
    }))
    .is_err()
}

/// What the codec refuses does panic ggrs 0.13 (a debug build) when handed to it raw, and not
/// through [`LinkSocket`](crate::net::link::LinkSocket). (Not shown: the run-length bomb, which
/// aborts the whole process on the allocation.)
#[test]
fn ggrs_panics_on_what_the_codec_refuses() {
    let hostile = [
        ("a truncated run-length varint", bytes_of(&input(21, vec![0x80], 2))),
        (
            "a quality reply with pong 0",
            bytes_of(&other(wire::Body::QualityReply(wire::QualityReply { pong: 0 }))),
        ),
    ];
    for (what, bytes) in hostile {
        assert!(decode(&bytes, 2).is_err(), "{what}");
        assert!(panics_on(Wire::Raw, bytes.clone()), "ggrs did not panic on {what}");
        assert!(!panics_on(Wire::Tap, bytes), "{what} reached the session");
    }
    // A first input starting at frame 200: well formed, refused by the peer filter. (Before
    // any input from the peer: a fresh pair, stepped until the sessions sync, not further.)
    let first = bytes_of(&input(200, input_bytes(1), 2));
    let fresh = |wire_kind| {
        let mut race = Race::new(LinkSpec::default(), 2, wire_kind);
        race.hub.inject(0, 1, first.clone(), 0);
        catch_unwind(AssertUnwindSafe(|| race.run(5, 1_000))).is_err()
    };
    assert!(decode(&first, 2).is_ok());
    assert!(fresh(Wire::Raw), "ggrs did not panic on a first input at frame 200");
    assert!(!fresh(Wire::Tap));
}
