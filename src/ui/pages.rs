//! What each menu page draws ([`super::menu`]): the title, the level select, the pause menu,
//! the settings page (with its rebinding prompt) and the end screen's choices, as quads and
//! text in a [`Layer`].
//!
//! Clock: render frame. Pure. The only animation (the title's "press any key" pulsing) reads
//! the seconds the app passes in; nothing here touches the simulation. Sizes follow the view's
//! integer scale ([`Screen::s`]), text is the shipped monospace font, so panels are sized from
//! character counts.

use super::hud::{format_clock, truncate};
use super::layout::{Layer, Rect, Screen, centre_clear_of, solid};
use super::menu::{
    Capture, Context, Device, LevelEntry, Menu, Page, PauseItem, SettingRow, changeable, end_items,
    key_label, setting_rows,
};
use super::race_menu::RACE_ROWS;
use super::screens::{LevelResult, end_screen};
use super::style::{MENU_ALPHA, PANEL_ALPHA, PAUSE_DIM_ALPHA, colors};
use crate::present::text::{Align, LINE_HEIGHT, TextItem, mono_width};

/// The cursor drawn before the selected row.
const CURSOR: &str = "▶ ";

/// What a page needs besides the menu and its context.
#[derive(Clone, Copy, Debug)]
pub struct PageInfo<'a> {
    /// Seconds since the menus opened (frame clock; the title's blinking).
    pub t_s: f64,
    /// The fixed tick rate, Hz (times are ticks).
    pub tick_hz: u32,
    /// The levels finished this run (the end screen's table).
    pub results: &'a [LevelResult],
    /// A panel the page's title and list stay clear of (window pixels): the F3 overlay while
    /// paused ([`centre_clear_of`]); the hint and message lines under it are not moved.
    pub keep_clear: Option<Rect>,
}

/// One row of a list: its text and whether it can be chosen.
struct Row {
    text: String,
    enabled: bool,
}

fn row(text: impl Into<String>) -> Row {
    Row { text: text.into(), enabled: true }
}

/// The view's centre x.
fn centre_x(scr: &Screen) -> f32 {
    scr.view.x as f32 + scr.view.w as f32 * 0.5
}

/// The width of [`list`]'s panel for `rows`, pixels.
fn list_width(scr: &Screen, rows: &[Row]) -> f32 {
    let pad = (4.0 * scr.s).round();
    let chars = rows.iter().map(|r| r.text.chars().count()).max().unwrap_or(0) + CURSOR.chars().count();
    (mono_width(chars, scr.text_px()) + 2.0 * pad).round()
}

/// A panel of `rows` centred on `cx` from `top`, the row `cursor` highlighted; returns the y
/// under it.
fn list(out: &mut Layer, scr: &Screen, rows: &[Row], cursor: Option<usize>, top: f32, cx: f32) -> f32 {
    list_of_width(out, scr, rows, cursor, top, cx, list_width(scr, rows))
}

/// [`list`] showing at most `max` of `rows`: a window of them that keeps `cursor` in view
/// (its row a third of the way down where it can be), as wide as all of them, with ▲ / ▼ at
/// the panel's right edge while rows are hidden above / below; returns the y under it.
fn scrolled_list(
    out: &mut Layer,
    scr: &Screen,
    rows: &[Row],
    cursor: usize,
    top: f32,
    cx: f32,
    max: usize,
) -> f32 {
    let w = list_width(scr, rows);
    if rows.len() <= max.max(1) {
        return list_of_width(out, scr, rows, Some(cursor), top, cx, w);
    }
    let max = max.max(1);
    let first = cursor.saturating_sub(max / 3).min(rows.len() - max);
    let bottom = list_of_width(out, scr, &rows[first..first + max], Some(cursor - first), top, cx, w);
    let size = scr.text_px();
    let (pad, line) = ((4.0 * scr.s).round(), (size * LINE_HEIGHT).round());
    let right = (cx + w * 0.5).round() - pad;
    let arrow = |out: &mut Layer, glyph: &str, y: f32| {
        out.text.push(TextItem::new(glyph, right, y, size, colors::DIM).aligned(Align::Right));
    };
    if first > 0 {
        arrow(out, "▲", (top + pad).round());
    }
    if first + max < rows.len() {
        arrow(out, "▼", (top + pad).round() + line * (max - 1) as f32);
    }
    bottom
}

