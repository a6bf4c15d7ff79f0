//! Golden images: frames drawn off-screen through the game's renderer (lavapipe on machines
//! without a GPU) compared with PNGs in `tests/golden/` with a tolerance — a per-pixel
//! difference, not exact bytes (drivers may round differently). Cases: the first level's
//! start, a fractional camera offset (no tile seams), the frame right after a teleport (no
//! streak), the goal portal turned to a mid-tick angle, the F3 overlay over the game, and
//! every entity kind in every drawn state at a fractional alpha.
//!
//! `LEDGE_BLESS=1 cargo test --test golden` rewrites the goldens (look at them before
//! committing); a missing golden fails the test. With no adapter at all the tests fail
//! (`common::gpu::offscreen`): CI installs Mesa's lavapipe (scripts/test).

mod common;

use common::images::{load_rgba, save_png};
use common::root;
use ledge::game_loop::FrameStats;
use ledge::game_loop::Loop;
use ledge::lab::{LabOptions, run_script_observed};
use ledge::ui::{Layer, OverlayInfo, Screen, Telemetry, telemetry_overlay};
use std::path::{Path, PathBuf};

const W: u32 = 1280;
const H: u32 = 720;

/// A channel may differ by this much (0..255) before the pixel counts as different.
const CHANNEL_TOLERANCE: u8 = 24;
/// At most this fraction of pixels may differ.
const MAX_DIFFERENT: f64 = 0.002;

fn golden_path(name: &str) -> PathBuf {
    root().join("tests/golden").join(format!("{name}.png"))
}

fn load_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let (w, h, rgba) = load_rgba(path).unwrap_or_else(|e| {
        panic!("{e}: missing golden; run `LEDGE_BLESS=1 cargo test --test golden` and look at it")
    });
    (w, h, rgba)
}

/// Compare `rgba` (W x H) with the golden `name`, or write it when blessing.
fn check(name: &str, rgba: &[u8]) {
    let path = golden_path(name);
    if std::env::var_os("LEDGE_BLESS").is_some() {
        save_png(&path, W, H, rgba).unwrap();
        eprintln!("blessed {}", path.display());
        return;
    }
    let (w, h, want) = load_png(&path);
    assert_eq!((w, h), (W, H), "{name}: golden size");
    let different = want
        .chunks(4)
        .zip(rgba.chunks(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).take(3).any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE))
        .count();
    let frac = different as f64 / (W * H) as f64;
    if frac > MAX_DIFFERENT {
        let got = std::env::temp_dir().join(format!("ledge-golden-{name}.png"));
        let _ = save_png(&got, W, H, rgba);
        panic!(
            "{name}: {different} pixels ({:.3}%) differ from {}; got {}",
            frac * 100.0,
            path.display(),
            got.display()
        );
    }
}

fn opts() -> LabOptions {
    common::lab::options("golden", root(), true)
}

/// Run `script`, drawing the first frame for which `pick` says yes; returns the image.
fn shoot(script: &str, mut pick: impl FnMut(u64, &Loop) -> bool) -> Vec<u8> {
    let mut off = common::gpu::offscreen();
    let mut shot = None;
    run_script_observed(script, &opts(), &mut |f, lp| {
        if shot.is_none() && pick(f, lp) {
            shot = Some(off.render(&lp.view(), W, H).map_err(|e| e.to_string())?);
        }
        Ok(())
    })
    .unwrap();
    shot.expect("the picked frame came")
}

#[test]
fn first_level_start() {
    let img = shoot("frame 16.666667 x2\n", |f, _| f == 1);
    check("level1-start", &img);
}

#[test]
fn fractional_camera_offset_shows_no_seams() {
    // Running right across a tiled floor and stacked blocks: pick a frame whose camera sits
    // between pixels (fraction 0.3..0.7 of a level pixel).
    let floor = "#".repeat(120);
    let sky = ".".repeat(120);
    let mut rows = vec![sky.clone(); 20];
    rows[17] = format!("...P{}", &sky[4..]);
    rows[15] = format!("{}###-----^^^####{}", &sky[..30], &sky[46..]);
    let script =
        format!("map\n{}\n{floor}\n{floor}\nend\npress right @0\nframe 6.9444 x400\n", rows.join("\n"));
    let mut camera = 0.0;
    let img = shoot(&script, |f, lp| {
        camera = lp.camera().centre.x;
        f > 100 && (0.3..0.7).contains(&camera.fract())
    });
    assert!((0.3..0.7).contains(&camera.fract()), "camera at {camera}");
    check("fractional-camera", &img);
}

