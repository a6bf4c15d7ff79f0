//! Fuzz target `net_datagram`: each input is one datagram from a race peer, run through Ledge's
//! loader by `ledge_fuzz::replay` (see there for what it loads beside it and what it checks).
#![no_main]

use ledge_fuzz::replay::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ledge_fuzz::fuzz_one(Format::NetDatagram, data));
