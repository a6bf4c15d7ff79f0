//! Movement tuning: every feel number, in pixels and seconds, loaded from `assets/tuning.toml`.
//!
//! Clock: none. Read once at start (and by the lab's `tuning KEY VALUE` overrides); the fixed
//! tick only reads it.
//!
//! Defaults start from Celeste's published `Player.cs` constants (320x180 view, 8 px tiles)
//! scaled x2 for Ledge's 16 px tiles and 640x360 view (wall slide and wall jump too: Celeste's
//! wall jump, 130 px/s out and 105 px/s up at 8 px tiles, is 260 and 210 here).

use serde::Deserialize;
use std::path::Path;

/// All movement constants. Units: pixels, seconds (pixels/s, pixels/s²).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Tuning {
    /// Downward acceleration, px/s². Celeste 900 x2 = 1800.
    pub gravity: f64,
    /// Upward speed set by the tick that consumes a jump, px/s. Celeste 105 x2 = 210.
    pub jump_speed: f64,
    /// Terminal fall speed, px/s. Celeste 160 x2 = 320.
    pub max_fall_speed: f64,
    /// Top run speed, px/s. Celeste 90 x2 = 180.
    pub run_speed: f64,
    /// Acceleration toward the run direction, px/s². Celeste 1000 x2 = 2000.
    pub run_accel: f64,
    /// Deceleration with no direction held, px/s². Celeste 400 x2 = 800.
    pub run_decel: f64,
    /// Multiplier on run_accel / run_decel in the air (air control). Celeste 0.65.
    pub air_mult: f64,
    /// Horizontal speed added in the held direction when a jump starts, px/s. Celeste 40 x2 = 80.
    pub jump_h_boost: f64,
    /// While jump stays held, the rise speed is held at jump_speed for this long, seconds
    /// (variable jump height; 0 = off). Celeste 0.2 s.
    pub var_jump_time: f64,
    /// Gravity multiplier near the apex while jump is held (1 = off). Celeste 0.5.
    pub apex_gravity_mult: f64,
    /// |vy| below which the apex multiplier applies, px/s. Celeste 40 x2 = 80.
    pub apex_threshold: f64,
    /// A jump pressed this long after walking off a ledge still jumps, seconds. Celeste 0.1 s.
    pub coyote_time: f64,
    /// A jump pressed this long before landing fires on landing, seconds. Celeste 0.08 s.
    pub jump_buffer_time: f64,
    /// A rising jump that clips a ceiling corner by at most this many pixels slides around it.
    /// Celeste 4 px (not scaled: it is a forgiveness margin, not a distance travelled).
    pub corner_correction: f64,
    /// Fall speed while sliding down a wall the player pushes into, px/s (a cap approached at
    /// the gravity rate; at or above max_fall_speed it changes nothing). Celeste's
    /// WallSlideStartMax 20 x2 = 40; Celeste then lets it grow to MaxFall over WallSlideTime
    /// 1.2 s, Ledge holds it.
    pub wall_slide_speed: f64,
    /// Horizontal speed away from the wall set by a wall jump, px/s. Celeste WallJumpHSpeed
    /// (MaxRun + JumpHBoost) 130 x2 = 260.
    pub wall_jump_speed_x: f64,
    /// Upward speed set by a wall jump, px/s. Celeste JumpSpeed 105 x2 = 210 (the variable-jump
    /// sustain that follows holds the rise at jump_speed, as after a ground jump).
    pub wall_jump_speed_y: f64,
    /// A jump pressed this long after the last tick of a wall slide still wall-jumps, seconds
    /// (0 = off). Ledge's, like coyote_time (Celeste has only the reach below).
    pub wall_jump_grace: f64,
    /// After a wall jump made with a direction held, horizontal input is forced away from the
    /// wall for this long, seconds. Celeste WallJumpForceTime 0.16 s.
    pub wall_jump_force_time: f64,
    /// A wall jump needs a solid tile closer than this to a side of the hitbox, px (0 = only
    /// in the grace window). Celeste WallJumpCheckDist 3 x2 = 6.
    pub wall_jump_reach: f64,
}

