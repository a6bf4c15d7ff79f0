//! Golden images: frames drawn off-screen through the game's renderer (lavapipe on machines
//! without a GPU) compared with PNGs in `tests/golden/` with a tolerance — a per-pixel
//! difference, not exact bytes (drivers may round differently). Cases: the first level's
//! start, a fractional camera offset (no tile seams), the frame right after a teleport (no
//! streak), the goal portal turned to a mid-tick angle, the F3 overlay over the game, and
//! every entity kind in every drawn state at a fractional alpha (a hand-made view), and every
//! entity kind placed by the real simulation at a fractional alpha with the player riding
//! (`entities-sim`, also checked against the simulation's boxes: feet on the platform's top,
//! the saw inside its circle's box); each sky (`sky-hills`, …: its gradient, far and near
//! layers part sunk, a fractional camera), and the effects (`effects`: particles of every
//! kind, squash and stretch, a shake and a fade over the view).
//!
//! `LEDGE_BLESS=1 cargo test --test golden` rewrites the goldens (look at them before
//! committing); a missing golden fails the test. With no adapter at all the tests fail
//! (`common::gpu::offscreen`): CI installs Mesa's lavapipe (scripts/test).

mod common;

use common::golden::{H, W, check, opts, shoot};
use ledge::game_loop::FrameStats;
use ledge::lab::run_script_observed;
use ledge::ui::{Layer, OverlayInfo, Screen, Telemetry, telemetry_overlay};

#[test]
fn first_level_start() {
    // The level's fade from black (0.5 s, `cosmetic::overlay`) is over by frame 31.
    let img = shoot("frame 16.666667 x32\n", |f, lp| {
        f == 31 && lp.cosmetic_draw().effects.iter().all(|e| e.kind != ledge::present::view::EffectKind::Fade)
    });
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
            latency: (Some(24.9), Some(41.2), 96),
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
    let player =
        PlayerDraw { pose: PlayerPose::Jump, ..PlayerDraw::standing(at((60.0, 208.0), (61.0, 207.0))) };
    let view =
        FrameView { entities: &entities, ..FrameView::still(&level, DVec2::new(320.0, 180.0), player) };
    let img = common::gpu::offscreen().render(&view, W, H).unwrap();
    check("entities", &img);
}

/// The lab script of [`every_entity_kind_from_the_simulation`]: an inline map with a floor and
/// one entity of every kind, the player standing on a solid platform that carries it up and
/// right, 144 Hz frames.
const SIM_ENTITIES: &str = "\
map
........................................
........................................
........................................
........................................
........................................
........................................
........................................
........................................
........................................
.....P..................................
........................................
........................................
........................................
........................................
........................................
........................................
........................................
........................................
........................................
........................................
########################################
########################################
end
entity platform x=72 y=160 w=48 h=16 to=232,120 speed=40 wait=0.2
entity platform x=300 y=200 w=48 h=8 to=360,200 speed=30 oneway=1
entity crumble x=420 y=240 w=32
entity spring x=500 y=312
entity saw x=560 y=180 to=600,220 speed=50 r=10
entity walker x=150 y=304 speed=40
frame 6.9444 x200
";

fn px(img: &[u8], x: i64, y: i64) -> [u8; 3] {
    let i = ((y * i64::from(W) + x) * 4) as usize;
    [img[i], img[i + 1], img[i + 2]]
}

