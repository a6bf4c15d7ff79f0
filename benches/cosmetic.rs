//! The cosmetic layer's cost (`ledge::cosmetic`): one tick's step and one frame's draw, with
//! a busy player — a jump every 10 ticks and its landing 5 ticks later (dust and squash), a
//! death and respawn every 60 ticks (two bursts, a shake, a flash, a fade) — and with the
//! particle cap ([`ledge::cosmetic::MAX_PARTICLES`]) full. The tick itself is untouched by it
//! (`cargo bench --bench tick`); the step runs after each tick only while something draws.
//!
//! `cargo bench --bench cosmetic` (add `-- --quick` for a short run).

use criterion::{Criterion, criterion_main};
use glam::DVec2;
use ledge::cosmetic::{Cosmetic, CosmeticDraw, ShakeLevel, TickFacts};
use ledge::level::ascii::parse_ascii;
use ledge::sim::cues::{Cue, CueSet};
use ledge::sim::{TickOutcome, World};
use std::hint::black_box;

/// The facts of tick `t` of the busy player's pattern.
fn pattern(t: u64) -> (TickOutcome, CueSet) {
    let mut out = TickOutcome::default();
    let mut cues = CueSet::EMPTY;
    if t.is_multiple_of(10) {
        out.jump_started = true;
        cues.insert(Cue::Jump);
    }
    if t % 10 == 5 {
        cues.insert(Cue::Land);
    }
    if t % 60 == 59 {
        out.died = true;
        out.respawned = true;
        cues.insert(Cue::Death);
        cues.insert(Cue::Respawn);
    }
    (out, cues)
}

fn cosmetic(c: &mut Criterion) {
    let level = parse_ascii(&["P...".to_string(), "####".to_string()], 1).expect("level");
    let mut world = World::for_level(&level);
    let mut fx = Cosmetic::level_start(&world, 60);
    let step = |fx: &mut Cosmetic, world: &mut World| {
        world.tick += 1;
        let (out, cues) = pattern(world.tick);
        world.player.vel = DVec2::new(120.0, if cues.contains(Cue::Land) { 0.0 } else { 300.0 });
        world.player.pos.x += 2.0;
        let facts = TickFacts { world, level: &level, out: &out, cues, wall_sliding: false, tick_hz: 60 };
        fx.after_tick(&facts);
    };
    for _ in 0..600 {
        step(&mut fx, &mut world);
    }
    let mut g = c.benchmark_group("cosmetic");
    g.bench_function("after_tick, busy player", |b| b.iter(|| step(black_box(&mut fx), &mut world)));
    let mut draw = CosmeticDraw::default();
    g.bench_function("draw, busy player", |b| {
        b.iter(|| {
            fx.draw(black_box(0.37), true, true, ShakeLevel::Full, DVec2::new(320.0, 180.0), &mut draw);
            black_box(draw.effects.len())
        })
    });
    // Deaths every tick: the particle cap full.
    let mut full = Cosmetic::level_start(&world, 60);
    let full_step = |fx: &mut Cosmetic, world: &mut World| {
        world.tick += 1;
        let out = TickOutcome { died: true, respawned: true, ..TickOutcome::default() };
        let cues: CueSet = [Cue::Death, Cue::Respawn].into_iter().collect();
        let facts = TickFacts { world, level: &level, out: &out, cues, wall_sliding: false, tick_hz: 60 };
        fx.after_tick(&facts);
    };
    for _ in 0..100 {
        full_step(&mut full, &mut world);
    }
    assert_eq!(full.particle_count(), ledge::cosmetic::MAX_PARTICLES);
    g.bench_function("after_tick, particle cap full", |b| {
        b.iter(|| full_step(black_box(&mut full), &mut world))
    });
    g.bench_function("draw, particle cap full", |b| {
        b.iter(|| {
            full.draw(black_box(0.37), true, true, ShakeLevel::Full, DVec2::new(320.0, 180.0), &mut draw);
            black_box(draw.effects.len())
        })
    });
    g.finish();
}

/// The group in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    criterion::criterion_group!(benches, super::cosmetic);
}

criterion_main!(group::benches);
