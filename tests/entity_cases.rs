//! The entity lab cases in `tests/cases/v2/` (LAB.md "Version 2 additions", "Entities"): each
//! script runs through `ledge::lab::run_script` and is checked here in Rust with the meaning of
//! its `# expect:` lines (which `../shared/tools/labcheck` checks from the JSON report), and
//! each `# expect-same-hash:` line is checked too. Every `.lab` in the folder has a test.
//!
//! Clock: fixed tick (the lab's scripted clock).

mod common;

use common::root;
use ledge::game_loop::TickRecord;
use ledge::lab::report::{DrawnEntity, FrameReport, Report};
use ledge::sim::cues::Cue;
use ledge::sim::entities::record::EntityRecord;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn dir() -> PathBuf {
    root().join("tests/cases/v2")
}

/// Run a case; also check its `# expect-same-hash:` lines.
fn run(name: &str) -> Report {
    let path = dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let report = common::lab::run(&text, &common::lab::options(name, &dir(), false));
    for other in text.lines().filter_map(|l| l.strip_prefix("# expect-same-hash:")) {
        let theirs = run(other.trim());
        assert_eq!(report.summary.state_hash, theirs.summary.state_hash, "{name} vs {other}");
    }
    report
}

fn ticks(r: &Report) -> &[TickRecord] {
    r.ticks.as_deref().expect("full report")
}

fn frames(r: &Report) -> &[FrameReport] {
    r.frames.as_deref().expect("full report")
}

fn ent(t: &TickRecord, id: usize) -> &EntityRecord {
    t.entities.iter().find(|e| e.id == id).expect("entity in the tick")
}

fn drawn(f: &FrameReport, id: usize) -> DrawnEntity {
    *f.drawn_entities.as_deref().expect("drawn entities").iter().find(|e| e.id == id).expect("drawn entity")
}

fn spread(v: impl IntoIterator<Item = f64>) -> f64 {
    let (lo, hi) = v.into_iter().fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    hi - lo
}

fn first_death(t: &[TickRecord]) -> usize {
    t.iter().position(|t| t.died).expect("a death")
}

fn ride_offsets(name: &str) {
    let r = run(name);
    let t = ticks(&r);
    assert!(t.iter().all(|t| t.riding == Some(Some(0))), "rides on every tick");
    let offsets: BTreeSet<(u64, u64)> = t
        .iter()
        .map(|t| ((ent(t, 0).x - t.player.x).to_bits(), (ent(t, 0).y - t.player.y).to_bits()))
        .collect();
    assert_eq!(offsets.len(), 1, "one offset in the simulation");
    let f: Vec<&FrameReport> = frames(&r).iter().filter(|f| f.stats.tick >= 2).collect();
    assert!(f.len() >= 100);
    assert!(spread(f.iter().map(|f| drawn(f, 0).x - f.stats.drawn.x)) <= 1e-6, "drawn x offset");
    assert!(spread(f.iter().map(|f| drawn(f, 0).y - f.stats.drawn.y)) <= 1e-6, "drawn y offset");
    let alphas: BTreeSet<u64> = frames(&r).iter().map(|f| (f.stats.alpha * 1e6).round() as u64).collect();
    assert!(alphas.len() > 10, "fractional alphas are exercised");
    assert!(t.iter().any(|t| ent(t, 0).vx > 0.0) && t.iter().any(|t| ent(t, 0).vx < 0.0));
    assert!(t.iter().any(|t| ent(t, 0).state == "waiting"));
    assert!(!t.iter().any(|t| t.died));
}

#[test]
fn ent_ride_offset_144() {
    ride_offsets("ent-ride-offset-144.lab");
}

#[test]
fn ent_ride_offset_jitter() {
    ride_offsets("ent-ride-offset-jitter.lab");
}

#[test]
fn ent_rise_144() {
    let r = run("ent-rise-144.lab");
    let t = ticks(&r);
    assert!(t.iter().all(|t| t.riding == Some(Some(0))));
    assert!(t.iter().all(|t| t.player.y + 22.0 == ent(t, 0).y), "feet exactly on the top");
    assert_eq!(spread(t.iter().map(|t| ent(t, 0).y)), 120.0);
}