/// Every entity kind as the real simulation and the loop's one interpolation place them, at a
/// fractional alpha while the player rides a rising platform; compared with the golden
/// `entities-sim`. Then the drawing is checked against the simulation's boxes, at the
/// renderer's integer scale (2x): the rider's feet are drawn exactly on the platform's top (the
/// lowest row the player's sprite covers is the row above the platform's first row: no gap,
/// no overlap), and the saw's sprite stays inside its circle's box.
#[test]
fn every_entity_kind_from_the_simulation() {
    use ledge::level::{EntityKind, HITBOX};
    use ledge::present::view::{PlayerDraw, VIEW_SIZE};
    let mut off = common::gpu::offscreen();
    let mut shot = None;
    run_script_observed(SIM_ENTITIES, &opts(), &mut |f, lp| {
        let alpha = lp.stepper().alpha();
        let riding = lp.world().riding == Some(0);
        // The platform (and its rider) drawn between whole pixels on both axes.
        let between = lp.drawn_entities().first().is_some_and(|p| p.pos.fract().min_element() > 0.0);
        if shot.is_none() && f >= 100 && riding && between && (0.3..0.7).contains(&alpha) {
            let view = lp.view();
            let with = off.render(&view, W, H).map_err(|e| e.to_string())?;
            // The same frame with the player drawn far outside the view.
            let away = PlayerDraw { pos: view.camera + VIEW_SIZE * 4.0, ..view.player };
            let without = off.render(&ledge::present::view::FrameView { player: away, ..view }, W, H);
            let without = without.map_err(|e| e.to_string())?;
            // And with nothing moving drawn at all: the sky and the tiles behind them.
            let behind = ledge::present::view::FrameView { player: away, entities: &[], ..view };
            let behind = off.render(&behind, W, H).map_err(|e| e.to_string())?;
            shot = Some((with, without, behind, view.camera, view.player.pos, view.entities.to_vec(), alpha));
        }
        Ok(())
    })
    .expect("the script runs");
    let (img, bare, behind, camera, player, entities, alpha) =
        shot.expect("a riding frame at a fractional alpha");
    eprintln!("alpha {alpha}, player {player}");
    check("entities-sim", &img);
    let kinds: Vec<EntityKind> = entities.iter().map(|e| e.kind).collect();
    for k in
        [EntityKind::Platform, EntityKind::Crumble, EntityKind::Spring, EntityKind::Saw, EntityKind::Walker]
    {
        assert!(kinds.contains(&k), "{k:?} drawn");
    }
    assert!(player.fract().min_element() > 0.0, "the rider is drawn between whole pixels");

    // Level pixels to screen pixels: 2x, the view's top-left at the origin (no letterbox).
    let scale = f64::from(W) / VIEW_SIZE.x;
    let top_left = camera - VIEW_SIZE / 2.0;
    let screen = |v: glam::DVec2| (v - top_left) * scale;
    let platform = &entities[0];
    assert_eq!(player.y + HITBOX.y, platform.pos.y, "drawn feet on the drawn top");
    // The player's own pixels: where the two renders differ; an entity's: where `bare` differs
    // from `behind` (the parallax sky is no one colour).
    let (x0, x1) = (screen(player).x.floor() as i64 - 8, screen(player + HITBOX).x.ceil() as i64 + 8);
    let mut lowest = i64::MIN;
    let mut under = Vec::new();
    for x in x0..x1 {
        for y in 0..i64::from(H) {
            if px(&img, x, y) != px(&bare, x, y) && y > lowest {
                lowest = y;
            }
        }
    }
    // The row the platform's top edge lands on: the world is drawn at art resolution
    // (src/present/art.rs), so its top is snapped to a whole art pixel, then scaled and shifted
    // by the camera's sub-pixel remainder.
    let placed = ledge::present::art::place(camera, scale as f32);
    let top = ((platform.pos.y - placed.origin.y + 0.5).floor() * scale - placed.shift_px.y) as i64;
    assert_eq!(lowest, top - 1, "the player's lowest drawn row is right above the platform's first row");
    for x in x0..x1 {
        if (0..i64::from(H)).any(|y| px(&img, x, y) != px(&bare, x, y)) {
            under.push((
                (px(&bare, x, top), px(&behind, x, top)),
                (px(&bare, x, top - 1), px(&behind, x, top - 1)),
            ));
        }
    }
    assert!(!under.is_empty());
    assert!(
        under.iter().all(|(on, above)| on.0 != on.1 && above.0 == above.1),
        "platform top row under the feet: {under:?}"
    );

    // The saw's sprite (its non-sky pixels near its box) stays inside the circle's box.
    let saw = entities.iter().find(|e| e.kind == EntityKind::Saw).expect("a saw");
    let (a, b) = (screen(saw.pos), screen(saw.pos + saw.size));
    let (mut lo, mut hi) = ((i64::MAX, i64::MAX), (i64::MIN, i64::MIN));
    for y in a.y as i64 - 6..b.y as i64 + 6 {
        for x in a.x as i64 - 6..b.x as i64 + 6 {
            if px(&bare, x, y) != px(&behind, x, y) {
                lo = (lo.0.min(x), lo.1.min(y));
                hi = (hi.0.max(x), hi.1.max(y));
            }
        }
    }
    assert!(
        lo.0 as f64 >= a.x - 1.0 && lo.1 as f64 >= a.y - 1.0,
        "saw drawn left/above its box: {lo:?} vs {a}"
    );
    assert!(hi.0 as f64 <= b.x && hi.1 as f64 <= b.y, "saw drawn right/below its box: {hi:?} vs {b}");
    assert!((hi.0 - lo.0) as f64 >= 0.8 * (b.x - a.x), "the saw fills its box: {lo:?}..{hi:?} vs {a}..{b}");
}

