//! Two real `ledge --net udp:… --headless` processes on loopback (NET.md "How it is
//! checked"): through a relay this test owns that delays (20 to 60 ms), reorders, drops (5 %)
//! and duplicates (5 %) datagrams and injects garbage from the right addresses, the peers end
//! on one `state_hash` and their `--record` replays in the lab to it; a peer killed with
//! SIGKILL mid-race is dropped after 3 s and the other races on to exit 0; a tuning mismatch
//! is refused by both peers with one line naming it.
//!
//! Clock: wall time (the peers run on the real clock at 60 frames a second).

mod common;

use common::field;
use common::proc::Proc;
use ledge::sim::rng::SplitMix64;
use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ledge() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ledge"))
}

/// A UDP port free now on loopback (bound and released).
fn free_port() -> u16 {
    UdpSocket::bind("127.0.0.1:0").and_then(|s| s.local_addr()).expect("a free port").port()
}

/// A peer: `--net udp:PORT --peers LIST --headless --autoplay SCRIPT --exit-after S`.
fn peer(name: &str, port: u16, peers: &str, script: &Path, exit_after: f64, record: Option<&Path>) -> Proc {
    let mut c = ledge();
    c.args([
        "--net",
        &format!("udp:{port}"),
        "--peers",
        peers,
        "--headless",
        "--exit-after",
        &exit_after.to_string(),
    ]);
    c.arg("--autoplay").arg(script);
    if let Some(r) = record {
        c.arg("--record").arg(r);
    }
    Proc::spawn(name, &mut c)
}

/// The relay: what peer A sends to `a_side` reaches B from `b_side`, and back. Each datagram
/// is delayed 20..=60 ms (so some overtake others), dropped 5 %, sent twice 5 %; every 40th a
/// garbage datagram goes to its receiver too. Returns the sockets' addresses and a stop flag.
fn relay(a: SocketAddr, b: SocketAddr) -> (SocketAddr, SocketAddr, Arc<AtomicBool>) {
    let a_side = UdpSocket::bind("127.0.0.1:0").expect("bind");
    let b_side = UdpSocket::bind("127.0.0.1:0").expect("bind");
    let addrs = (a_side.local_addr().expect("addr"), b_side.local_addr().expect("addr"));
    let stop = Arc::new(AtomicBool::new(false));
    let done = stop.clone();
    thread::spawn(move || {
        for s in [&a_side, &b_side] {
            s.set_nonblocking(true).expect("nonblocking");
        }
        let mut rng = SplitMix64::new(26);
        // (due, from our socket index, to, bytes)
        let mut queue: Vec<(Instant, usize, SocketAddr, Vec<u8>)> = Vec::new();
        let mut buf = [0u8; 8192];
        let mut n = 0u64;
        while !done.load(Ordering::Relaxed) {
            for (side, sock) in [&a_side, &b_side].iter().enumerate() {
                while let Ok((len, from)) = sock.recv_from(&mut buf) {
                    // From A on A's side goes out of B's side to B, and the other way round.
                    let (out, to) = if side == 0 && from == a {
                        (1, b)
                    } else if side == 1 && from == b {
                        (0, a)
                    } else {
                        continue;
                    };
                    n += 1;
                    let roll = rng.next_u64() % 100;
                    let delay =
                        |r: &mut SplitMix64| Instant::now() + Duration::from_millis(20 + r.next_u64() % 41);
                    if roll < 5 {
                        continue;
                    }
                    queue.push((delay(&mut rng), out, to, buf[..len].to_vec()));
                    if roll >= 95 {
                        queue.push((delay(&mut rng), out, to, buf[..len].to_vec()));
                    }
                    if n.is_multiple_of(40) {
                        let junk: Vec<u8> =
                            (0..(rng.next_u64() % 64)).map(|_| rng.next_u64() as u8).collect();
                        queue.push((Instant::now(), out, to, junk));
                    }
                }
            }
            let now = Instant::now();
            let mut i = 0;
            while i < queue.len() {
                if queue[i].0 <= now {
                    let (_, out, to, bytes) = queue.swap_remove(i);
                    let _ = [&a_side, &b_side][out].send_to(&bytes, to);
                } else {
                    i += 1;
                }
            }
            thread::sleep(Duration::from_micros(500));
        }
    });
    (addrs.0, addrs.1, stop)
}