#[test]
fn teleport_frame_has_no_streak() {
    let script = "map\n............................................................\n............................................................\n...P........................................................\n############################################################\nend\nframe 16.6667 x10\nteleport 600 10\nframe 6.9444 x20\n";
    let img = shoot(script, |_, lp| lp.drawn().x >= 599.0);
    check("teleport", &img);
}

#[test]
fn goal_turned_between_two_ticks() {
    // Frame 14 ends 14.5 ticks in: tick 14, alpha 0.5, so the goal (3° a tick at 60 Hz) is
    // drawn at 40.5°, between tick 13's 39° and tick 14's 42° — a non-right angle, where the
    // stair-stepped edges of rotated pixel art show.
    let sky = ".".repeat(40);
    let mut rows = vec![sky.clone(); 10];
    rows[9] = format!("....P.....G{}", &sky[11..]);
    let floor = "#".repeat(40);
    let script =
        format!("map\n{}\n{floor}\n{floor}\nend\nframe 8.333333\nframe 16.666667 x20\n", rows.join("\n"));
    let mut angle = 0.0;
    let img = shoot(&script, |f, lp| {
        angle = lp.view().goal_angle;
        f == 14
    });
    assert!((angle.to_degrees() - 40.5).abs() < 1e-3, "goal at {}°", angle.to_degrees());
    check("goal-turned", &img);
}

#[test]
fn telemetry_overlay_over_the_game() {
    let mut off = common::gpu::offscreen();
    let mut img = None;
    run_script_observed("frame 16.666667 x2\n", &opts(), &mut |f, lp| {
        if f != 1 {
            return Ok(());
        }
        // A fixed, hostile history: 60 Hz frames, a 144 Hz stretch, a clamped stall, a cap hit.
        let mut tel = Telemetry::new(240);
        for i in 0..240u32 {
            let (frame_ms, ticks, clamped, capped) = match i {
                100 => (400.0, 8, true, true),
                180 => (180.0, 8, false, true),
                120..=160 => (6.944, (i % 12 < 5) as u32, false, false),
                _ => (16.667, 1, false, false),
            };
            tel.push(FrameStats {
                dt_ns: (frame_ms * 1e6_f64).round() as u64,
                steps: ticks,
                accumulator_ms: (i % 7) as f64 * 2.0,
                alpha: (i % 7) as f64 / 8.0,
                clamped,
                capped,
                tick_ns_measured: u64::from(20 + i % 5) * 1000,
                events_consumed: (i % 30 == 0) as u32,
                ..Default::default()
            });
        }
        let shown = tel.stats();
        let scr = Screen::new(W, H);
        let info = OverlayInfo {
            tick_hz: 60,
            present_mode: "Fifo",
            adapter: "golden adapter",
            vsync: true,
            fps_cap: Some(60.0),
            total_clamps: 1,
            total_caps: 2,
            sprites: 123,
            stress: 0,
        };
        let mut layer = Layer::default();
        telemetry_overlay(&mut layer, &scr, &tel, &shown, &info);
        let px = off.render_with_overlay(&lp.view(), W, H, &layer).map_err(|e| e.to_string())?;
        img = Some(px);
        Ok(())
    })
    .unwrap();
    check("overlay", &img.expect("frame 1 came"));
}

