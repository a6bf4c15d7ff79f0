//! The lab script parser (LAB.md "Script"): one directive a line, setup then timeline.
//!
//! Clock: none; parsing happens before the scripted clock starts. Every error names the line.
//!
//! Times are written in milliseconds and read into whole nanoseconds straight from the decimal
//! text ([`parse_ms`]): no floating point on the way, so `16.6667` is 16,666,700 ns exactly and
//! any time up to `u64::MAX` ns (584 years) is exact. [`super::writer`] writes what this reads.

use crate::input::{Action, InputEvent, Source};
use crate::level::{ContentHash, EntitySpec};

/// When an input edge arrives on the scripted wall clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// Nanoseconds after the previous frame (`+MS`; the default is `+0`).
    AfterFrame(u64),
    /// Nanoseconds since the start of the script (`@MS`).
    Absolute(u64),
}

/// One timeline directive, with its 1-based script line.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// `frame MS [xN]`: the clock advances MS, then a frame runs; N times.
    Frame {
        /// Frame delta, nanoseconds.
        ns: u64,
        /// Repetitions (≥ 1).
        count: u64,
    },
    /// An input edge.
    Event {
        /// The edge (keyboard unless the script says `pad`).
        event: InputEvent,
        /// When it arrives.
        at: At,
    },
    /// `resize W H`: the window's inner size, pixels.
    Resize(u32, u32),
    /// `teleport X Y`: hitbox top-left, pixels.
    Teleport(f64, f64),
    /// `tick-cost MS`: each frame lasts at least (ticks in the previous frame) x MS; nanoseconds.
    TickCost(u64),
}

/// Where the level comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum LevelSource {
    /// The game's first level.
    Default,
    /// `level PATH [sha256=HEX]`: the path as written, the line, and the level's content hash
    /// when the line gives one (a recording or ghost names the level it was made on:
    /// [`crate::level::ContentHash`]; the lab refuses to replay on a level with another hash).
    File(String, usize, Option<ContentHash>),
    /// An inline `map` block: its rows and the line of the first row.
    Inline(Vec<String>, usize),
}

/// A parsed script.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    /// The level.
    pub level: LevelSource,
    /// `tuning KEY VALUE` overrides, in order, with their lines.
    pub tuning: Vec<(String, f64, usize)>,
    /// `config KEY VALUE` overrides, in order, with their lines.
    pub config: Vec<(String, f64, usize)>,
    /// The timeline, each step with its line.
    pub steps: Vec<(Step, usize)>,
    /// `entity KIND KEY=VALUE ...` lines (LAB.md "Version 2 additions"), in order, with their
    /// lines: added after the level's own entities.
    pub entities: Vec<(EntitySpec, usize)>,
    /// `ghost PATH` (LAB.md "Time tools") as written, with its line: a recording to draw as a
    /// ghost ([`super::ghost`]).
    pub ghost: Option<(String, usize)>,
}

impl Script {
    /// The script presses `rewind` somewhere (else no tick of it can rewind, and the loop need
    /// not keep a history).
    pub fn rewinds(&self) -> bool {
        self.steps
            .iter()
            .any(|(s, _)| matches!(s, Step::Event { event: InputEvent::Press(_, Action::Rewind), .. }))
    }
}

/// Most bytes in a script or recording the lab reads: 64 MiB. A one-hour recording at 240 Hz
/// writes one `frame` line per measured delta (about 864,000 lines, under 25 MB); the shipped
/// level scripts are under 40 KB.
pub const MAX_SCRIPT_BYTES: u64 = 64 << 20;

/// Most frames in one script (`frame MS xN` counts N): 10,000,000, 11.5 hours at 240 Hz (the
/// one-hour soak bench runs 216,000). Each frame runs at most `max_steps` ticks.
pub const MAX_FRAMES: u64 = 10_000_000;

/// Most input events in one script: 1,000,000 (a one-hour recording of a busy player holds
/// about 20,000).
pub const MAX_EVENTS: usize = 1_000_000;

