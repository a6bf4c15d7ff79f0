//! The level's entities as live state: moving platforms, crumbling blocks, springs, saws and
//! walkers (LAB.md "Version 2 additions", "Entities"), built from [`EntitySpec`]s.
//!
//! Clock: fixed tick. Each tick runs, around the player's own move
//! ([`crate::sim::player::step`]): [`before_player`] (every entity in id order: a platform moves
//! and carries or pushes the player, [`carry`]; a saw follows its path; a walker patrols,
//! [`walker`]; a crumbling block counts down, [`crumble`]), then the player, then
//! [`contacts::contacts`] (saws, walkers, springs, crumble triggers, in id order), then the
//! tiles, then death ([`reset_on_death`]) and [`after_tick`] (what the player rides); at level
//! start and after a respawn, [`place_at_start`] puts the player out of solids. Plain data:
//! cloned, compared and hashed with the [`crate::sim::World`].
//!
//! Modules: [`path`] (a path's position as a function of game time), [`solids`] (the player's
//! collision with solid and one-way entities, and what it stands on), [`carry`] (platform
//! moves, riding, push and squish), [`contacts`], [`walker`], [`crumble`], [`record`] (the
//! lab report's view of an entity).

pub mod carry;
pub mod contacts;
pub mod crumble;
pub mod path;
pub mod record;
pub mod solids;
pub mod walker;

use super::EntityState;
use super::hash::StableHasher;
use super::world::{MAX_PLAYERS, World};
use crate::level::{EntityKind, EntitySpec, Level, Rect};
use glam::DVec2;

/// One entity's live state after a tick. Its spec (path, speeds, times) stays in
/// `Level::entities[id]`; the id is its index there and in `World::entities`. `Copy`, so a
/// world's entities are copied (the rewind history, every tick) with one `memcpy`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entity {
    /// What it is.
    pub kind: EntityKind,
    /// Top-left of its box, pixels. Platforms sit on whole pixels (LAB.md: solid bodies collide
    /// on whole pixels); the others are exact.
    pub pos: DVec2,
    /// Box size, pixels (a saw's is 2r × 2r).
    pub size: DVec2,
    /// A platform's exact path position; `pos` is it rounded to whole pixels and
    /// `exact − pos` the sub-pixel remainder. Equal to `pos` for the other kinds.
    pub exact: DVec2,
    /// How far it moved in this tick, pixels (the report's `vx`, `vy` are this × tick_hz).
    pub moved: DVec2,
    /// Discrete state (LAB.md's names).
    pub state: EntityState,
    /// Ticks its path has run (platforms and saws: their clock, kept through deaths); ticks
    /// walked (walkers, the walk cycle); ticks since it started breaking (crumbles).
    pub clock: u64,
    /// Crumbles: ticks left before breaking (`breaking`) or before it may come back
    /// (`broken`). Springs: recoil ticks left after a launch (drawing only).
    pub timer: u32,
    /// Walkers: signed walking speed, px/s (negative: walking left).
    pub speed: f64,
    /// Facing left (walkers). Discrete.
    pub facing_left: bool,
    /// A one-way platform: blocks only a downward move that starts at or above its top, and
    /// never pushes.
    pub oneway: bool,
    /// Platforms and saws: the path (constants from the spec); a still path for the others.
    pub path: path::Path,
    /// Reset this tick (death reset, a block coming back): drawn without blending. Not hashed:
    /// no tick reads it.
    pub snapped: bool,
}

impl Entity {
    /// The entity at its start, as `spec` places it.
    pub fn new(spec: &EntitySpec) -> Entity {
        let (pos, size) = spec.start_box();
        let (state, speed) = match *spec {
            EntitySpec::Platform { to: None, .. } => (EntityState::Waiting, 0.0),
            EntitySpec::Platform { .. } | EntitySpec::Saw { .. } => (EntityState::Moving, 0.0),
            EntitySpec::Crumble { .. } => (EntityState::Solid, 0.0),
            EntitySpec::Spring { .. } => (EntityState::Idle, 0.0),
            EntitySpec::Walker { speed, .. } => (EntityState::Alive, speed),
        };
        let path = match *spec {
            EntitySpec::Platform { pos, to, speed, wait, .. } => path::Path::new(pos, to, speed, wait),
            EntitySpec::Saw { pos, to, speed, .. } => path::Path::new(pos, to, speed, 0.0),
            _ => path::Path::new(pos, None, 1.0, 0.0),
        };
        Entity {
            kind: spec.kind(),
            pos,
            size,
            exact: pos,
            moved: DVec2::ZERO,
            state,
            clock: 0,
            timer: 0,
            speed,
            facing_left: speed < 0.0,
            oneway: matches!(spec, EntitySpec::Platform { oneway: true, .. }),
            path,
            snapped: false,
        }
    }

