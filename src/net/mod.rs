//! The network room (docs/architecture.md): the online race and its headless tools on ggrs
//! (../shared/design/NET.md, LAB.md Version 4). It sits above the loop and below the app: it
//! turns each tick's latched input into ggrs's input, carries the world through ggrs's save and
//! load requests, and hands the loop every player's input for a tick. `sim` knows players, not
//! sockets.
//!
//! Clock: fixed tick (ggrs frames are ticks), driven once per render frame by its caller.
pub mod codec;
pub mod handshake;
pub mod link;
pub mod race;
pub mod resim;
#[cfg(feature = "game")]
pub mod room;
pub mod synctest;
pub mod tagged;
pub mod transport;
pub mod udp;

#[cfg(test)]
mod race_test;
