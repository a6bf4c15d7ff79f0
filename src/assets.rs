//! Finding the `assets/` folder and decoding PNG images, independent of the working directory.
//!
//! Clock: none. Called on the event-loop thread while loading, once before the first frame
//! (and by the lab before its first scripted frame); never from the fixed tick.

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Environment variable that, when set, names the assets folder outright.
pub const ASSETS_ENV: &str = "LEDGE_ASSETS";

/// The file that marks a folder named `assets` as Ledge's (it holds the tuning values).
pub const MARKER_FILE: &str = "tuning.toml";

/// Largest image [`load_png_rgba`] accepts, pixels per side (a bad file must not make us
/// allocate gigabytes).
pub const MAX_IMAGE_SIDE: u32 = 8192;

/// Largest PNG file [`load_png_rgba`] reads, bytes (64 MiB: the shipped atlas and skies are
/// under 30 KB; a file this size could hold an image at [`MAX_IMAGE_SIDE`]).
pub const MAX_IMAGE_BYTES: u64 = 64 << 20;

/// Errors finding or reading assets. Each message is one line: "PATH: problem".
#[derive(Debug, thiserror::Error)]
pub enum AssetError {
    /// No assets folder was found; `path` is the last place looked.
    #[error("{path}: no assets folder here ({looked})")]
    NotFound {
        /// The last candidate tried.
        path: PathBuf,
        /// Every place looked, in order, for the message.
        looked: String,
    },
    /// The file could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file is not a PNG this loader can decode.
    #[error("{path}: {msg}")]
    Image {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        msg: String,
    },
    /// A PNG could not be written ([`save_png`]).
    #[error("{path}: {msg}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O or encoder error, on one line.
        msg: String,
    },
}

/// The assets folder, found without depending on the current directory:
///
/// 1. `$LEDGE_ASSETS`, when set (it must be a folder);
/// 2. else the first folder named `assets` holding `tuning.toml`, walking up from the folder
///    of the running executable (so `target/debug/ledge` finds the repository's `assets/`, and
///    an installed copy finds the `assets/` shipped beside it);
/// 3. else `assets/` in the source tree this binary was built from (`CARGO_MANIFEST_DIR`).
///
/// # Errors
///
/// [`AssetError::NotFound`] when `$LEDGE_ASSETS` is set but is not a folder, or when none of
/// the three places exists.
pub fn assets_dir() -> Result<PathBuf, AssetError> {
    // In the browser the page's `assets/` folder was fetched into memory (`crate::preloaded`).
    if cfg!(all(target_arch = "wasm32", target_os = "unknown")) {
        return Ok(PathBuf::from("assets"));
    }
    find_assets_dir(
        std::env::var_os(ASSETS_ENV),
        std::env::current_exe().ok().as_deref(),
        Path::new(env!("CARGO_MANIFEST_DIR")),
    )
}

/// [`assets_dir`] with its inputs passed in: the value of `$LEDGE_ASSETS`, the executable's
/// path and the source tree's root.
///
/// # Errors
///
/// As [`assets_dir`].
pub fn find_assets_dir(
    env: Option<OsString>,
    exe: Option<&Path>,
    manifest_dir: &Path,
) -> Result<PathBuf, AssetError> {
    if let Some(dir) = env.filter(|v| !v.is_empty()) {
        let dir = PathBuf::from(dir);
        if dir.is_dir() {
            return Ok(dir);
        }
        return Err(AssetError::NotFound {
            path: dir,
            looked: format!("${ASSETS_ENV} is set but is not a folder"),
        });
    }
    let mut looked = Vec::new();
    if let Some(exe) = exe {
        for dir in exe.ancestors().skip(1) {
            let candidate = dir.join("assets");
            if candidate.join(MARKER_FILE).is_file() {
                return Ok(candidate);
            }
        }
        looked.push(format!("no assets/{MARKER_FILE} above {}", exe.parent().unwrap_or(exe).display()));
    }
    let fallback = manifest_dir.join("assets");
    if fallback.is_dir() {
        return Ok(fallback);
    }
    looked.push(format!("${ASSETS_ENV} unset"));
    Err(AssetError::NotFound { path: fallback, looked: looked.join("; ") })
}

