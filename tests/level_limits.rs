//! Files that cannot hurt the game, through the built binary (docs/levels.md "Limits"):
//!
//! - `a_layer_bomb_is_refused_with_one_line_and_a_bounded_peak`: a 20x12 map whose Base64 tile
//!   layer inflates to 1 GiB of zeros (zlib, gzip, zstd; the zlib one is the 1.4 MB file that
//!   took 6.3 GB before the guard) makes `ledge lab` exit 2 with one line naming the map, its
//!   line and the layer, with a peak resident size (`/usr/bin/time`'s `%M`) at most
//!   [`PEAK_MARGIN_KB`] above the same command on a good map of the same size;
//! - `a_recording_replayed_on_an_edited_level_is_refused_naming_both_hashes`: a script whose
//!   `level PATH sha256=HEX` no longer matches its level exits 2 with one line naming both
//!   hashes; `--force` replays it with one warning line;
//! - `huge_inputs_are_refused_by_size`: a script from `/dev/zero` and a map over its size limit
//!   are one line each, exit 2.
//!
//! Clock: none (child processes run to completion; nothing is timed).

mod common;

use common::scratch::Scratch;
use common::{ledge, root};
use ledge::level::ContentHash;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

/// The most KiB a bomb may add to the peak resident size of `ledge lab` on a good map of the
/// same size: 64 MiB (issue #20's bound). Measured: docs/speed.md.
const PEAK_MARGIN_KB: u64 = 64 * 1024;

/// What the bomb inflates to: 1 GiB.
const BOMB_BYTES: usize = 1 << 30;

/// A folder laid out like `assets/` (the map in `levels/`, the shipped tileset and atlas where
/// its relative paths point), the map at `levels/NAME.tmx` holding `text`.
fn level_dir(scratch: &Scratch, name: &str, text: &str) -> PathBuf {
    for (from, to) in [
        ("assets/tilesets/ledge.tsx", "tilesets/ledge.tsx"),
        ("assets/sprites/atlas.png", "sprites/atlas.png"),
    ] {
        let to = scratch.path(to);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(root().join(from), to).unwrap();
    }
    fs::create_dir_all(scratch.path("levels")).unwrap();
    let path = scratch.path(&format!("levels/{name}.tmx"));
    fs::write(&path, text).unwrap();
    path
}

/// A 20x12 map whose tile layer's `<data>` is `data` with `attrs`; a floor and a spawn.
fn map_text(attrs: &str, data: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="20" height="12" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" source="../tilesets/ledge.tsx"/>
 <layer id="1" name="tiles" width="20" height="12">
  <data {attrs}>
{data}
</data>
 </layer>
 <objectgroup id="2" name="objects">
  <object id="1" type="spawn" x="40" y="176"/>
 </objectgroup>
</map>
"#
    )
}

/// Base64 (standard, padded: what Tiled writes).
fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// `n` zero bytes through `encoder`, written in 1 MiB pieces.
fn zeros(mut encoder: impl Write, n: usize) {
    let chunk = vec![0u8; 1 << 20];
    for _ in 0..n / chunk.len() {
        encoder.write_all(&chunk).unwrap();
    }
}

fn bomb(compression: &str) -> Vec<u8> {
    match compression {
        "zlib" => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
            zeros(&mut e, BOMB_BYTES);
            e.finish().unwrap()
        }
        "gzip" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            zeros(&mut e, BOMB_BYTES);
            e.finish().unwrap()
        }
        "zstd" => {
            let mut e = zstd::Encoder::new(Vec::new(), 3).unwrap();
            zeros(&mut e, BOMB_BYTES);
            e.finish().unwrap()
        }
        other => unreachable!("{other}"),
    }
}

