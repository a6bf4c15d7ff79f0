//! The lab's JSON report (LAB.md "Report"): config, frames, ticks, summary.
//!
//! Clock: none; it records what the scripted frames and ticks did.

use crate::game_loop::{FrameStats, Point, TickRecord, Totals};
use crate::time::StepperConfig;
use serde::Serialize;

/// One frame (`frames[]`): the loop's [`FrameStats`] between the lab's frame index and pause
/// state.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FrameReport {
    /// Frame index from 0.
    pub frame: u64,
    /// What the frame did, with `dt_ns` the scripted wall delta after any `tick-cost` stretch
    /// (the loop sees none of a paused frame's).
    #[serde(flatten)]
    pub stats: FrameStats,
    /// The game was paused (`config pause_on_focus_loss 1`): no ticks ran. An addition to
    /// LAB.md.
    pub paused: bool,
    /// Every entity as drawn (LAB.md "Version 2 additions": interpolated with the same alpha
    /// as `drawn`); `None`, not written, in a level without entities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawn_entities: Option<Vec<DrawnEntity>>,
    /// The ghost as drawn (LAB.md "Time tools": `{"x", "y"}`, `null` once past the ghost's
    /// last tick); `None`, not written, without a `ghost` line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawn_ghost: Option<Option<crate::game_loop::Point>>,
    /// The top-left of the drawn area after the shake, level pixels (LAB.md Version 3).
    pub view: Point,
    /// The screen-shake offset, whole pixels (`0, 0`: none, or shake off).
    pub shake: Point,
    /// The player sprite's squash-and-stretch factors (`1, 1` at rest or with effects off).
    pub player_scale: Point,
    /// Every cosmetic item drawn, in draw order.
    pub effects: Vec<EffectReport>,
    /// Each background layer's drawn offset, back to front.
    pub parallax: Vec<ParallaxReport>,
    /// Every runner as drawn, in player order (LAB.md Version 4 `frames[].drawn_players`, the
    /// same alpha as `drawn`); empty and not written with one player.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drawn_players: Vec<DrawnPlayer>,
}

/// `frames[].drawn_players[]`: `{"player", "x", "y"}`, hitbox top-left, pixels.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct DrawnPlayer {
    /// Player number, 1-based.
    pub player: u8,
    /// x, pixels.
    pub x: f64,
    /// y, pixels.
    pub y: f64,
}

impl DrawnPlayer {
    /// Every runner of `lp` as its last frame drew it; empty with one player.
    pub fn of(lp: &crate::game_loop::Loop) -> Vec<DrawnPlayer> {
        if lp.players() == 1 {
            return Vec::new();
        }
        let at = lp.drawn_players().into_iter().enumerate();
        at.map(|(k, p)| DrawnPlayer { player: k as u8 + 1, x: p.x, y: p.y }).collect()
    }
}

/// `frames[].effects[]`: `{"kind", "x", "y", "size", "opacity"}` — what it is, its centre
/// (level pixels; an overlay's is the drawn view's centre), its edge length (pixels; 0 for an
/// overlay, which covers the view) and its opacity (0..1).
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct EffectReport {
    /// [`crate::present::view::EffectKind::name`]: `dust`, `burst`, `debris`, `spark`, `puff`,
    /// `flash`, `fade`.
    pub kind: &'static str,
    /// Centre x, pixels.
    pub x: f64,
    /// Centre y, pixels.
    pub y: f64,
    /// Edge length, pixels.
    pub size: f64,
    /// Opacity, 0..=1.
    pub opacity: f64,
}

/// `frames[].parallax[]`: `{"layer", "x", "y"}` — the layer's name
/// ([`crate::present::parallax::LAYERS`]) and the top-left of its copy 0, view pixels
/// (unwrapped: the layer repeats every 320 px).
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct ParallaxReport {
    /// `gradient`, `far`, `near`.
    pub layer: &'static str,
    /// x, view pixels.
    pub x: f64,
    /// y, view pixels.
    pub y: f64,
}

/// The Version 3 presentation fields of the loop's last frame: `view`, `shake`,
/// `player_scale`, `effects`, `parallax`.
pub fn look_of(lp: &crate::game_loop::Loop) -> (Point, Point, Point, Vec<EffectReport>, Vec<ParallaxReport>) {
    let view = lp.view();
    let d = lp.cosmetic_draw();
    let effects = d
        .effects
        .iter()
        .map(|e| EffectReport {
            kind: e.kind.name(),
            x: e.pos.x,
            y: e.pos.y,
            size: e.size,
            opacity: e.opacity,
        })
        .collect();
    let parallax = lp
        .parallax()
        .iter()
        .map(|p| ParallaxReport {
            layer: crate::present::parallax::LAYERS[p.layer].name,
            x: p.offset.x,
            y: p.offset.y,
        })
        .collect();
    (view.view_top_left().into(), view.shake.into(), view.player_scale.into(), effects, parallax)
}

/// `frames[].drawn_entities[]`: `{"id", "x", "y"}`, the entity's drawn top-left, pixels.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct DrawnEntity {
    /// The entity's id.
    pub id: usize,
    /// Drawn top-left x, pixels (not snapped).
    pub x: f64,
    /// Drawn top-left y, pixels.
    pub y: f64,
}

