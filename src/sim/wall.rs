//! Wall slide and wall jump, after Celeste's `Player.cs` (NormalUpdate, `WallJump`,
//! `WallJumpCheck`), called from [`super::player::step`] at four points of a tick.
//!
//! Clock: fixed tick. Rules, in the order a tick meets them:
//!
//! 1. [`steer`]: for `wall_jump_force_time` after a wall jump made while a direction was held,
//!    the horizontal input is replaced by the direction away from the wall (Celeste
//!    `forceMoveX`), so holding toward the wall does not cancel the push at once.
//! 2. [`try_jump`]: a jump press (buffered like a ground jump) made in the air, with no ground
//!    or coyote jump available (the ground jump always wins), jumps off a wall when the hitbox
//!    moved `wall_jump_reach` px toward it overlaps a solid tile (the right wall is tried first,
//!    as Celeste does), or within `wall_jump_grace` after the player last slid down a wall.
//!    The jump sets `vx` to `wall_jump_speed_x` away from the wall and `vy` to
//!    `−wall_jump_speed_y`, and opens the variable-jump sustain like a ground jump.
//! 3. [`fall_cap`]: while airborne, not rising, and pushing into a wall the hitbox touches,
//!    the fall speed approaches `wall_slide_speed` instead of `max_fall_speed` (at the gravity
//!    rate, as every fall speed does).
//! 4. [`after_move`]: a tick that ends in such a slide opens the grace window; other ticks
//!    count it down (not in the tick that opens it, like coyote time).
//!
//! A player that never slides down a wall nor presses jump in the air near one is moved
//! exactly as before these rules existed, and its [`WallState`] stays at its default, which
//! [`WallState::feed`] leaves out of the state hash.

use super::collision::overlaps_solid;
use super::hash::StableHasher;
use super::tuning::{Tuning, seconds_to_ticks};
use super::world::Player;
use crate::level::{HITBOX, Level};
use glam::DVec2;

/// The player's wall memory between ticks. Plain data, part of [`Player`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WallState {
    /// The side of the wall last slid on (−1 left, +1 right) while `grace` > 0, else 0.
    pub side: i8,
    /// Ticks of wall-jump grace left after the last tick that ended in a wall slide.
    pub grace: u32,
    /// Ticks left in which horizontal input is forced to `force_dir` after a wall jump.
    pub force: u32,
    /// The forced direction (−1 left, +1 right) while `force` > 0, else 0.
    pub force_dir: i8,
}

impl WallState {
    /// Feed the state to a state hash, only when it is not the default: a run that never
    /// slides or wall-jumps hashes exactly as it did before wall jumps existed. A tag byte
    /// comes first so that a present state cannot read as the fields that follow it.
    pub fn feed(&self, h: &mut StableHasher) {
        if *self != WallState::default() {
            h.bytes(b"W");
            h.u64(self.side as u64);
            h.u64(u64::from(self.grace));
            h.u64(u64::from(self.force));
            h.u64(self.force_dir as u64);
        }
    }
}

/// True when the hitbox at `pos` moved `by` px along x overlaps a solid tile.
fn wall_at(level: &Level, pos: DVec2, by: f64) -> bool {
    by != 0.0 && overlaps_solid(level, pos + DVec2::new(by, 0.0), HITBOX)
}

/// The side (−1, +1) of a wall the player slides on: airborne, not rising, pushing along
/// `dir` into a solid tile the hitbox touches (within 1 px). `None` otherwise.
fn slide_side(p: &Player, level: &Level, dir: f64) -> Option<i8> {
    let side = dir.signum();
    let sliding = !p.on_ground && p.vel.y >= 0.0 && dir != 0.0 && wall_at(level, p.pos, side);
    sliding.then_some(side as i8)
}

/// Rule 1: the horizontal input this tick, `dir` unless a wall jump is forcing it; counts the
/// force window down.
pub fn steer(p: &mut Player, dir: f64) -> f64 {
    let w = &mut p.wall;
    if w.force == 0 {
        return dir;
    }
    let forced = f64::from(w.force_dir);
    w.force -= 1;
    if w.force == 0 {
        w.force_dir = 0;
    }
    forced
}

/// Rule 2: with a jump wanted (`p.jump_buffer` > 0) and no ground or coyote jump available,
/// jump off a wall in reach or in the grace window. Returns true when a wall jump started; the
/// caller counts it as a jump. `dir` is this tick's horizontal input (after [`steer`]).
pub fn try_jump(p: &mut Player, level: &Level, tuning: &Tuning, tick_hz: u32, dir: f64) -> bool {
    let reach = tuning.wall_jump_reach;
    let away: i8 = if wall_at(level, p.pos, reach) {
        -1
    } else if wall_at(level, p.pos, -reach) {
        1
    } else if p.wall.grace > 0 && p.wall.side != 0 {
        -p.wall.side
    } else {
        return false;
    };
    p.jump_buffer = 0;
    p.coyote = 0;
    p.vel.x = f64::from(away) * tuning.wall_jump_speed_x;
    p.vel.y = -tuning.wall_jump_speed_y;
    p.var_jump = seconds_to_ticks(tuning.var_jump_time, tick_hz);
    let force = if dir != 0.0 { seconds_to_ticks(tuning.wall_jump_force_time, tick_hz) } else { 0 };
    p.wall = WallState { side: 0, grace: 0, force, force_dir: if force > 0 { away } else { 0 } };
    p.facing_left = away < 0;
    true
}

