//! The F3 overlay's graphs as solid quads: frame time (with clamp and cap markers), ticks
//! per frame, and the accumulator.
//!
//! Clock: render frame. Pure: quads in window pixels from a [`Telemetry`] history.
//!
//! - frame time scrolls with a line at one 60 Hz frame (16.7 ms), 0..33 ms, or 0..67, 0..133
//!   or 0..267 ms when longer frames are in the history ([`frame_graph_scale`]); bars over one
//!   60 Hz frame turn amber, over two red. Clamp events (the delta exceeded the clamp; time was
//!   dropped) are marked red and cap hits (catch-up ticks were dropped) magenta, in a strip
//!   above the graph and as a faint column through it;
//! - ticks per frame as bars (one band per tick: 0 shows as a grey stub, 1 green, 2 amber,
//!   3 or more red): at 60 Hz on a 60 Hz display this alternates 1s with the odd 0 and 2 —
//!   the beat of the two clocks (Bevy `bevy_time` docs);
//! - the accumulator left after each frame's ticks, full height = one tick (so its shape is
//!   alpha's).

use super::layout::{Rect, rect_quad, solid};
use super::style::colors;
use super::telemetry::Telemetry;
use crate::game_loop::FrameStats;
use crate::present::instances::SpriteInstance;

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
    let max = tel.iter().map(FrameStats::frame_ms).fold(0.0, f64::max);
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
    bar_graph(
        out,
        graph,
        tel.iter().map(FrameStats::frame_ms),
        tel.len(),
        tel.capacity(),
        scale,
        frame_color,
    );
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
        if s.steps == 0 {
            let (x, w) = column(graph, i, len, tel.capacity());
            out.push(solid(x, graph.y + graph.h - 1.0, w, 1.0, colors::GUIDE, 0.8));
        }
    }
    bar_graph(
        out,
        graph,
        tel.iter().map(|s| f64::from(s.steps)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::instances::{FLAG_SOLID, srgb_to_linear};

    fn sample(frame_ms: f64) -> FrameStats {
        FrameStats { dt_ns: (frame_ms * 1e6).round() as u64, steps: 1, ..Default::default() }
    }

    fn area() -> Rect {
        Rect { x: 10.0, y: 100.0, w: 240.0, h: 80.0 }
    }

    fn color_of(q: &SpriteInstance, srgb: [u8; 3]) -> bool {
        (0..3).all(|i| (q.uv_rect[i] - srgb_to_linear(srgb[i]) as f32).abs() < 1e-6)
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

        t.push(FrameStats { dt_ns: 300_000_000, clamped: true, ..Default::default() });
        t.push(FrameStats { dt_ns: 20_000_000, steps: 8, capped: true, ..Default::default() });
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
            t.push(FrameStats { steps: ticks, ..Default::default() });
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
}
