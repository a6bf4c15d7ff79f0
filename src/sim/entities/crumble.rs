//! A crumbling block's countdowns (LAB.md "Entities", `crumble`): it breaks `delay` after the
//! end of the first tick the player stands on it (leaving does not cancel it; it stays solid
//! while `breaking`), and is solid again at the first tick at least `back` after breaking in
//! which it does not overlap the player.
//!
//! Clock: fixed tick. Times are whole ticks ([`seconds_to_ticks`], as the jump windows are).
//! The trigger is in [`super::contacts`] (after the player's move); the countdowns run here, in
//! the entity step at the start of a tick, i.e. at the end of the tick before it: a block
//! triggered at the end of tick T with `delay` = d ticks breaks in tick T + d + 1, whose start
//! is d ticks after T's end.

use super::Entity;
use super::solids::overlaps;
use crate::sim::tuning::seconds_to_ticks;
use crate::sim::{EntityState, HITBOX};
use glam::DVec2;

/// Start the countdown of a whole block the player stands on (the trigger, after the player's
/// move); a block already breaking or broken is left alone.
pub fn trigger(e: &mut Entity, delay: f64, tick_hz: u32) {
    if e.state == EntityState::Solid {
        e.state = EntityState::Breaking;
        e.timer = seconds_to_ticks(delay, tick_hz);
        e.clock = 0;
    }
}

/// One entity step of a crumbling block with `back` seconds before it may come back; `bodies`
/// are the hitbox top-lefts of the runners that can hold it open (the player; in a race, every
/// runner still racing), pixels.
pub fn step(e: &mut Entity, bodies: &[DVec2], back: f64, tick_hz: u32) {
    match e.state {
        EntityState::Breaking => {
            e.clock += 1;
            if e.timer == 0 {
                e.state = EntityState::Broken;
                e.timer = seconds_to_ticks(back, tick_hz);
            } else {
                e.timer -= 1;
            }
        }
        EntityState::Broken => {
            e.timer = e.timer.saturating_sub(1);
            if e.timer == 0 && !bodies.iter().any(|&p| overlaps(e, p, HITBOX)) {
                e.state = EntityState::Solid;
                e.clock = 0;
                e.snapped = true;
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::EntitySpec;
    use crate::sim::world::Player;

    #[test]
    fn breaks_after_the_delay_and_comes_back_only_when_the_player_is_out_of_it() {
        let spec = EntitySpec::Crumble { pos: DVec2::new(0.0, 100.0), width: 16.0, delay: 0.05, back: 0.1 };
        let mut e = Entity::new(&spec);
        let mut player = Player { pos: DVec2::new(0.0, 78.0), ..Player::default() };
        trigger(&mut e, 0.05, 60); // end of tick T: 3 ticks of delay
        let mut states = Vec::new();
        for _ in 0..4 {
            step(&mut e, &[player.pos], 0.1, 60);
            states.push(e.state);
        }
        use EntityState::*;
        assert_eq!(states, [Breaking, Breaking, Breaking, Broken], "breaks in tick T + 4");
        trigger(&mut e, 0.05, 60);
        assert_eq!(e.state, Broken, "a broken block is not triggered");
        // The player stands inside it when it could come back: it waits.
        player.pos.y = 95.0;
        for _ in 0..10 {
            step(&mut e, &[player.pos], 0.1, 60);
        }
        assert_eq!(e.state, Broken);
        player.pos.y = 78.0;
        step(&mut e, &[player.pos], 0.1, 60);
        assert_eq!(e.state, Solid);
        assert!(e.snapped);
    }
}
