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
//! 3. Saved broken (a misspelt closing tag on a known line): the banner appears at the bottom of the view,
//!    the game prints `COPY.tmx:LINE:` and the player still walks; saved fixed with a third tile:
//!    the banner goes and the tile appears.
//!
//! The exit stats count no respawn. The time from each save to the first shot showing it is
//! printed (docs/speed.md has the figures); nothing is asserted on it beyond a 10 s
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
/// The bottom rows of the window, where the banner goes.
const BOTTOM: Rect = (0, 600, 1280, 720);

fn inside((x0, y0, x1, y1): Rect, x: usize, y: usize) -> bool {
    (x0..x1).contains(&x) && (y0..y1).contains(&y)
}

/// The part `r` of a whole-window shot.
fn crop(s: &Shot, (x0, y0, x1, y1): Rect) -> Shot {
    let mut rgb = Vec::with_capacity((x1 - x0) * (y1 - y0) * 3);
    for y in y0..y1 {
        rgb.extend_from_slice(&s.rgb[(y * s.w + x0) * 3..(y * s.w + x1) * 3]);
    }
    Shot { w: x1 - x0, h: y1 - y0, rgb }
}

/// Pixels of two same-size shots that differ by more than 24 in some channel, leaving out the
/// rectangles `skip`.
fn differing(a: &Shot, b: &Shot, skip: &[Rect]) -> usize {
    let mut n = 0;
    for y in 0..a.h {
        for x in 0..a.w {
            let i = (y * a.w + x) * 3;
            let far = (0..3).any(|c| a.rgb[i + c].abs_diff(b.rgb[i + c]) > 24);
            if far && !skip.iter().any(|&s| inside(s, x, y)) {
                n += 1;
            }
        }
    }
    n
}

/// Over half the pixels of two same-size shots differ.
fn mostly_changed(a: &Shot, b: &Shot) -> bool {
    differing(a, b, &[]) * 2 > a.w * a.h
}

/// A banner is up in a [`BOTTOM`] shot: a panel a whole view wide, over 10,000 pixels of its
/// colour.
fn has_banner(bottom: &Shot) -> bool {
    let near = |i: usize| (0..3).all(|c| bottom.rgb[i + c].abs_diff(BANNER[c]) <= 6);
    (0..bottom.w * bottom.h).filter(|p| near(p * 3)).count() > 10_000
}

