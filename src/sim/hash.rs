//! A stable 64-bit state hash (FNV-1a over little-endian bytes).
//!
//! Clock: fixed tick (hashes the state after a tick). Stable across runs, platforms and frame
//! patterns, unlike `std`'s randomly seeded `DefaultHasher`; floats are hashed by their bits, so
//! two states hash equal only when every field is bit-identical.

/// FNV-1a, 64-bit (Fowler, Noll, Vo: offset basis 0xcbf29ce484222325, prime 0x100000001b3).
#[derive(Clone, Copy, Debug)]
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl StableHasher {
    /// Feed raw bytes.
    pub fn bytes(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Feed a u64 (little-endian).
    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    /// Feed an f64 by its bit pattern; every NaN as the one canonical `f64::NAN` (x86 and ARM
    /// make NaNs with different sign bits and wasm leaves NaN payloads unspecified, so a NaN's
    /// bits are not the same on every architecture; see the `sim` module's notes).
    pub fn f64(&mut self, v: f64) {
        self.u64(if v.is_nan() { f64::NAN.to_bits() } else { v.to_bits() });
    }

    /// Feed a bool as one byte.
    pub fn bool(&mut self, v: bool) {
        self.bytes(&[v as u8]);
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_fnv1a_vectors() {
        let mut h = StableHasher::default();
        assert_eq!(h.finish(), 0xcbf29ce484222325);
        h.bytes(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
    }

    #[test]
    fn every_nan_hashes_alike_and_zeros_keep_their_sign() {
        let hash = |v: f64| {
            let mut h = StableHasher::default();
            h.f64(v);
            h.finish()
        };
        let x86_default_nan = f64::from_bits(0xfff8_0000_0000_0000);
        let arm_default_nan = f64::from_bits(0x7ff8_0000_0000_0000);
        let payload_nan = f64::from_bits(0x7ff0_0000_0000_0001);
        assert!(x86_default_nan.is_nan() && arm_default_nan.is_nan() && payload_nan.is_nan());
        assert_eq!(hash(x86_default_nan), hash(arm_default_nan));
        assert_eq!(hash(payload_nan), hash(f64::NAN));
        assert_ne!(hash(f64::NAN), hash(f64::INFINITY));
        // -0.0 and 0.0 are different states (IEEE 754 gives the same sign on every target).
        assert_ne!(hash(0.0), hash(-0.0));
    }
}
