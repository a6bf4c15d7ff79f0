//! The game in a browser page (wasm32-unknown-unknown): what differs from a desktop window.
//!
//! - The GPU opens off the event loop (a browser cannot block: `Graphics::open_in_page`); the
//!   result comes back through [`GraphicsSlot`] and a wake-up of the event loop.
//! - Sound starts on the first key press or click: an `AudioContext` made before a user
//!   gesture stays suspended (kira #43, bevy_kira_audio #83). Until then the page's
//!   `<div id="ledge-start">` says "press a key to start"; it is hidden then.
//! - A hidden tab (`visibilitychange`) pauses like a lost focus: its `requestAnimationFrame`
//!   stops and its timers are throttled, and the game clock must not run meanwhile; the
//!   frame clamp and the catch-up cap cover what is left.
//! - The page reads what the game did from `window`: `ledgeBackend` ("WebGPU" or "WebGL2"),
//!   `ledgeFrames` (frames presented), `ledgeScreen` (`title`, `playing level2.tmx`,
//!   `paused level2.tmx`, `finished`), `ledgeError` (why it stopped), and at the end
//!   `ledgeExitSummary` (the exit summary's JSON) and, with `?record`, `ledgeRecording` (the
//!   lab script).
//!
//! Clock: event loop (the browser's).

use super::{App, Graphics, session::Mode};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast as _;
use wasm_bindgen::prelude::Closure;
use winit::event_loop::{ActiveEventLoop, EventLoopProxy};

/// The id of the page's canvas the game draws on.
pub const CANVAS_ID: &str = "ledge";

/// The id of the page's "press a key to start" notice, hidden at the first gesture.
pub const START_ID: &str = "ledge-start";

/// Where the GPU opened off the event loop is left for it.
pub(super) type GraphicsSlot = Rc<RefCell<Option<anyhow::Result<Graphics>>>>;

/// The page's part of the app's state.
#[derive(Default)]
pub(super) struct Page {
    /// `?backend=webgl2`: no WebGPU.
    pub(super) webgl2_only: bool,
    /// Wakes the event loop when the GPU is open.
    pub(super) proxy: Option<EventLoopProxy<()>>,
    /// The GPU being opened (`Some` from `resumed` on).
    pub(super) slot: Option<GraphicsSlot>,
    /// The game's window: events of another (one replaced after a lost device, whose removed
    /// canvas reports itself hidden and unfocused) are not the game's.
    pub(super) window: Option<winit::window::WindowId>,
    /// Sound started (the first key press or click happened).
    pub(super) sound_started: bool,
    /// What `window.ledgeScreen` says now.
    screen: String,
    /// A race's end is on `window` (`ledgeRaceSummary` or `ledgeRaceError`).
    race_published: bool,
}

impl std::fmt::Debug for Page {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Page").field("webgl2_only", &self.webgl2_only).finish_non_exhaustive()
    }
}

/// Set `window[name] = value`.
pub fn set_global(name: &str, value: &wasm_bindgen::JsValue) {
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &name.into(), value);
    }
}

/// Set `window[name]` to the object `json` (JSON text).
pub fn set_global_json(name: &str, json: &str) {
    match js_sys::JSON::parse(json) {
        Ok(v) => set_global(name, &v),
        Err(_) => log::error!("ledge: {name}: not JSON"),
    }
}

/// The results' "Copy run link": `fragment` (`#run=…`, [`crate::lab::link`]) after this page's
/// own address, set as `window.ledgeRunLink` and written to the clipboard
/// (`navigator.clipboard.writeText`, called through `Reflect`: no more web-sys features; a
/// browser that refuses, e.g. without focus, leaves the link on `window.ledgeRunLink` and in
/// the console). Returns the link.
pub fn copy_link(fragment: &str) -> String {
    let Some(w) = web_sys::window() else { return fragment.to_owned() };
    let here = w.location();
    let base = format!("{}{}", here.origin().unwrap_or_default(), here.pathname().unwrap_or_default());
    let link = format!("{base}{fragment}");
    set_global("ledgeRunLink", &link.as_str().into());
    log::info!("ledge: run link: {link}");
    let get = |o: &wasm_bindgen::JsValue, k: &str| {
        js_sys::Reflect::get(o, &k.into()).ok().filter(|v| !v.is_undefined())
    };
    let write = get(&w, "navigator").and_then(|n| get(&n, "clipboard")).and_then(|c| {
        let f = get(&c, "writeText")?;
        let f: &js_sys::Function = wasm_bindgen::JsCast::dyn_ref(&f)?;
        f.call1(&c, &link.as_str().into()).ok()
    });
    match write.and_then(|p| wasm_bindgen::JsCast::dyn_into::<js_sys::Promise>(p).ok()) {
        Some(p) => {
            let refused = wasm_bindgen::closure::Closure::<dyn FnMut(wasm_bindgen::JsValue)>::new(|_| {
                log::warn!("ledge: the clipboard refused the link: it is on window.ledgeRunLink");
            });
            let _ = p.catch(&refused);
            refused.forget();
        }
        None => log::warn!("ledge: no clipboard here: the link is on window.ledgeRunLink"),
    }
    link
}

