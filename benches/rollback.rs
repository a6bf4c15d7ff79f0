//! The online race's re-simulation cost (NET.md, docs/speed.md): a rollback of 8 ticks (ggrs's
//! prediction window) with 4 players on the largest shipped level by area (tiles and entities):
//! one load of a kept world, then 8 ticks each simulated (`sim::step_race`) and kept again
//! (a clone and `state_hash`, what `net::race` does for ggrs's save request). The runners are
//! mid-run: 4 players with different held inputs, 240 ticks in.
//!
//! `cargo bench --bench rollback` (add `-- --quick` for a short run).

use criterion::{Criterion, criterion_main};
use ledge::assets::assets_dir;
use ledge::input::Action;
use ledge::input::latch::TickInput;
use ledge::level::Level;
use ledge::level::tiled_map::load_tmx;
use ledge::sim::{self, Tuning, World};
use std::hint::black_box;

/// The shipped level with the most tiles plus entities, and its name.
fn largest() -> (Level, String) {
    let assets = assets_dir().expect("assets folder");
    (1..=12)
        .map(|n| {
            let name = format!("level{n}.tmx");
            (load_tmx(&assets.join("levels").join(&name)).expect("a shipped level loads"), name)
        })
        .max_by_key(|(l, _)| l.width * l.height + l.entities.len())
        .expect("twelve levels")
}

/// Player k's input at tick t: right held, jump pressed every 20 ticks from a different phase.
fn input(k: usize, t: u64) -> TickInput {
    let mut i = TickInput::default();
    i.held[Action::Right.index()] = k != 3;
    i.held[Action::Left.index()] = k == 3;
    let jump = (t + 5 * k as u64) % 20 < 8;
    i.held[Action::Jump.index()] = jump;
    i.pressed[Action::Jump.index()] = (t + 5 * k as u64).is_multiple_of(20);
    i
}

fn inputs(t: u64) -> [TickInput; 4] {
    [input(0, t), input(1, t), input(2, t), input(3, t)]
}

fn bench(c: &mut Criterion) {
    let (level, name) = largest();
    let tuning = Tuning::load(&assets_dir().expect("assets").join("tuning.toml")).expect("tuning");
    let mut world = World::for_race(&level, 4);
    for t in 0..240 {
        sim::step_race(&mut world, &inputs(t), &level, &tuning, 60);
    }
    let kept = world.clone();
    let mut scratch = world.clone();
    let mut saved = world.clone();
    eprintln!(
        "rollback bench: {name}, {}x{} tiles, {} entities, 4 players",
        level.width,
        level.height,
        level.entities.len()
    );
    c.bench_function(&format!("rollback 8 ticks, 4 players, {name}"), |b| {
        b.iter(|| {
            scratch.clone_from(&kept);
            let mut hash = 0;
            for t in 240..248 {
                sim::step_race(&mut scratch, &inputs(t), &level, &tuning, 60);
                saved.clone_from(&scratch);
                hash ^= saved.state_hash();
            }
            black_box(hash)
        })
    });
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
