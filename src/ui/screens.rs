//! The pause screen and the end screen (results per level and a total).
//!
//! Clock: render frame (drawn while the game clock stands still). Pure: builds quads and text
//! into a [`Layer`].

use super::hud::{format_clock, truncate};
use super::layout::{Layer, Rect, Screen, centre_clear_of, solid};
use super::splits::{pace_color, rewind_mark};
use super::style::{END_DIM_ALPHA, MENU_ALPHA, PANEL_ALPHA, PAUSE_DIM_ALPHA, colors};
use crate::present::text::{Align, LINE_HEIGHT, TextItem, mono_width};
use crate::timer::{Split, format_delta, format_real};

/// The pause screen: the whole window dimmed, "Paused" and the keys on a panel centred on the
/// view, or just clear of `keep` (the F3 panel) where centred would cover it.
pub fn pause_screen(out: &mut Layer, scr: &Screen, keep: Option<Rect>) {
    out.quads.push(solid(0.0, 0.0, scr.w, scr.h, colors::PANEL, PAUSE_DIM_ALPHA));
    let cy = scr.view.y as f32 + scr.view.h as f32 * 0.5;
    let title = scr.title_px();
    let size = scr.text_px();
    let hint = "F3: telemetry  ·  F11 / Alt+Enter: fullscreen";
    let w = mono_width(hint.chars().count(), size) + 16.0 * scr.s;
    let cx = centre_clear_of(scr, w, keep);
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

/// One finished level, for the end screen and the level-complete banner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelResult {
    /// The level's name.
    pub name: String,
    /// Deaths on it.
    pub deaths: u64,
    /// Ticks from its start to touching the goal (the IGT).
    pub ticks: u64,
    /// The speedrun split: IGT, RTA, the best before, rewind use ([`crate::timer`]).
    pub split: Split,
    /// The segment timer's segments (one per checkpoint touched, then the goal), each with
    /// the best before this run; empty in a level without checkpoints.
    pub segments: Vec<crate::timer::SegmentSplit>,
}

