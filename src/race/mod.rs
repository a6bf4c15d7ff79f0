//! `ledge --net udp:PORT --peers LIST [--level FILE] [--autoplay SCRIPT] [--headless]
//! [--exit-after S] [--record FILE]` (NET.md "Command line"): a peer of an online race with
//! no window, GPU or sound, on the real clock at 60 frames a second.
//!
//! Clock: the wall clock (`web_time::Instant`, monotonic), frames every 1 / 60 s; the race's
//! own clock counts from the start (every session synchronised). Before it: the handshake
//! ([`crate::net::handshake`]), repeated every 100 ms until every peer has heard every other,
//! then ggrs's synchronisation. The race: each frame feeds the autoplay script's edges that
//! are due into the loop, whose ticks ggrs drives ([`crate::net::race`]); with `--exit-after
//! S` it ends at tick S × tick rate once every peer still racing has confirmed it (or 3 s
//! after that tick, with what was confirmed). At exit: the summary line, the `net:` line.
//!
//! Exit status: 0 after a race (a peer leaving included: one line `net: player K left at tick
//! T`), 2 for a bad flag, an address that cannot be bound or resolved, a refused handshake or
//! peers that never answer, 3 for a desync (one line; the confirmed inputs beside `--record`'s
//! file as `FILE.desync.lab`).

mod options;

pub use options::{NetSpec, RaceOptions, parse_peers};

use crate::game_loop::Loop;
use crate::input::InputEvent;
use crate::lab::LabOptions;
use crate::lab::race_record::race_record;
use crate::lab::runner::build_loop;
use crate::lab::script::{At, LevelSource, Script, Step, parse};
use crate::net::handshake::Hello;
use crate::net::race::{DISCONNECT_TIMEOUT_S, INPUT_DELAY, PREDICTION_WINDOW, RaceConfig, RaceDriver};
use crate::net::udp::{SharedUdp, UdpTransport};
use ggrs::{DesyncDetection, PlayerType, SessionBuilder, SessionState};
use std::cell::RefCell;
use std::net::SocketAddr;
use std::path::Path;
use std::rc::Rc;
use std::time::Duration;
use web_time::Instant;

/// Frames a second of a headless peer (NET.md: 60).
const HEADLESS_FPS: u64 = 60;

/// How long the handshake and ggrs's synchronisation may take before the race is given up:
/// 30 s (a peer started by hand may be late).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long `--exit-after` waits past its tick for the peers to confirm it (NET.md: 3 s).
const CONFIRM_WAIT: Duration = Duration::from_secs(3);

/// A refused race: the one line to print and the exit status.
#[derive(Debug)]
pub struct Refused {
    /// The line (without the `ledge: ` prefix).
    pub line: String,
    /// 2, or 3 for a desync.
    pub code: u8,
}

fn refuse(line: impl Into<String>) -> Refused {
    Refused { line: line.into(), code: 2 }
}

/// The autoplay script's edges on the race's clock, in order: (ns from the start, edge).
fn autoplay_edges(script: &Script) -> Vec<(u64, InputEvent)> {
    let (mut clock, mut edges) = (0u64, Vec::new());
    for (step, _) in &script.steps {
        match *step {
            Step::Frame { ns, count } => clock = clock.saturating_add(ns.saturating_mul(count)),
            Step::Event { event, at, .. } => {
                let t = match at {
                    At::AfterFrame(o) => clock.saturating_add(o),
                    At::Absolute(t) => t.max(clock),
                };
                let i = edges.partition_point(|(p, _)| *p <= t);
                edges.insert(i, (t, event));
            }
            _ => {}
        }
    }
    edges
}

/// The race's script: the autoplay script (its level, tuning and config lines, and its
/// edges), with `--level` in place of its level when given.
fn race_script(opts: &RaceOptions) -> Result<(Script, LabOptions), Refused> {
    let (mut script, name, dir) = match &opts.autoplay {
        Some(path) => {
            let text = crate::read_limit::read_text_at_most(path, crate::lab::script::MAX_SCRIPT_BYTES)
                .map_err(|e| refuse(format!("--autoplay {}: {e}", path.display())))?;
            let s = parse(&text)
                .map_err(|e| refuse(format!("--autoplay {}:{}: {}", path.display(), e.line, e.msg)))?;
            (s, path.display().to_string(), path.parent().map(Path::to_path_buf).unwrap_or_default())
        }
        None => (
            parse("").expect("an empty script parses"),
            "--level".to_string(),
            std::env::current_dir().unwrap_or_default(),
        ),
    };
    if script.players != 1 || script.steps.iter().any(|(s, _)| matches!(s, Step::Event { player: 1.., .. })) {
        return Err(refuse(format!(
            "--autoplay {name}: a peer's script plays its own player: no 'players', no pK"
        )));
    }
    if let Some(level) = &opts.level {
        let abs =
            std::fs::canonicalize(level).map_err(|e| refuse(format!("--level {}: {e}", level.display())))?;
        script.level = LevelSource::File(abs.display().to_string(), 0, None);
    }
    let lab = LabOptions { script_name: name, script_dir: dir, summary_only: true, force: false };
    Ok((script, lab))
}

