//! The `ledge lab` command-line contract (LAB.md "Running", "Report") through the built binary:
//! the JSON report carries every documented field, `--summary` and `-` (standard input) work,
//! malformed scripts and bad flags exit 2 with a short message naming the script and line and
//! never panic or leave a report behind. Also the determinism promise beyond the shipped cases
//! (the same timestamped events over the same total time, cut into random frame patterns, give
//! the same ticks and `state_hash`) and tick-rate soaks over simulated hours and a day.

mod common;

use common::scratch::Scratch;
use common::{ledge, root};
use ledge::lab::report::{FrameReport, Report};
use ledge::lab::writer::format_ms;
use ledge::sim::rng::SplitMix64;
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

/// Run `ledge` with `args`, feeding `stdin` when given.
fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = ledge();
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    let mut child = cmd.spawn().expect("spawn ledge");
    if let Some(text) = stdin {
        child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write stdin");
    }
    child.wait_with_output().expect("ledge ran")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A small script with frames, ticks, a jump and a teleport, on an inline level.
const SMALL: &str = "\
# a small run
map
....................
....................
....................
..P.................
####################
end
resize 800 600
press right @0
frame 16.6667 x10
press jump
frame 16.6667 x20
teleport 100 0
frame 6.9444 x10
";

/// The fields LAB.md lists for each part of the report.
const CONFIG_FIELDS: &[&str] = &["tick_hz", "max_frame_ms", "max_steps"];
const FRAME_FIELDS: &[&str] = &[
    "frame",
    "dt_ms",
    "clamped",
    "steps",
    "capped",
    "dropped_ms",
    "accumulator_ms",
    "alpha",
    "tick",
    "player",
    "drawn",
    "camera",
    "events_consumed",
];
const PLAYER_FIELDS: &[&str] = &["x", "y", "vx", "vy", "on_ground"];
const POINT_FIELDS: &[&str] = &["x", "y"];
const TICK_FIELDS: &[&str] = &["tick", "x", "y", "vx", "vy", "on_ground", "jump_started", "respawned"];
const SUMMARY_FIELDS: &[&str] = &[
    "frames",
    "ticks",
    "sim_ms",
    "wall_ms",
    "dropped_ms",
    "max_steps_in_frame",
    "clamp_events",
    "cap_hits",
    "jumps",
    "respawns",
    "surface_configures",
    "state_hash",
];
const BOOL_FIELDS: &[&str] = &["clamped", "capped", "on_ground", "jump_started", "respawned"];

/// Assert that `obj` (found at `path` in the report) is an object with every field in
/// `fields`, each a bool when its name is a bool field, a nested object for the nested parts,
/// `state_hash` a string, and a number otherwise.
fn assert_fields(obj: &Value, path: &str, fields: &[&str]) {
    let map = obj.as_object().unwrap_or_else(|| panic!("{path} is not an object: {obj}"));
    for f in fields {
        let v = map.get(*f).unwrap_or_else(|| panic!("{path}.{f} missing in {obj}"));
        let ok = match *f {
            "player" | "drawn" | "camera" => v.is_object(),
            "state_hash" => v.is_string(),
            f if BOOL_FIELDS.contains(&f) => v.is_boolean(),
            _ => v.is_number(),
        };
        assert!(ok, "{path}.{f} has the wrong type: {v}");
    }
}

/// Check the whole documented shape of a full (not `--summary`) report.
fn assert_full_report(r: &Value) {
    assert_fields(&r["config"], "config", CONFIG_FIELDS);
    assert_fields(&r["summary"], "summary", SUMMARY_FIELDS);
    let frames = r["frames"].as_array().expect("frames is an array");
    let ticks = r["ticks"].as_array().expect("ticks is an array");
    assert!(!frames.is_empty() && !ticks.is_empty(), "the run has frames and ticks");
    assert_fields(&frames[0], "frames[0]", FRAME_FIELDS);
    assert_fields(&frames[0]["player"], "frames[0].player", PLAYER_FIELDS);
    assert_fields(&frames[0]["drawn"], "frames[0].drawn", POINT_FIELDS);
    assert_fields(&frames[0]["camera"], "frames[0].camera", POINT_FIELDS);
    assert_fields(&ticks[0], "ticks[0]", TICK_FIELDS);
    assert_eq!(frames.len() as u64, r["summary"]["frames"].as_u64().unwrap(), "one entry a frame");
    assert_eq!(ticks.len() as u64, r["summary"]["ticks"].as_u64().unwrap(), "one entry a tick");
    assert_eq!(ticks[0]["tick"], 1, "ticks are numbered from 1");
    assert_eq!(frames[0]["frame"], 0, "frames are numbered from 0");
    assert_hash(&r["summary"]["state_hash"]);
}

