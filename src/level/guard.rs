//! The check every map, tileset and template passes *before* `tiled` parses it: well-formed
//! XML, the stated limits, and tile layer data that decodes to exactly width × height cells.
//!
//! Why before: `tiled` 0.16 inflates a layer with `read_to_end` and no bound (flate2-rs#260),
//! so a 1.4 MB map whose zlib layer inflates to 1 GiB of zeros took 6.3 GB; it keeps a layer's
//! cells without checking their count, so a short `<data>` block panics on read; and it
//! reserves a tileset's `tilecount` entries up front. Here a layer is inflated into a sink
//! through a reader that stops one byte past the expected size, so a bomb costs an 8 KiB buffer
//! and microseconds, and no check depends on catching a panic: the same file gives the same
//! one line on every target, the browser included (wasm32 aborts on a panic).
//!
//! Clock: none (runs once per file read, before the first frame or between ticks on a reload).

use base64::Engine;
use quick_xml::events::{BytesStart, Event};
use std::io::Read;
use std::path::Path;

/// Largest map file, bytes: 4 MiB. The largest shipped level (`level11.tmx`, 250 x 44 tiles
/// in CSV) is 31 KB; a map at [`MAX_LAYER_CELLS`] written as CSV is about 1 MB.
pub const MAX_MAP_BYTES: u64 = 4 << 20;

/// Largest tileset file (`.tsx`), bytes: 1 MiB (`ledge.tsx` is under 4 KB).
pub const MAX_TILESET_BYTES: u64 = 1 << 20;

/// Largest object template file (`.tx`), bytes: 256 KiB (a template is one object).
pub const MAX_TEMPLATE_BYTES: u64 = 256 << 10;

/// Largest map or layer side, tiles: 2048 (the widest shipped level is 250).
pub const MAX_SIDE: u64 = 2048;

/// Most cells in one tile layer: 262,144 (= 512 x 512; 24 times level 11's 11,000).
pub const MAX_LAYER_CELLS: u64 = 262_144;

/// Most cells in all tile layers of a map together: 1,048,576 (four full-size layers). At
/// `tiled`'s 12 bytes a cell plus Ledge's own grid, a map at this limit costs under 32 MB.
pub const MAX_TOTAL_CELLS: u64 = 1_048_576;

/// Most objects in one file (a map's object layers, a tileset's collision shapes, a
/// template): 4096 (the busiest shipped level has under 100).
pub const MAX_OBJECTS: usize = 4096;

/// Most properties on one element (a map, layer, tile or object): 64 (Ledge reads at most 6).
pub const MAX_PROPERTIES: usize = 64;

/// Most tiles a tileset may declare (`tilecount`): 65,536 (the atlas has 128; `tiled`
/// reserves an entry for each before reading the rest).
pub const MAX_TILECOUNT: u64 = 65_536;

/// Deepest element nesting: 32 (a map is 4 deep; `tiled` parses nested groups recursively).
pub const MAX_DEPTH: usize = 32;

/// The size limit for a file the map loader reads, by its extension: `.tsx`
/// [`MAX_TILESET_BYTES`], `.tx` [`MAX_TEMPLATE_BYTES`], anything else (the map)
/// [`MAX_MAP_BYTES`].
pub fn file_limit(path: &Path) -> u64 {
    match path.extension().and_then(|e| e.to_str()) {
        Some("tsx") => MAX_TILESET_BYTES,
        Some("tx") => MAX_TEMPLATE_BYTES,
        _ => MAX_MAP_BYTES,
    }
}