/// Rule 3: the fall speed the player's `vy` approaches this tick: `wall_slide_speed` (when
/// lower) while sliding down a wall, else `max_fall_speed`.
pub fn fall_cap(p: &Player, level: &Level, tuning: &Tuning, dir: f64) -> f64 {
    match slide_side(p, level, dir) {
        Some(_) => tuning.max_fall_speed.min(tuning.wall_slide_speed),
        None => tuning.max_fall_speed,
    }
}

/// Rule 4: after the tick's move, open the grace window when the tick ends in a wall slide,
/// else count it down.
pub fn after_move(p: &mut Player, level: &Level, tuning: &Tuning, tick_hz: u32, dir: f64) {
    let grace = seconds_to_ticks(tuning.wall_jump_grace, tick_hz);
    match slide_side(p, level, dir) {
        Some(side) if grace > 0 => {
            p.wall.side = side;
            p.wall.grace = grace;
        }
        _ => {
            p.wall.grace = p.wall.grace.saturating_sub(1);
            if p.wall.grace == 0 {
                p.wall.side = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ascii::parse_ascii;

    fn level() -> Level {
        // A wall in column 4 from row 0 down to the floor.
        let rows = ["....#...", "....#...", "....#...", "....#...", ".P..#...", "########"];
        parse_ascii(&rows.iter().map(|s| s.to_string()).collect::<Vec<_>>(), 1).unwrap()
    }

    fn airborne_at(x: f64, vy: f64) -> Player {
        Player { pos: DVec2::new(x, 20.0), vel: DVec2::new(0.0, vy), ..Player::default() }
    }

    #[test]
    fn slide_needs_contact_push_and_a_fall() {
        let (l, t) = (level(), Tuning::default());
        let touching = 64.0 - HITBOX.x;
        assert_eq!(fall_cap(&airborne_at(touching, 100.0), &l, &t, 1.0), t.wall_slide_speed);
        assert_eq!(fall_cap(&airborne_at(touching, 0.0), &l, &t, 1.0), t.wall_slide_speed);
        // not pushing, pushing away, rising, a pixel off the wall, on the ground
        assert_eq!(fall_cap(&airborne_at(touching, 100.0), &l, &t, 0.0), t.max_fall_speed);
        assert_eq!(fall_cap(&airborne_at(touching, 100.0), &l, &t, -1.0), t.max_fall_speed);
        assert_eq!(fall_cap(&airborne_at(touching, -1.0), &l, &t, 1.0), t.max_fall_speed);
        assert_eq!(fall_cap(&airborne_at(touching - 1.0, 100.0), &l, &t, 1.0), t.max_fall_speed);
        let grounded = Player { on_ground: true, ..airborne_at(touching, 0.0) };
        assert_eq!(fall_cap(&grounded, &l, &t, 1.0), t.max_fall_speed);
    }

    #[test]
    fn wall_jump_pushes_away_within_reach_only() {
        let (l, t) = (level(), Tuning::default());
        let touching = 64.0 - HITBOX.x;
        let mut p = airborne_at(touching - t.wall_jump_reach + 0.5, 50.0);
        p.jump_buffer = 3;
        assert!(try_jump(&mut p, &l, &t, 60, 1.0));
        assert_eq!(p.vel, DVec2::new(-t.wall_jump_speed_x, -t.wall_jump_speed_y));
        assert_eq!((p.jump_buffer, p.wall.force_dir, p.wall.force), (0, -1, 10));
        // out of reach, no grace: nothing happens
        let mut far = airborne_at(touching - t.wall_jump_reach, 50.0);
        far.jump_buffer = 3;
        assert!(!try_jump(&mut far, &l, &t, 60, 1.0));
        assert_eq!(far.jump_buffer, 3);
        // the level's left side is a wall too: a jump there pushes right, with no force when
        // no direction is held
        let mut left = airborne_at(0.0, 50.0);
        assert!(try_jump(&mut left, &l, &t, 60, 0.0));
        assert_eq!((left.vel.x, left.wall.force), (t.wall_jump_speed_x, 0));
    }

    #[test]
    fn grace_opens_on_a_slide_and_runs_out() {
        let (l, t) = (level(), Tuning::default());
        let mut p = airborne_at(64.0 - HITBOX.x, 40.0);
        after_move(&mut p, &l, &t, 60, 1.0);
        assert_eq!((p.wall.side, p.wall.grace), (1, 6));
        p.pos.x -= 20.0;
        for left in (0..6).rev() {
            after_move(&mut p, &l, &t, 60, -1.0);
            assert_eq!(p.wall.grace, left);
        }
        assert_eq!(p.wall, WallState::default());
    }

    #[test]
    fn steer_forces_then_lets_go() {
        let mut p =
            Player { wall: WallState { side: 0, grace: 0, force: 2, force_dir: -1 }, ..Player::default() };
        assert_eq!(steer(&mut p, 1.0), -1.0);
        assert_eq!(steer(&mut p, 1.0), -1.0);
        assert_eq!(steer(&mut p, 1.0), 1.0);
        assert_eq!(p.wall, WallState::default());
    }

    #[test]
    fn default_state_leaves_the_hash_alone() {
        let (mut a, b) = (StableHasher::default(), StableHasher::default());
        WallState::default().feed(&mut a);
        assert_eq!(a.finish(), b.finish());
        WallState { grace: 1, side: 1, ..WallState::default() }.feed(&mut a);
        assert_ne!(a.finish(), b.finish());
    }
}