impl DrawnEntity {
    /// The drawn entities of the loop's last frame, or `None` in a level without entities.
    pub fn of(lp: &crate::game_loop::Loop) -> Option<Vec<DrawnEntity>> {
        let drawn = lp.drawn_entities();
        (!lp.world().entities.is_empty())
            .then(|| drawn.iter().map(|d| DrawnEntity { id: d.id, x: d.pos.x, y: d.pos.y }).collect())
    }
}

/// `summary` section: the loop's [`Totals`], then the simulation's counts and the lab's own.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SummaryReport {
    /// Frames, ticks, simulated and wall time, dropped time, the clamp and cap counts.
    #[serde(flatten)]
    pub totals: Totals,
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
    /// Each runner's finishing tick, `null` if it has not finished, in player order (LAB.md
    /// Version 4); `None`, not written, with one player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finish_ticks: Option<Vec<Option<u64>>>,
    /// Every press and release with the tick it applied in and how long until a frame drew
    /// anything of that tick (LAB.md Version 4 "Latency"), in arrival order.
    pub inputs: Vec<InputReport>,
    /// p50, p99 and the largest of `inputs[].shown_ms`.
    pub shown_ms: ShownStats,
}

/// One entry of `summary.inputs` (LAB.md Version 4 "Latency").
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct InputReport {
    /// The action (`jump`, `left`, …).
    pub action: &'static str,
    /// `press` or `release`. An addition to LAB.md.
    pub edge: &'static str,
    /// Whose edge, 1-based.
    pub player: u8,
    /// Arrival, milliseconds on the loop's clock (the script's clock less any pause).
    pub at_ms: f64,
    /// The tick it applied in (ticks run, 1-based).
    pub tick: u64,
    /// Milliseconds from arrival to the end of the first frame that draws anything of `tick`
    /// (a later tick, or `tick` with `alpha` > 0); `None` (`null`) if the run ends first.
    pub shown_ms: Option<f64>,
}

impl From<&crate::game_loop::InputShown> for InputReport {
    fn from(e: &crate::game_loop::InputShown) -> Self {
        InputReport {
            action: e.action.name(),
            edge: if e.press { "press" } else { "release" },
            player: e.player + 1,
            at_ms: e.at_ns as f64 / 1e6,
            tick: e.tick,
            shown_ms: e.delay_ms(),
        }
    }
}

/// `summary.shown_ms`: nearest-rank percentiles of the shown delays, milliseconds
/// ([`crate::game_loop::percentiles`]); each `null` when no input was shown.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct ShownStats {
    /// Median.
    pub p50: Option<f64>,
    /// 99th percentile.
    pub p99: Option<f64>,
    /// Largest.
    pub max: Option<f64>,
}

impl ShownStats {
    /// The statistics of `inputs`' shown delays.
    pub fn of(inputs: &[InputReport]) -> Self {
        let delays: Vec<f64> = inputs.iter().filter_map(|i| i.shown_ms).collect();
        let (p50, p99, max) = crate::game_loop::percentiles(&delays);
        ShownStats { p50, p99, max }
    }
}

/// Settings the lab echoes in `config` after the loop's own (LAB.md "Version 2 additions"),
/// each only when the run used it, so reports of scripts without them do not change.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct ConfigEcho {
    /// `config game_speed F` as the script set it (the factor F in [0.5, 1.6]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_speed: Option<f64>,
    /// `config assist_invincible 0|1`, when the script set it (the invincibility assist,
    /// [`crate::sim::World::invincible`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assist_invincible: Option<u32>,
    /// `config effects 0|1`, when the script set it (LAB.md Version 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<u32>,
    /// `config shake 0|1|2`, when the script set it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shake: Option<u32>,
    /// `config flashes 0|1`, when the script set it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flashes: Option<u32>,
    /// `--recut R` as given on the command line (`30`, `60`, `144`, `240`, `jitter:SEED`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recut: Option<String>,
}

/// The whole report. `frames` and `ticks` are `None` with `--summary`. Serialised as
/// `{"config": {tick_hz, max_frame_ms, max_steps, then the echo}, "frames", "ticks", "summary"}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Loop settings used.
    pub config: StepperConfig,
    /// Settings echoed after the loop's in `config` (game speed, re-cut).
    pub echo: ConfigEcho,
    /// Every frame.
    pub frames: Option<Vec<FrameReport>>,
    /// Every tick.
    pub ticks: Option<Vec<TickRecord>>,
    /// Totals.
    pub summary: SummaryReport,
}

impl Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        #[derive(Serialize)]
        struct Config<'a> {
            #[serde(flatten)]
            stepper: &'a StepperConfig,
            #[serde(flatten)]
            echo: &'a ConfigEcho,
        }
        let mut st = s.serialize_struct("Report", 4)?;
        st.serialize_field("config", &Config { stepper: &self.config, echo: &self.echo })?;
        if let Some(frames) = &self.frames {
            st.serialize_field("frames", frames)?;
        }
        if let Some(ticks) = &self.ticks {
            st.serialize_field("ticks", ticks)?;
        }
        st.serialize_field("summary", &self.summary)?;
        st.end()
    }
}

impl Report {
    /// Serialise as one JSON object.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("report types always serialise")
    }
}
