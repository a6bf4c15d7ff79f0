//! Runs as links: a lab script (a `--record` recording, a ghost, a race's record) compressed
//! into the fragment of a link to the browser page, `index.html#run=…`, and back. The script
//! travels whole, so the link plays back exactly, natively (`ledge replay LINK`) or in a page;
//! its `level PATH sha256=HEX` line names the level's content, so an edited level refuses it in
//! one line, as it refuses the recording.
//!
//! Encoding: the script's lines without comments and blank lines (an inline `map`'s rows kept
//! exactly: `#` is a solid tile there), its `level` path made relative to the game's folder
//! when it lies in it (a recording names the absolute path it was played from, which another
//! machine or the page does not have), raw DEFLATE (RFC 1951, level 9, `flate2`), then
//! base64url without padding (RFC 4648 §5, `base64`): only characters a URL fragment keeps as
//! they are. Decoding refuses anything else in one line, and inflates at most
//! [`MAX_SCRIPT_BYTES`] (a small link cannot expand into an out-of-memory).
//!
//! Clock: none.

use base64::Engine as _;
use std::io::{Read as _, Write as _};
use std::path::Path;

/// The most a link's run may inflate to, bytes: a link is for one run of a few kilobytes
/// (level 1's finishing run is about 2.6 KB of script), so 1 MiB is room for any and stops a
/// small link from inflating into an out-of-memory.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// The link's page and the fragment's key: a link is `index.html#run=` then the run.
pub const PREFIX: &str = "index.html#run=";

/// Why a link does not hold a run.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LinkError {
    /// Not base64url (RFC 4648 §5, no padding).
    #[error("the run in the link is not base64url: {0}")]
    Base64(String),
    /// Base64url, but not raw DEFLATE.
    #[error("the run in the link is not DEFLATE data: {0}")]
    Inflate(String),
    /// It inflates past [`MAX_SCRIPT_BYTES`].
    #[error("the run in the link inflates past {MAX_SCRIPT_BYTES} bytes")]
    TooBig,
    /// It inflates to text that is not UTF-8.
    #[error("the run in the link is not UTF-8 text")]
    NotText,
}

/// The script's lines a link keeps, each ending in a newline: every line without its comment
/// (`#` to the end of the line, as the parser reads it) and without blank lines, but the rows
/// of an inline `map` … `end` exactly as written (there `#` is a solid tile and a row of spaces
/// is a row).
pub fn strip(text: &str) -> String {
    let mut out = String::new();
    let mut in_map = false;
    for raw in text.lines() {
        if in_map {
            out.push_str(raw.trim_end_matches('\r'));
            out.push('\n');
            in_map = raw.trim() != "end";
            continue;
        }
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        out.push_str(content);
        out.push('\n');
        in_map = content == "map";
    }
    out
}

