//! Renders preview images of the shipped levels for the README, with no window: the game's own
//! sprite renderer drawn off-screen (Mesa lavapipe does when there is no GPU).
//!
//! Clock: render frame (one frame per image). For each `assets/levels/levelN.tmx` it writes
//! `docs/levelN.png`, the player standing at the spawn, and `docs/levelN-mid.png`, the player
//! standing at a checkpoint part-way through (the middle one), both 1280 x 720 (the 640 x 360
//! view at 2x) with the camera placed as the game places it when the player appears there.
//! The level's entities are drawn where they are when the level starts (tick 0), through the
//! game's own [`Bodies`] (so as the game draws them).
//!
//! ```text
//! cargo run --example level_shots [-- [--all] [OUT_DIR]]
//! ```
//!
//! `--all` also writes `levelN-cpK.png` at every checkpoint K (for judging a level by eye).

use glam::DVec2;
use ledge::level::Level;
use ledge::level::tiled_map::{level_path, load_tmx};
use ledge::present::bodies::Bodies;
use ledge::present::camera::Camera;
use ledge::present::view::{EntityDraw, FrameView, PlayerDraw};
use ledge::render::Offscreen;
use ledge::sim::{HITBOX, World};
use std::path::{Path, PathBuf};

/// Image size, pixels: the 640 x 360 view at 2x.
const SIZE: (u32, u32) = (1280, 720);

/// The view with the player standing at `pos` (hitbox top-left), camera snapped to it, and
/// `entities` drawn.
fn view_at<'a>(level: &'a Level, pos: DVec2, entities: &'a [EntityDraw]) -> FrameView<'a> {
    let camera = Camera::new(level, pos, HITBOX);
    FrameView { entities, ..FrameView::still(level, camera.centre, PlayerDraw::standing(pos)) }
}

fn main() -> anyhow::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let args: Vec<String> = std::env::args().skip(1).collect();
    let all = args.iter().any(|a| a == "--all");
    let out_dir = args.iter().find(|a| *a != "--all").map_or_else(|| root.join("docs"), PathBuf::from);
    std::fs::create_dir_all(&out_dir)?;
    let mut offscreen = Offscreen::new()?;
    let assets = root.join("assets");
    for n in 1.. {
        let name = format!("level{n}");
        let path = level_path(&assets, &name);
        if !path.is_file() {
            break;
        }
        let level = load_tmx(&path)?;
        let world = World::for_level(&level);
        let mut entities = Vec::new();
        Bodies::new(&world).entities(&world, 1.0, 60, &mut entities);
        let mut shots = vec![(format!("{name}.png"), level.spawn)];
        if let Some(cp) = level.checkpoints.get(level.checkpoints.len().saturating_sub(1) / 2) {
            shots.push((format!("{name}-mid.png"), cp.respawn));
        }
        if all {
            for (k, cp) in level.checkpoints.iter().enumerate() {
                shots.push((format!("{name}-cp{k}.png"), cp.respawn));
            }
        }
        for (file, pos) in shots {
            let rgba = offscreen.render(&view_at(&level, pos, &entities), SIZE.0, SIZE.1)?;
            let out = out_dir.join(&file);
            ledge::assets::save_png(&out, SIZE.0, SIZE.1, &rgba)?;
            println!("wrote {} ({}, player at {pos})", out.display(), level.name);
        }
    }
    Ok(())
}
