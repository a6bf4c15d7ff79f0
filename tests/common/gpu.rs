//! The GPU for the off-screen tests: an adapter is required, never optional. A machine
//! without one (no GPU and no Mesa lavapipe) fails these tests with a message saying what to
//! install, instead of skipping them and passing.
//!
//! Clock: none (set-up before any frame).

use ledge::render::Offscreen;
use ledge::render::gpu::RenderError;

/// What a machine with no adapter lacks, for failure messages.
pub const NO_ADAPTER_HINT: &str = "the GPU tests need a Vulkan adapter; without a GPU install Mesa's \
     lavapipe, the software Vulkan driver (Debian/Ubuntu: mesa-vulkan-drivers libvulkan1; \
     scripts/test installs them); if `VK_ICD_FILENAMES` is set, it must name an installed driver";

/// The off-screen renderer on the machine's adapter. Fails the test when there is no adapter
/// ([`NO_ADAPTER_HINT`]) or the renderer cannot start.
pub fn offscreen() -> Offscreen {
    match Offscreen::new() {
        Ok(o) => o,
        Err(e @ RenderError::NoAdapter(_)) => panic!("{e}: {NO_ADAPTER_HINT}"),
        Err(e) => panic!("off-screen renderer: {e}"),
    }
}
