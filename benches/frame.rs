//! The CPU cost of building one frame's sprite instances (`present::instances::build_instances`)
//! on the shipped first level with 1k / 10k / 100k `--stress` sprites, plus stepping and
//! interpolating those sprites (what `--stress N` adds to a frame). Target: ≤ 1 ms at 10k.
//!
//! `cargo bench --bench frame` (add `-- --quick` for a short run).

use criterion::{BenchmarkId, Criterion, criterion_main};
use glam::DVec2;
use ledge::game_loop::Loop;
use ledge::present::instances::build_instances;
use ledge::present::stress::StressField;
use ledge::present::view::VIEW_SIZE;
use ledge::time::StepperConfig;
use std::hint::black_box;
use std::path::Path;

fn frame(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let level = ledge::level::tiled_map::load_tmx(&root.join("assets/levels/level1.tmx")).expect("level 1");
    let tuning = ledge::sim::Tuning::load(&root.join("assets/tuning.toml")).expect("tuning");
    let mut lp = Loop::new(level, tuning, StepperConfig::default()).expect("loop");
    lp.frame(16_666_667);
    let mut g = c.benchmark_group("frame");
    for n in [1_000usize, 10_000, 100_000] {
        let mut field = StressField::new(n, 1);
        let mut drawn: Vec<DVec2> = Vec::with_capacity(n);
        let mut out = Vec::with_capacity(n + 1024);
        g.bench_with_input(BenchmarkId::new("step + interpolate + build_instances", n), &n, |b, _| {
            b.iter(|| {
                field.step(1.0 / 60.0);
                let mut view = lp.view();
                field.drawn(0.5, view.camera - VIEW_SIZE / 2.0, &mut drawn);
                view.extra = &drawn;
                build_instances(black_box(&view), &mut out);
                black_box(out.len())
            })
        });
    }
    g.finish();
}

/// The group in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    criterion::criterion_group!(benches, super::frame);
}

criterion_main!(group::benches);
