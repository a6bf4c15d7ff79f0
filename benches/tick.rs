//! One fixed tick of the simulation (`sim::step`) on the shipped first level, with Right and
//! Jump held (a fresh jump press every half second), so the player runs, jumps, lands, dies on
//! hazards and respawns as in play. Target: a median of 5 µs or less a tick.
//!
//! Also the same tick with 10, 100 and 1,000 active entities added to the level (platforms and
//! saws moving, walkers patrolling, crumbling blocks and springs, in the sky so the run is the
//! same): the cost should grow linearly (target: ≤ 5 µs at 100).
//!
//! `cargo bench --bench tick` (add `-- --quick` for a short run).

use criterion::{Criterion, criterion_main};
use glam::DVec2;
use ledge::assets::assets_dir;
use ledge::input::Action;
use ledge::input::latch::TickInput;
use ledge::level::EntitySpec;
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
    let fresh = World::for_level(&level);
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

/// `n` entities of every kind, spread along the sky above `width` pixels of level.
fn sky_entities(n: usize, width: f64) -> Vec<EntitySpec> {
    (0..n)
        .map(|i| {
            let pos = DVec2::new((i as f64 * 37.0) % (width - 96.0), -400.0 + (i % 7) as f64 * 40.0);
            let to = Some(pos + DVec2::new(64.0, 16.0));
            match i % 5 {
                0 => EntitySpec::Platform {
                    pos,
                    size: DVec2::new(48.0, 16.0),
                    to,
                    speed: 60.0,
                    wait: 0.2,
                    oneway: i % 2 == 0,
                },
                1 => EntitySpec::Saw { pos, to, speed: 80.0, radius: 8.0 },
                2 => EntitySpec::Walker { pos, speed: 40.0 },
                3 => EntitySpec::Crumble { pos, width: 32.0, delay: 0.5, back: 2.0 },
                _ => EntitySpec::Spring { pos, speed: 370.0 },
            }
        })
        .collect()
}

fn tick_with_entities(c: &mut Criterion) {
    let assets = assets_dir().expect("assets folder");
    let tuning = Tuning::load(&assets.join("tuning.toml")).expect("tuning.toml loads");
    let mut held = TickInput::default();
    held.held[Action::Right.index()] = true;
    for n in [10, 100, 1000] {
        let mut level = load_tmx(&assets.join("levels/level1.tmx")).expect("level1.tmx loads");
        level.entities = sky_entities(n, level.size_px().x);
        let fresh = World::for_level(&level);
        let mut world = fresh.clone();
        c.bench_function(&format!("sim::step level1 right, {n} entities"), |b| {
            b.iter(|| {
                if world.level_complete {
                    world = fresh.clone();
                }
                black_box(sim::step(&mut world, black_box(&held), &level, &tuning, 60))
            })
        });
    }
}

/// The group in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    criterion::criterion_group!(benches, super::tick, super::tick_with_entities);
}

criterion_main!(group::benches);
