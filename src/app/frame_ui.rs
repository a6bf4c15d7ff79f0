//! Which UI a frame shows: the HUD while a level is on (with the last level's splits for its
//! first seconds), the F3 overlay when asked for, the menu page open (title, level select,
//! pause menu, settings, end screen: `crate::ui::pages`) by [`Mode`]; built into a [`Layer`]
//! by `crate::ui`.
//!
//! Clock: render frame. Pure: the app gathers the numbers ([`FrameUi`]) and hands the layer to
//! the renderer. The end screen shows no F3 overlay: the clock is stopped there, and the panel
//! would cover the results table.

use super::session::Mode;
use crate::ui::menu::{Context, Menu};
use crate::ui::pages::{self, PageInfo};
use crate::ui::{self, Hud, Layer, LevelResult, OverlayInfo, Screen, Telemetry, TelemetryStats};

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
pub fn build(out: &mut Layer, size: (u32, u32), frame: &FrameUi<'_>) {
    out.clear();
    let scr = Screen::new(size.0, size.1);
    let page = |out: &mut Layer, m: &MenuUi<'_>| {
        let info = PageInfo { t_s: m.t_s, tick_hz: frame.hud.tick_hz, results: frame.results };
        pages::draw(out, &scr, m.menu, &m.ctx, &info);
    };
    match (frame.mode, &frame.menu) {
        (Mode::Finished | Mode::Title, Some(m)) => return page(out, m),
        (Mode::Finished, None) => {
            ui::end_screen(out, &scr, frame.results, frame.hud.tick_hz, "Play again");
            return;
        }
        _ => {}
    }
    ui::hud(out, &scr, &frame.hud);
    // The last level's splits, for the first seconds of the next one.
    let hz = u64::from(frame.hud.tick_hz);
    if let Some(last) = frame.results.last().filter(|_| frame.hud.ticks < ui::splits::BANNER_SECONDS * hz) {
        ui::level_complete(out, &scr, last, frame.hud.tick_hz);
    }
    if let Some(f3) = &frame.f3 {
        ui::telemetry_overlay(out, &scr, f3.telemetry, f3.shown, &f3.info);
    }
    match (frame.mode, &frame.menu) {
        (Mode::Paused, Some(m)) => page(out, m),
        (Mode::Paused, None) => ui::pause_screen(out, &scr),
        _ => {}
    }
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
            },
            f3,
            results: &[],
            menu: None,
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
    fn the_last_levels_splits_show_for_the_first_seconds_of_the_next() {
        let split =
            crate::timer::Split { igt_ticks: 600, rta_ns: 1, best_ticks: Some(630), rewound_ticks: 0 };
        let results = [LevelResult { name: "Meadow".into(), deaths: 0, ticks: 600, split }];
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
        let ctx = Context { settings: &settings, levels: &[], speed_percent: 100 };
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
