//! Structure-aware lab scripts (the `lab_gen` target): `arbitrary` builds a script out of the
//! directives of LAB.md — a level, tuning and config overrides, entities, a ghost, then a
//! timeline of frames, edges, resizes, teleports and tick costs — with values drawn from the
//! ones that matter (frame lengths of the common refresh rates, every key, the edges of every
//! range) as well as any. The text goes through the same replay as the `lab` target, so what
//! this finds is saved as a plain script (`LEDGE_FUZZ_DUMP`, see `fuzz_targets/lab_gen.rs`).
//!
//! Clock: none (it writes text; the lab's scripted clock runs it).

use arbitrary::Arbitrary;
use ledge::sim::Tuning;
use std::fmt::Write;

/// Milliseconds worth writing: the frame lengths of 60, 144, 30, 240 and 1000 Hz, the lab's
/// round numbers, zero, the default clamp and over it.
const COMMON_MS: [&str; 12] =
    ["16.666667", "16.6667", "6.944444", "33.333333", "4.166667", "1", "10", "7", "0", "250", "251", "5000"];

/// Numbers worth writing for a key: zero, one, the edges of the tuning range (`MAX_VALUE` 1e7,
/// a tile's half 8), halves, negatives, a tick's worth and the config keys' edges.
const COMMON_NUM: [&str; 16] = [
    "0",
    "1",
    "-1",
    "0.5",
    "2",
    "8",
    "8.0001",
    "1e7",
    "1.0000001e7",
    "1e-9",
    "60",
    "1000",
    "1001",
    "0.49",
    "3600000",
    "-0",
];

/// Every `config` key.
const CONFIG_KEYS: [&str; 9] = [
    "tick_hz",
    "max_frame_ms",
    "max_steps",
    "reduced_motion",
    "pause_on_focus_loss",
    "game_speed",
    "effects",
    "shake",
    "flashes",
];

/// Every entity kind and key (LAB.md "Entities").
const ENTITY_KINDS: [&str; 5] = ["platform", "crumble", "spring", "saw", "walker"];
const ENTITY_KEYS: [&str; 11] = ["x", "y", "w", "h", "to", "speed", "wait", "oneway", "delay", "back", "r"];

/// Every action.
const ACTIONS: [&str; 6] = ["left", "right", "up", "down", "jump", "rewind"];

/// Ghost files in the repository (a ghost line reads one of them).
const GHOSTS: [&str; 3] =
    ["tests/cases/ghost/ghost-run.lab", "tests/cases/time/speed-ref.lab", "tests/levels/level1.lab"];

/// Level files in the repository: the shipped ones and a few fixtures (bad ones included).
const LEVEL_FILES: [&str; 6] = [
    "tests/fixtures/levels/entities.tmx",
    "tests/fixtures/levels/good.tmx",
    "tests/fixtures/levels/short_data.tmx",
    "tests/fixtures/levels/riding.tmx",
    "tests/fixtures/levels/feel.tmx",
    "tests/fixtures/levels/spawn_in_crumble.tmx",
];

/// A time in milliseconds.
#[derive(Arbitrary, Debug)]
pub enum Ms {
    /// One of [`COMMON_MS`].
    Common(u8),
    /// Whole microseconds, written as milliseconds with three decimals.
    Micros(u32),
}

/// A number for a key.
#[derive(Arbitrary, Debug)]
pub enum Num {
    /// One of [`COMMON_NUM`].
    Common(u8),
    /// A small whole number.
    Small(i16),
    /// Any finite `f64` (Rust's shortest exact decimal); a NaN or infinity is written as `0`.
    Any(f64),
}

/// When an edge arrives.
#[derive(Arbitrary, Debug)]
pub enum Timing {
    /// No token: `+0`.
    Now,
    /// `+MS`.
    After(Ms),
    /// `@MS`.
    At(Ms),
}

/// Where the level comes from.
#[derive(Arbitrary, Debug)]
pub enum Level {
    /// No `level` line: the game's first level.
    Default,
    /// `level assets/levels/levelN.tmx`, N in 1..=12.
    Shipped(u8),
    /// `level` one of [`LEVEL_FILES`].
    Fixture(u8),
    /// A `map` block, each row a string of cells (`#-^PCG.`, anything else a `.`).
    Inline(Vec<Vec<u8>>),
}

/// A setup directive.
#[derive(Arbitrary, Debug)]
pub enum Setup {
    /// `tuning KEY VALUE` (a key of `Tuning::KEYS`, or a misspelt one).
    Tuning(u8, Num),
    /// `config KEY VALUE`.
    Config(u8, Num),
    /// `entity KIND KEY=VALUE ...` (`to` takes two numbers).
    Entity(u8, Vec<(u8, Num, Num)>),
    /// `ghost PATH`, one of [`GHOSTS`].
    Ghost(u8),
}

