//! The CPU cost of building one frame's sprite instances (`present::instances::build_instances`)
//! on the shipped first level with 1k / 10k / 100k `--stress` sprites, plus stepping and
//! interpolating those sprites (what `--stress N` adds to a frame). Target: ≤ 1 ms at 10k.
//! And the same build with 100 / 1,000 entities of every kind in view (hand-made
//! `EntityDraw`s cycling through platforms solid and one-way, crumbles, springs, saws, walkers
//! and their drawn states: what `present::entity_sprites` adds to a frame).
//!
//! `cargo bench --bench frame` (add `-- --quick` for a short run).

use criterion::{BenchmarkId, Criterion, criterion_main};
use glam::DVec2;
use ledge::game_loop::Loop;
use ledge::level::EntityKind;
use ledge::present::instances::build_instances;
use ledge::present::stress::StressField;
use ledge::present::view::{EntityDraw, VIEW_SIZE};
use ledge::sim::EntityState;
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
    for n in [100usize, 1_000] {
        let entities = every_kind(n, lp.view().camera);
        let mut out = Vec::with_capacity(8 * n + 1024);
        g.bench_with_input(BenchmarkId::new("build_instances, every entity kind", n), &n, |b, _| {
            b.iter(|| {
                let mut view = lp.view();
                view.entities = &entities;
                build_instances(black_box(&view), &mut out);
                black_box(out.len())
            })
        });
    }
    g.finish();
}

/// `n` entities cycling through every kind and drawn state, spread over the view around
/// `camera` at fractional positions. Level 1 places no entities, so every platform is drawn
/// solid (its spec is looked up by id and not found); the one-way pieces cost the same.
fn every_kind(n: usize, camera: DVec2) -> Vec<EntityDraw> {
    use EntityKind::*;
    use EntityState::*;
    let kinds = [
        (Platform, DVec2::new(64.0, 16.0), Moving, 0),
        (Platform, DVec2::new(40.0, 40.0), Waiting, 0),
        (Crumble, DVec2::new(32.0, 16.0), Solid, 0),
        (Crumble, DVec2::new(32.0, 16.0), Breaking, 1),
        (Spring, DVec2::new(16.0, 8.0), Idle, 2),
        (Saw, DVec2::new(16.0, 16.0), Moving, 7),
        (Walker, DVec2::new(16.0, 16.0), Alive, 3),
        (Walker, DVec2::new(16.0, 16.0), Defeated, 0),
    ];
    (0..n)
        .map(|i| {
            let (kind, size, state, frame) = kinds[i % kinds.len()];
            let spot = DVec2::new((i * 37 % 600) as f64 + 0.3, (i * 53 % 320) as f64 + 0.6);
            EntityDraw {
                id: i,
                kind,
                pos: camera - VIEW_SIZE / 2.0 + spot,
                size,
                state,
                facing_left: i % 2 == 1,
                frame,
            }
        })
        .collect()
}

/// The group in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    criterion::criterion_group!(benches, super::frame);
}

criterion_main!(group::benches);
