//! One fixed tick of the simulation (`sim::step`) on the shipped first level, with Right and
//! Jump held (a fresh jump press every half second), so the player runs, jumps, lands, dies on
//! hazards and respawns as in play. Target: a median of 5 µs or less a tick.
//!
//! `cargo bench --bench tick` (add `-- --quick` for a short run).

use criterion::{Criterion, criterion_main};
use ledge::assets::assets_dir;
use ledge::input::Action;
use ledge::input::latch::TickInput;
use ledge::level::tiled_map::load_tmx;
use ledge::sim::{self, Tuning, World};
use std::hint::black_box;

fn tick(c: &mut Criterion) {
    let assets = assets_dir().expect("assets folder");
    let level = load_tmx(&assets.join("levels/level1.tmx")).expect("level1.tmx loads");
    let tuning = Tuning::load(&assets.join("tuning.toml")).expect("tuning.toml loads");
    let mut held = TickInput::default();
    held.held[Action::Right.index()] = true;
    held.held[Action::Jump.index()] = true;
    let mut press = held;
    press.pressed[Action::Jump.index()] = true;
    let fresh = World::new(level.spawn);
    let mut world = fresh.clone();

    c.bench_function("sim::step level1 right+jump", |b| {
        b.iter(|| {
            // A finished level makes `step` return at once: start over to keep measuring play.
            if world.level_complete {
                world = fresh.clone();
            }
            let input = if world.tick.is_multiple_of(30) { &press } else { &held };
            black_box(sim::step(&mut world, black_box(input), &level, &tuning, 60))
        })
    });
    assert!(world.jumps > 0, "the benchmark never jumped");
}

/// The group in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    criterion::criterion_group!(benches, super::tick);
}

criterion_main!(group::benches);
