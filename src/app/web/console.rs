//! `log` to the browser's console: Ledge's own records from info up, other crates' (wgpu,
//! winit, naga) from warn up, the filter the desktop build's `env_logger` default gives
//! (`warn`, with Ledge's info lines shown in the page where the player cannot see stderr).
//!
//! Clock: none.

use web_sys::console;

struct Console;

impl log::Log for Console {
    fn enabled(&self, m: &log::Metadata<'_>) -> bool {
        let ours = m.target() == "ledge" || m.target().starts_with("ledge::");
        m.level() <= if ours { log::Level::Info } else { log::Level::Warn }
    }

    fn log(&self, r: &log::Record<'_>) {
        if !self.enabled(r.metadata()) {
            return;
        }
        let line = format!("{}", r.args());
        let v = wasm_bindgen::JsValue::from_str(&line);
        match r.level() {
            log::Level::Error => console::error_1(&v),
            log::Level::Warn => console::warn_1(&v),
            log::Level::Info => console::info_1(&v),
            _ => console::log_1(&v),
        }
    }

    fn flush(&self) {}
}

/// Install the console logger (once; a second call changes nothing).
pub fn init() {
    static LOGGER: Console = Console;
    if log::set_logger(&LOGGER).is_ok() {
        log::set_max_level(log::LevelFilter::Info);
    }
}
