//! The GPU cost of one off-screen frame of the shipped first level (sky, world, composite,
//! readback) at 1280x720 and 2560x1440:
//!
//! - **moving**: each frame's camera a whole pixel from the last, so every pass runs (nothing
//!   is kept, `render::kept`), drawn raw (the art passes' opaque runs and the composite through
//!   plain views: `render::pipeline::Blend::Raw`, `render::composite` "Two composites") and
//!   exact (through sRGB views, decoding each sample and encoding each fragment): the
//!   difference is what the sRGB conversions cost;
//! - **still**: the same view every frame, so the sky and the world are kept and the picture
//!   is copied from the kept one: what a frame costs when nothing in it moves.
//!
//! Needs a Vulkan adapter (Mesa's lavapipe where there is no GPU, as everywhere in the suite);
//! the readback is the same in all of them.
//!
//! `cargo bench --bench composite` (add `-- --quick` for a short run).

use criterion::{Criterion, criterion_main};
use ledge::game_loop::Loop;
use ledge::render::Offscreen;
use ledge::time::StepperConfig;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

fn composite(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let level = ledge::level::tiled_map::load_tmx(&root.join("assets/levels/level1.tmx")).expect("level 1");
    let tuning = ledge::sim::Tuning::load(&root.join("assets/tuning.toml")).expect("tuning");
    let mut lp = Loop::new(level, tuning, StepperConfig::default()).expect("loop");
    lp.frame(16_666_667);
    let mut off = Offscreen::new().expect("an adapter (lavapipe: mesa-vulkan-drivers)");
    assert!(off.raw_composite, "this adapter has no plain views: nothing to compare");
    let mut g = c.benchmark_group("composite");
    g.sample_size(20).measurement_time(Duration::from_secs(8));
    for (w, h) in [(1280, 720), (2560, 1440)] {
        for raw in [true, false] {
            off.raw_composite = raw;
            off.set_raw_art(raw);
            let name = format!("level 1 frame {w}x{h}, moving, {}", if raw { "raw" } else { "exact" });
            let mut step = 0.0;
            g.bench_function(name, |b| {
                b.iter(|| {
                    step = 1.0 - step;
                    let mut view = lp.view();
                    view.camera.x += step;
                    black_box(off.render(&view, w, h).expect("renders").len())
                })
            });
        }
        off.raw_composite = true;
        off.set_raw_art(true);
        g.bench_function(format!("level 1 frame {w}x{h}, still"), |b| {
            b.iter(|| black_box(off.render(&lp.view(), w, h).expect("renders").len()))
        });
    }
    g.finish();
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    composite(&mut c);
}

criterion_main!(benches);
