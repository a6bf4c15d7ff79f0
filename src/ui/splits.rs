//! The speedrun splits on screen ([`crate::timer`]): green ahead of the best, red behind, and
//! the level-complete banner shown for a few seconds after a goal, under the HUD.
//!
//! Clock: render frame. Pure: builds quads and text into a [`Layer`].

use super::layout::{Layer, Screen, solid};
use super::screens::LevelResult;
use super::style::{PANEL_ALPHA, colors};
use crate::present::text::{LINE_HEIGHT, TextItem, mono_width};
use crate::timer::{Pace, Split, format_clock, format_delta, format_real, sum_of_best};

/// How long the level-complete banner stays up, seconds of game time after the next level
/// starts.
pub const BANNER_SECONDS: u64 = 3;

/// The colour of a split: green ahead, red behind, the main text level, dim without a best.
pub fn pace_color(pace: Pace) -> [u8; 4] {
    match pace {
        Pace::Ahead => colors::AHEAD,
        Pace::Behind => colors::BEHIND,
        Pace::Even => colors::TEXT,
        Pace::NoBest => colors::DIM,
    }
}

/// The end screen's rewind column: `used` or `no`.
pub fn rewind_mark(s: &Split) -> &'static str {
    if s.rewind_used() { "used" } else { "no" }
}

/// The level-complete banner for `r`: a panel under the HUD with the level's name, IGT and RTA,
/// the split against the best (coloured; `new best` on a first finish or a faster one without
/// assists, `(assisted)` for a run with any) and whether rewind and which assists were used.
pub fn level_complete(out: &mut Layer, scr: &Screen, r: &LevelResult, tick_hz: u32) {
    let size = scr.text_px();
    let line = (size * LINE_HEIGHT).round();
    let pad = 3.0 * scr.s;
    let x = scr.view.x as f32 + 4.0 * scr.s;
    let y = scr.view.y as f32 + 4.0 * scr.s + 3.0 * line + 4.0 * pad;
    let s = &r.split;
    let head = format!("✓ {} complete", r.name);
    let times = format!("IGT {}   RTA {}", format_clock(s.igt_ticks, tick_hz), format_real(s.rta_ns));
    let vs = match s.delta_ticks() {
        Some(d) => format!("vs best {}", format_delta(d, tick_hz)),
        None => "first finish".to_owned(),
    };
    let best = if s.is_new_best() {
        "   new best!"
    } else if s.assists.any() {
        "   (assisted)"
    } else {
        ""
    };
    let mut aids = if s.rewind_used() { "rewind used" } else { "no rewind" }.to_owned();
    if s.assists.any() {
        aids = format!("{aids}  ·  assists: {}", s.assists.label());
    }
    let mut lines = vec![
        (head, colors::TITLE),
        (times, colors::TEXT),
        (format!("{vs}{best}"), pace_color(s.pace())),
        (aids, colors::TEXT),
    ];
    // The segment timer: each segment against its best (coloured), then the sum of best.
    for seg in &r.segments {
        let vs = seg.delta_ticks().map_or_else(|| "first".to_owned(), |d| format_delta(d, tick_hz));
        let color = pace_color(seg.pace());
        let name = format!("→ {}", seg.end.key());
        lines.push((format!("{name:<16}{}  {vs}", format_clock(seg.ticks, tick_hz)), color));
    }
    if !r.segments.is_empty() {
        let sum = format_clock(sum_of_best(&r.segments), tick_hz);
        lines.push((format!("{:<16}{sum}", "sum of best"), colors::TEXT));
    }
    let chars = lines.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
    let w = mono_width(chars, size) + 2.0 * pad;
    let h = lines.len() as f32 * line + 2.0 * pad;
    out.quads.push(solid(x, y, w.round(), h.round(), colors::PANEL, PANEL_ALPHA));
    for (i, (text, color)) in lines.into_iter().enumerate() {
        out.text.push(TextItem::new(text, x + pad, y + pad + i as f32 * line, size, color));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(best: Option<u64>, rewound: u64) -> LevelResult {
        let split = Split {
            igt_ticks: 600,
            rta_ns: 12_345_678_901,
            best_ticks: best,
            rewound_ticks: rewound,
            assists: crate::timer::RunAssists::default(),
        };
        LevelResult { name: "Meadow".into(), deaths: 1, ticks: 600, split, segments: Vec::new() }
    }

    #[test]
    fn the_banner_shows_both_clocks_the_coloured_split_and_rewind_use() {
        let scr = Screen::new(1280, 720);
        let mut out = Layer::default();
        level_complete(&mut out, &scr, &result(Some(630), 0), 60);
        let texts: Vec<(&str, [u8; 4])> = out.text.iter().map(|t| (t.text.as_str(), t.color)).collect();
        assert_eq!(texts[0].0, "✓ Meadow complete");
        assert_eq!(texts[1].0, "IGT 0:10.00   RTA 0:12.34");
        assert_eq!(texts[2], ("vs best -0:00.50   new best!", colors::AHEAD));
        assert_eq!(texts[3].0, "no rewind");
        out = Layer::default();
        level_complete(&mut out, &scr, &result(Some(570), 9), 60);
        assert_eq!((out.text[2].text.as_str(), out.text[2].color), ("vs best +0:00.50", colors::BEHIND));
        assert_eq!(out.text[3].text, "rewind used");
        out = Layer::default();
        level_complete(&mut out, &scr, &result(None, 0), 60);
        assert_eq!((out.text[2].text.as_str(), out.text[2].color), ("first finish   new best!", colors::DIM));
    }

    #[test]
    fn an_assisted_run_is_no_best_and_says_which_assists() {
        let scr = Screen::new(1280, 720);
        let mut out = Layer::default();
        let mut r = result(Some(630), 0);
        r.split.assists.note(80, true);
        level_complete(&mut out, &scr, &r, 60);
        assert_eq!(out.text[2].text, "vs best -0:00.50   (assisted)");
        assert_eq!(out.text[3].text, "no rewind  ·  assists: 80 % speed, invincible");
    }

    #[test]
    fn the_banner_lists_the_segments_against_their_bests_and_the_sum_of_best() {
        use crate::timer::{SegmentEnd, SegmentSplit};
        let scr = Screen::new(1280, 720);
        let mut out = Layer::default();
        let mut r = result(Some(630), 0);
        r.segments = vec![
            SegmentSplit { end: SegmentEnd::Checkpoint(0), ticks: 200, best: Some(230) },
            SegmentSplit { end: SegmentEnd::Goal, ticks: 400, best: None },
        ];
        level_complete(&mut out, &scr, &r, 60);
        let texts: Vec<(&str, [u8; 4])> = out.text.iter().map(|t| (t.text.as_str(), t.color)).collect();
        assert_eq!(texts[4], ("→ checkpoint 1  0:03.33  -0:00.50", colors::AHEAD));
        assert_eq!(texts[5], ("→ goal          0:06.66  first", colors::DIM));
        assert_eq!(texts[6].0, "sum of best     0:10.00");
    }

    #[test]
    fn rewind_column_and_colours() {
        assert_eq!(rewind_mark(&result(None, 1).split), "used");
        assert_eq!(rewind_mark(&result(None, 0).split), "no");
        assert_eq!(pace_color(Pace::Even), colors::TEXT);
    }
}
