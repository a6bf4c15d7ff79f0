//! The online race's re-simulation cost (NET.md, docs/speed.md): a rollback of 8 ticks (ggrs's
//! prediction window) with 4 players on the largest shipped level by area (tiles and entities),
//! as `ledge::net::resim` defines it (the page's `?bench=rollback` times the same in a browser).
//!
//! `cargo bench --bench rollback` (add `-- --quick` for a short run).

use criterion::{Criterion, criterion_main};
use ledge::assets::assets_dir;
use ledge::level::tiled_map::load_tmx;
use ledge::net::resim::{Resim, largest};
use ledge::sim::Tuning;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let assets = assets_dir().expect("assets folder");
    let levels: Vec<(String, _)> = (1..=12)
        .map(|n| {
            let name = format!("level{n}.tmx");
            let level = load_tmx(&assets.join("levels").join(&name)).expect("a shipped level loads");
            (name, level)
        })
        .collect();
    let i = largest(&levels).expect("twelve levels");
    let (name, level) = levels[i].clone();
    let tuning = Tuning::load(&assets.join("tuning.toml")).expect("tuning");
    let mut resim = Resim::new(level, tuning);
    let (w, h, e) = resim.size();
    eprintln!("rollback bench: {name}, {w}x{h} tiles, {e} entities, 4 players");
    c.bench_function(&format!("rollback 8 ticks, 4 players, {name}"), |b| {
        b.iter(|| black_box(resim.rollback()))
    });
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