impl Default for Tuning {
    fn default() -> Self {
        Self {
            gravity: 1800.0,
            jump_speed: 210.0,
            max_fall_speed: 320.0,
            run_speed: 180.0,
            run_accel: 2000.0,
            run_decel: 800.0,
            air_mult: 0.65,
            jump_h_boost: 80.0,
            var_jump_time: 0.2,
            apex_gravity_mult: 0.5,
            apex_threshold: 80.0,
            coyote_time: 0.1,
            jump_buffer_time: 0.08,
            corner_correction: 4.0,
            wall_slide_speed: 40.0,
            wall_jump_speed_x: 260.0,
            wall_jump_speed_y: 210.0,
            wall_jump_grace: 0.1,
            wall_jump_force_time: 0.16,
            wall_jump_reach: 6.0,
        }
    }
}

/// Errors reading a tuning file or an override. Messages are one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum TuningError {
    /// The file could not be read.
    #[error("{path}: {msg}")]
    Read {
        /// The tuning file.
        path: String,
        /// The I/O error.
        msg: String,
    },
    /// The file is not valid TOML for [`Tuning`] (unknown key, wrong type).
    #[error("{path}: {msg}")]
    Parse {
        /// The tuning file.
        path: String,
        /// The parser's message, on one line.
        msg: String,
    },
    /// A value is out of its allowed range.
    #[error("{path}: {reason}")]
    Range {
        /// The tuning file.
        path: String,
        /// Which key and why (in the message, not a separate `source`: one line, said once).
        reason: ValueError,
    },
}

/// A tuning key or value refused by [`Tuning::set`] or [`Tuning::validate`]; one line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValueError {
    /// No such key (the lab's `tuning KEY VALUE`).
    #[error("unknown tuning key '{0}' (known: {known})", known = Tuning::KEYS.join(", "))]
    UnknownKey(String),
    /// Not a number in [0, [`MAX_VALUE`]].
    #[error("{key} must be a number in [0, {max}], got {value}", max = MAX_VALUE)]
    OutOfRange {
        /// The key.
        key: &'static str,
        /// The value refused.
        value: f64,
    },
    /// Zero where only a positive value works.
    #[error("{key} must be > 0, got {value}")]
    NotPositive {
        /// The key.
        key: &'static str,
        /// The value refused.
        value: f64,
    },
    /// `corner_correction` over half a tile.
    #[error("corner_correction must be ≤ 8 px, got {0}")]
    CornerCorrection(f64),
    /// `wall_jump_reach` over half a tile.
    #[error("wall_jump_reach must be ≤ 8 px, got {0}")]
    WallJumpReach(f64),
}

/// Largest tuning file Ledge reads: 64 KiB (`assets/tuning.toml`, every key with its comment,
/// is under 8 KB).
pub const MAX_TUNING_BYTES: u64 = 64 << 10;

impl Tuning {
    /// The key names, as in the TOML file and the lab's `tuning KEY VALUE`.
    pub const KEYS: [&'static str; 20] = [
        "gravity",
        "jump_speed",
        "max_fall_speed",
        "run_speed",
        "run_accel",
        "run_decel",
        "air_mult",
        "jump_h_boost",
        "var_jump_time",
        "apex_gravity_mult",
        "apex_threshold",
        "coyote_time",
        "jump_buffer_time",
        "corner_correction",
        "wall_slide_speed",
        "wall_jump_speed_x",
        "wall_jump_speed_y",
        "wall_jump_grace",
        "wall_jump_force_time",
        "wall_jump_reach",
    ];

    /// Load and validate a tuning file (at most [`MAX_TUNING_BYTES`]). Keys left out keep their defaults.
    ///
    /// # Errors
    /// [`TuningError`] naming the file: unreadable, not TOML, unknown key, out of range.
    pub fn load(path: &Path) -> Result<Tuning, TuningError> {
        let bytes = crate::read_limit::read_file_at_most(path, MAX_TUNING_BYTES)
            .map_err(|e| TuningError::Read { path: path.display().to_string(), msg: e.to_string() })?;
        Tuning::from_bytes(&bytes, path)
    }