/// [`list`] at a given panel width `w`.
fn list_of_width(
    out: &mut Layer,
    scr: &Screen,
    rows: &[Row],
    cursor: Option<usize>,
    top: f32,
    cx: f32,
    w: f32,
) -> f32 {
    let size = scr.text_px();
    let line = (size * LINE_HEIGHT).round();
    let pad = (4.0 * scr.s).round();
    let left = (cx - w * 0.5).round();
    let h = line * rows.len() as f32 + 2.0 * pad;
    out.quads.push(solid(left, top.round(), w, h.round(), colors::PANEL, MENU_ALPHA));
    let mut y = (top + pad).round();
    for (i, r) in rows.iter().enumerate() {
        let selected = cursor == Some(i);
        if selected {
            out.quads.push(solid(left, y - (0.1 * line).round(), w, line, colors::ACCUM, 0.35));
        }
        let color = if selected {
            colors::TITLE
        } else if r.enabled {
            colors::TEXT
        } else {
            colors::DIM
        };
        let text = format!("{}{}", if selected { CURSOR } else { "  " }, r.text);
        out.text.push(TextItem::new(text, left + pad, y, size, color));
        y += line;
    }
    top + h
}

/// A line of `text` centred on `cx` at `y` in `size` px and `color`.
fn centred(out: &mut Layer, cx: f32, text: impl Into<String>, y: f32, size: f32, color: [u8; 4]) {
    out.text.push(TextItem::new(text, cx, y.round(), size, color).aligned(Align::Center));
}

/// A line of `text` centred on `cx` at `y` on a panel of its own (readable over the level).
fn banner(out: &mut Layer, scr: &Screen, cx: f32, text: &str, y: f32, color: [u8; 4]) {
    let size = scr.text_px();
    let pad = (3.0 * scr.s).round();
    let w = (mono_width(text.chars().count(), size) + 2.0 * pad).round();
    let h = (size * LINE_HEIGHT).round() + pad;
    let left = (cx - w * 0.5).round();
    out.quads.push(solid(left, (y - pad * 0.5).round(), w, h, colors::PANEL, PANEL_ALPHA));
    centred(out, cx, text, y, size, color);
}

/// The keys' hint line at the bottom of the view.
fn hint(out: &mut Layer, scr: &Screen, text: &str) {
    let y = scr.view.y as f32 + scr.view.h as f32 - 2.2 * scr.text_px();
    banner(out, scr, centre_x(scr), text, y, colors::DIM);
}

/// The message line (a refused key, a rebinding done) just above the hint.
fn message(out: &mut Layer, scr: &Screen, text: &str) {
    let y = scr.view.y as f32 + scr.view.h as f32 - 4.0 * scr.text_px();
    banner(out, scr, centre_x(scr), text, y, colors::NOTE);
}

