//! The HUD, the pause and end screens, and the F3 telemetry overlay, built as plain data:
//! screen-space quads ([`SpriteInstance`]s with [`FLAG_SOLID`], window pixels) and
//! [`TextItem`]s.
//!
//! Clock: render frame. Pure: no GPU, no clock, no winit; the app feeds it numbers (the
//! [`Telemetry`] ring of [`FrameStats`] samples, the level's tick count) and hands the
//! resulting [`Layer`] to the sprite renderer's screen-space list and to the text renderer.
//! Everything here is unit-tested without a window.
//!
//! Sizes follow the view's integer scale ([`Screen::s`]: 2 in a 1280 x 720 window), so the HUD
//! is 16 px text at 2x, 24 px at 3x. Text is DejaVu Sans Mono, so widths are known without
//! shaping ([`mono_width`]); panels are sized from character counts.
//!
//! The F3 overlay (top right of the window) shows, from the last [`HISTORY`] frames:
//!
//! - fps, frame time (last, mean, max), tick rate, ticks per frame and their histogram,
//!   accumulator depth and alpha, tick cost, inputs consumed, clamp events and cap hits,
//!   present mode and adapter;
//! - a scrolling graph of frame time with a line at one 60 Hz frame (16.7 ms), 0..33 ms, or
//!   0..67, 0..133 or 0..267 ms when longer frames are in the history
//!   ([`frame_graph_scale`]); bars over one 60 Hz frame turn amber, over two red.
//!   Clamp events (the delta exceeded the clamp; time was dropped) are marked red and cap hits
//!   (catch-up ticks were dropped) magenta, in a strip above the graph and as a faint column
//!   through it;
//! - ticks per frame as bars (one band per tick: 0 shows as a grey stub, 1 green, 2 amber,
//!   3 or more red): at 60 Hz on a 60 Hz display this alternates 1s with the odd 0 and 2 —
//!   the beat of the two clocks (Bevy `bevy_time` docs);
//! - the accumulator left after each frame's ticks, full height = one tick (so its shape is
//!   alpha's).

use super::sprites::{FLAG_SOLID, Letterbox, SpriteInstance, letterbox, srgb_to_linear};
use super::text::{Align, LINE_HEIGHT, TextItem, mono_width};
use crate::game_loop::FrameStats;

/// Frames kept by [`Telemetry`]: four seconds at 60 fps, one graph column each.
pub const HISTORY: usize = 240;

/// Full heights the frame-time graph chooses from, milliseconds: 2, 4, 8 and 16 60 Hz
/// frames. The graph takes the smallest that holds the history's longest frame (the last
/// holds anything up to the 250 ms clamp).
pub const FRAME_GRAPH_SCALES_MS: [f64; 4] = [200.0 / 6.0, 400.0 / 6.0, 800.0 / 6.0, 1600.0 / 6.0];

/// Full height of the frame-time graph when every frame fits: two 60 Hz frames, ms.
pub const FRAME_GRAPH_MS: f64 = FRAME_GRAPH_SCALES_MS[0];

/// One 60 Hz frame, milliseconds: the frame-time graph's guide line.
pub const FRAME_60HZ_MS: f64 = 1000.0 / 60.0;

/// Ticks per frame the tick graph shows at full height (more are cut).
pub const TICK_GRAPH_MAX: u32 = 4;

/// Colours, sRGB 0..255.
pub mod colors {
    /// Panels behind text: near black (drawn at [`super::PANEL_ALPHA`]).
    pub const PANEL: [u8; 3] = [8, 10, 18];
    /// Main text.
    pub const TEXT: [u8; 4] = [236, 240, 246, 255];
    /// Secondary text (labels, hints).
    pub const DIM: [u8; 4] = [160, 172, 190, 255];
    /// Headline text (pause, end screen).
    pub const TITLE: [u8; 4] = [255, 222, 120, 255];
    /// A frame at or under one 60 Hz frame; one tick in a frame.
    pub const GOOD: [u8; 3] = [92, 214, 120];
    /// A frame longer than one 60 Hz frame; two ticks in a frame.
    pub const WARN: [u8; 3] = [240, 190, 70];
    /// A frame past the graph's top; three or more ticks; a clamp event.
    pub const BAD: [u8; 3] = [236, 78, 70];
    /// A cap hit (catch-up ticks dropped).
    pub const CAP: [u8; 3] = [222, 90, 230];
    /// Accumulator bars.
    pub const ACCUM: [u8; 3] = [96, 160, 246];
    /// Guide lines and zero-tick stubs.
    pub const GUIDE: [u8; 3] = [200, 206, 220];
}

/// Characters of overlay text a line may take before it is cut, where the graphs are
/// narrower than that (the graphs set the panel's width otherwise).
pub const OVERLAY_TEXT_CHARS: usize = 56;

/// Opacity of the panels behind text.
pub const PANEL_ALPHA: f32 = 0.72;

/// Opacity of the full-screen dimmer behind the pause screen.
pub const PAUSE_DIM_ALPHA: f32 = 0.7;

/// Opacity of the full-screen panel behind the end screen.
pub const END_DIM_ALPHA: f32 = 0.88;

/// What one frame did, as the overlay graphs it. Built from the loop's [`FrameStats`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sample {
    /// Raw frame delta (before the clamp), milliseconds.
    pub frame_ms: f64,
    /// Fixed ticks run this frame.
    pub ticks: u32,
    /// Banked time after the frame's ticks, milliseconds.
    pub accumulator_ms: f64,
    /// Interpolation factor after the frame's ticks, [0, 1).
    pub alpha: f64,
    /// The delta exceeded the clamp (time dropped).
    pub clamped: bool,
    /// The catch-up cap was hit (whole ticks dropped).
    pub capped: bool,
    /// Wall time the frame's ticks took, microseconds (0 when none ran).
    pub tick_us: f64,
    /// Input events the frame's ticks consumed.
    pub events: u32,
}

