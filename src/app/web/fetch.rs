//! Fetching the page's files into memory ([`crate::preloaded`]) with the browser's `fetch`.
//!
//! Clock: none (at page load, before the event loop starts).

use crate::read_limit::too_big;
use std::path::Path;
use wasm_bindgen::JsCast as _;
use wasm_bindgen_futures::JsFuture;

/// Largest file fetched, bytes: the largest limit any of Ledge's readers has (a lab script,
/// 64 MiB); each reader's own limit still applies when it reads the file.
pub const MAX_FETCH_BYTES: u64 = 64 << 20;

fn js(url: &str, e: wasm_bindgen::JsValue) -> anyhow::Error {
    let what = e
        .dyn_ref::<js_sys::Error>()
        .and_then(|e| e.message().as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "failed".to_owned());
    anyhow::anyhow!("{url}: cannot fetch ({what})")
}

/// The file at `url` (relative to the page), whole.
///
/// # Errors
/// One line naming `url`: the network refused it, the server answered other than 200–299
/// (`404 Not Found`), or it is over [`MAX_FETCH_BYTES`].
pub async fn bytes(url: &str) -> anyhow::Result<Vec<u8>> {
    let window = web_sys::window().ok_or_else(|| anyhow::anyhow!("no window"))?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(|e| js(url, e))?;
    let response: web_sys::Response = response.dyn_into().map_err(|e| js(url, e))?;
    if !response.ok() {
        anyhow::bail!("{url}: {} {}", response.status(), response.status_text());
    }
    let buffer =
        JsFuture::from(response.array_buffer().map_err(|e| js(url, e))?).await.map_err(|e| js(url, e))?;
    let array = js_sys::Uint8Array::new(&buffer);
    if u64::from(array.length()) > MAX_FETCH_BYTES {
        return Err(anyhow::anyhow!("{url}: {}", too_big(Some(u64::from(array.length())), MAX_FETCH_BYTES)));
    }
    Ok(array.to_vec())
}

/// Every file `manifest` lists (one path per line, relative to the page; blank lines and
/// `#` comments skipped), fetched at once and installed under its path.
///
/// # Errors
/// The manifest or one of its files cannot be fetched (the first such, one line).
pub async fn assets(manifest: &str) -> anyhow::Result<()> {
    let list = text(manifest).await?;
    let paths: Vec<&str> =
        list.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    all(&paths).await?;
    log::info!("ledge: {} files fetched from {manifest}", paths.len());
    Ok(())
}

/// The text file at `url`.
///
/// # Errors
/// As [`bytes`], or it is not UTF-8.
pub async fn text(url: &str) -> anyhow::Result<String> {
    String::from_utf8(bytes(url).await?).map_err(|_| anyhow::anyhow!("{url}: is not UTF-8 text"))
}

/// Every file in `paths` (relative to the page), fetched at once and installed under its path.
///
/// # Errors
/// One of them cannot be fetched (the first such, one line).
pub async fn all(paths: &[&str]) -> anyhow::Result<()> {
    // Every request at once (Promise.all), each its own future; the first failure wins.
    let promises: js_sys::Array = paths
        .iter()
        .map(|p| {
            let p = p.to_string();
            wasm_bindgen_futures::future_to_promise(async move {
                let b = bytes(&p).await.map_err(|e| wasm_bindgen::JsValue::from_str(&e.to_string()))?;
                Ok(js_sys::Uint8Array::from(&b[..]).into())
            })
        })
        .collect();
    let all = JsFuture::from(js_sys::Promise::all(&promises))
        .await
        .map_err(|e| anyhow::anyhow!(e.as_string().unwrap_or_else(|| "a file failed to fetch".to_owned())))?;
    let all: js_sys::Array = all.unchecked_into();
    for (p, v) in paths.iter().zip(all.iter()) {
        crate::preloaded::install(Path::new(p), js_sys::Uint8Array::new(&v).to_vec());
    }
    Ok(())
}
