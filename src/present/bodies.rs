//! Every drawn body's interpolation history: the player and each entity keep their position
//! after the previous tick and after the current one, and are drawn at
//! [`lerp`]`(prev, curr, alpha)` with the frame's one alpha — one mechanism, not a copy per
//! kind, so a rider is drawn at the same offset from its platform in every frame. [`Track`]
//! is that mechanism: the only place a previous/current pair is kept and blended; [`Bodies`]
//! (the world's bodies) and the `--stress` sprites ([`super::stress`]) are each one.
//!
//! Clock: written at tick boundaries by the loop ([`Bodies::after_tick`]), read once a render
//! frame ([`Bodies::player`], [`Bodies::entities`]). A body that was reset (the player's
//! respawn or teleport, an entity's death reset or a crumbling block coming back, a level load)
//! gets `prev = curr`: it snaps to its new place without streaking. Discrete state (crumble
//! stage, walker alive or defeated, facing, animation frame) is the current tick's, never
//! blended.

use super::interp::lerp;
use super::view::EntityDraw;
use crate::level::EntityKind;
use crate::sim::World;
use crate::sim::entities::Entity;
use glam::DVec2;

/// Previous and current positions of a set of bodies (pixels), each drawn at
/// `lerp(prev, curr, alpha)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Track {
    prev: Vec<DVec2>,
    curr: Vec<DVec2>,
}

impl Track {
    /// Every body at rest at `positions` (nothing to blend from).
    pub fn snap_to(&mut self, positions: impl IntoIterator<Item = DVec2>) {
        self.curr.clear();
        self.curr.extend(positions);
        self.prev.clone_from(&self.curr);
    }

    /// After a tick: the current positions become the previous ones and `positions` the
    /// current. A different number of bodies than before snaps them all.
    pub fn advance(&mut self, positions: impl IntoIterator<Item = DVec2>) {
        std::mem::swap(&mut self.prev, &mut self.curr);
        self.curr.clear();
        self.curr.extend(positions);
        if self.prev.len() != self.curr.len() {
            self.prev.clone_from(&self.curr);
        }
    }

    /// After a tick that moves the bodies in place: the current positions become the previous
    /// ones, then `step` moves each current one (with its index).
    pub fn advance_with(&mut self, mut step: impl FnMut(usize, &mut DVec2)) {
        self.prev.clone_from(&self.curr);
        for (i, p) in self.curr.iter_mut().enumerate() {
            step(i, p);
        }
    }

    /// Body `i` was reset: it is drawn where it is now, without blending (no streak).
    pub fn snap(&mut self, i: usize) {
        self.prev[i] = self.curr[i];
    }

    /// Body `i` drawn at `alpha`.
    pub fn at(&self, i: usize, alpha: f64) -> DVec2 {
        lerp(self.prev[i], self.curr[i], alpha)
    }

    /// Every body drawn at `alpha`, moved by `offset`, into `out` (cleared first).
    pub fn drawn(&self, alpha: f64, offset: DVec2, out: &mut Vec<DVec2>) {
        out.clear();
        out.extend(self.prev.iter().zip(&self.curr).map(|(a, b)| offset + lerp(*a, *b, alpha)));
    }

    /// The previous positions.
    pub fn prev(&self) -> &[DVec2] {
        &self.prev
    }

    /// The current positions.
    pub fn curr(&self) -> &[DVec2] {
        &self.curr
    }
}

/// The world's bodies, one [`Track`]: index 0 is the player, 1 + id an entity.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bodies {
    track: Track,
}

/// Every body's position in `world`, player first.
fn positions(world: &World) -> impl Iterator<Item = DVec2> + '_ {
    std::iter::once(world.player.pos).chain(world.entities.iter().map(|e| e.pos))
}

impl Bodies {
    /// Every body of `world` at rest where it is (nothing to blend from).
    pub fn new(world: &World) -> Bodies {
        let mut b = Bodies::default();
        b.snap_all(world);
        b
    }

