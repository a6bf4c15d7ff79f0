//! The lab cases in `tests/cases/` (copies of the shared regression cases): each script runs
//! through `ledge::lab::run_script` and every `# expect:` / `# expect-same-hash:` line in it is
//! checked by a Rust assertion with the same meaning as `labcheck`'s Python expression.
//!
//! Each assertion is labelled with the exact Python text of its `# expect:` line; a case fails
//! if a label is not in the file or a line of the file has no assertion, so a case edited in
//! `shared/` and copied here cannot silently lose a check. Also checked: every `.lab` in
//! `tests/cases` has a test here, and the copies are byte-identical to `../shared/cases` (a
//! missing `../shared/cases` fails: CI always has it beside the clone).

mod common;

use common::lab::rise;
use common::root;
use ledge::game_loop::{PlayerState, TickRecord};
use ledge::lab::report::{FrameReport, Report, SummaryReport};
use ledge::lab::run_script;
use ledge::sim::TickInput;
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// The folder holding the project's copies of the cases.
fn cases_dir() -> PathBuf {
    root().join("tests/cases")
}

/// labcheck's `near(a, b, tol)`: `abs(a - b) <= tol`.
fn near(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// Python's `max` / `min` over a non-empty sequence of floats (an empty one raises in Python,
/// which labcheck counts as a failure; here it panics, which fails the test the same way).
fn max_of(it: impl IntoIterator<Item = f64>) -> f64 {
    it.into_iter().reduce(f64::max).expect("max() of an empty sequence")
}

fn min_of(it: impl IntoIterator<Item = f64>) -> f64 {
    it.into_iter().reduce(f64::min).expect("min() of an empty sequence")
}

/// The `# expect:` and `# expect-same-hash:` lines of a case, as labcheck reads them.
fn expectations(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut exps, mut sames) = (Vec::new(), Vec::new());
    for line in text.lines().map(str::trim) {
        if let Some(e) = line.strip_prefix("# expect:") {
            exps.push(e.trim().to_string());
        } else if let Some(s) = line.strip_prefix("# expect-same-hash:") {
            sames.push(s.trim().to_string());
        }
    }
    (exps, sames)
}

/// Run a case file from `tests/cases` as labcheck does (`# summary-only` → summary only).
fn run_file(name: &str) -> (String, Report) {
    let path = cases_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let summary_only = text.lines().any(|l| l.trim() == "# summary-only");
    let opts = common::lab::options(&path.display().to_string(), &cases_dir(), summary_only);
    let report = run_script(&text, &opts).unwrap_or_else(|e| panic!("{name} did not run: {e}"));
    (text, report)
}

/// One case run, with the bookkeeping that ties each Rust assertion to a line of the file.
struct Case {
    name: &'static str,
    report: Report,
    /// `# expect:` lines not yet checked (a line may appear more than once).
    unchecked: RefCell<Vec<String>>,
    /// `# expect-same-hash:` targets not yet checked.
    unchecked_same: RefCell<Vec<String>>,
    failures: RefCell<Vec<String>>,
}

impl Case {
    fn run(name: &'static str) -> Case {
        let (text, report) = run_file(name);
        let (exps, sames) = expectations(&text);
        Case {
            name,
            report,
            unchecked: RefCell::new(exps),
            unchecked_same: RefCell::new(sames),
            failures: RefCell::new(Vec::new()),
        }
    }

    fn config_max_steps(&self) -> u32 {
        self.report.config.max_steps
    }

    fn frames(&self) -> &[FrameReport] {
        self.report.frames.as_deref().unwrap_or(&[])
    }

    fn ticks(&self) -> &[TickRecord] {
        self.report.ticks.as_deref().unwrap_or(&[])
    }

    fn summary(&self) -> &SummaryReport {
        &self.report.summary
    }

    /// Record the Rust evaluation `ok` of the file's `# expect: {python}` line.
    ///
    /// # Panics
    /// When `python` is not (or no longer) an unchecked `# expect:` line of the file.
    fn expect(&self, python: &str, ok: bool) {
        let mut left = self.unchecked.borrow_mut();
        let i = left
            .iter()
            .position(|e| e == python)
            .unwrap_or_else(|| panic!("{}: no unchecked '# expect: {python}' line in the file", self.name));
        left.remove(i);
        if !ok {
            self.failures.borrow_mut().push(format!("# expect: {python}"));
        }
    }

