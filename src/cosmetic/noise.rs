//! Cosmetic randomness without a generator that carries state: a number is a hash of the tick
//! an effect started in, the event that started it and the item's index.
//!
//! Clock: none (pure functions). The same (tick, event, index) gives the same number on every
//! machine and on every road to that tick — a re-cut, a rewind and replay, a 50 % game speed —
//! so the same ticks give the same effects, and cosmetic draws never touch the simulation's
//! seeded state (CWR-CE PR #172 and Everest PR #281 are the bugs of sharing one generator).

use crate::sim::rng::SplitMix64;

/// The event an effect started from: one stream of numbers each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Event {
    /// A ground or coyote jump.
    Jump = 1,
    /// A wall jump.
    WallJump,
    /// A landing.
    Land,
    /// A wall-slide dust trail puff.
    Slide,
    /// A death burst.
    Death,
    /// A respawn's converging orbs.
    Respawn,
    /// A checkpoint lighting.
    Checkpoint,
    /// A spring launch.
    Spring,
    /// A crumbling block breaking (the index carries the entity id).
    Crumble,
    /// A walker stomp.
    Stomp,
    /// A screen-shake re-pick.
    Shake,
}

/// 64 random bits for item `index` of `event` started in `tick`: splitmix64's output function
/// over the three packed together.
pub fn bits(tick: u64, event: Event, index: u64) -> u64 {
    let key = tick.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ ((event as u64) << 56)
        ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03);
    SplitMix64::new(key).next_u64()
}

/// A number in [0, 1) for (tick, event, index): the top 53 bits of [`bits`].
pub fn unit(tick: u64, event: Event, index: u64) -> f64 {
    (bits(tick, event, index) >> 11) as f64 / (1u64 << 53) as f64
}

/// A number in [lo, hi) for (tick, event, index); `salt` tells several numbers of one item
/// apart.
pub fn range(tick: u64, event: Event, index: u64, salt: u64, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * unit(tick, event, index.wrapping_mul(8).wrapping_add(salt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_key_gives_the_same_number_and_others_differ() {
        assert_eq!(unit(17, Event::Jump, 3), unit(17, Event::Jump, 3));
        let all: Vec<f64> = (0..4)
            .flat_map(|t| {
                [Event::Jump, Event::Land].into_iter().flat_map(move |e| (0..4).map(move |i| unit(t, e, i)))
            })
            .collect();
        for (i, a) in all.iter().enumerate() {
            assert!((0.0..1.0).contains(a));
            assert!(all[i + 1..].iter().all(|b| b != a), "{a} repeats");
        }
        let r = range(5, Event::Death, 2, 1, 10.0, 30.0);
        assert!((10.0..30.0).contains(&r));
    }
}
