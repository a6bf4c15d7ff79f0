//! Property tests of the lab: (a) any input — random bytes, random lines of plausible
//! directives with edge-case numbers — makes `script::parse` and `run_script` return an error or
//! a report, never panic or hang; (b) random frame patterns on random tick rates and catch-up
//! caps keep the stepper's invariants: alpha in [0, 1), at most `max_steps` ticks a frame, one
//! `ticks` entry per step, wall time = simulated + banked + dropped, and with no clamp and no cap
//! exactly floor(total x rate) ticks; (c) times are read as exact nanoseconds (any u64, written
//! plainly or with an exponent). Plus fixed regressions for inputs that once broke it.

mod common;

use ledge::lab::report::Report;
use ledge::lab::script::{parse, parse_ms};
use ledge::lab::writer::format_ms;
use ledge::lab::{LabError, run_script};
use proptest::prelude::*;
use std::sync::mpsc;
use std::time::Duration;

/// Runs `text` (an error is an answer here, not a failure).
fn lab(text: &str) -> Result<Report, LabError> {
    run_script(text, &common::lab::options("<prop>", &common::root().join("tests/cases"), false))
}

fn config(cases: u32) -> ProptestConfig {
    // No regression files: a failure prints its shrunk script; add it to the fixed list in
    // `regressions_huge_numbers_do_not_panic` below.
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// Numbers a script may hold: ordinary values, and finite extremes the parser accepts.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (0.0..400.0f64).prop_map(|v| format!("{v}")),
        3 => (0u32..100).prop_map(|v| v.to_string()),
        1 => prop::sample::select(vec![
            "0", "-0", "16.6667", "6.9444", "250", "250.000001", "1e3", "0.000001", "1e9", "1e13", "1e15", "1e300",
        ])
        .prop_map(str::to_string),
    ]
}

/// A signed coordinate, pixels: mostly inside a level, sometimes very far out.
fn coordinate() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (-200.0..2000.0f64).prop_map(|v| format!("{v}")),
        1 => prop::sample::select(vec!["0", "-1e6", "1e6", "-1e20", "1e20", "-1e300", "1e300"]).prop_map(str::to_string),
    ]
}

/// Tuning values: without the huge magnitudes (those make the simulation scan billions of
/// tile rows: see `huge_speeds_do_not_hang`).
fn tuning_value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0.0..5000.0f64).prop_map(|v| format!("{v}")),
        1 => prop::sample::select(vec!["0", "0.5", "1", "8", "100000"]).prop_map(str::to_string),
    ]
}

fn action() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["left", "right", "up", "down", "jump"])
}

/// A setup line (before the first frame): tuning or config.
fn setup() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => (
            prop::sample::select(vec![
                "gravity", "jump_speed", "max_fall_speed", "run_speed", "run_accel", "air_mult", "var_jump_time",
                "apex_gravity_mult", "coyote_time", "jump_buffer_time",
            ]),
            tuning_value(),
        )
            .prop_map(|(k, v)| format!("tuning {k} {v}")),
        2 => prop::sample::select(vec![
            "config tick_hz 60", "config tick_hz 1", "config tick_hz 7", "config tick_hz 144", "config tick_hz 1000",
            "config max_steps 1", "config max_steps 3", "config max_steps 16", "config max_steps 64",
            "config max_frame_ms 0.001", "config max_frame_ms 5", "config max_frame_ms 1000", "config max_frame_ms 1e6",
        ])
        .prop_map(str::to_string),
        1 => prop::sample::select(vec!["tuning corner_correction 0", "tuning corner_correction 8"]).prop_map(str::to_string),
    ]
}

/// The level: the game's first (none written), a file, or an inline map.
fn level() -> impl Strategy<Value = Vec<String>> {
    prop::option::of(
        prop::sample::select(vec![
            "map\n...P...\n#######\nend",
            "map\n.P\n#^\nend",
            "map\n..........\n.C..P...G.\n##-####^##\nend",
            "map\n........\n........\nend",
            "map\nP\nend",
            "map\n...\n.P.\n...\nend",
            "map\n^^^\n^P^\n^^^\nend",
            "level ../../assets/levels/level1.tmx",
        ])
        .prop_map(str::to_string),
    )
    .prop_map(|l| l.into_iter().collect())
}

/// One timeline item; event times are filled in by [`write_timeline`], which knows the clock.
#[derive(Clone, Debug)]
enum Item {
    /// `frame MS [xN]`.
    Frame(String, Option<u32>),
    /// An input edge without its timing, a timing kind (0 none, 1 `+MS`, 2 `@MS`), and where in
    /// its window it falls (0..1).
    Event(String, u8, f64),
    /// Any other line, as is.
    Line(String),
}

