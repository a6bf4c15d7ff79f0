//! Ledge's fuzz targets' shared code: [`replay`] runs one input of a format through Ledge's
//! loader and checks the rules (also included by `tests/fuzz_regressions.rs`), [`lab_gen`]
//! writes structure-aware lab scripts.
//!
//! Clock: none of its own (see each module).

pub mod lab_gen;
pub mod replay;

use replay::{Format, replay};

/// Run `bytes` as a file of `format`; a broken rule panics, which is what libFuzzer keeps.
///
/// # Panics
/// When the result breaks a rule ([`replay::replay`]'s error), and whenever Ledge panics.
pub fn fuzz_one(format: Format, bytes: &[u8]) {
    if let Err(broken) = replay(format, bytes) {
        panic!("{}: {broken}", format.name());
    }
}
