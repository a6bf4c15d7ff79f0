//! The lab script parser (LAB.md "Script"): one directive a line, setup then timeline.
//!
//! Clock: none; parsing happens before the scripted clock starts. Every error names the line.
//!
//! Times are written in milliseconds and read into whole nanoseconds straight from the decimal
//! text ([`parse_ms`]): no floating point on the way, so `16.6667` is 16,666,700 ns exactly and
//! any time up to `u64::MAX` ns (584 years) is exact. [`super::writer`] writes what this reads.

use crate::game_loop::{MAX_SAVESTATE_NAME, MAX_SAVESTATES};
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
        /// Whose input it is, 0-based (`pK` on the line is player K, K − 1 here; without
        /// `pK`: 0, player 1). LAB.md Version 4.
        player: u8,
    },
    /// `resize W H`: the window's inner size, pixels.
    Resize(u32, u32),
    /// `teleport X Y`: hitbox top-left, pixels.
    Teleport(f64, f64),
    /// `tick-cost MS`: each frame lasts at least (ticks in the previous frame) x MS; nanoseconds.
    TickCost(u64),
    /// `savestate NAME` (LAB.md Version 4): keep the state after the last tick run as NAME.
    Savestate(Box<str>),
    /// `loadstate NAME`: the next tick restores NAME (saved on an earlier line) instead of
    /// stepping.
    Loadstate(Box<str>),
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
    /// `players N` (LAB.md Version 4): runners in the world, 1..=4; 1 without the line.
    pub players: usize,
}

impl Script {
    /// The script presses `rewind` somewhere (else no tick of it can rewind, and the loop need
    /// not keep a history).
    pub fn rewinds(&self) -> bool {
        self.steps
            .iter()
            .any(|(s, _)| matches!(s, Step::Event { event: InputEvent::Press(_, Action::Rewind), .. }))
    }