impl From<&FrameStats> for Sample {
    fn from(s: &FrameStats) -> Self {
        Sample {
            frame_ms: s.dt_ns as f64 / 1e6,
            ticks: s.steps,
            accumulator_ms: s.accumulator_ms,
            alpha: s.alpha,
            clamped: s.clamped,
            capped: s.capped,
            tick_us: s.tick_ns_measured as f64 / 1e3,
            events: s.events_consumed,
        }
    }
}

/// The last `capacity` frames' [`Sample`]s: a ring buffer (fixed storage, the oldest sample
/// overwritten once full).
#[derive(Clone, Debug)]
pub struct Telemetry {
    samples: Vec<Sample>,
    /// Where the next sample goes once full (the oldest sample).
    next: usize,
    capacity: usize,
}

impl Default for Telemetry {
    fn default() -> Self {
        Self::new(HISTORY)
    }
}

impl Telemetry {
    /// An empty history of `capacity` frames (at least 1).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        Self { samples: Vec::with_capacity(capacity), next: 0, capacity }
    }

    /// Add the newest frame, dropping the oldest when full.
    pub fn push(&mut self, s: Sample) {
        if self.samples.len() < self.capacity {
            self.samples.push(s);
        } else {
            self.samples[self.next] = s;
            self.next = (self.next + 1) % self.capacity;
        }
    }

    /// Frames held (at most the capacity).
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// True before the first frame.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Frames held when full.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The samples, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Sample> + '_ {
        let (newer, older) = self.samples.split_at(self.next);
        older.iter().chain(newer)
    }

    /// The newest sample.
    pub fn latest(&self) -> Option<&Sample> {
        if self.samples.len() < self.capacity {
            self.samples.last()
        } else {
            self.samples.get((self.next + self.capacity - 1) % self.capacity)
        }
    }

    /// Forget every sample.
    pub fn clear(&mut self) {
        self.samples.clear();
        self.next = 0;
    }

    /// Numbers over the history, for the overlay's text.
    pub fn stats(&self) -> TelemetryStats {
        let mut st = TelemetryStats { frames: self.len(), ..Default::default() };
        let Some(last) = self.latest() else {
            return st;
        };
        st.last = *last;
        let mut sum_ms = 0.0;
        let mut sum_us = 0.0;
        let mut ticked = 0;
        for s in self.iter() {
            sum_ms += s.frame_ms;
            st.frame_ms_max = st.frame_ms_max.max(s.frame_ms);
            st.clamps += usize::from(s.clamped);
            st.caps += usize::from(s.capped);
            st.ticks_histogram[(s.ticks as usize).min(3)] += 1;
            if s.ticks > 0 {
                sum_us += s.tick_us;
                ticked += 1;
                st.tick_us_max = st.tick_us_max.max(s.tick_us);
            }
            st.events += u64::from(s.events);
        }
        st.frame_ms_mean = sum_ms / st.frames as f64;
        st.fps = if sum_ms > 0.0 { st.frames as f64 * 1000.0 / sum_ms } else { 0.0 };
        st.tick_us_mean = if ticked > 0 { sum_us / f64::from(ticked) } else { 0.0 };
        st
    }
}

/// Numbers over a [`Telemetry`] history (the overlay's text; refreshed a few times a second so
/// it can be read).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TelemetryStats {
    /// Frames in the history.
    pub frames: usize,
    /// The newest sample.
    pub last: Sample,
    /// Frames per second: frames / summed frame time.
    pub fps: f64,
    /// Mean frame time, milliseconds.
    pub frame_ms_mean: f64,
    /// Longest frame, milliseconds.
    pub frame_ms_max: f64,
    /// Frames with a clamp event.
    pub clamps: usize,
    /// Frames that hit the catch-up cap.
    pub caps: usize,
    /// Frames that ran 0, 1, 2, and 3 or more ticks.
    pub ticks_histogram: [usize; 4],
    /// Mean tick cost of frames that ran ticks, microseconds.
    pub tick_us_mean: f64,
    /// Worst tick cost, microseconds.
    pub tick_us_max: f64,
    /// Input events consumed.
    pub events: u64,
}

/// The window as the overlay lays it out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Screen {
    /// Window width, pixels.
    pub w: f32,
    /// Window height, pixels.
    pub h: f32,
    /// Where the 640 x 360 view lands (the HUD sits in its top-left corner).
    pub view: Letterbox,
    /// UI scale: the view's integer scale, at least 1 (2 in a 1280 x 720 window).
    pub s: f32,
}

impl Screen {
    /// The layout for a `w` x `h` pixel window.
    pub fn new(w: u32, h: u32) -> Self {
        let view = letterbox(w, h);
        Self { w: w as f32, h: h as f32, view, s: view.scale.max(1.0).round() }
    }

    /// HUD and pause-hint text size, pixels (16 at 2x).
    pub fn text_px(&self) -> f32 {
        8.0 * self.s
    }

    /// F3 overlay text size, pixels (14 at 2x, never under 12).
    pub fn small_px(&self) -> f32 {
        (7.0 * self.s).max(12.0)
    }

    /// Headline size, pixels (32 at 2x).
    pub fn title_px(&self) -> f32 {
        16.0 * self.s
    }
}

/// A rectangle in window pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

/// What the overlay draws this frame: quads first, then text over them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layer {
    /// Screen-space quads, window pixels, drawn in order.
    pub quads: Vec<SpriteInstance>,
    /// Text, drawn in order over every quad.
    pub text: Vec<TextItem>,
}

impl Layer {
    /// Empty both lists (keeping their allocations).
    pub fn clear(&mut self) {
        self.quads.clear();
        self.text.clear();
    }
}

