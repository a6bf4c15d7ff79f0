//! The timing lab running one simulated hour of 60 Hz frames (`frame 16.6667 x216000`) on the
//! shipped first level, Right held and a jump every two seconds, summary only (as
//! `ledge lab SCRIPT --summary`). Target: 20,000x real time or better, i.e. under 0.18 s.
//! Also the same hour (with jumps) on the largest shipped level with 24 entities (the level's
//! own, then platforms, saws, crumbles, springs and walkers added by `entity` lines); target
//! (issue #11): 36,000x real time, i.e. under 0.1 s.
//!
//! `cargo bench --bench lab` (add `-- --quick` for a short run).

use criterion::{Criterion, criterion_main};
use ledge::assets::assets_dir;
use ledge::lab::{LabOptions, run_script};
use ledge::level::tiled_map::load_tmx;
use ledge::level::{Level, TILE, TileKind};
use std::hint::black_box;
use std::time::Duration;

/// One hour of 60 Hz frames: Right held from the start and, with `jumps`, a 100 ms jump press
/// every 2 s (3,600 more input events, all listed up front with `@MS`).
fn hour_script(jumps: bool) -> String {
    let mut s = String::from("press right @0\n");
    if jumps {
        for t in (1_000..3_600_000).step_by(2_000) {
            s += &format!("press jump @{t}\nrelease jump @{}\n", t + 100);
        }
    }
    s += "frame 16.6667 x216000\n";
    s
}

fn lab(c: &mut Criterion) {
    let opts = LabOptions { script_name: "bench-1h".into(), script_dir: ".".into(), summary_only: true };
    let mut g = c.benchmark_group("lab");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for (name, jumps) in [
        ("1 h of 60 Hz frames, jumps, summary only", true),
        ("1 h of 60 Hz frames, right held only, summary only", false),
    ] {
        let text = hour_script(jumps);
        let report = run_script(&text, &opts).expect("the bench script runs");
        assert_eq!(report.summary.totals.ticks, 216_000, "one hour of 60 Hz ticks");
        assert_eq!(report.summary.jumps > 100, jumps, "the player jumps when asked");
        g.bench_function(name, |b| b.iter(|| black_box(run_script(black_box(&text), &opts).expect("runs"))));
    }
    g.finish();
}

/// The shipped level with the most tiles (`assets/levels/*.tmx`), its path and the level.
fn largest_level() -> (std::path::PathBuf, Level) {
    let dir = assets_dir().expect("assets folder").join("levels");
    let mut best: Option<(std::path::PathBuf, Level)> = None;
    for entry in std::fs::read_dir(&dir).expect("levels folder") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "tmx") {
            continue;
        }
        let level = load_tmx(&path).expect("a shipped level loads");
        let area = |l: &Level| l.size_px().x * l.size_px().y;
        if best.as_ref().is_none_or(|(_, b)| area(&level) > area(b)) {
            best = Some((path, level));
        }
    }
    best.expect("a shipped level")
}

/// `entity` lines that bring `level` up to 24 entities: platforms (solid and one-way), saws,
/// crumbles and springs spread over its width in the open sky near the top, and walkers on
/// the first free tile above a solid one in columns spread over the level.
fn entity_lines(level: &Level) -> String {
    let want = 24usize.saturating_sub(level.entities.len());
    let (w, h) = (level.size_px().x, level.size_px().y);
    let cols = (w / TILE) as i64;
    let rows = (h / TILE) as i64;
    let mut s = String::new();
    for i in 0..want {
        let x = 32.0 + (i as f64 * 0.37).fract() * (w - 160.0);
        let y = 8.0 + (i % 4) as f64 * 12.0;
        s += &match i % 6 {
            0 | 1 => format!(
                "entity platform x={x:.0} y={y:.0} w=48 h=16 to={:.0},{:.0} speed={} wait=0.3{}\n",
                x + 64.0,
                y + 40.0,
                50 + i,
                if i % 2 == 1 { " oneway=1" } else { "" }
            ),
            2 => format!("entity saw x={x:.0} y={y:.0} to={x:.0},{:.0} speed={} r=8\n", y + 60.0, 60 + i),
            3 => format!("entity crumble x={x:.0} y={y:.0} w=32\n"),
            4 => format!("entity spring x={x:.0} y={y:.0}\n"),
            _ => {
                // A walker on a floor: the first empty tile above a solid one in some column.
                let col = (i as i64 * 7919) % cols.max(1);
                let row = (1..rows)
                    .find(|&r| {
                        level.kind_at(col, r) == TileKind::Solid
                            && level.kind_at(col, r - 1) == TileKind::Empty
                    })
                    .unwrap_or(1);
                format!("entity walker x={} y={} speed=40\n", col as f64 * TILE, (row - 1) as f64 * TILE)
            }
        };
    }
    s
}

/// The 1 h run (jumps) on the largest shipped level with 24 entities (its own, then script
/// ones). Target (issue #11): ≥ 36,000x real time, i.e. under 0.1 s.
fn lab_entities(c: &mut Criterion) {
    let (path, level) = largest_level();
    let opts =
        LabOptions { script_name: "bench-1h-entities".into(), script_dir: ".".into(), summary_only: true };
    let text = format!("level {}\n{}{}", path.display(), entity_lines(&level), hour_script(true));
    let report = run_script(&text, &opts).expect("the bench script runs");
    assert_eq!(report.summary.totals.ticks, 216_000, "one hour of 60 Hz ticks");
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("level").to_string();
    let mut g = c.benchmark_group("lab");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function(format!("1 h of 60 Hz frames, jumps, {name} with 24 entities"), |b| {
        b.iter(|| black_box(run_script(black_box(&text), &opts).expect("runs")))
    });
    g.finish();
}

/// The group in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    criterion::criterion_group!(benches, super::lab, super::lab_entities);
}

criterion_main!(group::benches);
