//! Which UI a frame shows: the HUD while a level is on (with the last level's splits for its
//! first seconds), the F3 overlay when asked for, the menu page open (title, level select,
//! pause menu, settings, end screen: `crate::ui::pages`) by [`Mode`], and hot reload's
//! broken-file banner over all of it while a level is on; built into a [`Layer`] by
//! `crate::ui`.
//!
//! Clock: render frame. Pure: the app gathers the numbers ([`FrameUi`]) and hands the layer to
//! the renderer. The end screen shows no F3 overlay: the clock is stopped there, and the panel
//! would cover the results table.

use super::session::Mode;
use crate::ui::menu::{Context, Menu};
use crate::ui::pages::{self, PageInfo};
use crate::ui::{
    self, Anchor, BrokenFile, Hud, Layer, LevelResult, OverlayInfo, Screen, Telemetry, TelemetryStats,
};

/// The F3 overlay's inputs.
#[derive(Clone, Copy, Debug)]
pub struct F3<'a> {
    /// The last frames.
    pub telemetry: &'a Telemetry,
    /// Their numbers, as last refreshed.
    pub shown: &'a TelemetryStats,
    /// The setup it reports.
    pub info: OverlayInfo<'a>,
}

/// Everything a frame's UI is built from.
#[derive(Clone, Copy, Debug)]
pub struct FrameUi<'a> {
    /// What the game is doing.
    pub mode: Mode,
    /// The HUD's numbers.
    pub hud: Hud<'a>,
    /// The F3 overlay, when it is on.
    pub f3: Option<F3<'a>>,
    /// The levels finished (the end screen's table).
    pub results: &'a [LevelResult],
    /// The menus, while one is open (every mode but playing); without them the pause and end
    /// screens are the plain ones.
    pub menu: Option<MenuUi<'a>>,
    /// The watched files that do not load (hot reload): their banner is drawn over everything
    /// while a level is on, playing or paused.
    pub broken: &'a [BrokenFile],
    /// The input display's input (the last tick's), when it is on.
    pub input: Option<crate::sim::action::TickInput>,
    /// The replay window's bar: where the playback stands and the run's name (`replay.rs`).
    pub replay: Option<(crate::lab::playback::PlaybackStatus, &'a str)>,
}

/// The menus as a frame draws them.
#[derive(Clone, Copy, Debug)]
pub struct MenuUi<'a> {
    /// Their state (page, cursor, rebinding).
    pub menu: &'a Menu,
    /// The settings and levels they show.
    pub ctx: Context<'a>,
    /// Seconds since the menus opened (the title's blinking; frame clock).
    pub t_s: f64,
}

