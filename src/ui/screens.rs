//! The pause screen and the end screen (results per level and a total).
//!
//! Clock: render frame (drawn while the game clock stands still). Pure: builds quads and text
//! into a [`Layer`].

use super::hud::{format_clock, truncate};
use super::layout::{Layer, Screen, solid};
use super::style::{END_DIM_ALPHA, PANEL_ALPHA, PAUSE_DIM_ALPHA, colors};
use crate::present::text::{Align, LINE_HEIGHT, TextItem, mono_width};

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
/// total row, and the keys (Enter does `selected`, the end menu's chosen item). Returns the y
/// under the keys' line, where the end menu's items go.
pub fn end_screen(
    out: &mut Layer,
    scr: &Screen,
    results: &[LevelResult],
    tick_hz: u32,
    selected: &str,
) -> f32 {
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
    let keys = if selected == "Play again" {
        "Enter / Start: play again  ·  Esc / Q: quit".to_owned()
    } else {
        format!("Enter: {}  ·  Start: play again  ·  Esc / Q: quit", selected.to_lowercase())
    };
    out.text.push(TextItem::new(keys, cx, y, size, colors::TITLE).aligned(Align::Center));
    y + 2.0 * line
}

#[cfg(test)]
mod tests {
    use super::*;

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
        end_screen(&mut out, &scr, &results, 60, "Play again");
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
}
