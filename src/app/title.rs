//! The title screen's background: the first level running on a fixed tick of its own, with
//! no input, drawn as play draws a level (its moving platforms, saws, walkers, springs and
//! crumbling blocks, the goal's spin, the player standing at the spawn) under the slow pan of
//! [`crate::present::pan`].
//!
//! Clock: render frame, on the event loop's thread. Each title frame hands the wall time since
//! the title opened to a [`Loop`] of its own (not the game's: nothing here reaches the game's
//! world, totals, recording or state hash), whose stepper turns it into whole ticks and an
//! alpha. Everything drawn is then a pure function of those ticks and that alpha (LAB.md
//! "Version 3 additions": nothing advances on the frame clock): the entities and the player
//! are the loop's `lerp(previous, current, alpha)`, and the camera is the pan at the previous
//! and the current tick blended with the same alpha. The backdrop runs at full speed whatever
//! the game-speed assist, with no cosmetic effects, shake or flashes (the title has none), no
//! rewind history and no sound.

use crate::cosmetic::{CosmeticSettings, ShakeLevel};
use crate::game_loop::Loop;
use crate::level::Level;
use crate::present::pan::title_camera;
use crate::present::view::FrameView;
use crate::sim::Tuning;
use crate::time::StepperConfig;
use web_time::Instant;

/// The title's level, stepped on its own clock from the moment it was made.
pub(super) struct TitleBackdrop {
    game: Loop,
    /// Tick 0's wall time: the title's first frame.
    opened: Instant,
}

impl TitleBackdrop {
    /// `level` at its start (tick 0 at `opened`), run with `tuning` and `config` (the game's:
    /// the same tick rate, clamp and catch-up cap as play).
    ///
    /// # Panics
    /// On a `config` the loop refuses: the game's own loop accepted it already, so that is a
    /// bug in Ledge.
    pub fn new(level: Level, tuning: Tuning, config: StepperConfig, opened: Instant) -> Self {
        let mut game =
            Loop::new(level, tuning, config).expect("the game's stepper config, accepted by its loop");
        game.set_rewind_history(false);
        game.set_cosmetic_settings(CosmeticSettings {
            effects: false,
            shake: ShakeLevel::Off,
            flashes: false,
        });
        TitleBackdrop { game, opened }
    }

    /// Run the ticks due by the wall time `now` ([`TitleBackdrop::frame`]).
    pub fn frame_at(&mut self, now: Instant) {
        self.frame(now.saturating_duration_since(self.opened).as_nanos() as u64);
    }

    /// Run the ticks due `since_open_ns` nanoseconds of wall time after tick 0 (as play does:
    /// the frame delta clamped, the catch-up capped, the remainder kept as alpha).
    pub fn frame(&mut self, since_open_ns: u64) {
        self.game.frame(since_open_ns);
    }

    /// What this frame shows: the loop's view (entities, player and goal interpolated with the
    /// stepper's alpha), the camera at `lerp(pan(previous tick), pan(current tick), alpha)`;
    /// `still` (reduced motion): the pan's start, as before.
    pub fn view(&self, still: bool) -> FrameView<'_> {
        let hz = f64::from(self.game.config().tick_hz);
        let level = self.game.level();
        let at = |tick: u64| title_camera(level, tick as f64 / hz, still);
        let camera = at(self.game.prev_tick()).lerp(at(self.game.world().tick), self.game.stepper().alpha());
        FrameView { camera, ..self.game.view() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::EntitySpec;
    use crate::level::ascii::parse_ascii;
    use crate::present::view::EntityDraw;
    use glam::DVec2;

    /// A level wider than the view with a moving platform, a saw on a path and a walker.
    fn level() -> Level {
        let mut rows = vec![".".repeat(80); 8];
        rows[6] = format!("P{}G", ".".repeat(78));
        rows.push("#".repeat(80));
        let mut level = parse_ascii(&rows, 1).expect("level");
        let at = |x: f64, y: f64| DVec2::new(x, y);
        level.entities = vec![
            EntitySpec::Platform {
                pos: at(160.0, 80.0),
                size: at(48.0, 16.0),
                to: Some(at(320.0, 80.0)),
                speed: 60.0,
                wait: 0.0,
                oneway: false,
            },
            EntitySpec::Saw { pos: at(400.0, 60.0), to: Some(at(400.0, 20.0)), speed: 50.0, radius: 12.0 },
            EntitySpec::Walker { pos: at(600.0, 112.0), speed: 30.0 },
        ];
        level
    }

    fn backdrop() -> TitleBackdrop {
        TitleBackdrop::new(level(), Tuning::default(), StepperConfig::default(), Instant::now())
    }

    /// Frames of `frame_ns` from where `b` is up to `end_ns` after the title opened.
    fn run_to(b: &mut TitleBackdrop, from_ns: u64, end_ns: u64, frame_ns: u64) {
        let mut t = from_ns;
        while t < end_ns {
            t = (t + frame_ns).min(end_ns);
            b.frame(t);
        }
    }

    /// What a frame shows of the world: the camera, the player and every entity.
    fn shown(b: &TitleBackdrop) -> (DVec2, DVec2, Vec<EntityDraw>) {
        let v = b.view(false);
        (v.camera, v.player.pos, v.entities.to_vec())
    }

    /// The title draws the level's entities, moving as play moves them.
    #[test]
    fn the_title_draws_the_levels_entities_and_they_move() {
        let mut b = backdrop();
        b.frame(0);
        let (camera, _, first) = shown(&b);
        assert_eq!(first.len(), 3, "a platform, a saw and a walker: {first:?}");
        run_to(&mut b, 0, 1_000_000_000, 16_666_667);
        assert_eq!(b.game.world().tick, 60, "one second of ticks at 60 Hz");
        let (later_camera, _, later) = shown(&b);
        for (a, z) in first.iter().zip(&later) {
            assert_ne!(a.pos, z.pos, "{:?} moved in a second", a.kind);
        }
        assert!(later_camera.x > camera.x, "the pan moved right");
    }

    /// LAB.md Version 3's rule on the title: at the same tick and alpha, however the frames
    /// were cut, the same camera, player and entities, bit for bit.
    #[test]
    fn the_title_is_a_pure_function_of_ticks_and_alpha() {
        let end = 1_234_567_891u64;
        let run = |frame_ns: u64| {
            let mut b = backdrop();
            run_to(&mut b, 0, end, frame_ns);
            (b.game.world().tick, b.game.stepper().alpha(), shown(&b))
        };
        let reference = run(16_666_667);
        assert!(reference.1 > 0.0, "a frame between two ticks: {}", reference.1);
        for frame_ns in [4_166_667, 6_944_444, 33_333_333, 3_000_001] {
            assert_eq!(run(frame_ns), reference, "frames of {frame_ns} ns");
        }
        // Between the same two ticks the camera and the bodies move with the alpha alone.
        let mut b = backdrop();
        run_to(&mut b, 0, end, 16_666_667);
        let (camera, _, entities) = shown(&b);
        b.frame(end + 1_000_000);
        assert_eq!(b.game.world().tick, reference.0, "no tick in that millisecond");
        let (camera2, _, entities2) = shown(&b);
        assert!(camera2.x > camera.x, "the alpha moved the pan on");
        assert_ne!(entities2[0].pos, entities[0].pos, "and the platform");
    }
}
