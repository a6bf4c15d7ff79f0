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
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    if crate::lab::link::is_link(&hash) {
        return run_link(&hash, query.webgl2_only);
    }
    if let Some(url) = &query.lab {
        return run_lab(url).await;
    }
    if let Some(list) = &query.labs {
        return run_labs(list).await;
    }
    if query.bench {
        return run_bench();
    }
    let (save, warnings) = crate::save::Store::open(None);
    for w in warnings {
        log::warn!("ledge: warning: {w}");
    }
    let display = &save.settings().display;
    let opts = crate::app::AppOptions {
        vsync: true,
        reduced_motion: display.reduced_motion,
        game_speed: display.game_speed,
        invincible: display.invincible,
        record: query.record.then(|| "ledge-session.lab".into()),
        race: query.net.clone().map(|net| crate::app::race::RaceStart {
            net,
            players: crate::race::Players::Room(query.players.unwrap_or(2)),
            ice: Vec::new(),
            exit_after: query.exit_after,
        }),
        save,
        ..Default::default()
    };
    crate::app::run_in_page(crate::app::AppOptions { bare: query.bare, ..opts }, query.webgl2_only)
}

/// `#run=…` (a link, `ledge replay --link`, the results' "Copy run link"): the run in it
/// decoded and replayed headless, as `?lab=` replays a script, its summary report on
/// `window.ledgeLabReport`; then played in the page's replay window (`crate::app::replay`:
/// Space pause, ←/→ a tick, R rewind, −/= speed), as `ledge replay LINK` does natively.
///
/// # Errors
/// A bad link (not base64url, not DEFLATE, too big), or a run the lab refuses (an edited level).
fn run_link(hash: &str, webgl2_only: bool) -> anyhow::Result<()> {
    let text = crate::lab::link::decode(hash).map_err(|e| {
        let line = e.to_string();
        page::set_global("ledgeLabError", &line.as_str().into());
        anyhow::anyhow!(line)
    })?;
    report_lab(&text, "link", Path::new(""))?;
    let (save, warnings) = crate::save::Store::open(None);
    for w in warnings {
        log::warn!("ledge: warning: {w}");
    }
    let replay = crate::app::replay::ReplaySource { text, name: "link".into(), dir: Path::new("").into() };
    let opts = crate::app::AppOptions { vsync: true, save, replay: Some(replay), ..Default::default() };
    crate::app::run_in_page(opts, webgl2_only)
}

/// `?lab=URL`: the script fetched, run, its summary report on `window.ledgeLabReport`.
async fn run_lab(url: &str) -> anyhow::Result<()> {
    let bytes = fetch::bytes(url).await?;
    let path = Path::new(url);
    crate::preloaded::install(path, bytes);
    let text = crate::read_limit::read_text_at_most(path, crate::lab::script::MAX_SCRIPT_BYTES)
        .map_err(|e| anyhow::anyhow!("{url}: {e}"))?;
    report_lab(&text, url, path.parent().unwrap_or(Path::new("")))
}