/// Run one peer of a UDP race; `Ok` carries the lines printed at the end.
///
/// # Errors
/// [`Refused`] with its line and exit status.
pub fn run_udp(opts: &RaceOptions) -> Result<Vec<String>, Refused> {
    let NetSpec::Udp { port } = opts.net;
    let (me, addrs) = (opts.me, &opts.peer_addrs);
    let players = addrs.len();
    let (script, lab) = race_script(opts)?;
    let (mut lp, _, speed, _): (Loop, _, _, _) =
        build_loop(&script, &lab).map_err(|e| refuse(e.to_string()))?;
    if speed.is_some() {
        return Err(refuse("a race is always 100 %: no game_speed"));
    }
    if let Some(path) = &opts.tuning {
        let t = crate::sim::Tuning::load(path).map_err(|e| refuse(e.to_string()))?;
        lp.set_tuning(t);
    }
    lp.set_players(players);
    lp.set_presenting(false);
    let hz = lp.config().tick_hz;
    let others: Vec<SocketAddr> =
        addrs.iter().enumerate().filter(|(k, _)| *k != me).filter_map(|(_, a)| *a).collect();
    let transport = UdpTransport::bind(port, others.clone(), players)
        .map_err(|e| refuse(format!("--net udp:{port}: cannot bind the port: {e}")))?;
    let udp = SharedUdp(Rc::new(RefCell::new(transport)));

    // The handshake.
    let mut hello = Hello::new(lp.level(), lp.tuning(), hz, me as u8, players as u8);
    let all = ((1u16 << players) - 1) as u8;
    let mut theirs: Vec<Option<Hello>> = vec![None; players];
    let started = Instant::now();
    let mut last_sent: Option<Instant> = None;
    loop {
        let heard_all =
            theirs.iter().enumerate().all(|(k, h)| k == me || h.as_ref().is_some_and(|h| h.heard == all));
        if heard_all && hello.heard == all {
            break;
        }
        if started.elapsed() > CONNECT_TIMEOUT {
            let silent: Vec<String> = (0..players)
                .filter(|&k| k != me && theirs[k].is_none())
                .map(|k| format!("player {} ({})", k + 1, addr_text(addrs[k])))
                .collect();
            let who = if silent.is_empty() { "every peer".to_string() } else { silent.join(", ") };
            return Err(refuse(format!("no answer from {who} within {} s", CONNECT_TIMEOUT.as_secs())));
        }
        if last_sent.is_none_or(|t| t.elapsed() >= Duration::from_millis(100)) {
            udp.0.borrow_mut().send_hello(&hello);
            last_sent = Some(Instant::now());
        }
        let hellos = udp.0.borrow_mut().take_hellos();
        for (from, h) in hellos {
            let Some(k) = addrs.iter().position(|a| *a == Some(from)) else { continue };
            if let Some(why) = hello.differs(&h, k as u8, &from.to_string()) {
                // Tell the others long enough for them to refuse too, then refuse.
                for _ in 0..10 {
                    udp.0.borrow_mut().send_hello(&hello);
                    std::thread::sleep(Duration::from_millis(100));
                }
                return Err(refuse(format!("handshake refused: {why}")));
            }
            hello.heard |= 1 << k;
            theirs[k] = Some(h);
        }
        std::thread::sleep(Duration::from_millis(2));
    }

    // ggrs's session.
    let fail = |e: ggrs::GgrsError| refuse(format!("rollback session: {e}"));
    let mut builder = SessionBuilder::<RaceConfig<SocketAddr>>::new()
        .with_num_players(players)
        .and_then(|b| b.with_fps(hz as usize))
        .map_err(fail)?
        .with_input_delay(INPUT_DELAY)
        .with_max_prediction_window(PREDICTION_WINDOW)
        .with_desync_detection_mode(DesyncDetection::On { interval: 1 })
        .with_disconnect_timeout(Duration::from_secs(DISCONNECT_TIMEOUT_S))
        .with_disconnect_notify_delay(Duration::from_secs(1));
    for (k, a) in addrs.iter().enumerate() {
        let kind = match a {
            None => PlayerType::Local,
            Some(addr) => PlayerType::Remote(*addr),
        };
        builder = builder.add_player(kind, k).map_err(fail)?;
    }
    let session = builder.start_p2p_session(udp.clone()).map_err(fail)?;
    let mut driver = RaceDriver::new(session, me);
    while driver.session().current_state() != SessionState::Running {
        if started.elapsed() > CONNECT_TIMEOUT {
            return Err(refuse("the peers did not synchronise within 30 s"));
        }
        // Late peers still in the handshake need this peer's hello.
        if last_sent.is_none_or(|t| t.elapsed() >= Duration::from_millis(100)) {
            udp.0.borrow_mut().send_hello(&hello);
            last_sent = Some(Instant::now());
        }
        driver.session().poll_remote_clients();
        std::thread::sleep(Duration::from_millis(2));
    }

    // The race, on the wall clock.
    let edges = autoplay_edges(&script);
    let mut next_edge = 0;
    let start = Instant::now();
    let frame_ns = 1_000_000_000 / HEADLESS_FPS;
    let target = opts.exit_after.map(|s| (s * f64::from(hz)).round() as u64);
    let mut reached: Option<Instant> = None;
    let mut announced = 0;
    let mut lines = Vec::new();
    let mut frames = 0u64;
    loop {
        frames += 1;
        let deadline = start + Duration::from_nanos(frames * frame_ns);
        if let Some(wait) = deadline.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        let now = start.elapsed().as_nanos() as u64;
        while let Some(&(t, ev)) = edges.get(next_edge).filter(|(t, _)| *t <= now) {
            lp.push_event_for(me as u8, t, ev);
            next_edge += 1;
        }
        lp.frame_driven(now, &mut driver);
        for &(k, tick) in &driver.left()[announced..] {
            eprintln!("net: player {} left at tick {tick}", k + 1);
        }
        announced = driver.left().len();
        if let Some(d) = driver.desync() {
            let record = race_record(&script.level, &lp, &driver, d.tick);
            if let Some(path) = &opts.record {
                let mut p = path.as_os_str().to_owned();
                p.push(".desync.lab");
                let _ = write_whole(Path::new(&p), &record);
            }
            return Err(Refused {
                line: format!(
                    "desync at tick {}: this peer {:016x}, another {:016x}",
                    d.tick, d.local, d.remote
                ),
                code: 3,
            });
        }
        if let Some(target) = target {
            if lp.world().tick >= target {
                let when = *reached.get_or_insert_with(Instant::now);
                if (driver.confirmed_tick() >= target && lp.world().tick > target)
                    || when.elapsed() > CONFIRM_WAIT
                {
                    break;
                }
            }
        }
    }
    let end = target.map_or(driver.confirmed_tick(), |t| t.min(driver.confirmed_tick()));
    let hash = driver.hash_at(end).unwrap_or(0);
    if let Some(path) = &opts.record {
        write_whole(path, &race_record(&script.level, &lp, &driver, end)).map_err(refuse)?;
    }
    let w = lp.world();
    let s = driver.stats();
    let counts = udp.0.borrow().counts();
    let ping = (0..players)
        .filter(|&k| k != me)
        .filter_map(|k| driver.session().network_stats(k).ok())
        .map(|n| n.ping)
        .max()
        .unwrap_or(0);
    lines.push(format!(
        "ledge: frames={frames} ticks={} jumps={} respawns={} state_hash={hash:016x} confirmed_tick={end}",
        w.tick, w.jumps, w.respawns
    ));
    lines.push(format!(
        "net: player={} ping_ms={ping} input_delay={INPUT_DELAY} rollbacks={} max_rollback={} resimulated={} stalls={} desyncs={} dropped={} bytes_sent={}",
        me + 1,
        s.rollbacks,
        s.max_rollback,
        s.resimulated_ticks,
        s.stalled_frames,
        s.desyncs,
        counts.strangers + counts.undecodable,
        counts.bytes_sent,
    ));
    Ok(lines)
}

fn addr_text(a: Option<SocketAddr>) -> String {
    a.map_or_else(|| "me".into(), |a| a.to_string())
}

/// Write `text` to `path` whole or not at all (a temporary file beside it, renamed).
fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    std::fs::write(&tmp, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}
