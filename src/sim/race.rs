//! A race's tick (LAB.md Version 4, `players N`; NET.md): two to four runners in one world.
//!
//! Clock: fixed tick. The order, for N ≥ 2: the tick is counted; when no runner is still
//! racing (every one finished or left) nothing else happens, as one player's finished world
//! stands still; else every entity steps once, in id order, carrying, pushing and squishing
//! every runner still racing ([`entities::before_players`]); then each racing runner, in player
//! order, takes its own part of the tick ([`player::player_part`] under [`Rules::Race`]: move,
//! contacts, tiles, death, checkpoints, goal) and what it rides is found
//! ([`entities::after_tick`]). Runners never collide with each other. A runner's contacts
//! change the shared world for the runners after it in the same tick (a walker one runner
//! defeats is gone for the next; a crumbling block triggered by any runner breaks for all).
//! One player never comes here: [`super::step`] is the tick it always was.

use super::entities;
use super::player::{self, Rules, TickOutcome};
use super::world::{MAX_PLAYERS, World};
use super::{TickInput, Tuning};
use crate::level::Level;

/// Every runner's outcome of one race tick, by player (0-based); entries past the world's
/// player count, and those of runners not racing, are the default (nothing happened).
pub type RaceOutcome = [TickOutcome; MAX_PLAYERS];

/// Advance a world of [`World::players`] runners by one tick of 1 / `tick_hz` s. `inputs[k]`
/// is player k + 1's input (missing entries read as no input). With one player this is
/// exactly [`super::step`] (its outcome as player 1's).
pub fn step_race(
    world: &mut World,
    inputs: &[TickInput],
    level: &Level,
    tuning: &Tuning,
    tick_hz: u32,
) -> RaceOutcome {
    let mut outs = RaceOutcome::default();
    let none = TickInput::default();
    let input = |k: usize| inputs.get(k).unwrap_or(&none);
    if world.others.is_empty() {
        outs[0] = super::step(world, input(0), level, tuning, tick_hz);
        return outs;
    }
    world.tick += 1;
    let n = world.players();
    let mut racing = [false; MAX_PLAYERS];
    for (k, r) in racing.iter_mut().enumerate().take(n) {
        *r = world.racing(k);
    }
    if !racing.contains(&true) {
        return outs;
    }
    let ents = entities::before_players(world, level, tick_hz, &racing[..n]);
    for k in (0..n).filter(|&k| racing[k]) {
        outs[k] = world.with_runner(k, |w| {
            let out = player::player_part(w, input(k), level, tuning, tick_hz, ents[k], Rules::Race);
            entities::after_tick(w);
            out
        });
    }
    outs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ascii::parse_ascii;
    use crate::sim::Action;

    fn level() -> Level {
        let rows: Vec<String> = [
            "..............................",
            "..............................",
            "..............................",
            "..P.......................^^..",
            "##############################",
        ]
        .iter()
        .map(|r| r.to_string())
        .collect();
        parse_ascii(&rows, 1).expect("level")
    }

    fn held(a: Action) -> TickInput {
        let mut i = TickInput::default();
        i.held[a.index()] = true;
        i
    }

    #[test]
    fn one_player_is_the_plain_tick_and_hashes_as_before() {
        let l = level();
        let t = Tuning::default();
        let (mut a, mut b) = (World::for_level(&l), World::for_race(&l, 1));
        assert_eq!(a, b);
        for _ in 0..90 {
            crate::sim::step(&mut a, &held(Action::Right), &l, &t, 60);
            step_race(&mut b, &[held(Action::Right)], &l, &t, 60);
        }
        assert_eq!((a.state_hash(), a), (b.state_hash(), b));
    }

    #[test]
    fn runners_move_on_their_own_inputs_and_player_one_matches_a_lone_run() {
        let l = level();
        let t = Tuning::default();
        let mut alone = World::for_level(&l);
        let mut race = World::for_race(&l, 3);
        assert_ne!(alone.state_hash(), race.state_hash(), "a race hashes its other runners");
        for _ in 0..60 {
            crate::sim::step(&mut alone, &held(Action::Right), &l, &t, 60);
            step_race(&mut race, &[held(Action::Right), held(Action::Left)], &l, &t, 60);
        }
        assert_eq!(race.player, alone.player, "player 1 ran as it runs alone");
        assert!(race.others[0].player.pos.x < l.spawn.x, "player 2 ran left");
        assert_eq!(race.others[1].player.pos, l.spawn, "player 3 had no input");
    }

    #[test]
    fn a_death_is_the_runners_own_and_a_finished_or_left_runner_stands_still() {
        let l = level();
        let t = Tuning::default();
        let mut w = World::for_race(&l, 2);
        let mut deaths = 0;
        for _ in 0..240 {
            step_race(&mut w, &[TickInput::default(), held(Action::Right)], &l, &t, 60);
            deaths = deaths.max(w.others[0].deaths);
        }
        assert!(deaths >= 1, "player 2 ran into the spikes");
        assert_eq!(w.deaths, 0, "player 1 never died");
        w.left = 0b10;
        let before = w.others[0].clone();
        step_race(&mut w, &[TickInput::default(), held(Action::Right)], &l, &t, 60);
        assert_eq!(w.others[0], before, "a runner that left does not move");
    }
}
