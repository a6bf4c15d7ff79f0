//! The lab script writer: the one place that turns typed script lines back into text, used by
//! `ledge --record` ([`super::record`]) and the level solver (`examples/solve`). What it writes,
//! [`super::script::parse`] reads back to the same values (LAB.md "Script").
//!
//! Clock: none; it formats times it is given (integer nanoseconds, written as milliseconds with
//! six decimals, which is exact).

use super::script::{At, Step};
use crate::input::{InputEvent, Source};
use crate::level::ContentHash;
use std::fmt::Write as _;

/// Nanoseconds as milliseconds with six decimals (`16666667` → `16.666667`): exact, and read
/// back by [`parse_ms`](super::script::parse_ms) to the same integer.
pub fn format_ms(ns: u64) -> String {
    format!("{}.{:06}", ns / 1_000_000, ns % 1_000_000)
}

/// How a run of equal frames is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeat {
    /// `frame MS` for one frame, `frame MS xN` for N > 1 (recordings).
    WhenMany,
    /// Always `frame MS xN`, `x1` included (the solver's scripts, one line per stretch between
    /// edges, so the tick an edge is consumed by can be counted from the `x`s).
    Always,
}

/// Builds a lab script line by line. Consecutive equal frames given to [`ScriptWriter::frame`]
/// are merged into one `frame MS xN` line; any other line ends the run.
#[derive(Clone, Debug)]
pub struct ScriptWriter {
    text: String,
    repeat: Repeat,
    /// The frame run not yet written: (delta ns, count).
    run: Option<(u64, u64)>,
}

impl ScriptWriter {
    /// An empty script whose frame runs are written as `repeat` says.
    pub fn new(repeat: Repeat) -> Self {
        ScriptWriter { text: String::new(), repeat, run: None }
    }

    fn flush(&mut self) {
        if let Some((ns, count)) = self.run.take() {
            let _ = write!(self.text, "frame {}", format_ms(ns));
            if count > 1 || self.repeat == Repeat::Always {
                let _ = write!(self.text, " x{count}");
            }
            self.text.push('\n');
        }
    }

    fn line(&mut self, line: &str) {
        self.flush();
        self.text.push_str(line);
        self.text.push('\n');
    }

    /// `# TEXT`: a comment line (`text` must be one line).
    pub fn comment(&mut self, text: &str) {
        self.line(&format!("# {text}"));
    }

    /// `level PATH`.
    pub fn level(&mut self, path: &str, sha256: Option<ContentHash>) {
        match sha256 {
            Some(hash) => self.line(&format!("level {path} sha256={hash}")),
            None => self.line(&format!("level {path}")),
        }
    }

    /// An inline `map` block: `map`, the rows as given, `end`.
    pub fn map(&mut self, rows: &[String]) {
        self.line("map");
        for row in rows {
            self.line(row);
        }
        self.line("end");
    }

    /// `tuning KEY VALUE`, the value in Rust's shortest exact decimal form.
    pub fn tuning(&mut self, key: &str, value: f64) {
        self.line(&format!("tuning {key} {value}"));
    }

    /// `config KEY VALUE`, the value in Rust's shortest exact decimal form (whole numbers
    /// without a fraction).
    pub fn config(&mut self, key: &str, value: f64) {
        self.line(&format!("config {key} {value}"));
    }

    /// `players N` (LAB.md Version 4), written only for a race (N ≥ 2): one player is the
    /// default, and a one-player script stays as it always was.
    pub fn players(&mut self, n: usize) {
        if n > 1 {
            self.line(&format!("players {n}"));
        }
    }

    /// `level-changed TICK` (or `tuning-changed TICK`, `tuning` true): the game reloaded the
    /// level (or `tuning.toml`) it was recording after tick `tick` (docs/levels.md "Hot
    /// reload"). [`super::script::parse`] refuses a script holding either: the replay would run
    /// the whole session on the first level and tuning, and end somewhere else.
    pub fn changed(&mut self, tuning: bool, tick: u64) {
        self.line(&super::changed::line(tuning, tick));
    }

    /// One frame of `ns` nanoseconds (merged with the equal frames before it).
    pub fn frame(&mut self, ns: u64) {
        match &mut self.run {
            Some((d, count)) if *d == ns => *count += 1,
            _ => {
                self.flush();
                self.run = Some((ns, 1));
            }
        }
    }

    /// One timeline line. A [`Step::Frame`] joins the run of equal frames like
    /// [`ScriptWriter::frame`], `count` times.
    pub fn step(&mut self, step: &Step) {
        match *step {
            Step::Frame { count: 0, .. } => {}
            Step::Frame { ns, count } => {
                self.frame(ns);
                if let Some((_, c)) = &mut self.run {
                    *c += count - 1;
                }
            }
            Step::Event { event, at, player } => self.line(&event_line(&event, at, player)),
            Step::Resize(w, h) => self.line(&format!("resize {w} {h}")),
            Step::Teleport(x, y) => self.line(&format!("teleport {x} {y}")),
            Step::TickCost(ns) => self.line(&format!("tick-cost {}", format_ms(ns))),
            Step::Savestate(ref name) => self.line(&format!("savestate {name}")),
            Step::Loadstate(ref name) => self.line(&format!("loadstate {name}")),
        }
    }

    /// The script so far (the pending frame run written out).
    pub fn text(&mut self) -> &str {
        self.flush();
        &self.text
    }

    /// The whole script.
    pub fn finish(mut self) -> String {
        self.flush();
        self.text
    }
}