    /// The script loads a savestate somewhere (LAB.md Version 4 `loadstate`).
    pub fn loads(&self) -> bool {
        self.steps.iter().any(|(s, _)| matches!(s, Step::Loadstate(_)))
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

/// An optional `pK` token (LAB.md Version 4): `Some(K − 1)` when `tok` is `p1`..`p4`, `None`
/// when it is not a player token at all; `p0`, `p5` and the like are errors.
fn player_tok(tok: Option<&str>, line: usize) -> Result<Option<u8>, ParseError> {
    let Some(k) = tok.and_then(|t| t.strip_prefix('p')).filter(|k| !k.is_empty()) else { return Ok(None) };
    match k.parse::<u8>() {
        Ok(k @ 1..=4) => Ok(Some(k - 1)),
        Ok(_) => err(line, format!("player 'p{k}': players are p1 to p4")),
        Err(_) => Ok(None),
    }
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
        players: 1,
    };
    // The highest `pK` seen, with its line: checked against `players N` at the end.
    let mut top_player: Option<(u8, usize)> = None;
    let mut players_line = None;
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let mut timeline_started = false;
    // The savestate names written so far (a `loadstate` must name one).
    let mut saved: std::collections::BTreeSet<Box<str>> = std::collections::BTreeSet::new();
    let (mut frames, mut events) = (0u64, 0usize);
    while let Some((n, raw)) = lines.next() {
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let mut toks = content.split_whitespace();
        let head = toks.next().unwrap_or_default();
        let setup = matches!(head, "level" | "map" | "tuning" | "config" | "entity" | "ghost" | "players");
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
            "players" => {
                if players_line.is_some() {
                    return err(n, "players: already set (one 'players' line per script)");
                }
                script.players = match toks.next().map(str::parse::<usize>) {
                    Some(Ok(k @ 1..=4)) => k,
                    _ => return err(n, "players: expected N, a whole number from 1 to 4"),
                };
                no_more(toks, n)?;
                players_line = Some(n);
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
                let player = player_tok(next, n)?;
                if player.is_some() {
                    next = toks.next();
                }
                let player = player.unwrap_or(0);
                let at = timing(next, n)?;
                no_more(toks, n)?;
                let event = match (head, synthetic) {
                    ("press", true) => InputEvent::SyntheticPress(src, a),
                    ("press", false) => InputEvent::Press(src, a),
                    ("release", _) => InputEvent::Release(src, a),
                    _ => InputEvent::Repeat(src, a),
                };
                events = count_event(events, n)?;
                top_player = top_player.max(Some((player, n)));
                script.steps.push((Step::Event { event, at, player }, n));
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
                let (at, player) = timing_for_player(&mut toks, n)?;
                top_player = top_player.max(Some((player, n)));
                events = count_event(events, n)?;
                script.steps.push((Step::Event { event, at, player }, n));
            }
            "axis" => {
                if toks.next() != Some("X") {
                    return err(n, "axis: only the X axis exists ('axis X VALUE')");
                }
                let v = number(toks.next(), "axis value", n)?;
                if !(-1.0..=1.0).contains(&v) {
                    return err(n, format!("axis value must be in [-1, 1], got {v}"));
                }
                let (at, player) = timing_for_player(&mut toks, n)?;
                top_player = top_player.max(Some((player, n)));
                events = count_event(events, n)?;
                script.steps.push((Step::Event { event: InputEvent::AxisX(v as f32), at, player }, n));
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
            "savestate" | "loadstate" => {
                timeline_started = true;
                let name = savestate_name(toks.next(), head, n)?;
                no_more(toks, n)?;
                if head == "savestate" {
                    saved.insert(name.clone());
                    if saved.len() > MAX_SAVESTATES {
                        return err(n, format!("more than {MAX_SAVESTATES} savestate names in one script"));
                    }
                    script.steps.push((Step::Savestate(name), n));
                } else if saved.contains(&name) {
                    script.steps.push((Step::Loadstate(name), n));
                } else {
                    return err(n, format!("loadstate {name}: no 'savestate {name}' line before it"));
                }
            }
            "tick-cost" => {
                let ns = millis(toks.next(), "tick-cost MS", n)?;
                no_more(toks, n)?;
                script.steps.push((Step::TickCost(ns), n));
            }
            other => return err(n, format!("unknown directive '{other}'")),
        }
    }
    if let Some((k, line)) = top_player.filter(|&(k, _)| usize::from(k) >= script.players) {
        let n = script.players;
        return err(
            line,
            format!(
                "p{}: the script has {n} player{} ('players N' sets more)",
                k + 1,
                if n == 1 { "" } else { "s" }
            ),
        );
    }
    Ok(script)
}

/// A `savestate`/`loadstate` NAME: 1 to [`MAX_SAVESTATE_NAME`] bytes of letters, digits, `-`,
/// `_` and `.`.
fn savestate_name(tok: Option<&str>, head: &str, line: usize) -> Result<Box<str>, ParseError> {
    let Some(name) = tok else { return err(line, format!("{head}: missing NAME")) };
    let ok = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.');
    if name.len() > MAX_SAVESTATE_NAME || !name.bytes().all(ok) {
        return err(
            line,
            format!(
                "{head}: NAME must be 1 to {MAX_SAVESTATE_NAME} letters, digits, '-', '_' or '.', got '{}'",
                crate::printable::escape(name)
            ),
        );
    }
    Ok(name.into())
}

/// The rest of an input line after its edge: an optional `pK`, then the optional `+MS`/`@MS`,
/// then nothing.
fn timing_for_player<'a>(
    toks: &mut impl Iterator<Item = &'a str>,
    line: usize,
) -> Result<(At, u8), ParseError> {
    let mut next = toks.next();
    let player = player_tok(next, line)?;
    if player.is_some() {
        next = toks.next();
    }
    let at = timing(next, line)?;
    no_more(toks, line)?;
    Ok((at, player.unwrap_or(0)))
}

#[cfg(test)]
#[path = "script_tests.rs"]
mod tests;