/// A 120 x 34 tile map (1920 x 544 px) with a floor, a wall and a ledge, drawn with `sky`;
/// the camera between pixels, 24 px above the level's bottom: the far and near layers part
/// sunk (5 and 11 px) and shifted by fractions of a copy.
fn sky_level(sky: ledge::level::Sky) -> ledge::level::Level {
    let mut rows = vec![".".repeat(120); 34];
    rows[31] = format!("{}P{}", ".".repeat(62), ".".repeat(57));
    rows[27] = format!("{}----{}", ".".repeat(48), ".".repeat(68));
    for row in &mut rows[24..32] {
        row.replace_range(72..74, "##");
    }
    rows[32] = "#".repeat(120);
    rows[33] = "#".repeat(120);
    let mut level = ledge::level::ascii::parse_ascii(&rows, 1).unwrap();
    level.sky = sky;
    level
}

const SKY_CAMERA: glam::DVec2 = glam::DVec2::new(1000.4, 340.0);

#[test]
fn every_sky_behind_a_level() {
    use ledge::present::view::{FrameView, PlayerDraw};
    let mut off = common::gpu::offscreen();
    for sky in ledge::level::Sky::ALL {
        let level = sky_level(sky);
        let view = FrameView::still(&level, SKY_CAMERA, PlayerDraw::standing(level.spawn));
        let img = off.render(&view, W, H).unwrap();
        check(&format!("sky-{}", sky.name()), &img);
    }
}

/// Particles of every kind (two of each, one half grown), the player squashed to (1.3, 0.7)
/// beside an unscaled ghost, a shake of (2, -2) px and a fade at 40 % over the view.
#[test]
fn effects_over_a_level() {
    let img = with_effects_view(|view| common::gpu::offscreen().render(view, W, H).unwrap());
    check("effects", &img);
}

/// The raw composite (plain views, no sRGB conversions per window pixel) against the exact one
/// on the effects frame, whose fade covers the whole world image with a translucent quad: every
/// channel within 10 / 255 (`render::composite` "Two composites"), 3 on average at most.
#[test]
fn raw_composite_is_close_to_the_exact_one() {
    let mut off = common::gpu::offscreen();
    assert!(off.raw_composite, "lavapipe has plain views: the raw composite is what windows draw");
    let raw = with_effects_view(|view| off.render(view, W, H).unwrap());
    off.raw_composite = false;
    let exact = with_effects_view(|view| off.render(view, W, H).unwrap());
    let worst = raw.iter().zip(&exact).map(|(a, b)| a.abs_diff(*b)).max().unwrap();
    assert!(worst <= 10, "a channel differs by {worst}");
    let total: u64 = raw.iter().zip(&exact).map(|(a, b)| u64::from(a.abs_diff(*b))).sum();
    let mean = total as f64 / raw.len() as f64;
    eprintln!("raw against exact composite: worst channel {worst}, mean {mean:.2}");
    assert!(mean < 3.0, "mean channel difference {mean:.2}");
    // Without translucent texels in the world the two are the same bytes.
    off.raw_composite = true;
    let level = sky_level(ledge::level::Sky::Hills);
    let still = ledge::present::view::FrameView::still(
        &level,
        SKY_CAMERA,
        ledge::present::view::PlayerDraw::standing(level.spawn),
    );
    let raw = off.render(&still, W, H).unwrap();
    off.raw_composite = false;
    assert!(raw == off.render(&still, W, H).unwrap(), "opaque and empty texels composite exactly");
}