    /// Its box, pixels.
    pub fn rect(&self) -> Rect {
        Rect { pos: self.pos, size: self.size }
    }

    /// Blocks the player from every side: a solid platform, or a crumbling block that has not
    /// broken.
    pub fn is_solid(&self) -> bool {
        match self.kind {
            EntityKind::Platform => !self.oneway,
            EntityKind::Crumble => self.state != EntityState::Broken,
            _ => false,
        }
    }

    /// Something the player can stand on and ride (a platform, or a crumble not broken).
    pub fn rideable(&self) -> bool {
        self.kind == EntityKind::Platform || self.is_solid()
    }
}

/// The live entities of `level`, at their start, in id order.
pub fn spawn(level: &Level) -> Vec<Entity> {
    level.entities.iter().map(Entity::new).collect()
}

/// What the entities did before the player's move, for the player's tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BeforePlayer {
    /// The velocity of what the player rides in this tick, px/s, as a jump takes it (LAB.md's
    /// lift speed: all of x, the upward part of y); zero when it rides nothing.
    pub lift: DVec2,
    /// A solid platform pushed the player into a tile, a side of the level or another solid.
    pub squished: bool,
}

/// Step every entity in id order (LAB.md's tick order, after the input events and before the
/// player). Returns the lift speed a jump in this tick takes and whether the player was
/// squished.
pub fn before_player(world: &mut World, level: &Level, tick_hz: u32) -> BeforePlayer {
    before_players(world, level, tick_hz, &[true])[0]
}

/// [`before_player`] for every runner of a race: `racing[k]` says whether player k + 1 still
/// runs (a runner that finished or left touches nothing: no platform carries, pushes or
/// squishes it, and it holds no crumbling block open). Returns what the entities did to each
/// runner, by player (0-based); entries past `racing`'s length are the default.
pub fn before_players(
    world: &mut World,
    level: &Level,
    tick_hz: u32,
    racing: &[bool],
) -> [BeforePlayer; MAX_PLAYERS] {
    let mut out = [BeforePlayer::default(); MAX_PLAYERS];
    let mut carried = [carry::Carried::default(); MAX_PLAYERS];
    let alone = racing.len() == 1;
    let mut bodies = [DVec2::ZERO; MAX_PLAYERS];
    let mut n_bodies = 0;
    for (k, _) in racing.iter().enumerate().filter(|(_, r)| **r) {
        bodies[n_bodies] = world.runner_view(k).player.pos;
        n_bodies += 1;
    }
    // Every path first (a platform's or saw's place is a function of its clock alone, read by
    // nothing else in the tick): independent computations in one loop, which the CPU overlaps.
    for e in &mut world.entities {
        if matches!(e.kind, EntityKind::Platform | EntityKind::Saw) {
            carry::advance_path(e, tick_hz);
        }
    }
    // Dispatch on the entity's own kind (its spec's, [`Entity::new`]), already in cache; only
    // a crumbling block reads its spec (`back`).
    for id in 0..world.entities.len().min(level.entities.len()) {
        let e = &mut world.entities[id];
        e.snapped = false;
        e.moved = DVec2::ZERO;
        match e.kind {
            EntityKind::Platform if alone => {
                out[0].squished |= carry::move_platform(world, level, id, &mut carried[0]);
            }
            EntityKind::Platform => {
                carry::move_platform_race(world, level, id, racing, &mut carried, &mut out)
            }
            EntityKind::Saw => {
                e.moved = e.exact - e.pos;
                e.pos = e.exact;
            }
            EntityKind::Walker => walker::step(e, level, tick_hz),
            EntityKind::Crumble => {
                if let EntitySpec::Crumble { back, .. } = level.entities[id] {
                    crumble::step(e, &bodies[..n_bodies], back, tick_hz);
                }
            }
            EntityKind::Spring => e.timer = e.timer.saturating_sub(1),
        }
    }
    // Entities past the level's specs (none in a world built for its level) are only cleared.
    for e in world.entities.iter_mut().skip(level.entities.len()) {
        e.snapped = false;
        e.moved = DVec2::ZERO;
    }
    for (k, o) in out.iter_mut().enumerate().take(racing.len()) {
        let riding = if k == 0 { world.riding } else { world.others[k - 1].riding };
        if let Some(id) = riding {
            let e = &world.entities[id];
            if e.kind == EntityKind::Platform {
                let v = e.moved * f64::from(tick_hz);
                o.lift = DVec2::new(v.x, v.y.min(0.0));
            }
        }
    }
    out
}

