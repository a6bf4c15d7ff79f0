//! The lab's JSON report (LAB.md "Report"): config, frames, ticks, summary.
//!
//! Clock: none; it records what the scripted frames and ticks did.

use crate::time::StepperConfig;
use serde::Serialize;

/// Player state in a frame (`player`): authoritative, after the frame's ticks.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct PlayerReport {
    /// Hitbox top-left x, px.
    pub x: f64,
    /// Hitbox top-left y, px (down).
    pub y: f64,
    /// Velocity x, px/s.
    pub vx: f64,
    /// Velocity y, px/s.
    pub vy: f64,
    /// Standing on something.
    pub on_ground: bool,
}

/// A point, px.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Point {
    /// x, px.
    pub x: f64,
    /// y, px.
    pub y: f64,
}

/// One frame (`frames[]`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FrameReport {
    /// Frame index from 0.
    pub frame: u64,
    /// Raw delta after any `tick-cost` stretch, ms.
    pub dt_ms: f64,
    /// The delta exceeded max_frame_ms.
    pub clamped: bool,
    /// Ticks run.
    pub steps: u32,
    /// The catch-up cap dropped ticks.
    pub capped: bool,
    /// Wall time never simulated this frame, ms.
    pub dropped_ms: f64,
    /// Banked time after the ticks, ms.
    pub accumulator_ms: f64,
    /// Interpolation factor after the ticks, [0, 1).
    pub alpha: f64,
    /// Last tick run so far.
    pub tick: u64,
    /// Authoritative player state.
    pub player: PlayerReport,
    /// Interpolated (drawn) player position, exact.
    pub drawn: Point,
    /// Camera centre.
    pub camera: Point,
    /// Input events applied by this frame's ticks.
    pub events_consumed: u32,
    /// The game was paused (`config pause_on_focus_loss 1`): no ticks ran. An addition to
    /// LAB.md.
    pub paused: bool,
}

/// One tick (`ticks[]`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TickReport {
    /// Tick number from 1.
    pub tick: u64,
    /// Hitbox top-left x after the tick, px.
    pub x: f64,
    /// Hitbox top-left y after the tick, px.
    pub y: f64,
    /// Velocity x, px/s.
    pub vx: f64,
    /// Velocity y, px/s.
    pub vy: f64,
    /// On the ground after the tick.
    pub on_ground: bool,
    /// A jump started in this tick.
    pub jump_started: bool,
    /// Respawned or teleported in this tick.
    pub respawned: bool,
}

/// `summary` section.
#[derive(Clone, Debug, Serialize, PartialEq, Default)]
pub struct SummaryReport {
    /// Frames run.
    pub frames: u64,
    /// Ticks run.
    pub ticks: u64,
    /// Simulated time, ms (ticks x step).
    pub sim_ms: f64,
    /// Scripted wall time, ms.
    pub wall_ms: f64,
    /// Wall time never simulated, ms.
    pub dropped_ms: f64,
    /// Most ticks in a frame.
    pub max_steps_in_frame: u32,
    /// Frames clamped.
    pub clamp_events: u64,
    /// Frames capped.
    pub cap_hits: u64,
    /// Jumps started.
    pub jumps: u64,
    /// Respawns (deaths and teleports).
    pub respawns: u64,
    /// Surface configurations the `resize` events would cause.
    pub surface_configures: u64,
    /// Stable hash of the simulation state after the last tick, 16 hex digits.
    pub state_hash: String,
    /// Deaths (hazards, falls): the respawns that were not teleports. An addition to LAB.md.
    pub deaths: u64,
    /// The goal was reached. An addition to LAB.md.
    pub level_complete: bool,
}

/// The whole report. `frames` and `ticks` are `None` with `--summary`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Report {
    /// Loop settings used.
    pub config: StepperConfig,
    /// Every frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frames: Option<Vec<FrameReport>>,
    /// Every tick.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ticks: Option<Vec<TickReport>>,
    /// Totals.
    pub summary: SummaryReport,
}

impl Report {
    /// Serialise as one JSON object.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("report types always serialise")
    }
}
