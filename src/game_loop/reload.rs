//! Hot reload's swap (docs/levels.md "Hot reload"): a new version of the level being played, or a
//! new tuning, put into the loop between two ticks, with the living player and the entities
//! carried over. The simulation knows nothing of it: a fresh [`World`] is built for the new
//! level and the old world's state is copied in here.
//!
//! Clock: event loop, between ticks (the app calls [`Loop::reload_level`] and
//! [`Loop::set_tuning`] before a frame, never inside one). What carries over:
//!
//! - **The player** keeps everything (position, velocity, coyote time, the wall memory …) when
//!   its box fits the new level: inside its side walls and above its bottom, overlapping no
//!   solid tile and no solid entity of the new world. Otherwise it stands at rest at the
//!   nearest respawn place (the spawn or a checkpoint's respawn point, by distance from where
//!   it was), as Everest's F5 reload keeps the living player where bevy_ecs_ldtk respawns the
//!   world. No death and no respawn is counted either way.
//! - **Entities** are matched by Tiled object id ([`Level::object_ids`]). One whose spec is
//!   unchanged keeps its whole live state; one of the same kind whose spec changed keeps its
//!   clock (its phase) and its discrete state, and its body is placed by the new spec
//!   (platforms and saws where the new path puts them at that clock, the others at their new
//!   start); an entity of a new id or another kind starts fresh.
//! - **Checkpoints** are matched by index: the one reached stays reached while the new level
//!   has that many, and the respawn point moves with it.
//! - **History:** the rewind ring and the camera/cosmetic history restart at the swap (the old
//!   states belong to the old level); the interpolation snaps (nothing to blend from); the
//!   camera snaps when the player was moved or the level's size changed, else it stays; the
//!   cosmetic layer goes quiet (its memory is per entity). Totals, the tick count, the
//!   statistics and the input waiting in the latch carry on.

use super::Loop;
use super::look;
use crate::cosmetic::Cosmetic;
use crate::level::EntityKind;
use crate::level::{EntitySpec, Level};
use crate::present::spin::goal_angle;
use crate::sim::collision::round_px;
use crate::sim::entities::{self, Entity, solids};
use crate::sim::{EntityState, HITBOX, Player, Tuning, World};
use glam::DVec2;

/// What a reload carried over ([`Loop::reload_level`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Carried {
    /// The player kept its position and velocity (false: it was put at the nearest respawn
    /// place, at rest).
    pub player_kept: bool,
    /// Entities matched by Tiled object id with the same kind: they kept their phase and state.
    pub entities_kept: usize,
    /// Entities that started fresh (a new object id, another kind, or no id).
    pub entities_fresh: usize,
}

impl Loop {
    /// Swap in `level`, a new version of the level being played, between two ticks: the player
    /// and the entities carry over as the module docs say. Returns what carried over.
    pub fn reload_level(&mut self, level: Level) -> Carried {
        let (world, carried) = carry_over(&self.level, &self.world, &level, self.config.tick_hz);
        let moved = !carried.player_kept || level.size_px() != self.level.size_px();
        self.world = world;
        // A savestate of the old version would put back what the new one no longer has.
        self.clear_savestates();
        // The assist carries over; its safe ground starts again at the respawn point.
        self.world.set_invincible(self.invincible);
        self.level = level;
        self.rewinding = false;
        self.bodies.snap_all(&self.world);
        self.drawn = self.world.player.pos;
        self.bodies.entities(&self.world, 0.0, self.config.tick_hz, &mut self.drawn_entities);
        self.prev_tick = self.world.tick;
        self.drawn_goal_angle = goal_angle(self.world.tick, self.config.tick_hz);
        if moved {
            self.camera.snap(&self.level, self.world.player.pos, HITBOX);
        }
        self.history.restart(&self.world);
        self.cosmetic = Cosmetic::quiet(&self.world);
        self.draw_look(0.0);
        let kept = look::Look { camera: self.camera.state(), cosmetic: self.cosmetic.clone() };
        self.look_history.restart(kept);
        carried
    }

    /// Play on with `tuning` from the next tick (hot reload of `tuning.toml`). Nothing else
    /// changes: the tuning is read afresh by every tick.
    pub fn set_tuning(&mut self, tuning: Tuning) {
        self.tuning = tuning;
    }
}

