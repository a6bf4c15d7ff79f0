//! The timing lab running one simulated hour of 60 Hz frames (`frame 16.6667 x216000`) on the
//! shipped first level, Right held and a jump every two seconds, summary only (as
//! `ledge lab SCRIPT --summary`). Target: 20,000x real time or better, i.e. under 0.18 s.
//! Also the same hour (with jumps) on the largest shipped level with at least 24 entities (the
//! level's own — `level11.tmx` ships 35 — topped up to 24 with platforms, saws, crumbles,
//! springs and walkers added by `entity` lines when it has fewer); target
//! (issue #11): 36,000x real time, i.e. under 0.1 s.
//!
//! The entity hour is measured twice: in wall time (`lab/…`, criterion's default) and in
//! the time the bench's thread spent on a CPU (`lab-cpu/…`, [`ThreadCpu`]), which a machine
//! shared with other work does not inflate the way it inflates wall time.
//!
//! `cargo bench --bench lab` (add `-- --quick` for a short run).

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{Criterion, Throughput, criterion_main};
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
    let opts = LabOptions {
        script_name: "bench-1h".into(),
        script_dir: ".".into(),
        summary_only: true,
        force: false,
    };
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

/// The 1 h run (jumps) on the largest shipped level with at least 24 entities (its own, then
/// script ones). Target (issue #11): ≥ 36,000x real time, i.e. under 0.1 s.
fn lab_entities(c: &mut Criterion) {
    let (path, level) = largest_level();
    let opts = LabOptions {
        script_name: "bench-1h-entities".into(),
        script_dir: ".".into(),
        summary_only: true,
        force: false,
    };
    let text = format!("level {}\n{}{}", path.display(), entity_lines(&level), hour_script(true));
    let report = run_script(&text, &opts).expect("the bench script runs");
    assert_eq!(report.summary.totals.ticks, 216_000, "one hour of 60 Hz ticks");
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("level").to_string();
    let mut g = c.benchmark_group("lab");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function(
        format!("1 h of 60 Hz frames, jumps, {name} with {} entities", level.entities.len().max(24)),
        |b| b.iter(|| black_box(run_script(black_box(&text), &opts).expect("runs"))),
    );
    g.finish();
}

/// The same entity hour measured in CPU time of the bench's thread ([`ThreadCpu`]).
fn lab_entities_cpu(c: &mut Criterion<ThreadCpu>) {
    let (path, level) = largest_level();
    let opts = LabOptions {
        script_name: "bench-1h-entities".into(),
        script_dir: ".".into(),
        summary_only: true,
        force: false,
    };
    let text = format!("level {}\n{}{}", path.display(), entity_lines(&level), hour_script(true));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("level").to_string();
    let mut g = c.benchmark_group("lab-cpu");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function(
        format!(
            "1 h of 60 Hz frames, jumps, {name} with {} entities, thread CPU time",
            level.entities.len().max(24)
        ),
        |b| b.iter(|| black_box(run_script(black_box(&text), &opts).expect("runs"))),
    );
    g.finish();
}

/// Time the bench's thread spent running on a CPU, ns: the first field of Linux's
/// `/proc/thread-self/schedstat` (the scheduler's `sum_exec_runtime`, brought up to date at
/// every scheduler tick, so a reading may lag by one tick, a few ms against the ~0.1 s
/// measured). Where that file cannot be read, wall time since the first reading.
struct ThreadCpu;

fn thread_cpu_ns() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| START.get_or_init(std::time::Instant::now).elapsed().as_nanos() as u64)
}

impl Measurement for ThreadCpu {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        self
    }
}

impl ValueFormatter for ThreadCpu {
    fn scale_values(&self, typical_ns: f64, values: &mut [f64]) -> &'static str {
        let (div, unit) = match typical_ns {
            t if t < 1e3 => (1.0, "ns"),
            t if t < 1e6 => (1e3, "µs"),
            t if t < 1e9 => (1e6, "ms"),
            _ => (1e9, "s"),
        };
        values.iter_mut().for_each(|v| *v /= div);
        unit
    }

    fn scale_throughputs(&self, _typical: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        let per = match *throughput {
            Throughput::Elements(n)
            | Throughput::Bytes(n)
            | Throughput::BytesDecimal(n)
            | Throughput::Bits(n) => n as f64,
            // criterion 0.8: elements are the primary figure (the one in the benchmark id).
            Throughput::ElementsAndBytes { elements, .. } => elements as f64,
        };
        values.iter_mut().for_each(|v| *v = per * 1e9 / *v);
        "per CPU second"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// The groups in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    criterion::criterion_group!(benches, super::lab, super::lab_entities);
    criterion::criterion_group! {
        name = cpu;
        config = criterion::Criterion::default().with_measurement(super::ThreadCpu);
        targets = super::lab_entities_cpu
    }
}

criterion_main!(group::benches, group::cpu);
