//! The game-speed assist (LAB.md "Time tools", `config game_speed F`; the game's
//! `--game-speed PCT`): wall time is scaled by F in [0.5, 1.6] *before* the fixed stepper, so
//! the tick stays 1/tick_hz of game time and the physics never changes — only how fast game
//! time passes. (Celeste's Assist Mode offers 50–100 % and its Variant Mode up to 160 %, in
//! the same 10 % steps, but there the physics is stepped with a scaled delta; here the same
//! input at the same ticks gives the same states.) Above 100 % a frame can need more ticks
//! than the catch-up cap allows only after a hitch: the cap's overrun policy is the same.
//!
//! Clock: event loop, once per render frame, in integer nanoseconds. The factor is kept as
//! parts per million and the scaling carries its sub-nanosecond remainder from frame to frame,
//! so over any run the game time is exactly floor(F · wall time) however the wall time was cut
//! into frames (no running float).

/// Parts per million in a factor of 1.
const PPM: u64 = 1_000_000;

/// A game speed: the factor F in [0.5, 1.6] by which wall time becomes game time, stored as
/// whole parts per million (F = 0.5 is 500,000 exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameSpeed {
    ppm: u32,
}

/// A game speed out of range: one line, as the lab prints it after `config game_speed: ` and
/// the game after `--game-speed`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpeedError {
    /// A factor outside [0.5, 1.6] (or not a number).
    #[error("must be in [0.5, 1.6], got {0}")]
    Factor(f64),
    /// A percentage that is not 50 to 160 in steps of 10.
    #[error("must be 50 to 160 in steps of 10 (percent), got {0}")]
    Percent(String),
}

impl Default for GameSpeed {
    fn default() -> Self {
        GameSpeed::FULL
    }
}

impl GameSpeed {
    /// Full speed: F = 1, game time is wall time.
    pub const FULL: GameSpeed = GameSpeed { ppm: PPM as u32 };
    /// The slowest allowed speed, F = 0.5.
    pub const SLOWEST: GameSpeed = GameSpeed { ppm: (PPM / 2) as u32 };
    /// The fastest allowed speed, F = 1.6 (Celeste's Variant Mode tops out at 160 %).
    pub const FASTEST: GameSpeed = GameSpeed { ppm: (PPM * 8 / 5) as u32 };
    /// The game's steps, percent: Celeste's Assist Mode range (50–100 %) and its variants'
    /// (up to 160 %), in its 10 % step.
    pub const PERCENT_STEPS: [u32; 12] = [50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160];

    /// A speed from the factor F in [0.5, 1.6] (LAB.md `config game_speed F`), rounded to the
    /// nearest part per million.
    ///
    /// # Errors
    /// [`SpeedError::Factor`] when F is not a number in [0.5, 1.6].
    pub fn from_factor(f: f64) -> Result<GameSpeed, SpeedError> {
        if !(0.5..=1.6).contains(&f) {
            return Err(SpeedError::Factor(f));
        }
        Ok(GameSpeed { ppm: (f * PPM as f64).round() as u32 })
    }

    /// A speed from a percentage as the game's `--game-speed` takes it: 50 to 160 in steps of
    /// 10.
    ///
    /// # Errors
    /// [`SpeedError::Percent`] for anything else (the text as given).
    pub fn from_percent_text(text: &str) -> Result<GameSpeed, SpeedError> {
        text.trim()
            .parse::<i64>()
            .ok()
            .and_then(Self::from_percent)
            .ok_or_else(|| SpeedError::Percent(text.to_string()))
    }

    /// A speed from a whole percentage, one of [`GameSpeed::PERCENT_STEPS`] (`settings.toml`'s
    /// `display.game_speed`); `None` for any other number.
    pub fn from_percent(percent: i64) -> Option<GameSpeed> {
        let p = u32::try_from(percent).ok().filter(|p| Self::PERCENT_STEPS.contains(p))?;
        Some(GameSpeed { ppm: p * 10_000 })
    }

    /// The factor F, in [0.5, 1.6].
    pub fn factor(self) -> f64 {
        f64::from(self.ppm) / PPM as f64
    }

    /// The speed in whole percent (rounded), e.g. 50 for F = 0.5.
    pub fn percent(self) -> u32 {
        (self.ppm + 5_000) / 10_000
    }

    /// Not full speed: an assist (slower) or a variant (faster); such a run is never a
    /// personal best or a ghost.
    pub fn is_assisted(self) -> bool {
        self != GameSpeed::FULL
    }

    /// The next of the game's 10 % steps up (`up`) or down from this speed, staying in
    /// 50..=160 %.
    pub fn stepped(self, up: bool) -> GameSpeed {
        let p = self.percent();
        let next = if up { (p + 10).min(160) } else { p.saturating_sub(10).max(50) };
        GameSpeed { ppm: next / 10 * 10 * 10_000 }
    }
}

