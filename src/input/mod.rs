//! Input: edge events with their arrival time, latched into per-tick input for the fixed tick.
//!
//! Clock: events are stamped on the event-loop clock (nanoseconds since the loop started,
//! monotonic); [`latch::Latch`] hands them to the fixed tick that owns their time.
//! `keyboard` and `gamepad` (only with the `game` feature) turn winit keys / gilrs events into
//! [`InputEvent`]s, through the bindings of the settings file ([`bindmap`]: names → codes);
//! the latch and the bind map are platform-free. [`Action`] and
//! [`latch::TickInput`] belong to the simulation (`crate::sim::action`) and are re-exported.

pub mod bindmap;
#[cfg(feature = "game")]
pub mod gamepad;
#[cfg(feature = "game")]
pub mod keyboard;
pub mod latch;

pub use crate::sim::action::Action;

/// Which device an edge came from. Each source holds its own buttons, so releasing a key does
/// not release the same action held on the pad, and a pad disconnect releases only the pad.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The keyboard (winit).
    Keyboard,
    /// The gamepad (gilrs).
    Pad,
}

/// One input edge, as it arrived. Times are carried beside it (see [`latch::Latch`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InputEvent {
    /// A button went down. A press of a button already held is nothing.
    Press(Source, Action),
    /// A button went up.
    Release(Source, Action),
    /// Operating-system auto-repeat of a held key (winit `KeyEvent.repeat`): never starts anything.
    Repeat(Source, Action),
    /// A synthetic press, as winit reports for keys already down when focus returns: ignored.
    SyntheticPress(Source, Action),
    /// The window lost focus: everything held (keys, pad buttons, stick) is released.
    FocusLost,
    /// The window gained focus: nothing is pressed by it.
    FocusGained,
    /// A gamepad appeared.
    PadConnected,
    /// The gamepad went away: what it held is released and the stick returns to 0.
    PadDisconnected,
    /// Left-stick x, raw in [-1, 1] before the dead zone. Ignored while no pad is connected.
    AxisX(f32),
}
