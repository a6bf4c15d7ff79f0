//! The sprite renderer drawn off-screen (no window) on whatever adapter exists (Mesa lavapipe in
//! CI), checked pixel by pixel against the atlas: the level's sky (as drawn with nothing in
//! front of it) where there is sky, the ground tile's
//! texels where a ground tile is, the player's texels (mirrored when facing left) where the
//! player is, dark bars around a letterboxed view, and crisp integer scaling. With no adapter
//! at all the tests fail (`common::gpu::offscreen`): CI installs Mesa's lavapipe
//! (scripts/test).
//!
//! Clock: render frame (one frame per image).

mod common;

use common::gpu::offscreen;
use common::images::{load_rgba, save_png};
use glam::DVec2;
use ledge::level::{Level, TileKind};
use ledge::present::atlas::{self, AtlasRegion};
use ledge::present::instances::LETTERBOX_SRGB;
use ledge::present::view::{FrameView, PlayerDraw, PlayerPose};
use ledge::ui::{Layer, solid};

/// 40 x 23 tiles; a row of ground at tile row 20 (y 320..336 px).
fn test_level() -> Level {
    let (w, h) = (40, 23);
    let mut gfx = vec![None; w * h];
    let mut kinds = vec![TileKind::Empty; w * h];
    for x in 0..w {
        gfx[20 * w + x] = Some(atlas::GROUND_TOP);
        kinds[20 * w + x] = TileKind::Solid;
    }
    Level {
        name: "offscreen test".into(),
        origin: None,
        object_ids: Vec::new(),
        width: w,
        height: h,
        kinds,
        gfx,
        spawn: DVec2::new(200.0, 298.0),
        checkpoints: vec![],
        goal: None,
        entities: Vec::new(),
        sky: ledge::level::Sky::default(),
    }
}

fn view(level: &Level, facing_left: bool) -> FrameView<'_> {
    let player = PlayerDraw { facing_left, ..PlayerDraw::standing(DVec2::new(200.0, 298.0)) };
    FrameView::still(level, DVec2::new(320.0, 180.0), player)
}

struct Image {
    w: u32,
    px: Vec<u8>,
}

impl Image {
    fn at(&self, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * self.w + x) * 4) as usize;
        [self.px[i], self.px[i + 1], self.px[i + 2], self.px[i + 3]]
    }
}

/// With `LEDGE_TEST_DUMP=DIR`, write the image as `DIR/NAME.png` for a person to look at.
fn dump(name: &str, img: &Image) {
    let Some(dir) = std::env::var_os("LEDGE_TEST_DUMP") else {
        return;
    };
    let path = std::path::Path::new(&dir).join(format!("{name}.png"));
    let h = img.px.len() as u32 / 4 / img.w;
    save_png(&path, img.w, h, &img.px).unwrap_or_else(|e| panic!("dump: {e}"));
    println!("wrote {}", path.display());
}

fn close(a: [u8; 4], b: [u8; 3]) -> bool {
    (0..3).all(|i| a[i].abs_diff(b[i]) <= 2)
}

fn rgb(p: [u8; 4]) -> [u8; 3] {
    [p[0], p[1], p[2]]
}

/// `view`'s backdrop alone: the same view with no tiles and the player far outside it.
fn backdrop(off: &mut ledge::render::Offscreen, view: &FrameView<'_>, w: u32, h: u32) -> Image {
    let mut empty = view.level.clone();
    empty.gfx.iter_mut().for_each(|g| *g = None);
    let away = PlayerDraw { pos: DVec2::new(-10_000.0, -10_000.0), ..view.player };
    let bare = FrameView { shake: view.shake, ..FrameView::still(&empty, view.camera, away) };
    Image { w, px: off.render(&bare, w, h).expect("render") }
}

fn load_atlas() -> Image {
    let dir = ledge::assets::assets_dir().expect("assets folder");
    let (w, _h, px) = load_rgba(&dir.join(atlas::ATLAS_PATH)).expect("atlas");
    Image { w, px }
}

/// Every opaque texel of `region` appears at `(x0, y0)` scaled by `scale` (mirrored if asked).
fn assert_sprite(
    img: &Image,
    atlas: &Image,
    region: AtlasRegion,
    x0: u32,
    y0: u32,
    scale: u32,
    mirrored: bool,
) {
    let mut opaque = 0;
    for ty in 0..region.h {
        for tx in 0..region.w {
            let src = atlas.at(region.x + tx, region.y + ty);
            if src[3] < 128 {
                continue;
            }
            opaque += 1;
            let dx = if mirrored { region.w - 1 - tx } else { tx };
            for (sx, sy) in [(0, 0), (scale - 1, scale - 1)] {
                let (px, py) = (x0 + dx * scale + sx, y0 + ty * scale + sy);
                let got = img.at(px, py);
                assert!(
                    close(got, [src[0], src[1], src[2]]),
                    "texel ({tx},{ty}) of {region:?} at window pixel ({px},{py}): got {got:?}, atlas {src:?}"
                );
            }
        }
    }
    assert!(opaque > 20, "region {region:?} has almost no opaque texels");
}