/// The end screen after the last level: "You made it!", a row per level (deaths, IGT, RTA, the
/// split against the best in green or red, whether rewind was used), a total row (against the
/// sum of the bests), and the keys (Enter does `selected`, the end menu's chosen item), on one
/// panel sized to them (opaque as the menus' lists, [`MENU_ALPHA`]: the level and the player
/// behind made the table hard to read). Returns the y under the keys' line, where the end
/// menu's items go.
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
    // The panel behind the title, the table and the keys: its size is known once they are laid
    // out, so its place in the quads (under the total's rule) is kept now and filled at the end.
    let panel_at = out.quads.len();
    out.quads.push(solid(0.0, 0.0, 0.0, 0.0, colors::PANEL, MENU_ALPHA));
    let panel_top = y - 8.0 * scr.s;
    out.text.push(TextItem::new("You made it!", cx, y, title, colors::TITLE).aligned(Align::Center));
    y += title * 1.6;
    // An assisted level's name is marked `*`, and a note under the table says which assists.
    let shown_name = |r: &LevelResult| {
        if r.split.assists.any() { format!("{} *", r.name) } else { r.name.clone() }
    };
    let name_w = results.iter().map(|r| shown_name(r).chars().count()).max().unwrap_or(0).clamp(5, 28);
    // The split column is left blank in the row and drawn over it in its own colour.
    let split_at = name_w + 2 + 6 + 2 + 9 + 2 + 9 + 2;
    let row = |name: &str, deaths: &str, igt: &str, rta: &str, split: &str, rewind: &str| {
        format!(
            "{:<name_w$}  {:>6}  {:>9}  {:>9}  {:>9}  {:>6}",
            truncate(name, name_w),
            deaths,
            igt,
            rta,
            split,
            rewind
        )
    };
    let mut rows = vec![(row("level", "deaths", "IGT", "RTA", "vs best", "rewind"), None)];
    let mut add = |name: &str, deaths: u64, s: &Split| {
        let delta = s.delta_ticks().map_or_else(|| "—".to_owned(), |d| format_delta(d, tick_hz));
        let text = row(
            name,
            &deaths.to_string(),
            &format_clock(s.igt_ticks, tick_hz),
            &format_real(s.rta_ns),
            "",
            rewind_mark(s),
        );
        rows.push((text, Some((format!("{delta:>9}"), pace_color(s.pace())))));
    };
    for r in results {
        add(&shown_name(r), r.deaths, &r.split);
    }
    let deaths = results.iter().map(|r| r.deaths).sum();
    let total = Split::total(results.iter().map(|r| &r.split));
    add("total", deaths, &total);
    let width = mono_width(rows[0].0.chars().count(), size);
    let left = cx - width * 0.5;
    let last = rows.len() - 1;
    for (i, (text, split)) in rows.into_iter().enumerate() {
        let color = if i == 0 { colors::DIM } else { colors::TEXT };
        if i == last {
            // A rule above the total, in a little extra space.
            y += (0.3 * line).round();
            out.quads.push(solid(left, (y - 0.2 * line).round(), width, scr.s.max(1.0), colors::GUIDE, 0.5));
        }
        out.text.push(TextItem::new(text, left, y, size, color));
        if let Some((delta, color)) = split {
            out.text.push(TextItem::new(delta, left + mono_width(split_at, size), y, size, color));
        }
        y += line;
    }
    if total.assists.any() {
        let note = format!("* assisted ({}): not a personal best", total.assists.label());
        out.text.push(TextItem::new(note, left, y, size, colors::DIM));
        y += line;
    }
    y += line;
    let keys = if selected == "Play again" {
        "Enter / Start: play again  ·  Esc / Q: quit".to_owned()
    } else {
        format!("Enter: {}  ·  Start: play again  ·  Esc / Q: quit", selected.to_lowercase())
    };
    let keys_w = mono_width(keys.chars().count(), size);
    out.text.push(TextItem::new(keys, cx, y, size, colors::TITLE).aligned(Align::Center));
    let pad = 8.0 * scr.s;
    let panel_w = (width.max(keys_w).max(mono_width(12, title)) + 2.0 * pad).round();
    let panel_h = (y + line + pad * 0.5 - panel_top).round();
    out.quads[panel_at] =
        solid((cx - panel_w * 0.5).round(), panel_top.round(), panel_w, panel_h, colors::PANEL, MENU_ALPHA);
    y + 2.0 * line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_screen_dims_everything() {
        let scr = Screen::new(1280, 720);
        let mut out = Layer::default();
        pause_screen(&mut out, &scr, None);
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
        let split = |ticks, best, rewound| Split {
            igt_ticks: ticks,
            rta_ns: ticks * 17_000_000,
            best_ticks: best,
            rewound_ticks: rewound,
            assists: crate::timer::RunAssists::default(),
        };
        let results = vec![
            LevelResult {
                name: "Meadow".into(),
                deaths: 2,
                ticks: 1800,
                split: split(1800, Some(1830), 0),
                segments: Vec::new(),
            },
            LevelResult {
                name: "Caves".into(),
                deaths: 5,
                ticks: 3630,
                split: split(3630, None, 12),
                segments: Vec::new(),
            },
        ];
        end_screen(&mut out, &scr, &results, 60, "Play again");
        let texts: Vec<&str> = out.text.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts[0], "You made it!");
        assert!(texts.iter().any(|t| t.starts_with("Meadow") && t.contains("2") && t.contains("0:30.00")));
        assert!(texts.iter().any(|t| t.starts_with("Caves ") && t.contains("1:00.50")));
        assert!(texts.iter().any(|t| t.starts_with("total") && t.contains(" 7 ") && t.contains("1:30.50")));
        assert!(texts.iter().any(|t| t.contains("Enter / Start: play again")));
        // The rows share one column layout.
        let rows: Vec<usize> = [1, 2, 4, 6].iter().map(|&i| out.text[i].text.chars().count()).collect();
        assert!(rows.windows(2).all(|w| w[0] == w[1]), "{rows:?}");
        // RTA, the splits in their colours, rewind use.
        assert!(texts[2].starts_with("Meadow") && texts[2].contains("0:30.60") && texts[2].ends_with("no"));
        assert_eq!((texts[3].trim(), out.text[3].color), ("-0:00.50", colors::AHEAD));
        assert!(texts[4].starts_with("Caves") && texts[4].ends_with("used"));
        assert_eq!((texts[5].trim(), out.text[5].color), ("—", colors::DIM));
        assert_eq!(texts[7].trim(), "—", "no sum of bests without every best");
        assert_eq!(out.text[3].x, out.text[2].x + mono_width(38, out.text[2].size));
        // One panel holds every line of text, inside the window.
        let panel = out.quads[1];
        assert_eq!(panel.uv_rect[3], MENU_ALPHA);
        let inside = |t: &TextItem| {
            let w = mono_width(t.text.chars().count(), t.size);
            let left = if t.align == Align::Center { t.x - w * 0.5 } else { t.x };
            left >= panel.pos[0]
                && left + w <= panel.pos[0] + panel.size[0]
                && t.y >= panel.pos[1]
                && t.y + t.size * LINE_HEIGHT <= panel.pos[1] + panel.size[1]
        };
        assert!(out.text.iter().all(inside), "{panel:?}");
        assert!(panel.pos[0] >= 0.0 && panel.pos[0] + panel.size[0] <= 1280.0);
        let last = out.text.last().unwrap();
        assert!(panel.pos[1] + panel.size[1] <= last.y + 2.0 * last.size * LINE_HEIGHT, "sized to the text");

        // An assisted level is marked, and a note under the table names its assists.
        let mut assisted = results.clone();
        assisted[1].split.assists.note(140, false);
        let mut out = Layer::default();
        end_screen(&mut out, &scr, &assisted, 60, "Play again");
        let texts: Vec<&str> = out.text.iter().map(|t| t.text.as_str()).collect();
        assert!(texts.iter().any(|t| t.starts_with("Caves *")), "{texts:?}");
        assert!(texts.contains(&"* assisted (140 % speed): not a personal best"), "{texts:?}");
    }
}