/// A solid quad at (`x`, `y`) of `w` x `h` window pixels in sRGB colour `srgb` with opacity
/// `alpha` (the shader reads linear RGBA, straight alpha).
pub fn solid(x: f32, y: f32, w: f32, h: f32, srgb: [u8; 3], alpha: f32) -> SpriteInstance {
    SpriteInstance {
        pos: [x, y],
        size: [w, h],
        uv_rect: [
            srgb_to_linear(srgb[0]) as f32,
            srgb_to_linear(srgb[1]) as f32,
            srgb_to_linear(srgb[2]) as f32,
            alpha,
        ],
        flags: FLAG_SOLID,
        rotation: 0.0,
    }
}

fn rect_quad(r: Rect, srgb: [u8; 3], alpha: f32) -> SpriteInstance {
    solid(r.x, r.y, r.w, r.h, srgb, alpha)
}

/// The level clock as `m:ss.cc` from whole ticks: exact (integer centiseconds, rounded down),
/// so it reads the same at any frame rate. `tick_hz` 0 reads as 60.
pub fn format_clock(ticks: u64, tick_hz: u32) -> String {
    let hz = u64::from(if tick_hz == 0 { 60 } else { tick_hz });
    let centis = ticks.saturating_mul(100) / hz;
    format!("{}:{:02}.{:02}", centis / 6000, (centis / 100) % 60, centis % 100)
}

/// `text` cut to `max` characters, the last replaced by `…` when cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// What the always-on HUD shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hud<'a> {
    /// The level's name.
    pub level: &'a str,
    /// Deaths since this level started.
    pub deaths: u64,
    /// Ticks since this level started.
    pub ticks: u64,
    /// Fixed tick rate, Hz.
    pub tick_hz: u32,
}

/// The HUD: level name, deaths and level time, two lines on a small panel in the view's
/// top-left corner.
pub fn hud(out: &mut Layer, scr: &Screen, hud: &Hud<'_>) {
    let size = scr.text_px();
    let pad = 3.0 * scr.s;
    let x = scr.view.x as f32 + 4.0 * scr.s;
    let y = scr.view.y as f32 + 4.0 * scr.s;
    let line1 = hud.level.to_owned();
    let line2 = format!("deaths {}   time {}", hud.deaths, format_clock(hud.ticks, hud.tick_hz));
    let chars = line1.chars().count().max(line2.chars().count());
    let w = mono_width(chars, size) + 2.0 * pad;
    let h = 2.0 * (size * LINE_HEIGHT).round() + 2.0 * pad;
    out.quads.push(solid(x, y, w.round(), h.round(), colors::PANEL, PANEL_ALPHA * 0.8));
    out.text.push(TextItem::new(format!("{line1}\n{line2}"), x + pad, y + pad, size, colors::TEXT));
}

/// The pause screen: the whole window dimmed, "Paused" and the keys, centred on the view.
pub fn pause_screen(out: &mut Layer, scr: &Screen) {
    out.quads.push(solid(0.0, 0.0, scr.w, scr.h, colors::PANEL, PAUSE_DIM_ALPHA));
    let cx = scr.view.x as f32 + scr.view.w as f32 * 0.5;
    let cy = scr.view.y as f32 + scr.view.h as f32 * 0.5;
    let title = scr.title_px();
    let size = scr.text_px();
    let hint = "F3: telemetry  ·  F11 / Alt+Enter: fullscreen";
    let w = mono_width(hint.chars().count(), size) + 16.0 * scr.s;
    let (top, bottom) = (cy - title * 1.1 - 6.0 * scr.s, cy + 1.6 * size + size * LINE_HEIGHT + 6.0 * scr.s);
    out.quads.push(solid(
        (cx - w * 0.5).round(),
        top.round(),
        w.round(),
        (bottom - top).round(),
        colors::PANEL,
        PANEL_ALPHA,
    ));
    out.text.push(TextItem::new("Paused", cx, cy - title * 1.1, title, colors::TITLE).aligned(Align::Center));
    out.text.push(
        TextItem::new("Esc / Start: resume  ·  Q / Select: quit", cx, cy + 0.2 * size, size, colors::TEXT)
            .aligned(Align::Center),
    );
    out.text.push(TextItem::new(hint, cx, cy + 1.6 * size, size, colors::DIM).aligned(Align::Center));
}

/// One finished level, for the end screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelResult {
    /// The level's name.
    pub name: String,
    /// Deaths on it.
    pub deaths: u64,
    /// Ticks from its start to touching the goal.
    pub ticks: u64,
}

/// The end screen after the last level: "You made it!", a row per level (deaths, time), a
/// total row, and the keys.
pub fn end_screen(out: &mut Layer, scr: &Screen, results: &[LevelResult], tick_hz: u32) {
    out.quads.push(solid(0.0, 0.0, scr.w, scr.h, colors::PANEL, END_DIM_ALPHA));
    let cx = scr.view.x as f32 + scr.view.w as f32 * 0.5;
    let size = scr.text_px();
    let line = (size * LINE_HEIGHT).round();
    let title = scr.title_px();
    let mut y = scr.view.y as f32 + scr.view.h as f32 * 0.18;
    out.text.push(TextItem::new("You made it!", cx, y, title, colors::TITLE).aligned(Align::Center));
    y += title * 1.6;
    let name_w = results.iter().map(|r| r.name.chars().count()).max().unwrap_or(0).clamp(5, 28);
    let row = |name: &str, deaths: &str, time: &str| {
        format!("{:<name_w$}  {:>6}  {:>9}", truncate(name, name_w), deaths, time)
    };
    let mut rows = vec![row("level", "deaths", "time")];
    for r in results {
        rows.push(row(&r.name, &r.deaths.to_string(), &format_clock(r.ticks, tick_hz)));
    }
    let (deaths, ticks) = results.iter().fold((0, 0), |(d, t), r| (d + r.deaths, t + r.ticks));
    rows.push(row("total", &deaths.to_string(), &format_clock(ticks, tick_hz)));
    let width = mono_width(rows[0].chars().count(), size);
    let left = cx - width * 0.5;
    let last = rows.len() - 1;
    for (i, text) in rows.into_iter().enumerate() {
        let color = if i == 0 { colors::DIM } else { colors::TEXT };
        if i == last {
            // A rule above the total, in a little extra space.
            y += (0.3 * line).round();
            out.quads.push(solid(left, (y - 0.2 * line).round(), width, scr.s.max(1.0), colors::GUIDE, 0.5));
        }
        out.text.push(TextItem::new(text, left, y, size, color));
        y += line;
    }
    y += line;
    out.text.push(
        TextItem::new("Enter / Start: play again  ·  Esc / Q: quit", cx, y, size, colors::TITLE)
            .aligned(Align::Center),
    );
}

