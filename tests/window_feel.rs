//! The cosmetic layer (issue #18) as a player sees it: the real game binary in a real X window
//! on a private Xvfb server (`tests/common/xvfb.rs`), `--fps-cap 144`, on
//! `tests/fixtures/levels/feel.tmx` (a flat floor exactly the view's 640 px wide and shorter
//! than the view, so the camera is centred, bottom-aligned and never moves; spikes right of the
//! spawn, no checkpoint). Screenshots are raw `xwd` grabs (about 70 ms each; `convert` to PNG
//! takes about a second, so the series is decoded here and written as PNGs afterwards, into a
//! folder under the temporary folder that the test prints and keeps for a human to look at).
//!
//! - A jump: some shot soon after Space shows dust (`c0cbdc`) near the feet that the resting
//!   shot lacks; some shot of the rise shows the player's box taller and narrower than at rest
//!   (the 0.6 x 1.4 stretch); some shot back on the floor after the apex shows it wider and
//!   shorter (the landing squash) or landing dust. The player's box is where a shot differs
//!   from a background shot taken once the player has walked away (the camera is static).
//! - Deaths with `screen_shake = "off"`: every shot of a run into the spikes, the ones during
//!   the 0.3 s after each death included, draws the scenery at the same place as before.
//!   With `"full"` (the control) at least half the shots after a death draw it offset.
//!
//! Clock: wall time (real processes, real sleeps).

mod common;

use common::root;
use common::scratch::Scratch;
use common::xvfb::{Xvfb, serial, window_rect};
use common::xwd::{Shot, grab, read_xwd};
use ledge::cosmetic::ShakeLevel;
use ledge::save::Settings;
use std::fs;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

/// The dust puffs' colour (`present::effect_sprites::effect_srgb(Dust)`).
const DUST: [u8; 3] = [0xc0, 0xcb, 0xdc];
/// The spawn's feet in window pixels: level (424, 160), the 192 px tall level bottom-aligned
/// in the 360 px view (+168), drawn at 2x.
const FEET: (usize, usize) = (848, 656);

/// A rectangle `(x0, y0, x1, y1)`, window pixels, the ends exclusive.
type Rect = (usize, usize, usize, usize);

/// A folder under the temporary folder that outlives the test, emptied, for the PNGs.
fn keep_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join("ledge-window-feel").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create the screenshot folder");
    dir
}

/// Writes `shots` as `NN-TTTTms.png` into `dir` (for a human) and prints where they are.
fn save_series(dir: &Path, shots: &[(f64, Shot)]) {
    for (i, (t, s)) in shots.iter().enumerate() {
        s.save_half(&dir.join(format!("{i:02}-{:04}ms.png", (t * 1000.0) as u32)));
    }
    eprintln!("{} screenshots kept in {}", shots.len(), dir.display());
}

/// The game on the fixture, focused, and its window's rectangle `(x, y, w, h)`.
struct Run {
    x: Xvfb,
    _game: common::proc::Proc,
    rect: (usize, usize, usize, usize),
    raw: PathBuf,
}

impl Run {
    /// Starts the game with `extra` flags; returns it and a first shot once the level's fade-in
    /// is over (two grabs 0.3 s apart that agree below the HUD, and not a black window).
    fn start(scratch: &Scratch, extra: &[&str]) -> (Run, Shot) {
        let level = root().join("tests/fixtures/levels/feel.tmx");
        let mut args = vec!["--level", level.to_str().expect("utf-8 path"), "--fps-cap", "144"];
        args.extend_from_slice(extra);
        let x = Xvfb::start();
        let mut game = x.game(scratch, &args);
        let win = x.wait_window(&mut game);
        x.focus(&win);
        let rect = window_rect(&x, &win);
        assert_eq!((rect.2, rect.3), (1280, 720), "the window is not 1280x720 (2x the view)");
        let run = Run { x, _game: game, rect, raw: scratch.path("raw.xwd") };
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut last = run.shot();
        loop {
            thread::sleep(Duration::from_millis(300));
            let now = run.shot();
            let below_hud = 80 * now.w * 3;
            let changed = now.rgb[below_hud..].iter().zip(&last.rgb[below_hud..]).filter(|(a, b)| a != b);
            let lit = now.rgb.chunks_exact(3).filter(|p| p.iter().any(|&c| c > 40)).count();
            if changed.count() < 1500 && lit > now.w * now.h / 2 {
                return (run, now);
            }
            assert!(Instant::now() < deadline, "the picture never settled after the fade-in");
            last = now;
        }
    }