/// A timeline item. Frame repeats are capped at 20 so a run stays short.
fn timeline() -> impl Strategy<Value = Item> {
    let edge = prop_oneof![
        5 => (prop::sample::select(vec!["press", "release", "repeat"]), action()).prop_map(|(d, a)| format!("{d} {a}")),
        1 => action().prop_map(|a| format!("press {a} synthetic")),
        1 => prop::sample::select(vec!["focus lost", "focus gained", "pad connect", "pad disconnect"]).prop_map(str::to_string),
        1 => prop::sample::select(vec!["-1", "-0.1", "0", "0.2", "1"]).prop_map(|v| format!("axis X {v}")),
    ];
    prop_oneof![
        6 => (number(), prop::option::of(1u32..=20)).prop_map(|(ms, n)| Item::Frame(ms, n)),
        6 => (edge, 0u8..3, 0.0..=1.0f64).prop_map(|(e, k, f)| Item::Event(e, k, f)),
        1 => (0u32..3000, 0u32..3000).prop_map(|(w, h)| Item::Line(format!("resize {w} {h}"))),
        1 => (coordinate(), coordinate()).prop_map(|(x, y)| Item::Line(format!("teleport {x} {y}"))),
        1 => number().prop_map(|ms| Item::Line(format!("tick-cost {ms}"))),
    ]
}

/// The lab's own conversion of a written `MS` to nanoseconds (saturating).
fn ns_of(ms: &str) -> u64 {
    ms.parse::<f64>().map_or(0, |v| (v * 1e6).round() as u64)
}

/// Write the timeline: each `+MS` falls inside the next frame, each `@MS` at or after the
/// clock (within the next 500 ms), so most scripts run to the end.
fn write_timeline(items: &[Item]) -> Vec<String> {
    let mut clock = 0u64;
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item {
            Item::Frame(ms, n) => {
                clock = clock.saturating_add(ns_of(ms).saturating_mul(u64::from(n.unwrap_or(1))));
                out.push(match n {
                    Some(n) => format!("frame {ms} x{n}"),
                    None => format!("frame {ms}"),
                });
            }
            Item::Event(e, kind, frac) => {
                let next_frame = items[i..].iter().find_map(|it| match it {
                    Item::Frame(ms, _) => Some(ns_of(ms)),
                    _ => None,
                });
                let when = match kind {
                    0 => String::new(),
                    1 => format!(" +{}", format_ms((next_frame.unwrap_or(0) as f64 * frac) as u64)),
                    _ => format!(" @{}", format_ms(clock.saturating_add((500e6 * frac) as u64))),
                };
                out.push(format!("{e}{when}"));
            }
            Item::Line(l) => out.push(l.clone()),
        }
    }
    out
}

/// A line that is wrong or odd in one way: the parser must reject it (or skip it) cleanly.
fn noise() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "",
        "# comment",
        "   ",
        "end",
        "frame",
        "frame 10 y3",
        "frame 10 x0",
        "frame -1",
        "frame nan",
        "frame inf",
        "frame 1,5",
        "press",
        "press fly",
        "press jump soon",
        "release jump synthetic",
        "focus",
        "axis X 2",
        "axis Y 0",
        "axis X nan",
        "resize 1.5 2",
        "resize 70000 1",
        "teleport 1",
        "teleport nan 0",
        "tick-cost -1",
        "tuning gravity -5",
        "tuning gravity nan",
        "tuning bogus 1",
        "tuning corner_correction 9",
        "config tick_hz 0",
        "config tick_hz 1001",
        "config tick_hz 64.5",
        "config max_steps 0",
        "config max_frame_ms 0",
        "config max_frame_ms -5",
        "config bogus 1",
        "level",
        "level missing.tmx",
        "map\n..P..\n#####",
        "map\n....\nend",
        "map\nPP\n##\nend",
        "\t frame 3 # c",
        "frame 3 # comment",
        "bogus directive",
        "press jump @0",
        "press jump +100",
        "release left +1e300",
        "press jump @1e300",
    ])
    .prop_map(str::to_string)
}

