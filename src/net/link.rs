//! A seeded, simulated network for `ledge netlab` (LAB.md Version 4, "Two or more peers in one
//! process"): a [`Hub`] that N endpoints share, with the latency, jitter, loss and duplication
//! of a [`LinkSpec`], and [`LinkSocket`], ggrs's `NonBlockingSocket` on it.
//!
//! Clock: simulated network time in integer nanoseconds, advanced by its caller
//! ([`Hub::set_time`]); nothing here reads a real clock (ggrs's own timers do: see
//! `LinkSocket`).
//!
//! Every datagram sent draws exactly four numbers from the hub's [`SplitMix64`], in this order:
//! the loss draw, the first copy's jitter, the duplicate draw, the second copy's jitter, whether
//! or not it is lost or duplicated. So the k-th datagram sent through a hub meets the same fate
//! for the same seed, whatever came before it. A copy is delivered at
//! `send time + latency + uniform(0..=jitter)` (so jitter reorders), datagrams due at the same
//! nanosecond in the order they were sent.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use std::str::FromStr;

use thiserror::Error;

use super::codec::{self, PeerFilter};
use crate::sim::rng::SplitMix64;

/// The longest latency or jitter a spec may give, in milliseconds (one hour).
pub const MAX_LINK_MS: f64 = 3_600_000.0;

/// One direction of every link between the hub's endpoints (each datagram on its own).
/// `Default` is a perfect link: no delay, no loss, no duplicates, seed 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LinkSpec {
    /// Fixed one-way delay, in nanoseconds.
    pub latency_ns: u64,
    /// Extra one-way delay, uniform in `0..=jitter_ns` nanoseconds, drawn per copy.
    pub jitter_ns: u64,
    /// Probability in [0, 1] that a datagram is lost.
    pub loss: f64,
    /// Probability in [0, 1] that a datagram that is not lost arrives twice.
    pub dup: f64,
    /// The seed of the hub's random numbers.
    pub seed: u64,
}

/// Why a `--link` SPEC was refused: the part (`key=value`, or the whole spec) and the rule.
/// Displays as one line, e.g. `link: "loss=2": loss must be a probability 0..1`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("link: {part:?}: {reason}")]
pub struct LinkSpecError {
    /// The offending part of the spec.
    pub part: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FromStr for LinkSpec {
    type Err = LinkSpecError;

    /// Parse `latency=MS,jitter=MS,loss=P,dup=P,seed=N`: each key optional and at most once, in
    /// any order; MS a decimal number of milliseconds in 0..=[`MAX_LINK_MS`] (rounded to the
    /// nanosecond), P a decimal probability in 0..=1, N a decimal `u64`. The empty string is a
    /// perfect link.
    ///
    /// # Errors
    /// An empty part (`a,,b`), a part without `=`, an unknown or repeated key, a value that is
    /// not a finite number in range.
    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let mut out = LinkSpec::default();
        if spec.is_empty() {
            return Ok(out);
        }
        let mut seen: Vec<&str> = Vec::new();
        for part in spec.split(',') {
            let err = |reason: &str| LinkSpecError { part: part.to_owned(), reason: reason.to_owned() };
            if part.is_empty() {
                return Err(LinkSpecError { part: spec.to_owned(), reason: "empty part".to_owned() });
            }
            let Some((key, value)) = part.split_once('=') else {
                return Err(err("expected key=value"));
            };
            if seen.contains(&key) {
                return Err(err(&format!("{key} given twice")));
            }
            seen.push(key);
            match key {
                "latency" | "jitter" => {
                    let ms = number(value)
                        .filter(|ms| (0.0..=MAX_LINK_MS).contains(ms))
                        .ok_or_else(|| err(&format!("{key} must be milliseconds 0..{MAX_LINK_MS}")))?;
                    // ≤ 3.6e12, exactly representable after rounding; the cast cannot saturate.
                    let ns = (ms * 1e6).round() as u64;
                    if key == "latency" { out.latency_ns = ns } else { out.jitter_ns = ns }
                }
                "loss" | "dup" => {
                    let p = number(value)
                        .filter(|p| (0.0..=1.0).contains(p))
                        .ok_or_else(|| err(&format!("{key} must be a probability 0..1")))?;
                    if key == "loss" { out.loss = p } else { out.dup = p }
                }
                "seed" => {
                    out.seed = value.parse().map_err(|_| err("seed must be a whole number 0..2^64"))?;
                }
                _ => return Err(err("unknown key (latency, jitter, loss, dup, seed)")),
            }
        }
        Ok(out)
    }
}