#[test]
fn sky_ground_and_player_at_scale_1() {
    let mut off = offscreen();
    println!("adapter: {}", off.ctx.info);
    let level = test_level();
    let atlas_img = load_atlas();
    let img = Image { w: 640, px: off.render(&view(&level, false), 640, 360).expect("render") };
    assert_eq!(img.px.len(), 640 * 360 * 4);
    dump("scale1", &img);
    let sky = backdrop(&mut off, &view(&level, false), 640, 360);

    // Sky behind everything: the gradient at the top, the hills' layers lower down.
    for (x, y) in [(5, 5), (320, 100), (600, 300)] {
        assert!(close(img.at(x, y), rgb(sky.at(x, y))), "sky at ({x},{y}): {:?}", img.at(x, y));
    }
    assert_ne!(rgb(sky.at(5, 5)), rgb(sky.at(5, 300)), "a backdrop, not one flat colour");
    // The ground row (tile row 20, y 320..336) shows the ground tile's texels in every column.
    let ground = atlas::tile_region(atlas::GROUND_TOP);
    for col in [0u32, 7, 39] {
        assert_sprite(&img, &atlas_img, ground, col * 16, 320, 1, false);
    }
    // Under the ground row: sky again (nothing drawn there).
    assert!(close(img.at(100, 345), rgb(sky.at(100, 345))));

    // The player: 16 x 24 sprite bottom-centred on the 12 x 22 hitbox at (200, 298).
    let player = atlas::player_region(PlayerPose::Idle);
    assert_sprite(&img, &atlas_img, player, 198, 296, 1, false);
}

#[test]
fn facing_left_mirrors_the_player() {
    let mut off = offscreen();
    let level = test_level();
    let atlas_img = load_atlas();
    let img = Image { w: 640, px: off.render(&view(&level, true), 640, 360).expect("render") };
    let player = atlas::player_region(PlayerPose::Idle);
    assert_sprite(&img, &atlas_img, player, 198, 296, 1, true);
}

#[test]
fn integer_scale_with_letterbox() {
    let mut off = offscreen();
    let level = test_level();
    let atlas_img = load_atlas();
    // 1280 x 800: scale 2 (1280 x 720), bars 40 px high above and below.
    let img = Image { w: 1280, px: off.render(&view(&level, false), 1280, 800).expect("render") };
    dump("scale2_letterbox", &img);
    assert!(close(img.at(640, 10), LETTERBOX_SRGB), "top bar: {:?}", img.at(640, 10));
    assert!(close(img.at(640, 790), LETTERBOX_SRGB), "bottom bar: {:?}", img.at(640, 790));
    let sky = backdrop(&mut off, &view(&level, false), 1280, 800);
    assert!(close(img.at(640, 50), rgb(sky.at(640, 50))), "sky below the bar: {:?}", img.at(640, 50));
    assert!(!close(img.at(640, 50), LETTERBOX_SRGB), "the view, not a bar");
    let ground = atlas::tile_region(atlas::GROUND_TOP);
    assert_sprite(&img, &atlas_img, ground, 10 * 32, 40 + 640, 2, false);
    let player = atlas::player_region(PlayerPose::Idle);
    assert_sprite(&img, &atlas_img, player, 396, 40 + 592, 2, false);
}

#[test]
fn fractional_camera_never_bleeds_padding() {
    let mut off = offscreen();
    let level = test_level();
    let atlas_img = load_atlas();
    let ground = atlas::tile_region(atlas::GROUND_TOP);
    // Sub-pixel camera offsets: every tile still lands whole, on the same whole-pixel grid.
    for frac in [0.25, 0.5, 0.75] {
        let mut v = view(&level, false);
        v.camera += DVec2::new(frac, frac);
        let img = Image { w: 1280, px: off.render(&v, 1280, 720).expect("render") };
        // Scale 2: corners snap with floor(v + 0.5), so the tiles move left/up by
        // ceil(2 * frac - 0.5) whole window pixels (0.25 → 0, 0.5 → 1, 0.75 → 1).
        let shift = (2.0 * frac - 0.5f64).ceil() as u32;
        let x0 = 5 * 32 - shift;
        let y0 = 640 - shift;
        assert_sprite(&img, &atlas_img, ground, x0, y0, 2, false);
    }
}

