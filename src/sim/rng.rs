//! splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014;
//! the constants of Vigna's reference `splitmix64.c`): a small, seeded, platform-independent
//! pseudo-random stream, so tests and tools that draw random timings see the same draws on
//! every machine.
//!
//! Clock: none (a pure function of its seed and how many numbers were drawn).

/// A splitmix64 stream. The same seed gives the same numbers everywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A stream seeded with `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_stream() {
        // splitmix64.c seeded with 1234567: its first outputs.
        let mut r = SplitMix64::new(1_234_567);
        let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(first, [6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423]);
    }
}