/// `text` with its `level PATH` line's absolute PATH made relative to `root` when it lies
/// under it (a script's relative paths are read from the game's folder too); anything else
/// as it is.
pub fn portable(text: &str, root: &Path) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let rel = line.strip_prefix("level ").and_then(|rest| {
            let (path, hash) = match rest.rsplit_once(' ') {
                Some((p, h)) if h.starts_with("sha256=") => (p, Some(h)),
                _ => (rest, None),
            };
            let rel = Path::new(path).strip_prefix(root).ok()?.to_str()?.to_owned();
            Some(hash.map_or(format!("level {rel}"), |h| format!("level {rel} {h}")))
        });
        out.push_str(rel.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

/// The fragment's run for `text` (a lab script): [`strip`]ped, made [`portable`] (the game's
/// folder: the one holding `assets/`), deflated, base64url.
pub fn encode(text: &str) -> String {
    let stripped = strip(text);
    let root = crate::assets::assets_dir().ok().and_then(|a| a.parent().map(Path::to_path_buf));
    let run = match root.filter(|r| r.is_absolute()) {
        Some(root) => portable(&stripped, &root),
        None => stripped,
    };
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = z.write_all(run.as_bytes());
    let bytes = z.finish().unwrap_or_default();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// The link for `text`: [`PREFIX`] then [`encode`]'s run.
pub fn link(text: &str) -> String {
    format!("{PREFIX}{}", encode(text))
}

/// Whether `source` (a command-line argument) is a link rather than a file name: it holds
/// `#run=` and names no file (a file may have `#run=` in its name).
pub fn is_link(source: &str) -> bool {
    source.contains("#run=") && !crate::read_limit::is_file(Path::new(source))
}

/// The script a link holds. `link` is a whole link (anything up to and including `#run=` is
/// skipped: `index.html#run=…`, `https://host/ledge/index.html#run=…`) or the run alone.
///
/// # Errors
/// [`LinkError`]: not base64url, not DEFLATE, more than [`MAX_SCRIPT_BYTES`] inflated, or not
/// UTF-8.
pub fn decode(link: &str) -> Result<String, LinkError> {
    let run = link.rsplit_once("#run=").map_or(link, |(_, r)| r).trim();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(run)
        .map_err(|e| LinkError::Base64(e.to_string()))?;
    let mut text = Vec::new();
    let mut z = flate2::read::DeflateDecoder::new(bytes.as_slice()).take(MAX_SCRIPT_BYTES + 1);
    z.read_to_end(&mut text).map_err(|e| LinkError::Inflate(e.to_string()))?;
    if text.len() as u64 > MAX_SCRIPT_BYTES {
        return Err(LinkError::TooBig);
    }
    String::from_utf8(text).map_err(|_| LinkError::NotText)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_round_trips_without_its_comments() {
        let text = "# a comment\nlevel assets/levels/level1.tmx\n\npress right\nframe 16.666667 x60\n";
        let l = link(text);
        assert!(l.starts_with(PREFIX));
        assert!(l[PREFIX.len()..].chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'), "{l}");
        assert_eq!(decode(&l).unwrap(), "level assets/levels/level1.tmx\npress right\nframe 16.666667 x60\n");
        assert_eq!(decode(&format!("https://example.org/ledge/{l}")).unwrap(), decode(&l).unwrap());
        assert!(is_link(&l) && !is_link("run.lab"));
    }

    #[test]
    fn bad_links_are_refused_in_one_line() {
        assert!(matches!(decode("index.html#run=not*base64"), Err(LinkError::Base64(_))));
        let not_deflate = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode([0xff; 32]);
        assert!(matches!(decode(&not_deflate), Err(LinkError::Inflate(_))));
        // A small bomb: 8 MiB of one letter deflate to a few KiB; refused at the limit.
        let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(&vec![b'a'; 8 << 20]).unwrap();
        let bomb = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(z.finish().unwrap());
        assert_eq!(decode(&bomb), Err(LinkError::TooBig));
        let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(&[0xc3, 0x28]).unwrap();
        let binary = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(z.finish().unwrap());
        assert_eq!(decode(&binary), Err(LinkError::NotText));
        for e in [LinkError::TooBig, LinkError::NotText, LinkError::Base64("x".into())] {
            assert!(!e.to_string().contains('\n'));
        }
    }

    #[test]
    fn an_inline_maps_rows_travel_exactly_and_comments_do_not() {
        let text = "map  # the map\n....\n  ##\n    \n#####\nend\npress right # go\nframe 16.6\n";
        assert_eq!(strip(text), "map\n....\n  ##\n    \n#####\nend\npress right\nframe 16.6\n");
        let back = decode(&link(text)).unwrap();
        let (a, b) = (crate::lab::script::parse(text).unwrap(), crate::lab::script::parse(&back).unwrap());
        assert_eq!(a.level, b.level, "the same rows, from the same line");
    }

    #[test]
    fn a_level_inside_the_games_folder_is_named_from_it() {
        let root = Path::new("/home/p/ledge");
        let text =
            "level /home/p/ledge/assets/levels/level1.tmx sha256=ab\nlevel /elsewhere/x.tmx\nframe 1\n";
        assert_eq!(
            portable(text, root),
            "level assets/levels/level1.tmx sha256=ab\nlevel /elsewhere/x.tmx\nframe 1\n"
        );
    }
}