/// Turns clamped wall deltas into game time at a [`GameSpeed`], carrying the remainder below a
/// nanosecond so the sum never drifts. Plain data (`Copy`): the stepper keeps one and hands a
/// copy of the frame's starting state to [`crate::time::FramePlan`] to place events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpeedScaler {
    speed: GameSpeed,
    /// Remainder, ns·ppm, always < 1,000,000.
    carry: u64,
}

impl SpeedScaler {
    /// A scaler at `speed` with no remainder.
    pub fn new(speed: GameSpeed) -> Self {
        SpeedScaler { speed, carry: 0 }
    }

    /// The speed it scales by.
    pub fn speed(&self) -> GameSpeed {
        self.speed
    }

    /// Game time of the first `wall_ns` of the next frame, nanoseconds, without spending it:
    /// floor((carry + wall · ppm) / 10⁶). At full speed it is `wall_ns` itself.
    pub fn peek(&self, wall_ns: u64) -> u64 {
        let total = u128::from(self.carry) + u128::from(wall_ns) * u128::from(self.speed.ppm);
        (total / u128::from(PPM)) as u64
    }

    /// Spend a frame's clamped wall delta: its game time, nanoseconds, with the remainder kept
    /// for the next frame.
    pub fn scale(&mut self, wall_ns: u64) -> u64 {
        let total = u128::from(self.carry) + u128::from(wall_ns) * u128::from(self.speed.ppm);
        self.carry = (total % u128::from(PPM)) as u64;
        (total / u128::from(PPM)) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_and_percentages_in_range_only() {
        assert_eq!(GameSpeed::from_factor(0.5), Ok(GameSpeed::SLOWEST));
        assert_eq!(GameSpeed::from_factor(1.0), Ok(GameSpeed::FULL));
        assert_eq!(GameSpeed::from_factor(0.7).unwrap().percent(), 70);
        assert_eq!(GameSpeed::from_factor(1.6), Ok(GameSpeed::FASTEST));
        assert_eq!(GameSpeed::from_factor(1.3).unwrap().percent(), 130);
        for bad in [0.49, 1.61, 2.0, f64::NAN, -1.0, f64::INFINITY] {
            assert!(GameSpeed::from_factor(bad).is_err(), "{bad}");
        }
        assert_eq!(GameSpeed::from_percent_text("50"), Ok(GameSpeed::SLOWEST));
        assert_eq!(GameSpeed::from_percent_text("80").unwrap().factor(), 0.8);
        assert_eq!(GameSpeed::from_percent_text("160"), Ok(GameSpeed::FASTEST));
        for bad in ["40", "55", "170", "x", "", "0.5"] {
            let e = GameSpeed::from_percent_text(bad).unwrap_err();
            assert!(e.to_string().contains(&format!("got {bad}")), "{e}");
        }
        assert_eq!(GameSpeed::from_percent(70), GameSpeed::from_factor(0.7).ok());
        for bad in [-50, 0, 55, 115, 170, i64::MAX] {
            assert_eq!(GameSpeed::from_percent(bad), None, "{bad}");
        }
        assert_eq!(GameSpeed::FULL.stepped(true).percent(), 110);
        assert_eq!(GameSpeed::FASTEST.stepped(true), GameSpeed::FASTEST);
        assert_eq!(GameSpeed::FULL.stepped(false).percent(), 90);
        assert_eq!(GameSpeed::SLOWEST.stepped(false), GameSpeed::SLOWEST);
        assert!(!GameSpeed::FULL.is_assisted() && GameSpeed::FASTEST.is_assisted());
    }

    #[test]
    fn full_speed_is_the_identity() {
        let mut s = SpeedScaler::default();
        for ns in [0, 1, 16_666_667, 250_000_000, 3_600_000_000_000] {
            assert_eq!(s.peek(ns), ns);
            assert_eq!(s.scale(ns), ns);
        }
    }

    #[test]
    fn scaled_time_never_drifts_whatever_the_cut() {
        // 0.7 of 1 s cut into 0.1 .. 16.7 ms frames is exactly 700 ms; each partial sum is
        // floor(0.7 × the wall time so far).
        let speed = GameSpeed::from_factor(0.7).unwrap();
        for frame in [99_991u64, 7_000_001, 16_666_667] {
            let mut s = SpeedScaler::new(speed);
            let (mut wall, mut game) = (0u64, 0u64);
            while wall < 1_000_000_000 {
                let d = frame.min(1_000_000_000 - wall);
                assert_eq!(game + s.peek(d / 2), (wall + d / 2) * 7 / 10);
                game += s.scale(d);
                wall += d;
                assert_eq!(game, wall * 7 / 10);
            }
        }
    }
}