/// What the F3 overlay says about the setup (beside the telemetry).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverlayInfo<'a> {
    /// Fixed tick rate, Hz.
    pub tick_hz: u32,
    /// The present mode, e.g. "Fifo".
    pub present_mode: &'a str,
    /// The adapter's name, e.g. "llvmpipe (LLVM 15.0.7, 256 bits)".
    pub adapter: &'a str,
    /// `--vsync`.
    pub vsync: bool,
    /// `--fps-cap`, Hz.
    pub fps_cap: Option<f64>,
    /// Clamp events over the session.
    pub total_clamps: u64,
    /// Cap hits over the session.
    pub total_caps: u64,
    /// Sprite instances drawn in the last frame (one instance buffer, one draw per texture run).
    pub sprites: usize,
    /// Of those, `--stress` sprites.
    pub stress: usize,
}

/// The overlay's text lines (no layout), from `st` (a [`Telemetry::stats`] snapshot).
pub fn overlay_lines(st: &TelemetryStats, info: &OverlayInfo<'_>) -> Vec<String> {
    let [t0, t1, t2, t3] = st.ticks_histogram;
    let cap = info.fps_cap.map_or_else(|| "none".to_owned(), |hz| format!("{hz:.0} Hz"));
    vec![
        format!(
            "fps {:6.1}   frame {:6.2} ms  avg {:5.2}  max {:6.2}",
            st.fps, st.last.frame_ms, st.frame_ms_mean, st.frame_ms_max
        ),
        format!("tick {} Hz   ticks/frame {}   0:{t0} 1:{t1} 2:{t2} 3+:{t3}", info.tick_hz, st.last.ticks),
        format!("accumulator {:5.2} ms   alpha {:.3}", st.last.accumulator_ms, st.last.alpha),
        format!(
            "tick cost {:6.1} µs   avg {:6.1}  max {:7.1}",
            st.last.tick_us, st.tick_us_mean, st.tick_us_max
        ),
        format!("inputs consumed {}   ({} in {} frames)", st.last.events, st.events, st.frames),
        format!(
            "clamps {}  cap hits {}  (graph)   session {} / {}",
            st.clamps, st.caps, info.total_clamps, info.total_caps
        ),
        format!(
            "present {}   vsync {}   fps cap {cap}",
            info.present_mode,
            if info.vsync { "on" } else { "off" }
        ),
        format!("sprites {} ({} stress)   adapter {}", info.sprites, info.stress, info.adapter),
    ]
}

/// Bars for the `len` `values` (oldest first) in `area`, right-aligned so the newest is at the
/// right edge, one column of `area.w / capacity` pixels per sample. A value's bar is
/// `value / full_scale` of the height, cut at the top; zero-height bars are left out.
/// `color(value)` picks each bar's colour.
pub fn bar_graph(
    out: &mut Vec<SpriteInstance>,
    area: Rect,
    values: impl IntoIterator<Item = f64>,
    len: usize,
    capacity: usize,
    full_scale: f64,
    color: impl Fn(f64) -> [u8; 3],
) {
    let capacity = capacity.max(1);
    let col = area.w / capacity as f32;
    let first = capacity.saturating_sub(len);
    for (i, v) in values.into_iter().enumerate().take(capacity) {
        let frac = if full_scale > 0.0 { (v / full_scale).clamp(0.0, 1.0) as f32 } else { 0.0 };
        let h = frac * area.h;
        if h <= 0.0 {
            continue;
        }
        let x = area.x + (first + i) as f32 * col;
        out.push(solid(x, area.y + area.h - h, col, h, color(v), 0.95));
    }
}

/// Column `i` (0 = oldest of `len` samples) of a right-aligned graph of `capacity` columns in
/// `area`: its left edge and width, pixels.
pub fn column(area: Rect, i: usize, len: usize, capacity: usize) -> (f32, f32) {
    let capacity = capacity.max(1);
    let col = area.w / capacity as f32;
    let first = capacity.saturating_sub(len);
    (area.x + (first + i) as f32 * col, col)
}

/// The frame-time graph's full height for `tel`, milliseconds: the smallest of
/// [`FRAME_GRAPH_SCALES_MS`] that holds its longest frame (the largest when none does).
pub fn frame_graph_scale(tel: &Telemetry) -> f64 {
    let max = tel.iter().map(|s| s.frame_ms).fold(0.0, f64::max);
    FRAME_GRAPH_SCALES_MS
        .into_iter()
        .find(|&scale| max <= scale)
        .unwrap_or(FRAME_GRAPH_SCALES_MS[FRAME_GRAPH_SCALES_MS.len() - 1])
}

/// Colour of a frame-time bar: green up to one 60 Hz frame (plus half a millisecond of
/// jitter), amber up to two, red beyond.
fn frame_color(ms: f64) -> [u8; 3] {
    if ms > 2.0 * FRAME_60HZ_MS + 0.5 {
        colors::BAD
    } else if ms > FRAME_60HZ_MS + 0.5 {
        colors::WARN
    } else {
        colors::GOOD
    }
}

/// Colour of a ticks-per-frame bar.
fn ticks_color(t: f64) -> [u8; 3] {
    match t as u32 {
        0 | 1 => colors::GOOD,
        2 => colors::WARN,
        _ => colors::BAD,
    }
}

