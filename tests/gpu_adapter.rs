//! The machine has a GPU adapter, the one the renderer's tests and `--shot` draw with (Mesa's
//! lavapipe on machines without a GPU). `scripts/test` runs this before its other checks, so a
//! broken Vulkan set-up fails CI at once with one clear message naming what to install, not
//! only as a scatter of failing render tests later (they fail too: none of them skips).
//!
//! Clock: none (set-up before any frame).

mod common;

#[test]
fn a_gpu_adapter_exists() {
    let off = common::gpu::offscreen();
    println!("GPU adapter: {}", off.ctx.info);
}