    /// One screenshot of the window.
    fn shot(&self) -> Shot {
        grab(&self.x, &self.raw);
        read_xwd(&self.raw, self.rect)
    }

    /// Screenshots as fast as `xwd` goes for `secs` seconds (raw files, decoded afterwards),
    /// each with its time since the start; `at(t)` runs between grabs (key presses, releases).
    fn series(&self, secs: f64, mut at: impl FnMut(f64)) -> Vec<(f64, Shot)> {
        let t0 = Instant::now();
        let mut raw = Vec::new();
        while t0.elapsed().as_secs_f64() < secs {
            at(t0.elapsed().as_secs_f64());
            let path = self.raw.with_extension(format!("{}.xwd", raw.len()));
            let t = t0.elapsed().as_secs_f64();
            grab(&self.x, &path);
            raw.push((t, path));
        }
        raw.iter().map(|(t, p)| (*t, read_xwd(p, self.rect))).collect()
    }
}

/// The player's bounding box `(x0, y0, x1, y1)` (exclusive ends, window pixels) in `s`: the
/// pixels near the spawn that differ from the background `bg` (the same view without the
/// player), dust-coloured ones left out.
fn player_box(s: &Shot, bg: &Shot) -> Option<Rect> {
    let mut b: Option<Rect> = None;
    for y in FEET.1 - 280..FEET.1 + 4 {
        for x in FEET.0 - 120..FEET.0 + 120 {
            let (p, q) = (s.px(x, y), bg.px(x, y));
            if p == DUST || p.iter().zip(q).all(|(a, b)| a.abs_diff(b) <= 24) {
                continue;
            }
            let (x0, y0, x1, y1) = b.unwrap_or((x, y, x + 1, y + 1));
            b = Some((x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1)));
        }
    }
    b
}

/// Dust-coloured pixels within 64 px of the spawn's feet (56 px above to 8 below) that are not
/// dust-coloured in `bg` and not inside the player's box `pb`.
fn dust_near_feet(s: &Shot, bg: &Shot, pb: Option<Rect>) -> usize {
    let inside = |x, y| pb.is_some_and(|(x0, y0, x1, y1)| (x0..x1).contains(&x) && (y0..y1).contains(&y));
    let near = (FEET.1 - 56..FEET.1 + 8).flat_map(|y| (FEET.0 - 64..FEET.0 + 64).map(move |x| (x, y)));
    near.filter(|&(x, y)| s.px(x, y) == DUST && bg.px(x, y) != DUST && !inside(x, y)).count()
}

