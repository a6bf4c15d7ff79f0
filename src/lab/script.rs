//! The lab script parser (LAB.md "Script"): one directive a line, setup then timeline.
//!
//! Clock: none; parsing happens before the scripted clock starts. Every error names the line.

use crate::input::{Action, InputEvent, Source};
use std::fmt;

/// When an input edge arrives on the scripted wall clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum At {
    /// Milliseconds after the previous frame (`+MS`; the default is `+0`).
    AfterFrame(f64),
    /// Milliseconds since the start of the script (`@MS`).
    Absolute(f64),
}

/// One timeline directive, with its 1-based script line.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// `frame MS [xN]`: the clock advances MS, then a frame runs; N times.
    Frame {
        /// Frame delta, milliseconds.
        ms: f64,
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
    /// `tick-cost MS`: each frame lasts at least (ticks in the previous frame) x MS.
    TickCost(f64),
}

/// Where the level comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum LevelSource {
    /// The game's first level.
    Default,
    /// `level PATH` as written, with its line.
    File(String, usize),
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
}

/// A script error: the 1-based line and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// The problem, one line.
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.msg)
    }
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

/// The largest time a script may write in one value, milliseconds: 1e9 ms (11.6 days).
pub const MAX_MS: f64 = 1e9;

/// The farthest a `teleport` may place the player from the origin, pixels.
pub const MAX_COORD: f64 = 1e7;

fn non_negative(tok: Option<&str>, what: &str, line: usize) -> Result<f64, ParseError> {
    let v = number(tok, what, line)?;
    if v < 0.0 {
        return err(line, format!("{what} must be ≥ 0, got {v}"));
    }
    Ok(v)
}

/// A time in milliseconds: 0 ≤ v ≤ [`MAX_MS`].
fn millis(tok: Option<&str>, what: &str, line: usize) -> Result<f64, ParseError> {
    let v = non_negative(tok, what, line)?;
    if v > MAX_MS {
        return err(line, format!("{what} must be ≤ {MAX_MS} ms, got {v}"));
    }
    Ok(v)
}

fn action(tok: Option<&str>, line: usize) -> Result<Action, ParseError> {
    let Some(t) = tok else { return err(line, "missing action (left, right, up, down, jump)") };
    Action::from_name(t)
        .map_or_else(|| err(line, format!("unknown action '{t}' (left, right, up, down, jump)")), Ok)
}

/// Parse an optional `+MS` / `@MS` timing token; none means `+0`.
fn timing(tok: Option<&str>, line: usize) -> Result<At, ParseError> {
    match tok {
        None => Ok(At::AfterFrame(0.0)),
        Some(t) if t.starts_with('+') => Ok(At::AfterFrame(millis(Some(&t[1..]), "event offset", line)?)),
        Some(t) if t.starts_with('@') => Ok(At::Absolute(millis(Some(&t[1..]), "event time", line)?)),
        Some(t) => err(line, format!("expected +MS or @MS, got '{t}'")),
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
/// unterminated `map`, etc.
pub fn parse(text: &str) -> Result<Script, ParseError> {
    let mut script = Script { level: LevelSource::Default, tuning: vec![], config: vec![], steps: vec![] };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let mut timeline_started = false;
    while let Some((n, raw)) = lines.next() {
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let mut toks = content.split_whitespace();
        let head = toks.next().unwrap_or_default();
        let setup = matches!(head, "level" | "map" | "tuning" | "config");
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
                script.level = LevelSource::File(rest.to_string(), n);
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
            "frame" => {
                timeline_started = true;
                let ms = millis(toks.next(), "frame MS", n)?;
                let count = match toks.next() {
                    None => 1,
                    Some(t) => match t.strip_prefix('x').and_then(|c| c.parse::<u64>().ok()) {
                        Some(c) if c >= 1 => c,
                        _ => return err(n, format!("expected xN (N ≥ 1), got '{t}'")),
                    },
                };
                no_more(toks, n)?;
                script.steps.push((Step::Frame { ms, count }, n));
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
            "tick-cost" => {
                let ms = millis(toks.next(), "tick-cost MS", n)?;
                no_more(toks, n)?;
                script.steps.push((Step::TickCost(ms), n));
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
        assert_eq!(s.steps[0], (Step::Frame { ms: 16.6667, count: 3 }, 8));
        assert_eq!(s.steps.len(), 12);
        assert_eq!(
            s.steps[5].0,
            Step::Event { event: InputEvent::Release(Source::Pad, Action::Jump), at: At::AfterFrame(1.0) }
        );
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
}