/// Run `text` (named `name`, in folder `dir`) as `ledge lab SCRIPT --summary` and put its report
/// on `window.ledgeLabReport` (its one error line on `window.ledgeLabError`).
fn report_lab(text: &str, name: &str, dir: &Path) -> anyhow::Result<()> {
    let opts = crate::lab::LabOptions {
        script_name: name.to_owned(),
        script_dir: dir.to_path_buf(),
        summary_only: true,
        force: false,
    };
    match crate::lab::run_script(text, &opts) {
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

/// `?labs=LIST`: every script the list names (`SCRIPT_URL [--recut R]` a line, relative to the
/// page; blank lines and `#` comments skipped) run as `ledge lab SCRIPT --summary [--recut R]`;
/// `window.ledgeLabReports` is then an array of `{"script", "recut", "state_hash"}`, or
/// `"error"` (the lab's one line) in place of the hash for a script the lab refuses.
async fn run_labs(list: &str) -> anyhow::Result<()> {
    let text = fetch::text(list).await?;
    let mut runs = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (script, recut) = match line.split_once(" --recut ") {
            Some((s, r)) => (s.trim(), Some(r.trim())),
            None => (line, None),
        };
        runs.push((script, recut));
    }
    let mut scripts: Vec<&str> = runs.iter().map(|(s, _)| *s).collect();
    scripts.dedup();
    fetch::all(&scripts).await?;
    let mut out = Vec::new();
    for (script, recut) in runs {
        let result = run_one(script, recut);
        let mut row = serde_json::json!({ "script": script, "recut": recut });
        match result {
            Ok(report) => row["state_hash"] = report.summary.state_hash.into(),
            Err(line) => row["error"] = line.into(),
        }
        out.push(row);
    }
    log::info!("ledge: {} lab runs from {list}", out.len());
    page::set_global_json("ledgeLabReports", &serde_json::Value::Array(out).to_string());
    Ok(())
}

/// One fetched script run (`--summary`, re-cut by `recut` when given); the lab's one line when
/// it refuses.
fn run_one(script: &str, recut: Option<&str>) -> Result<crate::lab::report::Report, String> {
    let path = Path::new(script);
    let text = crate::read_limit::read_text_at_most(path, crate::lab::script::MAX_SCRIPT_BYTES)
        .map_err(|e| format!("{script}: {e}"))?;
    let opts = crate::lab::LabOptions {
        script_name: script.to_owned(),
        script_dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
        summary_only: true,
        force: false,
    };
    match recut {
        None => crate::lab::run_script(&text, &opts).map_err(|e| e.to_string()),
        Some(r) => {
            let recut: crate::lab::recut::Recut = r.parse().map_err(|e| format!("--recut {r}: {e}"))?;
            crate::lab::recut::run_recut(&text, &opts, recut, &mut |_, _| Ok(())).map_err(|e| e.to_string())
        }
    }
}

/// `?bench=rollback`: the race's re-simulation cost in this browser ([`crate::net::resim`], the
/// native criterion bench's work): 200 rollbacks to warm up, then 20 batches of 100 timed with
/// `performance.now()`; `window.ledgeBench` is `{"bench", "level", "batches", "per_batch",
/// "mean_us", "best_us", "worst_us"}` (µs per rollback: the mean of all, the best and worst
/// batch).
fn run_bench() -> anyhow::Result<()> {
    use crate::net::resim::{Resim, largest};
    let levels: Vec<(String, crate::level::Level)> = (1..=12)
        .map(|n| {
            let name = format!("level{n}.tmx");
            let path =
                crate::assets::assets_dir().map_err(|e| anyhow::anyhow!("{e}"))?.join("levels").join(&name);
            Ok((name, crate::level::tiled_map::load_tmx(&path)?))
        })
        .collect::<anyhow::Result<_>>()?;
    let i = largest(&levels).ok_or_else(|| anyhow::anyhow!("no levels"))?;
    let (name, level) = levels[i].clone();
    let tuning_path = crate::assets::assets_dir().map_err(|e| anyhow::anyhow!("{e}"))?.join("tuning.toml");
    let mut resim = Resim::new(level, crate::sim::Tuning::load(&tuning_path)?);
    let perf = web_sys::window()
        .and_then(|w| w.performance())
        .ok_or_else(|| anyhow::anyhow!("no performance.now()"))?;
    let mut sink = 0u64;
    for _ in 0..200 {
        sink ^= resim.rollback();
    }
    const BATCHES: usize = 20;
    const PER_BATCH: usize = 100;
    let mut batch_us = Vec::with_capacity(BATCHES);
    for _ in 0..BATCHES {
        let t0 = perf.now();
        for _ in 0..PER_BATCH {
            sink ^= resim.rollback();
        }
        batch_us.push((perf.now() - t0) * 1000.0 / PER_BATCH as f64);
    }
    let mean = batch_us.iter().sum::<f64>() / BATCHES as f64;
    let best = batch_us.iter().copied().fold(f64::INFINITY, f64::min);
    let worst = batch_us.iter().copied().fold(0.0, f64::max);
    let json = serde_json::json!({
        "bench": "rollback", "level": name, "batches": BATCHES, "per_batch": PER_BATCH,
        "mean_us": mean, "best_us": best, "worst_us": worst, "sink": sink.to_string(),
    });
    log::info!("ledge: rollback bench in the browser: {json}");
    page::set_global_json("ledgeBench", &json.to_string());
    Ok(())
}
