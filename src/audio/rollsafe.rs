//! A race's sounds, safe under rollback (NET.md "Rollback and the picture"; bevy_roll_safe's
//! audio reconciliation is the model): a sound is keyed by (cue, tick) — the tick's cues are
//! the followed runner's ([`crate::game_loop::Loop::race_cues`]) — and
//!
//! - played once, the first time a simulation of its tick produces it;
//! - never played again when a rollback simulates its tick again and produces it again;
//! - stopped when a rollback simulates its tick again and it is no longer produced (the
//!   misprediction that caused it is undone), and not played again unless it comes back.
//!
//! Clock: fixed tick (each entry is a tick's cues), handed over once a render frame. The
//! ledger keeps the last [`KEEP_TICKS`] ticks: older ones are past any rollback.

use crate::sim::cues::{Cue, CueSet};
use std::collections::BTreeMap;

/// Ticks of sounds the ledger remembers behind the newest: more than ggrs's prediction window
/// (8) reaches back.
pub const KEEP_TICKS: u64 = 64;

/// The sounds played for recent ticks, each with what stops it (`H`: a sound handle).
#[derive(Debug)]
pub struct Ledger<H> {
    played: BTreeMap<u64, Vec<(Cue, H)>>,
}

impl<H> Default for Ledger<H> {
    fn default() -> Self {
        Ledger { played: BTreeMap::new() }
    }
}

impl<H> Ledger<H> {
    /// Take one frame's simulated ticks (`(tick, cues)` in the order simulated, re-simulations
    /// included): `play` each sound not yet played for its tick (its handle kept), `stop` each
    /// played one its tick no longer produces.
    pub fn update(
        &mut self,
        ticks: &[(u64, CueSet)],
        mut play: impl FnMut(Cue) -> H,
        mut stop: impl FnMut(Cue, &mut H),
    ) {
        for &(tick, cues) in ticks {
            let played = self.played.entry(tick).or_default();
            played.retain_mut(|(cue, h)| {
                let keep = cues.contains(*cue);
                if !keep {
                    stop(*cue, h);
                }
                keep
            });
            for cue in cues.iter() {
                if !played.iter().any(|(c, _)| *c == cue) {
                    let h = play(cue);
                    played.push((cue, h));
                }
            }
        }
        if let Some(&(newest, _)) = ticks.iter().max_by_key(|(t, _)| *t) {
            self.played = self.played.split_off(&newest.saturating_sub(KEEP_TICKS));
        }
    }

    /// Forget every sound (a new race).
    pub fn clear(&mut self) {
        self.played.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cues: &[Cue]) -> CueSet {
        let mut s = CueSet::EMPTY;
        for c in cues {
            s.insert(*c);
        }
        s
    }

    /// One frame through the ledger; what it played and stopped are appended.
    fn frame(l: &mut Ledger<Cue>, ticks: &[(u64, CueSet)], played: &mut Vec<Cue>, stopped: &mut Vec<Cue>) {
        l.update(
            ticks,
            |c| {
                played.push(c);
                c
            },
            |c, _| stopped.push(c),
        );
    }

    #[test]
    fn a_sound_plays_once_a_rolled_back_one_stops_and_a_new_one_plays() {
        let mut l = Ledger::default();
        let (mut played, mut stopped) = (Vec::new(), Vec::new());
        // Tick 10: a jump (predicted: the rival's input guessed), tick 11 nothing.
        frame(&mut l, &[(10, set(&[Cue::Jump])), (11, CueSet::EMPTY)], &mut played, &mut stopped);
        // A rollback to tick 9: tick 10 simulated again still jumps, and lands at 11.
        let again = [(10, set(&[Cue::Jump])), (11, set(&[Cue::Land])), (12, CueSet::EMPTY)];
        frame(&mut l, &again, &mut played, &mut stopped);
        assert_eq!(played, [Cue::Jump, Cue::Land], "the jump is not played twice");
        // Another rollback: at tick 11 the landing was a misprediction: it stops; a death.
        let third = [(11, set(&[Cue::Death])), (12, CueSet::EMPTY), (13, CueSet::EMPTY)];
        frame(&mut l, &third, &mut played, &mut stopped);
        assert_eq!(played, [Cue::Jump, Cue::Land, Cue::Death]);
        assert_eq!(stopped, [Cue::Land]);
        // Far later: the old ticks are forgotten.
        frame(&mut l, &[(200, CueSet::EMPTY)], &mut played, &mut stopped);
        assert_eq!(l.played.keys().copied().collect::<Vec<_>>(), [200]);
    }
}