/// The world for `new`, with what `old_world` (playing `old`) carries over to it, and what did.
fn carry_over(old: &Level, old_world: &World, new: &Level, tick_hz: u32) -> (World, Carried) {
    let mut w = World::for_level(new);
    w.tick = old_world.tick;
    w.jumps = old_world.jumps;
    w.respawns = old_world.respawns;
    w.deaths = old_world.deaths;
    let mut carried = Carried { player_kept: false, entities_kept: 0, entities_fresh: 0 };
    for (i, spec) in new.entities.iter().enumerate() {
        let before = new.object_ids.get(i).and_then(|id| old.object_ids.iter().position(|o| o == id));
        let kept = before.and_then(|j| Some((old_world.entities.get(j)?, old.entities.get(j)?)));
        match kept.and_then(|(e, old_spec)| carry_entity(e, old_spec, spec, tick_hz)) {
            Some(e) => {
                w.entities[i] = e;
                carried.entities_kept += 1;
            }
            None => carried.entities_fresh += 1,
        }
    }
    // Checkpoints by index: reached ones stay reached where the new level has them (`reached`
    // grows as they are touched: it may be shorter than the list).
    w.reached = old_world.reached.iter().copied().take(new.checkpoints.len()).collect();
    let checkpoint = old_world.checkpoint.filter(|&c| c < new.checkpoints.len());
    w.checkpoint = checkpoint;
    w.respawn_point = checkpoint.map_or(new.spawn, |c| new.checkpoints[c].respawn);
    if fits(new, &w.entities, old_world.player.pos) {
        w.player = old_world.player.clone();
        carried.player_kept = true;
    } else {
        let (at, c) = nearest_respawn(new, old_world.player.pos);
        w.player = Player { pos: at, facing_left: old_world.player.facing_left, ..Player::default() };
        if let Some(c) = c {
            w.checkpoint = Some(c);
            if w.reached.len() <= c {
                w.reached.resize(c + 1, false);
            }
            w.reached[c] = true;
            w.respawn_point = at;
        }
        entities::place_out_of_solids(&mut w, new);
    }
    entities::after_tick(&mut w);
    (w, carried)
}

/// `old` (live, placed by `old_spec`) carried over to `spec`: the whole state when the spec is
/// the same, else its clock and discrete state with its body placed by `spec`; `None` when the
/// kind changed (it starts fresh).
fn carry_entity(old: &Entity, old_spec: &EntitySpec, spec: &EntitySpec, tick_hz: u32) -> Option<Entity> {
    if old.kind != spec.kind() {
        return None;
    }
    if old_spec == spec {
        return Some(*old);
    }
    let mut e = Entity::new(spec);
    e.clock = old.clock;
    e.timer = old.timer;
    e.snapped = true;
    match e.kind {
        EntityKind::Platform | EntityKind::Saw => {
            let p = e.path.at_tick(e.clock, tick_hz);
            e.exact = p.pos;
            if e.kind == EntityKind::Platform {
                // Platforms stand on whole pixels (`carry::move_platform`).
                e.pos = DVec2::new(round_px(p.pos.x), round_px(p.pos.y));
                e.state = if p.waiting { EntityState::Waiting } else { EntityState::Moving };
            } else {
                e.pos = p.pos;
            }
        }
        EntityKind::Crumble | EntityKind::Walker | EntityKind::Spring => e.state = old.state,
    }
    Some(e)
}

/// The player's box at `pos` fits `level`: inside its side walls, above its bottom edge, over
/// no solid tile and no solid entity of `entities`.
fn fits(level: &Level, entities: &[Entity], pos: DVec2) -> bool {
    let size = level.size_px();
    pos.x >= 0.0
        && pos.x + HITBOX.x <= size.x
        && pos.y + HITBOX.y <= size.y
        && !solids::overlaps_solid(level, entities, None, pos, HITBOX)
}

