//! The always-on HUD (level name, deaths, level time; the game speed when it is not 100 % and
//! `invincible` while that assist is on,
//! `◀◀ REWIND` while time runs backwards, and hot reload's "reloaded NAME" for a moment) and the text helpers it and the
//! screens share: the exact tick clock ([`format_clock`]) and [`truncate`].
//!
//! Clock: render frame. Pure: builds quads and text into a [`Layer`].

use super::layout::{Layer, Rect, Screen, rect_quad};
use super::style::{PANEL_ALPHA, colors};
use crate::present::text::{LINE_HEIGHT, TextItem, mono_width};

pub use crate::timer::format_clock;
use crate::timer::format_delta;

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
    /// The game speed, percent (the assist; shown when not 100).
    pub speed_percent: u32,
    /// Time is running backwards (rewind held): a third line says so.
    pub rewinding: bool,
    /// The invincibility assist is on: the second line says so.
    pub invincible: bool,
    /// The segment timer, in a level with checkpoints: its line under the time.
    pub segment: Option<SegmentHud>,
    /// Lines under the others: a moment after hot reload swapped in a file ("reloaded
    /// level3.tmx", [`crate::ui::reload`]), or a race's status and results (one line each,
    /// `\n`-separated).
    pub notice: Option<&'a str>,
}

/// The segment timer's HUD line: the running segment (numbered from 1) and its time, and for
/// a moment after a split, that segment's time against its best.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentHud {
    /// The running segment, from 1.
    pub number: usize,
    /// Its time so far, ticks.
    pub ticks: u64,
    /// The segment that just ended, while the HUD shows it.
    pub last: Option<crate::timer::SegmentSplit>,
}

/// The HUD's rewind line.
pub const REWIND_TEXT: &str = "◀◀ REWIND";