    /// [`Tuning::load`] for a file already read: parse and validate the bytes of the tuning
    /// file `path` (named in the errors, never opened), at most [`MAX_TUNING_BYTES`] of them.
    /// Keys left out keep their defaults. Pure: the fuzz targets call it directly.
    ///
    /// # Errors
    /// [`TuningError`] naming `path`: over the limit, not UTF-8 text, not TOML, unknown key,
    /// out of range.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Tuning, TuningError> {
        let name = path.display().to_string();
        let read_error = |e: std::io::Error| TuningError::Read { path: name.clone(), msg: e.to_string() };
        if bytes.len() as u64 > MAX_TUNING_BYTES {
            return Err(read_error(crate::read_limit::too_big(Some(bytes.len() as u64), MAX_TUNING_BYTES)));
        }
        let text = std::str::from_utf8(bytes)
            .map_err(|e| TuningError::Read { path: name.clone(), msg: format!("is not UTF-8 text ({e})") })?;
        // The parser's message and the line it points at, not its `Display` (which quotes the
        // whole source line: 20 KB of one line for a deeply nested array, found by fuzzing).
        let t: Tuning = toml::from_str(text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start.min(text.len()));
            let line = 1 + text.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
            let msg = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
            TuningError::Parse { path: name.clone(), msg: format!("line {line}: {msg}") }
        })?;
        t.validate().map_err(|reason| TuningError::Range { path: name, reason })?;
        Ok(t)
    }

    /// A mutable reference to the value named `key`, or `None` for an unknown key.
    pub fn field_mut(&mut self, key: &str) -> Option<&mut f64> {
        Some(match key {
            "gravity" => &mut self.gravity,
            "jump_speed" => &mut self.jump_speed,
            "max_fall_speed" => &mut self.max_fall_speed,
            "run_speed" => &mut self.run_speed,
            "run_accel" => &mut self.run_accel,
            "run_decel" => &mut self.run_decel,
            "air_mult" => &mut self.air_mult,
            "jump_h_boost" => &mut self.jump_h_boost,
            "var_jump_time" => &mut self.var_jump_time,
            "apex_gravity_mult" => &mut self.apex_gravity_mult,
            "apex_threshold" => &mut self.apex_threshold,
            "coyote_time" => &mut self.coyote_time,
            "jump_buffer_time" => &mut self.jump_buffer_time,
            "corner_correction" => &mut self.corner_correction,
            "wall_slide_speed" => &mut self.wall_slide_speed,
            "wall_jump_speed_x" => &mut self.wall_jump_speed_x,
            "wall_jump_speed_y" => &mut self.wall_jump_speed_y,
            "wall_jump_grace" => &mut self.wall_jump_grace,
            "wall_jump_force_time" => &mut self.wall_jump_force_time,
            "wall_jump_reach" => &mut self.wall_jump_reach,
            _ => return None,
        })
    }

    /// Set one value by name and re-validate.
    ///
    /// # Errors
    /// [`ValueError`]: unknown key, or the value out of range.
    pub fn set(&mut self, key: &str, value: f64) -> Result<(), ValueError> {
        let slot = self.field_mut(key).ok_or_else(|| ValueError::UnknownKey(key.to_string()))?;
        let old = *slot;
        *slot = value;
        if let Err(e) = self.validate() {
            *self.field_mut(key).expect("key checked above") = old;
            return Err(e);
        }
        Ok(())
    }

    /// Check ranges: every value finite and in [0, [`MAX_VALUE`]]; gravity, run_speed, max_fall_speed,
    /// apex_gravity_mult and air_mult positive; corner_correction and wall_jump_reach ≤ 8 px
    /// (half a tile).
    ///
    /// # Errors
    /// [`ValueError`] naming the first bad key.
    pub fn validate(&self) -> Result<(), ValueError> {
        let mut probe = self.clone();
        for key in Self::KEYS {
            let v = *probe.field_mut(key).expect("KEYS are fields");
            if !v.is_finite() || !(0.0..=MAX_VALUE).contains(&v) {
                return Err(ValueError::OutOfRange { key, value: v });
            }
        }
        for (key, v) in [
            ("gravity", self.gravity),
            ("run_speed", self.run_speed),
            ("max_fall_speed", self.max_fall_speed),
            ("apex_gravity_mult", self.apex_gravity_mult),
            ("air_mult", self.air_mult),
        ] {
            if v <= 0.0 {
                return Err(ValueError::NotPositive { key, value: v });
            }
        }
        if self.corner_correction > 8.0 {
            return Err(ValueError::CornerCorrection(self.corner_correction));
        }
        if self.wall_jump_reach > 8.0 {
            return Err(ValueError::WallJumpReach(self.wall_jump_reach));
        }
        Ok(())
    }
}

