//! Races through `ledge serve` (NET.md "How it is checked"): two real `ledge --net
//! ws://HOST:PORT/ROOM --players 2 --headless` processes meet in a room of a real `ledge serve`
//! and race over WebRTC data channels on loopback (no STUN): one `state_hash`, and each peer's
//! `--record` replays in the lab to it. A room refuses a third peer once its race has begun and
//! a peer asking for another number of players, each with one line on the server and exit 2 on
//! the peer; a server that is not there is exit 2 with one line.
//!
//! Clock: wall time (the peers run on the real clock at 60 frames a second).

mod common;

use common::field;
use common::proc::Proc;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ledge() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ledge"))
}

/// `ledge serve 127.0.0.1:0`, killed when dropped; its address from its first line.
struct Server {
    child: Child,
    url: String,
    log: Option<std::thread::JoinHandle<String>>,
}

impl Server {
    fn start() -> Server {
        let mut child = ledge()
            .args(["serve", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ledge serve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut first).expect("a line");
        let url = first
            .trim()
            .strip_prefix("ledge serve: listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {first:?}"))
            .to_string();
        let err = child.stderr.take().expect("stderr");
        let log = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut BufReader::new(err), &mut s);
            s
        });
        Server { child, url, log: Some(log) }
    }

    /// Stop the server and return what it wrote to stderr.
    fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.log.take().and_then(|h| h.join().ok()).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A peer of room `room` on `url`: `--players N --headless --autoplay SCRIPT --exit-after S`.
