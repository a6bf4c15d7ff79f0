//! The player's cosmetic settings: screen shake, flashes, effects (the settings menu's rows,
//! `settings.toml`'s keys, the lab's `config effects|shake|flashes`).
//!
//! Clock: event loop (changed from a menu or a script's setup). They are read only when a frame
//! is drawn, never by a tick or the cosmetic step: the same ticks give the same cosmetic state
//! and the same `state_hash` with every combination (LAB.md Version 3).

/// How hard the screen shakes (LAB.md `config shake 0|1|2`). Celeste's options are the same
/// three steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ShakeLevel {
    /// No shake at all (also forced by reduced motion).
    Off,
    /// At most 1 px on either axis.
    Half,
    /// The full shake: 2 × ceil(t × 10) px with t the seconds left (Celeste's `Level.Shake`,
    /// at Ledge's 2× scale).
    #[default]
    Full,
}

impl ShakeLevel {
    /// The level for the lab's `config shake N` (0 off, 1 half, 2 full; `settings.toml`'s
    /// `screen_shake` stores the [`ShakeLevel::label`] words instead); `None` for anything else.
    pub fn from_index(n: u32) -> Option<ShakeLevel> {
        match n {
            0 => Some(ShakeLevel::Off),
            1 => Some(ShakeLevel::Half),
            2 => Some(ShakeLevel::Full),
            _ => None,
        }
    }

    /// 0 off, 1 half, 2 full.
    pub fn index(self) -> u32 {
        match self {
            ShakeLevel::Off => 0,
            ShakeLevel::Half => 1,
            ShakeLevel::Full => 2,
        }
    }

    /// The menu's word for it.
    pub fn label(self) -> &'static str {
        match self {
            ShakeLevel::Off => "off",
            ShakeLevel::Half => "half",
            ShakeLevel::Full => "full",
        }
    }
}

/// What the cosmetic layer draws. Defaults: everything on, full shake (LAB.md's defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CosmeticSettings {
    /// Particles, squash and stretch, transitions (off: `effects` is empty and the player is
    /// drawn at scale 1).
    pub effects: bool,
    /// Screen shake at a death.
    pub shake: ShakeLevel,
    /// Full-view flashes at a death (never more than 3 a second either way; WCAG 2.3.1).
    pub flashes: bool,
}

impl Default for CosmeticSettings {
    fn default() -> Self {
        CosmeticSettings { effects: true, shake: ShakeLevel::Full, flashes: true }
    }
}
