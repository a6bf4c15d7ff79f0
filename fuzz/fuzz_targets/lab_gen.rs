//! Fuzz target `lab_gen`: structure-aware lab scripts (`ledge_fuzz::lab_gen`), written as
//! text and run like the `lab` target's inputs. With `LEDGE_FUZZ_DUMP=FILE` set, each input's
//! text is written to FILE first: scripts/fuzz turns what this target finds into a plain
//! script for `tests/fuzz-regressions/lab/` that way.
#![no_main]

use ledge_fuzz::lab_gen::Script;
use ledge_fuzz::replay::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|script: Script| {
    let text = script.render();
    if let Some(path) = std::env::var_os("LEDGE_FUZZ_DUMP") {
        std::fs::write(path, &text).expect("LEDGE_FUZZ_DUMP names a writable file");
    }
    ledge_fuzz::fuzz_one(Format::Lab, text.as_bytes());
});
