//! What the renderer's images already hold, so that work whose inputs are those of the last
//! time it was done is not done again: an art-resolution pass whose camera and instances have
//! not changed ([`KeptImage`]), and a window picture whose images and placement have not
//! changed ([`KeptPicture`], copied instead of composited).
//!
//! Clock: render frame. Nothing here reads a clock or the world: every decision compares this
//! frame's inputs with the last ones, so the picture is the same whichever frames are skipped
//! (`tests/render_offscreen.rs` checks each kept frame against a fresh renderer's).

use super::composite::CompositeUniform;
use super::pipeline::SpriteUniform;
use crate::present::instances::SpriteInstance;
use std::ops::Range;

/// The inputs of one pass into an image that nothing else writes: they decide every texel.
#[derive(Clone, Copy, Debug)]
pub struct PassInputs<'a> {
    /// The colour the pass clears to, sRGB 0..255.
    pub clear: [u8; 3],
    /// The camera the instances are drawn with.
    pub camera: SpriteUniform,
    /// The runs of `instances` the pass draws, in order (each drawn with its own blend and
    /// texture, which the run's place in this list decides).
    pub runs: &'a [Range<u32>],
    /// The instance list the runs index.
    pub instances: &'a [SpriteInstance],
}

/// An owned copy of [`PassInputs`]: what the image holds.
#[derive(Debug, PartialEq)]
struct Held {
    clear: [u8; 3],
    camera: SpriteUniform,
    runs: Vec<Range<u32>>,
    instances: Vec<SpriteInstance>,
}

impl Held {
    fn is(&self, p: &PassInputs<'_>) -> bool {
        self.clear == p.clear
            && self.camera == p.camera
            && self.runs == p.runs
            && self.instances == p.instances
    }
}

/// One art-resolution image's last pass: whether a pass with this frame's inputs would draw
/// what it already holds, and a generation that changes whenever it is drawn.
#[derive(Debug, Default)]
pub struct KeptImage {
    held: Option<Held>,
    generation: u64,
}

impl KeptImage {
    /// Whether the image holds what a pass with `inputs` draws (false before its first pass).
    pub fn holds(&self, inputs: &PassInputs<'_>) -> bool {
        self.held.as_ref().is_some_and(|h| h.is(inputs))
    }

    /// A pass with `inputs` is being recorded into the image: remember them (reusing the
    /// allocations) and move to a new generation.
    pub fn drawn(&mut self, inputs: &PassInputs<'_>) {
        let held = self.held.get_or_insert_with(|| Held {
            clear: inputs.clear,
            camera: inputs.camera,
            runs: Vec::new(),
            instances: Vec::new(),
        });
        held.clear = inputs.clear;
        held.camera = inputs.camera;
        held.runs.clear();
        held.runs.extend_from_slice(inputs.runs);
        held.instances.clear();
        held.instances.extend_from_slice(inputs.instances);
        self.generation += 1;
    }

    /// Counts the passes drawn into the image: two frames with the same generation see the
    /// same texels.
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

/// What decides the window picture under the UI: the two images' generations, the composite's
/// placement of them and the target's size in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PictureKey {
    /// [`KeptImage::generation`] of the sky image.
    pub sky: u64,
    /// [`KeptImage::generation`] of the world image.
    pub world: u64,
    /// The composite's uniform (letterbox, scale and the camera's sub-pixel shift).
    pub composite: CompositeUniform,
    /// The target's width and height, pixels.
    pub size: (u32, u32),
}

/// How the window pass gets this frame's picture (under the UI).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Composite into the target: the picture changed since the last frame.
    Draw,
    /// Composite into the kept picture, then copy it to the target: the picture is the last
    /// frame's, which was drawn straight into that frame's target.
    DrawAndKeep,
    /// Copy the kept picture to the target: it is this frame's.
    Copy,
}

