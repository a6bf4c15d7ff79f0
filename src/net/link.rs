//! A seeded, simulated network for `ledge netlab` and the tests (LAB.md Version 4): N
//! endpoints (peer k's address is `k`) on one [`Hub`] whose clock its caller sets. Every
//! datagram is encoded and decoded exactly as a real transport does it ([`super::codec`]),
//! then delayed by `latency` plus a uniform draw in `[0, jitter]` (so jitter reorders), lost
//! with probability `loss` and sent twice with probability `dup`, one way, per datagram. The
//! draws come from one [`SplitMix64`] seeded by the spec, in send order, so a spec and the
//! same sends give the same network every time. ggrs has no network simulation of its own.
//!
//! Clock: simulated network time, integer nanoseconds, set by the caller ([`Hub::set_time`]).

use super::codec::{decode, encode};
use crate::sim::rng::SplitMix64;
use ggrs::{Message, NonBlockingSocket};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::str::FromStr;

/// `latency=MS,jitter=MS,loss=P,dup=P,seed=N` (LAB.md Version 4), each optional, default 0.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkSpec {
    /// One-way delay of every datagram, nanoseconds.
    pub latency_ns: u64,
    /// Most extra delay, drawn uniformly per datagram, nanoseconds.
    pub jitter_ns: u64,
    /// Probability a datagram is lost, 0..=1.
    pub loss: f64,
    /// Probability a datagram is delivered twice, 0..=1.
    pub dup: f64,
    /// Seed of the draws.
    pub seed: u64,
}

/// A malformed link spec: the part and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{part}\": {why} (expected latency=MS,jitter=MS,loss=P,dup=P,seed=N)")]
pub struct LinkSpecError {
    /// The offending `key=value`.
    pub part: String,
    /// What is wrong.
    pub why: &'static str,
}

/// Most latency or jitter a spec may ask for: 10 s.
const MAX_DELAY_MS: f64 = 10_000.0;

impl FromStr for LinkSpec {
    type Err = LinkSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut spec = LinkSpec::default();
        let mut seen: Vec<&str> = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty() || s.trim().is_empty()) {
            if part.is_empty() {
                continue;
            }
            let bad = |why| LinkSpecError { part: part.to_string(), why };
            let (key, value) = part.split_once('=').ok_or_else(|| bad("not KEY=VALUE"))?;
            if seen.contains(&key) {
                return Err(bad("given twice"));
            }
            seen.push(key);
            match key {
                "latency" | "jitter" => {
                    let ms: f64 = value.parse().map_err(|_| bad("not a number of milliseconds"))?;
                    if !(0.0..=MAX_DELAY_MS).contains(&ms) {
                        return Err(bad("milliseconds must be 0 to 10000"));
                    }
                    let ns = (ms * 1e6).round() as u64;
                    if key == "latency" { spec.latency_ns = ns } else { spec.jitter_ns = ns }
                }
                "loss" | "dup" => {
                    let p: f64 = value.parse().map_err(|_| bad("not a number"))?;
                    if !(0.0..=1.0).contains(&p) {
                        return Err(bad("a probability must be 0 to 1"));
                    }
                    if key == "loss" { spec.loss = p } else { spec.dup = p }
                }
                "seed" => spec.seed = value.parse().map_err(|_| bad("not a whole number"))?,
                _ => return Err(bad("unknown key")),
            }
        }
        Ok(spec)
    }
}

/// What one endpoint sent and received.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Datagrams it sent.
    pub datagrams: u64,
    /// Bytes it sent.
    pub bytes: u64,
    /// Of those, lost on the way.
    pub lost: u64,
    /// Of those, delivered twice.
    pub duplicated: u64,
    /// Datagrams delivered to it.
    pub received: u64,
    /// Delivered datagrams that did not decode (dropped and counted).
    pub undecodable: u64,
}

/// The simulated network.
#[derive(Debug)]
pub struct Hub {
    spec: LinkSpec,
    rng: SplitMix64,
    now: u64,
    /// In flight: (delivery time, send order) → (to, from, bytes).
    flight: BTreeMap<(u64, u64), (usize, usize, Vec<u8>)>,
    sent: u64,
    traffic: Vec<Traffic>,
}

impl Hub {
    /// A network of `endpoints` endpoints, at time 0, shared by their sockets.
    pub fn new(spec: LinkSpec, endpoints: usize) -> Rc<RefCell<Hub>> {
        let rng = SplitMix64::new(spec.seed);
        let traffic = vec![Traffic::default(); endpoints];
        Rc::new(RefCell::new(Hub { spec, rng, now: 0, flight: BTreeMap::new(), sent: 0, traffic }))
    }

    /// Set the network's clock, nanoseconds (never backwards: an earlier time is ignored).
    pub fn set_time(&mut self, now_ns: u64) {
        self.now = self.now.max(now_ns);
    }