#[test]
fn a_jump_kicks_up_dust_and_stretches_the_player_and_the_landing_squashes_him() {
    let _serial = serial();
    let scratch = Scratch::new("feel-jump");
    let (run, rest) = Run::start(&scratch, &[]);
    // Space (the default jump key) held 0.4 s: a full-height jump, about 56 px up and 0.65 s in
    // the air, landing at about 440 px/s (over 160: landing dust, a squash towards 1.6 x 0.4).
    let mut released = false;
    run.x.xdo(&["keydown", "space"]);
    let shots = run.series(1.4, |t| {
        if t >= 0.4 && !released {
            run.x.xdo(&["keyup", "space"]);
            released = true;
        }
    });
    // Walk away left (the stone block stops him near x = 96) and photograph the empty spawn.
    run.x.xdo(&["keyup", "space"]);
    run.x.xdo(&["keydown", "Left"]);
    thread::sleep(Duration::from_millis(1500));
    run.x.xdo(&["keyup", "Left"]);
    thread::sleep(Duration::from_millis(800));
    let bg = run.shot();
    let dir = keep_dir("jump");
    save_series(&dir, &shots);
    rest.save_half(&dir.join("rest.png"));
    bg.save_half(&dir.join("background.png"));

    let r = player_box(&rest, &bg).expect("no player near the spawn in the resting shot");
    let (w0, h0) = ((r.2 - r.0) as f64, (r.3 - r.1) as f64);
    assert!(h0 >= 36.0 && w0 >= 16.0 && r.3.abs_diff(FEET.1) <= 2, "resting box {r:?}: not the player");
    assert_eq!(dust_near_feet(&rest, &bg, Some(r)), 0, "dust at rest ({})", dir.display());
    let seen: Vec<_> = shots
        .iter()
        .map(|(t, s)| {
            let b = player_box(s, &bg);
            (*t, b, dust_near_feet(s, &bg, b))
        })
        .collect();
    for (i, (t, b, dust)) in seen.iter().enumerate() {
        let size = b.map(|b| (b.2 - b.0, b.3 - b.1));
        eprintln!("shot {i:02} at {t:.3} s: box {b:?} size {size:?}, {dust} dust pixels near the feet");
    }
    let ctx = format!("(at rest {w0} x {h0}; screenshots in {})", dir.display());
    let apex = (0..seen.len()).min_by_key(|&i| seen[i].1.map_or(usize::MAX, |b| b.3)).expect("shots");
    let top = seen[apex].1.expect("a box at the apex");
    assert!(top.3 + 60 < FEET.1, "the player never rose 60 px (30 level px): apex box {top:?} {ctx}");
    let (rise, fall) = seen.split_at(apex + 1);
    let dims = |b: Rect| ((b.2 - b.0) as f64, (b.3 - b.1) as f64);
    let stretched =
        |s: &(f64, Option<Rect>, usize)| s.1.map(dims).is_some_and(|(w, h)| w <= 0.87 * w0 && h >= 1.15 * h0);
    let squashed =
        |s: &(f64, Option<Rect>, usize)| s.1.map(dims).is_some_and(|(w, h)| w >= 1.15 * w0 && h <= 0.87 * h0);
    assert!(rise.iter().any(|s| s.2 >= 12), "no jump dust near the feet while rising {ctx}");
    assert!(rise.iter().any(stretched), "the player was never taller and narrower while rising {ctx}");
    let landed: Vec<_> = fall.iter().filter(|s| s.1.is_some_and(|b| b.3.abs_diff(FEET.1) <= 2)).collect();
    assert!(!landed.is_empty(), "no shot shows the player back on the floor {ctx}");
    let (squashed, dusty) =
        (landed.iter().filter(|s| squashed(s)).count(), landed.iter().filter(|s| s.2 >= 12).count());
    eprintln!("landed shots: {}, squashed {squashed}, with landing dust {dusty}", landed.len());
    assert!(squashed + dusty > 0, "no squash and no landing dust after the landing {ctx}");
}

/// The scenery compared for a shake, window pixels: left of the spawn (the player, the death
/// burst and the respawn orbs stay right of x = 700), hills, mountains, the stone block and the
/// floor's top, every fourth pixel.
const REGION: (std::ops::Range<usize>, std::ops::Range<usize>) = (40..600, 440..700);

/// Every pixel's grey level (r + 2g + b).
fn grey(s: &Shot) -> Vec<f32> {
    s.rgb.chunks_exact(3).map(|p| f32::from(p[0]) + 2.0 * f32::from(p[1]) + f32::from(p[2])).collect()
}

/// Where `shot` draws the scenery of `reference` (both [`grey`], `w` wide): the offset (even
/// window pixels, whole level pixels at 2x, up to 14 either way) with the best normalised
/// cross-correlation over [`REGION`], and that score (1: identical). The flash and the fade
/// after a death change the brightness and contrast, which the correlation does not see.
fn offset(reference: &[f32], shot: &[f32], w: usize) -> ((i32, i32), f64) {
    let row = |g: &[f32], y: usize| g[y * w + REGION.0.start..y * w + REGION.0.end].to_vec();
    if REGION.1.clone().all(|y| row(reference, y) == row(shot, y)) {
        return ((0, 0), 1.0);
    }
    let mut best = ((0, 0), f64::MIN);
    for dy in (-14..=14).step_by(2) {
        for dx in (-14..=14).step_by(2) {
            let (mut n, mut sa, mut sb, mut saa, mut sbb, mut sab) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
            for y in REGION.1.clone().step_by(4) {
                for x in REGION.0.clone().step_by(4) {
                    let a = f64::from(reference[y * w + x]);
                    let b = f64::from(shot[(y as i32 + dy) as usize * w + (x as i32 + dx) as usize]);
                    (n, sa, sb) = (n + 1.0, sa + a, sb + b);
                    (saa, sbb, sab) = (saa + a * a, sbb + b * b, sab + a * b);
                }
            }
            let score = (sab - sa * sb / n) / ((saa - sa * sa / n) * (sbb - sb * sb / n)).sqrt().max(1e-9);
            if score > best.1 {
                best = ((dx, dy), score);
            }
        }
    }
    best
}