/// A script: a level, setup lines, then timeline lines; now and then a line is replaced by
/// noise.
fn script() -> impl Strategy<Value = String> {
    (
        level(),
        prop::collection::vec(prop_oneof![59 => setup(), 1 => noise()], 0..5),
        prop::collection::vec(prop_oneof![59 => timeline(), 1 => noise().prop_map(Item::Line)], 0..30),
    )
        .prop_map(|(level, setup, items)| [level, setup, write_timeline(&items)].concat().join("\n"))
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse(&text);
        let _ = lab(&text);
    }

    #[test]
    fn random_lines_of_noise_never_panic(lines in prop::collection::vec(
        prop_oneof![
            setup(),
            level().prop_map(|l| l.concat()),
            timeline().prop_map(|i| write_timeline(&[i]).concat()),
            noise(),
        ],
        0..30,
    )) {
        let text = lines.join("\n");
        let _ = parse(&text);
        let _ = lab(&text);
    }

    #[test]
    fn random_scripts_run_or_fail_cleanly(text in script()) {
        let parsed = parse(&text);
        match lab(&text) {
            Ok(r) => {
                prop_assert!(parsed.is_ok(), "ran a script the parser rejects:\n{}", text);
                let frames = r.frames.as_deref().unwrap_or_default();
                prop_assert_eq!(frames.len() as u64, r.summary.totals.frames);
                prop_assert_eq!(r.ticks.as_deref().unwrap_or_default().len() as u64, r.summary.totals.ticks);
                prop_assert!(frames.iter().all(|f| (0.0..1.0).contains(&f.stats.alpha)), "alpha out of [0, 1):\n{}", text);
                prop_assert_eq!(r.summary.state_hash.len(), 16);
            }
            Err(e) => {
                // One line naming the script; a parse error is reported on the parser's line.
                let msg = e.to_string();
                prop_assert!(!msg.contains('\n') && msg.starts_with("<prop>:"), "bad message {:?}", msg);
                if let Err(pe) = parsed {
                    prop_assert_eq!(e.line, pe.line);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(config(2048))]

    /// Any u64 of nanoseconds, written by the lab's writer, reads back to the same integer.
    #[test]
    fn times_read_back_to_the_same_nanosecond(ns in any::<u64>()) {
        prop_assert_eq!(parse_ms(&format_ms(ns)), Ok(ns));
    }

    /// A decimal with up to 6 places, written plainly or with an exponent, is exact: no float
    /// rounding, at any magnitude a u64 of nanoseconds holds.
    #[test]
    fn decimal_times_are_exact(units in 0u64..=u64::MAX / 1_000_000, places in 0u32..=6) {
        let scale = 10u64.pow(places);
        let (int, frac) = (units / scale, units % scale);
        let plain = if places == 0 { int.to_string() } else { format!("{int}.{frac:0w$}", w = places as usize) };
        let ns = units * 10u64.pow(6 - places);
        prop_assert_eq!(parse_ms(&plain), Ok(ns), "{}", plain);
        prop_assert_eq!(parse_ms(&format!("{units}e-{places}")), Ok(ns));
    }
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn frame_patterns_keep_the_stepper_invariants(
        frames_ns in prop::collection::vec(
            prop_oneof![3 => 0u64..40_000_000, 1 => 0u64..400_000_000],
            1..150,
        ),
        tick_hz in prop_oneof![1u32..=1000, prop::sample::select(vec![30u32, 60, 64, 100, 144, 240])],
        max_steps in 1u32..=16,
    ) {
        let mut text = format!(
            "config tick_hz {tick_hz}\nconfig max_steps {max_steps}\nmap\n......\n..P...\n######\nend\n\
             press right @0\npress jump @50\nrelease jump @200\n"
        );
        for &d in &frames_ns {
            text += &format!("frame {}\n", format_ms(d));
        }
        let r = lab(&text).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let frames = r.frames.as_deref().unwrap();
        let ticks = r.ticks.as_deref().unwrap();
        let s = &r.summary;
        let hz = u64::from(tick_hz);
        let mut steps_total = 0u64;
        for (f, &d) in frames.iter().zip(&frames_ns) {
            prop_assert!((0.0..1.0).contains(&f.stats.alpha), "frame {}: alpha {}", f.frame, f.stats.alpha);
            prop_assert!(f.stats.steps <= max_steps, "frame {}: {} steps > {}", f.frame, f.stats.steps, max_steps);
            prop_assert_eq!(f.stats.frame_ms(), d as f64 / 1e6);
            prop_assert_eq!(f.stats.clamped, d > 250_000_000);
            prop_assert!(!f.stats.capped || f.stats.steps == max_steps, "frame {}: capped below the cap", f.frame);
            prop_assert!(f.stats.dropped_ms >= 0.0);
            prop_assert!((f.stats.accumulator_ms - f.stats.alpha * 1000.0 / hz as f64).abs() < 1e-9);
            steps_total += u64::from(f.stats.steps);
            prop_assert_eq!(f.stats.tick, steps_total, "frame {}: tick is the last tick run", f.frame);
        }
        prop_assert_eq!(frames.len(), frames_ns.len());
        prop_assert_eq!(s.totals.ticks, steps_total);
        prop_assert_eq!(ticks.len() as u64, steps_total);
        prop_assert!(ticks.iter().enumerate().all(|(i, t)| t.tick == i as u64 + 1), "ticks numbered 1..");
        prop_assert_eq!(s.totals.max_steps_in_frame, frames.iter().map(|f| f.stats.steps).max().unwrap());
        prop_assert_eq!(s.totals.clamp_events, frames.iter().filter(|f| f.stats.clamped).count() as u64);
        prop_assert_eq!(s.totals.cap_hits, frames.iter().filter(|f| f.stats.capped).count() as u64);

        // Conservation: every wall millisecond is simulated, banked or dropped.
        let total_ns: u64 = frames_ns.iter().sum();
        let last_acc = frames.last().unwrap().stats.accumulator_ms;
        let wall = total_ns as f64 / 1e6;
        prop_assert!((s.totals.wall_ms() - wall).abs() <= 1e-9 * wall.max(1.0), "wall_ms {} vs {}", s.totals.wall_ms(), wall);
        prop_assert!(
            (s.totals.sim_ms + last_acc + s.totals.dropped_ms - s.totals.wall_ms()).abs() <= 1e-6 * wall.max(1.0),
            "sim {} + banked {} + dropped {} != wall {}", s.totals.sim_ms, last_acc, s.totals.dropped_ms, s.totals.wall_ms()
        );
        if s.totals.clamp_events == 0 && s.totals.cap_hits == 0 {
            prop_assert_eq!(s.totals.dropped_ms, 0.0);
            prop_assert_eq!(s.totals.ticks, u64::try_from(u128::from(total_ns) * u128::from(hz) / 1_000_000_000).unwrap());
        } else {
            prop_assert!(s.totals.dropped_ms > 0.0 || s.totals.cap_hits == 0, "a cap drops whole ticks");
        }
    }
}

/// Run `text` in its own thread; its result, or `None` when it panicked or ran past `limit`.
fn run_guarded(text: &str, limit: Duration) -> Option<Result<Report, LabError>> {
    let (tx, rx) = mpsc::channel();
    let owned = text.to_string();
    std::thread::spawn(move || {
        let _ = tx.send(lab(&owned));
    });
    rx.recv_timeout(limit).ok()
}

/// Scripts that once panicked (integer overflow on huge but finite numbers). Each must give a
/// report or a one-line error.
#[test]
fn regressions_huge_numbers_do_not_panic() {
    let scripts = [
        // i64 overflow from a position far left / far up (sim::player touches_hazard, collision move_y)
        "frame 16.6667\nteleport -1e300 0\nframe 16.6667\n",
        "frame 16.6667\nteleport 0 -1e300\nframe 16.6667\n",
        "frame 16.6667\nteleport 1e300 -1e300\nframe 16.6667\n",
        // u64 overflow of the scripted clock and the stepper's counters
        "frame 1e300\n",
        "frame 1e13\nframe 1e13\n",
        "frame 10\npress jump @1e300\nframe 1e300\n",
        "frame 10\npress jump +1e300\nframe 10\n",
        "tick-cost 1e300\nframe 40\nframe 40\n",
        // the longest frame a script can write (u64::MAX ns): the cap's dropped time saturates
        "frame 18446744073709.551615\n",
        "config max_steps 1\nframe 1048576000\nframe 18446744072661.551615\n",
        // max_frame_ns x tick_hz overflows the accumulator
        "config max_frame_ms 1e12\nframe 1e12\n",
    ];
    let mut broken = Vec::new();
    for s in scripts {
        match run_guarded(s, Duration::from_secs(30)) {
            Some(Ok(_)) => {}
            Some(Err(e)) => assert!(!e.to_string().contains('\n'), "{s:?}: {e}"),
            None => broken.push(s),
        }
    }
    assert!(broken.is_empty(), "these scripts panicked or hung: {broken:#?}");
}

/// Huge (finite, accepted) speeds make a tick scan every tile row the move crosses: a player
/// in the air with gravity and max_fall_speed 1e300 never finishes its first tick.
#[test]
fn huge_speeds_do_not_hang() {
    let s = "tuning gravity 1e300\ntuning max_fall_speed 1e300\nmap\n...\n.P.\n...\nend\nframe 16.6667 x3\n";
    match run_guarded(s, Duration::from_secs(10)) {
        Some(Ok(_)) => {}
        Some(Err(e)) => assert!(!e.to_string().contains('\n'), "{e}"),
        None => {
            panic!("panicked or still running after 10 s (the first tick scans ~1e298 rows): {s:?}")
        }
    }
}