#[test]
fn rotated_goal_samples_only_its_own_atlas_cell() {
    let mut off = offscreen();
    let mut level = test_level();
    // Dusk: behind the goal its gradient's pink bands, none of them a colour of the door (the
    // day sky's blues are: a texel of that colour would not be told apart from the sky).
    level.sky = ledge::level::Sky::Dusk;
    // The goal in mid-air at tile (10, 10): level pixels 160..176, centre (168, 168); at scale
    // 2 with the camera at (320, 180) its centre is window pixel (336, 336).
    level.gfx[10 * level.width + 10] = Some(atlas::GOAL);
    let atlas_img = load_atlas();
    let goal = atlas::tile_region(atlas::GOAL);
    let mut palette = Vec::new();
    for ty in 0..goal.h {
        for tx in 0..goal.w {
            let t = atlas_img.at(goal.x + tx, goal.y + ty);
            if t[3] >= 128 {
                palette.push([t[0], t[1], t[2]]);
            }
        }
    }
    // Non-right angles (the corners sample right at the cell's edges), both sides of the ±π
    // seam, and a sub-pixel camera offset.
    for (angle, frac) in
        [(0.3, 0.0), (std::f64::consts::FRAC_PI_4, 0.0), (1.9, 0.37), (-2.6, 0.0), (3.1, 0.75)]
    {
        let mut v = view(&level, false);
        v.goal_angle = angle;
        v.camera += DVec2::new(frac, frac);
        let img = Image { w: 1280, px: off.render(&v, 1280, 720).expect("render") };
        dump(&format!("goal_{angle:.2}_{frac}"), &img);
        let sky = backdrop(&mut off, &v, 1280, 720);
        // The turned 16 x 16 quad reaches 8·√2 level px (23 window px) from its centre.
        let mut goal_px = 0;
        for y in 336 - 26..336 + 26 {
            for x in 336 - 26..336 + 26 {
                let got = img.at(x, y);
                if close(got, rgb(sky.at(x, y))) {
                    continue;
                }
                assert!(
                    palette.iter().any(|&c| close(got, c)),
                    "angle {angle}, camera +{frac}: window pixel ({x},{y}) is {got:?}, not a goal texel"
                );
                goal_px += 1;
            }
        }
        // Nearly all of the door's 16 x 16 texels (4 window px each) are drawn.
        assert!(goal_px > palette.len() * 4 * 9 / 10, "angle {angle}: {goal_px} goal pixels");
    }
}

/// The renderer skips the sky pass and the world pass when their images already hold this
/// frame's (the same camera and instances), and copies a picture that has not changed for two
/// frames instead of compositing it again (`render::kept`). Every frame of a run through those
/// cases (the same view three times, the player moved, the camera moved, back, another size,
/// a letterboxed size, with and without a UI over it) must be byte for byte what a fresh
/// renderer draws for it.
#[test]
fn kept_images_and_pictures_draw_what_a_fresh_renderer_draws() {
    let mut off = offscreen();
    let level = test_level();
    let here = view(&level, false);
    let mut stepped = view(&level, false);
    stepped.player.pos += DVec2::new(3.0, 0.0);
    let mut there = view(&level, false);
    there.camera += DVec2::new(37.0, -11.0);
    let mut hud = Layer::default();
    hud.quads.push(solid(8.0, 8.0, 240.0, 72.0, [10, 40, 80], 0.6));
    let none = Layer::default();
    let frames: [(&FrameView<'_>, (u32, u32), &Layer); 17] = [
        (&here, (1280, 720), &none),
        (&here, (1280, 720), &none),
        (&here, (1280, 720), &none),
        (&here, (1280, 720), &hud),
        (&stepped, (1280, 720), &hud),
        (&stepped, (1280, 720), &hud),
        (&stepped, (1280, 720), &hud),
        (&here, (1280, 720), &hud),
        (&there, (1280, 720), &none),
        (&here, (1280, 720), &none),
        (&here, (640, 360), &none),
        (&here, (640, 360), &none),
        (&here, (1280, 720), &none),
        (&here, (1280, 800), &hud),
        (&here, (1280, 800), &hud),
        (&here, (1280, 800), &hud),
        (&here, (1280, 720), &none),
    ];
    let mut drawn = Vec::new();
    for (i, &(v, (w, h), ui)) in frames.iter().enumerate() {
        let px = off.render_with_overlay(v, w, h, ui).expect("render");
        let fresh = offscreen().render_with_overlay(v, w, h, ui).expect("render");
        assert!(px == fresh, "frame {i} ({w}x{h}) differs from a fresh renderer's");
        drawn.push(px);
    }
    assert!(drawn[0] != drawn[4], "the player moved: a different picture");
    assert!(drawn[0] != drawn[8], "the camera moved: a different picture");
    assert!(drawn[0] != drawn[3], "the UI is drawn over a copied picture");
}

/// The sky and the opaque world runs drawn raw (through plain views: no sRGB decode per sample
/// or encode per fragment, `render::pipeline::Blend::Raw`) give the same bytes as drawn through
/// the sRGB views: the sky, tiles, the player, `--stress` sprites, with a ghost blended between.
#[test]
fn raw_art_passes_draw_the_same_bytes_as_srgb_ones() {
    let level = test_level();
    let mut v = view(&level, false);
    let extra = [DVec2::new(100.0, 100.0), DVec2::new(300.5, 40.25), DVec2::new(500.0, 290.0)];
    v.extra = &extra;
    v.ghost = Some(PlayerDraw { pos: DVec2::new(150.0, 298.0), ..v.player });
    let mut off = offscreen();
    let raw = off.render(&v, 1280, 720).expect("render");
    off.set_raw_art(false);
    let srgb = off.render(&v, 1280, 720).expect("render");
    let differ = raw.chunks(4).zip(srgb.chunks(4)).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "pixels that differ between the raw and the sRGB art passes");
}
