//! The loop's other runners (LAB.md Version 4 `players N`): players 2..=N's input latches and
//! interpolation history. Player 1 keeps the loop's own latch, history and camera, so a loop
//! with one player is exactly what it always was.
//!
//! Clock: input edges on the event loop's clock (each latched onto the tick its arrival time
//! falls in, as player 1's are); the runners' history on the fixed tick; their drawn places on
//! the render frame, at the frame's one alpha.

use super::{Loop, RunnerState};
use crate::input::InputEvent;
use crate::input::latch::{Latch, TickInput};
use crate::level::HITBOX;
use crate::present::bodies::Track;
use crate::present::view::{PlayerDraw, PlayerPose, RivalDraw};
use crate::sim::{MAX_PLAYERS, RaceOutcome, World};
use glam::DVec2;

/// Players 2..=N as the loop keeps them.
#[derive(Clone, Debug, Default)]
pub(super) struct Others {
    /// Each runner's latch, player 2 first.
    latches: Vec<Latch>,
    /// Their positions before and after the current tick.
    pub(super) track: Track,
    /// Where the last frame drew them, player 2 first (hitbox top-left, pixels).
    drawn: Vec<DVec2>,
    /// The runner the camera follows and the view draws as the player, 0-based (0: player
    /// 1, the loop's own).
    pub(super) followed: usize,
    /// Every other runner as the last frame drew them.
    rivals: Vec<RivalDraw>,
}

fn positions(world: &World) -> impl Iterator<Item = DVec2> + '_ {
    world.others.iter().map(|r| r.player.pos)
}

impl Others {
    /// Draw them at `alpha` between their previous and current tick.
    pub(super) fn draw(&mut self, alpha: f64) {
        let n = self.latches.len();
        self.drawn.clear();
        self.drawn.extend((0..n).map(|i| self.track.at(i, alpha)));
    }

    /// Every runner at rest where `world` has it.
    pub(super) fn snap(&mut self, world: &World) {
        self.track.snap_to(positions(world));
        self.drawn.clear();
        self.drawn.extend(positions(world));
    }
}

impl Loop {
    /// Race with `players` runners (1..=[`MAX_PLAYERS`], clamped): the world is rebuilt with
    /// every runner at the level's spawn ([`World::for_race`]), the tick count kept. Call it
    /// before the first frame; with 1 nothing changes.
    pub fn set_players(&mut self, players: usize) {
        let players = players.clamp(1, MAX_PLAYERS);
        if players == self.world.players() {
            return;
        }
        let tick = self.world.tick;
        self.world = World::for_race(&self.level, players);
        self.world.tick = tick;
        // A race has no assists (NET.md): one player's world gets the loop's back.
        self.world.set_invincible(players == 1 && self.invincible);
        self.others.latches = vec![Latch::new(); players - 1];
        self.others.snap(&self.world);
        self.history.restart(&self.world);
    }

    /// Nothing of the cosmetic layer running (no level-start fade): a window's race draws its
    /// level still through the wait and the countdown, which run no tick, so a fade that
    /// advances by ticks would hold the screen black until the start.
    pub fn quiet_look(&mut self) {
        self.cosmetic = crate::cosmetic::Cosmetic::quiet(&self.world);
        self.draw_look(0.0);
    }

    /// Runners in the world (1..=[`MAX_PLAYERS`]).
    pub fn players(&self) -> usize {
        self.world.players()
    }

    /// Hand the loop player `player`'s input edge (0-based: 0 is player 1, as
    /// [`Loop::push_event`]) that arrived at `t_ns`. An edge for a player the world does not
    /// have is dropped. Events must be pushed in arrival order.
    pub fn push_event_for(&mut self, player: u8, t_ns: u64, ev: InputEvent) {
        if usize::from(player) < self.world.players() {
            self.raw.push_back((t_ns, player, ev));
        }
    }

    /// Latch an edge onto `tick` for `player` (0-based).
    pub(super) fn schedule_for(&mut self, player: u8, tick: u64, ev: InputEvent) {
        match player {
            0 => self.latch.schedule(tick, ev),
            k => self.others.latches[usize::from(k) - 1].schedule(tick, ev),
        }
    }