/// A script error: the 1-based line and what is wrong. Displayed as `line N: problem`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {msg}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// The problem, one line.
    pub msg: String,
}

fn err<T>(line: usize, msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError { line, msg: msg.into() })
}

fn number(tok: Option<&str>, what: &str, line: usize) -> Result<f64, ParseError> {
    let Some(t) = tok else { return err(line, format!("missing {what}")) };
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => err(line, format!("bad number '{t}' for {what}")),
    }
}

/// The farthest a `teleport` may place the player from the origin, pixels.
pub const MAX_COORD: f64 = 1e7;

fn non_negative(tok: Option<&str>, what: &str, line: usize) -> Result<f64, ParseError> {
    let v = number(tok, what, line)?;
    if v < 0.0 {
        return err(line, format!("{what} must be ≥ 0, got {v}"));
    }
    Ok(v)
}

/// A time written in milliseconds, as whole nanoseconds ([`parse_ms`]).
fn millis(tok: Option<&str>, what: &str, line: usize) -> Result<u64, ParseError> {
    let Some(t) = tok else { return err(line, format!("missing {what}")) };
    parse_ms(t).map_err(|why| ParseError { line, msg: format!("{what} '{t}': {why}") })
}

/// Why a time in a script could not be read ([`parse_ms`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeError {
    /// Not digits with an optional sign, `.` fraction and `e` exponent.
    #[error("not a decimal number of milliseconds")]
    NotDecimal,
    /// Below zero.
    #[error("must be ≥ 0")]
    Negative,
    /// More nanoseconds than a `u64` holds.
    #[error("more than 2^64 - 1 ns (about 584 years)")]
    TooLarge,
    /// More significant digits than are read exactly (38, what a `u128` holds).
    #[error("{0} significant digits (at most 38)")]
    TooManyDigits(usize),
}

/// Read a time written in milliseconds (`16.6667`, `250`, `1e3`, `0.000001`) as whole
/// nanoseconds, exactly: the decimal digits are read as an integer and scaled by powers of ten,
/// never through a float. Accepted: an optional sign, digits with an optional `.` and fraction,
/// an optional exponent (`e`/`E`).
///
/// # Errors
/// [`TimeError`]: not a decimal number, negative, more than `u64::MAX` ns (about 584 years),
/// or more than 38 significant digits. A fraction finer than a nanosecond (more than six
/// decimals) is no error: it is rounded to the nearest nanosecond, halves up.
pub fn parse_ms(text: &str) -> Result<u64, TimeError> {
    let bad = || TimeError::NotDecimal;
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() && frac.is_empty() || !digits_only(int) || !digits_only(frac) {
        return Err(bad());
    }
    // Scale: value = digits × 10^(exp10) ms = digits × 10^(exp10 + 6) ns.
    let mut exp10: i64 = match exponent {
        None => 0,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits_only(digits) {
                return Err(bad());
            }
            // Longer exponents only ever overflow or underflow; cap them to keep this in i64.
            let magnitude = digits.trim_start_matches('0');
            let m: i64 = if magnitude.len() > 6 { 1_000_000 } else { magnitude.parse().unwrap_or(0) };
            if e.starts_with('-') { -m } else { m }
        }
    };
    // Significant digits only: leading zeros add nothing, trailing zeros of the fraction are exact.
    let frac = frac.trim_end_matches('0');
    exp10 -= frac.len() as i64;
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Ok(0);
    }
    if negative {
        return Err(TimeError::Negative);
    }
    let too_large = || TimeError::TooLarge;
    if digits.len() > 38 {
        return Err(TimeError::TooManyDigits(digits.len()));
    }
    let value: u128 = digits.parse().map_err(|_| too_large())?;
    let scale = exp10 + 6;
    let ns = if scale >= 0 {
        u32::try_from(scale)
            .ok()
            .and_then(|s| 10u128.checked_pow(s))
            .and_then(|p| value.checked_mul(p))
            .ok_or_else(too_large)?
    } else {
        // Finer than a nanosecond: rounded to the nearest one, halves up (as the f64 reading
        // of earlier versions rounded), decided on the exact decimal digits.
        match u32::try_from(-scale).ok().and_then(|s| 10u128.checked_pow(s)) {
            Some(p) => value / p + u128::from(value % p >= p.div_ceil(2)),
            None => 0, // below 10^-38 of the last digit: value < 10^38 ≤ p / 2
        }
    };
    u64::try_from(ns).map_err(|_| too_large())
}