#[test]
fn ent_reversal() {
    let r = run("ent-reversal.lab");
    let t = ticks(&r);
    assert!(t.iter().all(|t| t.riding == Some(Some(0))));
    let xs: BTreeSet<u64> = t.iter().map(|t| (ent(t, 0).x - t.player.x).to_bits()).collect();
    assert_eq!(xs.len(), 1, "no slip");
    assert!(t.windows(2).filter(|w| ent(&w[0], 0).vx * ent(&w[1], 0).vx < 0.0).count() >= 8);
    assert!(spread(frames(&r).iter().map(|f| drawn(f, 0).x - f.stats.drawn.x)) <= 1e-6);
}

#[test]
fn ent_squish_wall() {
    let r = run("ent-squish-wall.lab");
    let t = ticks(&r);
    assert!(t.iter().any(|t| t.died && t.respawned));
    assert!(t.iter().all(|t| t.player.x + 12.0 <= 14.0 * 16.0), "never inside the wall");
    assert!(t.iter().all(|t| {
        let e = ent(t, 0);
        let p = &t.player;
        !(p.x < e.x + 32.0 && p.x + 12.0 > e.x && p.y < 160.0 && p.y + 22.0 > 130.0)
    }));
    assert!(r.summary.deaths >= 1 && r.summary.respawns == r.summary.deaths);
}

#[test]
fn ent_squish_ceiling() {
    let r = run("ent-squish-ceiling.lab");
    let t = ticks(&r);
    assert!(t.iter().any(|t| t.died));
    assert!(t.iter().all(|t| t.player.y >= 64.0), "never pushed through the ceiling");
    assert!(t.iter().all(|t| {
        let (e, y) = (ent(t, 0).y, t.player.y);
        e + 16.0 <= 64.0 || y + 22.0 <= e || y >= e + 16.0
    }));
}

fn spring(name: &str) {
    let r = run(name);
    let t = ticks(&r);
    assert_eq!(r.summary.jumps, 0);
    assert!(t.iter().any(|t| t.player.vy == -370.0));
    let apex = t[20..].iter().map(|t| t.player.y).fold(f64::MAX, f64::min);
    assert!((apex - 95.0).abs() <= 1e-9, "apex {apex}");
}

#[test]
fn ent_spring_30() {
    spring("ent-spring-30.lab");
}

#[test]
fn ent_spring_60() {
    spring("ent-spring-60.lab");
}

#[test]
fn ent_spring_144() {
    spring("ent-spring-144.lab");
}

#[test]
fn ent_spring_240() {
    spring("ent-spring-240.lab");
}

#[test]
fn ent_spring_covered() {
    let r = run("ent-spring-covered.lab");
    let t = ticks(&r);
    let p = |t: &TickRecord| (t.player.x, t.player.y);
    assert!(t.iter().map(p).all(|(x, y)| !(x < 144.0 && x + 12.0 > 80.0 && y < 199.0 && y + 22.0 > 183.0)));
    assert!(t.iter().any(|t| t.player.x < 116.0 && t.player.x + 12.0 > 100.0), "walked through it");
    let launches: Vec<f64> = t.iter().filter(|t| t.player.vy == -370.0).map(|t| t.player.x).collect();
    assert!(!launches.is_empty() && launches.iter().all(|&x| x > 220.0), "only the open spring fires");
    assert!(!t.iter().any(|t| t.died));
}

#[test]
fn ent_crumble_back() {
    let r = run("ent-crumble-back.lab");
    let t = ticks(&r);
    assert_eq!(t.iter().filter(|t| ent(t, 0).state == "breaking").count(), 31);
    assert!(t.iter().any(|t| ent(t, 0).state == "broken"));
    assert_eq!(ent(&t[t.len() - 1], 0).state, "solid");
    assert!(t.iter().all(|t| {
        let p = &t.player;
        ent(t, 0).state == "broken" || !(p.x < 104.0 && p.x + 12.0 > 72.0 && p.y + 22.0 > 144.0)
    }));
    let broken: Vec<u64> = t.iter().filter(|t| ent(t, 0).state == "broken").map(|t| t.tick).collect();
    assert!(broken[broken.len() - 1] - broken[0] > 61, "it waited for the player to leave");
}