    /// Players 2..=N's inputs for `tick`, after player 1's `first`; with the edges consumed.
    /// Rewind is off in a race: never held.
    pub(super) fn race_inputs(&mut self, tick: u64, first: TickInput) -> ([TickInput; MAX_PLAYERS], u32) {
        let mut inputs = [TickInput::default(); MAX_PLAYERS];
        inputs[0] = first;
        let mut consumed = 0;
        for (k, latch) in self.others.latches.iter_mut().enumerate() {
            let (input, n) = latch.input_for_tick(tick);
            inputs[k + 1] = input;
            consumed += n;
        }
        for i in &mut inputs {
            i.held[crate::sim::Action::Rewind.index()] = false;
        }
        (inputs, consumed)
    }

    /// After a race tick: the other runners' history (a runner that respawned snaps).
    pub(super) fn after_race_tick(&mut self, outs: &RaceOutcome) {
        self.others.track.advance(positions(&self.world));
        for (k, out) in outs.iter().enumerate().take(self.world.players()).skip(1) {
            if out.respawned {
                self.others.track.snap(k - 1);
            }
        }
    }

    /// Draw the other runners at the frame's `alpha` (after player 1's [`Loop::drawn`]), and
    /// every runner but the followed one as a rival.
    pub(super) fn draw_others(&mut self, alpha: f64) {
        self.others.draw(alpha);
        self.others.rivals.clear();
        if self.world.others.is_empty() {
            return;
        }
        for k in (0..self.world.players()).filter(|&k| k != self.others.followed) {
            let pos = if k == 0 { self.drawn } else { self.others.drawn[k - 1] };
            let draw = self.runner_draw(k, pos);
            self.others.rivals.push(RivalDraw { draw, player: k as u8 + 1 });
        }
    }

    /// Runner `k` drawn at `pos`: its facing and its pose from the current tick (no wall
    /// slide: that pose is the loop's own player's).
    fn runner_draw(&self, k: usize, pos: DVec2) -> PlayerDraw {
        let b = self.world.runner_view(k).player;
        let pose = PlayerPose::of_motion(b.on_ground, b.vel, b.run_ticks, self.config.tick_hz);
        PlayerDraw { pos, hitbox: HITBOX, facing_left: b.facing_left, pose }
    }

    /// Follow runner `k` (0-based, clamped to the runners there are): the camera follows it and
    /// the view draws it as the player, every other runner as a rival. A race follows its
    /// local player; 0 (the default) is player 1.
    pub fn set_followed(&mut self, k: usize) {
        let k = k.min(self.world.players() - 1);
        self.others.followed = k;
        let p = self.world.runner_view(k).player.pos;
        self.camera.snap(&self.level, p, HITBOX);
        // The cosmetic layer follows it from here, from rest.
        self.cosmetic = self.world.with_runner(k, |w| crate::cosmetic::Cosmetic::quiet(w));
        self.draw_look(0.0);
    }

    /// A race's ticks the last frame simulated, in the order simulated (a rollback's
    /// re-simulations first, then the new ticks), each with the followed runner's cues: what
    /// the sounds' ledger (`audio::rollsafe` in the game) plays, never twice, and
    /// stops when a rollback undoes it. Empty with one player or without presenting.
    pub fn race_cues(&self) -> &[(u64, crate::sim::cues::CueSet)] {
        &self.race_cues
    }

    /// The runner the camera follows, 0-based ([`Loop::set_followed`]).
    pub fn followed(&self) -> usize {
        self.others.followed
    }

    /// The followed runner as this frame draws it, when it is not player 1; `None` with
    /// player 1 followed.
    pub(super) fn followed_view(&self) -> Option<PlayerDraw> {
        let k = self.others.followed;
        (k != 0).then(|| self.runner_draw(k, self.others.drawn[k - 1]))
    }

    /// The rivals the last frame drew.
    pub(super) fn rivals(&self) -> &[RivalDraw] {
        &self.others.rivals
    }

    /// Every runner after the last tick, for `ticks[].players`: empty with one player.
    pub(super) fn runner_states(&self, outs: &RaceOutcome) -> Vec<RunnerState> {
        if self.world.others.is_empty() {
            return Vec::new();
        }
        (0..self.world.players())
            .map(|k| {
                let r = self.world.runner_view(k);
                RunnerState {
                    player: k as u8 + 1,
                    body: r.player.into(),
                    died: outs[k].died,
                    finished: r.level_complete,
                }
            })
            .collect()
    }

    /// Where the last frame drew every runner, in player order (player 1 is [`Loop::drawn`]);
    /// hitbox top-left, pixels.
    pub fn drawn_players(&self) -> Vec<DVec2> {
        std::iter::once(self.drawn).chain(self.others.drawn.iter().copied()).collect()
    }
}