/// The frame-time graph, `scale` ms at full height ([`frame_graph_scale`]), with its guide
/// lines and markers: `markers` is a strip above `graph` where clamp events (top half, red)
/// and cap hits (bottom half, magenta) are marked; a faint column in the same colour runs
/// through the graph below each marker. A bright line marks 16.7 ms, a fainter one 33.3 ms
/// when the scale is larger.
pub fn frame_graph(out: &mut Vec<SpriteInstance>, tel: &Telemetry, markers: Rect, graph: Rect, scale: f64) {
    out.push(rect_quad(graph, [0, 0, 0], 0.35));
    let len = tel.len();
    // Markers are at least 3 columns wide (centred on their frame) so one frame shows.
    let col = graph.w / tel.capacity().max(1) as f32;
    let mark_w = (3.0 * col).max(3.0);
    let half = markers.h * 0.5;
    for (i, s) in tel.iter().enumerate() {
        let (x, w) = column(graph, i, len, tel.capacity());
        let mx = (x + (w - mark_w) * 0.5).clamp(markers.x, markers.x + markers.w - mark_w);
        if s.clamped {
            out.push(solid(mx, markers.y, mark_w, half, colors::BAD, 1.0));
            out.push(solid(x, graph.y, w.max(1.0), graph.h, colors::BAD, 0.45));
        }
        if s.capped {
            out.push(solid(mx, markers.y + half, mark_w, half, colors::CAP, 1.0));
            out.push(solid(x, graph.y, w.max(1.0), graph.h, colors::CAP, 0.45));
        }
    }
    bar_graph(out, graph, tel.iter().map(|s| s.frame_ms), tel.len(), tel.capacity(), scale, frame_color);
    // The 16.7 ms line over the bars, and a fainter 33.3 ms one when it is below the top.
    for (k, alpha) in [(1.0, 0.85), (2.0, 0.35)] {
        if k * FRAME_60HZ_MS < scale - 1e-6 {
            let y = graph.y + graph.h * (1.0 - (k * FRAME_60HZ_MS / scale) as f32);
            out.push(solid(graph.x, y.round(), graph.w, 1.0, colors::GUIDE, alpha));
        }
    }
}

/// The ticks-per-frame graph: a bar per frame, [`TICK_GRAPH_MAX`] ticks at full height, with
/// faint guides at each tick; a frame with no tick shows a one-pixel grey stub.
pub fn ticks_graph(out: &mut Vec<SpriteInstance>, tel: &Telemetry, graph: Rect) {
    out.push(rect_quad(graph, [0, 0, 0], 0.35));
    let unit = graph.h / TICK_GRAPH_MAX as f32;
    for k in 1..TICK_GRAPH_MAX {
        let y = graph.y + graph.h - k as f32 * unit;
        out.push(solid(graph.x, y.round(), graph.w, 1.0, colors::GUIDE, 0.25));
    }
    let len = tel.len();
    for (i, s) in tel.iter().enumerate() {
        if s.ticks == 0 {
            let (x, w) = column(graph, i, len, tel.capacity());
            out.push(solid(x, graph.y + graph.h - 1.0, w, 1.0, colors::GUIDE, 0.8));
        }
    }
    bar_graph(
        out,
        graph,
        tel.iter().map(|s| f64::from(s.ticks)),
        tel.len(),
        tel.capacity(),
        f64::from(TICK_GRAPH_MAX),
        ticks_color,
    );
}

/// The accumulator graph: the time banked after each frame's ticks, full height = one tick
/// (`1000 / tick_hz` ms).
pub fn accumulator_graph(out: &mut Vec<SpriteInstance>, tel: &Telemetry, graph: Rect, tick_hz: u32) {
    out.push(rect_quad(graph, [0, 0, 0], 0.35));
    let tick_ms = 1000.0 / f64::from(tick_hz.max(1));
    bar_graph(out, graph, tel.iter().map(|s| s.accumulator_ms), tel.len(), tel.capacity(), tick_ms, |_| {
        colors::ACCUM
    });
}

