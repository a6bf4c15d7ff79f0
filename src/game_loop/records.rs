//! What the loop reports of a frame and a tick (the lab report's `frames[]` and `ticks[]`
//! entries, the F3 overlay's samples) and its running totals.
//!
//! Clock: event loop / render frame (a [`FrameStats`] a frame), fixed tick (a [`TickRecord`] a
//! tick).

use crate::input::latch::TickInput;
use crate::sim::Player;
use crate::sim::cues::CueSet;
use crate::sim::entities::record::EntityRecord;
use glam::DVec2;
use serde::Serialize;

/// What one frame did: the lab report's `frames[]` entry (wrapped with the frame's index and
/// pause state, [`crate::lab::report::FrameReport`]) and the F3 overlay's history sample
/// ([`crate::ui::Telemetry`]). Serialised in LAB.md's field order, times in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct FrameStats {
    /// Raw frame delta, nanoseconds (serialised as `dt_ms`, milliseconds).
    #[serde(rename = "dt_ms", serialize_with = "ns_as_ms")]
    pub dt_ns: u64,
    /// The delta exceeded `max_frame_ns` and was clamped.
    pub clamped: bool,
    /// Ticks run this frame.
    pub steps: u32,
    /// The catch-up cap was hit and whole ticks were dropped.
    pub capped: bool,
    /// Wall time this frame never simulates, milliseconds.
    pub dropped_ms: f64,
    /// Banked time after the frame's ticks, milliseconds.
    pub accumulator_ms: f64,
    /// Interpolation factor after the frame's ticks, [0, 1).
    pub alpha: f64,
    /// Number of the last tick run so far.
    pub tick: u64,
    /// The authoritative player after the frame's ticks.
    pub player: PlayerState,
    /// The interpolated (drawn) player position, hitbox top-left, pixels.
    pub drawn: Point,
    /// The camera centre drawn by the frame (before the shake): `lerp(previous tick's,
    /// current tick's, alpha)`, pixels.
    pub camera: Point,
    /// Input events applied by this frame's ticks.
    pub events_consumed: u32,
    /// Wall time the frame's ticks took, measured, nanoseconds (telemetry only; 0 if none ran
    /// or the loop does not measure; not serialised).
    #[serde(skip)]
    pub tick_ns_measured: u64,
}

impl FrameStats {
    /// [`FrameStats::dt_ns`] in milliseconds.
    pub fn frame_ms(&self) -> f64 {
        self.dt_ns as f64 / 1e6
    }

    /// [`FrameStats::tick_ns_measured`] in microseconds.
    pub fn tick_us(&self) -> f64 {
        self.tick_ns_measured as f64 / 1e3
    }
}

/// The player's kinematic state, as the lab report writes it (`x`, `y`, `vx`, `vy`,
/// `on_ground`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PlayerState {
    /// Hitbox top-left x, pixels.
    pub x: f64,
    /// Hitbox top-left y, pixels (down).
    pub y: f64,
    /// Velocity x, px/s.
    pub vx: f64,
    /// Velocity y, px/s.
    pub vy: f64,
    /// Standing on something.
    pub on_ground: bool,
}

/// A point, pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Point {
    /// x, pixels.
    pub x: f64,
    /// y, pixels.
    pub y: f64,
}

impl From<&Player> for PlayerState {
    fn from(p: &Player) -> Self {
        PlayerState { x: p.pos.x, y: p.pos.y, vx: p.vel.x, vy: p.vel.y, on_ground: p.on_ground }
    }
}

impl From<DVec2> for Point {
    fn from(v: DVec2) -> Self {
        Point { x: v.x, y: v.y }
    }
}

/// One tick's record: the lab report's `ticks[]` entry (LAB.md's fields and order; the input
/// is not written).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TickRecord {
    /// Tick number (1-based).
    pub tick: u64,
    /// The player after the tick (written as the entry's own `x`, `y`, `vx`, `vy`,
    /// `on_ground`).
    #[serde(flatten)]
    pub player: PlayerState,
    /// A jump started in this tick.
    pub jump_started: bool,
    /// The player was respawned or teleported in this tick.
    pub respawned: bool,
    /// A rewind tick: `tick` and the state are the restored ones (LAB.md "Time tools").
    pub rewound: bool,
    /// A load tick: `tick` and the state are the savestate's (LAB.md Version 4
    /// "Savestates"); written only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub loaded: bool,
    /// The player died in this tick (hazard, pit, saw, walker, squish; not a teleport).
    pub died: bool,
    /// Every entity after the tick (LAB.md "Version 2 additions"); empty and not written in a
    /// level without entities.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub entities: Vec<EntityRecord>,
    /// The id of what the player rides after the tick (`null`: nothing); `None`, not written,
    /// in a level without entities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub riding: Option<Option<usize>>,
    /// The tick's sound cues (`ticks[].sounds`, [`crate::sim::cues`]); empty on rewind ticks.
    pub sounds: CueSet,
    /// Every runner after the tick, in player order (LAB.md Version 4 `ticks[].players`); empty
    /// and not written with one player.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<RunnerState>,
    /// The input this tick saw (not serialised).
    #[serde(skip)]
    pub input: TickInput,
}

/// One runner after a tick (LAB.md Version 4 `ticks[].players[]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct RunnerState {
    /// Its player number, 1-based.
    pub player: u8,
    /// Its body (written as the entry's own `x`, `y`, `vx`, `vy`, `on_ground`).
    #[serde(flatten)]
    pub body: PlayerState,
    /// It died in this tick.
    pub died: bool,
    /// It has finished (touched the goal in this tick or before).
    pub finished: bool,
}

/// Running totals of the loop's timing over the whole session: the lab report's `summary`
/// starts with them (in this order), and the exit summary reads them. The simulation's own
/// counts (jumps, respawns, deaths) live in [`crate::sim::World`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Totals {
    /// Frames run.
    pub frames: u64,
    /// Ticks run.
    pub ticks: u64,
    /// Simulated time, milliseconds: `ticks` x 1000 / `tick_hz` (kept after every frame).
    pub sim_ms: f64,
    /// Wall time passed to `frame`, nanoseconds (serialised as `wall_ms`, milliseconds).
    #[serde(rename = "wall_ms", serialize_with = "ns_as_ms")]
    pub wall_ns: u64,
    /// Wall time never simulated, milliseconds.
    pub dropped_ms: f64,
    /// Most ticks in one frame.
    pub max_steps_in_frame: u32,
    /// Frames whose delta was clamped.
    pub clamp_events: u64,
    /// Frames that hit the catch-up cap.
    pub cap_hits: u64,
    /// Rewind ticks among `ticks` (LAB.md "Time tools").
    pub rewound_ticks: u64,
    /// Load ticks among `ticks` (LAB.md Version 4 `loadstate`); written only when not 0, so
    /// a run that loads nothing reports as before.
    #[serde(skip_serializing_if = "is_zero")]
    pub loaded_ticks: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Totals {
    /// [`Totals::wall_ns`] in milliseconds.
    pub fn wall_ms(&self) -> f64 {
        self.wall_ns as f64 / 1e6
    }
}

/// Nanoseconds written as milliseconds (ns / 1e6).
fn ns_as_ms<S: serde::Serializer>(ns: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(*ns as f64 / 1e6)
}
