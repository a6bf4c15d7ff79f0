//! The headless peer (NET.md `--headless`): no window, GPU or sound; the race polled 60 times
//! a second on the real clock, its notices on stderr, its end lines and `--record` written at
//! the end.
//!
//! Clock: the wall clock (`web_time::Instant`, monotonic), one frame every 1/60 s (a late
//! frame is not made up: the next deadline follows the last).

use super::peer::{Polled, RaceEnd, RacePeer};
use super::{NetSpec, Players, RaceOptions, Refused, autoplay_edges, race_loop, race_script, refuse};
use crate::game_loop::Loop;
use crate::net::transport::Transport;
use crate::net::udp::{SharedUdp, UdpTransport};
use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::time::Duration;
use web_time::Instant;

/// Frames a second of a headless peer (NET.md: 60).
const HEADLESS_FPS: u64 = 60;

/// Run one headless peer (NET.md `--headless`): 60 frames a second on the wall clock until the
/// race ends; `Ok` carries the lines printed at the end. `--record` is written whole or not at
/// all; a desync writes `FILE.desync.lab`.
///
/// # Errors
/// [`Refused`] with its line and exit status.
pub fn run_headless(opts: &RaceOptions) -> Result<Vec<String>, Refused> {
    let (script, lab) = race_script(opts)?;
    let lp = race_loop(&script, &lab, opts)?;
    let end_tick = opts.exit_after.map(|s| (s * f64::from(lp.config().tick_hz)).round() as u64);
    let edges = autoplay_edges(&script);
    let level = script.level.clone();
    let result = match (&opts.net, &opts.players) {
        (NetSpec::Udp { port }, Players::Listed(me, addrs)) => {
            let transport = UdpTransport::bind(*port, *me, addrs.clone())
                .map_err(|e| refuse(format!("--net udp:{port}: cannot bind the port: {e}")))?;
            let t = SharedUdp(Rc::new(RefCell::new(transport)));
            drive(lp, RacePeer::new(level, t, addrs.len(), edges, end_tick, Some(GATHER_TIMEOUT)))
        }
        #[cfg(feature = "game")]
        (NetSpec::Room { url, room }, Players::Room(n)) => {
            let t = crate::net::room::SharedRoom::connect(url, room, *n, &opts.ice);
            drive(lp, RacePeer::new(level, t, *n, edges, end_tick, Some(GATHER_TIMEOUT)))
        }
        _ => Err(refuse("--net udp:PORT goes with --peers, --net ws://… with --players")),
    };
    let write = |path: &Path, text: &str| crate::save::atomic::write_atomic(path, text.as_bytes());
    match result {
        Ok(end) => {
            if let Some(path) = &opts.record {
                write(path, &end.record).map_err(|e| refuse(format!("--record {}: {e}", path.display())))?;
            }
            Ok(end.summary.lines())
        }
        Err(r) => {
            if let (Some(path), Some(record)) = (&opts.record, &r.record) {
                let mut p = path.as_os_str().to_owned();
                p.push(".desync.lab");
                let _ = write(Path::new(&p), record);
            }
            Err(r)
        }
    }
}

/// How long a headless peer waits for the players of its room: 5 minutes.
const GATHER_TIMEOUT: Duration = Duration::from_secs(300);

/// Poll `peer` 60 times a second until the race ends; print its notices to stderr as they
/// come.
fn drive<T: Transport>(mut lp: Loop, mut peer: RacePeer<T>) -> Result<RaceEnd, Refused> {
    let frame = Duration::from_nanos(1_000_000_000 / HEADLESS_FPS);
    let mut next = Instant::now();
    loop {
        next = (next + frame).max(Instant::now());
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        let polled = peer.poll(&mut lp, Instant::now());
        for line in peer.take_notices() {
            eprintln!("{line}");
        }
        if let Polled::Ended(end) = polled? {
            return Ok(*end);
        }
    }
}