/// Decodes the PNG at `path` to 8-bit RGBA: returns (width, height, pixels), pixels in rows
/// top to bottom, 4 bytes each, `width * height * 4` bytes in all.
///
/// Palette, grayscale, gray+alpha and RGB images are expanded (opaque where the file has no
/// alpha); 16-bit samples are cut to 8 bits. Only the first frame of an animated PNG is read.
///
/// # Errors
///
/// [`AssetError::Io`] when the file cannot be opened; [`AssetError::Image`] when it is not a
/// valid PNG or is larger than [`MAX_IMAGE_SIDE`] on a side.
pub fn load_png_rgba(path: &Path) -> Result<(u32, u32, Vec<u8>), AssetError> {
    let bad = |msg: String| AssetError::Image { path: path.to_owned(), msg };
    let bytes = crate::read_limit::read_file_at_most(path, MAX_IMAGE_BYTES)
        .map_err(|source| AssetError::Io { path: path.to_owned(), source })?;
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| bad(format!("not a readable PNG: {e}")))?;
    let (width, height) = (reader.info().width, reader.info().height);
    if width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE {
        return Err(bad(format!("image is {width}x{height} px, larger than {MAX_IMAGE_SIDE} px on a side")));
    }
    let size = reader.output_buffer_size().ok_or_else(|| bad("image too large to decode".to_owned()))?;
    let mut buf = vec![0; size];
    let frame = reader.next_frame(&mut buf).map_err(|e| bad(format!("PNG data: {e}")))?;
    if frame.bit_depth != png::BitDepth::Eight {
        return Err(bad(format!("unsupported bit depth {:?}", frame.bit_depth)));
    }
    buf.truncate(frame.buffer_size());
    let pixels = (width * height) as usize;
    let rgba = match frame.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        png::ColorType::GrayscaleAlpha => {
            buf.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect()
        }
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => {
            return Err(bad("palette image was not expanded".to_owned()));
        }
    };
    // Rows are tightly packed after the 8-bit normalisation, so this only fails on a bug.
    if rgba.len() != pixels * 4 {
        return Err(bad(format!("decoded {} bytes, expected {}", rgba.len(), pixels * 4)));
    }
    Ok((width, height, rgba))
}