    /// `# expect-same-hash: OTHER`: OTHER (in the same folder) ends with the same state_hash.
    fn expect_same_hash(&self, other: &str) {
        let mut left = self.unchecked_same.borrow_mut();
        let i = left
            .iter()
            .position(|e| e == other)
            .unwrap_or_else(|| panic!("{}: no unchecked '# expect-same-hash: {other}' line", self.name));
        left.remove(i);
        let (_, theirs) = run_file(other);
        if theirs.summary.state_hash != self.report.summary.state_hash {
            self.failures.borrow_mut().push(format!(
                "# expect-same-hash: {other} ({} here, {} there)",
                self.report.summary.state_hash, theirs.summary.state_hash
            ));
        }
    }

    /// Fail on any failed expectation, and on any line of the file that was not checked.
    fn finish(self) {
        let failures = self.failures.borrow();
        let left = self.unchecked.borrow();
        let left_same = self.unchecked_same.borrow();
        assert!(
            failures.is_empty() && left.is_empty() && left_same.is_empty(),
            "{}:\n  failed: {failures:#?}\n  not checked by any assertion: {left:#?} {left_same:#?}\n  summary: {:?}",
            self.name,
            self.report.summary
        );
    }
}

/// Declares one `#[test]` per case, each running its file and the checks in the function of the
/// same name in [`checks`], and the list [`CASES`] of every file that has a test.
macro_rules! lab_cases {
    ($($test:ident => $file:literal,)*) => {
        /// Every case file that has a test: (test name, file name).
        const CASES: &[(&str, &str)] = &[$((stringify!($test), $file)),*];
        $(
            #[test]
            fn $test() {
                let case = Case::run($file);
                checks::$test(&case);
                case.finish();
            }
        )*
    };
}

lab_cases! {
    bug01a_tap_between_ticks => "bug01a-tap-between-ticks.lab",
    bug01b_catchup_no_double => "bug01b-catchup-no-double.lab",
    bug02_press_release_same_batch => "bug02-press-release-same-batch.lab",
    bug03a_key_repeat => "bug03a-key-repeat.lab",
    bug04a_focus_loss_releases => "bug04a-focus-loss-releases.lab",
    bug07_smooth_144hz => "bug07-smooth-144hz.lab",
    bug08_camera_same_frame => "bug08-camera-same-frame.lab",
    bug09_teleport_no_streak => "bug09-teleport-no-streak.lab",
    bug10a_debugger_pause => "bug10a-debugger-pause.lab",
    bug14_zero_size_resize => "bug14-zero-size-resize.lab",
    bug17a_tile_seams => "bug17a-tile-seams.lab",
    bug18a_fast_fall_lands => "bug18a-fast-fall-lands.lab",
    seed001_30fps_two_ticks => "seed001-30fps-two-ticks.lab",
    seed001_alpha_leftover => "seed001-alpha-leftover.lab",
    seed001_clamp_5s => "seed001-clamp-5s.lab",
    seed001_exact_30ms_100hz => "seed001-exact-30ms-100hz.lab",
    seed001_pattern_jittery => "seed001-pattern-jittery.lab",
    seed001_pattern_smooth => "seed001-pattern-smooth.lab",
    seed003_apex_60hz_frame10 => "seed003-apex-60hz-frame10.lab",
    seed003_apex_60hz_frame16_6667 => "seed003-apex-60hz-frame16.6667.lab",
    seed003_apex_60hz_frame20 => "seed003-apex-60hz-frame20.lab",
    seed003_apex_60hz_frame4 => "seed003-apex-60hz-frame4.lab",
    seed003_apex_60hz_frame40 => "seed003-apex-60hz-frame40.lab",
    seed003_apex_60hz_frame6_9444 => "seed003-apex-60hz-frame6.9444.lab",
    seed003_apex_tick144 => "seed003-apex-tick144.lab",
    seed003_apex_tick240 => "seed003-apex-tick240.lab",
    seed003_apex_tick30 => "seed003-apex-tick30.lab",
    seed003_apex_tick60 => "seed003-apex-tick60.lab",
    wall01_slide_caps_fall => "wall01-slide-caps-fall.lab",
    wall02_jump_pushes_away => "wall02-jump-pushes-away.lab",
    wall03_ground_jump_wins => "wall03-ground-jump-wins.lab",
    wall04a_grace_last_tick => "wall04a-grace-last-tick.lab",
    wall04b_grace_over => "wall04b-grace-over.lab",
    wall05_apex_frame144 => "wall05-apex-frame144.lab",
    wall05_apex_frame240 => "wall05-apex-frame240.lab",
    wall05_apex_frame30 => "wall05-apex-frame30.lab",
    wall05_apex_frame60 => "wall05-apex-frame60.lab",
}