/// The title: the game's name over the moving level (drawn by the renderer behind this),
/// the promise, and "press any key" pulsing once a second.
pub fn title(out: &mut Layer, scr: &Screen, t_s: f64) {
    let cy = scr.view.y as f32 + scr.view.h as f32 * 0.36;
    let big = scr.title_px() * 2.0;
    let size = scr.text_px();
    let any_y = cy + big * 0.6 + 2.2 * size;
    let w = mono_width(30, size).max(mono_width(5, big)) + 24.0 * scr.s;
    let (top, bottom) = (cy - big * 0.9, any_y + 1.5 * size * LINE_HEIGHT + 8.0 * scr.s);
    out.quads.push(solid(
        (centre_x(scr) - w * 0.5).round(),
        top.round(),
        w.round(),
        (bottom - top).round(),
        colors::PANEL,
        0.9,
    ));
    let cx = centre_x(scr);
    centred(out, cx, "LEDGE", cy - big * 0.6, big, colors::TITLE);
    centred(out, cx, "the same jump on every screen", cy + big * 0.6, size, colors::TEXT);
    // Pulses once a second between bright and dim (never gone: always readable).
    let pulse = if t_s.rem_euclid(1.0) < 0.5 { colors::TEXT } else { colors::DIM };
    centred(out, cx, "press any key", any_y, size * 1.5, pulse);
    hint(out, scr, "Esc: quit  ·  F11: fullscreen");
}

/// One level's row: number, name, best time, fewest deaths, ★ for a deathless finish; a
/// locked level says so.
pub fn level_row(i: usize, l: &LevelEntry, tick_hz: u32) -> String {
    let name = truncate(&l.name, 20);
    if !l.open {
        return format!("{:>2}  {name:<20}  {:>23}", i + 1, "locked");
    }
    match l.record {
        Some(r) => {
            let deaths = format!("{} death{}", r.fewest_deaths, if r.fewest_deaths == 1 { "" } else { "s" });
            let star = if r.deathless { "★" } else { " " };
            format!(
                "{:>2}  {name:<20}  {:>9}  {deaths:>10} {star}",
                i + 1,
                format_clock(r.best_ticks, tick_hz)
            )
        }
        None => format!("{:>2}  {name:<20}  {:>23}", i + 1, "not finished"),
    }
}

/// The level select: the shipped levels (locked ones dimmed), then Settings and Quit.
pub fn level_select(out: &mut Layer, scr: &Screen, levels: &[LevelEntry], cursor: usize, tick_hz: u32) {
    out.quads.push(solid(0.0, 0.0, scr.w, scr.h, colors::PANEL, PAUSE_DIM_ALPHA * 0.6));
    let title = scr.title_px();
    let top = scr.view.y as f32 + scr.view.h as f32 * 0.12;
    let cx = centre_x(scr);
    centred(out, cx, "Choose a level", top, title, colors::TITLE);
    let mut rows: Vec<Row> = levels
        .iter()
        .enumerate()
        .map(|(i, l)| Row { text: level_row(i, l, tick_hz), enabled: l.open })
        .collect();
    rows.push(row("Race online"));
    rows.push(row("Settings"));
    rows.push(row("Quit"));
    let bottom = list(out, scr, &rows, Some(cursor), top + title * 1.8, cx);
    let size = scr.text_px();
    centred(
        out,
        cx,
        "best time  ·  fewest deaths  ·  ★ finished without dying",
        bottom + size,
        size,
        colors::DIM,
    );
    hint(out, scr, "Up / Down: choose  ·  Enter / A: play  ·  Esc / B: back");
}

/// "Race online" ([`super::race_menu`]): the level and players to host, "Host a race", the
/// code to join, "Join", "Back"; the server under them.
pub fn race(out: &mut Layer, scr: &Screen, menu: &Menu, ctx: &Context<'_>) {
    out.quads.push(solid(0.0, 0.0, scr.w, scr.h, colors::PANEL, PAUSE_DIM_ALPHA * 0.6));
    let title = scr.title_px();
    let top = scr.view.y as f32 + scr.view.h as f32 * 0.12;
    let cx = centre_x(scr);
    centred(out, cx, "Race online", top, title, colors::TITLE);
    let form = menu.race_form();
    let mut rows: Vec<Row> = (0..RACE_ROWS.len()).map(|r| row(form.row_text(r, ctx))).collect();
    // The server, under the rows, not selectable: settings.toml's `[net] server`.
    rows.push(Row { text: format!("Server     {}", ctx.settings.net.server), enabled: false });
    list(out, scr, &rows, Some(menu.cursor()), top + title * 1.8, cx);
    hint(out, scr, "Left / Right: change  ·  type the code  ·  Enter: host or join  ·  Esc: back");
}