/// A plain finite decimal (`f64`'s parser, less `inf`/`nan` and signs other than none).
fn number(s: &str) -> Option<f64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

impl fmt::Display for LinkSpec {
    /// The spec in `FromStr`'s syntax, every key given (milliseconds with up to 6 decimals).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |ns: u64| ns as f64 / 1e6;
        write!(
            f,
            "latency={},jitter={},loss={},dup={},seed={}",
            ms(self.latency_ns),
            ms(self.jitter_ns),
            self.loss,
            self.dup,
            self.seed
        )
    }
}

/// One endpoint's traffic counters. Datagrams and bytes, since the hub was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Datagrams this endpoint sent (lost ones included).
    pub datagrams_sent: u64,
    /// Bytes in them.
    pub bytes_sent: u64,
    /// Of them, lost on the link.
    pub lost: u64,
    /// Of them, delivered twice.
    pub duplicated: u64,
    /// Of them, addressed to no endpoint of the hub (dropped).
    pub unroutable: u64,
    /// Datagrams delivered to this endpoint (copies and injected ones included).
    pub received: u64,
    /// Of them, refused by the codec (dropped; see `codec::DecodeError`).
    pub undecodable: u64,
}

/// A datagram on its way: due at `.0` ns, the `.1`-th sent through the hub.
type Key = (u64, u64);

struct State {
    spec: LinkSpec,
    rng: SplitMix64,
    now_ns: u64,
    seq: u64,
    /// Per destination endpoint: what is on its way there, and from whom.
    queues: Vec<BTreeMap<Key, (usize, Vec<u8>)>>,
    stats: Vec<LinkStats>,
}

impl State {
    /// A probability draw: true with probability `p` (0 never, 1 always).
    fn chance(&mut self, p: f64) -> bool {
        // 53 random bits as a number in [0, 1).
        ((self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// A delay draw: latency plus uniform 0..=jitter, in ns.
    fn delay(&mut self) -> u64 {
        let r = self.rng.next_u64();
        let jitter = ((u128::from(r) * (u128::from(self.spec.jitter_ns) + 1)) >> 64) as u64;
        self.spec.latency_ns + jitter
    }

    fn enqueue(&mut self, from: usize, to: usize, bytes: Vec<u8>, at_ns: u64) {
        let key = (at_ns, self.seq);
        self.seq += 1;
        self.queues[to].insert(key, (from, bytes));
    }
}

/// A simulated network shared by `n` endpoints, addresses `0..n`. Cloning gives another handle
/// on the same network (`Rc`: one thread).
#[derive(Clone)]
pub struct Hub(Rc<RefCell<State>>);

impl fmt::Debug for Hub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0.borrow();
        f.debug_struct("Hub").field("spec", &s.spec).field("now_ns", &s.now_ns).finish_non_exhaustive()
    }
}

impl Hub {
    /// A network of `endpoints` endpoints with every link as `spec`, its random numbers seeded
    /// with `spec.seed`, at time 0.
    pub fn new(spec: LinkSpec, endpoints: usize) -> Hub {
        Hub(Rc::new(RefCell::new(State {
            spec,
            rng: SplitMix64::new(spec.seed),
            now_ns: 0,
            seq: 0,
            queues: vec![BTreeMap::new(); endpoints],
            stats: vec![LinkStats::default(); endpoints],
        })))
    }

    /// The link every datagram takes.
    pub fn spec(&self) -> LinkSpec {
        self.0.borrow().spec
    }

    /// The simulated time, in ns.
    pub fn now_ns(&self) -> u64 {
        self.0.borrow().now_ns
    }

    /// Move the simulated time to `now_ns` (ns). Time never goes back: an earlier value is
    /// ignored.
    pub fn set_time(&self, now_ns: u64) {
        let mut s = self.0.borrow_mut();
        s.now_ns = s.now_ns.max(now_ns);
    }

    /// Send `bytes` from endpoint `from` to endpoint `to` at the current time: lost, delivered
    /// once or twice, each copy after its own delay (module docs). A `from` or `to` that is not
    /// an endpoint drops the datagram (counted as `unroutable` when `from` is one).
    pub fn send(&self, from: usize, to: usize, bytes: Vec<u8>) {
        let mut s = self.0.borrow_mut();
        if from >= s.stats.len() {
            return;
        }
        s.stats[from].datagrams_sent += 1;
        s.stats[from].bytes_sent += bytes.len() as u64;
        // Four draws per datagram, always, in this order.
        let (loss, dup) = (s.spec.loss, s.spec.dup);
        let lost = s.chance(loss);
        let first = s.delay();
        let twice = s.chance(dup);
        let second = s.delay();
        if to >= s.queues.len() {
            s.stats[from].unroutable += 1;
            return;
        }
        if lost {
            s.stats[from].lost += 1;
            return;
        }
        let now = s.now_ns;
        if twice {
            s.stats[from].duplicated += 1;
            s.enqueue(from, to, bytes.clone(), now.saturating_add(first));
            s.enqueue(from, to, bytes, now.saturating_add(second));
        } else {
            s.enqueue(from, to, bytes, now.saturating_add(first));
        }
    }