/// Build `frame`'s UI for a `size` (width, height) pixel target into `out` (cleared first).
///
/// While paused with F3 on, the F3 panel moves from the top-right corner to the left, under
/// the HUD (in the level-complete banner's place: that banner is left out then), and the menu
/// page beside it keeps its title and list clear of it ([`crate::ui::centre_clear_of`]); the
/// panel is drawn after the page, so the page's dimmer does not dim it.
pub fn build(out: &mut Layer, size: (u32, u32), frame: &FrameUi<'_>) {
    out.clear();
    let scr = Screen::new(size.0, size.1);
    let page = |out: &mut Layer, m: &MenuUi<'_>, keep_clear| {
        let info = PageInfo { t_s: m.t_s, tick_hz: frame.hud.tick_hz, results: frame.results, keep_clear };
        pages::draw(out, &scr, m.menu, &m.ctx, &info);
    };
    match (frame.mode, &frame.menu) {
        (Mode::Finished | Mode::Title, Some(m)) => return page(out, m, None),
        (Mode::Finished, None) => {
            ui::end_screen(out, &scr, frame.results, frame.hud.tick_hz, "Play again");
            return;
        }
        _ => {}
    }
    let hud = ui::hud(out, &scr, &frame.hud);
    let bar = frame.replay.map(|(status, title)| ui::replay_bar::replay_bar(out, &scr, &status, title));
    if let Some(input) = &frame.input {
        ui::input_display(out, &scr, input, bar.map(|b| b.y));
    }
    let paused = frame.mode == Mode::Paused;
    let beside_menu = frame.f3.filter(|_| paused);
    // The last level's splits, for the first seconds of the next one.
    let hz = u64::from(frame.hud.tick_hz);
    if let Some(last) = frame.results.last().filter(|_| frame.hud.ticks < ui::splits::BANNER_SECONDS * hz) {
        if beside_menu.is_none() {
            ui::level_complete(out, &scr, last, frame.hud.tick_hz);
        }
    }
    if let Some(f3) = frame.f3.filter(|_| !paused) {
        ui::telemetry_overlay(out, &scr, f3.telemetry, f3.shown, &f3.info);
    }
    let anchor = Anchor::TopLeft { x: hud.x, y: hud.y + hud.h + 4.0 * scr.s };
    let keep = beside_menu.map(|f3| ui::overlay_rect(&scr, f3.telemetry, f3.shown, &f3.info, anchor));
    match (frame.mode, &frame.menu) {
        (Mode::Paused, Some(m)) => page(out, m, keep),
        (Mode::Paused, None) => ui::pause_screen(out, &scr, keep),
        _ => {}
    }
    if let Some(f3) = beside_menu {
        ui::telemetry_overlay_at(out, &scr, f3.telemetry, f3.shown, &f3.info, anchor);
    }
    ui::broken_banner(out, &scr, frame.broken);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(mode: Mode, f3: Option<F3<'_>>) -> FrameUi<'_> {
        FrameUi {
            mode,
            hud: Hud {
                level: "Meadow",
                deaths: 1,
                ticks: 60,
                tick_hz: 60,
                speed_percent: 100,
                rewinding: false,
                invincible: false,
                segment: None,
                notice: None,
            },
            f3,
            results: &[],
            menu: None,
            broken: &[],
            input: None,
            replay: None,
        }
    }

    #[test]
    fn each_mode_shows_its_layers() {
        let tel = Telemetry::default();
        let shown = TelemetryStats::default();
        let info = OverlayInfo {
            tick_hz: 60,
            present_mode: "Fifo",
            adapter: "test",
            vsync: true,
            fps_cap: None,
            total_clamps: 0,
            total_caps: 0,
            sprites: 0,
            stress: 0,
            latency: (None, None, 0),
        };
        let f3 = F3 { telemetry: &tel, shown: &shown, info };
        let texts = |f: &FrameUi<'_>| {
            let mut out = Layer::default();
            build(&mut out, (1280, 720), f);
            out.text.iter().map(|t| t.text.clone()).collect::<Vec<_>>().join("\n")
        };
        let playing = texts(&frame(Mode::Playing, None));
        assert!(playing.starts_with("Meadow") && !playing.contains("Paused"));
        assert!(texts(&frame(Mode::Playing, Some(f3))).contains("F3 telemetry"));
        let paused = texts(&frame(Mode::Paused, Some(f3)));
        assert!(paused.contains("Meadow") && paused.contains("F3 telemetry") && paused.contains("Paused"));
        let end = texts(&frame(Mode::Finished, Some(f3)));
        assert!(end.starts_with("You made it!") && !end.contains("F3 telemetry") && !end.contains("Meadow"));
    }

    #[test]
    fn the_broken_file_banner_shows_over_a_level_playing_or_paused_only() {
        use crate::ui::menu::Page;
        let broken = [BrokenFile { file: "level3.tmx".into(), line: Some(9), message: "bad".into() }];
        let settings = crate::save::Settings::default();
        let ctx = Context { settings: &settings, levels: &[], speed_percent: 100, finished_run: false };
        let shows = |mode, page: Option<Page>| {
            let menu = page.map(Menu::new);
            let mut f = frame(mode, None);
            f.broken = &broken;
            f.menu = menu.as_ref().map(|menu| MenuUi { menu, ctx, t_s: 0.0 });
            let mut out = Layer::default();
            build(&mut out, (1280, 720), &f);
            // Drawn last: over the pause menu's dimmer too.
            out.text.iter().rev().nth(1).is_some_and(|t| t.text == "level3.tmx:9: bad")
        };
        assert!(shows(Mode::Playing, None) && shows(Mode::Paused, Some(Page::Pause)));
        assert!(!shows(Mode::Title, Some(Page::Title)) && !shows(Mode::Finished, Some(Page::End)));
    }

    /// A text item's box, window pixels (monospace: widths from character counts).
    fn text_box(t: &crate::present::text::TextItem) -> ui::Rect {
        use crate::present::text::{Align, LINE_HEIGHT, mono_width};
        let chars = t.text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        let w = mono_width(chars, t.size);
        let x = if t.align == Align::Center { t.x - w * 0.5 } else { t.x };
        let h = t.text.lines().count().max(1) as f32 * t.size * LINE_HEIGHT;
        ui::Rect { x, y: t.y, w, h }
    }

    fn overlaps(a: ui::Rect, b: ui::Rect) -> bool {
        a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
    }

    /// Paused with F3 on, at the window sizes the game is played at: nothing of the pause menu,
    /// the settings page or the plain pause screen lies under the F3 panel, which stays in the
    /// window, and nothing of either leaves the window.
    #[test]
    fn f3_and_the_pause_menus_stay_apart() {
        use crate::game_loop::FrameStats;
        use crate::ui::menu::Page;
        let mut tel = Telemetry::default();
        for i in 0..300 {
            tel.push(FrameStats { dt_ns: (16 + i % 3) * 1_000_000, steps: 1, ..Default::default() });
        }
        let shown = tel.stats();
        let info = OverlayInfo {
            tick_hz: 60,
            present_mode: "Fifo",
            adapter: "llvmpipe (LLVM 15.0.7, 256 bits)",
            vsync: true,
            fps_cap: Some(60.0),
            total_clamps: 0,
            total_caps: 0,
            sprites: 900,
            stress: 0,
            latency: (Some(24.9), Some(41.2), 256),
        };
        let f3 = F3 { telemetry: &tel, shown: &shown, info };
        let mut settings = crate::save::Settings::default();
        settings.display.reduced_motion = true; // the widest screen-shake value
        let ctx = Context { settings: &settings, levels: &[], speed_percent: 100, finished_run: false };
        let split = crate::timer::Split {
            igt_ticks: 600,
            rta_ns: 1,
            best_ticks: None,
            rewound_ticks: 0,
            assists: crate::timer::RunAssists::default(),
        };
        let results =
            [LevelResult { name: "Meadow".into(), deaths: 0, ticks: 600, split, segments: Vec::new() }];
        for size in [(640, 360), (960, 540), (1280, 720), (1280, 800), (1920, 1080)] {
            // The plain pause screen (no menus: the app always has them) is too wide to sit
            // beside F3 in a window 640 pixels wide.
            let plain = (size.0 > 640).then_some(None);
            for page in [Some(Some(Page::Pause)), Some(Some(Page::Settings)), plain].into_iter().flatten() {
                let menu = page.map(Menu::new);
                let build_with = |f3| {
                    let mut f = frame(Mode::Paused, f3);
                    f.results = &results;
                    f.hud.ticks = 30; // the level-complete banner's seconds
                    f.menu = menu.as_ref().map(|menu| MenuUi { menu, ctx, t_s: 0.0 });
                    let mut out = Layer::default();
                    build(&mut out, size, &f);
                    out
                };
                let (with, without) = (build_with(Some(f3)), build_with(None));
                let ctx_s = format!("{size:?} {page:?}");
                // F3 is drawn last: its items are the ones `without` lacks (less the banner).
                let f3_quads = &with.quads[with.quads.len() - (with.quads.len() + 1 - without.quads.len())..];
                let panel = f3_quads[0];
                let panel = ui::Rect { x: panel.pos[0], y: panel.pos[1], w: panel.size[0], h: panel.size[1] };
                assert!(with.text.iter().any(|t| t.text.starts_with("F3 telemetry")), "{ctx_s}");
                let (w, h) = (size.0 as f32, size.1 as f32);
                assert!(
                    panel.x >= 0.0 && panel.x + panel.w <= w && panel.y + panel.h <= h,
                    "{ctx_s}: {panel:?}"
                );
                let page_quads = &with.quads[..with.quads.len() - f3_quads.len()];
                for q in page_quads.iter().filter(|q| q.size != [w, h]) {
                    let r = ui::Rect { x: q.pos[0], y: q.pos[1], w: q.size[0], h: q.size[1] };
                    assert!(!overlaps(r, panel), "{ctx_s}: quad {r:?} under F3 {panel:?}");
                    assert!(r.x >= 0.0 && r.x + r.w <= w, "{ctx_s}: quad {r:?} leaves the window");
                }
                let f3_texts = with.text.len() - (without.text.len() - 4);
                for t in &with.text[..with.text.len() - f3_texts] {
                    let r = text_box(t);
                    assert!(!overlaps(r, panel), "{ctx_s}: {:?} {r:?} under F3 {panel:?}", t.text);
                }
            }
        }
    }

    #[test]
    fn the_last_levels_splits_show_for_the_first_seconds_of_the_next() {
        let split = crate::timer::Split {
            igt_ticks: 600,
            rta_ns: 1,
            best_ticks: Some(630),
            rewound_ticks: 0,
            assists: crate::timer::RunAssists::default(),
        };
        let results =
            [LevelResult { name: "Meadow".into(), deaths: 0, ticks: 600, split, segments: Vec::new() }];
        let shows = |ticks| {
            let mut f = frame(Mode::Playing, None);
            f.results = &results;
            f.hud.ticks = ticks;
            let mut out = Layer::default();
            build(&mut out, (1280, 720), &f);
            out.text.iter().any(|t| t.text == "✓ Meadow complete")
        };
        assert!(shows(0) && shows(179));
        assert!(!shows(180), "3 s of game time at 60 Hz");
    }

    #[test]
    fn menus_draw_over_the_hud_or_alone() {
        use crate::ui::menu::Page;
        let settings = crate::save::Settings::default();
        let ctx = Context { settings: &settings, levels: &[], speed_percent: 100, finished_run: false };
        let texts = |mode, page| {
            let menu = Menu::new(page);
            let mut f = frame(mode, None);
            f.menu = Some(MenuUi { menu: &menu, ctx, t_s: 0.0 });
            let mut out = Layer::default();
            build(&mut out, (1280, 720), &f);
            out.text.iter().map(|t| t.text.clone()).collect::<Vec<_>>().join("\n")
        };
        let title = texts(Mode::Title, Page::Title);
        assert!(title.contains("LEDGE") && !title.contains("Meadow"), "no HUD on the title: {title}");
        let paused = texts(Mode::Paused, Page::Pause);
        assert!(paused.starts_with("Meadow") && paused.contains("▶ Resume"), "{paused}");
        let end = texts(Mode::Finished, Page::End);
        assert!(end.starts_with("You made it!") && end.contains("Back to title"), "{end}");
    }
}