/// `ledge lab SCRIPT --summary` on a script naming `map`, under `/usr/bin/time -f "%e %M"`:
/// the output and the peak resident size in KiB (the elapsed seconds are printed, not checked).
fn lab_peak(scratch: &Scratch, map: &Path) -> (Output, u64) {
    let script = scratch.path("run.lab");
    fs::write(&script, format!("level {}\nframe 16.6667 x30\n", map.display())).unwrap();
    let peak = scratch.path("peak.txt");
    let out = std::process::Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%e %M")
        .arg("-o")
        .arg(&peak)
        .arg(common::GAME)
        .args(["lab", "--summary"])
        .arg(&script)
        .current_dir(root())
        .env("LEDGE_AUDIO", "off")
        .output()
        .expect("/usr/bin/time (Debian package 'time', scripts/test installs it)");
    let measured = fs::read_to_string(&peak).unwrap();
    let (seconds, kb) = measured.lines().last().unwrap().trim().split_once(' ').unwrap();
    eprintln!("{}: {seconds} s, peak {kb} KiB", map.display());
    (out, kb.parse().unwrap())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_layer_bomb_is_refused_with_one_line_and_a_bounded_peak() {
    let scratch = Scratch::new("bomb");
    let good = level_dir(&scratch, "good", &map_text(r#"encoding="csv""#, &vec!["0"; 240].join(",")));
    let (out, good_kb) = lab_peak(&scratch, &good);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for compression in ["zlib", "gzip", "zstd"] {
        let data = bomb(compression);
        let attrs = format!(r#"encoding="base64" compression="{compression}""#);
        let map = level_dir(&scratch, compression, &map_text(&attrs, &b64(&data)));
        let size = fs::metadata(&map).unwrap().len();
        let (out, kb) = lab_peak(&scratch, &map);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{compression}: {err}");
        assert_eq!(err.lines().count(), 1, "{compression}: {err}");
        let expected = format!(
            "{}: line 5: layer 'tiles': data decodes to 961 or more bytes, not 20x12 tiles x 4 = 960 bytes",
            map.display()
        );
        assert!(err.contains(&expected), "{compression}: {err}");
        assert!(
            kb <= good_kb + PEAK_MARGIN_KB,
            "{compression} ({size} bytes on disk): peak {kb} KiB, against {good_kb} KiB for a good map"
        );
        eprintln!("{compression}: {size} bytes on disk, peak {kb} KiB (a good map: {good_kb} KiB)");
    }
}

#[test]
fn a_recording_replayed_on_an_edited_level_is_refused_naming_both_hashes() {
    let scratch = Scratch::new("edited");
    let shipped = fs::read_to_string(root().join("assets/levels/level1.tmx")).unwrap();
    let map = level_dir(&scratch, "copy", &shipped);
    let made_on = ledge::level::tiled_map::load_tmx(&map).unwrap().origin.unwrap().sha256;
    let script = scratch.path("rec.lab");
    fs::write(&script, format!("level {} sha256={made_on}\nframe 16.6667 x30\n", map.display())).unwrap();
    let run = |force: bool| {
        let mut cmd = ledge();
        cmd.args(["lab", "--summary"]).arg(&script);
        if force {
            cmd.arg("--force");
        }
        cmd.output().unwrap()
    };
    let same = run(false);
    assert!(same.status.success(), "{}", text(&same.stderr));

    // One tile changed, as an editor would.
    let edited = shipped.replacen("\n0,", "\n1,", 1);
    assert_ne!(edited, shipped);
    fs::write(&map, &edited).unwrap();
    let now: ContentHash = ledge::level::tiled_map::load_tmx(&map).unwrap().origin.unwrap().sha256;
    let refused = run(false);
    let err = text(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&format!("rec.lab:1: level {} has changed", map.display())), "{err}");
    assert!(err.contains(&format!("it is sha256={now}, the script names sha256={made_on}")), "{err}");
    assert!(refused.stdout.is_empty());

    let forced = run(true);
    let err = text(&forced.stderr);
    assert!(forced.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("replaying anyway (--force)"), "{err}");
    assert!(text(&forced.stdout).contains("state_hash"));
}

#[test]
fn huge_inputs_are_refused_by_size() {
    let out = ledge().args(["lab", "/dev/zero"]).output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.trim().ends_with("/dev/zero: is over the limit of 67108864 bytes"), "{err}");

    let scratch = Scratch::new("huge-map");
    let padding = " ".repeat(ledge::level::guard::MAX_MAP_BYTES as usize);
    let map = level_dir(
        &scratch,
        "huge",
        &format!("{}{padding}", map_text(r#"encoding="csv""#, &vec!["0"; 240].join(","))),
    );
    let (out, _) = lab_peak(&scratch, &map);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!(
            "cannot read map: is {} bytes, over the limit of {}",
            fs::metadata(&map).unwrap().len(),
            ledge::level::guard::MAX_MAP_BYTES
        )),
        "{err}"
    );
}
