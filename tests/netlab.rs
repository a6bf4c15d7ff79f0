//! `ledge netlab` (LAB.md Version 4 "Two or more peers in one process"): two, three and four
//! peers race over links from perfect to 150 ms with 40 ms of jitter, 10 % loss and 5 %
//! duplicates; the peers agree on the hash of the last confirmed tick, and the race's
//! `--record` replays in the plain lab to that hash. Then random inputs over random links
//! (proptest), and the refusals: a peer script with `pK`, peers on different levels, a bad
//! link spec.
//!
//! Clock: simulated (netlab's), plus the 1 ms of wall time netlab waits per stalled frame.

mod common;

use ledge::lab::netlab::{PeerScript, run_netlab};
use ledge::lab::run_script;
use ledge::net::link::LinkSpec;
use proptest::prelude::*;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn peer(name: &str, text: String) -> PeerScript {
    PeerScript { name: name.to_string(), text, dir: root().join("tests/levels") }
}

/// Level 1's deathless run at its own 60 Hz frames, and the same edges at 144 Hz frames.
fn level1_peers(n: usize) -> Vec<PeerScript> {
    let text = std::fs::read_to_string(root().join("tests/levels/level1.lab")).expect("level1.lab");
    let fast: String = text
        .lines()
        .map(|l| match l.strip_prefix("frame 16.666667") {
            Some(rest) => {
                let n: u64 = rest.trim().strip_prefix('x').map_or(1, |c| c.parse().expect("count"));
                format!("frame 6.944444 x{}\n", (n * 12).div_ceil(5))
            }
            None => format!("{l}\n"),
        })
        .collect();
    (0..n)
        .map(|k| peer(&format!("p{}.lab", k + 1), if k % 2 == 0 { text.clone() } else { fast.clone() }))
        .collect()
}

/// Race `peers` over `link`; they must agree and the record must replay to their hash.
fn agree_and_replay(peers: &[PeerScript], link: &str) {
    let spec: LinkSpec = link.parse().expect("spec");
    let run = run_netlab(peers, &spec, link).unwrap_or_else(|e| panic!("{link}: {e}"));
    let r = &run.report;
    assert!(r.agree, "{link}: {r:?}");
    assert!(r.peers.iter().all(|p| p.stats.desyncs == 0), "{link}: {r:?}");
    assert!(r.peers[0].confirmed_tick > 300, "{link}: {r:?}");
    let opts = common::lab::options("record.lab", &root(), true);
    let replay = run_script(&run.record, &opts).unwrap_or_else(|e| panic!("{link}: record: {e}"));
    assert_eq!(
        replay.summary.state_hash, r.peers[0].state_hash,
        "{link}: the record replays to another hash"
    );
    assert_eq!(replay.summary.totals.ticks, r.peers[0].confirmed_tick);
}

#[test]
fn two_three_and_four_peers_agree_over_every_link_and_their_records_replay() {
    for n in 2..=4 {
        for link in
            ["", "latency=60,jitter=40,loss=0.05,seed=1", "latency=150,jitter=40,loss=0.1,dup=0.05,seed=2"]
        {
            agree_and_replay(&level1_peers(n), link);
        }
    }
}

#[test]
fn a_bad_link_takes_rollbacks_and_a_perfect_one_none() {
    let spec = |s: &str| s.parse::<LinkSpec>().expect("spec");
    let perfect = run_netlab(&level1_peers(2), &spec(""), "").expect("runs").report;
    assert!(
        perfect.peers.iter().all(|p| p.stats.rollbacks == 0 && p.stats.stalled_frames == 0),
        "{perfect:?}"
    );
    let link = "latency=60,jitter=40,loss=0.05,seed=5";
    let lossy = run_netlab(&level1_peers(2), &spec(link), link).expect("runs").report;
    assert!(lossy.peers.iter().all(|p| p.stats.rollbacks > 0 && p.stats.max_rollback <= 8), "{lossy:?}");
}

#[test]
fn refusals_name_the_script_and_the_problem() {
    let map = "map\n..P.......\n##########\nend\n";
    let ok = peer("a.lab", format!("{map}press right\nframe 16.666667 x10\n"));
    let err =
        |peers: &[PeerScript]| run_netlab(peers, &LinkSpec::default(), "").expect_err("refused").to_string();
    let with_p2 = peer("b.lab", format!("{map}press right p2\nframe 16.666667 x10\n"));
    assert!(err(&[ok.clone(), with_p2]).contains("b.lab:5: p2: the script has 1 player"));
    let players = peer("b.lab", format!("players 2\n{map}frame 16.666667\n"));
    assert!(err(&[ok.clone(), players]).contains("b.lab:0: netlab: a peer's script plays its own player"));
    let other = peer("b.lab", "map\n..P......#\n##########\nend\nframe 16.666667\n".into());
    assert!(err(&[ok.clone(), other]).contains("b.lab:0: netlab: its level differs from a.lab's"));
    let tuned = peer("b.lab", format!("tuning gravity 1999\n{map}frame 16.666667\n"));
    assert!(err(&[ok.clone(), tuned]).contains("its tuning differs"));
    assert!(err(std::slice::from_ref(&ok)).contains("2 to 4 peer scripts"));
    let e = "latency=5,loss=1.5".parse::<LinkSpec>().expect_err("bad");
    let line = e.to_string();
    assert!(line.contains("loss=1.5") && line.contains("probability") && !line.contains('\n'), "{line}");
}

/// A peer's random edges on a small level with a gap: (action, press or release, tick).
fn script(map: &str, edges: &[(usize, bool, u64)]) -> String {
    let actions = ["left", "right", "jump", "down"];
    let mut edges = edges.to_vec();
    edges.sort_by_key(|e| e.2);
    let mut s = map.to_string();
    for (a, press, tick) in edges {
        let verb = if press { "press" } else { "release" };
        s += &format!("{verb} {} @{}\n", actions[a % 4], tick * 17);
    }
    s + "frame 16.666667 x240\n"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[test]
    fn random_inputs_over_random_links_agree_and_replay(
        n in 2usize..=4,
        edges in proptest::collection::vec(proptest::collection::vec((0usize..4, any::<bool>(), 0u64..230), 0..30), 4),
        latency in 0u32..160,
        jitter in 0u32..50,
        loss in 0u32..15,
        dup in 0u32..10,
        seed in any::<u64>(),
    ) {
        let map = "map\n........................\n........................\n..P.....###.............\n#########...#####..^^.##\nend\n";
        let peers: Vec<PeerScript> = (0..n).map(|k| peer(&format!("p{k}.lab"), script(map, &edges[k]))).collect();
        let link = format!("latency={latency},jitter={jitter},loss=0.{loss:02},dup=0.{dup:02},seed={seed}");
        let spec: LinkSpec = link.parse().expect("spec");
        let run = run_netlab(&peers, &spec, &link).expect("runs");
        prop_assert!(run.report.agree, "{:?}", run.report);
        let replay = run_script(&run.record, &common::lab::options("record.lab", &root(), true)).expect("replays");
        prop_assert_eq!(&replay.summary.state_hash, &run.report.peers[0].state_hash);
    }
}
