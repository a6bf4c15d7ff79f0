//! Tests of the simulated network and its ggrs socket.
//!
//! Clock: simulated network time in integer nanoseconds, set by each test.

use super::*;
use crate::net::race_test::{FRAME_NS, Race, Wire};

const MS: u64 = 1_000_000;

fn spec(s: &str) -> LinkSpec {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Send `n` numbered one-byte-or-more datagrams 0 → 1 at time 0.
fn send_numbered(hub: &Hub, n: u32) {
    for i in 0..n {
        hub.send(0, 1, i.to_le_bytes().to_vec());
    }
}

fn numbers(due: &[(usize, Vec<u8>)]) -> Vec<u32> {
    due.iter().map(|(_, b)| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
}

#[test]
fn a_perfect_link_delivers_everything_in_order_at_once() {
    let hub = Hub::new(LinkSpec::default(), 2);
    send_numbered(&hub, 100);
    let due = hub.take_due(1);
    assert_eq!(numbers(&due), (0..100).collect::<Vec<_>>());
    assert!(due.iter().all(|(from, _)| *from == 0));
    assert!(hub.take_due(0).is_empty());
    let (a, b) = (hub.stats(0), hub.stats(1));
    assert_eq!((a.datagrams_sent, a.bytes_sent, a.lost, a.duplicated), (100, 400, 0, 0));
    assert_eq!(b.received, 100);
}

#[test]
fn latency_delays_by_exactly_that() {
    let hub = Hub::new(spec("latency=60"), 2);
    hub.set_time(5 * MS);
    send_numbered(&hub, 3);
    hub.set_time(65 * MS - 1);
    assert!(hub.take_due(1).is_empty());
    hub.set_time(65 * MS);
    assert_eq!(numbers(&hub.take_due(1)), [0, 1, 2]);
    // Time never goes back.
    hub.set_time(0);
    assert_eq!(hub.now_ns(), 65 * MS);
}

#[test]
fn loss_one_drops_everything() {
    let hub = Hub::new(spec("loss=1"), 2);
    send_numbered(&hub, 1000);
    hub.set_time(u64::MAX);
    assert!(hub.take_due(1).is_empty());
    assert_eq!(hub.stats(0).lost, 1000);
}

#[test]
fn half_loss_drops_about_half_and_the_same_ones_for_a_seed() {
    let survivors = |s: &str| {
        let hub = Hub::new(spec(s), 2);
        send_numbered(&hub, 10_000);
        numbers(&hub.take_due(1))
    };
    let a = survivors("loss=0.5,seed=7");
    assert!((4_800..=5_200).contains(&a.len()), "{} of 10000 survived", a.len());
    assert_eq!(a, survivors("loss=0.5,seed=7"));
    assert_ne!(a, survivors("loss=0.5,seed=8"));
}

#[test]
fn dup_duplicates() {
    let hub = Hub::new(spec("dup=1"), 2);
    send_numbered(&hub, 50);
    let got = numbers(&hub.take_due(1));
    let want: Vec<u32> = (0..50).flat_map(|i| [i, i]).collect();
    assert_eq!(got, want);
    assert_eq!(hub.stats(0).duplicated, 50);
    assert_eq!(hub.stats(1).received, 100);

    let hub = Hub::new(spec("dup=0.1,seed=3"), 2);
    send_numbered(&hub, 10_000);
    let extra = hub.take_due(1).len() - 10_000;
    assert!((800..=1_200).contains(&extra), "{extra} duplicates");
    assert_eq!(hub.stats(0).duplicated, extra as u64);
}

#[test]
fn jitter_reorders_but_never_delivers_before_the_latency() {
    let hub = Hub::new(spec("latency=20,jitter=40,seed=11"), 2);
    send_numbered(&hub, 1000);
    hub.set_time(20 * MS - 1);
    assert!(hub.take_due(1).is_empty());
    let mut got = Vec::new();
    for t in (20 * MS..=60 * MS).step_by(MS as usize) {
        hub.set_time(t);
        got.extend(numbers(&hub.take_due(1)));
    }
    assert_eq!(got.len(), 1000, "every datagram by latency + jitter");
    assert!(got.windows(2).any(|w| w[0] > w[1]), "jitter reorders");
    let mut sorted = got.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..1000).collect::<Vec<_>>());
}

#[test]
fn a_datagram_meets_the_same_fate_whatever_the_traffic_before_it() {
    // Four draws a datagram: the k-th datagram's delay does not depend on earlier losses.
    let delays = |s: &str| {
        let hub = Hub::new(spec(s), 2);
        let mut out = Vec::new();
        for i in 0..200u32 {
            hub.send(0, 1, i.to_le_bytes().to_vec());
        }
        for t in 0..=100 {
            hub.set_time(t * MS);
            out.extend(numbers(&hub.take_due(1)).into_iter().map(|n| (n, t)));
        }
        out
    };
    let lossy = delays("jitter=50,loss=0.3,seed=5");
    let clean: Vec<_> = delays("jitter=50,loss=0,seed=5");
    for (n, t) in &lossy {
        let first = clean.iter().find(|(m, _)| m == n).expect("delivered on the clean link");
        assert_eq!(first.1, *t, "datagram {n}");
    }
}