/// After the death respawn: crumbling blocks and defeated walkers go back to their start;
/// platforms and saws keep their clock; then the player is placed out of solid entities
/// ([`place_at_start`]: lifted out of a covering solid platform, and a crumbling block inside
/// it waits). Reset bodies snap (no streak).
pub fn reset_on_death(world: &mut World, level: &Level) {
    for (e, spec) in world.entities.iter_mut().zip(&level.entities) {
        if matches!(spec, EntitySpec::Walker { .. } | EntitySpec::Crumble { .. }) {
            *e = Entity { snapped: true, ..Entity::new(spec) };
        }
    }
    place_at_start(world, level);
}

/// The player just put at its spawn (level start, [`World::for_level`]) or respawn point, the
/// crumbling blocks at their start: a solid platform covering the player puts it on that
/// platform's top when no tile or other solid platform is there (crumbling blocks do not
/// count: one there waits), so it is never placed inside a solid; then a crumbling block the
/// player overlaps stays broken until the player leaves it (LAB.md: it waits). When the
/// platform's top has no room, the player stays where it is (a known limit: docs/lab.md,
/// "Entity rules: Ledge's choices and known limits").
pub fn place_at_start(world: &mut World, level: &Level) {
    lift_out(world, level, |e| e.kind == EntityKind::Platform && e.is_solid());
    let player = Rect { pos: world.player.pos, size: super::HITBOX };
    for e in &mut world.entities {
        if e.kind == EntityKind::Crumble && e.rect().overlaps(&player) {
            e.state = EntityState::Broken;
        }
    }
}

/// After a `teleport`: a target inside a solid entity (a solid platform, an unbroken crumbling
/// block) puts the player on that entity's top when that place is free (LAB.md: the player is
/// never placed inside a solid). Nothing is reset.
pub fn place_out_of_solids(world: &mut World, level: &Level) {
    lift_out(world, level, Entity::is_solid);
}

/// The lowest-id entity for which `solid` holds and that the player's box overlaps: the player
/// goes onto its top, if no solid tile and no entity for which `solid` holds is there.
fn lift_out(world: &mut World, level: &Level, solid: impl Fn(&Entity) -> bool) {
    let size = super::HITBOX;
    let covering =
        world.entities.iter().position(|e| solid(e) && solids::overlaps(e, world.player.pos, size));
    if let Some(id) = covering {
        let on_top = DVec2::new(world.player.pos.x, world.entities[id].pos.y - size.y);
        let blocked = super::collision::overlaps_solid(level, on_top, size)
            || world.entities.iter().any(|e| solid(e) && solids::overlaps(e, on_top, size));
        if !blocked {
            world.player.pos = on_top;
        }
    }
}

/// At the end of every tick: the player rides the lowest-id platform or crumble whose top
/// edge its feet touch while overlapping it in x ([`solids::standing_on`]).
pub fn after_tick(world: &mut World) {
    if !world.entities.is_empty() {
        world.riding = solids::standing_on(&world.entities, world.player.pos, super::HITBOX);
    }
}