    /// Reset every body to where it is in `world` (a level load).
    pub fn snap_all(&mut self, world: &World) {
        self.track.snap_to(positions(world));
    }

    /// After a tick: the positions before it become the previous ones, `world`'s the current;
    /// the player snaps when `player_reset` (respawn, teleport), an entity when the tick reset
    /// it ([`Entity::snapped`]).
    pub fn after_tick(&mut self, world: &World, player_reset: bool) {
        self.track.advance(positions(world));
        if player_reset {
            self.track.snap(0);
        }
        for (i, e) in world.entities.iter().enumerate() {
            if e.snapped {
                self.track.snap(i + 1);
            }
        }
    }

    /// The player's drawn top-left, pixels, at `alpha`.
    pub fn player(&self, alpha: f64) -> DVec2 {
        self.track.at(0, alpha)
    }

    /// Every entity of `world` as drawn at `alpha`, in id order, into `out` (cleared first).
    /// `tick_hz` paces the animation frames.
    pub fn entities(&self, world: &World, alpha: f64, tick_hz: u32, out: &mut Vec<EntityDraw>) {
        out.clear();
        out.extend(world.entities.iter().enumerate().map(|(id, e)| EntityDraw {
            id,
            kind: e.kind,
            pos: self.track.at(id + 1, alpha),
            size: e.size,
            state: e.state,
            facing_left: e.facing_left,
            frame: anim_frame(e, tick_hz),
        }));
    }
}

/// The animation frame of an entity after its tick (discrete): a walker's 4-frame walk cycle
/// and a saw's 4-frame spin at 10 frames a second of game time, a crumbling block's 2-frame
/// shake while breaking (every 2 ticks at 60 Hz), a spring's recoil (1 while recoiling).
pub fn anim_frame(e: &Entity, tick_hz: u32) -> u32 {
    let tenths = |ticks: u64| ((ticks * 10 / u64::from(tick_hz.max(1))) % 4) as u32;
    match e.kind {
        EntityKind::Walker | EntityKind::Saw => tenths(e.clock),
        EntityKind::Crumble => ((e.clock * 30 / u64::from(tick_hz.max(1))) % 2) as u32,
        EntityKind::Spring => u32::from(e.timer > 0),
        EntityKind::Platform => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{EntitySpec, Level};
    use crate::sim::entities::spawn;

    fn world() -> World {
        let level = Level {
            entities: vec![
                EntitySpec::Walker { pos: DVec2::new(10.0, 20.0), speed: 40.0 },
                EntitySpec::Spring { pos: DVec2::new(50.0, 20.0), speed: 370.0 },
            ],
            ..crate::level::ascii::parse_ascii(&["P.".to_string(), "##".to_string()], 1).expect("level")
        };
        World { entities: spawn(&level), ..World::new(level.spawn) }
    }

    #[test]
    fn every_body_is_drawn_with_the_same_lerp_and_a_reset_body_snaps() {
        let mut w = world();
        let mut b = Bodies::new(&w);
        let start = w.player.pos;
        w.player.pos += DVec2::new(4.0, -2.0);
        w.entities[0].pos.x += 4.0;
        b.after_tick(&w, false);
        let mut drawn = Vec::new();
        b.entities(&w, 0.25, 60, &mut drawn);
        assert_eq!(b.player(0.25), lerp(start, w.player.pos, 0.25));
        assert_eq!(drawn[0].pos, DVec2::new(11.0, 20.0));
        assert_eq!(drawn[0].pos.x - b.player(0.25).x, 10.0 - start.x, "same offset as before the tick");
        assert_eq!(drawn[1].pos, DVec2::new(50.0, 20.0));
        // A reset entity and a respawned player snap.
        w.entities[0].pos.x = 200.0;
        w.entities[0].snapped = true;
        w.player.pos = DVec2::new(300.0, 0.0);
        b.after_tick(&w, true);
        b.entities(&w, 0.5, 60, &mut drawn);
        assert_eq!(drawn[0].pos.x, 200.0);
        assert_eq!(b.player(0.5), DVec2::new(300.0, 0.0));
    }
}