/// A timeline directive.
#[derive(Arbitrary, Debug)]
pub enum Line {
    /// `frame MS xN` (N = count + 1).
    Frame(Ms, u8),
    /// `press ACTION [synthetic] [pad] [TIME]`.
    Press(u8, bool, bool, Timing),
    /// `release ACTION [pad] [TIME]`.
    Release(u8, bool, Timing),
    /// `repeat ACTION [pad] [TIME]`.
    Repeat(u8, bool, Timing),
    /// `focus lost|gained [TIME]`.
    Focus(bool, Timing),
    /// `pad connect|disconnect [TIME]`.
    Pad(bool, Timing),
    /// `axis X V [TIME]`, V = n / 127 clamped to [-1, 1].
    Axis(i8, Timing),
    /// `resize W H`.
    Resize(u16, u16),
    /// `teleport X Y`, pixels.
    Teleport(i32, i32),
    /// `tick-cost MS`.
    TickCost(Ms),
}

/// A whole script.
#[derive(Arbitrary, Debug)]
pub struct Script {
    /// The level.
    pub level: Level,
    /// The setup lines after it.
    pub setup: Vec<Setup>,
    /// The timeline.
    pub timeline: Vec<Line>,
}

fn pick<'a>(list: &[&'a str], i: u8) -> &'a str {
    list[i as usize % list.len()]
}

impl Ms {
    fn text(&self) -> String {
        match self {
            Ms::Common(i) => pick(&COMMON_MS, *i).to_owned(),
            Ms::Micros(us) => format!("{}.{:03}", us / 1000, us % 1000),
        }
    }
}

impl Num {
    fn text(&self) -> String {
        match self {
            Num::Common(i) => pick(&COMMON_NUM, *i).to_owned(),
            Num::Small(n) => n.to_string(),
            Num::Any(v) if v.is_finite() => v.to_string(),
            Num::Any(_) => "0".to_owned(),
        }
    }
}

impl Timing {
    fn text(&self) -> String {
        match self {
            Timing::Now => String::new(),
            Timing::After(ms) => format!(" +{}", ms.text()),
            Timing::At(ms) => format!(" @{}", ms.text()),
        }
    }
}

impl Script {
    /// The script as lab-script text.
    pub fn render(&self) -> String {
        let mut s = String::new();
        match &self.level {
            Level::Default => {}
            Level::Shipped(n) => {
                let _ = writeln!(s, "level assets/levels/level{}.tmx", n % 12 + 1);
            }
            Level::Fixture(i) => {
                let _ = writeln!(s, "level {}", pick(&LEVEL_FILES, *i));
            }
            Level::Inline(rows) => {
                s.push_str("map\n");
                for row in rows {
                    let cells = row.iter().map(|b| match b % 8 {
                        0 => '#',
                        1 => '-',
                        2 => '^',
                        3 => 'P',
                        4 => 'C',
                        5 => 'G',
                        _ => '.',
                    });
                    s.extend(cells);
                    s.push('\n');
                }
                s.push_str("end\n");
            }
        }
        for line in &self.setup {
            match line {
                Setup::Tuning(k, v) => {
                    let key = Tuning::KEYS.get(*k as usize).copied().unwrap_or("gravty");
                    let _ = writeln!(s, "tuning {key} {}", v.text());
                }
                Setup::Config(k, v) => {
                    let _ = writeln!(s, "config {} {}", pick(&CONFIG_KEYS, *k), v.text());
                }
                Setup::Entity(kind, pairs) => {
                    let _ = write!(s, "entity {}", pick(&ENTITY_KINDS, *kind));
                    for (k, a, b) in pairs {
                        match pick(&ENTITY_KEYS, *k) {
                            "to" => {
                                let _ = write!(s, " to={},{}", a.text(), b.text());
                            }
                            key => {
                                let _ = write!(s, " {key}={}", a.text());
                            }
                        }
                    }
                    s.push('\n');
                }
                Setup::Ghost(i) => {
                    let _ = writeln!(s, "ghost {}", pick(&GHOSTS, *i));
                }
            }
        }
        for line in &self.timeline {
            let pad = |p: &bool| if *p { " pad" } else { "" };
            let _ = match line {
                Line::Frame(ms, n) => writeln!(s, "frame {} x{}", ms.text(), *n as u32 + 1),
                Line::Press(a, synthetic, p, t) => {
                    let syn = if *synthetic { " synthetic" } else { "" };
                    writeln!(s, "press {}{syn}{}{}", pick(&ACTIONS, *a), pad(p), t.text())
                }
                Line::Release(a, p, t) => writeln!(s, "release {}{}{}", pick(&ACTIONS, *a), pad(p), t.text()),
                Line::Repeat(a, p, t) => writeln!(s, "repeat {}{}{}", pick(&ACTIONS, *a), pad(p), t.text()),
                Line::Focus(lost, t) => {
                    writeln!(s, "focus {}{}", if *lost { "lost" } else { "gained" }, t.text())
                }
                Line::Pad(on, t) => {
                    writeln!(s, "pad {}{}", if *on { "connect" } else { "disconnect" }, t.text())
                }
                Line::Axis(v, t) => {
                    writeln!(s, "axis X {}{}", (*v as f64 / 127.0).clamp(-1.0, 1.0), t.text())
                }
                Line::Resize(w, h) => writeln!(s, "resize {w} {h}"),
                Line::Teleport(x, y) => writeln!(s, "teleport {x} {y}"),
                Line::TickCost(ms) => writeln!(s, "tick-cost {}", ms.text()),
            };
        }
        s
    }
}