/// The effects frame: every effect kind at two sizes, a full-view fade at 40 %, a ghost, the
/// player squashed, the camera shaken.
fn with_effects_view<R>(f: impl FnOnce(&ledge::present::view::FrameView<'_>) -> R) -> R {
    use glam::DVec2;
    use ledge::present::view::{EffectDraw, EffectKind, FrameView, PlayerDraw, PlayerPose};
    let level = sky_level(ledge::level::Sky::Hills);
    let feet = level.spawn + DVec2::new(6.0, 22.0);
    let fx = |kind, dx: f64, dy: f64, size| EffectDraw {
        kind,
        pos: feet + DVec2::new(dx, dy),
        size,
        opacity: 1.0,
    };
    let mut effects = Vec::new();
    for (i, kind) in
        [EffectKind::Dust, EffectKind::Burst, EffectKind::Debris, EffectKind::Spark, EffectKind::Puff]
            .into_iter()
            .enumerate()
    {
        let x = -90.0 + 40.0 * i as f64;
        effects.push(fx(kind, x, -3.0, 6.0));
        effects.push(fx(kind, x + 12.5, -20.25, 3.0));
    }
    effects.push(fx(EffectKind::Dust, 30.0, -3.0, 0.0)); // zero size: nothing drawn
    effects.push(EffectDraw { kind: EffectKind::Fade, pos: SKY_CAMERA, size: 0.0, opacity: 0.4 });
    let player = PlayerDraw { pose: PlayerPose::Idle, ..PlayerDraw::standing(level.spawn) };
    let ghost = PlayerDraw { pos: level.spawn - DVec2::new(40.0, 0.0), ..player };
    let view = FrameView {
        shake: DVec2::new(2.0, -2.0),
        player_scale: DVec2::new(1.3, 0.7),
        effects: &effects,
        ghost: Some(ghost),
        ..FrameView::still(&level, SKY_CAMERA, player)
    };
    f(&view)
}

/// "Watch every attempt": three earlier attempts drawn as ghosts around the player (one
/// mid-jump, facing left) and two death crosses, one on the ground and one in the air.
#[test]
fn every_attempt_ghosts_and_death_marks() {
    use glam::DVec2;
    use ledge::present::view::{FrameView, PlayerDraw, PlayerPose};
    let level = sky_level(ledge::level::Sky::Hills);
    let player = PlayerDraw { pose: PlayerPose::Idle, ..PlayerDraw::standing(level.spawn) };
    let at = |dx: f64, dy: f64| PlayerDraw { pos: level.spawn + DVec2::new(dx, dy), ..player };
    let attempts = [
        at(-60.0, 0.0),
        PlayerDraw { pose: PlayerPose::Jump, facing_left: true, ..at(-30.0, -28.0) },
        at(45.0, 0.0),
    ];
    let marks = [level.spawn + DVec2::new(90.0, 0.0), level.spawn + DVec2::new(120.0, -40.0)];
    let view = FrameView {
        attempts: &attempts,
        death_marks: &marks,
        ..FrameView::still(&level, SKY_CAMERA, player)
    };
    let img = common::gpu::offscreen().render(&view, W, H).unwrap();
    check("every-attempt", &img);
}
