//! What the fuzzers found (and the known-bad inputs they were seeded with), replayed in the
//! stable `cargo test`: every file in `tests/fuzz-regressions/<format>/` goes through the same
//! replay as its fuzz target (`fuzz/src/replay/`, included here as it is) and must load, or be
//! refused with one line naming the file — never panic — while holding at most
//! `replay::HEAP_LIMIT` bytes of heap at any moment (counted by this binary's allocator).
//! scripts/fuzz writes new findings there; docs/testing.md "Fuzzing" says what each was.

#[path = "../fuzz/src/replay/mod.rs"]
mod replay;

use replay::{Format, HEAP_LIMIT, Outcome, replay};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes it holds and the most it has held.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

#[expect(unsafe_code, reason = "GlobalAlloc is an unsafe trait; this one counts and defers to System")]
// SAFETY: every method passes its arguments to `System` unchanged, under the same contract.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller keeps `alloc`'s contract, which is `System.alloc`'s.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, which is `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `dealloc`, and `new_size` is the caller's under `realloc`'s contract.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One file's result: `Ok` with what it did and its peak heap, or what went wrong.
fn check(format: Format, bytes: &[u8]) -> Result<(Outcome, usize), String> {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let result = std::panic::catch_unwind(|| replay(format, bytes));
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    match result {
        Err(panic) => {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(not a string)");
            Err(format!("panicked: {why}"))
        }
        Ok(Err(broken)) => Err(broken),
        Ok(Ok(Outcome::NotRun(why))) => Err(format!("not run ({why}): a regression file must be run")),
        Ok(Ok(_)) if peak > HEAP_LIMIT => Err(format!("held {peak} bytes of heap, over {HEAP_LIMIT}")),
        Ok(Ok(outcome)) => Ok((outcome, peak)),
    }
}

/// One test, not one per folder: the allocator's count is the whole process's, so the files
/// are replayed one at a time.
#[test]
fn every_finding_loads_or_is_refused_in_one_line_within_the_heap_limit() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    let mut failures = Vec::new();
    for format in Format::ALL {
        let folder = dir.join(format.name());
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
            .map(|e| e.expect("a readable folder").path())
            .collect();
        files.sort();
        assert!(
            !files.is_empty(),
            "{}: no regression files (commit at least one known-bad input)",
            folder.display()
        );
        for path in files {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let name = path.strip_prefix(&dir).unwrap_or(&path).display().to_string();
            match check(format, &bytes) {
                Ok((Outcome::Refused(line), peak)) => println!("{name}: refused ({peak} B peak): {line}"),
                Ok((_, peak)) => println!("{name}: loaded ({peak} B peak)"),
                Err(why) => failures.push(format!("{name}: {why}")),
            }
        }
    }
    for entry in std::fs::read_dir(&dir).expect("tests/fuzz-regressions") {
        let path = entry.expect("a readable folder").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if path.is_dir() && Format::from_name(&name).is_none() {
            failures.push(format!("{name}/: no fuzz target of that name (one of: tmx, tsx, tx, lab, ghost, tuning, settings, progress)"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
