//! The F3 telemetry overlay in the window's top-right corner (while paused: on the left, under
//! the HUD, beside the menu; [`Anchor`]): a panel with the numbers of the last
//! [`HISTORY`](super::telemetry::HISTORY) frames and their three graphs.
//!
//! Clock: render frame. Pure: builds quads and text into a [`Layer`]; the numbers come from a
//! [`TelemetryStats`] snapshot the caller refreshes a few times a second.
//!
//! It shows fps, frame time (last, mean, max), tick rate, ticks per frame and their histogram,
//! accumulator depth and alpha, tick cost, inputs consumed, clamp events and cap hits, present
//! mode, adapter and sprite count, then the graphs ([`super::graphs`]).

use super::graphs::{accumulator_graph, frame_graph, frame_graph_scale, ticks_graph};
use super::hud::truncate;
use super::layout::{Layer, Rect, Screen, rect_quad};
use super::style::{OVERLAY_TEXT_CHARS, PANEL_ALPHA, colors};
use super::telemetry::{Telemetry, TelemetryStats};
use crate::present::text::{LINE_HEIGHT, TextItem, mono_width};

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
    /// Event-to-present latency over the recent presses and releases, milliseconds: p50, p99
    /// and how many (`app/latency_log.rs`).
    pub latency: (Option<f64>, Option<f64>, usize),
}

/// The overlay's text lines (no layout), from `st` (a [`Telemetry::stats`] snapshot).
pub fn overlay_lines(st: &TelemetryStats, info: &OverlayInfo<'_>) -> Vec<String> {
    let [t0, t1, t2, t3] = st.ticks_histogram;
    let cap = info.fps_cap.map_or_else(|| "none".to_owned(), |hz| format!("{hz:.0} Hz"));
    vec![
        format!(
            "fps {:6.1}   frame {:6.2} ms  avg {:5.2}  max {:6.2}",
            st.fps,
            st.last.frame_ms(),
            st.frame_ms_mean,
            st.frame_ms_max
        ),
        format!("tick {} Hz   ticks/frame {}   0:{t0} 1:{t1} 2:{t2} 3+:{t3}", info.tick_hz, st.last.steps),
        format!("accumulator {:5.2} ms   alpha {:.3}", st.last.accumulator_ms, st.last.alpha),
        format!(
            "tick cost {:6.1} µs   avg {:6.1}  max {:7.1}",
            st.last.tick_us(),
            st.tick_us_mean,
            st.tick_us_max
        ),
        format!("inputs consumed {}   ({} in {} frames)", st.last.events_consumed, st.events, st.frames),
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
        match info.latency {
            (Some(p50), Some(p99), n) => {
                format!("input→present p50 {p50:5.1} ms  p99 {p99:5.1}  ({n} edges)")
            }
            _ => "input→present: no press yet".to_owned(),
        },
    ]
}

/// Where the F3 panel goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Anchor {
    /// The window's top-right corner, 4 UI pixels in (while playing: clear of the HUD).
    TopRight,
    /// Its top-left corner at (`x`, `y`), window pixels (while paused: under the HUD, so the
    /// menu beside it can stay clear of it).
    TopLeft {
        /// Left edge, window pixels.
        x: f32,
        /// Top edge, window pixels.
        y: f32,
    },
}

/// The panel's size and the sizes inside it, all window pixels.
struct Geometry {
    panel: Rect,
    pad: f32,
    gap: f32,
    inner_w: f32,
    graph_w: f32,
    text_h: f32,
    marker_h: f32,
    frame_h: f32,
    ticks_h: f32,
    acc_h: f32,
}

/// Lay the panel out for `lines` and `tel`'s graphs at `anchor`.
fn geometry(scr: &Screen, tel: &Telemetry, lines: &[String], anchor: Anchor) -> Geometry {
    let s = scr.s;
    let size = scr.small_px();
    let line = (size * LINE_HEIGHT).round();
    let pad = 4.0 * s;
    let gap = 3.0 * s;
    let margin = 4.0 * s;
    let graph_w = tel.capacity() as f32 * s;
    // As wide as the graphs, or, where they are narrow (small windows), as the longest line
    // up to [`OVERLAY_TEXT_CHARS`] characters and the window's width.
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let widest = mono_width(longest.min(OVERLAY_TEXT_CHARS), size);
    let room = (scr.w - 2.0 * margin - 2.0 * pad).max(graph_w);
    let inner_w = widest.clamp(graph_w, room);
    let panel_w = inner_w + 2.0 * pad;
    let (x, y) = match anchor {
        Anchor::TopRight => ((scr.w - panel_w - margin).max(0.0), margin),
        Anchor::TopLeft { x, y } => (x, y),
    };
    let text_h = lines.len() as f32 * line;
    let (marker_h, frame_h, ticks_h, acc_h) = (3.0 * s, 40.0 * s, 16.0 * s, 10.0 * s);
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
    Geometry {
        panel: Rect { x, y, w: panel_w, h: panel_h.round() },
        pad,
        gap,
        inner_w,
        graph_w,
        text_h,
        marker_h,
        frame_h,
        ticks_h,
        acc_h,
    }
}

/// Where [`telemetry_overlay_at`] puts the panel for these numbers at `anchor` (window
/// pixels), without drawing it: what a menu beside it must stay clear of.
pub fn overlay_rect(
    scr: &Screen,
    tel: &Telemetry,
    shown: &TelemetryStats,
    info: &OverlayInfo<'_>,
    anchor: Anchor,
) -> Rect {
    geometry(scr, tel, &overlay_lines(shown, info), anchor).panel
}

/// The F3 telemetry overlay in the window's top-right corner ([`telemetry_overlay_at`] with
/// [`Anchor::TopRight`]).
pub fn telemetry_overlay(
    out: &mut Layer,
    scr: &Screen,
    tel: &Telemetry,
    shown: &TelemetryStats,
    info: &OverlayInfo<'_>,
) {
    telemetry_overlay_at(out, scr, tel, shown, info, Anchor::TopRight);
}

/// The F3 telemetry overlay at `anchor`: a semi-transparent dark panel, the text of `shown` (a
/// [`Telemetry::stats`] snapshot, refreshed by the caller a few times a second), and the three
/// live graphs of `tel`. Returns the panel's rectangle (window pixels).
pub fn telemetry_overlay_at(
    out: &mut Layer,
    scr: &Screen,
    tel: &Telemetry,
    shown: &TelemetryStats,
    info: &OverlayInfo<'_>,
    anchor: Anchor,
) -> Rect {
    let size = scr.small_px();
    let line = (size * LINE_HEIGHT).round();
    let lines = overlay_lines(shown, info);
    let g = geometry(scr, tel, &lines, anchor);
    let Geometry { pad, gap, inner_w, graph_w, text_h, marker_h, frame_h, ticks_h, acc_h, .. } = g;
    let (x, y0) = (g.panel.x, g.panel.y);
    let inner = x + pad;
    let max_chars = (inner_w / mono_width(1, size)).floor().max(1.0) as usize;
    out.quads.push(rect_quad(g.panel, colors::PANEL, PANEL_ALPHA));

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
    g.panel
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_loop::FrameStats;

    #[test]
    fn overlay_fits_the_window_and_reports_the_setup() {
        let scr = Screen::new(1280, 720);
        let mut t = Telemetry::default();
        for i in 0..300 {
            t.push(FrameStats {
                dt_ns: (16 + i % 3) * 1_000_000,
                steps: 1,
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
            latency: (Some(21.5), Some(33.0), 40),
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
            "input→present p50  21.5 ms  p99  33.0  (40 edges)",
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
}
