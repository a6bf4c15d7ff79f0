//! The page's entry: the console logger, the assets fetched, then the lab or the game (see
//! [`super`]).
//!
//! Clock: none of its own: it runs once at page load, before the event loop starts.

use super::{MANIFEST, Query, console, fetch};
use crate::app::page;
use std::path::Path;

/// The page's entry (`main` of the wasm build): the console logger, then [`start`] off the
/// page's load; a failure is one line in the console and `window.ledgeError`.
pub fn main() {
    console_error_panic_hook::set_once();
    console::init();
    wasm_bindgen_futures::spawn_local(async {
        if let Err(e) = start().await {
            page::report_error(&e);
        }
    });
}

/// Fetch the assets, then run the lab script or the game the query asks for.
///
/// # Errors
/// A bad query, a file that cannot be fetched, a lab script refused, a game that cannot start.
pub async fn start() -> anyhow::Result<()> {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let query = Query::parse(&search).map_err(anyhow::Error::msg)?;
    fetch::assets(MANIFEST).await?;
    if let Some(url) = &query.lab {
        return run_lab(url).await;
    }
    let (save, warnings) = crate::save::Store::open(None);
    for w in warnings {
        log::warn!("ledge: warning: {w}");
    }
    let display = &save.settings().display;
    let opts = crate::app::AppOptions {
        vsync: true,
        reduced_motion: display.reduced_motion,
        record: query.record.then(|| "ledge-session.lab".into()),
        save,
        ..Default::default()
    };
    crate::app::run_in_page(opts, query.webgl2_only)
}

/// `?lab=URL`: the script fetched, run, its summary report on `window.ledgeLabReport`.
async fn run_lab(url: &str) -> anyhow::Result<()> {
    let bytes = fetch::bytes(url).await?;
    let path = Path::new(url);
    crate::preloaded::install(path, bytes);
    let text = crate::read_limit::read_text_at_most(path, crate::lab::script::MAX_SCRIPT_BYTES)
        .map_err(|e| anyhow::anyhow!("{url}: {e}"))?;
    let opts = crate::lab::LabOptions {
        script_name: url.to_owned(),
        script_dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
        summary_only: true,
        force: false,
    };
    match crate::lab::run_script(&text, &opts) {
        Ok(report) => {
            let json = report.to_json();
            web_sys::console::log_1(&json.as_str().into());
            page::set_global_json("ledgeLabReport", &json);
            Ok(())
        }
        Err(e) => {
            let line = e.to_string();
            page::set_global("ledgeLabError", &line.as_str().into());
            Err(anyhow::anyhow!(line))
        }
    }
}