/// The largest value any tuning key accepts (px/s, px/s², s): far beyond playable, small
/// enough that a tick's move stays a bounded scan.
pub const MAX_VALUE: f64 = 1e7;

/// Convert a duration in seconds to whole ticks at `tick_hz`, rounding to nearest
/// (0.1 s at 60 Hz = 6 ticks).
pub fn seconds_to_ticks(seconds: f64, tick_hz: u32) -> u32 {
    // `round_px` is `f64::round` without the libm call; below −2^63 or above 2^63 it may differ
    // from it by one, which `as u32` saturates away (0 or u32::MAX either way), and a NaN
    // gives 0 both ways.
    super::collision::round_px(seconds * tick_hz as f64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_rejects_unknown_keys_and_bad_values_and_keeps_the_old_value() {
        let mut t = Tuning::default();
        assert!(t.set("gravty", 1.0).unwrap_err().to_string().contains("unknown tuning key 'gravty'"));
        assert!(t.set("gravity", -5.0).is_err());
        assert!(t.set("gravity", f64::NAN).is_err());
        assert_eq!(t.gravity, 1800.0);
        t.set("gravity", 2000.0).unwrap();
        assert_eq!(t.gravity, 2000.0);
    }

    #[test]
    fn shipped_tuning_file_parses_and_is_valid() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/tuning.toml");
        Tuning::load(&path).unwrap();
    }

    #[test]
    fn bytes_in_memory_are_checked_as_a_file_is() {
        let name = Path::new("mem/tuning.toml");
        assert_eq!(Tuning::from_bytes(b"gravity = 2000\n", name).unwrap().gravity, 2000.0);
        let e = Tuning::from_bytes(b"gravity = 1\n\xff", name).unwrap_err().to_string();
        assert!(e.starts_with("mem/tuning.toml: is not UTF-8 text"), "{e}");
        let big = vec![b'#'; MAX_TUNING_BYTES as usize + 1];
        let e = Tuning::from_bytes(&big, name).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("mem/tuning.toml: is {} bytes, over the limit of {MAX_TUNING_BYTES}", big.len())
        );
    }

    #[test]
    fn bad_toml_names_the_file_on_one_line() {
        let dir = std::env::temp_dir().join(format!("ledge-tuning-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("t.toml");
        std::fs::write(&p, "gravity = \"heavy\"\n").unwrap();
        let e = Tuning::load(&p).unwrap_err().to_string();
        assert!(e.starts_with(&p.display().to_string()) && !e.contains('\n'), "{e}");
        std::fs::write(&p, "wobble = 3\n").unwrap();
        assert!(Tuning::load(&p).is_err());
        // The parser's message and its line, not the source line it quotes (fuzz regression
        // tests/fuzz-regressions/tuning/seed-deep-nesting.toml).
        std::fs::write(&p, format!("# deep\ngravity = {}\n", "[".repeat(20_000))).unwrap();
        let e = Tuning::load(&p).unwrap_err().to_string();
        assert_eq!(e, format!("{}: line 2: cannot recurse further; max recursion depth met", p.display()));
        std::fs::write(&p, "gravity = -1\n").unwrap();
        assert!(Tuning::load(&p).unwrap_err().to_string().contains("gravity"));
    }
}