/// The respawn place of `level` nearest to `pos` (Euclidean, pixels): the spawn (`None`) or a
/// checkpoint's respawn point (its index); the spawn wins a tie.
fn nearest_respawn(level: &Level, pos: DVec2) -> (DVec2, Option<usize>) {
    let mut best = (level.spawn, None);
    for (i, c) in level.checkpoints.iter().enumerate() {
        if c.respawn.distance_squared(pos) < best.0.distance_squared(pos) {
            best = (c.respawn, Some(i));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Action, InputEvent, Source};
    use crate::level::{Checkpoint, Rect, TileKind, ascii::parse_ascii};
    use crate::time::StepperConfig;

    const FRAME: u64 = 16_666_667;

    fn level(rows: &[&str]) -> Level {
        let rows: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        parse_ascii(&rows, 1).expect("level")
    }

    const ROWS: [&str; 6] =
        ["..........", "..........", "..........", "..........", "P.........", "##########"];

    fn walker(x: f64) -> EntitySpec {
        EntitySpec::Walker { pos: DVec2::new(x, 64.0), speed: 40.0 }
    }

    fn platform(to_x: f64) -> EntitySpec {
        EntitySpec::Platform {
            pos: DVec2::new(96.0, 32.0),
            size: DVec2::new(32.0, 8.0),
            to: Some(DVec2::new(to_x, 32.0)),
            speed: 30.0,
            wait: 0.0,
            oneway: false,
        }
    }

    /// A loop that has run right for `frames` frames on `l`.
    fn running(l: Level, frames: u64) -> Loop {
        let mut lp = Loop::new(l, Tuning::default(), StepperConfig::default()).unwrap();
        lp.push_event(0, InputEvent::Press(Source::Keyboard, Action::Right));
        for k in 1..=frames {
            lp.frame(k * FRAME);
        }
        lp
    }

    #[test]
    fn a_player_that_fits_keeps_position_and_velocity_and_the_rewind_ring_restarts() {
        let mut lp = running(level(&ROWS), 30);
        let before = lp.world().player.clone();
        assert!(before.vel.x > 0.0 && lp.history.len() > 1);
        let (tick, ticks) = (lp.world().tick, lp.totals().ticks);
        // A new tile far from the player: it fits.
        let mut new = level(&ROWS);
        new.kinds[2 * new.width + 9] = TileKind::Solid;
        let c = lp.reload_level(new);
        assert!(c.player_kept);
        assert_eq!(lp.world().player, before);
        assert_eq!((lp.world().tick, lp.totals().ticks), (tick, ticks));
        assert_eq!(lp.history.len(), 1, "old states belong to the old level");
        assert_eq!(lp.level().kinds[2 * 10 + 9], TileKind::Solid);
        // Play goes on from there: the next tick moves on from the kept velocity.
        lp.frame(31 * FRAME);
        assert!(lp.world().player.pos.x > before.pos.x);
    }

    #[test]
    fn a_player_inside_a_new_solid_respawns_at_the_nearest_checkpoint_uncounted() {
        let mut lp = running(level(&ROWS), 20);
        let p = lp.world().player.pos;
        let mut new = level(&ROWS);
        let (tx, ty) = ((p.x / 16.0) as usize, (p.y / 16.0) as usize);
        new.kinds[ty * new.width + tx] = TileKind::Solid;
        let far = Checkpoint { area: Rect::new(140.0, 48.0, 16.0, 16.0), respawn: DVec2::new(142.0, 42.0) };
        let near =
            Checkpoint { area: Rect::new(p.x, 48.0, 16.0, 16.0), respawn: DVec2::new(p.x + 20.0, 42.0) };
        new.checkpoints = vec![far, near];
        let respawns = lp.world().respawns;
        let c = lp.reload_level(new);
        assert!(!c.player_kept);
        let w = lp.world();
        assert_eq!((w.player.pos, w.player.vel), (near.respawn, DVec2::ZERO));
        assert_eq!(
            (w.checkpoint, w.reached.clone(), w.respawn_point),
            (Some(1), vec![false, true], near.respawn)
        );
        assert_eq!((w.respawns, w.deaths), (respawns, 0), "a reload is no death");
        assert_eq!(lp.drawn(), near.respawn, "drawn where it is at once");
    }

    #[test]
    fn a_narrower_level_respawns_a_player_past_its_new_edge_at_the_spawn() {
        let mut lp = running(level(&ROWS), 50);
        assert!(lp.world().player.pos.x > 48.0);
        let new = level(&["...", "...", "...", "...", "P..", "###"]);
        assert!(!lp.reload_level(new.clone()).player_kept);
        assert_eq!(lp.world().player.pos, new.spawn);
    }

    #[test]
    fn entities_matched_by_object_id_keep_their_phase_and_state_and_new_ones_start_fresh() {
        let mut l = level(&ROWS);
        l.entities = vec![walker(120.0), platform(32.0)];
        l.object_ids = vec![7, 8];
        let mut lp = running(l.clone(), 40);
        lp.world.entities[0].state = EntityState::Defeated;
        let (walker_before, platform_before) = (lp.world().entities[0], lp.world().entities[1]);
        assert!(platform_before.clock > 0);
        // 8 gets a new path, 7 is unchanged, 9 is new; the order changes too.
        let mut new = l.clone();
        new.entities = vec![platform(48.0), walker(120.0), walker(40.0)];
        new.object_ids = vec![8, 7, 9];
        let c = lp.reload_level(new.clone());
        assert_eq!((c.entities_kept, c.entities_fresh), (2, 1));
        let e = &lp.world().entities;
        assert_eq!(e[1], walker_before, "same spec: the whole state");
        assert_eq!(e[0].clock, platform_before.clock, "new path: the same phase");
        let on_path = Entity::new(&new.entities[0]).path.at_tick(platform_before.clock, 60).pos;
        assert_eq!(e[0].exact, on_path, "placed by the new path");
        assert_eq!((e[2].state, e[2].clock, e[2].pos), (EntityState::Alive, 0, DVec2::new(40.0, 64.0)));
        // Another kind under a known id starts fresh.
        let mut other = new.clone();
        other.entities[1] = EntitySpec::Spring { pos: DVec2::new(120.0, 72.0), speed: 370.0 };
        let c = lp.reload_level(other);
        assert_eq!((c.entities_kept, c.entities_fresh), (2, 1));
        assert_eq!(lp.world().entities[1].clock, 0);
    }

    #[test]
    fn a_new_tuning_applies_from_the_next_tick() {
        let wide = [".".repeat(80), ".".repeat(80), format!("P{}", ".".repeat(79)), "#".repeat(80)];
        let mut lp = running(level(&wide.each_ref().map(String::as_str)), 10);
        let mut fast = Tuning::default();
        fast.run_speed *= 2.0;
        lp.set_tuning(fast.clone());
        assert_eq!(lp.tuning(), &fast);
        for k in 11..=60 {
            lp.frame(k * FRAME);
        }
        assert!(lp.world().player.vel.x > Tuning::default().run_speed, "{}", lp.world().player.vel.x);
    }
}