fn assert_hash(h: &Value) {
    let h = h.as_str().expect("state_hash is a string");
    assert!(
        h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()),
        "state_hash {h:?} is not 16 hex digits"
    );
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

#[test]
fn json_out_has_every_documented_field() {
    let dir = Scratch::new("lab_cli-json");
    let script = dir.path("small.lab");
    std::fs::write(&script, SMALL).unwrap();
    let out = dir.path("report.json");
    let o = run(&["lab", script.to_str().unwrap(), "--json", out.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert!(o.stdout.is_empty(), "with --json OUT nothing goes to standard output");
    let r = read_json(&out);
    assert_full_report(&r);
    assert_eq!(r["config"]["tick_hz"], 60);
    assert_eq!(r["summary"]["surface_configures"], 1, "one resize to a new non-zero size");
    assert_eq!(r["summary"]["jumps"], 1);
    assert_eq!(r["summary"]["respawns"], 1, "the teleport counts as a respawn");
    let ticks = r["ticks"].as_array().unwrap();
    assert_eq!(ticks.iter().filter(|t| t["respawned"] == true).count(), 1);
    assert!(!dir.path("report.json.partial").exists(), "no partial file left behind");
}

#[test]
fn without_json_the_report_goes_to_standard_output() {
    // Two shared cases (one with resizes, one with a jump) run by path from the project root.
    for case in ["tests/cases/bug14-zero-size-resize.lab", "tests/cases/seed001-pattern-smooth.lab"] {
        let o = run(&["lab", case], None);
        assert_eq!(o.status.code(), Some(0), "{case}: {}", stderr(&o));
        let r: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{case}: not JSON: {e}"));
        assert_full_report(&r);
    }
}

#[test]
fn summary_flag_leaves_out_frames_and_ticks() {
    let dir = Scratch::new("lab_cli-summary");
    let script = dir.path("small.lab");
    std::fs::write(&script, SMALL).unwrap();
    let (full_out, sum_out) = (dir.path("full.json"), dir.path("summary.json"));
    let o = run(&["lab", script.to_str().unwrap(), "--json", full_out.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["lab", script.to_str().unwrap(), "--json", sum_out.to_str().unwrap(), "--summary"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (full, sum) = (read_json(&full_out), read_json(&sum_out));
    let keys: Vec<&String> = sum.as_object().unwrap().keys().collect();
    assert!(sum.get("frames").is_none() && sum.get("ticks").is_none(), "--summary report has {keys:?}");
    assert_fields(&sum["config"], "config", CONFIG_FIELDS);
    assert_fields(&sum["summary"], "summary", SUMMARY_FIELDS);
    assert_eq!(sum["summary"], full["summary"], "--summary changes nothing but what is written");
    assert_eq!(sum["config"], full["config"]);
}

#[test]
fn script_from_standard_input() {
    let dir = Scratch::new("lab_cli-stdin");
    let script = dir.path("small.lab");
    std::fs::write(&script, SMALL).unwrap();
    let from_file = run(&["lab", script.to_str().unwrap()], None);
    let from_stdin = run(&["lab", "-"], Some(SMALL));
    assert_eq!(from_stdin.status.code(), Some(0), "{}", stderr(&from_stdin));
    let (a, b): (Value, Value) = (
        serde_json::from_slice(&from_file.stdout).unwrap(),
        serde_json::from_slice(&from_stdin.stdout).unwrap(),
    );
    assert_full_report(&b);
    assert_eq!(a, b, "the same script read from a file or from standard input gives the same report");
}

/// Malformed scripts: (what, script text, the 1-based line the message must name).
const MALFORMED: &[(&str, &str, usize)] = &[
    ("unknown directive", "# header\nframe 10\n\njump-high 3\nframe 10\n", 4),
    ("bad number", "# header\n\nframe 16.6.7\n", 3),
    ("bad repeat count", "frame 16 x0\n", 1),
    ("event offset past its frame", "# header\nframe 16\npress jump +50\nframe 16\n", 3),
    ("@MS in the past", "frame 20\nframe 20\npress jump @10\nframe 20\n", 3),
    ("missing level file", "# header\nlevel no/such/level.tmx\nframe 10\n", 2),
    ("bad tuning key", "# header\ntuning gravvity 2000\nframe 10\n", 2),
    ("bad tuning value", "tuning gravity -5\nframe 10\n", 1),
    ("bad config key", "config tick_rate 60\nframe 10\n", 1),
    ("bad config value", "# header\n\nconfig tick_hz 0\nframe 10\n", 3),
    ("fractional config value", "config max_steps 2.5\nframe 10\n", 1),
    ("setup after the first frame", "frame 10\ntuning gravity 100\n", 2),
    ("unterminated map", "map\n..P..\n#####\n", 1),
    ("bad action", "press fly\nframe 10\n", 1),
    ("time that is no decimal number", "frame 10\n\nframe 16.6.7\n", 3),
    ("time past 2^64 ns", "frame 10\npress jump @18446744073709.551616\n", 2),
    ("tick-cost past 2^64 ns", "tick-cost 1e20\nframe 10\n", 1),
];

/// The message must name the script and the line: `PATH:LINE:` (or `line LINE`).
fn names_line(msg: &str, script: &str, line: usize) -> bool {
    msg.contains(script)
        && (msg.contains(&format!("{script}:{line}:")) || msg.contains(&format!("line {line}")))
}

#[test]
fn malformed_scripts_exit_2_with_one_line_and_no_report() {
    let dir = Scratch::new("lab_cli-malformed");
    for (i, (what, text, line)) in MALFORMED.iter().enumerate() {
        let script = dir.path(&format!("bad{i}.lab"));
        std::fs::write(&script, text).unwrap();
        let out = dir.path(&format!("bad{i}.json"));
        let path = script.to_str().unwrap();
        let o = run(&["lab", path, "--json", out.to_str().unwrap()], None);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{what}: exit status; stderr: {err}");
        assert!(!err.contains("panicked"), "{what}: panicked: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{what}: not one line: {err:?}");
        assert!(names_line(&err, path, *line), "{what}: {err:?} does not name {path} line {line}");
        assert!(!out.exists(), "{what}: a report was written for a malformed script");
        assert!(!out.with_extension("json.partial").exists(), "{what}: a partial report was left behind");
        assert!(o.stdout.is_empty(), "{what}: something went to standard output");
    }
}

#[test]
fn malformed_script_on_standard_input_names_stdin_and_line() {
    let o = run(&["lab", "-", "--summary"], Some("frame 10\nframe 10\nbogus\n"));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err:?}");
    assert!(names_line(&err, "<stdin>", 3), "{err:?}");
    assert!(o.stdout.is_empty());
}

#[test]
fn missing_script_file_exits_2_naming_it() {
    let o = run(&["lab", "tests/cases/no-such-case.lab"], None);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err:?}");
    assert!(err.contains("no-such-case.lab"), "{err:?}");
}

#[test]
fn bad_flags_exit_2_without_a_panic() {
    for args in [
        &["--bogus"][..],
        &["--vsync", "maybe"],
        &["lab"],
        &["lab", "tests/cases/bug02-press-release-same-batch.lab", "--json"],
        &["lab", "tests/cases/bug02-press-release-same-batch.lab", "--frobnicate"],
    ] {
        let o = run(args, None);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let lines = err.trim_end().lines().count();
        assert!((1..=2).contains(&lines), "{args:?}: expected clap's line and a hint, got {err:?}");
    }
}

#[test]
fn documented_config_keys_are_accepted() {
    // LAB.md: "the game's pause-on-focus-loss is off unless `config pause_on_focus_loss 1`".
    for key in
        ["tick_hz 60", "max_frame_ms 250", "max_steps 8", "pause_on_focus_loss 0", "pause_on_focus_loss 1"]
    {
        let script = format!("config {key}\nframe 16.6667 x3\nfocus lost\nframe 16.6667 x3\n");
        let o = run(&["lab", "-", "--summary"], Some(&script));
        assert_eq!(o.status.code(), Some(0), "config {key}: {}", stderr(&o));
    }
}

// ---------------------------------------------------------------------------------------------
// Determinism over frame patterns.

/// The library's splitmix64, so every run tests the same patterns.
struct Rng(SplitMix64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(SplitMix64::new(seed))
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.0.next_u64() % (hi - lo + 1)
    }
}

const MAX_FRAME_NS: u64 = 250_000_000;

/// Cut `total` ns into frames of at most 250 ms, in one of several styles.
fn cut(total: u64, rng: &mut Rng) -> Vec<u64> {
    let style = rng.range(0, 3);
    let even = rng.range(1_000_000, 40_000_000);
    let mut frames = Vec::new();
    let mut left = total;
    while left > 0 {
        let d = match style {
            0 => rng.range(0, MAX_FRAME_NS),                                   // anything
            1 => even,                                                         // steady
            2 if rng.range(0, 9) == 0 => rng.range(100_000_000, MAX_FRAME_NS), // hitches
            2 => rng.range(2_000_000, 20_000_000),
            _ if rng.range(0, 4) == 0 => 0, // empty frames
            _ => rng.range(1, 3_000_000),   // very fast
        };
        let d = d.min(left);
        frames.push(d);
        left -= d;
    }
    frames
}

/// Random input edges over `0..=total` ns, sorted by time (stable): (time, directive).
fn events(total: u64, rng: &mut Rng) -> Vec<(u64, String)> {
    const KINDS: &[&str] = &[
        "press right",
        "release right",
        "press left",
        "release left",
        "press jump",
        "release jump",
        "press down",
        "release down",
        "repeat jump",
        "press jump synthetic",
        "focus lost",
        "focus gained",
        "pad connect",
        "pad disconnect",
        "axis X 0.8",
        "axis X -0.3",
    ];
    let n = rng.range(5, 60);
    let mut ev: Vec<(u64, String)> = (0..n)
        .map(|_| {
            // Mostly right and jump, so the player travels and jumps over the level.
            let k = if rng.range(0, 2) == 0 { rng.range(0, 5) } else { rng.range(0, KINDS.len() as u64 - 1) };
            (rng.range(0, total), KINDS[k as usize].to_string())
        })
        .collect();
    // Two events at the very same time keep their script order in every pattern.
    if let Some(&(t, _)) = ev.first() {
        ev.push((t, "press right".into()));
    }
    ev.sort_by_key(|e| e.0);
    ev
}

/// A script: `config` lines, then the frames with the events between them. An event is written
/// before the frame whose interval holds it, as `+MS` or `@MS` at random, or (sometimes) as
/// `@MS` several frames ahead.
fn script(config: &str, frames: &[u64], events: &[(u64, String)], rng: &mut Rng) -> String {
    let mut s = String::from(config);
    let mut clock = 0u64;
    let mut next = 0;
    for &d in frames {
        while next < events.len() && events[next].0 <= clock + d {
            let (t, what) = &events[next];
            let when = if rng.range(0, 1) == 0 {
                format!("+{}", format_ms(t - clock))
            } else {
                format!("@{}", format_ms(*t))
            };
            s += &format!("{what} {when}\n");
            next += 1;
        }
        s += &format!("frame {}\n", format_ms(d));
        clock += d;
        while next < events.len() && rng.range(0, 5) == 0 {
            let (t, what) = &events[next];
            s += &format!("{what} @{}\n", format_ms(*t));
            next += 1;
        }
    }
    assert_eq!(next, events.len(), "every event lies within the total time");
    s
}

fn lab(text: &str) -> Report {
    common::lab::run(text, &common::lab::options("<generated>", root(), false))
}

#[test]
fn same_events_same_total_time_any_frame_pattern_same_ticks_and_hash() {
    let mut rng = Rng::new(0x1ed9e);
    let mut jumps = 0;
    for seed in 0..12 {
        let hz = [60u64, 64, 144, 30, 100, 240][seed % 6];
        // Enough catch-up steps for a 250 ms frame plus a banked remainder: no cap.
        let max_steps = MAX_FRAME_NS * hz / 1_000_000_000 + 2;
        let config = format!("config tick_hz {hz}\nconfig max_steps {max_steps}\n");
        let total = rng.range(200_000_000, 3_000_000_000);
        let ev = events(total, &mut rng);
        let mut reference: Option<(Report, String)> = None;
        for _ in 0..4 {
            let frames = cut(total, &mut rng);
            assert_eq!(frames.iter().sum::<u64>(), total);
            let text = script(&config, &frames, &ev, &mut rng);
            let r = lab(&text);
            let s = &r.summary;
            assert_eq!(
                (s.totals.clamp_events, s.totals.cap_hits),
                (0, 0),
                "seed {seed}: the pattern must not clamp or cap"
            );
            assert_eq!(
                s.totals.ticks,
                total * hz / 1_000_000_000,
                "seed {seed}: ticks = floor(total x rate)"
            );
            match &reference {
                None => reference = Some((r, text)),
                Some((first, first_text)) => {
                    assert_eq!(
                        first.summary.state_hash, s.state_hash,
                        "seed {seed}: state_hash differs\n--- first ---\n{first_text}\n--- this ---\n{text}"
                    );
                    assert_eq!(first.ticks, r.ticks, "seed {seed}: the ticks differ\n--- this ---\n{text}");
                    assert_eq!(first.summary.jumps, s.jumps);
                }
            }
        }
        let (first, _) = reference.unwrap();
        assert!(
            first.ticks.as_ref().unwrap().iter().any(|t| t.player.vx != 0.0),
            "seed {seed}: the player never moved"
        );
        jumps += first.summary.jumps;
    }
    assert!(jumps > 0, "no generated run ever jumped");
}

#[test]
fn seed000_patterns_agree_when_their_totals_are_equal() {
    // Seed 000: [16.7 x6] is 100.2 ms, [8, 40, 5, 30, 8.3, 8.4] is 99.7 ms: different totals
    // (they may differ). Padded to the same 100.2 ms they must agree exactly.
    let head = "press right @0\npress jump @20\nrelease jump @70\n";
    let smooth = lab(&format!("{head}frame 16.7 x6\n"));
    let jittery =
        lab(&format!("{head}frame 8\nframe 40\nframe 5\nframe 30\nframe 8.3\nframe 8.4\nframe 0.5\n"));
    assert_eq!(smooth.summary.totals.wall_ms(), jittery.summary.totals.wall_ms());
    assert_eq!(smooth.summary.totals.ticks, 6);
    assert_eq!(smooth.ticks, jittery.ticks);
    assert_eq!(smooth.summary.state_hash, jittery.summary.state_hash);
    assert_eq!(smooth.summary.jumps, 1);
}

#[test]
fn binary_and_library_agree() {
    let mut rng = Rng::new(7);
    let total = 1_500_000_000;
    let ev = events(total, &mut rng);
    let text = script("", &cut(total, &mut rng), &ev, &mut rng);
    let lib = lab(&text);
    let o = run(&["lab", "-"], Some(&text));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bin: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(bin["summary"]["state_hash"], lib.summary.state_hash.as_str());
    assert_eq!(bin["summary"]["ticks"], lib.summary.totals.ticks);
    assert_eq!(bin["ticks"].as_array().unwrap().len(), lib.ticks.unwrap().len());
}

/// 2^20 s (about 12 days), nanoseconds.
const LATE_NS: u64 = (1 << 20) * 1_000_000_000;

/// A script whose wall clock starts `late` ns late: the game is paused (focus lost) for one
/// frame of `late` ns, which the loop never sees, and every `@MS` is `late` later. With
/// `late = 0` there is no paused frame.
fn late_script(late: u64) -> String {
    let at = |ns: u64| format_ms(late + ns);
    let mut s = String::from("config pause_on_focus_loss 1\nfocus lost @0\n");
    if late > 0 {
        s += &format!("frame {}\n", format_ms(late));
    }
    s += &format!("focus gained @{}\npress right @{}\nframe 16.666667 x10\n", at(0), at(5_000_000));
    s += &format!("press jump @{}\nrelease jump +5\nframe 7 x20\n", at(170_500_001));
    s += &format!(
        "release right @{}\nframe 16.666667 x30\npress left +0.000001\nframe 250\n",
        at(330_000_000)
    );
    s
}

#[test]
fn a_clock_that_starts_12_days_late_behaves_like_one_that_starts_at_0() {
    let on_time = lab(&late_script(0));
    let late = lab(&late_script(LATE_NS));
    assert_eq!(late.summary.state_hash, on_time.summary.state_hash);
    assert_eq!(late.summary.totals.ticks, on_time.summary.totals.ticks);
    assert_eq!(late.summary.jumps, 1);
    assert_eq!(late.ticks, on_time.ticks, "the same ticks, tick for tick");
    // Every frame after the paused one is the on-time frame one later.
    let (late_frames, frames) = (late.frames.unwrap(), on_time.frames.unwrap());
    assert!(late_frames[0].paused && late_frames.len() == frames.len() + 1);
    for (l, f) in late_frames[1..].iter().zip(&frames) {
        assert_eq!(FrameReport { frame: f.frame, ..l.clone() }, *f);
    }
    // Through the binary too: the script reads as written, 12 days of milliseconds and all.
    let o = run(&["lab", "-", "--summary"], Some(&late_script(LATE_NS)));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bin: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(bin["summary"]["state_hash"], on_time.summary.state_hash.as_str());
}

// ---------------------------------------------------------------------------------------------
// Tick-rate soaks (through the library, summary only).

fn soak(config: &str, frame_ns: u64, frames: u64) -> Report {
    let text = format!("{config}press right @0\nframe {} x{frames}\n", format_ms(frame_ns));
    let r = common::lab::run(&text, &common::lab::options("<soak>", root(), true));
    assert!(r.frames.is_none() && r.ticks.is_none(), "summary_only leaves out frames and ticks");
    let s = &r.summary;
    assert_eq!(s.totals.frames, frames);
    assert_eq!((s.totals.clamp_events, s.totals.cap_hits, s.totals.dropped_ms), (0, 0, 0.0));
    let hz = u64::from(r.config.tick_hz);
    // Integer time: over the whole soak, ticks = floor(elapsed x rate), never drifting.
    assert_eq!(s.totals.ticks, frame_ns * frames * hz / 1_000_000_000, "{config}");
    assert_eq!(s.totals.sim_ms, s.totals.ticks as f64 * 1000.0 / hz as f64);
    assert!(
        (s.totals.wall_ms() - (frame_ns * frames) as f64 / 1e6).abs() < 1e-3,
        "wall_ms {}",
        s.totals.wall_ms()
    );
    r
}

#[test]
fn soak_24h_of_60hz_frames_on_a_60hz_tick() {
    // 16.666667 ms is 20 ns longer than a tick: one extra tick's worth every 50 million frames,
    // so a day gives floor(5_184_000.104) = 5_184_000 ticks, 1 or 2 a frame.
    let r = soak("", 16_666_667, 24 * 3600 * 60);
    assert_eq!(r.summary.totals.ticks, 5_184_000);
    assert!(r.summary.totals.max_steps_in_frame <= 2);
}

#[test]
fn soak_1h_at_other_rates() {
    // 60 Hz frames on a 64 Hz tick: 230_400 ticks in an hour (+ 0.0046).
    let r = soak("config tick_hz 64\n", 16_666_667, 3600 * 60);
    assert_eq!(r.summary.totals.ticks, 230_400);
    assert_eq!(r.summary.totals.max_steps_in_frame, 2);
    // 144 Hz frames (6.944444 ms, 0.44 ns short) on the default 60 Hz tick.
    let r = soak("", 6_944_444, 3600 * 144);
    assert_eq!(r.summary.totals.ticks, 215_999);
    assert_eq!(r.summary.totals.max_steps_in_frame, 1);
}
