//! What a player riding a platform looks like on screen, measured from the frames actually
//! drawn: the spread (max − min) of the drawn offset between the platform and its rider, and of
//! the rider's position on screen while the camera carries the view. The game's `--stats`
//! reports them, so a windowed test can check, as a player would see it, that a rider is drawn
//! at a constant offset from its platform in every frame and stands still on screen.
//!
//! Clock: [`RideStats::tick`] at tick boundaries (the riding id after each tick the frame ran),
//! [`RideStats::frame`] once a drawn render frame, from the [`FrameView`] handed to the
//! renderer. Never touches the simulation.

use super::view::{FrameView, VIEW_SIZE};
use glam::DVec2;

/// Running min/max of one 2-D quantity.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Span {
    min: DVec2,
    max: DVec2,
}

impl Span {
    /// A span holding only `v`.
    fn new(v: DVec2) -> Span {
        Span { min: v, max: v }
    }

    /// Widen to hold `v`.
    fn add(&mut self, v: DVec2) {
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }
}

/// max − min per axis of an optional span, pixels (0 when nothing was seen).
fn spread(s: Option<Span>) -> DVec2 {
    s.map_or(DVec2::ZERO, |s| s.max - s.min)
}

/// The riding measurements of a session (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RideStats {
    /// The platform ridden after the tick before the last one (`None`: not riding, or reset).
    prev: Option<usize>,
    /// The platform ridden after the last tick.
    curr: Option<usize>,
    /// Frames that counted: drawn while the same platform was ridden at both ends of the
    /// frame's interpolation (the two ticks it blends).
    frames: u64,
    /// (drawn platform − drawn player) top-left over those frames.
    offset: Option<Span>,
    /// The rider's drawn top-left on screen (view pixels) over counted frames in which the
    /// camera moved on x, and on y (separately).
    screen_x: Option<Span>,
    screen_y: Option<Span>,
    /// Counted frames in which the camera moved (on either axis).
    camera_frames: u64,
    /// The camera centre of the last drawn frame.
    last_camera: Option<DVec2>,
}

/// [`RideStats`]' numbers, for the exit summary.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RideFigures {
    /// Drawn frames in which the player rode the same platform through both ticks blended.
    pub frames: u64,
    /// max − min of (drawn platform − drawn player) over those frames, per axis, pixels: 0
    /// when the rider is drawn at a constant offset from its platform.
    pub offset_spread: DVec2,
    /// max − min of the rider's on-screen x over those frames in which the camera moved on x
    /// (and likewise y), pixels: 0 when the camera carries the rider without it moving on
    /// screen.
    pub screen_spread: DVec2,
    /// How many of the counted frames the camera moved in (the frames `screen_spread` covers).
    pub camera_frames: u64,
}

impl RideStats {
    /// After a tick: `riding` is the platform the player rides (LAB.md's `ticks[].riding`);
    /// `reset` when the tick respawned, teleported or rewound the player (its drawn position
    /// does not blend from a riding one).
    pub fn tick(&mut self, riding: Option<usize>, reset: bool) {
        self.prev = if reset { None } else { self.curr };
        self.curr = riding;
    }

    /// A drawn frame: count it when the same platform was ridden after both ticks it blends.
    pub fn frame(&mut self, view: &FrameView<'_>) {
        let camera = view.camera;
        // Which axes the camera moved on since the last drawn frame (none on the first).
        let moved = self.last_camera.map_or((false, false), |c| (c.x != camera.x, c.y != camera.y));
        self.last_camera = Some(camera);
        let (Some(id), Some(prev)) = (self.curr, self.prev) else { return };
        let Some(platform) = view.entities.iter().find(|e| e.id == id).filter(|_| prev == id) else {
            return;
        };
        self.frames += 1;
        let rider = view.player.pos;
        let offset = platform.pos - rider;
        self.offset.get_or_insert(Span::new(offset)).add(offset);
        let screen = rider - (camera - VIEW_SIZE / 2.0);
        self.camera_frames += u64::from(moved.0 || moved.1);
        if moved.0 {
            self.screen_x.get_or_insert(Span::new(screen)).add(screen);
        }
        if moved.1 {
            self.screen_y.get_or_insert(Span::new(screen)).add(screen);
        }
    }

    /// The figures so far.
    pub fn figures(&self) -> RideFigures {
        RideFigures {
            frames: self.frames,
            offset_spread: spread(self.offset),
            screen_spread: DVec2::new(spread(self.screen_x).x, spread(self.screen_y).y),
            camera_frames: self.camera_frames,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{EntityKind, Level};
    use crate::present::view::{EntityDraw, PlayerDraw};
    use crate::sim::EntityState;

    fn platform(x: f64) -> EntityDraw {
        EntityDraw {
            id: 0,
            kind: EntityKind::Platform,
            pos: DVec2::new(x, 100.0),
            size: DVec2::new(48.0, 16.0),
            state: EntityState::Moving,
            facing_left: false,
            frame: 0,
        }
    }

    fn view<'a>(level: &'a Level, ents: &'a [EntityDraw], player_x: f64, camera_x: f64) -> FrameView<'a> {
        FrameView {
            level,
            camera: DVec2::new(camera_x, 180.0),
            shake: DVec2::ZERO,
            player_scale: DVec2::ONE,
            effects: &[],
            player: PlayerDraw {
                pos: DVec2::new(player_x, 76.0),
                hitbox: DVec2::new(12.0, 24.0),
                facing_left: false,
                pose: Default::default(),
            },
            reached: &[],
            goal_angle: 0.0,
            extra: &[],
            entities: ents,
            ghost: None,
            rivals: &[],
            attempts: &[],
            death_marks: &[],
        }
    }

    #[test]
    fn counts_frames_riding_through_both_ticks_and_measures_the_spreads() {
        let level =
            crate::level::ascii::parse_ascii(&["P.".to_string(), "##".to_string()], 1).expect("level");
        let mut s = RideStats::default();
        let ents = [platform(10.0)];
        // Riding after one tick only: the frame blends from a non-riding position.
        s.tick(Some(0), false);
        s.frame(&view(&level, &ents, 20.0, 300.0));
        assert_eq!(s.figures().frames, 0);
        s.tick(Some(0), false);
        s.frame(&view(&level, &ents, 20.0, 300.0));
        let ents = [platform(12.5)];
        s.frame(&view(&level, &ents, 22.5, 302.5));
        let f = s.figures();
        assert_eq!((f.frames, f.offset_spread, f.screen_spread), (2, DVec2::ZERO, DVec2::ZERO));
        assert_eq!(f.camera_frames, 1, "the camera moved in the second counted frame");
        // A frame in which the rider slipped 1 px on the platform and on screen.
        let ents = [platform(15.0)];
        s.frame(&view(&level, &ents, 26.0, 305.0));
        let f = s.figures();
        assert_eq!(f.offset_spread, DVec2::new(1.0, 0.0));
        assert_eq!(f.screen_spread, DVec2::new(1.0, 0.0));
        // A reset (respawn) stops the counting until two riding ticks again.
        s.tick(Some(0), true);
        s.frame(&view(&level, &ents, 99.0, 305.0));
        assert_eq!(s.figures().frames, 3);
    }
}
