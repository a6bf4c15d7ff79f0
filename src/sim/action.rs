//! What the player asks of one tick: the [`Action`]s a key or button can be bound to, and the
//! [`TickInput`] the simulation reads (held state and press edges per action, the stick).
//!
//! Clock: fixed tick. Plain data owned by the simulation (as jumpy's core owns its input
//! type); `crate::input` turns device edges into a `TickInput` per tick and re-exports both.

/// A game action a key or button can be bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Run left.
    Left,
    /// Run right.
    Right,
    /// Up (also a jump key on the keyboard, bound by `keyboard`).
    Up,
    /// Down (Down + Jump drops through a one-way platform).
    Down,
    /// Jump.
    Jump,
    /// Rewind (LAB.md "Time tools"): while held, each tick restores the state one tick earlier
    /// instead of stepping ([`super::rewind`]). The tick itself never reads it.
    Rewind,
}

impl Action {
    /// All actions, in index order.
    pub const ALL: [Action; 6] =
        [Action::Left, Action::Right, Action::Up, Action::Down, Action::Jump, Action::Rewind];

    /// How many actions there are: the length of per-action arrays.
    pub const COUNT: usize = Action::ALL.len();

    /// Dense index 0..[`Action::COUNT`], for per-action arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Parse the lab's action names: `left` `right` `up` `down` `jump` `rewind`.
    pub fn from_name(name: &str) -> Option<Action> {
        Some(match name {
            "left" => Action::Left,
            "right" => Action::Right,
            "up" => Action::Up,
            "down" => Action::Down,
            "jump" => Action::Jump,
            "rewind" => Action::Rewind,
            _ => return None,
        })
    }

    /// The lab's name of this action.
    pub fn name(self) -> &'static str {
        match self {
            Action::Left => "left",
            Action::Right => "right",
            Action::Up => "up",
            Action::Down => "down",
            Action::Jump => "jump",
            Action::Rewind => "rewind",
        }
    }
}

/// What the simulation sees for one tick: held state after the tick's edges, plus the edges.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickInput {
    /// Held at the end of this tick's events, per [`Action::index`].
    pub held: [bool; Action::COUNT],
    /// Pressed (a new press edge) during this tick, per [`Action::index`]. True for exactly one
    /// tick per press, even if the release came in the same tick.
    pub pressed: [bool; Action::COUNT],
    /// Left-stick x after the dead zone, in [-1, 1]; exactly 0 inside the dead zone.
    pub stick_x: f32,
}

impl TickInput {
    /// Held this tick.
    pub fn held(&self, a: Action) -> bool {
        self.held[a.index()]
    }

    /// Pressed this tick (an edge).
    pub fn pressed(&self, a: Action) -> bool {
        self.pressed[a.index()]
    }

    /// Horizontal intent in [-1, 1]: the digital direction (right − left) when one is held,
    /// else the stick.
    pub fn move_x(&self) -> f64 {
        let digital = self.held(Action::Right) as i32 - self.held(Action::Left) as i32;
        if digital != 0 { digital as f64 } else { self.stick_x as f64 }
    }
}