/// The HUD: level name, deaths and level time (and the game speed when not 100 %), two lines
/// on a small panel in the view's top-left corner, [`REWIND_TEXT`] as a third while
/// rewinding, and the [`Hud::notice`] under them while there is one. Returns the panel's rectangle (window pixels: what goes under it starts below).
pub fn hud(out: &mut Layer, scr: &Screen, hud: &Hud<'_>) -> Rect {
    let size = scr.text_px();
    let pad = 3.0 * scr.s;
    let x = scr.view.x as f32 + 4.0 * scr.s;
    let y = scr.view.y as f32 + 4.0 * scr.s;
    let line1 = hud.level.to_owned();
    let mut line2 = format!("deaths {}   time {}", hud.deaths, format_clock(hud.ticks, hud.tick_hz));
    if hud.speed_percent != 100 {
        line2 += &format!("   speed {}%", hud.speed_percent);
    }
    if hud.invincible {
        line2 += "   invincible";
    }
    let mut lines = vec![line1, line2];
    // The segment line, and the just-ended segment's delta drawn over its end in its colour.
    let mut delta = None;
    if let Some(seg) = hud.segment {
        let mut line = format!("segment {}  {}", seg.number, format_clock(seg.ticks, hud.tick_hz));
        if let Some(last) = seg.last {
            line += &format!("   {} ", last.end.key());
            let text =
                last.delta_ticks().map_or_else(|| "first".to_owned(), |d| format_delta(d, hud.tick_hz));
            let color = super::splits::pace_color(last.pace());
            delta = Some((lines.len(), line.chars().count(), text.clone(), color));
            line += &" ".repeat(text.chars().count());
        }
        lines.push(line);
    }
    if hud.rewinding {
        lines.push(REWIND_TEXT.to_owned());
    }
    if let Some(notice) = hud.notice {
        // A notice may hold several lines (a race's results): the panel grows to hold them.
        lines.extend(notice.lines().map(str::to_owned));
    }
    let chars = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let w = mono_width(chars, size) + 2.0 * pad;
    let h = lines.len() as f32 * (size * LINE_HEIGHT).round() + 2.0 * pad;
    let panel = Rect { x, y, w: w.round(), h: h.round() };
    out.quads.push(rect_quad(panel, colors::PANEL, PANEL_ALPHA * 0.8));
    out.text.push(TextItem::new(lines.join("\n"), x + pad, y + pad, size, colors::TEXT));
    if let Some((row, col, text, color)) = delta {
        let at = (x + pad + mono_width(col, size), y + pad + row as f32 * (size * LINE_HEIGHT).round());
        out.text.push(TextItem::new(text, at.0, at.1, size, color));
    }
    panel
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn truncate_counts_characters() {
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abcd", 3), "ab…");
        assert_eq!(truncate("µµµµ", 2), "µ…");
    }

    #[test]
    fn hud_has_name_deaths_and_time_in_the_view_corner() {
        let scr = Screen::new(1280, 800);
        assert_eq!(scr.s, 2.0);
        let mut out = Layer::default();
        let plain = Hud {
            level: "Meadow",
            deaths: 3,
            ticks: 3725,
            tick_hz: 60,
            speed_percent: 100,
            rewinding: false,
            invincible: false,
            segment: None,
            notice: None,
        };
        hud(&mut out, &scr, &plain);
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
    fn hud_shows_a_reduced_speed_and_rewind() {
        let scr = Screen::new(1280, 800);
        let mut out = Layer::default();
        let h = Hud {
            level: "Meadow",
            deaths: 0,
            ticks: 60,
            tick_hz: 60,
            speed_percent: 50,
            rewinding: true,
            invincible: false,
            segment: None,
            notice: None,
        };
        hud(&mut out, &scr, &h);
        assert_eq!(out.text[0].text, "Meadow\ndeaths 0   time 0:01.00   speed 50%\n◀◀ REWIND");
        let mut noticed = Layer::default();
        hud(&mut noticed, &scr, &Hud { notice: Some("reloaded level3.tmx"), ..h });
        assert!(noticed.text[0].text.ends_with("◀◀ REWIND\nreloaded level3.tmx"));
        let tall = out.quads[0].size[1];
        let mut plain = Layer::default();
        hud(&mut plain, &scr, &Hud { speed_percent: 100, rewinding: false, ..h });
        assert_eq!(plain.text[0].text, "Meadow\ndeaths 0   time 0:01.00");
        assert!(tall > plain.quads[0].size[1], "the panel grows with the third line");
        let mut assisted = Layer::default();
        hud(&mut assisted, &scr, &Hud { invincible: true, rewinding: false, ..h });
        assert_eq!(assisted.text[0].text, "Meadow\ndeaths 0   time 0:01.00   speed 50%   invincible");
    }

    #[test]
    fn the_segment_line_shows_the_running_segment_and_a_split_against_its_best() {
        use crate::timer::{SegmentEnd, SegmentSplit};
        let scr = Screen::new(1280, 720);
        let h = Hud {
            level: "Meadow",
            deaths: 0,
            ticks: 300,
            tick_hz: 60,
            speed_percent: 100,
            rewinding: false,
            invincible: false,
            segment: Some(SegmentHud { number: 2, ticks: 90, last: None }),
            notice: None,
        };
        let mut out = Layer::default();
        hud(&mut out, &scr, &h);
        assert_eq!(out.text[0].text, "Meadow\ndeaths 0   time 0:05.00\nsegment 2  0:01.50");
        let last = SegmentSplit { end: SegmentEnd::Checkpoint(0), ticks: 210, best: Some(240) };
        let mut out = Layer::default();
        hud(
            &mut out,
            &scr,
            &Hud { segment: Some(SegmentHud { last: Some(last), ..h.segment.unwrap() }), ..h },
        );
        assert!(
            out.text[0].text.ends_with("segment 2  0:01.50   checkpoint 1         "),
            "{:?}",
            out.text[0].text
        );
        assert_eq!((out.text[1].text.as_str(), out.text[1].color), ("-0:00.50", colors::AHEAD));
        // On the segment line, right after its text.
        assert_eq!(out.text[1].x, out.text[0].x + mono_width(34, 16.0));
    }
}