/// Feed every entity's state and the riding link to `h`; nothing at all when there are no
/// entities, so a world without any hashes exactly as before entities existed.
pub fn hash_into(entities: &[Entity], riding: Option<usize>, h: &mut StableHasher) {
    if entities.is_empty() {
        return;
    }
    h.u64(entities.len() as u64);
    for e in entities {
        for v in [e.pos.x, e.pos.y, e.exact.x, e.exact.y, e.moved.x, e.moved.y, e.speed] {
            h.f64(v);
        }
        h.u64(e.state.code());
        h.u64(e.clock);
        h.u64(u64::from(e.timer));
        h.bool(e.facing_left);
    }
    h.u64(riding.map_or(u64::MAX, |r| r as u64));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ascii::parse_ascii;
    use crate::sim::{Action, TickInput, Tuning, step};

    fn level(rows: &[&str], specs: Vec<EntitySpec>) -> Level {
        let rows: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        Level { entities: specs, ..parse_ascii(&rows, 1).expect("level") }
    }

    const ROWS: [&str; 6] =
        ["..........", "..........", "..........", "..........", "P.........", "##########"];

    #[test]
    fn a_world_without_entities_hashes_as_before_and_every_entity_is_hashed() {
        let plain = level(&ROWS, vec![]);
        assert_eq!(World::for_level(&plain).state_hash(), World::new(plain.spawn).state_hash());
        let spec = EntitySpec::Walker { pos: DVec2::new(100.0, 64.0), speed: 40.0 };
        let l = level(&ROWS, vec![spec]);
        let mut w = World::for_level(&l);
        let h0 = w.state_hash();
        assert_ne!(h0, World::new(l.spawn).state_hash());
        w.entities[0].state = EntityState::Defeated;
        assert_ne!(w.state_hash(), h0);
    }

    #[test]
    fn a_corner_nudge_never_moves_the_player_into_a_platform() {
        // A solid platform whose right edge is 2 px right of the rising player's left edge.
        let mut l = level(&ROWS, vec![]);
        let px = l.spawn.x;
        l.entities.push(EntitySpec::Platform {
            pos: DVec2::new(px - 46.0, 20.0),
            size: DVec2::new(48.0, 8.0),
            to: None,
            speed: 60.0,
            wait: 0.0,
            oneway: false,
        });
        let mut w = World::for_level(&l);
        let tuning = Tuning::default();
        let mut input = TickInput::default();
        input.held[Action::Jump.index()] = true;
        input.pressed[Action::Jump.index()] = true;
        for _ in 0..40 {
            step(&mut w, &input, &l, &tuning, 60);
            input.pressed = [false; Action::COUNT];
            let e = &w.entities[0];
            assert!(!solids::overlaps(e, w.player.pos, crate::sim::HITBOX), "inside at {}", w.player.pos);
        }
    }

    #[test]
    fn saws_kill_by_their_circle_and_springs_launch_only_a_player_not_rising() {
        let saw = EntitySpec::Saw { pos: DVec2::new(0.0, 0.0), to: None, speed: 60.0, radius: 8.0 };
        let l = level(&ROWS, vec![saw]);
        let mut w = World::for_level(&l);
        let tuning = Tuning::default();
        // The box's corner just outside the circle (distance 8.0 from the centre): alive.
        w.player.pos = DVec2::new(8.0 + 8.0 / 2f64.sqrt() + 1e-9, 8.0 + 8.0 / 2f64.sqrt() + 1e-9);
        assert!(!{
            let at = w.player.pos;
            contacts::contacts(&mut w, &l, &tuning, 60, at)
        });
        w.player.pos -= DVec2::splat(0.5);
        assert!({
            let at = w.player.pos;
            contacts::contacts(&mut w, &l, &tuning, 60, at)
        });

        let spring = EntitySpec::Spring { pos: DVec2::new(50.0, 72.0), speed: 370.0 };
        let l = level(&ROWS, vec![spring]);
        let mut w = World::for_level(&l);
        w.player.pos = DVec2::new(52.0, 55.0);
        w.player.vel.y = -10.0;
        {
            let at = w.player.pos;
            contacts::contacts(&mut w, &l, &tuning, 60, at)
        };
        assert_eq!(w.player.vel.y, -10.0, "rising through it: nothing");
        w.player.vel.y = 10.0;
        w.player.jump_buffer = 3;
        {
            let at = w.player.pos;
            contacts::contacts(&mut w, &l, &tuning, 60, at)
        };
        assert_eq!((w.player.vel.y, w.player.pos.y + crate::sim::HITBOX.y), (-370.0, 72.0));
        assert_eq!((w.player.jump_buffer, w.jumps), (0, 0));
    }

    #[test]
    fn death_resets_crumbles_and_walkers_and_a_crumble_inside_the_player_waits() {
        let l = level(
            &ROWS,
            vec![
                EntitySpec::Crumble { pos: DVec2::new(0.0, 60.0), width: 32.0, delay: 0.5, back: 2.0 },
                EntitySpec::Crumble { pos: DVec2::new(100.0, 60.0), width: 16.0, delay: 0.5, back: 2.0 },
                EntitySpec::Walker { pos: DVec2::new(60.0, 64.0), speed: 40.0 },
            ],
        );
        let mut w = World::for_level(&l);
        for e in &mut w.entities {
            e.state = if e.kind == EntityKind::Walker { EntityState::Defeated } else { EntityState::Broken };
            e.pos.x += 3.0;
        }
        reset_on_death(&mut w, &l);
        // The spawn (x 2, y 42..64) overlaps the first block: it stays broken until left.
        assert_eq!(w.entities[0].state, EntityState::Broken);
        assert_eq!(w.entities[1].state, EntityState::Solid);
        assert_eq!((w.entities[2].state, w.entities[2].pos.x), (EntityState::Alive, 60.0));
        assert!(w.entities.iter().all(|e| e.snapped));
    }
}