/// The pause menu over the dimmed game, its title and list clear of `keep` (the F3 panel).
pub fn pause_menu(out: &mut Layer, scr: &Screen, cursor: usize, ctx: &Context<'_>, keep: Option<Rect>) {
    out.quads.push(solid(0.0, 0.0, scr.w, scr.h, colors::PANEL, PAUSE_DIM_ALPHA));
    let title = scr.title_px();
    let top = scr.view.y as f32 + scr.view.h as f32 * 0.22;
    let items = PauseItem::all(ctx.settings.display.practice, ctx.finished_run);
    // The savestate items name their first keyboard key, as rebound.
    let practice = &ctx.settings.keys.practice.keyboard;
    let with_key = |label: &str, keys: &[String]| match keys.first() {
        Some(k) => format!("{label} ({})", key_label(k)),
        None => label.to_owned(),
    };
    let rows: Vec<Row> = items
        .into_iter()
        .map(|i| match i {
            PauseItem::SaveState => row(with_key(i.label(), &practice.savestate)),
            PauseItem::LoadState => row(with_key(i.label(), &practice.loadstate)),
            _ => row(i.label()),
        })
        .collect();
    let cx = centre_clear_of(scr, list_width(scr, &rows).max(mono_width(6, title)), keep);
    centred(out, cx, "Paused", top, title, colors::TITLE);
    list(out, scr, &rows, Some(cursor), top + title * 1.8, cx);
    hint(out, scr, "Esc / Start: resume  ·  Q / Select: quit  ·  F3: telemetry  ·  F11: fullscreen");
}

/// A switch as the settings page shows it.
fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

/// The settings page's text for `r`: label and value in two columns.
pub fn setting_text(r: SettingRow, ctx: &Context<'_>, capture: Option<Capture>) -> String {
    let s = ctx.settings;
    let pct = |v: f64| format!("◀ {:>3} % ▶", (v * 100.0).round() as i32);
    let keys = |d: Device, b| {
        let k: Vec<String> = d.keys(s, b).iter().map(|n| key_label(n)).collect();
        if k.is_empty() { "—".to_owned() } else { truncate(&k.join(", "), 24) }
    };
    let (label, value) = match r {
        SettingRow::Master => ("Master volume".to_owned(), pct(s.volume.master)),
        SettingRow::Music => ("Music volume".to_owned(), pct(s.volume.music)),
        SettingRow::Effects => ("Sound effects".to_owned(), pct(s.volume.effects)),
        SettingRow::ReducedMotion => {
            ("Reduced motion".to_owned(), on_off(s.display.reduced_motion).to_owned())
        }
        // What the loop does: reduced motion forces the shake off (the choice is kept).
        SettingRow::ScreenShake if s.display.reduced_motion => {
            ("Screen shake".to_owned(), "off (reduced motion)".to_owned())
        }
        SettingRow::ScreenShake => ("Screen shake".to_owned(), s.display.screen_shake.label().to_owned()),
        SettingRow::Flashes => ("Flashes".to_owned(), on_off(s.display.flashes).to_owned()),
        SettingRow::VisualEffects => {
            ("Visual effects".to_owned(), on_off(s.display.visual_effects).to_owned())
        }
        SettingRow::Vsync => ("Vsync".to_owned(), on_off(s.display.vsync).to_owned()),
        SettingRow::Fullscreen => ("Fullscreen".to_owned(), on_off(s.display.fullscreen).to_owned()),
        SettingRow::FpsCap => {
            ("Frame cap".to_owned(), s.fps_cap().map_or_else(|| "off".to_owned(), |hz| format!("{hz} Hz")))
        }
        SettingRow::Key(d, b) => {
            let dev = if d == Device::Keyboard { "Keyboard" } else { "Pad" };
            let waiting = capture == Some(Capture { device: d, bind: b });
            let value = if waiting { "…press one".to_owned() } else { keys(d, b) };
            (format!("{dev} {}", b.name()), value)
        }
        // The speed in force; saved unless it differs from the file's (`--game-speed`, − / =).
        SettingRow::GameSpeed => {
            let now = pct(f64::from(ctx.speed_percent) / 100.0);
            let saved = s.display.game_speed.percent() == ctx.speed_percent;
            ("Game speed".to_owned(), if saved { now } else { format!("{now} (this run)") })
        }
        SettingRow::Invincible => ("Invincible".to_owned(), on_off(s.display.invincible).to_owned()),
        SettingRow::InputDisplay => ("Input display".to_owned(), on_off(s.display.input_display).to_owned()),
        SettingRow::Practice => ("Savestates".to_owned(), on_off(s.display.practice).to_owned()),
        SettingRow::ResetKeys => ("Reset keys to defaults".to_owned(), String::new()),
        SettingRow::Back => ("Back".to_owned(), String::new()),
    };
    // Two columns; a row without a value (reset keys, back) ends at its label.
    format!("{label:<18}  {value:<24}").trim_end().to_owned()
}