#[test]
fn the_spec_parser_accepts_the_right_strings() {
    assert_eq!(spec(""), LinkSpec::default());
    let s = spec("latency=60,jitter=40,loss=0.05,dup=0.02,seed=9");
    assert_eq!(s, LinkSpec { latency_ns: 60 * MS, jitter_ns: 40 * MS, loss: 0.05, dup: 0.02, seed: 9 });
    assert_eq!(spec("seed=18446744073709551615,latency=0.5").latency_ns, 500_000);
    assert_eq!(spec("loss=1,dup=0").loss, 1.0);
    assert_eq!(spec("latency=.25").latency_ns, 250_000);
    assert_eq!(spec(&s.to_string()), s);
}

#[test]
fn the_spec_parser_refuses_the_wrong_ones() {
    let refused = |s: &str| s.parse::<LinkSpec>().expect_err(s).to_string();
    assert_eq!(refused("loss=2"), r#"link: "loss=2": loss must be a probability 0..1"#);
    assert_eq!(refused("latency=1,,loss=0"), r#"link: "latency=1,,loss=0": empty part"#);
    assert_eq!(refused("latency=1,"), r#"link: "latency=1,": empty part"#);
    assert_eq!(refused("speed=3"), r#"link: "speed=3": unknown key (latency, jitter, loss, dup, seed)"#);
    assert_eq!(refused("loss=0.1,loss=0.2"), r#"link: "loss=0.2": loss given twice"#);
    assert_eq!(refused("latency"), r#"link: "latency": expected key=value"#);
    for bad in [
        "latency=-1",
        "latency=nan",
        "latency=inf",
        "latency=1e3",
        "latency=",
        "latency=.",
        "jitter=3600001",
        "dup=-0.1",
        "dup=5%",
        "loss=NaN",
        "seed=-1",
        "seed=1.5",
        "seed=18446744073709551616",
        " latency=1",
        "LATENCY=1",
    ] {
        let e = refused(bad);
        assert!(e.starts_with("link: \"") && !e.contains('\n'), "{bad}: {e}");
    }
}

#[test]
fn the_socket_drops_and_counts_what_does_not_decode() {
    let hub = Hub::new(LinkSpec::default(), 2);
    let mut socket = LinkSocket::new(&hub, 1, 2, true);
    hub.inject(0, 1, vec![0xff; 7], 0);
    hub.inject(0, 1, Vec::new(), 0);
    hub.inject(0, 1, vec![0; MAX_DATAGRAM_PLUS_ONE], 0);
    use ggrs::NonBlockingSocket;
    assert!(socket.receive_all_messages().is_empty());
    assert_eq!(hub.stats(1).received, 3);
    assert_eq!(hub.stats(1).undecodable, 3);
}

const MAX_DATAGRAM_PLUS_ONE: usize = crate::net::codec::MAX_DATAGRAM + 1;

#[test]
fn two_peers_race_over_a_bad_link_and_agree() {
    let mut race = Race::new(spec("latency=60,jitter=40,loss=0.05,dup=0.02,seed=26"), 2, Wire::Link);
    race.run(600, 20_000);
    let (frame, values) = race.common_confirmed();
    for peer in &race.peers {
        assert_eq!(peer.desyncs, 0, "peer {} saw a desync", peer.me);
        assert_eq!(peer.disconnects, 0, "peer {} saw a disconnect", peer.me);
        eprintln!(
            "peer {}: {} frames advanced, {} stalls, {} rollbacks, confirmed {}",
            peer.me, peer.frames_advanced, peer.stalls, peer.rollbacks, peer.confirmed
        );
    }
    assert!(frame >= 550, "common confirmed frame {frame}");
    assert!(values[0].is_some() && values[0] == values[1], "at frame {frame}: {values:?}");
    assert!(race.peers.iter().any(|p| p.rollbacks > 0), "a lossy, jittery link makes rollbacks");
    let (a, b) = (race.hub.stats(0), race.hub.stats(1));
    assert!(a.lost > 0 && b.lost > 0 && a.duplicated + b.duplicated > 0, "{a:?} {b:?}");
    assert_eq!(a.undecodable + b.undecodable, 0);
    eprintln!("link: {a:?} {b:?}; simulated {} ms", race.now_ns / FRAME_NS * 1000 / 60);
}

#[test]
fn two_peers_agree_on_a_perfect_link_without_stalls() {
    let mut race = Race::new(LinkSpec::default(), 2, Wire::Link);
    race.run(300, 2_000);
    let (frame, values) = race.common_confirmed();
    assert!(frame >= 290, "common confirmed frame {frame}");
    assert_eq!(values[0], values[1]);
    assert!(values[0].is_some());
    assert!(race.peers.iter().all(|p| p.desyncs == 0 && p.stalls == 0));
}