/// Every entity kind, and each drawn state of it, between two ticks (alpha 0.35): a solid and
/// a one-way platform, crumbling blocks whole / cracked / about to break, a spring at rest and
/// pressed, two saws turned to different angles (one with a larger radius), walkers walking
/// both ways and squashed. Built by hand (no simulation): the view as the loop would make it.
#[test]
fn every_entity_kind_between_two_ticks() {
    use glam::DVec2;
    use ledge::level::ascii::parse_ascii;
    use ledge::level::{EntityKind, EntitySpec};
    use ledge::present::interp::lerp;
    use ledge::present::view::{EntityDraw, FrameView, PlayerDraw, PlayerPose};
    use ledge::sim::EntityState;

    let mut rows = vec![".".repeat(40); 20];
    rows[19] = format!("..P{}", ".".repeat(37));
    rows.push("#".repeat(40));
    rows.push("#".repeat(40));
    let mut level = parse_ascii(&rows, 1).unwrap();
    let alpha = 0.35;
    let at = |prev: (f64, f64), curr: (f64, f64)| lerp(DVec2::from(prev), DVec2::from(curr), alpha);
    let platform = |w: f64, h: f64, oneway: bool| EntitySpec::Platform {
        pos: DVec2::ZERO,
        size: DVec2::new(w, h),
        to: None,
        speed: 60.0,
        wait: 0.0,
        oneway,
    };
    // Only a platform's spec is read when drawing (solid or one-way); the others are listed so
    // that ids index `level.entities` as in a real level.
    let crumble = EntitySpec::Crumble { pos: DVec2::ZERO, width: 32.0, delay: 0.5, back: 2.0 };
    level.entities = vec![
        platform(64.0, 16.0, false),
        platform(48.0, 8.0, true),
        platform(24.0, 40.0, false),
        crumble.clone(),
        crumble.clone(),
        crumble,
    ];
    let e = |id, kind, pos: DVec2, size: (f64, f64), state, facing_left, frame| EntityDraw {
        id,
        kind,
        pos,
        size: DVec2::from(size),
        state,
        facing_left,
        frame,
    };
    let entities = [
        e(
            0,
            EntityKind::Platform,
            at((40.0, 230.0), (41.0, 229.0)),
            (64.0, 16.0),
            EntityState::Moving,
            false,
            0,
        ),
        e(
            1,
            EntityKind::Platform,
            at((140.0, 250.0), (139.0, 250.5)),
            (48.0, 8.0),
            EntityState::Moving,
            false,
            0,
        ),
        e(
            2,
            EntityKind::Platform,
            at((210.0, 200.0), (210.0, 201.0)),
            (24.0, 40.0),
            EntityState::Waiting,
            false,
            0,
        ),
        e(
            3,
            EntityKind::Crumble,
            at((260.0, 264.0), (260.0, 264.0)),
            (32.0, 16.0),
            EntityState::Solid,
            false,
            0,
        ),
        e(
            4,
            EntityKind::Crumble,
            at((300.0, 264.0), (300.0, 264.0)),
            (32.0, 16.0),
            EntityState::Breaking,
            false,
            0,
        ),
        e(
            5,
            EntityKind::Crumble,
            at((340.0, 264.0), (340.0, 264.0)),
            (32.0, 16.0),
            EntityState::Breaking,
            false,
            1,
        ),
        e(
            6,
            EntityKind::Spring,
            at((390.0, 312.0), (390.0, 312.0)),
            (16.0, 8.0),
            EntityState::Idle,
            false,
            0,
        ),
        e(
            7,
            EntityKind::Spring,
            at((414.0, 312.0), (414.0, 312.0)),
            (16.0, 8.0),
            EntityState::Idle,
            false,
            3,
        ),
        e(
            8,
            EntityKind::Saw,
            at((440.0, 200.0), (441.0, 201.0)),
            (16.0, 16.0),
            EntityState::Moving,
            false,
            4,
        ),
        e(
            9,
            EntityKind::Saw,
            at((470.0, 190.0), (470.5, 189.0)),
            (24.0, 24.0),
            EntityState::Moving,
            false,
            11,
        ),
        e(
            10,
            EntityKind::Walker,
            at((510.0, 304.0), (510.6667, 304.0)),
            (16.0, 16.0),
            EntityState::Alive,
            false,
            1,
        ),
        e(
            11,
            EntityKind::Walker,
            at((540.0, 304.0), (539.3333, 304.0)),
            (16.0, 16.0),
            EntityState::Alive,
            true,
            2,
        ),
        e(
            12,
            EntityKind::Walker,
            at((570.0, 304.0), (570.0, 304.0)),
            (16.0, 16.0),
            EntityState::Defeated,
            false,
            0,
        ),
    ];
    assert!(entities.iter().any(|d| d.pos.x.fract() != 0.0 && d.pos.y.fract() != 0.0));
    let view = FrameView {
        level: &level,
        camera: DVec2::new(320.0, 180.0),
        player: PlayerDraw {
            pos: at((60.0, 208.0), (61.0, 207.0)),
            hitbox: ledge::level::HITBOX,
            facing_left: false,
            pose: PlayerPose::Jump,
        },
        reached: &[],
        goal_angle: 0.0,
        extra: &[],
        entities: &entities,
        ghost: None,
    };
    let img = common::gpu::offscreen().render(&view, W, H).unwrap();
    check("entities", &img);
}