fn stomp(name: &str) {
    let r = run(name);
    let t = ticks(&r);
    assert_eq!(ent(&t[t.len() - 1], 0).state, "defeated");
    assert!(!t.iter().any(|t| t.died) && r.summary.jumps == 0);
    assert!(t.windows(2).any(|w| w[0].player.vy > 0.0 && w[1].player.vy < -150.0), "bounced");
}

#[test]
fn ent_stomp_30() {
    stomp("ent-stomp-30.lab");
}

#[test]
fn ent_stomp_60() {
    stomp("ent-stomp-60.lab");
}

#[test]
fn ent_stomp_144() {
    stomp("ent-stomp-144.lab");
}

#[test]
fn ent_stomp_240() {
    stomp("ent-stomp-240.lab");
}

#[test]
fn ent_death_reset() {
    let r = run("ent-death-reset.lab");
    let t = ticks(&r);
    let i = first_death(t);
    assert_eq!((ent(&t[i - 1], 0).state, ent(&t[i], 0).state), ("broken", "solid"));
    assert_eq!((ent(&t[i], 1).x, ent(&t[i], 1).state), (300.0, "alive"));
    assert!(ent(&t[i], 2).x > ent(&t[i - 1], 2).x, "the saw's clock runs on");
}

#[test]
fn ent_lift_jump() {
    let r = run("ent-lift-jump.lab");
    let t = ticks(&r);
    let i = t.iter().position(|t| t.jump_started).expect("a jump");
    let e = ent(&t[i], 0);
    assert!(t[i].player.vx == e.vx && e.vx > 0.0, "all of the platform's vx");
    assert!((t[i].player.vy - (-210.0 + e.vy + 1800.0 / 60.0)).abs() <= 1e-9 && e.vy < 0.0, "its upward vy");
}

#[test]
fn ent_push_down_oneway() {
    let r = run("ent-push-down-oneway.lab");
    let t = ticks(&r);
    let death = first_death(t);
    assert!(t[..=death].iter().all(|t| t.player.y + 22.0 <= 160.0), "never pushed through the one-way top");
    assert!(t.iter().all(|t| {
        let e = ent(t, 1);
        let p = &t.player;
        !(p.x < e.x + 48.0 && p.x + 12.0 > e.x && p.y < e.y + 16.0 && p.y + 22.0 > e.y)
    }));
}

#[test]
fn ent_teleport_onto_platform() {
    let r = run("ent-teleport-onto-platform.lab");
    let t = ticks(&r);
    let k = t.iter().position(|t| t.respawned).expect("the teleport tick");
    assert!(!t[k].died);
    assert_eq!((t[k].player.x, t[k].player.y), (170.0, 78.0), "on the platform's top");
    assert!(t.iter().all(|t| {
        let p = &t.player;
        !(p.x < 208.0 && p.x + 12.0 > 160.0 && p.y < 116.0 && p.y + 22.0 > 100.0)
    }));
    assert_eq!(t.last().map(|t| (t.riding, t.player.y)), Some((Some(Some(0)), 78.0)));
}

const RIDES: Option<Option<usize>> = Some(Some(0));
const FREE: Option<Option<usize>> = Some(None);

#[test]
fn ent_run_relative() {
    let r = run("ent-run-relative.lab");
    let t = ticks(&r);
    let mut riding_pairs = 0;
    let mut off_pairs = 0;
    for w in t.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let dx = b.player.x - a.player.x;
        if a.riding == RIDES && b.riding == RIDES {
            let want = (b.player.vx + ent(b, 0).vx) / 60.0;
            assert!((dx - want).abs() <= 1e-9, "tick {}: riding moved {dx}, want {want}", b.tick);
            riding_pairs += 1;
        } else if a.riding == FREE && b.riding == FREE && b.player.x > 0.0 {
            assert!((dx - b.player.vx / 60.0).abs() <= 1e-9, "tick {}: off moved {dx}", b.tick);
            off_pairs += usize::from(dx == -3.0);
        }
    }
    assert!(riding_pairs > 30 && off_pairs >= 20, "{riding_pairs} {off_pairs}");
    assert!(t.iter().any(|t| t.riding == RIDES && t.player.vx == -180.0 && ent(t, 0).vx == 60.0));
    assert!(t.windows(2).any(|w| w[0].riding == RIDES && w[1].riding == FREE), "walks off");
    assert!(!t.iter().any(|t| t.died));
}