/// Write RGBA8 sRGB pixels (`width * height * 4` bytes, row-major from the top-left) as a
/// PNG, atomically (a temporary `.png.partial` renamed into place). The one PNG writer of the
/// project: lab shots, example shots, test dumps.
///
/// # Errors
/// [`AssetError::Write`] naming the file when it cannot be written.
pub fn save_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<(), AssetError> {
    let tmp = path.with_extension("png.partial");
    let write = || -> Result<(), Box<dyn std::error::Error>> {
        let file = File::create(&tmp)?;
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), width, height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
        enc.write_header()?.write_image_data(rgba)?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        AssetError::Write { path: path.to_owned(), msg: e.to_string() }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// A fresh, empty folder under the system temp folder, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(tag: &str) -> Self {
            static NEXT: AtomicU32 = AtomicU32::new(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = std::env::temp_dir().join(format!("ledge-assets-{tag}-{}-{n}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).unwrap();
            Self(path)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Writes test inputs in formats [`save_png`] never writes (indexed with a palette,
    /// grey, 16-bit) to test the loader's conversions: its own encoder, on purpose.
    fn write_png(path: &Path, w: u32, h: u32, color: png::ColorType, depth: png::BitDepth, data: &[u8]) {
        let file = File::create(path).unwrap();
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
        enc.set_color(color);
        enc.set_depth(depth);
        if color == png::ColorType::Indexed {
            enc.set_palette(vec![255, 0, 0, 0, 0, 255]);
            enc.set_trns(vec![255, 0]);
        }
        let mut writer = enc.write_header().unwrap();
        writer.write_image_data(data).unwrap();
    }

    #[test]
    fn env_var_wins_when_it_names_a_folder() {
        let tmp = TempDir::new("env");
        let found = find_assets_dir(Some(tmp.0.clone().into()), None, Path::new("/nowhere")).unwrap();
        assert_eq!(found, tmp.0);
    }

    #[test]
    fn env_var_naming_no_folder_is_an_error_naming_it() {
        let tmp = TempDir::new("env-missing");
        let missing = tmp.0.join("nope");
        let err = find_assets_dir(Some(missing.clone().into()), None, &tmp.0).unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with(&missing.display().to_string()), "{msg}");
        assert!(msg.contains(ASSETS_ENV) && !msg.contains('\n'), "{msg}");
    }

    #[test]
    fn walks_up_from_the_executable_to_an_assets_folder_with_the_marker() {
        let tmp = TempDir::new("walk");
        let assets = tmp.0.join("assets");
        std::fs::create_dir_all(&assets).unwrap();
        std::fs::write(assets.join(MARKER_FILE), "").unwrap();
        // An `assets` folder without the marker nearer the exe is skipped.
        let bin = tmp.0.join("target/debug");
        std::fs::create_dir_all(bin.join("assets")).unwrap();
        let exe = bin.join("ledge");
        let found = find_assets_dir(None, Some(&exe), Path::new("/nowhere")).unwrap();
        assert_eq!(found, assets);
    }

    #[test]
    fn falls_back_to_the_source_tree_then_fails_with_one_line() {
        let tmp = TempDir::new("fallback");
        let exe = tmp.0.join("bin/ledge");
        std::fs::create_dir_all(tmp.0.join("src/assets")).unwrap();
        let found = find_assets_dir(None, Some(&exe), &tmp.0.join("src")).unwrap();
        assert_eq!(found, tmp.0.join("src/assets"));
        let err = find_assets_dir(None, Some(&exe), &tmp.0.join("elsewhere")).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, AssetError::NotFound { .. }));
        assert!(msg.contains("elsewhere") && !msg.contains('\n'), "{msg}");
    }

    #[test]
    fn the_real_assets_dir_is_found() {
        // Whatever way it is found (env, exe or source tree), it holds the atlas.
        let dir = assets_dir().unwrap();
        assert!(dir.join(crate::present::atlas::ATLAS_PATH).is_file(), "{}", dir.display());
    }

    #[test]
    fn pngs_of_every_colour_type_become_rgba8() {
        let tmp = TempDir::new("png");
        let p = tmp.0.join("img.png");
        use png::{BitDepth as D, ColorType as C};

        write_png(&p, 2, 1, C::Rgba, D::Eight, &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(load_png_rgba(&p).unwrap(), (2, 1, vec![1, 2, 3, 4, 5, 6, 7, 8]));

        write_png(&p, 2, 1, C::Rgb, D::Eight, &[1, 2, 3, 4, 5, 6]);
        assert_eq!(load_png_rgba(&p).unwrap().2, vec![1, 2, 3, 255, 4, 5, 6, 255]);

        write_png(&p, 2, 1, C::Grayscale, D::Eight, &[9, 10]);
        assert_eq!(load_png_rgba(&p).unwrap().2, vec![9, 9, 9, 255, 10, 10, 10, 255]);

        write_png(&p, 1, 1, C::GrayscaleAlpha, D::Eight, &[9, 100]);
        assert_eq!(load_png_rgba(&p).unwrap().2, vec![9, 9, 9, 100]);

        // 16-bit RGBA: the high byte of each sample is kept.
        write_png(&p, 1, 1, C::Rgba, D::Sixteen, &[1, 0, 2, 0, 3, 0, 255, 255]);
        assert_eq!(load_png_rgba(&p).unwrap().2, vec![1, 2, 3, 255]);

        // 1-bit palette (red, blue) whose second entry is transparent (tRNS).
        write_png(&p, 2, 1, C::Indexed, D::One, &[0b0100_0000]);
        assert_eq!(load_png_rgba(&p).unwrap().2, vec![255, 0, 0, 255, 0, 0, 255, 0]);
    }

    #[test]
    fn bad_files_give_one_line_errors_naming_the_file() {
        let tmp = TempDir::new("bad");
        let missing = tmp.0.join("missing.png");
        let err = load_png_rgba(&missing).unwrap_err();
        assert!(matches!(err, AssetError::Io { .. }));
        assert!(err.to_string().starts_with(&missing.display().to_string()));

        let junk = tmp.0.join("junk.png");
        File::create(&junk).unwrap().write_all(b"not a png at all").unwrap();
        let err = load_png_rgba(&junk).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, AssetError::Image { .. }), "{msg}");
        assert!(msg.starts_with(&junk.display().to_string()) && !msg.contains('\n'), "{msg}");

        // A truncated PNG: valid header, cut off inside the image data.
        let ok = tmp.0.join("ok.png");
        write_png(&ok, 8, 8, png::ColorType::Rgba, png::BitDepth::Eight, &[7; 256]);
        let bytes = std::fs::read(&ok).unwrap();
        let cut = tmp.0.join("cut.png");
        std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
        let err = load_png_rgba(&cut).unwrap_err();
        assert!(err.to_string().starts_with(&cut.display().to_string()), "{err}");
    }
}
