//! Hot reload (issue #20) tried as a level designer would: the real game binary in a real X
//! window on a private Xvfb server (`tests/common/xvfb.rs`), `ledge --level COPY.tmx` on a copy
//! of `tests/fixtures/levels/feel.tmx` (a static camera: a tile edited shows in the same window
//! pixels), screenshots read as raw `xwd` grabs (`tests/common/xwd.rs`) and kept as PNGs in a
//! folder the test prints.
//!
//! 1. The player walks left to the stone block and stands there; the map is saved the way
//!    Tiled saves (a temporary file renamed over it) with a stone tile in the sky: the tile
//!    appears, and nothing else moves (the player did not respawn: the spawn stays empty).
//! 2. Saved the way an in-place editor saves (truncated, half written, 300 ms later the rest:
//!    the first read finds the file cut short) with a second tile: it appears, and no shot in
//!    between shows the broken-file banner (the cut-short read was tried again).
//! 3. Saved broken (a stray `<` on a known line): the banner appears at the bottom of the view,
//!    the game prints `COPY.tmx:LINE:` and the player still walks; saved fixed with a third tile:
//!    the banner goes and the tile appears.
//!
//! The exit stats count no respawn. The time from each save to the first shot showing it is
//! printed (README "Editing levels" has the figures); nothing is asserted on it beyond a 10 s
//! deadline for "it never showed".
//!
//! Clock: wall time (real processes, real sleeps).

mod common;

use common::exit::{stat, summary_line};
use common::proc::Proc;
use common::root;
use common::scratch::Scratch;
use common::xvfb::{Xvfb, serial, window_rect};
use common::xwd::{Shot, grab, read_xwd};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

/// The banner's panel colour (`ledge::ui::reload::BANNER_PANEL`), drawn opaque.
const BANNER: [u8; 3] = ledge::ui::reload::BANNER_PANEL;

/// A window rectangle `(x0, y0, x1, y1)`, the ends exclusive.
type Rect = (usize, usize, usize, usize);

/// Tile cell (`col`, `row`) of the fixture in window pixels: the 192 px tall level is
/// bottom-aligned in the 360 px view (+168), drawn at 2x.
fn cell(col: usize, row: usize) -> Rect {
    (32 * col, 32 * row + 336, 32 * col + 32, 32 * row + 368)
}

/// Where the HUD (and its "reloaded" line) is: left out of the comparisons.
const HUD: Rect = (0, 0, 480, 160);
/// Around the spawn (level x 418-430 on the floor): empty once the player walked away.
const SPAWN: Rect = (800, 590, 900, 660);
/// Around where the player stands after walking left to the stone block (level x 96).
const LEFT: Rect = (180, 590, 280, 660);

fn inside((x0, y0, x1, y1): Rect, x: usize, y: usize) -> bool {
    (x0..x1).contains(&x) && (y0..y1).contains(&y)
}

/// Pixels of `r` (the whole shot when `None`) that differ by more than 24 in some channel,
/// leaving out the rectangles `skip`.
fn differing(a: &Shot, b: &Shot, r: Option<Rect>, skip: &[Rect]) -> usize {
    let r = r.unwrap_or((0, 0, a.w, a.h));
    let mut n = 0;
    for y in r.1..r.3 {
        for x in r.0..r.2 {
            if skip.iter().any(|&s| inside(s, x, y)) {
                continue;
            }
            if a.px(x, y).iter().zip(b.px(x, y)).any(|(p, q)| p.abs_diff(q) > 24) {
                n += 1;
            }
        }
    }
    n
}

/// The cell shows something else than in `before` (over half its pixels changed).
fn cell_changed(before: &Shot, now: &Shot, r: Rect) -> bool {
    differing(before, now, Some(r), &[]) * 2 > (r.2 - r.0) * (r.3 - r.1)
}

/// Banner-coloured pixels in the bottom 120 rows.
fn banner_pixels(s: &Shot) -> usize {
    let near = |p: [u8; 3]| p.iter().zip(BANNER).all(|(a, b)| a.abs_diff(b) <= 6);
    (s.h - 120..s.h).flat_map(|y| (0..s.w).map(move |x| (x, y))).filter(|&(x, y)| near(s.px(x, y))).count()
}

/// A banner is up (a panel a whole view wide: over 10,000 pixels of its colour).
fn has_banner(s: &Shot) -> bool {
    banner_pixels(s) > 10_000
}

