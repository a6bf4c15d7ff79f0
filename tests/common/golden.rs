//! Golden images: the comparison with `tests/golden/*.png` (a per-pixel tolerance, not exact
//! bytes: drivers may round differently) and a lab run drawn at a picked frame, shared by
//! `tests/golden.rs` and `tests/golden_feel.rs`. `LEDGE_BLESS=1` rewrites the goldens (look at
//! them before committing); a missing golden fails the test.
//!
//! Clock: the lab's scripted wall clock (in-process).

use super::images::{load_rgba, save_png};
use super::root;
use ledge::game_loop::Loop;
use ledge::lab::{LabOptions, run_script_observed};
use std::path::{Path, PathBuf};

/// Golden image width, pixels.
pub const W: u32 = 1280;
/// Golden image height, pixels.
pub const H: u32 = 720;

/// A channel may differ by this much (0..255) before the pixel counts as different.
const CHANNEL_TOLERANCE: u8 = 24;
/// At most this fraction of pixels may differ.
const MAX_DIFFERENT: f64 = 0.002;

fn golden_path(name: &str) -> PathBuf {
    root().join("tests/golden").join(format!("{name}.png"))
}

fn load_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let (w, h, rgba) = load_rgba(path).unwrap_or_else(|e| {
        panic!("{e}: missing golden; run `LEDGE_BLESS=1 cargo test --test golden` and look at it")
    });
    (w, h, rgba)
}

/// Compare `rgba` (W x H) with the golden `name`, or write it when blessing.
pub fn check(name: &str, rgba: &[u8]) {
    let path = golden_path(name);
    if std::env::var_os("LEDGE_BLESS").is_some() {
        save_png(&path, W, H, rgba).unwrap();
        eprintln!("blessed {}", path.display());
        return;
    }
    let (w, h, want) = load_png(&path);
    assert_eq!((w, h), (W, H), "{name}: golden size");
    let different = want
        .chunks(4)
        .zip(rgba.chunks(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).take(3).any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE))
        .count();
    let frac = different as f64 / (W * H) as f64;
    if frac > MAX_DIFFERENT {
        let got = std::env::temp_dir().join(format!("ledge-golden-{name}.png"));
        let _ = save_png(&got, W, H, rgba);
        panic!(
            "{name}: {different} pixels ({:.3}%) differ from {}; got {}",
            frac * 100.0,
            path.display(),
            got.display()
        );
    }
}

pub fn opts() -> LabOptions {
    super::lab::options("golden", root(), true)
}

/// Run `script`, drawing the first frame for which `pick` says yes; returns the image.
pub fn shoot(script: &str, mut pick: impl FnMut(u64, &Loop) -> bool) -> Vec<u8> {
    let mut off = super::gpu::offscreen();
    let mut shot = None;
    run_script_observed(script, &opts(), &mut |f, lp| {
        if shot.is_none() && pick(f, lp) {
            shot = Some(off.render(&lp.view(), W, H).map_err(|e| e.to_string())?);
        }
        Ok(())
    })
    .unwrap();
    shot.expect("the picked frame came")
}
