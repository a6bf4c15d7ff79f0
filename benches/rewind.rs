//! Rewind's cost (`sim::rewind`, README "Time tools"): keeping one `World` a tick in the ring
//! buffer ([`Rewind::record`] on a full history, the steady state of play) and restoring one
//! ([`Rewind::step_back`]), on states from the shipped first level played with Right and Jump
//! held; and a whole loop frame of one tick, forward vs rewinding. Before the timings it
//! prints the memory a second of history takes, counted by a global allocator that tallies
//! every live heap byte, so the states' own allocations (the checkpoints reached, and whatever
//! a `World` gains later) are in the figure, not only `size_of`.
//!
//! `cargo bench --bench rewind` (add `-- --quick` for a short run).

use criterion::{BatchSize, Criterion, criterion_main};
use ledge::assets::assets_dir;
use ledge::game_loop::Loop;
use ledge::input::latch::TickInput;
use ledge::input::{Action, InputEvent, Source};
use ledge::level::tiled_map::load_tmx;
use ledge::sim::rewind::{REWIND_SECONDS, Rewind};
use ledge::sim::{self, Tuning, World};
use ledge::time::StepperConfig;
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting live heap bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to `System` unchanged; only counts the sizes.
#[expect(unsafe_code, reason = "a counting global allocator must implement the unsafe GlobalAlloc trait")]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The states of `n` ticks of level 1 with Right and Jump held (a fresh press every half
/// second), as play makes them.
fn played(n: usize) -> Vec<World> {
    let assets = assets_dir().expect("assets folder");
    let level = load_tmx(&assets.join("levels/level1.tmx")).expect("level1.tmx loads");
    let tuning = Tuning::load(&assets.join("tuning.toml")).expect("tuning.toml loads");
    let mut held = TickInput::default();
    held.held[Action::Right.index()] = true;
    held.held[Action::Jump.index()] = true;
    let mut press = held;
    press.pressed[Action::Jump.index()] = true;
    let mut world = World::for_level(&level);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let input = if world.tick.is_multiple_of(30) { &press } else { &held };
        sim::step(&mut world, input, &level, &tuning, 60);
        if world.level_complete {
            world = World::for_level(&level);
        }
        out.push(world.clone());
    }
    out
}

/// Print the heap a full 60 Hz history takes, per kept state and per second.
fn memory() {
    let states = played(4000);
    let before = LIVE.load(Ordering::Relaxed);
    let mut r = Rewind::new(60);
    for w in &states {
        r.record(w, false);
    }
    let bytes = LIVE.load(Ordering::Relaxed) - before;
    let per_state = bytes as f64 / r.capacity() as f64;
    println!(
        "rewind memory: {} states ({REWIND_SECONDS} s at 60 Hz) hold {bytes} heap bytes = {per_state:.1} B a state \
         = {:.1} KiB a second of history (size_of::<World>() = {} B)",
        r.len(),
        per_state * 60.0 / 1024.0,
        std::mem::size_of::<World>()
    );
    black_box(r);
}

fn rewind(c: &mut Criterion) {
    memory();
    let states = played(4000);
    let mut full = Rewind::new(60);
    for w in &states[..full.capacity()] {
        full.record(w, false);
    }
    let mut i = 0;
    c.bench_function("rewind::record (full 30 s history, level 1 states)", |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            full.record(black_box(&states[i]), false);
        })
    });
    let mut world = states[0].clone();
    c.bench_function("rewind::step_back x1000 (restored states)", |b| {
        b.iter_batched_ref(
            || full.clone(),
            |r| {
                // Many restores per clone: the clone is setup, not measured.
                for _ in 0..1000 {
                    black_box(r.step_back(&mut world));
                }
            },
            BatchSize::LargeInput,
        )
    });

    // A whole frame of exactly one tick through the loop: forward, then with rewind held.
    let assets = assets_dir().expect("assets folder");
    let level = load_tmx(&assets.join("levels/level1.tmx")).expect("level1.tmx loads");
    let tuning = Tuning::load(&assets.join("tuning.toml")).expect("tuning.toml loads");
    for rewinding in [false, true] {
        let name = if rewinding {
            "Loop::frame x1000, one rewind tick each"
        } else {
            "Loop::frame x1000, one forward tick each"
        };
        c.bench_function(name, |b| {
            b.iter_batched_ref(
                || {
                    let mut lp = Loop::new(level.clone(), tuning.clone(), StepperConfig::default()).unwrap();
                    lp.push_event(0, InputEvent::Press(Source::Keyboard, Action::Right));
                    let mut now = 0;
                    for _ in 0..1200 {
                        now += 16_666_667;
                        lp.frame(now);
                    }
                    if rewinding {
                        lp.push_event(now, InputEvent::Press(Source::Keyboard, Action::Rewind));
                    }
                    (lp, now)
                },
                |(lp, now)| {
                    for _ in 0..1000 {
                        *now += 16_666_667;
                        black_box(lp.frame(*now));
                    }
                },
                BatchSize::LargeInput,
            )
        });
    }
}

/// The group in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    criterion::criterion_group!(benches, super::rewind);
}

criterion_main!(group::benches);