/// `map` with tile gid `gid` at (`col`, `row`) of its CSV layer.
fn with_tile(map: &str, col: usize, row: usize, gid: u32) -> String {
    let start = map.find("<data encoding=\"csv\">").expect("a CSV layer") + "<data encoding=\"csv\">\n".len();
    let end = start + map[start..].find("</data>").expect("the layer's end");
    let mut rows: Vec<Vec<String>> =
        map[start..end].lines().map(|l| l.trim_end_matches(',').split(',').map(str::to_owned).collect()).collect();
    rows[row][col] = gid.to_string();
    let n = rows.len();
    let csv: String = rows
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{}{}\n", r.join(","), if i + 1 < n { "," } else { "" }))
        .collect();
    format!("{}{}{}", &map[..start], csv, &map[end..])
}

/// Saves `text` at `path` as Tiled does by default (`QSaveFile`): a temporary file in the same
/// folder, renamed over the map.
fn save_renamed(path: &Path, text: &str) {
    let tmp = path.with_file_name(format!("{}.tmp4711", path.file_name().unwrap().to_string_lossy()));
    fs::write(&tmp, text).expect("write the temporary file");
    fs::rename(&tmp, path).expect("rename it over the map");
}

/// Saves `text` at `path` in place (truncate, then write), the second half `pause` after the
/// first, as a slow editor (or Tiled with "safe saving" off) might.
fn save_in_place(path: &Path, text: &str, pause: Duration) {
    let mut f = fs::OpenOptions::new().write(true).truncate(true).open(path).expect("open the map");
    let half = text.len() / 2;
    f.write_all(&text.as_bytes()[..half]).expect("write");
    f.flush().expect("flush");
    thread::sleep(pause);
    f.write_all(&text.as_bytes()[half..]).expect("write");
}

/// The game on a copy of the fixture.
struct Run {
    x: Xvfb,
    game: Option<Proc>,
    rect: (usize, usize, usize, usize),
    raw: PathBuf,
    keep: PathBuf,
    kept: usize,
}

impl Run {
    fn shot(&self) -> Shot {
        grab(&self.x, &self.raw);
        read_xwd(&self.raw, self.rect)
    }

    /// A shot, also kept as `NN-NAME.png` for a human.
    fn keep(&mut self, name: &str) -> Shot {
        let s = self.shot();
        s.save_half(&self.keep.join(format!("{:02}-{name}.png", self.kept)));
        self.kept += 1;
        s
    }

    /// Shots until `done` holds for one (kept as NAME); returns it and the seconds since `t0`
    /// when it was taken. Fails after 10 s.
    fn until(&mut self, t0: Instant, name: &str, done: impl Fn(&Shot) -> bool) -> (Shot, f64) {
        loop {
            let t = t0.elapsed().as_secs_f64();
            let s = self.shot();
            if done(&s) {
                s.save_half(&self.keep.join(format!("{:02}-{name}.png", self.kept)));
                self.kept += 1;
                return (s, t);
            }
            assert!(t < 10.0, "{name}: not on screen 10 s after the save (shots in {})", self.keep.display());
        }
    }
}

