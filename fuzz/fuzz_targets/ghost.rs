//! Fuzz target `ghost`: each input is a whole file of this format, run through Ledge's
//! loader by `ledge_fuzz::replay` (see there for what it loads beside it and what it checks).
#![no_main]

use ledge_fuzz::replay::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ledge_fuzz::fuzz_one(Format::Ghost, data));
