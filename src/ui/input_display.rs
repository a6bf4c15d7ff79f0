//! The input display (the speedrunner's input overlay, as CelesteTAS and stream layouts show
//! it): one cell per action, lit while held and brighter in the tick it was pressed, and the
//! stick's x on a bar, in the view's bottom-left corner.
//!
//! Clock: render frame, drawing the **tick's** input ([`TickInput`], what the last tick run
//! read), never the keyboard's: what it shows is what the simulation got, so a replay shows
//! the same. Pure: builds quads and text into a [`Layer`].

use super::layout::{Layer, Rect, Screen, rect_quad, solid};
use super::style::{PANEL_ALPHA, colors};
use crate::present::text::{Align, TextItem, mono_width};
use crate::sim::action::{Action, TickInput};

/// Each action's cell, left to right, with the glyph it shows.
pub const CELLS: [(Action, &str); 6] = [
    (Action::Left, "◀"),
    (Action::Right, "▶"),
    (Action::Up, "▲"),
    (Action::Down, "▼"),
    (Action::Jump, "J"),
    (Action::Rewind, "R"),
];

/// A held cell's fill: the menus' selection blue.
const HELD: [u8; 3] = [60, 110, 200];
/// A cell pressed in this very tick: the headline yellow (the press edge the tick consumed).
const PRESSED: [u8; 3] = [255, 222, 120];

/// Draw `input` in the view's bottom-left corner: a panel of [`CELLS`] (glyph dim when up,
/// bright on blue when held, dark on yellow in the tick it was pressed)
/// and, under them, the stick's x in [-1, 1] as a marker on a bar (centred at 0); with
/// `above`, a window y, the panel's bottom sits over it (the replay window's bar) instead of
/// over the view's bottom edge. Returns the panel's rectangle (window pixels).
pub fn input_display(out: &mut Layer, scr: &Screen, input: &TickInput, above: Option<f32>) -> Rect {
    let size = scr.text_px();
    let pad = 2.0 * scr.s;
    let cell = (mono_width(1, size) + 2.0 * pad).round().max(size + 2.0 * pad);
    let gap = scr.s;
    let row_w = CELLS.len() as f32 * (cell + gap) - gap;
    let bar_h = 3.0 * scr.s;
    let w = row_w + 2.0 * pad;
    let h = cell + gap * 2.0 + bar_h + 2.0 * pad;
    let x = scr.view.x as f32 + 4.0 * scr.s;
    let bottom = above.unwrap_or(scr.view.y as f32 + scr.view.h as f32);
    let y = bottom - 4.0 * scr.s - h;
    let panel = Rect { x: x.round(), y: y.round(), w: w.round(), h: h.round() };
    out.quads.push(rect_quad(panel, colors::PANEL, PANEL_ALPHA * 0.8));
    for (i, (action, glyph)) in CELLS.iter().enumerate() {
        let cx = panel.x + pad + i as f32 * (cell + gap);
        let cy = panel.y + pad;
        let (fill, text) = if input.pressed(*action) {
            (Some(PRESSED), [8, 10, 18, 255])
        } else if input.held(*action) {
            (Some(HELD), colors::TEXT)
        } else {
            (None, colors::DIM)
        };
        if let Some(fill) = fill {
            out.quads.push(solid(cx, cy, cell, cell, fill, 1.0));
        }
        // Centred on the cell; DejaVu's glyphs sit low in their line, so one UI pixel up.
        let item = TextItem::new(*glyph, cx + cell * 0.5, cy + (cell - size) * 0.5 - scr.s, size, text);
        out.text.push(item.aligned(Align::Center));
    }
    // The stick: a bar, its centre mark, and the marker at stick_x.
    let by = panel.y + pad + cell + 2.0 * gap;
    let bx = panel.x + pad;
    out.quads.push(solid(bx, by, row_w, bar_h, colors::GUIDE, 0.25));
    out.quads.push(solid((bx + row_w * 0.5 - gap * 0.5).round(), by, gap, bar_h, colors::GUIDE, 0.6));
    let stick = f32::clamp(input.stick_x, -1.0, 1.0);
    if stick != 0.0 {
        let mx = bx + (row_w - bar_h) * (stick + 1.0) * 0.5;
        out.quads.push(solid(mx.round(), by, bar_h, bar_h, HELD, 1.0));
    }
    panel
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(held: &[Action], pressed: &[Action], stick_x: f32) -> TickInput {
        let mut i = TickInput { stick_x, ..TickInput::default() };
        for a in held {
            i.held[a.index()] = true;
        }
        for a in pressed {
            i.pressed[a.index()] = true;
        }
        i
    }

    #[test]
    fn held_and_pressed_cells_are_lit_and_the_stick_has_its_marker() {
        let scr = Screen::new(1280, 720);
        let mut out = Layer::default();
        let panel =
            input_display(&mut out, &scr, &input(&[Action::Right, Action::Jump], &[Action::Jump], 0.5), None);
        let glyphs: Vec<&str> = out.text.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(glyphs, ["◀", "▶", "▲", "▼", "J", "R"]);
        assert_eq!(out.text[0].color, colors::DIM, "left is up");
        assert_eq!(out.text[1].color, colors::TEXT, "right is held");
        assert_eq!(out.text[4].color, [8, 10, 18, 255], "jump was pressed this tick");
        // Panel, two lit cells, the bar, its centre, the marker.
        assert_eq!(out.quads.len(), 1 + 2 + 3);
        // In the view's bottom-left corner, inside the window.
        assert!(panel.x < 20.0 && panel.y + panel.h <= 720.0 && panel.y > 600.0, "{panel:?}");
        let marker = out.quads.last().unwrap();
        let bar = out.quads[3];
        assert!(marker.pos[0] > bar.pos[0] + bar.size[0] * 0.5, "the marker right of centre");
    }

    #[test]
    fn nothing_held_lights_nothing_and_a_centred_stick_has_no_marker() {
        let scr = Screen::new(2560, 1440);
        let mut out = Layer::default();
        input_display(&mut out, &scr, &TickInput::default(), Some(600.0));
        assert!(out.text.iter().all(|t| t.color == colors::DIM));
        assert_eq!(out.quads.len(), 1 + 2, "the panel, the bar and its centre");
        let panel = out.quads[0];
        assert_eq!(panel.pos[1] + panel.size[1], 600.0 - 4.0 * scr.s, "over the replay bar");
    }
}