/// Checks one map, tileset or template file's bytes.
///
/// # Errors
///
/// A one-line message starting `line N: ` (1-based, where the problem is) for: XML that is not
/// well formed; an infinite map; a map or layer side over [`MAX_SIDE`] or cell count over
/// [`MAX_LAYER_CELLS`] / [`MAX_TOTAL_CELLS`]; more than [`MAX_OBJECTS`] objects,
/// [`MAX_PROPERTIES`] properties on an element, [`MAX_TILECOUNT`] tiles or [`MAX_DEPTH`]
/// levels of nesting; a tileset grid `tiled` cannot lay out; tile layer data that is not CSV or
/// Base64 (plain, zlib, gzip or zstd), is not valid Base64, or does not hold exactly
/// width × height cells (for Base64: width × height × 4 bytes once decompressed).
pub fn check(bytes: &[u8]) -> Result<(), String> {
    let mut reader = quick_xml::Reader::from_reader(bytes);
    let mut walk = Walk::default();
    loop {
        let at = reader.buffer_position();
        let event = reader.read_event().map_err(|e| {
            let line = line_at(bytes, reader.buffer_position());
            format!("line {line}: not well-formed XML: {e}")
        })?;
        let line = || line_at(bytes, at);
        match event {
            Event::Start(e) => {
                walk.open(&e, line()).map_err(|m| format!("line {}: {m}", line()))?;
                walk.stack.push(e.local_name().as_ref().to_vec());
            }
            Event::Empty(e) => {
                walk.open(&e, line()).map_err(|m| format!("line {}: {m}", line()))?;
                walk.stack.push(e.local_name().as_ref().to_vec());
                walk.close().map_err(|(l, m)| format!("line {l}: {m}"))?;
            }
            Event::End(_) => walk.close().map_err(|(l, m)| format!("line {l}: {m}"))?,
            Event::Text(t) => {
                if let Some(data) = walk.data.as_mut().filter(|d| d.text.is_none()) {
                    let text = t.unescape().map_err(|e| format!("line {}: bad text: {e}", line()))?;
                    data.text = Some(text.into_owned());
                }
            }
            Event::CData(t) => {
                if let Some(data) = walk.data.as_mut().filter(|d| d.text.is_none()) {
                    data.text = Some(String::from_utf8_lossy(&t).into_owned());
                }
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

/// 1-based line of byte offset `pos`.
fn line_at(bytes: &[u8], pos: usize) -> usize {
    1 + bytes[..pos.min(bytes.len())].iter().filter(|&&b| b == b'\n').count()
}

/// The walk's state between events.
#[derive(Default)]
struct Walk {
    /// Local names (what `tiled` matches: `x:layer` is a `layer`) of the open elements,
    /// outermost first.
    stack: Vec<Vec<u8>>,
    /// Property counts of the open `<properties>` elements.
    properties: Vec<usize>,
    objects: usize,
    total_cells: u64,
    /// The open `<layer>`s, outermost first: each one's name and size (width, height), when it
    /// gave one. A stack, so that a `<layer>` inside a `<layer>` (which `tiled` skips) does not
    /// make the guard forget the size of the one `tiled` reads.
    layers: Vec<Option<(String, (u64, u64))>>,
    /// The open `<data>` of a tile layer.
    data: Option<Data>,
    /// The open `<tileset>`'s margin, when it has no `columns` (then `tiled` computes them from
    /// the image's width and the margin).
    tileset_margin: Option<u64>,
}

/// A tile layer's `<data>` being read.
struct Data {
    encoding: Option<String>,
    compression: Option<String>,
    line: usize,
    /// Its first text or CDATA node (what `tiled` decodes).
    text: Option<String>,
    /// The layer's name and size.
    layer: (String, (u64, u64)),
}

/// The attribute `key` of `e`, unescaped, as `tiled` reads it: by local name (`x:width` is a
/// `width`), the last one written winning (`None` when absent or not decodable: `tiled` then
/// reports it).
fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .filter(|a| a.key.local_name().as_ref() == key.as_bytes())
        .last()
        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
}

/// The attribute `key` as a number (`None` when absent or not a `u32`, as `tiled` parses it).
fn number(e: &BytesStart<'_>, key: &str) -> Option<u64> {
    attr(e, key).and_then(|v| v.parse::<u32>().ok()).map(u64::from)
}

impl Walk {
    fn parent(&self) -> Option<&[u8]> {
        self.stack.last().map(Vec::as_slice)
    }

    /// An element opens (`line`: where).
    fn open(&mut self, e: &BytesStart<'_>, line: usize) -> Result<(), String> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(format!("elements nested more than {MAX_DEPTH} deep"));
        }
        // quick-xml reads attributes lazily: a malformed one is found here, with its line,
        // rather than by `tiled` with a byte position.
        for a in e.attributes() {
            a.map_err(|e| format!("not well-formed XML: {e}"))?;
        }
        if let Some(data) = &self.data {
            // `tiled` skips an element inside `<data>` and reads the first text after it, which
            // this walk would not count: Tiled writes only text there (its old XML format's
            // `<tile>` elements are refused as a format).
            let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
            let why = format_error(data)
                .unwrap_or_else(|| format!("<{name}> inside the data: Tiled writes only text there"));
            return Err(format!("layer '{}': {why}", data.layer.0));
        }
        match e.local_name().as_ref() {
            b"map" => {
                if attr(e, "infinite").as_deref() == Some("1") {
                    return Err("infinite maps are not supported".to_owned());
                }
                if let (Some(w), Some(h)) = (number(e, "width"), number(e, "height")) {
                    check_size("map", w, h)?;
                }
            }
            b"layer" => {
                let layer = match (number(e, "width"), number(e, "height")) {
                    (Some(w), Some(h)) => {
                        check_size("layer", w, h)?;
                        self.total_cells += w * h;
                        if self.total_cells > MAX_TOTAL_CELLS {
                            return Err(format!(
                                "the tile layers hold more than {MAX_TOTAL_CELLS} cells together"
                            ));
                        }
                        Some((attr(e, "name").unwrap_or_default(), (w, h)))
                    }
                    _ => None,
                };
                self.layers.push(layer);
            }
            b"data" if self.parent() == Some(b"layer") => {
                self.data = self.layers.last().cloned().flatten().map(|layer| Data {
                    encoding: attr(e, "encoding"),
                    compression: attr(e, "compression"),
                    line,
                    text: None,
                    layer,
                });
            }
            b"chunk" => return Err("infinite maps (layer chunks) are not supported".to_owned()),
            b"object" => {
                self.objects += 1;
                if self.objects > MAX_OBJECTS {
                    return Err(format!("more than {MAX_OBJECTS} objects"));
                }
            }
            b"properties" => self.properties.push(0),
            b"property" if self.parent() == Some(b"properties") => {
                if let Some(n) = self.properties.last_mut() {
                    *n += 1;
                    if *n > MAX_PROPERTIES {
                        return Err(format!("more than {MAX_PROPERTIES} properties on one element"));
                    }
                }
            }
            b"tileset" => {
                if number(e, "tilecount").is_some_and(|n| n > MAX_TILECOUNT) {
                    return Err(format!("tileset declares more than {MAX_TILECOUNT} tiles"));
                }
                for key in ["tilewidth", "tileheight", "spacing", "margin"] {
                    if number(e, key).is_some_and(|n| n > 4096) {
                        return Err(format!("tileset {key} over 4096 px"));
                    }
                }
                self.tileset_margin = match attr(e, "columns") {
                    Some(_) => None,
                    None => Some(number(e, "margin").unwrap_or(0)),
                };
            }
            b"image" if self.parent() == Some(b"tileset") => {
                if let Some(margin) = self.tileset_margin {
                    let width = attr(e, "width").and_then(|w| w.parse::<i64>().ok()).unwrap_or(0);
                    if width < margin as i64 {
                        return Err(format!(
                            "tileset image width {width} px is less than its margin {margin} px \
                             (and the tileset gives no 'columns')"
                        ));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The innermost element closes; errors carry their own line.
    fn close(&mut self) -> Result<(), (usize, String)> {
        let name = self.stack.pop().unwrap_or_default();
        match name.as_slice() {
            b"properties" => {
                self.properties.pop();
            }
            b"layer" => {
                self.layers.pop();
            }
            b"tileset" => self.tileset_margin = None,
            b"data" => {
                if let Some(data) = self.data.take() {
                    let name = &data.layer.0;
                    check_data(&data).map_err(|m| (data.line, format!("layer '{name}': {m}")))?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

fn check_size(what: &str, w: u64, h: u64) -> Result<(), String> {
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(format!("{what} is {w}x{h} tiles; the most is {MAX_SIDE} a side"));
    }
    if w * h > MAX_LAYER_CELLS {
        return Err(format!("{what} is {w}x{h} = {} tiles; the most is {MAX_LAYER_CELLS}", w * h));
    }
    Ok(())
}

/// A tile layer's data holds exactly width × height cells.
fn check_data(data: &Data) -> Result<(), String> {
    let (w, h) = data.layer.1;
    let cells = w * h;
    let text = data.text.as_deref().unwrap_or("");
    let held = match (data.encoding.as_deref(), data.compression.as_deref()) {
        (Some("csv"), None) => text.split(',').count() as u64,
        (Some("base64"), compression) => {
            // The engine `tiled` decodes with.
            let engine = base64::engine::GeneralPurpose::new(
                &base64::alphabet::STANDARD,
                base64::engine::general_purpose::PAD,
            );
            let raw = engine
                .decode(text.trim().as_bytes())
                .map_err(|e| format!("data is not valid Base64: {e}"))?;
            let bytes = decoded_len(&raw, compression, cells * 4)?;
            if bytes != cells * 4 {
                let more = if bytes > cells * 4 { " or more" } else { "" };
                return Err(format!(
                    "data decodes to {bytes}{more} bytes, not {w}x{h} tiles x 4 = {} bytes",
                    cells * 4
                ));
            }
            return Ok(());
        }
        _ => return Err(format_error(data).unwrap_or_default()),
    };
    if held != cells {
        return Err(format!("data holds {held} cells, not {w}x{h} = {cells}"));
    }
    Ok(())
}

/// The error for tile layer data in a format Ledge does not read (not CSV or Base64), `None`
/// for CSV and Base64 (whose compression [`decoded_len`] checks).
fn format_error(data: &Data) -> Option<String> {
    match (data.encoding.as_deref(), data.compression.as_deref()) {
        (Some("csv"), None) | (Some("base64"), _) => None,
        (encoding, compression) => Some(format!(
            "data must be CSV or Base64 (Tiled: Map > Map Properties > Tile Layer \
             Format), got encoding {encoding:?}, compression {compression:?}"
        )),
    }
}

/// How many bytes `raw` decompresses to, counting at most `expected + 1` (the stream is read
/// into a sink: nothing past the bound is inflated or kept).
fn decoded_len(raw: &[u8], compression: Option<&str>, expected: u64) -> Result<u64, String> {
    let count = |r: &mut dyn Read, what: &str| {
        std::io::copy(&mut r.take(expected + 1), &mut std::io::sink())
            .map_err(|e| format!("data is not valid {what}: {e}"))
    };
    match compression {
        None => Ok(raw.len() as u64),
        Some("zlib") => count(&mut flate2::bufread::ZlibDecoder::new(raw), "zlib"),
        Some("gzip") => count(&mut flate2::bufread::GzDecoder::new(raw), "gzip"),
        #[cfg(not(target_arch = "wasm32"))]
        Some("zstd") => {
            let mut d = zstd::stream::read::Decoder::with_buffer(raw)
                .map_err(|e| format!("data is not valid zstd: {e}"))?;
            // At most an 8 MiB window (2^23 bytes; zstd's default allows 128 MiB), so a frame
            // cannot make the decoder reserve more: a layer at MAX_LAYER_CELLS is 1 MiB.
            d.window_log_max(23).map_err(|e| format!("zstd: {e}"))?;
            count(&mut d, "zstd")
        }
        #[cfg(target_arch = "wasm32")]
        Some("zstd") => {
            Err("zstd-compressed tile layers are not supported in this build (use CSV, zlib or gzip)"
                .to_owned())
        }
        Some(other) => {
            Err(format!("unknown tile layer compression '{other}' (Tiled writes zlib, gzip or zstd)"))
        }
    }
}

#[cfg(test)]
mod tests;