/// The mean grey of [`REGION`] in `shot` over that in `reference`.
fn brightness(reference: &[f32], shot: &[f32], w: usize) -> f64 {
    let sum = |g: &[f32]| REGION.1.clone().flat_map(|y| g[y * w..][REGION.0.clone()].iter()).sum::<f32>();
    f64::from(sum(shot)) / f64::from(sum(reference))
}

/// Below this [`brightness`] a shot is "after a death": the respawn fade (black from 0.6
/// opacity to nothing over 0.3 s) starts in the death's tick, as the shake does (a death and
/// its respawn are one tick), and lasts as long. Nothing else changes the scenery's brightness.
const FADED: f64 = 0.99;

/// Holds Right for 3 s on the fixture with `screen_shake` at `level` in the settings file: the
/// player runs into the spikes, respawns at the spawn and runs in again (a death about every
/// 0.7 s). Returns each shot's (time, brightness, offset, score), having checked that the shots
/// caught at least two deaths (two runs of faded shots, with unfaded ones between).
fn run_into_spikes(level: ShakeLevel) -> Vec<(f64, f64, (i32, i32), f64)> {
    let scratch = Scratch::new("feel-shake");
    let save_dir = scratch.path("save");
    fs::create_dir_all(&save_dir).expect("create the save folder");
    let mut settings = Settings::default();
    settings.display.screen_shake = level;
    let text = settings.to_text();
    assert!(text.contains(&format!("screen_shake = \"{}\"", level.label())), "{text}");
    fs::write(save_dir.join("settings.toml"), text).expect("write settings.toml");
    let (run, reference) = Run::start(&scratch, &["--save-dir", save_dir.to_str().expect("utf-8 temp path")]);
    run.x.xdo(&["keydown", "Right"]);
    let shots = run.series(3.0, |_| {});
    run.x.xdo(&["keyup", "Right"]);
    let dir = keep_dir(&format!("shake-{}", level.label()));
    reference.save_half(&dir.join("reference.png"));
    save_series(&dir, &shots);

    let (w, g0) = (reference.w, grey(&reference));
    let seen: Vec<_> = shots
        .iter()
        .map(|(t, s)| {
            let g = grey(s);
            let (off, score) = offset(&g0, &g, w);
            (*t, brightness(&g0, &g, w), off, score)
        })
        .collect();
    for (i, (t, b, off, score)) in seen.iter().enumerate() {
        eprintln!("shot {i:02} at {t:.3} s: brightness {b:.3}, scenery offset {off:?} (score {score:.4})");
    }
    let deaths = seen.windows(2).filter(|p| p[0].1 >= FADED && p[1].1 < FADED).count();
    let ctx = format!("screenshots in {}", dir.display());
    assert!(deaths >= 2, "the shots caught {deaths} deaths (runs of faded shots), want 2 ({ctx})");
    seen
}

/// `screen_shake = "off"`: every shot of the run, each one during the 0.3 s after a death
/// (faded) included, draws the scenery exactly where the reference shot did. The camera cannot
/// move (the level is the view's width and bottom-aligned), so only a shake could move it.
#[test]
fn with_shake_off_two_deaths_draw_no_view_offset() {
    let _serial = serial();
    let seen = run_into_spikes(ShakeLevel::Off);
    for (t, b, off, score) in &seen {
        assert!(*score > 0.9, "at {t:.3} s the scenery matched the reference only at {score:.3}");
        assert_eq!(*off, (0, 0), "at {t:.3} s (brightness {b:.3}) the scenery moved, with the shake off");
    }
}

/// The control, `screen_shake = "full"`: at least half the shots after a death (faded) draw the
/// scenery offset (a shake is never 0 while it lasts; the fade's last sliver may outlive it).
#[test]
fn with_shake_full_a_death_draws_the_view_offset() {
    let _serial = serial();
    let seen = run_into_spikes(ShakeLevel::Full);
    let faded = seen.iter().filter(|s| s.1 < FADED).count();
    let shaken = seen.iter().filter(|s| s.1 < FADED && s.2 != (0, 0)).count();
    eprintln!("{shaken} of {faded} shots after a death show the scenery offset");
    assert!(shaken >= 1 && 2 * shaken >= faded, "{shaken} of {faded} shots after a death shaken");
}