#[test]
fn ent_carry_wall() {
    let r = run("ent-carry-wall.lab");
    let t = ticks(&r);
    assert!(t.iter().all(|t| t.player.x + 12.0 <= 192.0), "never into the wall");
    assert_eq!(t.iter().map(|t| t.player.x).fold(f64::MIN, f64::max), 180.0, "stops on the wall");
    let slid = t
        .windows(2)
        .filter(|w| {
            let (a, b) = (&w[0], &w[1]);
            a.riding == RIDES
                && b.riding == RIDES
                && a.player.x == 180.0
                && b.player.x == 180.0
                && ent(b, 0).x == ent(a, 0).x + 1.0
        })
        .count();
    assert!(slid >= 20, "the platform slides on under the stopped rider: {slid}");
    assert!(t.iter().filter(|t| t.riding == RIDES).all(|t| t.player.y + 22.0 == ent(t, 0).y));
    assert!(!t.iter().any(|t| t.died), "carried into a wall is not a squish");
    let last = t.last().expect("ticks");
    assert_eq!(
        (last.riding, last.player.on_ground, last.player.x, last.player.y),
        (FREE, true, 180.0, 202.0)
    );
}

#[test]
fn ent_walker_turns() {
    let r = run("ent-walker-turns.lab");
    let t = ticks(&r);
    let step = 40.0 / 60.0;
    for (id, lo, hi, y) in [(0, 0.0, 144.0, 176.0), (1, 224.0, 304.0, 96.0)] {
        let xs: Vec<f64> = t.iter().map(|t| ent(t, id).x).collect();
        assert!(
            xs.iter().all(|&x| (lo - 1e-9..=hi + 1e-9).contains(&x)),
            "walker {id} stays in [{lo}, {hi}]"
        );
        let (min, max) = xs.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        assert!(min <= lo + step && max >= hi - step, "walker {id} reaches both ends: {min} {max}");
        assert!(t.iter().all(|t| ent(t, id).y == y && ent(t, id).state == "alive"));
        assert!(t.iter().filter(|t| ent(t, id).vx == 0.0).count() >= 2, "walker {id} turns twice");
        assert!(
            t.windows(2).all(|w| ent(&w[0], id).vx * ent(&w[1], id).vx >= 0.0),
            "a still tick at each turn"
        );
    }
    assert!(!t.iter().any(|t| t.died));
}

#[test]
fn ent_teleport_moving() {
    let r = run("ent-teleport-moving.lab");
    let t = ticks(&r);
    let k = t.iter().position(|t| t.respawned).expect("the teleport tick");
    assert!(!t[k].died && (t[k].player.x, t[k].player.y) == (240.0, 70.0));
    let landed = t.iter().find(|t| t.riding == RIDES).expect("lands on the platform").tick;
    assert!(t.iter().filter(|t| t.tick >= landed).all(|t| t.riding == RIDES));
    assert!(t.iter().any(|t| ent(t, 0).vx < 0.0), "rides through a reversal");
    let f = frames(&r);
    assert!(
        f.iter()
            .filter(|f| f.stats.tick < landed)
            .all(|f| f.stats.drawn.x == 50.0 || f.stats.drawn.x == 240.0),
        "no streak between the old place and the new"
    );
    let after: Vec<&FrameReport> = f.iter().filter(|f| f.stats.tick > landed).collect();
    assert!(after.len() > 300);
    assert!(spread(after.iter().map(|f| drawn(f, 0).x - f.stats.drawn.x)) <= 1e-6);
    assert!(spread(after.iter().map(|f| drawn(f, 0).y - f.stats.drawn.y)) <= 1e-6);
}