    /// Put `bytes` on the way to endpoint `to` as if `from` had sent them, due at `at_ns` ns,
    /// with no loss, delay or random draw (a test's hostile or garbage datagram). Ignored when
    /// `to` is not an endpoint.
    pub fn inject(&self, from: usize, to: usize, bytes: Vec<u8>, at_ns: u64) {
        let mut s = self.0.borrow_mut();
        if to < s.queues.len() {
            s.enqueue(from, to, bytes, at_ns);
        }
    }

    /// Every datagram due at endpoint `to` by now, as `(from, bytes)`, in delivery order (due
    /// time, then send order); counted as received.
    pub fn take_due(&self, to: usize) -> Vec<(usize, Vec<u8>)> {
        let mut s = self.0.borrow_mut();
        let now = s.now_ns;
        let Some(queue) = s.queues.get_mut(to) else { return Vec::new() };
        let later = queue.split_off(&(now.saturating_add(1), 0));
        let due: Vec<(usize, Vec<u8>)> = std::mem::replace(queue, later).into_values().collect();
        s.stats[to].received += due.len() as u64;
        due
    }

    /// Datagrams still on their way to endpoint `to`.
    pub fn in_flight(&self, to: usize) -> usize {
        self.0.borrow().queues.get(to).map_or(0, BTreeMap::len)
    }

    /// Endpoint `endpoint`'s counters (all zero for an address that is not an endpoint).
    pub fn stats(&self, endpoint: usize) -> LinkStats {
        self.0.borrow().stats.get(endpoint).copied().unwrap_or_default()
    }

    /// Count one undecodable datagram at endpoint `endpoint`.
    fn count_undecodable(&self, endpoint: usize) {
        if let Some(stats) = self.0.borrow_mut().stats.get_mut(endpoint) {
            stats.undecodable += 1;
        }
    }
}

/// Endpoint `me` of a [`Hub`] as ggrs's socket (`Config::Address = usize`): it sends each
/// message as [`codec::encode`]'s datagram at the hub's current time, and receives every
/// datagram due, through one [`PeerFilter`] per sender, dropping (and counting as
/// `undecodable`) those refused.
///
/// ggrs's protocol keeps its own timers on the real clock (`instant::Instant`: sync retries,
/// input resends, quality reports, keep-alives every 200 ms, the disconnect notice and timeout),
/// not on the hub's: a caller stepping simulated time faster than real time sees fewer of those
/// messages, and one that pauses in real time may see a peer time out.
#[derive(Debug)]
pub struct LinkSocket {
    hub: Hub,
    me: usize,
    filters: BTreeMap<usize, PeerFilter>,
    num_players: usize,
    desync_detection: bool,
}

impl LinkSocket {
    /// Endpoint `me` of `hub`, for a session of `num_players` players (1..=4) that checks
    /// checksums when `desync_detection` (ggrs's `DesyncDetection::On`).
    pub fn new(hub: &Hub, me: usize, num_players: usize, desync_detection: bool) -> LinkSocket {
        LinkSocket { hub: hub.clone(), me, filters: BTreeMap::new(), num_players, desync_detection }
    }

    /// This endpoint's address.
    pub fn address(&self) -> usize {
        self.me
    }
}

impl ggrs::NonBlockingSocket<usize> for LinkSocket {
    fn send_to(&mut self, msg: &ggrs::Message, addr: &usize) {
        self.hub.send(self.me, *addr, codec::encode(msg));
    }

    fn receive_all_messages(&mut self) -> Vec<(usize, ggrs::Message)> {
        let mut out = Vec::new();
        for (from, bytes) in self.hub.take_due(self.me) {
            let filter = self
                .filters
                .entry(from)
                .or_insert_with(|| PeerFilter::new(self.num_players, self.desync_detection));
            match filter.decode(&bytes) {
                Ok(msg) => out.push((from, msg)),
                Err(e) => {
                    log::debug!("link: endpoint {} drops a datagram from {from}: {e}", self.me);
                    self.hub.count_undecodable(self.me);
                }
            }
        }
        out
    }
}

#[cfg(test)]
#[path = "link_tests.rs"]
mod tests;
