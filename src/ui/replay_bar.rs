//! The replay window's bar ([`crate::lab::playback`]): along the view's bottom edge, where the
//! run stands (a bar filled to the frame shown), play or pause, the speed, the ticks and
//! frames run of the run's, and the keys. The run's time is the HUD's, above (its level clock).
//!
//! Clock: render frame; pure, from a [`PlaybackStatus`] (ticks and frames of the script, never
//! a wall clock).

use super::layout::{Layer, Rect, Screen, solid};
use super::style::{PANEL_ALPHA, colors};
use crate::lab::playback::PlaybackStatus;
use crate::present::text::{Align, TextItem};

/// The keys, as the bar lists them (`docs/playing.md` "Replays" has the pad's).
pub const KEYS_HINT: &str = "Space pause · ←/→ tick · hold R rewind · −/= speed · Home start · Q quit";

/// The bar's filled part: the menus' selection blue.
const FILLED: [u8; 3] = [60, 110, 200];

/// What the bar says of the state: `▶ 100 %`, `❚❚ paused`, `◀◀ 100 %`, `■ end`.
pub fn state_word(s: &PlaybackStatus) -> String {
    if s.rewinding {
        format!("◀◀ {} %", s.speed_percent)
    } else if s.at_end {
        "■ end".to_owned()
    } else if s.paused {
        "|| paused".to_owned()
    } else {
        format!("▶ {} %", s.speed_percent)
    }
}

/// Draw the bar for `status` of the run named `title` in the view's bottom edge; returns its
/// panel (window pixels).
pub fn replay_bar(out: &mut Layer, scr: &Screen, status: &PlaybackStatus, title: &str) -> Rect {
    let size = scr.text_px();
    let small = scr.small_px();
    let pad = 4.0 * scr.s;
    let line = size + 2.0 * scr.s;
    let track_h = 3.0 * scr.s;
    let w = scr.view.w as f32;
    let h = pad * 2.0 + line + track_h + 2.0 * scr.s + small + 2.0 * scr.s;
    let x = scr.view.x as f32;
    let y = scr.view.y as f32 + scr.view.h as f32 - h;
    let panel = Rect { x: x.round(), y: y.round(), w: w.round(), h: h.round() };
    out.quads.push(solid(panel.x, panel.y, panel.w, panel.h, colors::PANEL, PANEL_ALPHA));
    let left = format!(
        "REPLAY  {}   tick {} / {}   frame {} / {}",
        state_word(status),
        status.ticks,
        status.total_ticks,
        status.frame + 1,
        status.frames
    );
    let ty = panel.y + pad;
    out.text.push(TextItem::new(left, panel.x + pad, ty, size, colors::TEXT));
    let name = super::truncate(title, 40);
    out.text.push(TextItem::new(name, panel.x + panel.w - pad, ty, size, colors::DIM).aligned(Align::Right));
    // The track, filled to the frame shown.
    let tx = panel.x + pad;
    let tw = panel.w - 2.0 * pad;
    let by = ty + line;
    out.quads.push(solid(tx, by, tw, track_h, colors::GUIDE, 0.25));
    let done = if status.frames > 1 { status.frame as f32 / (status.frames - 1) as f32 } else { 1.0 };
    out.quads.push(solid(tx, by, (tw * done).round().max(scr.s), track_h, FILLED, 1.0));
    out.text.push(TextItem::new(KEYS_HINT, tx, by + track_h + 2.0 * scr.s, small, colors::DIM));
    panel
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(frame: u64, paused: bool) -> PlaybackStatus {
        PlaybackStatus {
            frame,
            frames: 101,
            ticks: frame * 2,
            total_ticks: 200,
            speed_percent: 100,
            paused,
            rewinding: false,
            at_end: frame == 100,
        }
    }

    #[test]
    fn the_bar_fills_to_the_frame_and_says_the_state_and_time() {
        let scr = Screen::new(1280, 720);
        let mut out = Layer::default();
        let panel = replay_bar(&mut out, &scr, &status(50, false), "level1.lab");
        assert_eq!(out.text[0].text, "REPLAY  ▶ 100 %   tick 100 / 200   frame 51 / 101");
        assert_eq!(out.text[1].text, "level1.lab");
        let (track, filled) = (out.quads[1], out.quads[2]);
        assert!((filled.size[0] * 2.0 - track.size[0]).abs() <= 2.0, "half filled: {filled:?} of {track:?}");
        assert!(panel.y + panel.h <= 720.0 && panel.y > 560.0, "along the bottom: {panel:?}");
        let mut out = Layer::default();
        replay_bar(&mut out, &scr, &status(100, true), "x");
        assert!(out.text[0].text.contains("■ end"));
        assert_eq!(out.quads[2].size[0], out.quads[1].size[0], "full at the end");
        assert_eq!(state_word(&status(3, true)), "|| paused");
        assert_eq!(state_word(&PlaybackStatus { rewinding: true, ..status(3, true) }), "◀◀ 100 %");
    }
}