/// A fatal error: `window.ledgeError`, and the console.
pub fn report_error(e: &anyhow::Error) {
    let text = format!("{e:#}").replace('\n', " ");
    log::error!("ledge: {text}");
    set_global("ledgeError", &text.as_str().into());
}

/// Wake the event loop (`App::user_event`) whenever the tab is hidden or shown.
pub fn watch_visibility(proxy: EventLoopProxy<()>) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let wake = Closure::<dyn FnMut()>::new(move || {
        let _ = proxy.send_event(());
    });
    let _ = doc.add_event_listener_with_callback("visibilitychange", wake.as_ref().unchecked_ref());
    // The listener lives as long as the page.
    wake.forget();
}

/// Put a fresh `<canvas id="ledge">` in the page's in its place: a shallow copy (the same id,
/// attributes and place; no drawing context), focused if the old one was. A canvas keeps the
/// first kind of context it gave (a lost WebGPU one cannot become WebGL2).
///
/// # Errors
/// No document or no canvas with id `ledge`, or the DOM refused the swap.
fn fresh_canvas() -> anyhow::Result<()> {
    let doc = web_sys::window().and_then(|w| w.document()).ok_or_else(|| anyhow::anyhow!("no document"))?;
    let old = doc
        .get_element_by_id(CANVAS_ID)
        .ok_or_else(|| anyhow::anyhow!("the page has no <canvas id=\"{CANVAS_ID}\">"))?;
    let focused = doc.active_element().is_some_and(|a| a.is_same_node(Some(&old)));
    let js = |e: wasm_bindgen::JsValue| anyhow::anyhow!("cannot replace the canvas: {e:?}");
    let new = old.clone_node().map_err(js)?;
    old.replace_with_with_node_1(&new).map_err(js)?;
    if focused && let Some(e) = new.dyn_ref::<web_sys::HtmlElement>() {
        let _ = e.focus();
    }
    Ok(())
}

fn tab_hidden() -> bool {
    web_sys::window().and_then(|w| w.document()).is_some_and(|d| d.hidden())
}

/// The exit summary (and the recording) to the page and the console.
pub fn exit_summary(summary: &super::Summary, recording: Option<&str>) {
    log::info!("{}", summary.line());
    set_global_json("ledgeExitSummary", &summary.to_json().to_string());
    if let Some(text) = recording {
        set_global("ledgeRecording", &text.into());
    }
}

impl App {
    /// `resumed` in a page: the window on the canvas; the GPU opens off the event loop.
    pub(super) fn open_in_page(&mut self, event_loop: &ActiveEventLoop) -> anyhow::Result<()> {
        if self.page.slot.is_some() {
            return Ok(());
        }
        let proxy = self.page.proxy.clone().ok_or_else(|| anyhow::anyhow!("no event loop proxy"))?;
        let slot = GraphicsSlot::default();
        self.page.window =
            Some(Graphics::open_in_page(event_loop, self.page.webgl2_only, slot.clone(), proxy)?);
        self.page.slot = Some(slot);
        Ok(())
    }