fn action(tok: Option<&str>, line: usize) -> Result<Action, ParseError> {
    let Some(t) = tok else { return err(line, "missing action (left, right, up, down, jump, rewind)") };
    Action::from_name(t)
        .map_or_else(|| err(line, format!("unknown action '{t}' (left, right, up, down, jump, rewind)")), Ok)
}

/// Parse an optional `+MS` / `@MS` timing token; none means `+0`.
fn timing(tok: Option<&str>, line: usize) -> Result<At, ParseError> {
    match tok {
        None => Ok(At::AfterFrame(0)),
        Some(t) if t.starts_with('+') => Ok(At::AfterFrame(millis(Some(&t[1..]), "event offset", line)?)),
        Some(t) if t.starts_with('@') => Ok(At::Absolute(millis(Some(&t[1..]), "event time", line)?)),
        Some(t) => err(line, format!("expected +MS or @MS, got '{t}'")),
    }
}

/// One more event than `events`, or the error at line `n` past [`MAX_EVENTS`].
fn count_event(events: usize, n: usize) -> Result<usize, ParseError> {
    if events >= MAX_EVENTS {
        return err(n, format!("more than {MAX_EVENTS} input events in one script"));
    }
    Ok(events + 1)
}

fn no_more<'a>(mut it: impl Iterator<Item = &'a str>, line: usize) -> Result<(), ParseError> {
    match it.next() {
        None => Ok(()),
        Some(t) => err(line, format!("unexpected '{t}'")),
    }
}