/// The settings page; while a key is being rebound, the prompt under it. Its title, list and
/// prompt stay clear of `keep` (the F3 panel).
pub fn settings(
    out: &mut Layer,
    scr: &Screen,
    ctx: &Context<'_>,
    cursor: usize,
    capture: Option<Capture>,
    msg: Option<&str>,
    keep: Option<Rect>,
) {
    out.quads.push(solid(0.0, 0.0, scr.w, scr.h, colors::PANEL, PAUSE_DIM_ALPHA));
    let title = scr.title_px();
    let top = scr.view.y as f32 + scr.view.h as f32 * 0.04;
    let rows: Vec<Row> = setting_rows()
        .into_iter()
        .map(|r| Row { text: setting_text(r, ctx, capture), enabled: changeable(r, ctx.settings) })
        .collect();
    let cx = centre_clear_of(scr, list_width(scr, &rows), keep);
    centred(out, cx, "Settings", top, title, colors::TITLE);
    // As many rows as fit above the rebinding prompt and the hint line; the rest scroll.
    let line = (scr.text_px() * LINE_HEIGHT).round();
    let list_top = top + title * 1.4;
    let room = scr.view.y as f32 + scr.view.h as f32 - list_top - 3.5 * line;
    let max = (room / line).floor().max(1.0) as usize;
    let bottom = scrolled_list(out, scr, &rows, cursor, list_top, cx, max);
    if let Some(m) = msg {
        message(out, scr, m);
    }
    match capture {
        // The prompt under the list: text draws over every quad, so nothing may overlap the
        // list's text.
        Some(c) => {
            let what = if c.device == Device::Keyboard { "a key" } else { "a pad button" };
            let y = bottom + 0.8 * scr.text_px();
            banner(out, scr, cx, &format!("Press {what} for {}", c.bind.name()), y, colors::TITLE);
            hint(out, scr, "Esc / pad Select: cancel  ·  Esc, F3, F11, Start, Select cannot be bound");
        }
        None => hint(out, scr, "Up / Down: choose  ·  Left / Right: change  ·  Enter: rebind  ·  Esc: back"),
    }
}

/// The end screen: the results table ([`end_screen`]) and its choices under it
/// ([`end_items`]: with `finished_run`, the last level's "Watch every attempt" and "Copy run
/// link" too).
pub fn end(
    out: &mut Layer,
    scr: &Screen,
    results: &[LevelResult],
    tick_hz: u32,
    cursor: usize,
    finished_run: bool,
) {
    let items = end_items(finished_run);
    let below = end_screen(out, scr, results, tick_hz, items[cursor.min(items.len() - 1)].0);
    let rows: Vec<Row> = items.iter().map(|(t, _)| row(*t)).collect();
    list(out, scr, &rows, Some(cursor), below, centre_x(scr));
}