/// An input edge as a script line: `press jump pad p2 @12.000000`; `+0` and player 1's `p1`
/// are left out.
fn event_line(event: &InputEvent, at: At, player: u8) -> String {
    let src = |s: &Source| if *s == Source::Pad { " pad" } else { "" };
    let mut line = match event {
        InputEvent::Press(s, a) => format!("press {}{}", a.name(), src(s)),
        InputEvent::Release(s, a) => format!("release {}{}", a.name(), src(s)),
        InputEvent::Repeat(s, a) => format!("repeat {}{}", a.name(), src(s)),
        InputEvent::SyntheticPress(s, a) => format!("press {} synthetic{}", a.name(), src(s)),
        InputEvent::FocusLost => "focus lost".to_string(),
        InputEvent::FocusGained => "focus gained".to_string(),
        InputEvent::PadConnected => "pad connect".to_string(),
        InputEvent::PadDisconnected => "pad disconnect".to_string(),
        InputEvent::AxisX(v) => format!("axis X {v:?}"),
    };
    if player > 0 {
        line += &format!(" p{}", player + 1);
    }
    match at {
        At::AfterFrame(0) => {}
        At::AfterFrame(ns) => line += &format!(" +{}", format_ms(ns)),
        At::Absolute(ns) => line += &format!(" @{}", format_ms(ns)),
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Action;
    use crate::lab::script::{LevelSource, parse, parse_ms};

    #[test]
    fn format_ms_is_exact_to_the_nanosecond() {
        assert_eq!(format_ms(16_666_667), "16.666667");
        assert_eq!(format_ms(5), "0.000005");
        for ns in [0, 1u64, 16_666_667, 3_600_000_000_123, 86_400_000_000_001, 1 << 50, u64::MAX] {
            assert_eq!(parse_ms(&format_ms(ns)), Ok(ns));
        }
    }

    #[test]
    fn runs_of_equal_frames_are_merged() {
        let mut w = ScriptWriter::new(Repeat::WhenMany);
        for ns in [5, 5, 5, 7, 5] {
            w.frame(ns);
        }
        w.step(&Step::Frame { ns: 5, count: 4 });
        w.step(&Step::Resize(800, 600));
        assert_eq!(w.finish(), "frame 0.000005 x3\nframe 0.000007\nframe 0.000005 x5\nresize 800 600\n");
        let mut w = ScriptWriter::new(Repeat::Always);
        w.frame(16_666_667);
        assert_eq!(w.finish(), "frame 16.666667 x1\n");
    }

    #[test]
    fn what_is_written_parses_back_to_the_same_script() {
        let kb = Source::Keyboard;
        let steps = vec![
            Step::Event { event: InputEvent::Press(kb, Action::Right), at: At::AfterFrame(0), player: 0 },
            Step::Frame { ns: 16_666_667, count: 3 },
            Step::Event {
                event: InputEvent::SyntheticPress(Source::Pad, Action::Jump),
                at: At::Absolute(1),
                player: 0,
            },
            Step::Event { event: InputEvent::Release(kb, Action::Left), at: At::AfterFrame(7), player: 0 },
            Step::Event {
                event: InputEvent::Repeat(Source::Pad, Action::Down),
                at: At::Absolute(u64::MAX),
                player: 0,
            },
            Step::Event { event: InputEvent::AxisX(-0.7), at: At::AfterFrame(0), player: 0 },
            Step::Event { event: InputEvent::AxisX(0.25), at: At::Absolute(3), player: 3 },
            Step::Event { event: InputEvent::Press(kb, Action::Jump), at: At::AfterFrame(0), player: 1 },
            Step::Event { event: InputEvent::FocusLost, at: At::AfterFrame(0), player: 0 },
            Step::Event { event: InputEvent::FocusGained, at: At::AfterFrame(0), player: 0 },
            Step::Event { event: InputEvent::PadConnected, at: At::AfterFrame(0), player: 0 },
            Step::Event { event: InputEvent::PadDisconnected, at: At::AfterFrame(0), player: 0 },
            Step::Frame { ns: 1, count: 1 },
            Step::Resize(0, 720),
            Step::Teleport(-3.25, 1e6),
            Step::TickCost(2_500_000),
            Step::Frame { ns: 1 << 50, count: 2 },
        ];
        let mut w = ScriptWriter::new(Repeat::WhenMany);
        w.comment("a test");
        let hash = ContentHash([7; 32]);
        w.level("assets/levels/level1.tmx", Some(hash));
        w.tuning("gravity", 2000.5);
        w.config("tick_hz", 144.0);
        w.players(4);
        for s in &steps {
            w.step(s);
        }
        let text = w.finish();
        let back = parse(&text).unwrap();
        assert_eq!(back.level, LevelSource::File("assets/levels/level1.tmx".into(), 2, Some(hash)));
        assert_eq!(back.tuning, vec![("gravity".into(), 2000.5, 3)]);
        assert_eq!(back.config, vec![("tick_hz".into(), 144.0, 4)]);
        let parsed: Vec<Step> = back.steps.into_iter().map(|(s, _)| s).collect();
        assert_eq!(parsed, steps, "{text}");
    }

    #[test]
    fn a_change_is_written_where_it_happened_and_read_back_as_a_refusal() {
        let mut w = ScriptWriter::new(Repeat::WhenMany);
        w.frame(5);
        w.frame(5);
        w.changed(false, 2);
        w.frame(5);
        w.changed(true, 3);
        let text = w.finish();
        assert_eq!(text, "frame 0.000005 x2\nlevel-changed 2\nframe 0.000005\ntuning-changed 3\n");
        assert_eq!(
            parse(&text).unwrap_err().to_string(),
            "line 2: the level changed during this recording at tick 2"
        );
    }
}