    /// The network's clock, nanoseconds.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// A uniform draw in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn delay(&mut self) -> u64 {
        let jitter =
            if self.spec.jitter_ns == 0 { 0 } else { self.rng.next_u64() % (self.spec.jitter_ns + 1) };
        self.spec.latency_ns + jitter
    }

    /// Send `bytes` from `from` to `to` now, through the link's loss, delay and duplicates.
    pub fn send(&mut self, from: usize, to: usize, bytes: Vec<u8>) {
        let t = &mut self.traffic[from];
        t.datagrams += 1;
        t.bytes += bytes.len() as u64;
        // Always three draws a datagram, in this order, so one spec gives one network.
        let (lost, dup) = (self.unit() < self.spec.loss, self.unit() < self.spec.dup);
        let (first, second) = (self.delay(), self.delay());
        if lost {
            self.traffic[from].lost += 1;
            return;
        }
        if dup {
            self.traffic[from].duplicated += 1;
            self.inject(to, from, bytes.clone(), self.now + second);
        }
        self.inject(to, from, bytes, self.now + first);
    }

    /// Deliver `bytes` to `to` as if from `from` at time `at_ns` (tests: garbage, replays).
    pub fn inject(&mut self, to: usize, from: usize, bytes: Vec<u8>, at_ns: u64) {
        self.sent += 1;
        self.flight.insert((at_ns, self.sent), (to, from, bytes));
    }

    /// Every datagram due for `to` by now, in delivery order (time, then send order).
    pub fn take_due(&mut self, to: usize) -> Vec<(usize, Vec<u8>)> {
        let due: Vec<(u64, u64)> = self
            .flight
            .range(..(self.now + 1, 0))
            .filter(|(_, (t, _, _))| *t == to)
            .map(|(k, _)| *k)
            .collect();
        let out: Vec<_> =
            due.iter().filter_map(|k| self.flight.remove(k)).map(|(_, from, b)| (from, b)).collect();
        self.traffic[to].received += out.len() as u64;
        out
    }

    /// What endpoint `k` sent and received so far.
    pub fn sent(&self, k: usize) -> Traffic {
        self.traffic[k]
    }

    fn undecodable(&mut self, k: usize) {
        self.traffic[k].undecodable += 1;
    }
}

/// Endpoint `me` of a [`Hub`], as ggrs's socket.
#[derive(Debug)]
pub struct LinkSocket {
    hub: Rc<RefCell<Hub>>,
    me: usize,
    players: usize,
}

impl LinkSocket {
    /// Endpoint `me` of `hub`, in a race of `players` (what its datagrams must decode for).
    pub fn new(hub: Rc<RefCell<Hub>>, me: usize, players: usize) -> Self {
        LinkSocket { hub, me, players }
    }
}

impl NonBlockingSocket<usize> for LinkSocket {
    fn send_to(&mut self, msg: &Message, addr: &usize) {
        self.hub.borrow_mut().send(self.me, *addr, encode(msg));
    }

    fn receive_all_messages(&mut self) -> Vec<(usize, Message)> {
        let mut hub = self.hub.borrow_mut();
        let due = hub.take_due(self.me);
        let mut out = Vec::with_capacity(due.len());
        for (from, bytes) in due {
            match decode(&bytes, self.players) {
                Ok(m) => out.push((from, m)),
                Err(_) => hub.undecodable(self.me),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_bad_ones_name_the_part() {
        assert_eq!("".parse::<LinkSpec>(), Ok(LinkSpec::default()));
        let s: LinkSpec = "latency=60,jitter=40.5,loss=0.05,dup=0.01,seed=9".parse().expect("parses");
        assert_eq!(
            (s.latency_ns, s.jitter_ns, s.loss, s.dup, s.seed),
            (60_000_000, 40_500_000, 0.05, 0.01, 9)
        );
        for (bad, part) in [
            ("loss=2", "loss=2"),
            ("latency=-1", "latency=-1"),
            ("speed=3", "speed=3"),
            ("seed=1,seed=2", "seed=2"),
            ("latency", "latency"),
            ("jitter=NaN", "jitter=NaN"),
        ] {
            let e = bad.parse::<LinkSpec>().expect_err(bad);
            assert_eq!(e.part, part, "{bad}");
        }
    }

    fn deliveries(spec: &str, sends: u64) -> Vec<(u64, Vec<u8>)> {
        let hub = Hub::new(spec.parse().expect("spec"), 2);
        let mut h = hub.borrow_mut();
        let mut got = Vec::new();
        for t in 0..2000u64 {
            h.set_time(t * 1_000_000);
            if t < sends {
                h.send(0, 1, vec![t as u8]);
            }
            got.extend(h.take_due(1).into_iter().map(|(_, b)| (t, b)));
        }
        got
    }

    #[test]
    fn latency_delays_loss_drops_dup_doubles_jitter_reorders_and_a_seed_repeats() {
        let perfect = deliveries("", 100);
        assert_eq!(perfect.len(), 100);
        assert!(perfect.iter().enumerate().all(|(i, (t, b))| *t == i as u64 && b[0] == i as u8));
        let late = deliveries("latency=60", 100);
        assert!(late.iter().enumerate().all(|(i, (t, _))| *t == i as u64 + 60));
        assert!(deliveries("loss=1", 100).is_empty());
        let half = deliveries("loss=0.5,seed=3", 1000);
        assert!((400..600).contains(&half.len()), "{}", half.len());
        assert_eq!(half, deliveries("loss=0.5,seed=3", 1000));
        assert_ne!(half, deliveries("loss=0.5,seed=4", 1000));
        assert_eq!(deliveries("dup=1", 50).len(), 100);
        let jittery = deliveries("latency=20,jitter=40,seed=1", 200);
        assert!(jittery.iter().all(|(t, b)| *t >= u64::from(b[0]) + 20 && *t <= u64::from(b[0]) + 60));
        assert!(jittery.windows(2).any(|w| w[1].1[0] < w[0].1[0]), "some reordered");
    }
}