/// `map` with tile gid `gid` at (`col`, `row`) of its CSV layer.
fn with_tile(map: &str, col: usize, row: usize, gid: u32) -> String {
    let start = map.find("<data encoding=\"csv\">").expect("a CSV layer") + "<data encoding=\"csv\">\n".len();
    let end = start + map[start..].find("</data>").expect("the layer's end");
    let mut rows: Vec<Vec<String>> = map[start..end]
        .lines()
        .map(|l| l.trim_end_matches(',').split(',').map(str::to_owned).collect())
        .collect();
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

/// When a save was first seen on screen: the end of the last grab that did not show it and of
/// the first that did, seconds after the save.
type Seen = (f64, f64);

impl Run {
    /// The part `r` of the window in the last raw grab.
    fn part(&self, (x0, y0, x1, y1): Rect) -> Shot {
        read_xwd(&self.raw, (self.rect.0 + x0, self.rect.1 + y0, x1 - x0, y1 - y0))
    }

    /// A whole-window shot, kept as `NN-NAME.png` for a human.
    fn keep(&mut self, name: &str) -> Shot {
        grab(&self.x, &self.raw);
        let s = self.part((0, 0, self.rect.2, self.rect.3));
        s.save_half(&self.keep.join(format!("{:02}-{name}.png", self.kept)));
        self.kept += 1;
        s
    }

    /// Raw grabs until `done` holds for one (it reads parts of it with [`Run::part`]); that one
    /// is kept as NAME. Fails 10 s after `t0`; calls `check` on every grab before (and on the
    /// one that shows it).
    fn until(
        &mut self,
        t0: Instant,
        name: &str,
        done: impl Fn(&Run) -> bool,
        check: impl Fn(&Run),
    ) -> (Shot, Seen) {
        let mut before = 0.0;
        loop {
            grab(&self.x, &self.raw);
            let t = t0.elapsed().as_secs_f64();
            check(self);
            if done(self) {
                return (self.keep(name), (before, t));
            }
            assert!(t < 10.0, "{name}: not on screen 10 s after the save (shots in {})", self.keep.display());
            before = t;
        }
    }
}

/// The fixture with its tileset named by absolute path, so that a copy anywhere loads.
fn fixture() -> String {
    let tileset = root().join("assets/tilesets/ledge.tsx");
    let fixture = fs::read_to_string(root().join("tests/fixtures/levels/feel.tmx")).expect("the fixture");
    let good = fixture.replace("../../../assets/tilesets/ledge.tsx", tileset.to_str().expect("utf-8 path"));
    assert_ne!(good, fixture, "the fixture's tileset path changed");
    good
}

impl Run {
    /// The game on `map` (with `extra` flags, `--stats` into the scratch folder, the app's
    /// info log on), focused; screenshots kept in `ledge-window-reload/NAME` under the temporary
    /// folder. Returns once the fade-in is over and the player walked left to the stone block.
    fn start(scratch: &Scratch, map: &Path, extra: &[&str], name: &str) -> Run {
        let keep = std::env::temp_dir().join("ledge-window-reload").join(name);
        let _ = fs::remove_dir_all(&keep);
        fs::create_dir_all(&keep).expect("the screenshot folder");
        let x = Xvfb::start();
        let stats = scratch.path("stats.json");
        let mut args =
            vec!["--level", map.to_str().unwrap(), "--fps-cap", "60", "--stats", stats.to_str().unwrap()];
        args.extend_from_slice(extra);
        let mut cmd = x.game_command(scratch, &args);
        cmd.env("LEDGE_AUDIO", "off").env("RUST_LOG", "warn,ledge::app=info");
        let mut game = Proc::spawn("ledge", &mut cmd);
        let win = x.wait_window(&mut game);
        x.focus(&win);
        let rect = window_rect(&x, &win);
        assert_eq!((rect.2, rect.3), (1280, 720), "the window is not 1280x720 (2x the view)");
        let run = Run { x, game: Some(game), rect, raw: scratch.path("raw.xwd"), keep, kept: 0 };
        thread::sleep(Duration::from_millis(1500));
        run.x.xdo(&["keydown", "Left"]);
        thread::sleep(Duration::from_millis(1500));
        run.x.xdo(&["keyup", "Left"]);
        thread::sleep(Duration::from_millis(800));
        run
    }

    /// Pause, quit: a clean exit with the summary line. Returns stderr and the `--stats` JSON
    /// (in `scratch`), with a context string for messages.
    fn quit(mut self, scratch: &Scratch) -> (String, serde_json::Value, String) {
        self.x.xdo(&["key", "Escape"]);
        thread::sleep(Duration::from_millis(300));
        self.x.xdo(&["key", "q"]);
        let mut game = self.game.take().expect("the game");
        let status = game.wait_for(Duration::from_secs(20));
        let (_, stdout, stderr) = game.finish();
        let out = format!("(shots in {})\nstdout: {stdout}\nstderr: {stderr}", self.keep.display());
        assert!(
            status.is_some_and(|s| s.success()) && summary_line(&stdout).is_some(),
            "no clean exit {out}"
        );
        let stats = fs::read_to_string(scratch.path("stats.json")).expect("the stats file");
        (stderr, serde_json::from_str(&stats).expect("JSON"), out)
    }
}

#[test]
fn a_level_saved_while_it_is_played_is_on_screen_at_once_and_a_broken_save_plays_on() {
    let _serial = serial();
    let scratch = Scratch::new("window-reload");
    let good = fixture();
    let map = scratch.path("copy.tmx");
    fs::write(&map, &good).expect("write the copy");
    let mut run = Run::start(&scratch, &map, &[], "saves");
    let keep = run.keep.clone();
    let before = run.keep("standing");
    assert!(!has_banner(&crop(&before, BOTTOM)), "a banner before any save");

    // 1. Tiled's save: a temporary file renamed over the map.
    let one = with_tile(&good, 20, 3, 9);
    let t0 = Instant::now();
    save_renamed(&map, &one);
    let was = crop(&before, cell(20, 3));
    let (_, seen1) = run.until(t0, "renamed-save", |r| mostly_changed(&was, &r.part(cell(20, 3))), |_| {});
    thread::sleep(Duration::from_millis(300));
    let after = run.keep("after-renamed-save");
    let elsewhere = differing(&before, &after, &[HUD, cell(20, 3)]);
    let spawn = differing(&crop(&before, SPAWN), &crop(&after, SPAWN), &[]);
    let ctx = format!("(shots in {})", keep.display());
    assert!(
        elsewhere < 1500 && spawn < 30,
        "the rest of the picture changed: {elsewhere} px, {spawn} at the spawn {ctx}"
    );
    assert!(!has_banner(&crop(&after, BOTTOM)), "a banner after a good save {ctx}");

    // 2. An in-place save, its second half 300 ms after the first: no grab shows a banner.
    let two = with_tile(&one, 22, 3, 9);
    let t0 = Instant::now();
    let writer = {
        let (map, two) = (map.clone(), two.clone());
        thread::spawn(move || save_in_place(&map, &two, Duration::from_millis(300)))
    };
    let was = crop(&after, cell(22, 3));
    let no_banner =
        |r: &Run| assert!(!has_banner(&r.part(BOTTOM)), "the half-written file showed a banner {ctx}");
    let (_, seen2) =
        run.until(t0, "in-place-save", |r| mostly_changed(&was, &r.part(cell(22, 3))), no_banner);
    writer.join().expect("the writer");
    // ... and none for a while after (the retries ended in a good load).
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(800) {
        grab(&run.x, &run.raw);
        no_banner(&run);
    }

    // 3. A broken save: a misspelt closing tag on a known line.
    let (line, _) = two.lines().enumerate().find(|(_, l)| l.contains("</layer>")).expect("the layer's end");
    let broken = two.replacen("</layer>", "</layr>", 1);
    let t0 = Instant::now();
    save_renamed(&map, &broken);
    let (banner, seen3) = run.until(t0, "broken-save", |r| has_banner(&r.part(BOTTOM)), |_| {});
    // The game plays on under the banner: the player walks right.
    run.x.xdo(&["keydown", "Right"]);
    thread::sleep(Duration::from_millis(400));
    run.x.xdo(&["keyup", "Right"]);
    thread::sleep(Duration::from_millis(300));
    let walked = run.keep("walked-under-the-banner");
    assert!(has_banner(&crop(&walked, BOTTOM)), "the banner went without a good save {ctx}");
    let moved = differing(&crop(&banner, LEFT), &crop(&walked, LEFT), &[]);
    assert!(moved > 100, "the player did not walk under the banner ({moved} px changed) {ctx}");

    // ... saved fixed, with a third tile: the banner goes, the tile shows.
    let three = with_tile(&two, 24, 3, 9);
    let t0 = Instant::now();
    save_in_place(&map, &three, Duration::ZERO);
    let was = crop(&walked, cell(24, 3));
    let fixed = |r: &Run| !has_banner(&r.part(BOTTOM)) && mostly_changed(&was, &r.part(cell(24, 3)));
    let (_, seen4) = run.until(t0, "fixed-save", fixed, |_| {});
    let ms = |(a, b): Seen| format!("{:.0}-{:.0} ms", a * 1e3, b * 1e3);
    eprintln!(
        "save to screen (between the last grab without it and the first with it): renamed {}, in \
         place with a 300 ms pause {}, broken (the banner) {}, fixed {}",
        ms(seen1),
        ms(seen2),
        ms(seen3),
        ms(seen4)
    );

    // Quit; what the game printed and counted.
    let (stderr, stats, out) = run.quit(&scratch);
    let want = format!("copy.tmx:{}:", line + 1);
    assert!(stderr.contains(&want), "no '{want}' warning {out}");
    let reloads: Vec<&str> = stderr.lines().filter(|l| l.contains("reloaded ")).collect();
    eprintln!("the game's log:\n{}", reloads.join("\n"));
    assert_eq!(reloads.len(), 3, "three reloads logged {out}");
    assert!(reloads.iter().all(|l| l.contains("player kept")), "{out}");
    assert_eq!(stat(&stats, "respawns"), 0.0, "{out}");
    eprintln!("screenshots kept in {}", keep.display());
}

/// `--no-watch`: a save changes nothing on screen, and nothing is reloaded.
#[test]
fn with_no_watch_a_save_changes_nothing() {
    let _serial = serial();
    let scratch = Scratch::new("window-no-watch");
    let good = fixture();
    let map = scratch.path("copy.tmx");
    fs::write(&map, &good).expect("write the copy");
    let mut run = Run::start(&scratch, &map, &["--no-watch"], "no-watch");
    let before = run.keep("standing");
    save_renamed(&map, &with_tile(&good, 20, 3, 9));
    // 2 s: over three times the longest a watched game took to show a save (docs/speed.md,
    // "Current figures").
    thread::sleep(Duration::from_millis(2000));
    let after = run.keep("two-seconds-after-the-save");
    let changed = differing(&crop(&before, cell(20, 3)), &crop(&after, cell(20, 3)), &[]);
    let (stderr, _, out) = run.quit(&scratch);
    assert_eq!(changed, 0, "the saved tile shows with --no-watch {out}");
    assert!(!stderr.contains("reloaded "), "{out}");
}