    /// After a lost device: a fresh canvas in the old one's place ([`fresh_canvas`]) and a new
    /// GPU opened on it off the event loop, WebGL2 only if `webgl2_only`; [`App::page_event`]
    /// takes it.
    ///
    /// # Errors
    /// The page has no canvas to replace, or no window could be made on the new one.
    pub(super) fn reopen_in_page(
        &mut self,
        event_loop: &ActiveEventLoop,
        webgl2_only: bool,
    ) -> anyhow::Result<()> {
        fresh_canvas()?;
        let proxy = self.page.proxy.clone().ok_or_else(|| anyhow::anyhow!("no event loop proxy"))?;
        let slot = GraphicsSlot::default();
        self.page.window = Some(Graphics::open_in_page(event_loop, webgl2_only, slot.clone(), proxy)?);
        self.page.slot = Some(slot);
        self.device_loss.reopening = Some(webgl2_only);
        Ok(())
    }

    /// A fatal error in a page: reported to it, and the event loop ends.
    pub(super) fn fail(&mut self, event_loop: &ActiveEventLoop, e: anyhow::Error) {
        report_error(&e);
        self.error = Some(e);
        event_loop.exit();
    }

    /// The event loop was woken for the page: the GPU is open (or failed), or the tab was
    /// hidden (which pauses, as a lost focus does).
    pub(super) fn page_event(&mut self, event_loop: &ActiveEventLoop) {
        let opened = self.page.slot.as_ref().and_then(|s| s.borrow_mut().take());
        match opened {
            Some(Ok(gfx)) => {
                let backend = match gfx.gpu.ctx.info.backend.as_str() {
                    "BrowserWebGpu" => "WebGPU",
                    "Gl" => "WebGL2",
                    other => other,
                }
                .to_owned();
                set_global("ledgeBackend", &backend.as_str().into());
                if self.device_loss.reopening.take().is_some() {
                    self.device_reopened(gfx, &backend);
                } else {
                    self.graphics_ready(gfx);
                }
            }
            // WebGPU could not be had again after a loss: WebGL2 on a fresh canvas.
            Some(Err(e)) if self.device_loss.reopening == Some(false) => {
                log::warn!("ledge: WebGPU again: {e:#}; opening WebGL2");
                if let Err(e) = self.reopen_in_page(event_loop, true) {
                    self.fail(event_loop, e);
                }
            }
            Some(Err(e)) => self.fail(event_loop, e),
            None => {}
        }
        if tab_hidden() {
            log::info!("tab hidden: paused");
            self.pause();
        }
    }

    /// A key press or click: the first one starts the sound and hides the page's notice.
    pub(super) fn gesture(&mut self) {
        if std::mem::replace(&mut self.page.sound_started, true) {
            return;
        }
        self.start_audio();
        if let Some(e) =
            web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(START_ID))
        {
            let _ = e.set_attribute("hidden", "");
        }
    }

    /// After each presented frame: `window.ledgeFrames`, and `window.ledgeScreen` when it
    /// changed.
    /// A race's news for the page: its notices in the console, and once over
    /// `window.ledgeRaceSummary` (the summary's fields, NET.md) or, once refused,
    /// `window.ledgeRaceError` (its one line), each set once.
    pub(super) fn race_page(&mut self) {
        let Some(race) = &mut self.race else { return };
        for line in race.notices.drain(..) {
            log::warn!("{line}");
        }
        if self.page.race_published {
            return;
        }
        match &race.standing {
            super::race::Standing::Over(end) => {
                for line in end.summary.lines() {
                    log::info!("{line}");
                }
                let json = serde_json::to_string(&end.summary).unwrap_or_default();
                set_global_json("ledgeRaceSummary", &json);
                self.page.race_published = true;
            }
            super::race::Standing::Failed(line) => {
                log::error!("ledge: {line}");
                set_global("ledgeRaceError", &line.as_str().into());
                self.page.race_published = true;
            }
            _ => {}
        }
    }

    pub(super) fn page_frame(&mut self) {
        let presented = self.gfx.as_ref().map_or(0, |g| g.gpu.stats().presented);
        set_global("ledgeFrames", &(presented as f64).into());
        let file = self.session.level_path.file_name().map(|f| f.to_string_lossy()).unwrap_or_default();
        let screen = match self.session.mode {
            Mode::Title => "title".to_owned(),
            Mode::Playing => format!("playing {file}"),
            Mode::Paused => format!("paused {file}"),
            Mode::Finished => "finished".to_owned(),
        };
        if screen != self.page.screen {
            set_global("ledgeScreen", &screen.as_str().into());
            self.page.screen = screen;
        }
    }
}