/// A jump at a platform's reversal: `tick` is the jump's tick, `platform_vy` the platform's
/// velocity in it, `vy` the jump's.
fn jump_at_reversal(name: &str, tick: u64, platform_vy: f64, vy: f64) {
    let r = run(name);
    let t = ticks(&r);
    let jumps: Vec<u64> = t.iter().filter(|t| t.jump_started).map(|t| t.tick).collect();
    assert_eq!(jumps, [tick]);
    let i = t.iter().position(|t| t.jump_started).expect("a jump");
    assert_eq!((ent(&t[i - 1], 0).vy, ent(&t[i], 0).vy), (-60.0, platform_vy), "the reversal");
    assert_eq!((t[i].player.vx, t[i].player.vy), (0.0, vy), "the upward part only");
    assert!(t[..i].iter().all(|t| t.riding == RIDES && t.player.y + 22.0 == ent(t, 0).y));
    assert!(!t.iter().any(|t| t.died));
}

#[test]
fn ent_jump_reversal_up() {
    jump_at_reversal("ent-jump-reversal-up.lab", 60, -60.0, -210.0 - 60.0 + 1800.0 / 60.0);
}

#[test]
fn ent_jump_reversal_down() {
    jump_at_reversal("ent-jump-reversal-down.lab", 61, 60.0, -210.0);
}

/// Two solid platforms side by side moving in step, the player standing across both (audit
/// finding 6): it rides 0 on every tick with its feet exactly on both tops, keeps one offset
/// from the platforms in the simulation and in every drawn frame (no hop, no double carry),
/// never lands again after tick 1 and never dies. Returns the ticks.
fn two_platforms(r: &Report) -> &[TickRecord] {
    let t = ticks(r);
    assert!(t.iter().all(|t| t.riding == RIDES), "rides on every tick");
    assert!(t.iter().all(|t| t.player.y + 22.0 == ent(t, 0).y && t.player.y + 22.0 == ent(t, 1).y));
    let offsets: BTreeSet<(u64, u64)> = t
        .iter()
        .map(|t| ((ent(t, 0).x - t.player.x).to_bits(), (ent(t, 0).y - t.player.y).to_bits()))
        .collect();
    assert_eq!(offsets.len(), 1, "one offset in the simulation");
    let f: Vec<&FrameReport> = frames(r).iter().filter(|f| f.stats.tick >= 2).collect();
    assert!(f.len() >= 500);
    assert!(spread(f.iter().map(|f| drawn(f, 0).x - f.stats.drawn.x)) <= 1e-6, "drawn x offset");
    assert!(spread(f.iter().map(|f| drawn(f, 0).y - f.stats.drawn.y)) <= 1e-6, "drawn y offset");
    assert!(!t.iter().any(|t| t.died || (t.tick > 1 && t.sounds.contains(Cue::Land))), "no hop");
    t
}

#[test]
fn ent_two_down() {
    let r = run("ent-two-down.lab");
    let t = two_platforms(&r);
    assert!(ent(&t[0], 0).vy > 0.0 && t.iter().any(|t| ent(t, 0).vy < 0.0));
}

#[test]
fn ent_two_up() {
    let r = run("ent-two-up.lab");
    let t = two_platforms(&r);
    assert!(ent(&t[0], 0).vy < 0.0 && t.iter().any(|t| ent(t, 0).vy > 0.0));
}

#[test]
fn ent_two_sideways() {
    let r = run("ent-two-sideways.lab");
    let t = two_platforms(&r);
    assert!(t.iter().all(|t| ent(t, 1).x - t.player.x == -26.0), "carried once per tick");
    assert!(ent(&t[0], 0).vx > 0.0 && t.iter().any(|t| ent(t, 0).vx < 0.0));
}

/// True when the player's box overlaps the box (x, y, w, h).
fn inside(t: &TickRecord, (x, y, w, h): (f64, f64, f64, f64)) -> bool {
    let p = &t.player;
    p.x < x + w && p.x + 12.0 > x && p.y < y + h && p.y + 22.0 > y
}