/// Draw the page on top of `menu` with `ctx` and `info` into `out` (not cleared).
pub fn draw(out: &mut Layer, scr: &Screen, menu: &Menu, ctx: &Context<'_>, info: &PageInfo<'_>) {
    let cursor = menu.cursor();
    match menu.page() {
        Page::Title => title(out, scr, info.t_s),
        Page::LevelSelect => level_select(out, scr, ctx.levels, cursor, info.tick_hz),
        Page::Pause => pause_menu(out, scr, cursor, ctx, info.keep_clear),
        Page::Settings => settings(out, scr, ctx, cursor, menu.capture(), menu.message(), info.keep_clear),
        Page::End => end(out, scr, info.results, info.tick_hz, cursor, ctx.finished_run),
        Page::Race => race(out, scr, menu, ctx),
    }
    if menu.page() != Page::Settings {
        if let Some(m) = menu.message() {
            message(out, scr, m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::save::Settings;
    use crate::save::progress::LevelRecord;
    use crate::ui::menu::Bind;

    fn texts(out: &Layer) -> String {
        out.text.iter().map(|t| t.text.clone()).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn level_rows_show_best_results_and_locks() {
        let done = LevelEntry {
            name: "First Steps".into(),
            id: "level1".into(),
            record: Some(LevelRecord { best_ticks: 3725, fewest_deaths: 0, deathless: true }),
            open: true,
        };
        let r = level_row(0, &done, 60);
        assert!(
            r.contains("First Steps") && r.contains("1:02.08") && r.contains("0 deaths") && r.ends_with('★'),
            "{r}"
        );
        let locked = LevelEntry { name: "Leap".into(), id: "level3".into(), record: None, open: false };
        assert!(level_row(2, &locked, 60).ends_with("locked"));
        let open = LevelEntry { open: true, ..locked };
        assert_eq!(level_row(2, &open, 60).chars().count(), r.chars().count(), "one column layout");
    }

    #[test]
    fn the_cosmetic_rows_say_what_the_loop_does() {
        let mut s = Settings::default();
        s.display.screen_shake = crate::cosmetic::ShakeLevel::Half;
        s.display.visual_effects = false;
        let ctx = Context { settings: &s, levels: &[], speed_percent: 100, finished_run: false };
        let text = |r| setting_text(r, &ctx, None);
        assert_eq!(text(SettingRow::Effects), "Sound effects       ◀ 100 % ▶");
        assert_eq!(text(SettingRow::ScreenShake), "Screen shake        half");
        assert_eq!(text(SettingRow::Flashes), "Flashes             on");
        assert_eq!(text(SettingRow::VisualEffects), "Visual effects      off");
        assert_eq!(text(SettingRow::Back), "Back", "no padding after a row without a value");
        s.display.reduced_motion = true;
        let ctx = Context { settings: &s, levels: &[], speed_percent: 100, finished_run: false };
        assert_eq!(
            setting_text(SettingRow::ScreenShake, &ctx, None),
            "Screen shake        off (reduced motion)"
        );
        // Drawn dimmed while locked (the cursor on the first row).
        let mut out = Layer::default();
        settings(&mut out, &Screen::new(1280, 720), &ctx, 0, None, None, None);
        let shake = out.text.iter().find(|t| t.text.contains("Screen shake")).unwrap();
        assert_eq!(shake.color, colors::DIM);
        let flashes = out.text.iter().find(|t| t.text.contains("Flashes")).unwrap();
        assert_eq!(flashes.color, colors::TEXT);
    }

    /// The row shows the speed in force; "(this run)" when it is not the saved one
    /// (`--game-speed`, the − / = keys).
    #[test]
    fn the_game_speed_row_says_when_the_speed_is_not_saved() {
        let mut s = Settings::default();
        s.display.game_speed = crate::time::GameSpeed::from_percent(80).unwrap();
        let text = |speed_percent| {
            setting_text(
                SettingRow::GameSpeed,
                &Context { settings: &s, levels: &[], speed_percent, finished_run: false },
                None,
            )
        };
        assert_eq!(text(80), "Game speed          ◀  80 % ▶");
        assert_eq!(text(50), "Game speed          ◀  50 % ▶ (this run)");
    }

    #[test]
    fn every_page_draws_its_words() {
        let scr = Screen::new(1280, 720);
        let s = Settings::default();
        let levels = vec![LevelEntry { name: "One".into(), id: "level1".into(), record: None, open: true }];
        let ctx = Context { settings: &s, levels: &levels, speed_percent: 100, finished_run: false };
        let info = PageInfo { t_s: 0.1, tick_hz: 60, results: &[], keep_clear: None };
        let draw_page = |m: &Menu| {
            let mut out = Layer::default();
            draw(&mut out, &scr, m, &ctx, &info);
            texts(&out)
        };
        let mut m = Menu::new(Page::Title);
        let t = draw_page(&m);
        assert!(t.contains("LEDGE") && t.contains("press any key"), "{t}");
        m.input(super::super::menu::Input::Other, &ctx);
        let t = draw_page(&m);
        assert!(t.contains("▶  1  One") && t.contains("not finished") && t.contains("Settings"), "{t}");
        let t = draw_page(&Menu::new(Page::Pause));
        assert!(t.contains("Paused") && t.contains("▶ Resume") && t.contains("Quit to title"), "{t}");
        let t = draw_page(&Menu::new(Page::End));
        assert!(
            t.contains("You made it!") && t.contains("▶ Play again") && t.contains("Back to title"),
            "{t}"
        );
        let mut out = Layer::default();
        settings(
            &mut out,
            &scr,
            &ctx,
            0,
            Some(Capture { device: Device::Keyboard, bind: Bind::Action(crate::sim::Action::Jump) }),
            None,
            None,
        );
        let t = texts(&out);
        assert!(t.contains("Master volume       ◀ 100 % ▶"), "{t}");
        assert!(
            setting_text(
                SettingRow::Key(Device::Keyboard, Bind::Action(crate::sim::Action::Jump)),
                &ctx,
                None
            )
            .starts_with("Keyboard jump       Space, Z, Up, W")
        );
        assert!(t.contains("Press a key for jump") && t.contains("Keyboard jump       …press one"), "{t}");
    }

    #[test]
    fn the_settings_list_scrolls_to_keep_the_cursor_in_view() {
        let s = Settings::default();
        let ctx = Context { settings: &s, levels: &[], speed_percent: 100, finished_run: false };
        let scr = Screen::new(1280, 720);
        let last = setting_rows().len() - 1;
        let mut top = Layer::default();
        settings(&mut top, &scr, &ctx, 0, None, None, None);
        let t = texts(&top);
        assert!(
            t.contains("Master volume") && t.contains("▼") && !t.contains("Back") && !t.contains("▲"),
            "{t}"
        );
        let mut end = Layer::default();
        settings(&mut end, &scr, &ctx, last, None, None, None);
        let t = texts(&end);
        assert!(t.contains("▶ Back") && t.contains("▲") && !t.contains("Master volume"), "{t}");
        assert!(t.contains("Pad loadstate") && t.contains("R stick click"), "{t}");
        // Nothing of the list below the hint line.
        let lowest = end.text.iter().filter(|i| i.text.contains("Back")).map(|i| i.y).fold(0.0, f32::max);
        assert!(lowest + 2.0 * scr.text_px() < 720.0, "{lowest}");
    }
}