/// Which window picture is kept, and the decision each frame makes about it. A picture is kept
/// only once it has been the same for two frames in a row, so a frame whose picture changes
/// (a moving camera, anything moving in the view) costs what it did without keeping: one
/// composite, no copy.
#[derive(Debug, Default)]
pub struct KeptPicture {
    /// The last frame's key.
    last: Option<PictureKey>,
    /// The key of the picture kept, if one is.
    held: Option<PictureKey>,
}

impl KeptPicture {
    /// The plan for a frame whose picture is `key`, on a target that accepts copies.
    pub fn plan(&mut self, key: PictureKey) -> Plan {
        let plan = if self.held == Some(key) {
            Plan::Copy
        } else if self.last == Some(key) {
            self.held = Some(key);
            Plan::DrawAndKeep
        } else {
            Plan::Draw
        };
        self.last = Some(key);
        plan
    }

    /// A frame on a target that does not accept copies: it composites, and the next frame
    /// does not count on this one's picture.
    pub fn not_kept(&mut self) {
        self.last = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(world: u64, size: (u32, u32)) -> PictureKey {
        let composite =
            CompositeUniform { viewport: [1280.0, 720.0], _pad: [0.0; 2], sky: [0.0; 4], world: [0.0; 4] };
        PictureKey { sky: 1, world, composite, size }
    }

    #[test]
    fn a_picture_is_kept_from_its_second_frame_and_copied_from_its_third() {
        let mut kept = KeptPicture::default();
        let (a, b) = (key(1, (1280, 720)), key(2, (1280, 720)));
        assert_eq!(kept.plan(a), Plan::Draw);
        assert_eq!(kept.plan(a), Plan::DrawAndKeep);
        assert_eq!(kept.plan(a), Plan::Copy);
        assert_eq!(kept.plan(a), Plan::Copy);
        // A change draws; coming back to the kept picture copies it again.
        assert_eq!(kept.plan(b), Plan::Draw);
        assert_eq!(kept.plan(a), Plan::Copy);
        // Another size is another picture.
        assert_eq!(kept.plan(key(1, (640, 360))), Plan::Draw);
        // A frame that could not copy breaks the run of equal frames.
        let c = key(3, (1280, 720));
        assert_eq!(kept.plan(c), Plan::Draw);
        kept.not_kept();
        assert_eq!(kept.plan(c), Plan::Draw);
        assert_eq!(kept.plan(c), Plan::DrawAndKeep);
    }

    #[test]
    fn an_image_holds_exactly_its_last_pass() {
        let camera = SpriteUniform {
            center: [320.0, 180.0],
            view_size: [640.0, 360.0],
            scale: 1.0,
            _pad0: 0.0,
            _pad1: [0.0; 2],
        };
        let sprite = SpriteInstance {
            pos: [1.0, 2.0],
            size: [16.0, 16.0],
            uv_rect: [0.0; 4],
            flags: 0,
            rotation: 0.0,
        };
        let moved = SpriteInstance { pos: [1.5, 2.0], ..sprite };
        let instances = [sprite, sprite];
        let inputs = PassInputs { clear: [1, 2, 3], camera, runs: &[0..1, 1..2], instances: &instances };
        let mut image = KeptImage::default();
        assert!(!image.holds(&inputs), "nothing before the first pass");
        image.drawn(&inputs);
        assert_eq!(image.generation(), 1);
        assert!(image.holds(&inputs));
        assert!(!image.holds(&PassInputs { clear: [1, 2, 4], ..inputs }));
        assert!(!image.holds(&PassInputs { camera: SpriteUniform { scale: 2.0, ..camera }, ..inputs }));
        assert!(
            !image.holds(&PassInputs { runs: &[0..2, 2..2], ..inputs }),
            "the same sprites, other blends"
        );
        assert!(!image.holds(&PassInputs { instances: &[sprite, moved], ..inputs }));
        image.drawn(&PassInputs { instances: &[sprite, moved], ..inputs });
        assert_eq!(image.generation(), 2);
        assert!(!image.holds(&inputs));
    }
}