fn peer(
    name: &str,
    url: &str,
    players: usize,
    script: &Path,
    exit_after: f64,
    record: Option<&Path>,
) -> Proc {
    let mut c = ledge();
    c.args([
        "--net",
        url,
        "--players",
        &players.to_string(),
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

#[test]
fn two_peers_through_ledge_serve_agree_and_their_records_replay() {
    let scratch = common::scratch::Scratch::new("race_room");
    let dir = scratch.dir();
    let server = Server::start();
    let room = format!("{}/race", server.url);
    let level1 = root().join("tests/levels/level1.lab");
    let (ra, rb) = (dir.join("a.lab"), dir.join("b.lab"));
    let mut a = peer("peer a", &room, 2, &level1, 5.0, Some(&ra));
    let mut b = peer("peer b", &room, 2, &level1, 5.0, Some(&rb));
    let (sa, sb) = (a.wait_for(Duration::from_secs(60)), b.wait_for(Duration::from_secs(60)));
    let (_, out_a, err_a) = a.finish();
    let (_, out_b, err_b) = b.finish();
    let log = server.stop();
    assert!(
        sa.is_some_and(|s| s.success()) && sb.is_some_and(|s| s.success()),
        "{out_a}{err_a}\n{out_b}{err_b}\nserver: {log}"
    );
    assert_eq!(err_a, "", "a peer's stderr stays quiet");
    assert_eq!(err_b, "");
    let hash = field(&out_a, "ledge:", "state_hash").expect("a hash");
    assert_eq!(Some(hash), field(&out_b, "ledge:", "state_hash"), "{out_a}\n{out_b}");
    for out in [&out_a, &out_b] {
        assert_eq!(field(out, "ledge:", "confirmed_tick"), Some("300"), "{out}");
        assert_eq!(field(out, "net:", "desyncs"), Some("0"), "{out}");
    }
    let mut players: Vec<&str> = [&out_a, &out_b].iter().filter_map(|o| field(o, "net:", "player")).collect();
    players.sort();
    assert_eq!(players, ["1", "2"], "the room numbered its players once each");
    for rec in [&ra, &rb] {
        let out = ledge().arg("lab").arg(rec).arg("--summary").output().expect("lab");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a report");
        assert_eq!(report["summary"]["state_hash"], hash, "{} replays to another hash", rec.display());
    }
}

#[test]
fn a_race_with_no_end_tick_ends_at_the_last_finish_on_both_peers() {
    let scratch = common::scratch::Scratch::new("race_room_finish");
    let dir = scratch.dir();
    // Both runners hold right to the goal of a short inline level.
    let script = dir.join("short.lab");
    std::fs::write(
        &script,
        "map\n..............\nP...........G.\n##############\nend\npress right @0\nframe 16.666667 x120\n",
    )
    .expect("write");
    let server = Server::start();
    let room = format!("{}/finish", server.url);
    let (ra, rb) = (dir.join("a.lab"), dir.join("b.lab"));
    let c = |name: &str, record: &Path| {
        let mut cmd = ledge();
        cmd.args(["--net", &room, "--players", "2", "--headless", "--autoplay"])
            .arg(&script)
            .arg("--record")
            .arg(record);
        Proc::spawn(name, &mut cmd)
    };
    let (mut a, mut b) = (c("peer a", &ra), c("peer b", &rb));
    let (sa, sb) = (a.wait_for(Duration::from_secs(60)), b.wait_for(Duration::from_secs(60)));
    let ((_, out_a, err_a), (_, out_b, err_b)) = (a.finish(), b.finish());
    drop(server);
    assert!(
        sa.is_some_and(|s| s.success()) && sb.is_some_and(|s| s.success()),
        "{out_a}{err_a}\n{out_b}{err_b}"
    );
    let tick = field(&out_a, "ledge:", "confirmed_tick").expect("a tick");
    assert_eq!(field(&out_b, "ledge:", "confirmed_tick"), Some(tick), "the same end tick: {out_a}\n{out_b}");
    assert_eq!(field(&out_a, "ledge:", "state_hash"), field(&out_b, "ledge:", "state_hash"));
    let out = ledge().arg("lab").arg(&ra).arg("--summary").output().expect("lab");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a report");
    assert_eq!(
        report["summary"]["finish_ticks"].as_array().map(Vec::len),
        Some(2),
        "both finished: {report}"
    );
    assert_eq!(report["summary"]["ticks"].to_string(), tick, "the record ends at the last finish");
}

#[test]
fn a_full_room_another_size_and_no_server_are_refused_with_one_line() {
    let server = Server::start();
    let room = format!("{}/full", server.url);
    let level1 = root().join("tests/levels/level1.lab");
    let mut a = peer("peer a", &room, 2, &level1, 6.0, None);
    let mut b = peer("peer b", &room, 2, &level1, 6.0, None);
    // The room holds two: a third, and one asking for three, are refused.
    std::thread::sleep(Duration::from_millis(1500));
    let mut late = peer("late", &room, 2, &level1, 6.0, None);
    let mut three = peer("three", &room, 3, &level1, 6.0, None);
    let absent = format!("ws://127.0.0.1:{}/r", {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
        l.local_addr().expect("addr").port()
    });
    let mut nobody = peer("nobody", &absent, 2, &level1, 6.0, None);
    for (p, what) in [(&mut late, "late"), (&mut three, "three"), (&mut nobody, "nobody")] {
        let s = p.wait_for(Duration::from_secs(30));
        assert_eq!(s.and_then(|s| s.code()), Some(2), "{what}");
    }
    for (p, want) in [
        (late, "the server refused to join the room"),
        (three, "the server refused"),
        (nobody, "cannot join"),
    ] {
        let (_, out, err) = p.finish();
        assert_eq!(err.lines().count(), 1, "{out}{err}");
        assert!(err.starts_with("ledge: ws://127.0.0.1:") && err.contains(want), "{err}");
    }
    let (sa, sb) = (a.wait_for(Duration::from_secs(60)), b.wait_for(Duration::from_secs(60)));
    let (_, out_a, _) = a.finish();
    let (_, out_b, _) = b.finish();
    assert!(sa.is_some_and(|s| s.success()) && sb.is_some_and(|s| s.success()), "{out_a}\n{out_b}");
    assert_eq!(field(&out_a, "ledge:", "state_hash"), field(&out_b, "ledge:", "state_hash"));
    let log = server.stop();
    assert!(log.lines().any(|l| l.contains("room full is full: its race of 2 has begun")), "{log}");
    assert!(log.lines().any(|l| l.contains("room full races 2 players, the peer asked for 3")), "{log}");
}