/// Parse a whole script.
///
/// # Errors
/// The first malformed line: unknown directive, bad number, setup after the first frame,
/// unterminated `map`, etc.; a `level-changed TICK` or `tuning-changed TICK` line (a
/// recording made across a hot reload: "the level changed during this recording at tick N").
pub fn parse(text: &str) -> Result<Script, ParseError> {
    let mut script = Script {
        level: LevelSource::Default,
        tuning: vec![],
        config: vec![],
        steps: vec![],
        entities: vec![],
        ghost: None,
    };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let mut timeline_started = false;
    let (mut frames, mut events) = (0u64, 0usize);
    while let Some((n, raw)) = lines.next() {
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let mut toks = content.split_whitespace();
        let head = toks.next().unwrap_or_default();
        let setup = matches!(head, "level" | "map" | "tuning" | "config" | "entity" | "ghost");
        if setup && timeline_started {
            return err(n, format!("'{head}' is a setup directive and must come before the first frame"));
        }
        if setup && matches!(head, "level" | "map") && script.level != LevelSource::Default {
            return err(n, "the level is already set (one 'level' or 'map' per script)");
        }
        match head {
            "level" => {
                let rest = content["level".len()..].trim();
                if rest.is_empty() {
                    return err(n, "level: missing PATH");
                }
                let (path, sha256) = match rest.rsplit_once(char::is_whitespace) {
                    Some((path, hash)) if hash.starts_with("sha256=") => {
                        let parsed = hash["sha256=".len()..].parse::<ContentHash>();
                        (
                            path.trim_end(),
                            Some(parsed.map_err(|e| ParseError { line: n, msg: format!("level: {e}") })?),
                        )
                    }
                    _ => (rest, None),
                };
                script.level = LevelSource::File(path.to_string(), n, sha256);
            }
            "map" => {
                no_more(toks, n)?;
                let mut rows = Vec::new();
                let mut closed = false;
                for (_, row) in lines.by_ref() {
                    if row.trim() == "end" {
                        closed = true;
                        break;
                    }
                    rows.push(row.trim_end_matches('\r').to_string());
                }
                if !closed {
                    return err(n, "map: no 'end' line closes this map");
                }
                script.level = LevelSource::Inline(rows, n + 1);
            }
            "tuning" | "config" => {
                let Some(key) = toks.next() else { return err(n, format!("{head}: missing KEY")) };
                let v = number(toks.next(), &format!("{head} {key}"), n)?;
                no_more(toks, n)?;
                let list = if head == "tuning" { &mut script.tuning } else { &mut script.config };
                list.push((key.to_string(), v, n));
            }
            "ghost" => {
                let rest = content["ghost".len()..].trim();
                if rest.is_empty() {
                    return err(n, "ghost: missing PATH");
                }
                if script.ghost.is_some() {
                    return err(n, "the ghost is already set (one 'ghost' per script)");
                }
                script.ghost = Some((rest.to_string(), n));
            }
            "entity" => {
                let words: Vec<&str> = toks.collect();
                let spec = EntitySpec::parse_words(&words)
                    .map_err(|e| ParseError { line: n, msg: format!("entity: {e}") })?;
                script.entities.push((spec, n));
            }
            "frame" => {
                timeline_started = true;
                let ns = millis(toks.next(), "frame MS", n)?;
                let count = match toks.next() {
                    None => 1,
                    Some(t) => match t.strip_prefix('x').and_then(|c| c.parse::<u64>().ok()) {
                        Some(c) if c >= 1 => c,
                        _ => return err(n, format!("expected xN (N ≥ 1), got '{t}'")),
                    },
                };
                no_more(toks, n)?;
                frames = frames.saturating_add(count);
                if frames > MAX_FRAMES {
                    return err(n, format!("more than {MAX_FRAMES} frames in one script"));
                }
                script.steps.push((Step::Frame { ns, count }, n));
            }
            "press" | "release" | "repeat" => {
                let a = action(toks.next(), n)?;
                let (mut synthetic, mut src) = (false, Source::Keyboard);
                let mut next = toks.next();
                loop {
                    match next {
                        Some("synthetic") if head == "press" && !synthetic => synthetic = true,
                        Some("synthetic") => return err(n, "only 'press' can be synthetic, once"),
                        Some("pad") if src == Source::Keyboard => src = Source::Pad,
                        _ => break,
                    }
                    next = toks.next();
                }
                let at = timing(next, n)?;
                no_more(toks, n)?;
                let event = match (head, synthetic) {
                    ("press", true) => InputEvent::SyntheticPress(src, a),
                    ("press", false) => InputEvent::Press(src, a),
                    ("release", _) => InputEvent::Release(src, a),
                    _ => InputEvent::Repeat(src, a),
                };
                events = count_event(events, n)?;
                script.steps.push((Step::Event { event, at }, n));
            }
            "focus" | "pad" => {
                let event = match (head, toks.next()) {
                    ("focus", Some("lost")) => InputEvent::FocusLost,
                    ("focus", Some("gained")) => InputEvent::FocusGained,
                    ("pad", Some("connect")) => InputEvent::PadConnected,
                    ("pad", Some("disconnect")) => InputEvent::PadDisconnected,
                    (_, w) => {
                        let want = if head == "focus" { "lost or gained" } else { "connect or disconnect" };
                        return err(n, format!("{head}: expected {want}, got '{}'", w.unwrap_or("")));
                    }
                };
                let at = timing(toks.next(), n)?;
                no_more(toks, n)?;
                events = count_event(events, n)?;
                script.steps.push((Step::Event { event, at }, n));
            }
            "axis" => {
                if toks.next() != Some("X") {
                    return err(n, "axis: only the X axis exists ('axis X VALUE')");
                }
                let v = number(toks.next(), "axis value", n)?;
                if !(-1.0..=1.0).contains(&v) {
                    return err(n, format!("axis value must be in [-1, 1], got {v}"));
                }
                let at = timing(toks.next(), n)?;
                no_more(toks, n)?;
                events = count_event(events, n)?;
                script.steps.push((Step::Event { event: InputEvent::AxisX(v as f32), at }, n));
            }
            "resize" => {
                let w = non_negative(toks.next(), "resize W", n)?;
                let h = non_negative(toks.next(), "resize H", n)?;
                no_more(toks, n)?;
                if w.fract() != 0.0 || h.fract() != 0.0 || w > 65535.0 || h > 65535.0 {
                    return err(n, "resize: W and H must be whole pixels ≤ 65535");
                }
                script.steps.push((Step::Resize(w as u32, h as u32), n));
            }
            "teleport" => {
                let x = number(toks.next(), "teleport X", n)?;
                let y = number(toks.next(), "teleport Y", n)?;
                no_more(toks, n)?;
                if x.abs() > MAX_COORD || y.abs() > MAX_COORD {
                    return err(n, format!("teleport: X and Y must be within ±{MAX_COORD} px"));
                }
                script.steps.push((Step::Teleport(x, y), n));
            }
            // Where hot reload swapped a file in a recording: refused ([`super::changed`]).
            "level-changed" | "tuning-changed" => return err(n, super::changed::refusal(head, toks)),
            "tick-cost" => {
                let ns = millis(toks.next(), "tick-cost MS", n)?;
                no_more(toks, n)?;
                script.steps.push((Step::TickCost(ns), n));
            }
            other => return err(n, format!("unknown directive '{other}'")),
        }
    }
    Ok(script)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_directive() {
        let s = parse(
            "# c\nconfig tick_hz 64\ntuning gravity 2000\nmap\n..P.\n####\nend\nframe 16.6667 x3\n\
             press jump @21.5\nrelease jump +2\nrepeat left\npress right synthetic +1\nrelease jump pad +1\nfocus lost\n\
             pad connect @100\naxis X -0.5 +3\nresize 800 0\nteleport 600 100\ntick-cost 5\n",
        )
        .unwrap();
        assert_eq!(s.config, vec![("tick_hz".into(), 64.0, 2)]);
        assert_eq!(s.level, LevelSource::Inline(vec!["..P.".into(), "####".into()], 5));
        assert_eq!(s.steps[0], (Step::Frame { ns: 16_666_700, count: 3 }, 8));
        assert_eq!(s.steps.len(), 12);
        assert_eq!(
            s.steps[5].0,
            Step::Event {
                event: InputEvent::Release(Source::Pad, Action::Jump),
                at: At::AfterFrame(1_000_000)
            }
        );
    }

    #[test]
    fn times_are_exact_nanoseconds_from_the_decimal_text() {
        for (text, ns) in [
            ("16.6667", 16_666_700),
            ("16.666667", 16_666_667),
            ("0.000001", 1),
            ("6.9444", 6_944_400),
            ("250", 250_000_000),
            ("250.", 250_000_000),
            (".5", 500_000),
            ("0", 0),
            ("-0", 0),
            ("+7", 7_000_000),
            ("1e3", 1_000_000_000),
            ("1E-6", 1),
            ("2.5e-5", 25),
            ("16.666667000000", 16_666_667),
            ("0001048576000", 1_048_576_000_000_000),
            ("18446744073709.551615", u64::MAX),
            // Finer than a nanosecond: the nearest one, halves up, from the exact digits.
            ("16.6666667", 16_666_667),
            ("16.66666666666666666", 16_666_667),
            ("0.0000004", 0),
            ("0.0000005", 1),
            ("0.00000049999999999999999999", 0),
            ("1.5e-6", 2),
            ("2.5e-6", 3),
            ("1e-7", 0),
            ("1e-300", 0),
            ("18446744073709.5516154", u64::MAX),
        ] {
            assert_eq!(parse_ms(text), Ok(ns), "{text}");
        }
        for (text, why) in [
            ("18446744073709.551616", "more than 2^64"),
            ("18446744073709.5516155", "more than 2^64"),
            ("1e300", "more than 2^64"),
            ("99999999999999999999999999999999999999", "more than 2^64"),
            ("123456789012345678901234567890123456789e-30", "39 significant digits"),
            ("-1", "must be ≥ 0"),
            ("1e", "not a decimal"),
            ("16.6.7", "not a decimal"),
            ("inf", "not a decimal"),
            ("nan", "not a decimal"),
            ("", "not a decimal"),
            (".", "not a decimal"),
            ("0x10", "not a decimal"),
        ] {
            let e = parse_ms(text).unwrap_err();
            assert!(e.to_string().contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn time_errors_name_the_line_and_the_value() {
        let e = parse("frame 10\n\npress jump @16.6666.67\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.to_string(), "line 3: event time '16.6666.67': not a decimal number of milliseconds");
        let e = parse("tick-cost 18446744073709.551616\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.to_string().contains("more than 2^64 - 1 ns"), "{e}");
        // The error is a std error: it goes into anyhow or a Box<dyn Error> as it is.
        let boxed: Box<dyn std::error::Error> = Box::new(e);
        assert!(boxed.to_string().starts_with("line 1: tick-cost MS"));
    }

    #[test]
    fn twelve_days_of_milliseconds_are_read_exactly() {
        // 2^20 s, past the old 1e9 ms limit, and one nanosecond more.
        let s = parse("frame 1048576000 x2\npress jump @1048576000.000001\n").unwrap();
        let late = (1u64 << 20) * 1_000_000_000;
        assert_eq!(s.steps[0].0, Step::Frame { ns: late, count: 2 });
        let press = InputEvent::Press(Source::Keyboard, Action::Jump);
        assert_eq!(s.steps[1].0, Step::Event { event: press, at: At::Absolute(late + 1) });
    }

    #[test]
    fn errors_name_the_line() {
        for (text, line) in [
            ("frame 10\nbogus 3\n", 2),
            ("frame ten\n", 1),
            ("frame 10 x0\n", 1),
            ("map\n..P\n", 1),
            ("frame 1\ntuning gravity 3\n", 2),
            ("press fly\n", 1),
            ("press jump soon\n", 1),
            ("axis X 2\n", 1),
            ("frame -1\n", 1),
            ("frame nan\n", 1),
        ] {
            assert_eq!(parse(text).unwrap_err().line, line, "{text:?}");
        }
    }

    #[test]
    fn a_level_line_may_end_with_its_content_hash() {
        let hex = "ab".repeat(32);
        let s = parse(&format!("level my levels/a.tmx sha256={hex}\n")).unwrap();
        assert_eq!(s.level, LevelSource::File("my levels/a.tmx".into(), 1, Some(hex.parse().unwrap())));
        let s = parse("level my levels/a.tmx\n").unwrap();
        assert_eq!(s.level, LevelSource::File("my levels/a.tmx".into(), 1, None));
        let e = parse("level a.tmx sha256=abc\n").unwrap_err();
        assert_eq!(e.to_string(), "line 1: level: sha256 must be 64 hex digits, got 'abc'");
    }

    #[test]
    fn frames_and_events_past_the_limits_are_refused_at_their_line() {
        let e = parse(&format!("frame 16 x{MAX_FRAMES}\nframe 16\n")).unwrap_err();
        assert_eq!(e.to_string(), format!("line 2: more than {MAX_FRAMES} frames in one script"));
        assert!(parse(&format!("frame 16 x{MAX_FRAMES}\n")).is_ok());
        let e = parse(&format!("frame 16 x{}\n", u64::MAX)).unwrap_err();
        assert_eq!(e.line, 1);
        let text = "press jump\n".repeat(MAX_EVENTS + 1);
        let e = parse(&text).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("line {}: more than {MAX_EVENTS} input events in one script", MAX_EVENTS + 1)
        );
    }
}