/// The wall slide and wall jump cases' checks (`tests/lab_cases/wall.rs`).
#[path = "lab_cases/wall.rs"]
mod wall;

/// The checks of each case, one function per case file, each assertion labelled with the
/// Python expression it stands for.
mod checks {
    pub use super::wall::*;
    use super::{Case, max_of, min_of, near, rise};

    pub fn bug01a_tap_between_ticks(c: &Case) {
        c.expect(r#"summary["jumps"] == 1"#, c.summary().jumps == 1);
        c.expect("rise(ticks) > 0", rise(c.ticks()) > 0.0);
    }

    pub fn bug01b_catchup_no_double(c: &Case) {
        c.expect(r#"summary["jumps"] == 1"#, c.summary().jumps == 1);
        c.expect(
            r#"sum(1 for t in ticks if t["jump_started"]) == 1"#,
            c.ticks().iter().filter(|t| t.jump_started).count() == 1,
        );
    }

    pub fn bug02_press_release_same_batch(c: &Case) {
        c.expect(r#"summary["jumps"] == 1"#, c.summary().jumps == 1);
    }

    pub fn bug03a_key_repeat(c: &Case) {
        c.expect(r#"summary["jumps"] == 1"#, c.summary().jumps == 1);
    }

    pub fn bug04a_focus_loss_releases(c: &Case) {
        let t = c.ticks();
        c.expect(r#"ticks[-1]["vx"] == 0"#, t[t.len() - 1].player.vx == 0.0);
        c.expect(r#"ticks[-1]["x"] == ticks[-30]["x"]"#, t[t.len() - 1].player.x == t[t.len() - 30].player.x);
    }

    pub fn bug07_smooth_144hz(c: &Case) {
        let f = c.frames();
        let v = f[f.len() - 1].stats.player.vx;
        let fs = &f[144.min(f.len())..];
        c.expect(
            r#"(lambda fs, v: all(abs((b["drawn"]["x"] - a["drawn"]["x"]) - b["player"]["vx"] * b["dt_ms"] / 1000) <= 0.5 for a, b in zip(fs, fs[1:]) if a["player"]["vx"] == v == b["player"]["vx"]))(frames[144:], frames[-1]["player"]["vx"])"#,
            fs.windows(2)
                .filter(|w| w[0].stats.player.vx == v && v == w[1].stats.player.vx)
                .all(|w| ((w[1].stats.drawn.x - w[0].stats.drawn.x) - w[1].stats.player.vx * w[1].stats.frame_ms() / 1000.0).abs() <= 0.5),
        );
        c.expect(
            r#"sum(1 for f in frames[144:] if f["player"]["vx"] == frames[-1]["player"]["vx"]) > 200"#,
            fs.iter().filter(|x| x.stats.player.vx == v).count() > 200,
        );
    }

    pub fn bug08_camera_same_frame(c: &Case) {
        let f = c.frames();
        let fs = &f[600.min(f.len())..];
        let offsets = || fs.iter().map(|f| f.stats.camera.x - f.stats.drawn.x);
        c.expect(
            r#"(lambda fs: max(f["camera"]["x"] - f["drawn"]["x"] for f in fs) - min(f["camera"]["x"] - f["drawn"]["x"] for f in fs) <= 0.5)(frames[600:])"#,
            max_of(offsets()) - min_of(offsets()) <= 0.5,
        );
    }

    pub fn bug09_teleport_no_streak(c: &Case) {
        let f = c.frames();
        c.expect(
            r#"all(f["drawn"]["x"] < 100 or f["drawn"]["x"] >= 599 for f in frames)"#,
            f.iter().all(|f| f.stats.drawn.x < 100.0 || f.stats.drawn.x >= 599.0),
        );
        c.expect(
            r#"any(f["drawn"]["x"] >= 599 for f in frames)"#,
            f.iter().any(|f| f.stats.drawn.x >= 599.0),
        );
    }

    pub fn bug10a_debugger_pause(c: &Case) {
        let f = c.frames();
        let max_steps = c.config_max_steps();
        c.expect(r#"frames[10]["steps"] <= config["max_steps"]"#, f[10].stats.steps <= max_steps);
        c.expect(r#"all(f["steps"] >= 1 for f in frames[10:])"#, f[10..].iter().all(|f| f.stats.steps >= 1));
        c.expect(
            r#"summary["ticks"] <= 10 + config["max_steps"] + 11"#,
            c.summary().totals.ticks <= 10 + u64::from(max_steps) + 11,
        );
        c.expect(
            r#"all(0 <= f["alpha"] < 1 for f in frames)"#,
            f.iter().all(|f| 0.0 <= f.stats.alpha && f.stats.alpha < 1.0),
        );
    }

    pub fn bug14_zero_size_resize(c: &Case) {
        c.expect(r#"summary["surface_configures"] == 2"#, c.summary().surface_configures == 2);
        c.expect(r#"summary["ticks"] >= 19"#, c.summary().totals.ticks >= 19);
    }

    pub fn bug17a_tile_seams(c: &Case) {
        let t = c.ticks();
        c.expect(
            r#"(lambda ts: all(t["vx"] > 0 for t in ts))([t for t in ticks if t["tick"] > 30 and t["x"] < 85 * 16])"#,
            t.iter().filter(|t| t.tick > 30 && t.player.x < 85.0 * 16.0).all(|t| t.player.vx > 0.0),
        );
        c.expect(
            r#"ticks[-1]["x"] - ticks[0]["x"] >= 60 * 16"#,
            t[t.len() - 1].player.x - t[0].player.x >= 60.0 * 16.0,
        );
        c.expect(
            r#"max(t["y"] for t in ticks) - min(t["y"] for t in ticks) < 1"#,
            max_of(t.iter().map(|t| t.player.y)) - min_of(t.iter().map(|t| t.player.y)) < 1.0,
        );
    }

    pub fn bug18a_fast_fall_lands(c: &Case) {
        let t = c.ticks();
        c.expect(r#"ticks[-1]["on_ground"]"#, t[t.len() - 1].player.on_ground);
        c.expect(r#"ticks[-1]["y"] < 20 * 16"#, t[t.len() - 1].player.y < 20.0 * 16.0);
        c.expect(r#"max(t["vy"] for t in ticks) <= 900"#, max_of(t.iter().map(|t| t.player.vy)) <= 900.0);
    }

    pub fn seed001_30fps_two_ticks(c: &Case) {
        let f = c.frames();
        c.expect(r#"all(f["steps"] == 2 for f in frames)"#, f.iter().all(|f| f.stats.steps == 2));
        c.expect(r#"summary["ticks"] == 64"#, c.summary().totals.ticks == 64);
        c.expect(r#"all(f["alpha"] == 0 for f in frames)"#, f.iter().all(|f| f.stats.alpha == 0.0));
    }

    pub fn seed001_alpha_leftover(c: &Case) {
        let f = c.frames();
        c.expect(
            r#"frames[0]["steps"] == 1 and frames[0]["alpha"] == 0"#,
            f[0].stats.steps == 1 && f[0].stats.alpha == 0.0,
        );
        c.expect(
            r#"frames[1]["steps"] == 0 and frames[1]["alpha"] == 0.5"#,
            f[1].stats.steps == 0 && f[1].stats.alpha == 0.5,
        );
        c.expect(
            r#"frames[2]["steps"] == 0 and frames[2]["alpha"] == 0.75"#,
            f[2].stats.steps == 0 && f[2].stats.alpha == 0.75,
        );
        c.expect(
            r#"near(frames[2]["accumulator_ms"], 11.71875, 1e-9)"#,
            near(f[2].stats.accumulator_ms, 11.71875, 1e-9),
        );
    }

    pub fn seed001_clamp_5s(c: &Case) {
        let f = c.frames();
        let max_steps = c.config_max_steps();
        c.expect(
            r#"frames[3]["clamped"] and frames[3]["steps"] <= config["max_steps"]"#,
            f[3].stats.clamped && f[3].stats.steps <= max_steps,
        );
        c.expect(r#"near(frames[3]["alpha"], 0.8, 1e-6)"#, near(f[3].stats.alpha, 0.8, 1e-6));
        c.expect(r#"all(f["steps"] >= 1 for f in frames[4:])"#, f[4..].iter().all(|f| f.stats.steps >= 1));
        c.expect(
            r#"frames[3]["capped"] == (frames[3]["steps"] == config["max_steps"])"#,
            f[3].stats.capped == (f[3].stats.steps == max_steps),
        );
        c.expect(
            r#"all(0 <= f["alpha"] < 1 for f in frames)"#,
            f.iter().all(|f| 0.0 <= f.stats.alpha && f.stats.alpha < 1.0),
        );
        c.expect(r#"summary["clamp_events"] == 1"#, c.summary().totals.clamp_events == 1);
        c.expect(
            r#"summary["ticks"] <= 3 + config["max_steps"] + 4"#,
            c.summary().totals.ticks <= 3 + u64::from(max_steps) + 4,
        );
    }

    pub fn seed001_exact_30ms_100hz(c: &Case) {
        let f = c.frames();
        c.expect(r#"all(f["steps"] == 3 for f in frames)"#, f.iter().all(|f| f.stats.steps == 3));
        c.expect(r#"all(f["alpha"] == 0 for f in frames)"#, f.iter().all(|f| f.stats.alpha == 0.0));
        c.expect(r#"summary["ticks"] == 600"#, c.summary().totals.ticks == 600);
    }

    /// The ticks on which a jump started (`[t["tick"] for t in ticks if t["jump_started"]]`).
    fn jump_ticks(c: &Case) -> Vec<u64> {
        c.ticks().iter().filter(|t| t.jump_started).map(|t| t.tick).collect()
    }

    pub fn seed001_pattern_jittery(c: &Case) {
        let s = c.summary();
        c.expect(r#"summary["ticks"] == 64"#, s.totals.ticks == 64);
        c.expect(
            r#"summary["clamp_events"] == 0 and summary["cap_hits"] == 0"#,
            s.totals.clamp_events == 0 && s.totals.cap_hits == 0,
        );
        c.expect(r#"[t["tick"] for t in ticks if t["jump_started"]] == [20]"#, jump_ticks(c) == [20]);
    }

    pub fn seed001_pattern_smooth(c: &Case) {
        c.expect(r#"summary["ticks"] == 64"#, c.summary().totals.ticks == 64);
        c.expect(r#"[t["tick"] for t in ticks if t["jump_started"]] == [20]"#, jump_ticks(c) == [20]);
        c.expect_same_hash("seed001-pattern-jittery.lab");
    }

    /// Every seed 003 case: one jump, and the apex rise within 0.001 px of `want`.
    fn apex(c: &Case, python_rise: &str, want: f64) {
        c.expect(r#"summary["jumps"] == 1"#, c.summary().jumps == 1);
        c.expect(python_rise, near(rise(c.ticks()), want, 0.001));
    }

    pub fn seed003_apex_60hz_frame10(c: &Case) {
        apex(c, "near(rise(ticks), 116.667, 0.001)", 116.667);
    }

    pub fn seed003_apex_60hz_frame16_6667(c: &Case) {
        apex(c, "near(rise(ticks), 116.667, 0.001)", 116.667);
    }

    pub fn seed003_apex_60hz_frame20(c: &Case) {
        apex(c, "near(rise(ticks), 116.667, 0.001)", 116.667);
    }

    pub fn seed003_apex_60hz_frame4(c: &Case) {
        apex(c, "near(rise(ticks), 116.667, 0.001)", 116.667);
    }

    pub fn seed003_apex_60hz_frame40(c: &Case) {
        apex(c, "near(rise(ticks), 116.667, 0.001)", 116.667);
    }

    pub fn seed003_apex_60hz_frame6_9444(c: &Case) {
        apex(c, "near(rise(ticks), 116.667, 0.001)", 116.667);
    }

    pub fn seed003_apex_tick144(c: &Case) {
        apex(c, "near(rise(ticks), 120.081, 0.001)", 120.081);
    }

    pub fn seed003_apex_tick240(c: &Case) {
        apex(c, "near(rise(ticks), 121.042, 0.001)", 121.042);
    }

    pub fn seed003_apex_tick30(c: &Case) {
        apex(c, "near(rise(ticks), 111.111, 0.001)", 111.111);
    }

    pub fn seed003_apex_tick60(c: &Case) {
        apex(c, "near(rise(ticks), 116.667, 0.001)", 116.667);
    }
}

/// Every `.lab` file in `tests/cases`, sorted.
fn case_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable folder entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".lab"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_case_file_has_a_test() {
    let mut listed: Vec<String> = CASES.iter().map(|(_, f)| f.to_string()).collect();
    listed.sort();
    assert_eq!(case_files(&cases_dir()), listed, "tests/cases and the lab_cases! list differ");
    for (test, file) in CASES {
        let want: String = file
            .trim_end_matches(".lab")
            .chars()
            .map(|c| if c == '-' || c == '.' { '_' } else { c })
            .collect();
        assert_eq!(*test, want, "the test for {file} is not named after it");
    }
}

/// The copies in `tests/cases` are byte-identical to `../shared/cases`. CI (`CI=true`, as
/// `.ci/run` is started) always has that folder beside the clone, so there a missing folder
/// fails the test (a copy could drift unseen otherwise). A newcomer's clone of this repository
/// alone has no `../shared` and nothing can install it: there the comparison is not made, and
/// the test says so on its output (`cargo test -- --nocapture` shows it) rather than failing
/// the README's test command.
#[test]
fn case_copies_match_the_shared_cases() {
    let shared = root().join("../shared/cases");
    let required = std::env::var("CI").is_ok_and(|v| v == "true");
    if !shared.is_dir() && !required {
        println!("NOT COMPARED: {} is missing (a clone without the shared repository)", shared.display());
        return;
    }
    assert!(
        shared.is_dir(),
        "{} is missing, so the copies in tests/cases cannot be compared with the shared cases: \
         check out the shared repository as `shared/` beside this clone (CI always has it there)",
        shared.display()
    );
    let names = case_files(&shared);
    assert!(!names.is_empty(), "{} holds no .lab files", shared.display());
    for name in names {
        let theirs = std::fs::read(shared.join(&name)).expect("readable shared case");
        let ours = std::fs::read(cases_dir().join(&name)).unwrap_or_else(|e| {
            panic!("tests/cases/{name} missing (copy it from {}): {e}", shared.display())
        });
        assert!(ours == theirs, "tests/cases/{name} differs from {}", shared.join(&name).display());
    }
}

#[test]
fn rise_matches_labcheck_on_hand_made_ticks() {
    let tick = |tick: u64, y: f64, jump_started: bool| TickRecord {
        tick,
        player: PlayerState { x: 0.0, y, vx: 0.0, vy: 0.0, on_ground: false },
        jump_started,
        respawned: false,
        rewound: false,
        loaded: false,
        died: false,
        entities: Vec::new(),
        riding: None,
        players: Vec::new(),
        sounds: ledge::sim::cues::CueSet::EMPTY,
        input: TickInput::default(),
    };
    // No jump: 0.
    assert_eq!(rise(&[tick(1, 100.0, false), tick(2, 50.0, false)]), 0.0);
    // Base is the tick before the jump; the lowest y after it (the apex) counts, earlier ones not.
    let ts = [
        tick(1, 10.0, false),
        tick(2, 100.0, false),
        tick(3, 90.0, true),
        tick(4, 70.0, false),
        tick(5, 95.0, false),
    ];
    assert_eq!(rise(&ts), 30.0);
    // A jump on the first tick uses that tick as the base.
    assert_eq!(rise(&[tick(1, 100.0, true), tick(2, 60.0, false)]), 40.0);
    assert!(near(1.0, 1.0005, 0.001) && !near(1.0, 1.002, 0.001));
}