#[test]
fn two_peers_through_a_hostile_relay_agree_and_their_records_replay() {
    let scratch = common::scratch::Scratch::new("race_udp_relay");
    let dir = scratch.dir();
    let (pa, pb) = (free_port(), free_port());
    let (a_side, b_side, stop) = relay(
        format!("127.0.0.1:{pa}").parse().expect("addr"),
        format!("127.0.0.1:{pb}").parse().expect("addr"),
    );
    let level1 = root().join("tests/levels/level1.lab");
    let (ra, rb) = (dir.join("a.lab"), dir.join("b.lab"));
    let a = peer("peer 1", pa, &format!("me,{a_side}"), &level1, 6.0, Some(&ra));
    let b = peer("peer 2", pb, &format!("{b_side},me"), &level1, 6.0, Some(&rb));
    let (mut a, mut b) = (a, b);
    let (sa, sb) = (a.wait_for(Duration::from_secs(60)), b.wait_for(Duration::from_secs(60)));
    stop.store(true, Ordering::Relaxed);
    let (_, out_a, err_a) = a.finish();
    let (_, out_b, err_b) = b.finish();
    assert!(
        sa.is_some_and(|s| s.success()) && sb.is_some_and(|s| s.success()),
        "{out_a}{err_a}\n{out_b}{err_b}"
    );
    let hash = field(&out_a, "ledge:", "state_hash").expect("a hash");
    assert_eq!(Some(hash), field(&out_b, "ledge:", "state_hash"), "{out_a}\n{out_b}");
    assert_eq!(field(&out_a, "ledge:", "confirmed_tick"), Some("360"), "{out_a}");
    assert_eq!(field(&out_b, "ledge:", "confirmed_tick"), Some("360"), "{out_b}");
    let dropped: u64 = [&out_a, &out_b]
        .iter()
        .map(|o| field(o, "net:", "dropped").and_then(|d| d.parse::<u64>().ok()).unwrap_or(0))
        .sum();
    assert!(dropped > 0, "the garbage was counted: {out_a}\n{out_b}");
    for rec in [&ra, &rb] {
        let out = ledge().arg("lab").arg(rec).arg("--summary").output().expect("lab");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a report");
        assert_eq!(report["summary"]["state_hash"], hash, "{} replays to another hash", rec.display());
    }
}

#[test]
fn a_peer_killed_mid_race_is_dropped_and_the_other_races_on() {
    let (pa, pb) = (free_port(), free_port());
    let level1 = root().join("tests/levels/level1.lab");
    let mut a = peer("peer 1", pa, &format!("me,127.0.0.1:{pb}"), &level1, 8.0, None);
    let mut b = peer("peer 2", pb, &format!("127.0.0.1:{pa},me"), &level1, 8.0, None);
    // Once both race (the handshake takes well under a second on loopback, then the 3 s
    // countdown), kill peer 2.
    thread::sleep(Duration::from_secs(5));
    assert!(b.poll().is_none(), "peer 2 ended early");
    b.child.kill().expect("SIGKILL");
    let status = a.wait_for(Duration::from_secs(40));
    let (_, out, err) = a.finish();
    assert!(status.is_some_and(|s| s.success()), "{out}{err}");
    assert!(err.lines().any(|l| l.starts_with("net: player 2 left at tick ")), "{err}");
    assert_eq!(field(&out, "ledge:", "confirmed_tick"), Some("480"), "{out}");
}

#[test]
fn a_tuning_mismatch_is_refused_by_both_peers_with_one_line() {
    let scratch = common::scratch::Scratch::new("race_udp_tuning");
    let dir = scratch.dir();
    let level1 = root().join("tests/levels/level1.lab");
    let tuned = dir.join("tuned.lab");
    let text = std::fs::read_to_string(&level1).expect("level1.lab");
    std::fs::write(&tuned, format!("tuning gravity 1999\n{text}")).expect("write");
    let (pa, pb) = (free_port(), free_port());
    let mut a = peer("peer 1", pa, &format!("me,127.0.0.1:{pb}"), &level1, 2.0, None);
    let mut b = peer("peer 2", pb, &format!("127.0.0.1:{pa},me"), &tuned, 2.0, None);
    let (sa, sb) = (a.wait_for(Duration::from_secs(40)), b.wait_for(Duration::from_secs(40)));
    for (p, s) in [(a, sa), (b, sb)] {
        let (_, out, err) = p.finish();
        assert_eq!(s.and_then(|s| s.code()), Some(2), "{out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("ledge: handshake refused: player ") && err.contains("races another tuning"),
            "{err}"
        );
    }
}