/// The F3 telemetry overlay in the window's top-right corner: a semi-transparent dark panel,
/// the text of `shown` (a [`Telemetry::stats`] snapshot, refreshed by the caller a few times
/// a second), and the three live graphs of `tel`.
pub fn telemetry_overlay(
    out: &mut Layer,
    scr: &Screen,
    tel: &Telemetry,
    shown: &TelemetryStats,
    info: &OverlayInfo<'_>,
) {
    let s = scr.s;
    let size = scr.small_px();
    let line = (size * LINE_HEIGHT).round();
    let pad = 4.0 * s;
    let gap = 3.0 * s;
    let margin = 4.0 * s;
    let graph_w = tel.capacity() as f32 * s;
    let lines = overlay_lines(shown, info);
    // As wide as the graphs, or, where they are narrow (small windows), as the longest line
    // up to [`OVERLAY_TEXT_CHARS`] characters and the window's width.
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let widest = mono_width(longest.min(OVERLAY_TEXT_CHARS), size);
    let room = (scr.w - 2.0 * margin - 2.0 * pad).max(graph_w);
    let inner_w = widest.clamp(graph_w, room);
    let panel_w = inner_w + 2.0 * pad;
    let x = (scr.w - panel_w - margin).max(0.0);
    let y0 = margin;
    let inner = x + pad;
    let max_chars = (inner_w / mono_width(1, size)).floor().max(1.0) as usize;

    let text_h = lines.len() as f32 * line;
    let marker_h = 3.0 * s;
    let frame_h = 40.0 * s;
    let ticks_h = 16.0 * s;
    let acc_h = 10.0 * s;
    let panel_h = pad
        + line
        + text_h
        + gap
        + (line + marker_h + frame_h)
        + gap
        + (line + ticks_h)
        + gap
        + (line + acc_h)
        + pad;
    out.quads.push(solid(x, y0, panel_w, panel_h.round(), colors::PANEL, PANEL_ALPHA));

    let mut y = y0 + pad;
    out.text.push(TextItem::new("F3 telemetry (last 240 frames)", inner, y, size, colors::TITLE));
    y += line;
    let body = lines.iter().map(|l| truncate(l, max_chars)).collect::<Vec<_>>().join("\n");
    out.text.push(TextItem::new(body, inner, y, size, colors::TEXT));
    y += text_h + gap;

    let scale = frame_graph_scale(tel);
    out.text.push(TextItem::new(
        truncate(&format!("frame time, ms (0..{scale:.0}; line 16.7; red clamp, magenta cap)"), max_chars),
        inner,
        y,
        size,
        colors::DIM,
    ));
    y += line;
    let markers = Rect { x: inner, y, w: graph_w, h: marker_h };
    y += marker_h;
    let graph = Rect { x: inner, y, w: graph_w, h: frame_h };
    frame_graph(&mut out.quads, tel, markers, graph, scale);
    y += frame_h + gap;

    out.text.push(TextItem::new("ticks per frame (0..4)", inner, y, size, colors::DIM));
    y += line;
    ticks_graph(&mut out.quads, tel, Rect { x: inner, y, w: graph_w, h: ticks_h });
    y += ticks_h + gap;

    out.text.push(TextItem::new(
        truncate("accumulator after ticks (top = 1 tick; alpha)", max_chars),
        inner,
        y,
        size,
        colors::DIM,
    ));
    y += line;
    accumulator_graph(&mut out.quads, tel, Rect { x: inner, y, w: graph_w, h: acc_h }, info.tick_hz);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(frame_ms: f64) -> Sample {
        Sample { frame_ms, ticks: 1, ..Default::default() }
    }

    fn area() -> Rect {
        Rect { x: 10.0, y: 100.0, w: 240.0, h: 80.0 }
    }

    fn color_of(q: &SpriteInstance, srgb: [u8; 3]) -> bool {
        (0..3).all(|i| (q.uv_rect[i] - srgb_to_linear(srgb[i]) as f32).abs() < 1e-6)
    }

    #[test]
    fn ring_buffer_wraps_and_keeps_order() {
        let mut t = Telemetry::new(4);
        assert!(t.is_empty() && t.latest().is_none());
        for i in 1..=3 {
            t.push(sample(f64::from(i)));
        }
        assert_eq!(t.len(), 3);
        assert_eq!(t.latest().map(|s| s.frame_ms), Some(3.0));
        for i in 4..=10 {
            t.push(sample(f64::from(i)));
        }
        assert_eq!(t.len(), 4, "never grows past its capacity");
        let v: Vec<f64> = t.iter().map(|s| s.frame_ms).collect();
        assert_eq!(v, vec![7.0, 8.0, 9.0, 10.0], "oldest first after wrapping");
        assert_eq!(t.latest().map(|s| s.frame_ms), Some(10.0));
        t.clear();
        assert!(t.is_empty());
        let mut full = Telemetry::default();
        for i in 0..HISTORY + 10 {
            full.push(sample(i as f64));
        }
        assert_eq!(full.len(), HISTORY);
        assert_eq!(full.iter().next().map(|s| s.frame_ms), Some(10.0));
    }

    #[test]
    fn sample_from_frame_stats() {
        let fs = FrameStats {
            dt_ns: 16_666_667,
            clamped: true,
            steps: 2,
            capped: true,
            accumulator_ms: 3.5,
            alpha: 0.21,
            tick_ns_measured: 45_000,
            events_consumed: 3,
            ..Default::default()
        };
        let s = Sample::from(&fs);
        assert!((s.frame_ms - 16.666667).abs() < 1e-9);
        assert_eq!((s.ticks, s.clamped, s.capped, s.events), (2, true, true, 3));
        assert_eq!(s.tick_us, 45.0);
        assert_eq!(s.accumulator_ms, 3.5);
    }

    #[test]
    fn stats_over_the_history() {
        let mut t = Telemetry::new(8);
        for (ms, ticks) in [(10.0, 0), (20.0, 1), (20.0, 2), (30.0, 5)] {
            t.push(Sample {
                frame_ms: ms,
                ticks,
                tick_us: 10.0 * f64::from(ticks),
                events: 1,
                clamped: ticks == 5,
                ..Default::default()
            });
        }
        let st = t.stats();
        assert_eq!(st.frames, 4);
        assert!((st.fps - 4000.0 / 80.0).abs() < 1e-9);
        assert_eq!(st.frame_ms_mean, 20.0);
        assert_eq!(st.frame_ms_max, 30.0);
        assert_eq!(st.ticks_histogram, [1, 1, 1, 1]);
        assert_eq!(st.clamps, 1);
        assert_eq!(st.events, 4);
        // Tick cost only over frames that ran ticks: (10 + 20 + 50) / 3.
        assert!((st.tick_us_mean - 80.0 / 3.0).abs() < 1e-9);
        assert_eq!(Telemetry::new(3).stats(), TelemetryStats::default());
    }

    #[test]
    fn graph_heights_scale_with_values() {
        let mut quads = Vec::new();
        let values = [0.75 * FRAME_GRAPH_MS, FRAME_GRAPH_MS / 4.0, 0.0, 5.0 * FRAME_GRAPH_MS];
        bar_graph(&mut quads, area(), values.iter().copied(), values.len(), 4, FRAME_GRAPH_MS, frame_color);
        assert_eq!(quads.len(), 3, "a zero value draws no bar");
        let h: Vec<f32> = quads.iter().map(|q| q.size[1]).collect();
        assert!((h[0] - 60.0).abs() < 1e-3 && (h[1] - 20.0).abs() < 1e-3);
        assert_eq!(h[2], 80.0, "values past the top are cut at full height");
        // Bars stand on the bottom edge, one column each, in order.
        for q in &quads {
            assert!((q.pos[1] + q.size[1] - 180.0).abs() < 1e-3);
            assert_eq!(q.size[0], 60.0);
            assert_eq!(q.flags, FLAG_SOLID);
        }
        assert_eq!(quads[0].pos[0], 10.0);
        assert_eq!(quads[2].pos[0], 10.0 + 3.0 * 60.0);
        assert!(color_of(&quads[0], colors::WARN), "25 ms, over 16.7 ms, is amber");
        assert!(color_of(&quads[1], colors::GOOD));
        assert!(color_of(&quads[2], colors::BAD));
    }

    #[test]
    fn frame_graph_scale_grows_with_long_frames() {
        let mut t = Telemetry::new(8);
        assert_eq!(frame_graph_scale(&t), FRAME_GRAPH_MS);
        t.push(sample(16.7));
        t.push(sample(33.0));
        assert_eq!(frame_graph_scale(&t), FRAME_GRAPH_MS);
        t.push(sample(50.0));
        assert!((frame_graph_scale(&t) - 400.0 / 6.0).abs() < 1e-9);
        t.push(sample(250.0));
        assert!((frame_graph_scale(&t) - 1600.0 / 6.0).abs() < 1e-9);
        t.push(sample(5000.0));
        assert!((frame_graph_scale(&t) - 1600.0 / 6.0).abs() < 1e-9, "never past the last");
        // The 16.7 ms line sits at half height at the smallest scale, at a quarter at 0..67.
        let g = Rect { x: 0.0, y: 0.0, w: 8.0, h: 80.0 };
        let m = Rect { x: 0.0, y: -4.0, w: 8.0, h: 4.0 };
        let line = |scale: f64| {
            let mut q = Vec::new();
            frame_graph(&mut q, &Telemetry::new(8), m, g, scale);
            q.iter().filter(|q| q.size == [8.0, 1.0]).map(|q| (q.pos[1], q.uv_rect[3])).collect::<Vec<_>>()
        };
        assert_eq!(line(FRAME_GRAPH_MS), vec![(40.0, 0.85)]);
        assert_eq!(line(400.0 / 6.0), vec![(60.0, 0.85), (40.0, 0.35)]);
    }

    #[test]
    fn newest_sample_is_at_the_right_edge() {
        let mut quads = Vec::new();
        bar_graph(&mut quads, area(), [1.0], 1, 240, 1.0, |_| colors::GOOD);
        assert_eq!(quads.len(), 1);
        assert_eq!(quads[0].pos[0] + quads[0].size[0], 250.0);
    }

    #[test]
    fn clamp_and_cap_samples_are_marked() {
        let mut t = Telemetry::new(240);
        for _ in 0..10 {
            t.push(sample(16.7));
        }
        let markers = Rect { x: 0.0, y: 0.0, w: 240.0, h: 6.0 };
        let graph = Rect { x: 0.0, y: 6.0, w: 240.0, h: 80.0 };
        let mut plain = Vec::new();
        frame_graph(&mut plain, &t, markers, graph, FRAME_GRAPH_MS);
        assert!(!plain.iter().any(|q| color_of(q, colors::BAD) || color_of(q, colors::CAP)));

        t.push(Sample { frame_ms: 300.0, clamped: true, ..Default::default() });
        t.push(Sample { frame_ms: 20.0, ticks: 8, capped: true, ..Default::default() });
        let mut quads = Vec::new();
        frame_graph(&mut quads, &t, markers, graph, frame_graph_scale(&t));
        // The clamp (second newest column, x 238) has a red marker in the strip's top half,
        // three columns wide and centred on it; the cap (newest, x 239) a magenta one in the
        // bottom half, kept inside the strip.
        let clamp_marker = quads
            .iter()
            .find(|q| color_of(q, colors::BAD) && q.pos[1] == 0.0 && q.size[1] == 3.0)
            .expect("a clamp marker");
        assert_eq!((clamp_marker.pos[0], clamp_marker.size[0]), (237.0, 3.0));
        let cap_marker =
            quads.iter().find(|q| color_of(q, colors::CAP) && q.pos[1] == 3.0).expect("a cap marker");
        assert_eq!((cap_marker.pos[0], cap_marker.size[0]), (237.0, 3.0));
        // Faint columns through the graph mark both frames too.
        assert!(
            quads.iter().any(|q| color_of(q, colors::BAD) && q.pos == [238.0, 6.0] && q.uv_rect[3] < 0.5)
        );
        assert!(
            quads.iter().any(|q| color_of(q, colors::CAP) && q.pos == [239.0, 6.0] && q.uv_rect[3] < 0.5)
        );
        // And the clamped frame's bar is cut at full height, in red.
        assert!(quads.iter().any(|q| color_of(q, colors::BAD)
            && q.pos[0] == 238.0
            && q.size[1] == 80.0
            && q.uv_rect[3] > 0.9));
    }

    #[test]
    fn tick_bars_one_band_per_tick_and_zero_stubs() {
        let mut t = Telemetry::new(4);
        for ticks in [0, 1, 2, 9] {
            t.push(Sample { ticks, ..Default::default() });
        }
        let g = Rect { x: 0.0, y: 0.0, w: 4.0, h: 40.0 };
        let mut quads = Vec::new();
        ticks_graph(&mut quads, &t, g);
        let bars: Vec<&SpriteInstance> =
            quads.iter().filter(|q| q.size[0] == 1.0 && q.size[1] > 1.0).collect();
        let h: Vec<f32> = bars.iter().map(|q| q.size[1]).collect();
        assert_eq!(h, vec![10.0, 20.0, 40.0]);
        // The zero-tick frame gets a 1 px stub in column 0.
        assert!(quads.iter().any(|q| q.pos == [0.0, 39.0] && q.size == [1.0, 1.0]));
    }

    #[test]
    fn clock_is_exact_from_ticks() {
        assert_eq!(format_clock(0, 60), "0:00.00");
        assert_eq!(format_clock(59, 60), "0:00.98");
        assert_eq!(format_clock(61, 60), "0:01.01");
        assert_eq!(format_clock(3600, 60), "1:00.00");
        assert_eq!(format_clock(60 * 60 * 12 + 30, 60), "12:00.50");
        assert_eq!(format_clock(120, 120), "0:01.00");
        assert_eq!(format_clock(60, 0), "0:01.00");
    }

    #[test]
    fn hud_has_name_deaths_and_time_in_the_view_corner() {
        let scr = Screen::new(1280, 800);
        assert_eq!(scr.s, 2.0);
        let mut out = Layer::default();
        hud(&mut out, &scr, &Hud { level: "Meadow", deaths: 3, ticks: 3725, tick_hz: 60 });
        assert_eq!(out.text.len(), 1);
        let t = &out.text[0];
        assert_eq!(t.text, "Meadow\ndeaths 3   time 1:02.08");
        assert_eq!(t.size, 16.0);
        // Inside the letterboxed view (bars of 40 px above and below at 1280 x 800).
        assert!(t.y >= 40.0);
        let panel = out.quads[0];
        assert!(panel.pos[0] <= t.x && panel.pos[1] <= t.y);
        assert!(panel.size[0] >= mono_width(22, 16.0));
        assert!(panel.uv_rect[3] < 1.0, "semi-transparent");
    }

    #[test]
    fn pause_screen_dims_everything() {
        let scr = Screen::new(1280, 720);
        let mut out = Layer::default();
        pause_screen(&mut out, &scr);
        let dim = out.quads[0];
        assert_eq!((dim.pos, dim.size), ([0.0, 0.0], [1280.0, 720.0]));
        assert!(dim.uv_rect[3] > 0.3 && dim.uv_rect[3] < 1.0);
        assert!(out.text.iter().any(|t| t.text == "Paused" && t.align == Align::Center));
        assert!(out.text.iter().any(|t| t.text.contains("Q / Select: quit")));
    }

    #[test]
    fn end_screen_lists_every_level_and_a_total() {
        let scr = Screen::new(1280, 720);
        let mut out = Layer::default();
        let results = vec![
            LevelResult { name: "Meadow".into(), deaths: 2, ticks: 1800 },
            LevelResult { name: "Caves".into(), deaths: 5, ticks: 3630 },
        ];
        end_screen(&mut out, &scr, &results, 60);
        let texts: Vec<&str> = out.text.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts[0], "You made it!");
        assert!(texts.iter().any(|t| t.starts_with("Meadow") && t.contains("2") && t.ends_with("0:30.00")));
        assert!(texts.iter().any(|t| t.starts_with("Caves ") && t.ends_with("1:00.50")));
        assert!(texts.iter().any(|t| t.starts_with("total") && t.contains(" 7 ") && t.ends_with("1:30.50")));
        assert!(texts.iter().any(|t| t.contains("Enter / Start: play again")));
        // The rows share one column layout.
        let rows: Vec<usize> = out.text[1..4].iter().map(|t| t.text.chars().count()).collect();
        assert!(rows.windows(2).all(|w| w[0] == w[1]), "{rows:?}");
    }

    #[test]
    fn overlay_fits_the_window_and_reports_the_setup() {
        let scr = Screen::new(1280, 720);
        let mut t = Telemetry::default();
        for i in 0..300 {
            t.push(Sample {
                frame_ms: 16.0 + (i % 3) as f64,
                ticks: 1,
                accumulator_ms: 4.0,
                alpha: 0.24,
                clamped: i == 299,
                ..Default::default()
            });
        }
        let info = OverlayInfo {
            tick_hz: 60,
            present_mode: "Fifo",
            adapter: "llvmpipe (LLVM 15.0.7, 256 bits) with a very long name that must be cut",
            vsync: true,
            fps_cap: Some(60.0),
            total_clamps: 1,
            total_caps: 0,
            sprites: 10,
            stress: 0,
        };
        let mut out = Layer::default();
        telemetry_overlay(&mut out, &scr, &t, &t.stats(), &info);
        let panel = out.quads[0];
        assert!(panel.pos[0] >= 0.0 && panel.pos[0] + panel.size[0] <= 1280.0);
        assert!(panel.pos[1] + panel.size[1] <= 720.0, "panel {panel:?}");
        assert!(panel.uv_rect[3] < 1.0, "semi-transparent");
        // Every quad is inside the panel.
        for q in &out.quads {
            assert!(
                q.pos[0] >= panel.pos[0] - 1e-3
                    && q.pos[0] + q.size[0] <= panel.pos[0] + panel.size[0] + 1e-3
            );
            assert!(
                q.pos[1] >= panel.pos[1] - 1e-3
                    && q.pos[1] + q.size[1] <= panel.pos[1] + panel.size[1] + 1e-3
            );
        }
        let all: String = out.text.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join("\n");
        for want in [
            "fps",
            "frame",
            "ticks/frame",
            "accumulator",
            "alpha",
            "tick cost",
            "inputs consumed",
            "clamps 1",
            "present Fifo",
            "adapter llvmpipe",
        ] {
            assert!(all.contains(want), "{want} missing from:\n{all}");
        }
        // Text lines fit in the panel (monospace width).
        let text_x = out.text[0].x;
        let room = panel.pos[0] + panel.size[0] - text_x;
        assert!(all.lines().all(|l| mono_width(l.chars().count(), scr.small_px()) <= room + 1e-3), "{all}");
        assert!(all.contains('…'), "the long adapter name is cut");
        // A small window: the panel widens past the graphs for the text, within the window.
        let small = Screen::new(640, 360);
        let mut out = Layer::default();
        telemetry_overlay(&mut out, &small, &t, &t.stats(), &info);
        let panel = out.quads[0];
        assert!(panel.size[0] > 240.0 + 8.0 && panel.pos[0] >= 0.0);
        assert!(panel.pos[0] + panel.size[0] <= 640.0 && panel.pos[1] + panel.size[1] <= 360.0);
    }

    #[test]
    fn truncate_counts_characters() {
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abcd", 3), "ab…");
        assert_eq!(truncate("µµµµ", 2), "µ…");
    }
}