#[test]
fn a_level_saved_while_it_is_played_is_on_screen_at_once_and_a_broken_save_plays_on() {
    let _serial = serial();
    let scratch = Scratch::new("window-reload");
    let tileset = root().join("assets/tilesets/ledge.tsx");
    let fixture = fs::read_to_string(root().join("tests/fixtures/levels/feel.tmx")).expect("the fixture");
    let good = fixture.replace("../../../assets/tilesets/ledge.tsx", tileset.to_str().expect("utf-8 path"));
    assert_ne!(good, fixture, "the fixture's tileset path changed");
    let map = scratch.path("copy.tmx");
    fs::write(&map, &good).expect("write the copy");
    let stats = scratch.path("stats.json");
    let keep = std::env::temp_dir().join("ledge-window-reload");
    let _ = fs::remove_dir_all(&keep);
    fs::create_dir_all(&keep).expect("the screenshot folder");

    let x = Xvfb::start();
    let args = ["--level", map.to_str().unwrap(), "--fps-cap", "60", "--stats", stats.to_str().unwrap()];
    let mut cmd = x.game_command(&scratch, &args);
    cmd.env("LEDGE_AUDIO", "off").env("RUST_LOG", "warn,ledge::app=info");
    let mut game = Proc::spawn("ledge", &mut cmd);
    let win = x.wait_window(&mut game);
    x.focus(&win);
    let rect = window_rect(&x, &win);
    assert_eq!((rect.2, rect.3), (1280, 720), "the window is not 1280x720 (2x the view)");
    let mut run = Run { x, game: Some(game), rect, raw: scratch.path("raw.xwd"), keep: keep.clone(), kept: 0 };

    // Let the fade-in end, walk left to the stone block, stand.
    thread::sleep(Duration::from_millis(1500));
    run.x.xdo(&["keydown", "Left"]);
    thread::sleep(Duration::from_millis(1500));
    run.x.xdo(&["keyup", "Left"]);
    thread::sleep(Duration::from_millis(800));
    let before = run.keep("standing");
    assert!(!has_banner(&before), "a banner before any save");

    // 1. Tiled's save: a temporary file renamed over the map.
    let one = with_tile(&good, 20, 3, 9);
    let t0 = Instant::now();
    save_renamed(&map, &one);
    let (_, t1) = run.until(t0, "renamed-save", |s| cell_changed(&before, s, cell(20, 3)));
    thread::sleep(Duration::from_millis(300));
    let after = run.keep("after-renamed-save");
    let elsewhere = differing(&before, &after, None, &[HUD, cell(20, 3)]);
    let spawn = differing(&before, &after, Some(SPAWN), &[]);
    let ctx = format!("(shots in {})", keep.display());
    assert!(elsewhere < 1500 && spawn < 30, "the rest of the picture changed: {elsewhere} px, {spawn} at the spawn {ctx}");
    assert!(!has_banner(&after), "a banner after a good save {ctx}");

    // 2. An in-place save, its second half 300 ms after the first.
    let two = with_tile(&one, 22, 3, 9);
    let t0 = Instant::now();
    let writer = {
        let (map, two) = (map.clone(), two.clone());
        thread::spawn(move || save_in_place(&map, &two, Duration::from_millis(300)))
    };
    let mut series = Vec::new();
    while t0.elapsed() < Duration::from_millis(1500) {
        series.push((t0.elapsed().as_secs_f64(), run.shot()));
    }
    writer.join().expect("the writer");
    let t2 = series.iter().find(|(_, s)| cell_changed(&after, s, cell(22, 3))).map(|(t, _)| *t);
    for (i, (t, s)) in series.iter().enumerate() {
        s.save_half(&keep.join(format!("in-place-{i:02}-{:04}ms.png", (t * 1000.0) as u32)));
    }
    assert!(series.iter().all(|(_, s)| !has_banner(s)), "the half-written file showed a banner {ctx}");
    let t2 = t2.unwrap_or_else(|| panic!("the in-place save was not on screen 1.5 s after it began {ctx}"));

    // 3. A broken save: a stray '<' on a known line.
    let (line, _) = two.lines().enumerate().find(|(_, l)| l.contains("<layer ")).expect("the layer line");
    let broken = two.replacen("<layer ", "<layer < ", 1);
    let t0 = Instant::now();
    save_renamed(&map, &broken);
    let (banner, t3) = run.until(t0, "broken-save", has_banner);
    // The game plays on under the banner: the player walks right.
    run.x.xdo(&["keydown", "Right"]);
    thread::sleep(Duration::from_millis(400));
    run.x.xdo(&["keyup", "Right"]);
    thread::sleep(Duration::from_millis(300));
    let walked = run.keep("walked-under-the-banner");
    assert!(has_banner(&walked), "the banner went without a good save {ctx}");
    assert!(differing(&banner, &walked, Some(LEFT), &[]) > 100, "the player did not walk under the banner {ctx}");

    // ... saved fixed, with a third tile.
    let three = with_tile(&two, 24, 3, 9);
    let t0 = Instant::now();
    save_in_place(&map, &three, Duration::ZERO);
    let (_, t4) = run.until(t0, "fixed-save", |s| !has_banner(s) && cell_changed(&walked, s, cell(24, 3)));
    eprintln!(
        "save to screen: renamed {:.0} ms, in place (300 ms pause) {:.0} ms, broken (banner) {:.0} ms, fixed {:.0} ms",
        t1 * 1e3,
        t2 * 1e3,
        t3 * 1e3,
        t4 * 1e3
    );

    // Pause and quit; the exit stats.
    run.x.xdo(&["key", "Escape"]);
    thread::sleep(Duration::from_millis(300));
    run.x.xdo(&["key", "q"]);
    let mut game = run.game.take().expect("the game");
    let status = game.wait_for(Duration::from_secs(20));
    let (_, stdout, stderr) = game.finish();
    let out = format!("{ctx}\nstdout: {stdout}\nstderr: {stderr}");
    assert!(status.is_some_and(|s| s.success()) && summary_line(&stdout).is_some(), "no clean exit {out}");
    let want = format!("copy.tmx:{}:", line + 1);
    assert!(stderr.contains(&want), "no '{want}' warning {out}");
    assert_eq!(stderr.matches("reloaded ").count(), 3, "three reloads logged {out}");
    assert!(!stderr.contains("moved to the nearest respawn place"), "{out}");
    let s: serde_json::Value = serde_json::from_str(&fs::read_to_string(&stats).expect("stats")).expect("JSON");
    assert_eq!(stat(&s, "respawns"), 0.0, "{out}");
    eprintln!("screenshots kept in {}", keep.display());
}