#[test]
fn ent_spawn_inside_platform() {
    let r = run("ent-spawn-inside-platform.lab");
    let t = ticks(&r);
    assert!(t.iter().all(|t| !inside(t, (150.0, 210.0, 40.0, 14.0))), "never inside");
    assert!(t.iter().all(|t| t.player.y == 188.0 && t.riding == RIDES), "on its top from tick 1");
}

#[test]
fn ent_spawn_inside_crumble() {
    let r = run("ent-spawn-inside-crumble.lab");
    let t = ticks(&r);
    assert!(t.iter().all(|t| ent(t, 0).state == "broken" || !inside(t, (150.0, 200.0, 32.0, 16.0))));
    assert_eq!((ent(&t[0], 0).state, ent(&t[t.len() - 1], 0).state), ("broken", "solid"), "it waits");
    assert!(!t.iter().any(|t| t.died));
}

#[test]
fn ent_respawn_crumble_on_platform() {
    let r = run("ent-respawn-crumble-on-platform.lab");
    let t = ticks(&r);
    assert!(t.iter().all(|t| !inside(t, (150.0, 210.0, 40.0, 14.0))), "never inside the platform");
    let respawns: Vec<&TickRecord> = t.iter().filter(|t| t.died).collect();
    assert!(respawns.len() >= 2);
    assert!(respawns.iter().all(|t| t.player.y == 188.0 && t.riding == RIDES && ent(t, 1).state == "broken"));
    assert!(!t.windows(2).any(|w| w[0].died && w[1].died), "one death at a time");
    assert!(t.iter().any(|t| t.riding == FREE && ent(t, 1).state == "solid"), "it came back in between");
}

fn hash(name: &str) {
    let r = run(name);
    assert_eq!(r.summary.totals.ticks, 300);
    assert_eq!(ticks(&r)[299].entities.len(), 6);
}

#[test]
fn ent_hash_30() {
    hash("ent-hash-30.lab");
}

#[test]
fn ent_hash_60() {
    hash("ent-hash-60.lab");
}

#[test]
fn ent_hash_144() {
    hash("ent-hash-144.lab");
}

#[test]
fn ent_hash_240() {
    hash("ent-hash-240.lab");
}

/// Every case file has a test above (named after it).
#[test]
fn every_entity_case_has_a_test() {
    let src = std::fs::read_to_string(root().join("tests/entity_cases.rs")).expect("this file");
    for entry in std::fs::read_dir(dir()).expect("tests/cases/v2") {
        let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".lab") {
            let test = format!("fn {}()", stem.replace('-', "_"));
            assert!(src.contains(&test), "{name} has no test `{test}`");
        }
    }
}

/// The report's entity fields are written only in a level with entities; `died` always.
#[test]
fn old_scripts_get_no_entity_fields() {
    let opts = common::lab::options("inline", &dir(), false);
    let plain = common::lab::run("map\nP.\n##\nend\nframe 16.666667 x3\n", &opts).to_json();
    assert!(plain.contains("\"died\":false") && !plain.contains("entities") && !plain.contains("riding"));
    let with =
        common::lab::run("map\nP.\n##\nend\nentity spring x=16 y=8\nframe 16.666667 x3\n", &opts).to_json();
    assert!(with.contains("\"entities\":[{\"id\":0,\"kind\":\"spring\""));
    assert!(with.contains("\"riding\":null") && with.contains("\"drawn_entities\":[{\"id\":0"));
}

/// A malformed `entity` line exits like any malformed line: one line naming the line number.
#[test]
fn a_malformed_entity_line_names_its_line() {
    let opts = common::lab::options("bad.lab", &dir(), false);
    let e = ledge::lab::run_script("map\nP.\n##\nend\nentity platform x=0 y=0 w=16\n", &opts).unwrap_err();
    assert_eq!(e.line, 5);
    assert!(e.to_string().contains("platform needs 'h'"), "{e}");
    let e = ledge::lab::run_script("frame 1\nentity saw x=0 y=0\n", &opts).unwrap_err();
    assert_eq!(e.line, 2);
}
