//! The timing lab running one simulated hour of 60 Hz frames (`frame 16.6667 x216000`) on the
//! shipped first level, Right held and a jump every two seconds, summary only (as
//! `ledge lab SCRIPT --summary`). Target: 20,000x real time or better, i.e. under 0.18 s.
//!
//! `cargo bench --bench lab` (add `-- --quick` for a short run).

use criterion::{Criterion, criterion_main};
use ledge::lab::{LabOptions, run_script};
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

/// The group in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    criterion::criterion_group!(benches, super::lab);
}

criterion_main!(group::benches);
